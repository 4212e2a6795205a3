"""Scripted solutions of REAL's v2 opendining tasks on REAL-local OpenDining, in HALO's action space.

TEST FIXTURES ONLY: they prove each task is solvable on the clone and that agisdk's script accepts the result.
They are never training data (HALO trains by online RL only). Today on the site is Thursday, July 18, 2024."""

from __future__ import annotations

from _shop_helpers import Step, click, fill, say, select, tap

TERM = "Location, Restaurant, or Cuisine"


def find_table(time: str, party: int | None = None, date: str | None = None) -> list[Step]:
    """On a restaurant page: set party size, date and time, find a time, take the slot at that time."""
    steps = []
    if party:
        steps.append(select("Party size", f"{party} people"))
    if date:
        steps.append(fill("textbox", "Date", date))
    return [*steps, select("Time", time), click("button", "Find a time"), click("link", time)]


def reserve(occasion: str | None = None) -> list[Step]:
    """On the reservation form (name, phone and email come filled in from the account)."""
    return [*([select("Occasion", occasion)] if occasion else []), click("button", "Complete reservation")]


def search(term: str = "", time: str | None = None) -> list[Step]:
    steps = [fill("textbox", TERM, term)] if term else []
    return [*steps, *([select("Time", time)] if time else []), click("button", "Let's go")]


ORACLES: dict[str, list[Step]] = {
    "opendining-1": [click("link", "Italian"), click("link", "Trattoria Roma"), *find_table("3:00 PM"), *reserve(),
                     say("Booked Trattoria Roma (Italian) for today at 3:00 PM.")],
    "opendining-12": [*search("River View"), click("link", "River View Café"),
                      *find_table("3:00 PM", party=5, date="2025-09-29"), *reserve(),
                      say("Reserved River View Café for 5 people on September 29, 2025 at 3:00 PM.")],
    "opendining-17": [click("link", "Haight-Ashbury"), click("link", "Haight Street Kitchen"),
                      *find_table("8:00 PM", party=6, date="2024-09-22"), *reserve("Business meal"),
                      say("Booked Haight Street Kitchen in Haight-Ashbury for 6 on September 22 at 8:00 PM, "
                          "marked as a business meal.")],
    "opendining-2": [click("link", "American"), click("link", "The Golden Fork"), *find_table("7:30 PM"),
                     *reserve("Birthday"),
                     say("Reserved The Golden Fork (American) for 2 tonight at 7:30 PM, noted as a birthday.")],
    "opendining-20": [*search("Evening Delight"), click("link", "Evening Delight"), select("Time", "5:00 PM"),
                      click("button", "Find a time"), click("button", "Notify me when 5:00 PM is available"),
                      say("Evening Delight is fully booked at 5:00 PM; you'll be notified when it opens up.")],
    "opendining-24": [*search("Italian", "12:30 PM"), click("link", "Reserve Trattoria Roma at 12:30 PM"),
                      *reserve(), say("Booked Trattoria Roma (Italian) today at 12:30 PM.")],
    "opendining-4": [tap("link", "Bella Notte"), *find_table("9:00 PM"), *reserve(),
                     say("Booked Bella Notte (4.6 stars, top rated) for 9:00 PM tonight.")],
    "opendining-5": [click("link", "Bella Notte"), *find_table("8:00 PM"), *reserve("Birthday"),
                     say("Booked Bella Notte (4.6 stars) for 2 tonight at 8:00 PM for your birthday.")],
    "opendining-6": [*search(time="1:30 PM"), click("link", "Reserve Liberty Grill at 1:30 PM"), *reserve(),
                     say("Reserved Liberty Grill for today, July 18, at 1:30 PM.")],
    "opendining-7": [click("link", "Embarcadero"), select("Rating", "3 stars & up"), click("button", "Apply filters"),
                     click("link", "Reserve Harbor Lights Seafood at 7:00 PM"), *reserve(),
                     say("Booked Harbor Lights Seafood (4.3 stars, Embarcadero) today at 7:00 PM.")],
    "opendining-9": [click("link", "Breakfast & Brunch"), click("link", "Sunrise Diner"), *find_table("8:00 AM"),
                     *reserve(), say("Booked breakfast at Sunrise Diner (4.3 stars) today at 8:00 AM.")],
}
