"""Scripted solutions of StayNB's task families (TEST FIXTURES ONLY: never training data), and near misses.

``ORACLES[family](d, params)`` solves any instance through BrowserEnv, finding elements by role and name in the
current Observation (``d`` is ``tests/sites/site_helpers.py``'s Driver). ``VERIFIED[family]`` names the parameters
its grader must hold the episode to: the tests grade a solved /finish JSON against the same parameters with one of
them changed (another destination, place, date, guest count or amenity) and expect a failure.
``BROWSER_NEAR_MISSES`` are wrong-but-close episodes played in the browser.
"""

from __future__ import annotations

import datetime as dt

from halo.env import actions as A
from halo.tasks.families.staynb import CARD_FIELDS, POPULAR, WHERE_FIELD, listings_of, where_typed
from real_local.staynb.listings import BY_ID


async def select(d, name: str, label: str) -> None:
    await d.step(A.SelectOption(d.find("combobox", name, exact=True).id, (label,)))


async def search_bar(d, dest: str, checkin: str = "", checkout: str = "", adults: int = 0, children: int = 0):
    await d.fill("textbox", WHERE_FIELD, where_typed(dest), exact=True)
    if checkin:
        await d.fill("textbox", "Check in", checkin, exact=True)
    if checkout:
        await d.fill("textbox", "Check out", checkout, exact=True)
    if adults:
        await select(d, "Adults", str(adults))
    if children:
        await select(d, "Children", str(children))
    await d.click("button", "Search", exact=True)


async def destination(d, p):
    await d.click("link", "Explore places near you" if p["dest"] == "Nearby" else p["dest"], exact=True)


async def night(d, p):
    await search_bar(d, p["dest"], p["date"])


async def save(d, p):
    x = BY_ID[p["listing"]]
    await search_bar(d, x.destination)
    await d.click("button", f"Save {x.title} to wishlist", exact=True)
    await d.click("button", "Favorites", exact=True)  # the heart asks which wishlist, as Airbnb's does


async def search(d, p, filters: bool = True):
    await search_bar(d, p["dest"], p["checkin"], p["checkout"], p["adults"], p["children"])
    if filters:
        await d.click("checkbox", p["amenity"], exact=True)
        await d.click("button", "Show places", exact=True)


async def book(d, p, pay: bool = True):
    x = BY_ID[p["listing"]]
    await search_bar(d, x.destination, p["checkin"], p["checkout"], p["adults"])
    await d.click("link", x.title, exact=True)
    await d.click("button", "Reserve", exact=True)
    for k, label in CARD_FIELDS.items():
        await d.fill("textbox", label, p[k], exact=True)
    if pay:
        await d.click("button", "Confirm and pay", exact=True)


ORACLES = {"staynb.destination": destination, "staynb.night": night, "staynb.save": save, "staynb.search": search,
           "staynb.book": book}

VERIFIED = {"staynb.destination": ("dest",), "staynb.night": ("dest", "date"), "staynb.save": ("listing",),
            "staynb.search": ("dest", "checkin", "checkout", "adults", "children", "amenity"),
            "staynb.book": ("listing", "checkin", "checkout", "adults")}


# ---------------------------------------------------------------- near misses played in the browser
async def wrong_destination(d, p):
    await destination(d, {"dest": POPULAR[(POPULAR.index(p["dest"]) + 1) % len(POPULAR)]})


async def next_night(d, p):
    await night(d, {**p, "date": (dt.date.fromisoformat(p["date"]) + dt.timedelta(days=1)).isoformat()})


async def neighbour_saved(d, p):
    x = BY_ID[p["listing"]]
    here = listings_of(x.destination)
    await save(d, {"listing": here[(here.index(x) + 1) % len(here)].id})


async def no_filter(d, p):
    """The search right, the amenity never filtered."""
    await search(d, p, filters=False)


async def unpaid(d, p):
    """Everything but the last click: the card typed, nothing booked."""
    await book(d, p, pay=False)


BROWSER_NEAR_MISSES = {"staynb.destination": wrong_destination, "staynb.night": next_night,
                       "staynb.save": neighbour_saved, "staynb.search": no_filter, "staynb.book": unpaid}
EXTRA_BROWSER_NEAR_MISSES: list = []


# ---------------------------------------------------------------- near misses edited into a solved /finish JSON
def extra_share(state: dict) -> None:
    """A place shared as well (an unwanted change every StayNB family refuses)."""
    shares = state["differences"].setdefault("shares", {"added": {}}).setdefault("added", {})
    shares["9"] = {"listingId": "1080", "title": "Stylish apartment in Vancouver", "channel": "Text group chat"}
