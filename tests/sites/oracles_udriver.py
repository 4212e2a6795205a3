"""Scripted solutions of REAL's v2 udriver tasks on REAL-local UDriver, in HALO's action space.

TEST FIXTURES ONLY: they prove each task is solvable on the clone and that agisdk's script accepts the result.
They are never training data (HALO trains by online RL only). The account starts with $25.50 of UDriver Credits
(the default payment), a Visa ending in 4242 on file, and cash."""

from __future__ import annotations

from _shop_helpers import Step, click, fill, say, select, tap

CARD = "Visa •••• 4242"


def ride(pickup: str, dropoff: str, *, time: str | None = None, date: str | None = None,
         choose: str | None = None) -> list[Step]:
    """Type a pickup and a drop-off (address or place name), optionally schedule, see prices; ``choose`` picks
    one of several matching places."""
    steps = [fill("textbox", "Pickup location", pickup), fill("textbox", "Dropoff location", dropoff)]
    if time:
        steps.append(select("Pickup time", time))
    if date:
        steps.append(fill("textbox", "Pickup date", date))
    steps.append(click("button", "See prices"))
    return [*steps, *([click("button", choose)] if choose else [])]


def book(car: str | None = None, payment: str | None = None) -> list[Step]:
    steps = [click("radio", car)] if car else []
    if payment:
        steps.append(select("Payment method", payment))
    return [*steps, click("button", "Request ride")]


ORACLES: dict[str, list[Step]] = {
    "udriver-11": [*ride("Club X", "Fox Plaza Apartments"), *book("UdriverX", "UDriver Credits ($25.50)"),
                   say("Booked a UdriverX from Club X to Fox Plaza Apartments for $20.50, paid with your credits.")],
    "udriver-13": [*ride("Golden Gates apartments", "chase bank", choose="Chase Bank (Union Square)"),
                   *book("UdriverX"), say("Booked a UdriverX now from Golden Gate Apartments to Chase Bank.")],
    "udriver-14": [click("link", "Wallet"), click("button", f"Set {CARD} as default"),
                   say(f"Your default payment is now your {CARD}.")],
    "udriver-15": [*ride("388 Beale", "Amber Indian Restaurants"), *book("UdriverXL", CARD),
                   say("Booked a UdriverXL from 388 Beale St to Amber India Restaurant ($30.40 on your Visa).")],
    "udriver-16": [*ride("1 Hotel San Francisco", "100 Van Ness Ave, San Francisco"), *book(),
                   say("Booked a UdriverX from 1 Hotel San Francisco to 100 Van Ness Ave for $18.00.")],
    "udriver-17": [*ride("333 Fremont Apartments", "201 Turk Street Apartments", time="3:30 PM", date="7/18/2024"),
                   say("A ride on July 18 at 3:30 PM from 333 Fremont Apartments to 201 Turk Street Apartments "
                       "costs $16.00 (UdriverX); UdriverGreen is $15.12, XL $25.60, Black $35.20.")],
    "udriver-19": [*ride("AI Electronics Center", "333 Fremont Apartments"),
                   say("Rides from AI Electronics Center to 333 Fremont Apartments: UdriverX $15.50, UdriverGreen "
                       "$14.65, XL $24.80, Black $34.10. Your $25.50 credits cover all but Black.")],
    "udriver-2": [tap("link", "Wallet"), click("radio", "$100"), select("Pay with", CARD),
                  click("button", "Add credits"), say("Added $100 of credits with your Visa; balance $125.50.")],
    "udriver-20": [*ride("Club 26 Mix", "100 Van Ness"), *book("UdriverGreen"),
                   say("Booked the cheapest ride, UdriverGreen ($18.19), from Club 26 Mix to 100 Van Ness.")],
    "udriver-3": [*ride("1001 Castro Street", "1030 Post Street Apartments"), *book(),
                  say("Booked a UdriverX from 1001 Castro Street to 1030 Post Street Apartments.")],
    "udriver-4": [*ride("1000 Chestnut St", "Rooftop 25"), *book(),
                  say("Rides from 1000 Chestnut St to Rooftop 25 start at $16.54; I booked a UdriverX for $17.50.")],
    "udriver-6": [*ride("Aaha Indian Cuisine", "Casa Loma Hotel"), *book("UdriverX", "UDriver Credits ($25.50)"),
                  say("Booked a $13.75 UdriverX to Casa Loma Hotel with your credits ($25.50 covered it).")],
    "udriver-7": [*ride("22 and Irving Street", "7/11", choose="7-Eleven (Irving St)"), *book(),
                  say("Booked a UdriverX from 22nd & Irving to the 7-Eleven on Irving St.")],
    "udriver-9": [*ride("1 Hotel San Francisco", "1030 Post Street Apartments"), *book("UdriverXL", "Cash"),
                  say("Booked a UdriverXL now from 1 Hotel San Francisco to 1030 Post Street Apartments, cash.")],
}
