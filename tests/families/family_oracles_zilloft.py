"""Scripted solutions of Zilloft's task families (TEST FIXTURES ONLY: never training data), and near misses.

``ORACLES[family](d, params)`` solves any instance through BrowserEnv (``d`` is ``tests/sites/site_helpers.py``'s
Driver). ``VERIFIED[family]`` names the parameters its grader must hold the episode to: the tests grade a solved
/finish JSON against the same parameters with one of them changed (another listing, day, time, sort, price ...)
and expect a failure. ``BROWSER_NEAR_MISSES`` are wrong-but-close episodes played in the browser.
"""

from __future__ import annotations

from halo.env import actions as A
from halo.tasks.families.zilloft import ME, POPULAR, day_text
from real_local.zilloft.listings import BY_ID, LISTINGS, TYPE_LABELS

HERO = "Enter an address, neighborhood, city, or ZIP code"


async def search(d, query: str) -> None:
    await d.fill("textbox", HERO, query, exact=True)
    await d.press("textbox", HERO, "Enter", exact=True)


async def select(d, name: str, option: str) -> None:
    await d.step(A.SelectOption(d.find("combobox", name, exact=True).id, (option,)))


async def popular(d, p):
    await d.click("link", p["area"], exact=True)


async def type_query(d, p):
    await d.fill("textbox", HERO, p["query"], exact=True)


async def open_listing(d, p):
    await search(d, p["query"])
    await d.click("link", BY_ID[p["listing"]].full_address, exact=True)


async def save(d, p):
    await search(d, p["query"])
    await d.click("button", f"Save {BY_ID[p['listing']].street}", exact=True)


async def sort(d, p):
    await search(d, p["place"])
    await select(d, "Sort:", p["sort"])


async def filters(d, p):
    await search(d, p["place"])
    await d.click("button", "Price", exact=True)  # the filters are dropdowns, as on Zillow
    await d.fill("textbox", "Maximum price", str(p["maxPrice"]), exact=True)
    await d.click("button", "Beds & Baths", exact=True)
    await d.click("radio", f"{p['minBeds']}+ bedrooms", exact=True)  # a radio applies the form at once
    await d.click("radio", f"{p['minBaths']:g}+ bathrooms", exact=True)  # (and its dropdown stays open)


async def exact(d, p):
    await search(d, p["place"])
    await d.click("button", "Home Type", exact=True)
    await d.click("checkbox", TYPE_LABELS[p["homeType"]], exact=True)
    await d.click("button", "Beds & Baths", exact=True)
    await d.click("checkbox", "Use exact match for bedrooms", exact=True)
    await d.click("radio", f"Exactly {p['beds']} bedrooms", exact=True)


async def tour(d, p, date: str | None = None):
    h = BY_ID[p["listing"]]
    await search(d, h.street)
    await d.click("link", h.full_address, exact=True)
    await d.click_xy("button", "Request a tour", exact=True)
    if p["tourType"] == "video-chat":
        await d.click("radio", "Video chat", exact=True)
    await d.click("radio", day_text(date or p["date"]), exact=True)
    await select(d, "Select a time", p["time"])
    await d.fill("textbox", "Full name", ME["name"], exact=True)
    await d.fill("textbox", "Email", ME["email"], exact=True)
    await d.fill("textbox", "Phone", ME["phone"], exact=True)
    await d.click("button", "Request this time", exact=True)


ORACLES = {"zilloft.popular": popular, "zilloft.type": type_query, "zilloft.open": open_listing,
           "zilloft.save": save, "zilloft.sort": sort, "zilloft.filter": filters, "zilloft.tour": tour, "zilloft.exact": exact}

# parameters each grader must hold the episode to (the popular search's hope only colours the goal)
VERIFIED = {"zilloft.popular": ("area",), "zilloft.type": ("query",), "zilloft.open": ("listing", "query"),
            "zilloft.save": ("listing", "query"), "zilloft.sort": ("place", "sort"),
            "zilloft.filter": ("place", "maxPrice", "minBeds", "minBaths"),
            "zilloft.tour": ("listing", "date", "time", "tourType"), "zilloft.exact": ("place", "homeType", "beds")}


# ---------------------------------------------------------------- near misses played in the browser
async def wrong_area(d, p):
    await popular(d, {"area": POPULAR[(POPULAR.index(p["area"]) + 1) % len(POPULAR)]})


async def wrong_day(d, p):
    from real_local.zilloft.state import tour_dates

    days = [x.isoformat() for x in tour_dates()]
    await tour(d, p, date=days[(days.index(p["date"]) + 1) % len(days)])


async def neighbour_saved(d, p):
    """Saves the other home of the same search results (the card next to the right one)."""
    await search(d, p["query"])
    hearts = [e for e in d.obs.elements.values() if e.role == "button" and e.name.startswith("Save ")]
    mine = f"Save {BY_ID[p['listing']].street}"
    other = next(e for e in hearts if e.name != mine)
    await d.step(A.Click(other.id))


BROWSER_NEAR_MISSES = {"zilloft.popular": wrong_area, "zilloft.tour": wrong_day, "zilloft.save": neighbour_saved}


# ---------------------------------------------------------------- near misses edited into a solved /finish JSON
def extra_saved_home(state: dict) -> None:
    """Another home saved too (an unwanted change every Zilloft family refuses)."""
    saved = state["differences"].setdefault("savedHomes", {"added": {}, "updated": {}, "deleted": {}})
    hid = next(h.id for h in LISTINGS if h.id not in saved["added"])
    saved["added"][hid] = {"id": hid}
