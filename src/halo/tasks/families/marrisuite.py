"""MarriSuite task families, from one click (a popular destination's hotels) to REAL-like bookings (a room at a hotel
for dates, under a guest's name, paid by card).

Parameters come from MarriSuite's catalogue (``real_local.marrisuite.hotels``): twelve hotels in nine cities, three
rooms each, and stays of one to six nights from the site's today (July 18, 2024) into 2025. REAL has one marrisuite
task (``eval_marrisuite_8``, which reads words anywhere in the finish JSON); the graders here read the same state by
its keys: ``initialfinaldiff.updated.search`` (the applied search: ``destination``, ``checkIn``/``checkOut``
YYYY-MM-DD, ``rooms``, ``guests``), ``searchResults`` (the hotels listed), and the new ``reservations``
(``initialfinaldiff.added.reservations``, REAL-local's ``differences.reservations.added``: ``hotelId``, ``room``,
dates, ``guestName``, ``cardLast4``, ``status``). Every family also checks that nothing else was booked.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from halo.tasks.families.base import Check, Family, Finish, field_value, norm, register
from real_local.marrisuite.hotels import CITIES, HOTELS, search
from real_local.marrisuite.state import TODAY, seed

_SEED_SEARCH: dict[str, Any] = seed(None)["search"]
DEST_FIELD, CHECKIN_FIELD, CHECKOUT_FIELD = "Destination", "Check-in", "Check-out"
NAME_FIELD, CARD_FIELD = "Guest name", "Card number"
START = dt.date.fromisoformat(TODAY)
BY_ID = {h.id: h for h in HOTELS}


def city_hotels(city: str) -> set[str]:
    return {h.id for h in HOTELS if h.city == city}


def shown(d: dt.date) -> str:
    """A date as the search bar shows it after a search ("Fri, Jul 26, 2024")."""
    return f"{d:%a}, {d:%b} {d.day}, {d.year}"


def day(iso: str) -> str:
    d = dt.date.fromisoformat(iso)
    return f"{d:%B} {d.day}" + (f", {d.year}" if d.year != START.year else "")


def stays(n: int) -> list[tuple[str, str]]:
    """``n`` (check-in, check-out) pairs, one to six nights, spread over the next sixteen months."""
    out = []
    for i in range(n):
        a = START + dt.timedelta(days=1 + (i * 13) % 480)
        out.append((a.isoformat(), (a + dt.timedelta(days=1 + i % 6)).isoformat()))
    return out


# ---------------------------------------------------------------- reading the /finish JSON
def final_search(f: Finish) -> dict[str, Any]:
    upd = f.section("updated", "search") or {}
    return {**_SEED_SEARCH, **(upd if isinstance(upd, dict) else {})}


def _rows(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        keys = sorted(node, key=lambda k: int(k) if str(k).isdigit() else 0)
        return [node[k] for k in keys if isinstance(node[k], dict)]
    return [r for r in node if isinstance(r, dict)] if isinstance(node, list) else []


def new_reservations(f: Finish) -> list[dict[str, Any]]:
    return _rows(f.section("added", "reservations")) or _rows(f.collection("reservations")["added"])


def nothing_booked(f: Finish) -> Check:
    res = new_reservations(f)
    return Check("nothing booked", not res, f"{len(res)} reservations")


def dest_check(s: dict[str, Any], city: str) -> Check:
    """The search lists exactly the city's hotels (typed "Goleta", "Goleta, California" or "goleta ca")."""
    got = {h.id for h in search(str(s.get("destination") or ""))}
    return Check("destination", got == city_hotels(city), f"searched {s.get('destination')!r}, want {city!r}")


def dates_check(s: dict[str, Any], p: dict[str, Any]) -> Check:
    got = (s.get("checkIn"), s.get("checkOut"))
    return Check("dates", got == (p["checkin"], p["checkout"]), f"dates {got}, want {(p['checkin'], p['checkout'])}")


def party_check(s: dict[str, Any], rooms: int, guests: int) -> Check:
    got = (s.get("rooms"), s.get("guests"))
    return Check("rooms and guests", got == (rooms, guests), f"rooms, guests {got}, want {(rooms, guests)}")


def typed_subgoals(f: Finish, p: dict[str, Any], city: str, page: Any) -> list[Check]:
    """The destination and both dates typed in the search bar (or already searched)."""
    s = final_search(f)
    where, cin, cout = (field_value(page, n) for n in (DEST_FIELD, CHECKIN_FIELD, CHECKOUT_FIELD))
    searched = {h.id for h in search(str(s.get("destination") or ""))} == city_hotels(city)
    dated = (s.get("checkIn"), s.get("checkOut")) == (p["checkin"], p["checkout"])

    def is_day(v: str | None, iso: str) -> bool:
        return (v or "").strip() in (iso, shown(dt.date.fromisoformat(iso)))

    return [Check("destination typed", searched or {h.id for h in search(where or "")} == city_hotels(city),
                  f"destination holds {where!r}"),
            Check("check-in typed", dated or is_day(cin, p["checkin"]), f"check-in holds {cin!r}"),
            Check("check-out typed", dated or is_day(cout, p["checkout"]), f"check-out holds {cout!r}")]


# ---------------------------------------------------------------- one click
_WHY = ["for a weekend away", "for a work trip", "for a family visit", "for a conference", "for our anniversary",
        "for a beach break", "just to compare prices", "for next month", "for a wedding", "for the holidays",
        "for a quick stopover", "for a road trip", "for a reunion", "to plan a summer trip"]


@register
class Destination(Family):
    """The home page's popular destinations: one click lists the city's hotels (no dates)."""

    name, site, steps = "marrisuite.destination", "marrisuite", "1"
    description = "list the hotels of a popular destination from the home page"

    def space(self):
        return [{"city": c, "why": w} for c in CITIES
                for w in _WHY + [f"I've heard of the {h.name}" for h in HOTELS if h.city == c]]

    def goal(self, p, rng):
        return rng.choice([f"Show me MarriSuite hotels in {p['city']} ({p['why']}).",
                           f"List the hotels in {p['city']}, {p['why']}.",
                           f"What hotels does MarriSuite have in {p['city']}? {p['why'][0].upper()}{p['why'][1:]}."])

    def check(self, f, p):
        s = final_search(f)
        return [dest_check(s, p["city"]),
                Check("no dates", not s.get("checkIn") and not s.get("checkOut"), f"dates {s.get('checkIn')!r}"),
                party_check(s, 1, 1), nothing_booked(f)]


# ---------------------------------------------------------------- a few steps
@register
class Search(Family):
    """REAL's marrisuite-8 anywhere: the destination and both dates typed, "Find Hotels"."""

    name, site, steps = "marrisuite.search", "marrisuite", "2-4"
    description = "find the hotels in a city for dates"

    def space(self):
        pairs = stays(30 * len(CITIES))
        return [{"city": CITIES[i % len(CITIES)], "checkin": a, "checkout": b} for i, (a, b) in enumerate(pairs)]

    def goal(self, p, rng):
        c, a, b = p["city"], p["checkin"], p["checkout"]
        return rng.choice([f"Find hotels in {c} from {day(a)} to {day(b)}.",
                           f"Search MarriSuite for {c}, checking in {a} and out {b}.",
                           f"Which hotels are available in {c} from {day(a)} to {day(b)}?"])

    def check(self, f, p):
        s = final_search(f)
        return [dest_check(s, p["city"]), dates_check(s, p), party_check(s, 1, 1), nothing_booked(f)]

    def subgoals(self, f, p, page):
        return typed_subgoals(f, p, p["city"], page)

    def typed(self, p):
        return (p["city"], p["checkin"], p["checkout"])


# ---------------------------------------------------------------- REAL-like
@register
class Rooms(Family):
    """The whole search bar: destination, dates, rooms and guests, "Find Hotels"."""

    name, site, steps = "marrisuite.rooms", "marrisuite", "5+"
    description = "find hotels in a city for dates, a number of rooms and guests"

    def space(self):
        out = []
        for i, (a, b) in enumerate(stays(30 * len(CITIES))):
            rooms = 2 + (i // 9) % 3
            out.append({"city": CITIES[i % len(CITIES)], "checkin": a, "checkout": b, "rooms": rooms,
                        "guests": rooms + (i // 4) % (9 - rooms)})
        return out

    def goal(self, p, rng):
        c, a, b, r, g = p["city"], p["checkin"], p["checkout"], p["rooms"], p["guests"]
        return rng.choice([f"Find hotels in {c} from {day(a)} to {day(b)}: {r} rooms for {g} guests.",
                           f"Search MarriSuite for {r} rooms and {g} guests in {c}, {a} to {b}.",
                           f"We are {g} people needing {r} rooms in {c} from {day(a)} to {day(b)}. Show me hotels."])

    def check(self, f, p):
        s = final_search(f)
        return [dest_check(s, p["city"]), dates_check(s, p), party_check(s, p["rooms"], p["guests"]),
                nothing_booked(f)]

    def subgoals(self, f, p, page):
        return typed_subgoals(f, p, p["city"], page)

    def typed(self, p):
        return (p["city"], p["checkin"], p["checkout"], str(p["rooms"]), str(p["guests"]))


GUESTS = ["Maria Lopez", "Kevin Chen", "Priya Shah", "Tom Walker", "Aisha Khan", "Daniel Reyes", "Emma Hughes",
          "Jorge Perez", "Sofia Rossi", "Liam Murphy", "Nina Novak"]
CARDS = ["4111111111111111", "5555555555554444", "4012888888881881", "378282246310005", "6011111111111117"]


@register
class Book(Family):
    """A room booked: the search (the hotel's city, dates), the hotel, the room's "Book", the guest's name and a card
    number typed, "Book now"."""

    name, site, steps = "marrisuite.book", "marrisuite", "5+"
    description = "book a room at a hotel for dates under a guest's name, paying by card"

    def space(self):
        out = []
        for i, (a, b) in enumerate(stays(36 * len(HOTELS))):
            h = HOTELS[i % len(HOTELS)]
            room = h.rooms[(i // len(HOTELS)) % len(h.rooms)]
            out.append({"hotel": h.id, "room": room.name, "checkin": a, "checkout": b,
                        "guest": GUESTS[i % len(GUESTS)], "card": CARDS[i % len(CARDS)]})
        return out

    def goal(self, p, rng):
        h, a, b = BY_ID[p["hotel"]], p["checkin"], p["checkout"]
        return rng.choice([(f"Book a {p['room']} at the {h.name} ({h.city}) from {day(a)} to {day(b)} for "
                           f"{p['guest']}; pay with card {p['card']}."),
                           (f"Reserve the {h.name} in {h.city}, {p['room']}, {a} to {b}, under the name {p['guest']} "
                           f"(card number {p['card']})."),
                           (f"{p['guest']} needs a {p['room']} at the {h.name} in {h.city} from {day(a)} to {day(b)}. "
                           f"Book it with card {p['card']}.")])

    def _res(self, f) -> dict[str, Any]:
        res = new_reservations(f)
        return res[0] if len(res) == 1 else {}

    def check(self, f, p):
        s, r, res = final_search(f), self._res(f), new_reservations(f)
        return [dest_check(s, BY_ID[p["hotel"]].city), dates_check(s, p),
                Check("hotel and room", (r.get("hotelId"), r.get("room")) == (p["hotel"], p["room"])
                      and (r.get("checkIn"), r.get("checkOut")) == (p["checkin"], p["checkout"]),
                      f"{len(res)} reservations: {[(x.get('hotelId'), x.get('room')) for x in res]}"),
                Check("guest name", norm(r.get("guestName")) == norm(p["guest"]), f"guest {r.get('guestName')!r}"),
                Check("card", r.get("cardLast4") == p["card"][-4:], f"card ending {r.get('cardLast4')!r}")]

    def subgoals(self, f, p, page):
        r = self._res(f)
        name, card = field_value(page, NAME_FIELD), field_value(page, CARD_FIELD)
        return [*typed_subgoals(f, p, BY_ID[p["hotel"]].city, page),
                Check("guest name typed", norm(r.get("guestName")) == norm(p["guest"]) or norm(name) == norm(p["guest"]),
                      f"guest name holds {name!r}"),
                Check("card typed", r.get("cardLast4") == p["card"][-4:]
                      or "".join((card or "").split()) == p["card"], f"card holds {card!r}")]

    def typed(self, p):
        return (BY_ID[p["hotel"]].city, p["checkin"], p["checkout"], p["guest"], p["card"])
