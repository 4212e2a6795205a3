"""Scripted solutions of REAL's v2 zilloft tasks on REAL-local Zilloft, in HALO's action space.

TEST FIXTURES ONLY: they prove each task is solvable on the clone and that agisdk's script accepts the result.
They are never training data (HALO trains by online RL only)."""

from __future__ import annotations

from _shop_helpers import Step, click, fill, press, say, select, tap

HERO = "Enter an address, neighborhood, city, or ZIP code"
ME = ("John Doe", "john.doe@example.com", "310-555-0142")


def search(location: str) -> list[Step]:
    return [fill("textbox", HERO, location), press("textbox", HERO, "Enter")]


def price(lo: str | None = None, hi: str | None = None) -> list[Step]:
    """Open the Price dropdown and type the range (applied by the next radio button, checkbox or Apply)."""
    return [click("button", "Price", prefix=True), *([fill("textbox", "Minimum price", lo)] if lo else []),
            *([fill("textbox", "Maximum price", hi)] if hi else [])]


def rooms(beds: int | None = None, baths: int | None = None) -> list[Step]:
    """Open Beds & Baths and pick "N+" (each radio button applies the filters at once; the dropdown stays open)."""
    return [click("button", "Beds & Baths", prefix=True), *([click("radio", f"{beds}+ bedrooms")] if beds else []),
            *([click("radio", f"{baths}+ bathrooms")] if baths else [])]


def apply() -> Step:
    return click("button", "Apply")


def sort(label: str) -> Step:
    return select("Sort:", label)


def open_home(address: str) -> Step:
    return click("link", address)


def request_tour(day: str, time: str) -> list[Step]:
    """Open the dialog, pick a day ("Saturday, July 20") and a time, fill the contact form, send."""
    return [tap("button", "Request a tour"), click("radio", day), select("Select a time", time),
            fill("textbox", "Full name", ME[0]), fill("textbox", "Email", ME[1]), fill("textbox", "Phone", ME[2]),
            click("button", "Request this time")]


def contact_agent(date: str, time: str) -> list[Step]:
    return [tap("button", "Contact agent"), fill("textbox", "Name", ME[0]), fill("textbox", "Phone number", ME[2]),
            fill("textbox", "Email address", ME[1]), select("Preferred tour date", date),
            select("Preferred tour time", time), click("button", "Send message")]


ORACLES: dict[str, list[Step]] = {
    # hundreds of Californian homes fit: sorted by price, 3621 Mulberry St ($489,000) is on the first page
    "zilloft-10": [*search("California"), *price(hi="500000"), *rooms(beds=2), sort("Price (High to Low)"),
                   open_home("3621 Mulberry St, Riverside, CA 92501"), *request_tour("Friday, July 19", "10:00 AM"),
                   say("I requested a tour of 3621 Mulberry St, Riverside ($489,000, 3 bd) on Friday at 10 AM.")],
    "zilloft-14": [*search("Boston, MA"), *price(hi="1,000,000"), apply(),
                   open_home("18 Dorchester St, Boston, MA 02127"), *contact_agent("2024-07-19", "9:00 AM"),
                   say("I contacted the agent of 18 Dorchester St for a tour tomorrow at 9 AM.")],
    "zilloft-15": [*search("San Francisco Bay Area"), *price(hi="1000000"), *rooms(beds=3),
                   open_home("3510 Lyon Ave, Oakland, CA 94601"), *request_tour("Saturday, July 20", "1:00 PM"),
                   say("Tour requested at 3510 Lyon Ave, Oakland ($849,000, 3 bd) on Saturday at 1 PM.")],
    "zilloft-2": [*search("Long Beach, CA"), *rooms(beds=3, baths=2), open_home("3521 Gale Ave, Long Beach, CA 90810"),
                  *request_tour("Saturday, July 20", "11:00 AM"),
                  say("I requested a tour of 3521 Gale Ave, a 3 bed 2 bath house in Long Beach.")],
    # Houses only (the Home Type dropdown), newest first: 3818 W 59th Pl is on the first page
    "zilloft-22": [*search("Southern California"), *price(hi="$1M"), apply(),
                   click("button", "Home Type", prefix=True), click("checkbox", "Houses"), sort("Newest"),
                   open_home("3818 W 59th Pl, Los Angeles, CA 90043"), *request_tour("Monday, July 22", "2:00 PM"),
                   say("Booked a tour of 3818 W 59th Pl, Los Angeles ($789,000).")],
    "zilloft-23": [*search("California"), *price(hi="900000"), *rooms(beds=3),
                   say("Homes in California under $900k with 3+ bedrooms: 3510 Lyon Ave Oakland, 25160 Cypress Ave "
                       "Hayward, 3521 Gale Ave Long Beach, and more on the results pages.")],
    "zilloft-3": [*search("Los Angeles"), *price(hi="350000"), *rooms(beds=2, baths=1),
                  open_home("1547 E 118th St, Los Angeles, CA 90059"), *request_tour("Friday, July 19", "11:00 AM"),
                  say("Tour requested for July 19 at 1547 E 118th St, Los Angeles ($339,000, 2 bd 1 ba).")],
    "zilloft-5": [*search("San Jose, CA"), open_home("988 Story Rd, San Jose, CA 95122"),
                  *contact_agent("2024-07-23", "10:00 AM"), say("I contacted Priya Patel, an agent in San Jose.")],
    "zilloft-6": [*search("Sacramento, CA"), *price("500000", "1100000"), *rooms(beds=4, baths=2),
                  open_home("5320 Carlson Dr, Sacramento, CA 95819"), *contact_agent("2024-07-19", "1:00 PM"),
                  say("Contacted the agent of 5320 Carlson Dr for a tour on July 19 at 1 PM.")],
    "zilloft-9": [*search("Long Beach"), click("button", "More", prefix=True),
                  fill("textbox", "Minimum square feet", "1000"), apply(), open_home("3521 Gale Ave, Long Beach, CA 90810"), *request_tour("Sunday, July 21", "3:00 PM"),
                  say("3521 Gale Ave, Long Beach has 1,410 sqft; I requested a tour.")],
}
