"""Zilloft task families, from one click (a popular search, typing in the search box) to REAL-like tour requests.

Parameters come from Zilloft's listings (``real_local.zilloft.listings``): addresses, cities, ZIP codes, regions,
the sort orders and filters of the search page, the tour days and times of the listing page. Graders read the
``/finish`` JSON only, as agisdk's ``eval_zilloft_*.py`` do: ``differences.requestTours`` / ``savedHomes`` for what
was requested or saved, ``initialfinaldiff.updated.filters`` for the search, and ``router.location.pathname`` for
the page shown. A family that only browses also checks that no home was saved and no request sent.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from halo.tasks.families.base import Check, Family, Finish, norm, register
from real_local.zilloft.listings import BY_ID, CITIES, HOME_TYPES, LISTINGS, SORTS, TYPE_LABELS, Listing, search
from real_local.zilloft.state import TIMES, TOUR_TYPES, seed, tour_dates

_SEED_FILTERS: dict[str, Any] = seed(None)["filters"]
# Seven of the home page's "Popular searches" links (episodes start on the home page), the regions REAL's tasks
# name: the small-target set of Zilloft. The page lists them among others (real_local.zilloft.routes).
POPULAR = ("Boston, MA", "San Francisco Bay Area", "Long Beach, CA", "Los Angeles, CA", "San Jose, CA",
           "Sacramento, CA", "Southern California")
SORT_NAMES = {k: v for k, v in SORTS if k != "homes_for_you"}
ME = {"name": "John Doe", "email": "john.doe@example.com", "phone": "310-555-0142"}
MAX_RESULTS = 13
_LISTING_PATH = re.compile(r"^/homedetails/(?:[^/]+/)?(\d+)(?:_zpid)?/?$")


# ---------------------------------------------------------------- naming listings and places
@functools.cache
def queries_for(h: Listing) -> tuple[str, ...]:
    """Searches that find ``h`` among at most ``MAX_RESULTS`` homes: its street, its ZIP code, its city."""
    return tuple(q for q in (h.street, h.zip, h.city) if h in (r := search(q)) and len(r) <= MAX_RESULTS)


@functools.cache
def places() -> tuple[str, ...]:
    """Cities and regions a search can name, each finding two homes or more."""
    names = list(CITIES) + sorted({r for _, regions in CITIES.values() for r in regions})
    return tuple(n for n in dict.fromkeys(names) if len(search(n)) >= 2)


def day_text(iso: str) -> str:
    d = next(d for d in tour_dates() if d.isoformat() == iso)
    return f"{d.strftime('%A, %B')} {d.day}"


# ---------------------------------------------------------------- reading the /finish JSON
def pathname(f: Finish) -> str:
    p = f.section("updated", "router", "location", "pathname") or f.section("added", "router", "location", "pathname")
    return p if isinstance(p, str) else "/"


def listing_shown(f: Finish) -> str | None:
    m = _LISTING_PATH.match(pathname(f))
    return m.group(1) if m else None


def final_filters(f: Finish) -> dict[str, Any]:
    """The search filters at the end: the seed's, with ``initialfinaldiff``'s changes applied. A list
    (``homeTypes``) diffs index by index, as REAL's deep-object-diff does: ticking the first box of an empty list
    shows as ``added.filters.homeTypes = {"0": "Condo"}``, unticking as ``deleted``."""
    out = {k: list(v) if isinstance(v, list) else v for k, v in _SEED_FILTERS.items()}
    parts = [f.section(part, "filters") for part in ("updated", "added", "deleted")]
    upd, add, gone = [p if isinstance(p, dict) else {} for p in parts]
    for k in dict.fromkeys([*upd, *add, *gone]):
        if isinstance(out.get(k), list):
            items = {str(i): v for i, v in enumerate(out[k])}
            for part in (upd, add):
                items.update(part.get(k) if isinstance(part.get(k), dict) else {})
            for i in gone.get(k) if isinstance(gone.get(k), dict) else {}:
                items.pop(i, None)
            out[k] = [items[i] for i in sorted(items, key=lambda i: int(i) if i.isdigit() else 0)]
        elif k in upd:
            out[k] = upd[k]
        elif k in add:
            out[k] = add[k]
    return out


def _records(f: Finish, name: str, part: str = "added") -> list[dict[str, Any]]:
    node = (f.differences.get(name) or {}).get(part) or {}
    return [r for r in (node.values() if isinstance(node, dict) else node) if isinstance(r, dict)]


def saved_ids(f: Finish) -> list[str]:
    return sorted(str(r.get("id")) for r in _records(f, "savedHomes"))


def tour_requests(f: Finish) -> list[dict[str, Any]]:
    """``differences.requestTours.added``, or ``initialfinaldiff.added.tourRequests.requestTourList`` (zilloft_3)."""
    reqs = _records(f, "requestTours")
    if not reqs:
        node = f.section("added", "tourRequests", "requestTourList") or {}
        reqs = [r for r in (node.values() if isinstance(node, dict) else node) if isinstance(r, dict)]
    return reqs


def nothing_else(f: Finish, *, saves: bool = False, tours: bool = False) -> Check:
    bad = []
    if not saves:
        bad += [f"saved {i}" for i in saved_ids(f)] + [f"unsaved {r.get('id')}" for r in _records(f, "savedHomes",
                                                                                                     "deleted")]
    if not tours:
        bad += [f"tour {r.get('homeId')}" for r in tour_requests(f)]
    bad += [f"contact {r.get('homeId')}" for r in _records(f, "contactAgents")]
    return Check("no other changes", not bad, f"also: {bad[:5]}" if bad else "")


def query_is(f: Finish, q: str) -> Check:
    got = final_filters(f)["searchQuery"]
    return Check("searched", norm(got) == norm(q), f"searched {got!r}, want {q!r}")


# ---------------------------------------------------------------- one action
# Wishes that colour a popular-search goal wherever the area has few listings to name.
_WISHES = ["I'd love a big backyard", "somewhere near good schools", "a quiet street would be ideal",
           "I need a garage", "room for a home office matters to me", "we have a dog, so a yard helps",
           "a short commute is key", "a sunny kitchen would be nice", "I'd take a fixer-upper", "near a park, ideally",
           "I want a walkable neighborhood", "good public transit matters", "we need space for guests",
           "a pool would be a bonus", "a first home for a young family"]
PER_AREA = 16  # contexts per popular search: the seven targets are equally frequent


def popular_contexts(area: str) -> list[str]:
    homes = search(area)
    out = [f"I'd like to see {h.full_address} among them" for h in homes]
    out += [f"I'm most interested in {c}" for c in dict.fromkeys(h.city for h in homes)]
    out += [f"I'm after a {t.lower()}" for t in dict.fromkeys(h.home_type for h in homes)]
    return (out[:PER_AREA - 4] + _WISHES)[:PER_AREA]


@register
class Popular(Family):
    """The small-target family: seven of the home page's "Popular searches" links, 16 instances each. The goal
    names the link and what the user hopes for (a listing, a city, a home type, a wish); that only varies the goal."""

    name, site, steps = "zilloft.popular", "zilloft", "1"
    description = "open one of the home page's popular searches"

    def space(self):
        return [{"area": a, "hope": h} for a in POPULAR for h in popular_contexts(a)]

    def goal(self, p, rng):
        a, hope = p["area"], p["hope"]
        return rng.choice([f"Open the popular search for {a}; {hope}.", f"Show me homes for sale in {a} ({hope}).",
                           f"Browse {a} from the popular searches: {hope}."])

    def check(self, f, p):
        ff = final_filters(f)
        rest = {k: v for k, v in ff.items() if k not in ("searchQuery", "searchInputValue")}
        default = {k: v for k, v in _SEED_FILTERS.items() if k not in ("searchQuery", "searchInputValue")}
        return [Check("results shown", pathname(f) == "/search", f"shown {pathname(f)!r}"), query_is(f, p["area"]),
                Check("no filters", rest == default, f"filters {rest}"), nothing_else(f)]


@register
class TypeQuery(Family):
    """Zilloft records what a search box holds as the user types (``filters.searchInputValue``): one ``fill`` of the
    home page's box, hundreds of different places."""

    name, site, steps = "zilloft.type", "zilloft", "1"
    description = "type an address, ZIP code, city or region into the search box"

    def space(self):
        qs = [h.street for h in LISTINGS] + [h.full_address for h in LISTINGS] + [h.zip for h in LISTINGS]
        qs += [*CITIES, *(f"{c}, {s}" for c, (s, _) in CITIES.items()), *places()]
        return [{"query": q} for q in dict.fromkeys(qs)]

    def goal(self, p, rng):
        return rng.choice(['Type "{q}" into the search box.', 'Enter "{q}" in Zilloft\'s search bar.',
                           'Write "{q}" in the address search field.']).format(q=p["query"])

    def check(self, f, p):
        got = final_filters(f)["searchInputValue"]
        return [Check("typed", norm(got) == norm(p["query"]), f"search box holds {got!r}, want {p['query']!r}"),
                nothing_else(f)]


# ---------------------------------------------------------------- a few actions
def _listing_params() -> list[dict[str, Any]]:
    return [{"listing": h.id, "query": q} for h in LISTINGS for q in queries_for(h)]


@register
class OpenListing(Family):
    name, site, steps = "zilloft.open", "zilloft", "2-4"
    description = "search for a street, ZIP or city and open the listing at an address"

    def space(self):
        return _listing_params()

    def goal(self, p, rng):
        return rng.choice(['Search Zilloft for "{q}" and open the listing at {a}.',
                           'Look up "{q}" and show me the home at {a}.',
                           'Find {a} by searching "{q}", then open its page.']).format(
            q=p["query"], a=BY_ID[p["listing"]].full_address)

    def check(self, f, p):
        got = listing_shown(f)
        return [Check("listing open", got == p["listing"], f"shown {pathname(f)!r}, want home {p['listing']}"),
                query_is(f, p["query"]), nothing_else(f)]


@register
class SaveHome(Family):
    name, site, steps = "zilloft.save", "zilloft", "2-4"
    description = "search for a street, ZIP or city and save the home at an address"

    def space(self):
        return _listing_params()

    def goal(self, p, rng):
        return rng.choice(['Search for "{q}" and save the home at {a}.', 'Look up "{q}" and add {a} to my saved homes.',
                           'Save {a} to my favorites (search "{q}" to find it).']).format(
            q=p["query"], a=BY_ID[p["listing"]].full_address)

    def check(self, f, p):
        got = saved_ids(f)
        return [Check("saved", got == [p["listing"]], f"saved {got}, want [{p['listing']}]"),
                query_is(f, p["query"]), nothing_else(f, saves=True),
                Check("none unsaved", not _records(f, "savedHomes", "deleted"))]


@register
class SortHomes(Family):
    name, site, steps = "zilloft.sort", "zilloft", "2-4"
    description = "search for a place and sort the homes"

    def space(self):
        return [{"place": q, "sort": s} for q in places() for s in SORT_NAMES]

    def goal(self, p, rng):
        return rng.choice(['Search for homes in {q} sorted by {s}.', 'Show me {q} listings, sorted by {s}.',
                           'Look up {q} and order the homes by {s}.']).format(q=p["place"], s=SORT_NAMES[p["sort"]])

    def check(self, f, p):
        ff = final_filters(f)
        return [Check("results shown", pathname(f) == "/search", f"shown {pathname(f)!r}"), query_is(f, p["place"]),
                Check("sorted", ff["sort"] == p["sort"], f"sort {ff['sort']!r}, want {p['sort']!r}"),
                nothing_else(f)]


# ---------------------------------------------------------------- REAL-like
PRICES = (500_000, 750_000, 1_000_000, 1_500_000)


@register
class FilterHomes(Family):
    """REAL's zilloft_6 / zilloft_23 (a place, a price cap, bedrooms and bathrooms) with other values; only
    combinations that leave at least one home."""

    name, site, steps = "zilloft.filter", "zilloft", "5+"
    description = "search a place with a maximum price and minimum bedrooms and bathrooms"

    def space(self):
        return [{"place": q, "maxPrice": m, "minBeds": b, "minBaths": ba} for q in places() for m in PRICES
                for b in (2, 3, 4) for ba in (1, 2) if search(q, max_price=m, min_beds=b, min_baths=ba)]

    def goal(self, p, rng):
        return rng.choice(['Find homes in {q} under ${m:,} with at least {b} bedrooms and {ba}+ bathrooms.',
                           'Search {q} for homes with {b}+ beds and {ba}+ baths, priced at most ${m:,}.',
                           'Show me {q} listings up to ${m:,} with {b} or more bedrooms and {ba} or more baths.']
                          ).format(q=p["place"], m=p["maxPrice"], b=p["minBeds"], ba=p["minBaths"])

    def check(self, f, p):
        ff = final_filters(f)
        keys = ("maxPrice", "minBeds", "minBaths", "maxBeds", "maxBaths")
        got = {k: ff[k] for k in keys}
        want = {k: p.get(k) for k in keys}  # "at least": no exact match (maxBeds / maxBaths unset)
        return [query_is(f, p["place"]), Check("filters", got == want, f"filters {got}, want {want}"),
                Check("results shown", pathname(f) == "/search", f"shown {pathname(f)!r}"), nothing_else(f)]


@register
class ExactHomes(Family):
    """Zillow's Home Type dropdown ("Houses", "Townhomes", "Condos/Co-ops" ...) and "Use exact match" for bedrooms
    (REAL's v1 zilloft tasks ask for "exactly 3 bedrooms" and "Houses and Townhomes"): one home type, exactly N
    bedrooms, nothing else filtered; only combinations that leave at least one home."""

    name, site, steps = "zilloft.exact", "zilloft", "5+"
    description = "search a place for one home type with exactly N bedrooms (home type and exact-match filters)"

    def space(self):
        return [{"place": q, "homeType": t, "beds": b} for q in places() for t in HOME_TYPES for b in range(1, 6)
                if search(q, home_types=(t,), min_beds=b, max_beds=b)]

    def goal(self, p, rng):
        t, b = TYPE_LABELS[p["homeType"]], f"{p['beds']} bedroom{'s' if p['beds'] != 1 else ''}"
        return rng.choice(['Show me only {t} in {q} with exactly {b}.',
                           'Filter {q} to {t} that have exactly {b} (not more).',
                           'In {q}, list {t} with {b} exactly.']).format(q=p["place"], t=t, b=b)

    def check(self, f, p):
        ff = final_filters(f)
        keys = ("homeTypes", "minBeds", "maxBeds", "minBaths", "maxBaths", "minPrice", "maxPrice", "minSqft",
                "maxSqft")
        got = {k: ff[k] for k in keys}
        want = {**{k: _SEED_FILTERS[k] for k in keys}, "homeTypes": [p["homeType"]], "minBeds": p["beds"],
                "maxBeds": p["beds"]}
        return [query_is(f, p["place"]), Check("filters", got == want, f"filters {got}, want {want}"),
                Check("results shown", pathname(f) == "/search", f"shown {pathname(f)!r}"), nothing_else(f)]


def _contact_ok(form: dict[str, Any]) -> bool:
    digits = re.sub(r"\D", "", str(form.get("phone") or ""))
    return (norm(form.get("name")) == norm(ME["name"]) and norm(form.get("email")) == ME["email"]
            and digits[-10:] == re.sub(r"\D", "", ME["phone"]))


@register
class RequestTour(Family):
    """REAL's zilloft_2 / zilloft_3 (request a tour of a home on a day) naming the home, the day, the time and the
    tour type; the request must carry the user's contact details."""

    name, site, steps = "zilloft.tour", "zilloft", "5+"
    description = "request an in-person or video tour of the home at an address on a given day and time"

    def space(self):
        days = [d.isoformat() for d in tour_dates()][:7]
        out = []
        for i, h in enumerate(LISTINGS):
            for j, d in enumerate(days):
                out.append({"listing": h.id, "date": d, "time": TIMES[(3 * i + 5 * j) % len(TIMES)],
                            "tourType": list(TOUR_TYPES)[(i + j) % 2]})
        return out

    def goal(self, p, rng):
        h, kind = BY_ID[p["listing"]], "an in-person" if p["tourType"] == "in-person" else "a video-chat"
        a, day, t = h.full_address, day_text(p["date"]), p["time"]
        me = f"my details: {ME['name']}, {ME['email']}, {ME['phone']}"
        return rng.choice([f"Request {kind} tour of {a} on {day} at {t} ({me}).",
                           f"Book {kind} tour of the home at {a} for {day}, {t}. Use {me}.",
                           f"I want {kind} tour of {a}: {day} at {t} ({me})."])

    def check(self, f, p):
        reqs = tour_requests(f)
        r = reqs[0] if len(reqs) == 1 else {}
        rtd = r.get("requestTourData") or {}
        opts = rtd.get("options") or [{}]
        form = rtd.get("formValues") or {}
        got = (opts[0].get("date"), opts[0].get("time"), opts[0].get("option"))
        want = (p["date"], p["time"], p["tourType"])
        return [Check("one request", len(reqs) == 1, f"{len(reqs)} requests"),
                Check("home", str(r.get("homeId")) == p["listing"], f"home {r.get('homeId')}, want {p['listing']}"),
                Check("day, time and type", got == want, f"got {got}, want {want}"),
                Check("contact details", _contact_ok(form), f"form {({k: form.get(k) for k in ME})}"),
                nothing_else(f, tours=True)]
