"""OpenDining task families, from one click (a cuisine's or a neighborhood's restaurants) to REAL-like reservations
(a table for N at a time on a date, under a guest's name, phone and email).

Parameters come from OpenDining's restaurants (``real_local.opendining.restaurants``): seventeen restaurants with
their seating hours (half-hour slots, the fully booked ones left out), party limits, eleven cuisines and eight
neighborhoods. Graders read the ``/finish`` JSON only, as agisdk's ``eval_opendining_*.py`` do: the ``booking``
slice at ``initialfinaldiff.added``/``updated`` (a new reservation is ``added.booking.bookingDetails["<n>"]``, with
its ``restaurant``, ``date``, ``time``, ``guests``, ``optionals`` and ``contact``; REAL-local's
``differences.reservations.added`` holds the same), ``updated.search`` for the last search, and
``router.location.pathname`` for the page shown. Before a reservation exists, the date, time and party size
checks read the search (what the results' slots are for), so that they pass one after another.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from halo.tasks.families.base import Check, Family, Finish, field_value, norm, register
from real_local.opendining.restaurants import (
    ALL_TIMES,
    BY_ID,
    CUISINES,
    NEIGHBORHOODS,
    OCCASIONS,
    RESTAURANTS,
    Restaurant,
    parse_time,
)
from real_local.opendining.state import TODAY, USER, guests, seed

_SEED_SEARCH: dict[str, Any] = seed(None)["search"]
TERM_FIELD = "Location, Restaurant, or Cuisine"
DATE_FIELD = "Date"
CONTACT_FIELDS = {"firstName": "First name", "lastName": "Last name", "phone": "Phone number", "email": "Email"}
REQUEST_FIELD = "Add a special request (optional)"


def times_of(r: Restaurant) -> list[str]:
    """The half-hour slots ``r`` seats that are not fully booked."""
    return [t for t in ALL_TIMES if r.opens <= parse_time(t) <= r.closes and t not in r.booked]


def people(n: int) -> str:
    return guests(n)  # "1 person", "4 people": the party size select's option and the reservation's guests


# ---------------------------------------------------------------- reading the /finish JSON
def pathname(f: Finish) -> str:
    p = f.section("updated", "router", "location", "pathname") or f.section("added", "router", "location", "pathname")
    return p if isinstance(p, str) else "/"


def final_search(f: Finish) -> dict[str, Any]:
    """The last search: the seed's ``search`` with ``initialfinaldiff.updated.search``."""
    upd = f.section("updated", "search") or {}
    return {**_SEED_SEARCH, **(upd if isinstance(upd, dict) else {})}


def _rows(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        keys = sorted(node, key=lambda k: int(k) if str(k).isdigit() else 0)
        return [node[k] for k in keys if isinstance(node[k], dict)]
    return [r for r in node if isinstance(r, dict)] if isinstance(node, list) else []


def new_reservations(f: Finish) -> list[dict[str, Any]]:
    """Reservations made in the episode: ``initialfinaldiff.added.booking.bookingDetails`` (REAL's scripts read it
    there), else REAL-local's ``differences.reservations.added``."""
    return _rows(f.section("added", "booking", "bookingDetails")) or _rows(f.collection("reservations")["added"])


def notifications(f: Finish) -> list[dict[str, Any]]:
    return _rows(f.collection("notifications")["added"])


def nothing_booked(f: Finish) -> Check:
    res, notes = new_reservations(f), notifications(f)
    return Check("nothing reserved", not res and not notes, f"{len(res)} reservations, {len(notes)} notifications")


def party_of(text: Any) -> int | None:
    try:
        return int(str(text).split()[0])
    except (ValueError, IndexError):
        return None


def when_of(f: Finish) -> tuple[str, str, int | None]:
    """(date, time, party) of the one new reservation, else of the last search (what its slots are for)."""
    res = new_reservations(f)
    if len(res) == 1:
        return str(res[0].get("date") or "")[:10], str(res[0].get("time") or ""), party_of(res[0].get("guests"))
    s = final_search(f)
    return str(s.get("date") or "")[:10], str(s.get("time") or ""), party_of(s.get("party"))


def reservation_checks(f: Finish, p: dict[str, Any]) -> list[Check]:
    """REAL's opendining scripts' reading (a bookingDetails entry: its restaurant, date, time, guests), with checks
    that pass one after another: the date, time and party searched, then the reservation made at the restaurant."""
    date, time, party = when_of(f)
    res = new_reservations(f)
    r = res[0] if len(res) == 1 else {}
    rest = r.get("restaurant") if isinstance(r.get("restaurant"), dict) else {}
    want_date = p.get("date", TODAY.isoformat())
    return [Check("date", date == want_date, f"date {date!r}, want {want_date!r}"),
            Check("time", time == p["time"], f"time {time!r}, want {p['time']!r}"),
            Check("party size", party == p["party"], f"party {party!r}, want {p['party']}"),
            Check("reserved", len(res) == 1 and rest.get("id") == p["restaurant"]
                  and r.get("guests") == people(p["party"]) and not notifications(f),
                  f"{len(res)} reservations at {[(x.get('restaurant') or {}).get('name') for x in res]}")]


def contact_of(f: Finish) -> dict[str, Any]:
    res = new_reservations(f)
    c = res[0].get("contact") if len(res) == 1 else None
    return c if isinstance(c, dict) else {}


def date_text(d: dt.date, rng: Any) -> str:
    if d == TODAY:
        return rng.choice(["today", "today, July 18"])
    if d == TODAY + dt.timedelta(days=1):
        return "tomorrow"
    return rng.choice([f"on {d:%A, %B} {d.day}, {d.year}", f"on {d.isoformat()}", f"on {d:%B} {d.day}, {d.year}"])


# ---------------------------------------------------------------- one click
def explore_targets() -> list[tuple[str, str]]:
    return [("cuisine", c) for c in CUISINES] + [("location", n) for n in NEIGHBORHOODS]


def explore_contexts(kind: str, value: str) -> list[str]:
    here = [r for r in RESTAURANTS if (r.food_type if kind == "cuisine" else r.location) == value]
    return ([f"I've heard good things about {r.name}" for r in here]
            + ["for a date night", "for dinner with friends", "for lunch tomorrow", "for a business meal",
               "for my parents' anniversary", "somewhere new to try", "for a birthday dinner",
               "for a quick bite"])


@register
class Explore(Family):
    """The home page's cuisine and neighborhood chips: one click lists that cuisine's or neighborhood's places."""

    name, site, steps = "opendining.explore", "opendining", "1"
    description = "list the restaurants of a cuisine or a neighborhood (the home page's chips)"

    def space(self):
        return [{"kind": k, "value": v, "why": w} for k, v in explore_targets() for w in explore_contexts(k, v)]

    def goal(self, p, rng):
        v, w = p["value"], p["why"]
        if p["kind"] == "cuisine":
            return rng.choice([f"Show me {v} restaurants on OpenDining ({w}).", f"Browse {v} places, {w}.",
                               f"List OpenDining's {v} restaurants: {w}."])
        return rng.choice([f"Show me restaurants in {v} on OpenDining ({w}).", f"Browse places in {v}, {w}.",
                           f"List OpenDining's restaurants in the {v} neighborhood: {w}."])

    def check(self, f, p):
        s, path = final_search(f), pathname(f)
        other = "location" if p["kind"] == "cuisine" else "cuisine"
        return [Check("results shown", path == "/search", f"shown {path!r}"),
                Check(p["kind"], s[p["kind"]] == p["value"], f"{p['kind']} {s[p['kind']]!r}, want {p['value']!r}"),
                Check("no other filter", s[other] == "" and s["term"] == "" and s["rating"] == "",
                      f"{other} {s[other]!r}, term {s['term']!r}, rating {s['rating']!r}"), nothing_booked(f)]


# ---------------------------------------------------------------- a few steps
_WORDS = ["pasta", "pizza", "sushi", "oysters", "steak", "brunch", "pancakes", "burgers", "tacos", "dim sum",
          "crab", "wine", "coffee", "patio", "waterfront", "tasting menu"]
_FIND_TIMES = ("12:00 PM", "1:30 PM", "6:00 PM", "6:30 PM", "7:30 PM", "8:00 PM", "8:30 PM", "9:00 PM")


def find_queries() -> list[str]:
    out: dict[str, str] = {}
    for q in [r.name for r in RESTAURANTS] + list(CUISINES) + list(NEIGHBORHOODS) + _WORDS:
        out.setdefault(norm(q), q)
    return list(out.values())


@register
class FindTable(Family):
    """The home page's search: a term, a time and a party size, "Let's go" (the search records them)."""

    name, site, steps = "opendining.find", "opendining", "2-4"
    description = "search for a restaurant, cuisine or place for a party size at a time today"

    def space(self):
        out = []
        for i, q in enumerate(find_queries()):
            for j in range(3):
                k = 3 * i + j
                out.append({"query": q, "time": _FIND_TIMES[k % len(_FIND_TIMES)], "party": 3 + k % 6})
        return out

    def goal(self, p, rng):
        q, t, n = p["query"], p["time"], p["party"]
        return rng.choice([f'Search OpenDining for "{q}": a table for {n} today at {t}.',
                           f'Find "{q}" on OpenDining for {n} people at {t} today (just search, no booking).',
                           f'Look for tables for {n} at {t} today, searching "{q}".'])

    def check(self, f, p):
        s, path = final_search(f), pathname(f)
        return [Check("results shown", path == "/search", f"shown {path!r}"),
                Check("searched", norm(s["term"]) == norm(p["query"]), f"searched {s['term']!r}"),
                Check("time", s["time"] == p["time"], f"time {s['time']!r}"),
                Check("party size", party_of(s["party"]) == p["party"], f"party {s['party']!r}"),
                Check("today", str(s["date"])[:10] == TODAY.isoformat(), f"date {s['date']!r}"), nothing_booked(f)]

    def subgoals(self, f, p, page):
        done = norm(final_search(f)["term"]) == norm(p["query"])
        typed = field_value(page, TERM_FIELD)
        return [Check("term typed", done or norm(typed) == norm(p["query"]), f"search box holds {typed!r}")]

    def typed(self, p):
        return (p["query"], p["time"], people(p["party"]))


@register
class Reserve(Family):
    """A table for two today at a time: the time, "Let's go", the restaurant's slot, "Complete reservation"."""

    name, site, steps = "opendining.reserve", "opendining", "2-4"
    description = "reserve a table for two today at a restaurant and a time"

    def space(self):
        return [{"restaurant": r.id, "time": t, "party": 2} for r in RESTAURANTS for t in times_of(r)]

    def goal(self, p, rng):
        r, t = BY_ID[p["restaurant"]].name, p["time"]
        return rng.choice([f"Reserve a table for two at {r} today at {t}.", f"Book {r} for 2 people at {t} today.",
                           f"Get us a table at {r} at {t} today; it's for two."])

    def check(self, f, p):
        c = contact_of(f)
        return [*reservation_checks(f, p),
                Check("the account's name", not c or all(c.get(k) == USER[k] for k in USER), f"contact {c}")]

    def typed(self, p):
        return (p["time"],)  # the time's option


# ---------------------------------------------------------------- REAL-like
_DAYS = [TODAY + dt.timedelta(days=n) for n in (0, 1, 2, 3, 5, 8, 9, 15, 16, 23, 30, 44, 58, 73, 100, 131)]
CONTACTS = [("Maria", "Lopez"), ("Kevin", "Chen"), ("Priya", "Shah"), ("Tom", "Walker"), ("Aisha", "Khan"),
            ("Daniel", "Reyes"), ("Emma", "Hughes"), ("Jorge", "Perez"), ("Sofia", "Rossi"), ("Liam", "Murphy"),
            ("Nina", "Novak"), ("Omar", "Haddad")]


def contact(i: int) -> dict[str, str]:
    first, last = CONTACTS[i % len(CONTACTS)]
    return {"firstName": first, "lastName": last, "phone": f"(415) 555-{1200 + 37 * i % 800:04d}",
            "email": f"{first.lower()}.{last.lower()}@example.com"}


@register
class Book(Family):
    """REAL's opendining-12/17 under a guest's name: date, time and party size, "Let's go", the restaurant's slot,
    then the guest's first and last name, phone and email typed over the account's, "Complete reservation"."""

    name, site, steps = "opendining.book", "opendining", "5+"
    description = "book a table for N at a time on a date under a guest's name, phone and email"

    def space(self):
        out, i = [], 0
        for r in RESTAURANTS:
            for t in times_of(r):
                party = 1 + (3 * i + 2) % min(8, r.max_party)
                out.append({"restaurant": r.id, "date": _DAYS[i % len(_DAYS)].isoformat(), "time": t,
                            "party": party if party != 2 else 4, **contact(i)})
                i += 1
        return out

    def goal(self, p, rng):
        r = BY_ID[p["restaurant"]].name
        when = f"{date_text(dt.date.fromisoformat(p['date']), rng)} at {p['time']}"
        who = f"{p['firstName']} {p['lastName']} (phone {p['phone']}, email {p['email']})"
        n = p["party"]
        party = f"{n} {'person' if n == 1 else 'people'}"
        return rng.choice([f"Book a table for {party} at {r} {when}, under the name {who}.",
                           f"Reserve {r} {when} for {party}. The reservation is for {who}.",
                           f"Make a reservation at {r} for {party} {when}; put it under {who}."])

    def check(self, f, p):
        c = contact_of(f)
        return [*reservation_checks(f, p),
                *(Check(label.lower(), bool(c) and norm(c.get(k)) == norm(p[k]), f"{k} {c.get(k)!r}")
                  for k, label in CONTACT_FIELDS.items())]

    def subgoals(self, f, p, page):
        c = contact_of(f)
        out = []
        for k, label in CONTACT_FIELDS.items():
            typed = field_value(page, label)
            out.append(Check(f"{label.lower()} typed", (bool(c) and norm(c.get(k)) == norm(p[k]))
                             or norm(typed) == norm(p[k]), f"{label} holds {typed!r}"))
        return out

    def typed(self, p):
        return (p["date"], p["time"], people(p["party"]), *(p[k] for k in CONTACT_FIELDS))


REQUESTS = ["A quiet table, please", "We have a stroller", "Window seat if possible", "One guest is vegetarian",
            "Please bring a candle with dessert", "A high chair for a toddler", "Wheelchair access, please",
            "We may be ten minutes late"]


@register
class Occasion(Family):
    """REAL's opendining-2/5/17: a table today for N at a time, marked with an occasion, with a special request."""

    name, site, steps = "opendining.occasion", "opendining", "5+"
    description = "reserve a table today for N at a time with an occasion and a special request"

    def space(self):
        out, i = [], 0
        for r in RESTAURANTS:
            for t in times_of(r)[::2]:
                out.append({"restaurant": r.id, "time": t, "party": 2 + i % (min(6, r.max_party) - 1),
                            "occasion": OCCASIONS[i % len(OCCASIONS)], "request": REQUESTS[(i // 5) % len(REQUESTS)]})
                i += 1
        return out

    def goal(self, p, rng):
        r, t, n, o, q = BY_ID[p["restaurant"]].name, p["time"], p["party"], p["occasion"].lower(), p["request"]
        return rng.choice([f'Book {r} today at {t} for {n} people (occasion: {o}). Add the request "{q}".',
                           f'Reserve a table for {n} at {r} at {t} today, occasion {o}, special request "{q}".',
                           f'Get a table for {n} at {r} today at {t}; mark the occasion as {o} and ask "{q}".'])

    def _optionals(self, f) -> dict[str, Any]:
        res = new_reservations(f)
        o = res[0].get("optionals") if len(res) == 1 else None
        return o if isinstance(o, dict) else {}

    def check(self, f, p):
        o = self._optionals(f)
        return [*reservation_checks(f, p),
                Check("occasion", o.get("occasion") == p["occasion"], f"occasion {o.get('occasion')!r}"),
                Check("special request", norm(o.get("specialRequest")) == norm(p["request"]),
                      f"request {o.get('specialRequest')!r}")]

    def subgoals(self, f, p, page):
        done = norm(self._optionals(f).get("specialRequest")) == norm(p["request"])
        typed = field_value(page, REQUEST_FIELD)
        return [Check("request typed", done or norm(typed) == norm(p["request"]), f"request holds {typed!r}")]

    def typed(self, p):
        return (p["time"], people(p["party"]), p["occasion"], p["request"])
