"""Scripted solutions of OpenDining's task families (TEST FIXTURES ONLY: never training data), and near misses.

``ORACLES[family](d, params)`` solves any instance through BrowserEnv, finding elements by role and name in the
current Observation (``d`` is ``tests/sites/site_helpers.py``'s Driver). ``VERIFIED[family]`` names the parameters
its grader must hold the episode to: the tests grade a solved /finish JSON against the same parameters with one of
them changed (another restaurant, date, time, party size, guest name, phone, email, occasion or request) and expect
a failure. ``BROWSER_NEAR_MISSES`` are wrong-but-close episodes played in the browser.
"""

from __future__ import annotations

from halo.env import actions as A
from halo.tasks.families.opendining import CONTACT_FIELDS, TERM_FIELD, explore_targets, people, times_of
from real_local.opendining.restaurants import BY_ID
from real_local.opendining.state import TODAY


async def select(d, name: str, label: str) -> None:
    await d.step(A.SelectOption(d.find("combobox", name, exact=True).id, (label,)))


async def when(d, time: str, party: int, date: str | None = None, term: str = "") -> None:
    """The home page's search: date, time, party size (each where not the default), term, "Let's go"."""
    if date and date != TODAY.isoformat():
        await d.fill("textbox", "Date", date, exact=True)
    if time != "7:00 PM":
        await select(d, "Time", time)
    if party != 2:
        await select(d, "Party size", people(party))
    if term:
        await d.fill("textbox", TERM_FIELD, term, exact=True)
    await d.click("button", "Let's go", exact=True)


async def slot(d, p) -> None:
    await d.click("link", f"Reserve {BY_ID[p['restaurant']].name} at {p['time']}", exact=True)


async def explore(d, p):
    await d.click("link", p["value"], exact=True)


async def find(d, p):
    await when(d, p["time"], p["party"], term=p["query"])


async def reserve(d, p):
    await when(d, p["time"], p["party"])
    await slot(d, p)
    await d.click("button", "Complete reservation", exact=True)


async def book(d, p, complete: bool = True):
    await when(d, p["time"], p["party"], p["date"])
    await slot(d, p)
    for k, label in CONTACT_FIELDS.items():
        await d.fill("textbox", label, p[k], exact=True)
    if complete:
        await d.click("button", "Complete reservation", exact=True)


async def occasion(d, p):
    await when(d, p["time"], p["party"])
    await slot(d, p)
    await select(d, "Occasion", p["occasion"])
    await d.fill("textbox", "Add a special request (optional)", p["request"], exact=True)
    await d.click("button", "Complete reservation", exact=True)


ORACLES = {"opendining.explore": explore, "opendining.find": find, "opendining.reserve": reserve,
           "opendining.book": book, "opendining.occasion": occasion}

VERIFIED = {"opendining.explore": ("value",), "opendining.find": ("query", "time", "party"),
            "opendining.reserve": ("restaurant", "time"),
            "opendining.book": ("restaurant", "date", "time", "party", "firstName", "lastName", "phone", "email"),
            "opendining.occasion": ("restaurant", "time", "party", "occasion", "request")}


# ---------------------------------------------------------------- near misses played in the browser
async def wrong_target(d, p):
    targets = explore_targets()
    i = targets.index((p["kind"], p["value"]))
    await explore(d, {"value": targets[(i + 1) % len(targets)][1]})


async def typo_find(d, p):
    await find(d, {**p, "query": p["query"][:-1]})


def other_time(p) -> str:
    ts = times_of(BY_ID[p["restaurant"]])
    return ts[(ts.index(p["time"]) + 1) % len(ts)]


async def wrong_time(d, p):
    await reserve(d, {**p, "time": other_time(p)})


async def not_completed(d, p):
    """Everything but the last click: the guest's details typed, no reservation."""
    await book(d, p, complete=False)


async def wrong_party(d, p):
    await book(d, {**p, "party": p["party"] + 1 if p["party"] < 4 else p["party"] - 1})


async def no_request(d, p):
    await when(d, p["time"], p["party"])
    await slot(d, p)
    await select(d, "Occasion", p["occasion"])
    await d.click("button", "Complete reservation", exact=True)


BROWSER_NEAR_MISSES = {"opendining.explore": wrong_target, "opendining.find": typo_find,
                       "opendining.reserve": wrong_time, "opendining.book": not_completed,
                       "opendining.occasion": no_request}
EXTRA_BROWSER_NEAR_MISSES = [("opendining.book", wrong_party)]


# ---------------------------------------------------------------- near misses edited into a solved /finish JSON
def extra_reservation(state: dict) -> None:
    """Another reservation made as well (an unwanted change every OpenDining family refuses)."""
    entry = {"restaurant": BY_ID["cd4f81d3-3c75-4c67-b47b-e7f013f6ae9d"].record(), "date": "2024-07-18T07:00:00.000Z",
             "time": "3:00 PM", "guests": "5 people", "optionals": {"occasion": "", "specialRequest": ""},
             "contact": {"firstName": "John", "lastName": "Doe", "phone": "(415) 555-0142",
                         "email": "john.doe@example.com"}, "confirmationNumber": "DEADBEEF"}
    added = state["initialfinaldiff"].setdefault("added", {})
    details = added.setdefault("booking", {}).setdefault("bookingDetails", {})
    details[str(len(details) + 5)] = entry
    res = state["differences"].setdefault("reservations", {"added": {}, "updated": {}, "deleted": {}})
    res["added"][str(len(res["added"]) + 5)] = entry
