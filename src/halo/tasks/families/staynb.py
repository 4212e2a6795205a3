"""StayNB task families, from one click (a popular destination, the places near you) to REAL-like stays (a search
for dates, guests and amenities; a place booked for dates and guests and paid by card).

Parameters come from StayNB's listings (``real_local.staynb.listings``): fourteen destinations (the look-alikes
San Jose, Vancouver and Paris among them) of six places each (84), their guest limits and amenities, and dates
between the site's today (July 18, 2024) and the end of 2025. A goal names a destination by its full name
("Paris, France"), which the search bar finds without the chooser, or "near me" for the places nearby. Graders
read the ``/finish`` JSON only, as agisdk's ``eval_staynb_*.py`` do: the ``search``, ``wishlist`` and ``booking``
slices at ``initialfinaldiff.added`` (they come into being on the session's first page, after the harness's
snapshot, so they diff as added, whole; ``updated`` is merged in) and REAL-local's ``differences``
(``wishlistStays``, ``bookings``, ``shares``: what the episode added). Only what the goal asks for is changed:
every family also checks that nothing else was saved, shared or booked.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar

from halo.tasks.families.base import Check, Family, Finish, field_value, register
from real_local.staynb.listings import AMENITIES, BY_ID, LISTINGS, NAMES, Listing, resolve
from real_local.staynb.state import TODAY, materialize

_DEFAULTS: dict[str, Any] = {}
materialize(_DEFAULTS)
WHERE_FIELD, CHECKIN_FIELD, CHECKOUT_FIELD = "Search destinations", "Check in", "Check out"
CARD_FIELDS = {"cardNumber": "Card number", "expiration": "Expiration", "cvv": "CVV", "zipcode": "ZIP code"}
NEAR = "near me"  # what the search bar takes for the places nearby


def where_typed(dest: str) -> str:
    return NEAR if dest == "Nearby" else dest


def dest_text(dest: str) -> str:
    return "near me" if dest == "Nearby" else f"in {dest}"


def listings_of(dest: str) -> list[Listing]:
    return [x for x in LISTINGS if x.destination == dest]


def day(d: dt.date) -> str:
    return f"{d:%B} {d.day}" + (f", {d.year}" if d.year != TODAY.year else "")


# ---------------------------------------------------------------- reading the /finish JSON
def slice_of(f: Finish, name: str) -> dict[str, Any]:
    """An app slice at the end (``search``, ``booking``): its defaults, ``initialfinaldiff.added[name]``, then
    ``updated`` merged in (REAL's staynb scripts read added, then updated)."""
    return f.merged(_DEFAULTS.get(name), name)


def _rows(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        keys = sorted(node, key=lambda k: int(k) if str(k).isdigit() else 0)
        return [node[k] for k in keys if isinstance(node[k], dict)]
    return [r for r in node if isinstance(r, dict)] if isinstance(node, list) else []


def saved(f: Finish) -> list[str]:
    """Listing ids saved to a wishlist (``differences.wishlistStays.added``, else the wishlist slice)."""
    rows = _rows((f.differences.get("wishlistStays") or {}).get("added"))
    if not rows:
        wls = (slice_of(f, "wishlist").get("wishlists") or {})
        rows = [x for wl in (wls.values() if isinstance(wls, dict) else []) if isinstance(wl, dict)
                for x in _rows(wl.get("stays"))]
    return [str(x.get("id")) for x in rows]


def bookings(f: Finish) -> list[dict[str, Any]]:
    return _rows((f.differences.get("bookings") or {}).get("added")) or \
        _rows(slice_of(f, "booking").get("bookingDetails"))


def shares(f: Finish) -> list[dict[str, Any]]:
    return _rows((f.differences.get("shares") or {}).get("added"))


def untouched(f: Finish, *, save: bool = True, book: bool = True) -> Check:
    """Nothing saved, shared or booked (``save``/``book``: those are the goal's and checked by it)."""
    s, b, sh = saved(f), bookings(f), shares(f)
    return Check("nothing else saved, shared or booked", (not save or not s) and (not book or not b) and not sh,
                 f"saved {s}, {len(b)} bookings, {len(sh)} shares")


def applied(f: Finish) -> tuple[str, str, str, dict[str, int], dict[str, Any]]:
    """The search the results show: destination, check-in, check-out (YYYY-MM-DD), guest counts, filters."""
    s = slice_of(f, "search")
    d = s.get("appliedDates") if isinstance(s.get("appliedDates"), dict) else {}
    g = s.get("appliedGuestCounts") if isinstance(s.get("appliedGuestCounts"), dict) else {}
    flt = s.get("appliedFilters") if isinstance(s.get("appliedFilters"), dict) else {}
    return (str(s.get("appliedDestination") or ""), str(d.get("startDate") or "")[:10],
            str(d.get("endDate") or "")[:10], {k: int(g.get(k) or 0) for k in ("Adults", "Children", "Infants",
                                                                              "Pets")}, flt)


def dest_check(f: Finish, dest: str) -> Check:
    got = applied(f)[0]
    return Check("destination", got == dest, f"destination {got!r}, want {dest!r}")


def dates_check(dates: tuple[str, str], want: tuple[str, str]) -> Check:
    return Check("dates", dates == want, f"dates {dates}, want {want}")


def guests_check(g: dict[str, int], adults: int, children: int) -> Check:
    want = {"Adults": adults, "Children": children, "Infants": 0, "Pets": 0}
    return Check("guests", g == want, f"guests {g}, want {want}")


def where_subgoal(f: Finish, dest: str, page: Any) -> Check:
    typed = field_value(page, WHERE_FIELD)
    return Check("destination typed", applied(f)[0] == dest or resolve(typed or "") == [dest],
                 f"search box holds {typed!r}")


# ---------------------------------------------------------------- one click
POPULAR = ("Rome, Italy", "Paris, France", "Cape Town, South Africa", "Miami, Florida", "Austria",
           "Vancouver, Canada", "Nearby")  # the home page's links
_WHY = ["for a long weekend", "for our honeymoon", "for a family trip", "for a work trip", "for the holidays",
        "for a summer break", "for a trip with friends", "just to browse", "for a quiet getaway",
        "for my parents' visit"]


@register
class Destination(Family):
    """The home page's popular destinations and "Explore places near you": one click shows their places."""

    name, site, steps = "staynb.destination", "staynb", "1"
    description = "show the places of a popular destination (or near you) from the home page"

    def space(self):
        return [{"dest": d, "why": w} for d in POPULAR
                for w in _WHY + [f"I've heard of the {x.title}" for x in listings_of(d)]]

    def goal(self, p, rng):
        where = "places near me" if p["dest"] == "Nearby" else f"places in {p['dest']}"
        return rng.choice([f"Show me {where} on StayNB ({p['why']}).", f"Browse StayNB's {where}, {p['why']}.",
                           f"I'm looking for {where}: {p['why']}. Show me what there is."])

    def check(self, f, p):
        _, a, b, g, flt = applied(f)
        return [dest_check(f, p["dest"]),
                Check("no dates, guests or filters", not a and not b and not any(g.values())
                      and not flt.get("amenities") and not any(flt.get(k) for k in ("bedrooms", "beds", "bathrooms")),
                      f"dates {(a, b)}, guests {g}, filters {flt}"), untouched(f)]


# ---------------------------------------------------------------- a few steps
_NIGHTS = [TODAY + dt.timedelta(days=n) for n in (0, 1, 2, 3, 6, 9, 13, 16, 20, 27, 34, 41, 48, 55, 62, 76, 90,
                                                  104, 118, 132, 146, 160, 174, 188, 202, 230, 258, 286, 314, 342)]


@register
class Night(Family):
    """REAL's staynb-13 anywhere: the destination and a check-in typed (no check-out: a single night), Search."""

    name, site, steps = "staynb.night", "staynb", "2-4"
    description = "find places at a destination for one night"

    def space(self):
        return [{"dest": d, "date": n.isoformat()} for d in NAMES for n in _NIGHTS]

    def goal(self, p, rng):
        d = dt.date.fromisoformat(p["date"])
        when = rng.choice([f"the night of {day(d)}", f"one night, checking in {p['date']}"])
        return rng.choice([f"Find me a place {dest_text(p['dest'])} for {when}.",
                           f"StayNB: show places {dest_text(p['dest'])} for {when}."])

    def check(self, f, p):
        _, a, b, _, _ = applied(f)
        return [dest_check(f, p["dest"]), dates_check((a, b), (p["date"], p["date"])), untouched(f)]

    def subgoals(self, f, p, page):
        return [where_subgoal(f, p["dest"], page)]

    def typed(self, p):
        return (where_typed(p["dest"]), p["date"])


def reasons(x: Listing) -> list[str]:
    return [f"it sleeps {x.max_guests}", f"it's ${x.price} a night", f"it has {x.bedrooms} bedroom"
            + ("s" if x.bedrooms != 1 else "")]


@register
class Save(Family):
    """REAL's staynb-6's last step: search the destination, the place's heart on the results ("Save ... to
    wishlist")."""

    name, site, steps = "staynb.save", "staynb", "2-4"
    description = "save a place at a destination to the wishlist"

    def space(self):
        return [{"listing": x.id, "why": w} for x in LISTINGS for w in reasons(x)]

    def goal(self, p, rng):
        x = BY_ID[p["listing"]]
        return rng.choice([(f"Save the {x.title} (one of the places {dest_text(x.destination)}) to my wishlist; "
                           f"{p['why']}."),
                           f"Add the {x.title}, {dest_text(x.destination)} on StayNB, to my wishlist: {p['why']}.",
                           f"I like the {x.title} {dest_text(x.destination)} ({p['why']}). Save it to my wishlist."])

    def check(self, f, p):
        s = saved(f)
        return [Check("place saved", p["listing"] in s, f"saved {s}"),
                Check("only that place", s == [p["listing"]], f"saved {s}"), untouched(f, save=False)]

    def subgoals(self, f, p, page):
        return [where_subgoal(f, BY_ID[p["listing"]].destination, page)]

    def typed(self, p):
        return (where_typed(BY_ID[p["listing"]].destination),)


# ---------------------------------------------------------------- REAL-like
def stays() -> list[tuple[str, str, str, int, int]]:
    """(destination, check-in, check-out, adults, children), spread over the destinations and the calendar."""
    out = []
    for i in range(30 * len(NAMES)):
        d = NAMES[i % len(NAMES)]
        start = TODAY + dt.timedelta(days=1 + (i * 11) % 480)
        out.append((d, start.isoformat(), (start + dt.timedelta(days=2 + i % 5)).isoformat(), 1 + (i // 3) % 4,
                    (i // 7) % 3))
    return out


@register
class Search(Family):
    """REAL's staynb-1/4/5/12/17: destination, check-in, check-out, adults and children, Search, then an amenity
    filter ("Show places")."""

    name, site, steps = "staynb.search", "staynb", "5+"
    description = "search places at a destination for dates and guests with an amenity"

    def space(self):
        out = []
        for i, (d, a, b, adults, kids) in enumerate(stays()):
            have = sorted({am for x in listings_of(d) if x.max_guests >= adults + kids for am in x.amenities},
                          key=AMENITIES.index)
            out.append({"dest": d, "checkin": a, "checkout": b, "adults": adults, "children": kids,
                        "amenity": have[(i // 2) % len(have)]})
        return out

    def goal(self, p, rng):
        a, b = dt.date.fromisoformat(p["checkin"]), dt.date.fromisoformat(p["checkout"])
        who = f"{p['adults']} adult{'s' if p['adults'] != 1 else ''}" + \
            (f" and {p['children']} child{'ren' if p['children'] != 1 else ''}" if p["children"] else "")
        am = p["amenity"].lower() if p["amenity"] != "TV" else "a TV"
        return rng.choice([f"Show me places {dest_text(p['dest'])} for {who}, {day(a)} to {day(b)}. I need {am}.",
                           (f"Search StayNB {dest_text(p['dest'])} from {p['checkin']} to {p['checkout']} for {who}, "
                           f"with {am}."),
                           f"Find stays {dest_text(p['dest'])} with {am} for {who} from {day(a)} to {day(b)}."])

    def check(self, f, p):
        _, a, b, g, flt = applied(f)
        am = flt.get("amenities") if isinstance(flt.get("amenities"), list) else []
        return [dest_check(f, p["dest"]), dates_check((a, b), (p["checkin"], p["checkout"])),
                guests_check(g, p["adults"], p["children"]),
                Check("amenity", am == [p["amenity"]], f"amenities {am}, want {[p['amenity']]}"), untouched(f)]

    def subgoals(self, f, p, page):
        return [where_subgoal(f, p["dest"], page), *date_subgoals(f, p, page)]

    def typed(self, p):
        return (where_typed(p["dest"]), p["checkin"], p["checkout"], str(p["adults"]),
                *([str(p["children"])] if p["children"] else []), p["amenity"])


def date_subgoals(f: Finish, p: dict[str, Any], page: Any) -> list[Check]:
    _, a, b, _, _ = applied(f)
    done = (a, b) == (p["checkin"], p["checkout"])
    cin, cout = field_value(page, CHECKIN_FIELD), field_value(page, CHECKOUT_FIELD)
    return [Check("check-in typed", done or (cin or "").strip() == p["checkin"], f"check in holds {cin!r}"),
            Check("check-out typed", done or (cout or "").strip() == p["checkout"], f"check out holds {cout!r}")]


CARDS = [("4111 1111 1111 1111", "08/27", "123", "94110"), ("5555 5555 5555 4444", "11/26", "456", "10001"),
         ("4012 8888 8888 1881", "03/28", "789", "60614"), ("3782 822463 10005", "06/27", "4321", "73301")]


@register
class Book(Family):
    """A stay booked: the search (destination, dates, adults), the place, Reserve, the card's four fields, "Confirm
    and pay". The booking records no card: any valid card books it; the card is the goal's to give."""

    name, site, steps = "staynb.book", "staynb", "5+"
    description = "book a place for dates and a number of adults, paying by card"
    STEP_CAPS: ClassVar[dict[str, int]] = {**Family.STEP_CAPS, "5+": 14}  # the oracle takes 12 actions (four of them the card's fields)

    def space(self):
        out = []
        for i, (d, a, b, adults, _) in enumerate(stays()):
            fits = [x for x in listings_of(d) if x.max_guests >= adults]
            x = fits[(i // 5) % len(fits)]
            num, exp, cvv, zipc = CARDS[i % len(CARDS)]
            out.append({"listing": x.id, "checkin": a, "checkout": b, "adults": adults, "cardNumber": num,
                        "expiration": exp, "cvv": cvv, "zipcode": zipc})
        return out

    def goal(self, p, rng):
        x = BY_ID[p["listing"]]
        a, b = dt.date.fromisoformat(p["checkin"]), dt.date.fromisoformat(p["checkout"])
        who = f"{p['adults']} adult{'s' if p['adults'] != 1 else ''}"
        card = f"card {p['cardNumber']}, expiring {p['expiration']}, CVV {p['cvv']}, ZIP {p['zipcode']}"
        return rng.choice([(f"Book the {x.title} ({dest_text(x.destination)}) for {who} from {day(a)} to {day(b)}. "
                           f"Pay with {card}."),
                           (f"Reserve the {x.title} {dest_text(x.destination)}, {p['checkin']} to {p['checkout']}, "
                           f"{who}; use {card}."),
                           (f"I want to stay at the {x.title} {dest_text(x.destination)} from {day(a)} to {day(b)} "
                           f"with {who}. Book it with {card}.")])

    def check(self, f, p):
        bs = bookings(f)
        done = bs[0] if len(bs) == 1 else {}
        cur = done or slice_of(f, "booking").get("currentBooking") or {}
        if cur:  # the reserve page is open (or the stay booked): read its dates and guests
            dates, g = (str(cur.get("startDate") or "")[:10], str(cur.get("endDate") or "")[:10]), cur.get("guests")
        else:
            _, a, b, g, _ = applied(f)
            dates = (a, b)
        g = {k: int((g or {}).get(k) or 0) for k in ("Adults", "Children", "Infants", "Pets")}
        lid = (cur.get("listing") or {}).get("id")
        return [dates_check(dates, (p["checkin"], p["checkout"])), guests_check(g, p["adults"], 0),
                Check("place", lid == p["listing"], f"place {lid!r}, want {p['listing']!r}"),
                Check("booked", len(bs) == 1 and done.get("status") == "confirmed"
                      and (done.get("listing") or {}).get("id") == p["listing"], f"{len(bs)} bookings"),
                untouched(f, book=False)]

    def subgoals(self, f, p, page):
        done = bool(bookings(f))
        out = [where_subgoal(f, BY_ID[p["listing"]].destination, page), *date_subgoals(f, p, page)]
        for k, label in CARD_FIELDS.items():
            typed = field_value(page, label)
            out.append(Check(f"{label.lower()} typed", done or (typed or "").strip() == p[k], f"{label}: {typed!r}"))
        return out

    def typed(self, p):
        return (where_typed(BY_ID[p["listing"]].destination), p["checkin"], p["checkout"], str(p["adults"]),
                *(p[k] for k in CARD_FIELDS))
