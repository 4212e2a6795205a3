"""Scripted solutions of REAL's v2 staynb tasks on REAL-local StayNB, in HALO's action space.

TEST FIXTURES ONLY: they prove each task is solvable on the clone and that agisdk's script accepts the result.
They are never training data (HALO trains by online RL only). Today on the site is Thursday, July 18, 2024; a
search with a check-in and no check-out is a single date (REAL records the night of July 18 as 2024-07-18 to
2024-07-18)."""

from __future__ import annotations

from _shop_helpers import Step, click, fill, say, select, tap

WHERE = "Search destinations"


def search(where: str, checkin: str | None = None, checkout: str | None = None, choose: str | None = None,
           **guests: int) -> list[Step]:
    """The search bar: destination, dates (YYYY-MM-DD), Adults/Children/Infants/Pets, then Search; ``choose`` picks
    one of several places with that name."""
    steps = [fill("textbox", WHERE, where)]
    if checkin:
        steps.append(fill("textbox", "Check in", checkin))
    if checkout:
        steps.append(fill("textbox", "Check out", checkout))
    steps += [select(kind, str(n)) for kind, n in guests.items()]
    steps.append(click("button", "Search"))
    return [*steps, *([click("link", choose)] if choose else [])]


def filters(*amenities: str, bedrooms: int = 0, beds: int = 0) -> list[Step]:
    steps = [select("Bedrooms", f"{bedrooms}+")] if bedrooms else []
    steps += [select("Beds", f"{beds}+")] if beds else []
    return [*steps, *(click("checkbox", a) for a in amenities), click("button", "Show places")]


ORACLES: dict[str, list[Step]] = {
    "staynb-1": [*search("Austria", "2024-08-01", "2024-08-05", Adults=2, Children=1), *filters(bedrooms=2),
                 say("Here are 2-bedroom places in Austria for 2 adults and 1 child, August 1 to 5.")],
    "staynb-12": [*search("Delhi, India", "2024-09-07", "2024-09-09", Adults=2),
                  say("Here are places in Delhi, India for 2 guests, September 7 to 9.")],
    "staynb-13": [*search("Miami", "2024-07-18"),
                  say("Here are places in Miami for the night of July 18; the Charming condo is one option.")],
    "staynb-14": [*search("Rome, Italy", "2025-01-03", "2025-01-05", Adults=4), *filters("Wifi", bedrooms=2),
                  say("Places in Rome with 2+ bedrooms and wifi for 4 guests, January 3 to 5, 2025.")],
    "staynb-15": [*search("San Jose", choose="San Jose, Costa Rica"),
                  say("These are the places in San Jose, Costa Rica: apartments, a villa, a cottage and more.")],
    "staynb-17": [*search("Provence, France", "2024-08-01", "2024-08-04", Adults=2, Children=1), *filters("Wifi"),
                  say("Places in Provence with wifi for 2 adults and a child, August 1 to 4.")],
    "staynb-19": [*search("Vancouver", "2024-11-15", "2024-11-18", choose="Vancouver, Canada", Adults=5),
                  click("link", "Stylish apartment in Vancouver"), tap("link", "Share"),
                  click("button", "Text group chat"),
                  say("The Stylish apartment in Vancouver sleeps 6; I shared it to your text group chat.")],
    "staynb-4": [*search("San Francisco", "2024-09-27", "2024-09-29", Adults=2), *filters("Wifi"),
                 say("Places in San Francisco with wifi for 2, September 27 to 29.")],
    "staynb-5": [*search("Paris", "2024-10-15", "2024-10-19", choose="Paris, France", Adults=3),
                 *filters("Wifi", "Free parking", "Air conditioning"),
                 say("Places in Paris with wifi, parking and AC for 3 adults, October 15 to 19.")],
    "staynb-6": [*search("Cape Town", "2024-10-01", "2024-10-06", Adults=4), *filters("Wifi", bedrooms=2, beds=2),
                 click("button", "Save Charming apartment in Cape Town to wishlist"),
                 click("button", "Favorites"),  # the heart asks which wishlist, as Airbnb's does
                 say("I saved the Charming apartment in Cape Town (3 bedrooms, 4 beds, wifi) to your wishlist.")],
    "staynb-9": [*search("near me", "2024-07-18"), *filters("Pool", "Wifi", "Free parking", "Air conditioning"),
                 say("Places near you tonight with a pool, wifi, free parking and AC.")],
}
