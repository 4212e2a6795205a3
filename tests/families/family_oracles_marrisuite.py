"""Scripted solutions of MarriSuite's task families (TEST FIXTURES ONLY: never training data), and near misses.

``ORACLES[family](d, params)`` solves any instance through BrowserEnv, finding elements by role and name in the
current Observation (``d`` is ``tests/sites/site_helpers.py``'s Driver). ``VERIFIED[family]`` names the parameters
its grader must hold the episode to: the tests grade a solved /finish JSON against the same parameters with one of
them changed (another city, date, room count, guest count, hotel, room, guest or card) and expect a failure.
``BROWSER_NEAR_MISSES`` are wrong-but-close episodes played in the browser. The date fields open a calendar and
also take a typed date (YYYY-MM-DD), which is what these type.
"""

from __future__ import annotations

import datetime as dt

from halo.env import actions as A
from halo.tasks.families.marrisuite import BY_ID
from real_local.marrisuite.hotels import CITIES


async def select(d, name: str, label: str) -> None:
    await d.step(A.SelectOption(d.find("combobox", name, exact=True).id, (label,)))


async def search_bar(d, city: str, checkin: str, checkout: str, rooms: int = 1, guests: int = 1) -> None:
    await d.fill("textbox", "Destination", city, exact=True)
    await d.fill("textbox", "Check-in", checkin, exact=True)
    await d.fill("textbox", "Check-out", checkout, exact=True)
    if rooms != 1:
        await select(d, "Rooms", str(rooms))
    if guests != 1:
        await select(d, "Guests", str(guests))
    await d.click("button", "Find Hotels", exact=True)


async def destination(d, p):
    await d.click("link", p["city"], exact=True)


async def search(d, p):
    await search_bar(d, p["city"], p["checkin"], p["checkout"])


async def rooms(d, p):
    await search_bar(d, p["city"], p["checkin"], p["checkout"], p["rooms"], p["guests"])


async def book(d, p, done: bool = True):
    h = BY_ID[p["hotel"]]
    await search_bar(d, h.city, p["checkin"], p["checkout"])
    await d.click("link", h.name, exact=True)
    await d.click("link", f"Book {p['room']}", exact=True)
    await d.fill("textbox", "Guest name", p["guest"], exact=True)
    await d.fill("textbox", "Card number", p["card"], exact=True)
    if done:
        await d.click("button", "Book now", exact=True)


ORACLES = {"marrisuite.destination": destination, "marrisuite.search": search, "marrisuite.rooms": rooms,
           "marrisuite.book": book}

VERIFIED = {"marrisuite.destination": ("city",), "marrisuite.search": ("city", "checkin", "checkout"),
            "marrisuite.rooms": ("city", "checkin", "checkout", "rooms", "guests"),
            "marrisuite.book": ("hotel", "room", "checkin", "checkout", "guest", "card")}


# ---------------------------------------------------------------- near misses played in the browser
def later(iso: str) -> str:
    return (dt.date.fromisoformat(iso) + dt.timedelta(days=1)).isoformat()


async def wrong_city(d, p):
    await destination(d, {"city": CITIES[(CITIES.index(p["city"]) + 1) % len(CITIES)]})


async def late_checkout(d, p):
    await search(d, {**p, "checkout": later(p["checkout"])})


async def one_room(d, p):
    await rooms(d, {**p, "rooms": 1})


async def not_booked(d, p):
    """Everything but the last click: the guest and card typed, nothing booked."""
    await book(d, p, done=False)


BROWSER_NEAR_MISSES = {"marrisuite.destination": wrong_city, "marrisuite.search": late_checkout,
                       "marrisuite.rooms": one_room, "marrisuite.book": not_booked}
EXTRA_BROWSER_NEAR_MISSES: list = []


# ---------------------------------------------------------------- near misses edited into a solved /finish JSON
def extra_reservation(state: dict) -> None:
    """Another stay booked as well (an unwanted change every MarriSuite family refuses)."""
    r = {"confirmationNumber": "MSDEADBEEF", "hotel": "New York Marriott Marquis", "hotelId": "nycmq",
         "room": "Guest room, 1 King", "checkIn": "2024-08-01", "checkOut": "2024-08-02", "rooms": 1, "guests": 1,
         "guestName": "John Doe", "cardLast4": "1111", "total": 319, "status": "Reservation confirmed"}
    added = state["initialfinaldiff"].setdefault("added", {}).setdefault("reservations", {})
    added[str(len(added) + 5)] = r
    state["differences"].setdefault("reservations", {"added": [], "updated": [], "deleted": []})["added"].append(r)
