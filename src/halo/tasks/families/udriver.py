"""UDriver task families, from one click (open the wallet or the activity) to REAL-like ride requests (from A to B
with a ride type and a payment method, now or scheduled).

Parameters come from UDriver's places and ride types (``real_local.udriver.places``): 27 San Francisco places, so
702 routes, four ride types, the account's three payment methods and its $25.50 of credits. A goal names a place
by its name (the saved places by their address: "home (1250 Ocean Ave)"), which the ride form finds exactly.
Graders read the ``/finish`` JSON only, as agisdk's ``eval_udriver_*.py`` do: the ``ride`` and ``user`` slices at
``initialfinaldiff.added`` (they come into being on the session's first page, after the harness's snapshot, so
they diff as added, whole; ``updated`` is merged in as REAL's udriver_9 does), and REAL-local's ``differences``
(``trips``, ``bookedTrips``, ``transactions``: what the episode added). A family that only looks also checks that
no ride was booked or scheduled and nothing was charged.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from halo.tasks.families.base import Check, Family, Finish, field_value, register
from real_local.udriver.places import BY_ID, PLACES, RIDE_TYPES, fare, find_places
from real_local.udriver.state import CARD, CASH, CREDITS, START_BALANCE, TODAY, parse_schedule

ROUTES = [(a.id, b.id) for a in PLACES for b in PLACES if a.id != b.id]  # 702 ordered pairs
TYPES = tuple(RIDE_TYPES)  # UdriverX (the form's default), UdriverGreen, UdriverXL, UdriverBlack
# the options page's payment choices, as its select names them (the credits with their balance)
PAY_OPTIONS = {CARD["id"]: CARD["displayName"], CASH["id"]: CASH["displayName"],
               CREDITS["id"]: f"{CREDITS['displayName']} (${START_BALANCE:.2f})"}
PICKUP_FIELD, DROPOFF_FIELD, AMOUNT_FIELD = "Pickup location", "Dropoff location", "Other amount"
TIME_FIELD, DATE_FIELD = "Pickup time", "Pickup date"
PRESETS = (25.0, 50.0, 100.0)  # the wallet's amount radios


# ---------------------------------------------------------------- naming places and times
def place_text(pid: int) -> str:
    """How a goal names a place: its name, or a saved place's address ("home (1250 Ocean Ave)")."""
    p = BY_ID[pid]
    if p.category == "Saved place":
        kind, addr = p.name.split(": ", 1)
        return f"{kind.lower()} ({addr})"
    return p.name


def place_typed(pid: int) -> str:
    """What a solution types for the place (the form finds exactly this place from it)."""
    p = BY_ID[pid]
    return p.street if p.category == "Saved place" else p.name


def names(text: str | None, pid: int) -> bool:
    """Whether typed text finds exactly this place (as the ride form does)."""
    return bool(text and text.strip()) and [p.id for p in find_places(text or "")] == [pid]


def date_text(d: dt.date) -> str:
    return f"{d.month}/{d.day}/{d.year}"  # the form's and the state's format


def day_text(d: dt.date, rng: Any) -> str:
    if d == TODAY:
        return "today"
    long = f"{d.strftime('%A, %B')} {d.day}"
    return rng.choice([f"on {long}", f"on {date_text(d)}"]) if d != TODAY + dt.timedelta(days=1) else \
        rng.choice(["tomorrow", f"on {long}"])


def fare_of(route: tuple[int, int], ride_type: str) -> float:
    return fare(BY_ID[route[0]], BY_ID[route[1]], ride_type)["finalPrice"]


# ---------------------------------------------------------------- reading the /finish JSON
def slice_of(f: Finish, name: str) -> dict[str, Any]:
    """An app slice at the end (``ride``, ``user``): ``initialfinaldiff.added[name]`` with ``updated`` merged in."""
    return f.merged(None, name)


def pathname(f: Finish) -> str:
    p = f.section("updated", "router", "location", "pathname") or f.section("added", "router", "location", "pathname")
    return p if isinstance(p, str) else "/"


def added(f: Finish, name: str) -> list[dict[str, Any]]:
    """``differences[name].added`` (``trips``, ``bookedTrips``, ``transactions``) in the order they were added."""
    node = (f.differences.get(name) or {}).get("added") or {}
    if isinstance(node, list):
        return [r for r in node if isinstance(r, dict)]
    keys = sorted(node, key=lambda k: int(k) if str(k).isdigit() else 0) if isinstance(node, dict) else []
    return [node[k] for k in keys if isinstance(node[k], dict)]


def _id(loc: Any) -> Any:
    return loc.get("id") if isinstance(loc, dict) else None


def route_check(f: Finish, p: dict[str, Any]) -> Check:
    r = slice_of(f, "ride")
    got = (_id(r.get("pickupLocation")), _id(r.get("dropoffLocation")))
    return Check("route", got == (p["pickup"], p["dropoff"]), f"route {got}, want {(p['pickup'], p['dropoff'])}")


def trip_matches(t: dict[str, Any], p: dict[str, Any]) -> bool:
    return (_id(t.get("pickup")), _id(t.get("destination"))) == (p["pickup"], p["dropoff"]) and \
        (t.get("car") or {}).get("type") == p["type"]


def nothing_booked(f: Finish) -> Check:
    trips, booked, txs = added(f, "trips"), added(f, "bookedTrips"), added(f, "transactions")
    return Check("nothing booked or charged", not trips and not booked and not txs,
                 f"{len(trips)} rides, {len(booked)} scheduled, {len(txs)} transactions")


def place_subgoals(f: Finish, p: dict[str, Any], page: Any) -> list[Check]:
    """The ride form's two places typed so that each finds its place (or the ride already set to them)."""
    r = slice_of(f, "ride")
    pick, drop = field_value(page, PICKUP_FIELD), field_value(page, DROPOFF_FIELD)
    return [Check("pickup typed", _id(r.get("pickupLocation")) == p["pickup"] or names(pick, p["pickup"]),
                  f"pickup field holds {pick!r}"),
            Check("drop-off typed", _id(r.get("dropoffLocation")) == p["dropoff"] or names(drop, p["dropoff"]),
                  f"drop-off field holds {drop!r}")]


# ---------------------------------------------------------------- one click
SCREENS = {"wallet": "/wallet", "activity": "/activity"}
_WHY = {"wallet": ["I want to check whether my credits cover a ride to {x}",
                   "I want to see what I paid for my last ride to {x}",
                   "I might add credits before riding to {x}"],
        "activity": ["when did I last ride to {x}?", "I want to see my past trips, like the one to {x}",
                     "show me my upcoming and past rides; I might go to {x} again"]}


@register
class Screen(Family):
    """The header's Wallet and Activity links (the ride form is where episodes start)."""

    name, site, steps = "udriver.screen", "udriver", "1"
    description = "open the wallet or the ride activity from the header"

    def space(self):
        return [{"screen": s, "why": w.format(x=place_text(pl.id))} for s, ws in _WHY.items() for w in ws
                for pl in PLACES if pl.category != "Saved place"]

    def goal(self, p, rng):
        what = {"wallet": rng.choice(["my UDriver wallet", "the Wallet page", "my credits and payment methods"]),
                "activity": rng.choice(["my ride activity", "the Activity page", "my trip history"])}[p["screen"]]
        return rng.choice([f"Open {what}: {p['why']}", f"Show me {what} ({p['why']}).",
                           f"Go to {what}; {p['why']}"])

    def check(self, f, p):
        path, want = pathname(f), SCREENS[p["screen"]]
        return [Check("screen shown", path == want, f"shown {path!r}, want {want!r}"), nothing_booked(f)]


# ---------------------------------------------------------------- a few steps
@register
class Prices(Family):
    """REAL's udriver-19 with a ride type: both places, "See prices", the ride type (nothing booked)."""

    name, site, steps = "udriver.prices", "udriver", "2-4"
    description = "show the price of a ride type from A to B (no booking)"

    def space(self):
        return [{"pickup": a, "dropoff": b, "type": t} for a, b in ROUTES for t in TYPES]

    def goal(self, p, rng):
        a, b, t = place_text(p["pickup"]), place_text(p["dropoff"]), p["type"]
        return rng.choice([f"Show me what a {t} from {a} to {b} costs, but don't book it.",
                           f"How much is a {t} ride from {a} to {b}? Pick it and see the price (no booking).",
                           f"Get prices for a ride from {a} to {b} and select {t}; don't request the ride."])

    def check(self, f, p):
        r = slice_of(f, "ride")
        price = r.get("calculatedPrice") if isinstance(r.get("calculatedPrice"), dict) else {}
        return [route_check(f, p),
                Check("ride type priced", r.get("selectedCar") == p["type"] and price.get("type") == p["type"],
                      f"selected {r.get('selectedCar')!r}, priced {price.get('type')!r}"),
                Check("pickup now", not r.get("pickupDate"), f"scheduled {r.get('pickupDate')!r}"),
                nothing_booked(f)]

    def subgoals(self, f, p, page):
        return place_subgoals(f, p, page)

    def typed(self, p):
        return (place_typed(p["pickup"]), place_typed(p["dropoff"]))


def money(v: float) -> str:
    return f"${v:,.2f}".replace(".00", "")


@register
class TopUp(Family):
    """REAL's udriver-2 for any amount: Wallet, an amount (a radio, or typed), "Add credits" with the card."""

    name, site, steps = "udriver.topup", "udriver", "2-4"
    description = "add an amount of UDriver credits with the card on file"

    def space(self):
        return [{"amount": a / 2} for a in range(10, 1001, 5)]  # $5 to $500 by $2.50

    def goal(self, p, rng):
        a = money(p["amount"])
        return rng.choice([f"Add {a} of UDriver credits to my balance using my card.",
                           f"Top up my UDriver credits by {a} with the Visa on file.",
                           f"Buy {a} in UDriver credits; pay with my card."])

    def _topup(self, f) -> list[dict[str, Any]]:
        return [t for t in added(f, "transactions") if t.get("type") == "credit"]

    def check(self, f, p):
        ups, txs = self._topup(f), added(f, "transactions")
        t = ups[0] if len(ups) == 1 else {}
        bal = (slice_of(f, "user").get("wallet") or {}).get("balance")
        want = round(START_BALANCE + p["amount"], 2)
        return [Check("credits added", len(ups) == 1 and t.get("description") == "Wallet Top-up"
                      and abs(float(t.get("amount") or 0) - p["amount"]) < 1e-6, f"top-ups {ups}"),
                Check("paid by card", t.get("paymentMethod") == CARD["displayName"], f"paid {t.get('paymentMethod')!r}"),
                Check("balance", isinstance(bal, (int, float)) and abs(bal - want) < 1e-6, f"balance {bal}, want {want}"),
                Check("nothing else", len(txs) == len(ups) and not added(f, "trips") and not added(f, "bookedTrips"),
                      f"{len(txs)} transactions")]

    def subgoals(self, f, p, page):
        done = bool(self._topup(f))
        typed = field_value(page, AMOUNT_FIELD)
        out = [Check("wallet open", done or typed is not None)]
        if p["amount"] not in PRESETS:
            try:
                ok = abs(float((typed or "").strip().lstrip("$").replace(",", "")) - p["amount"]) < 1e-6
            except ValueError:
                ok = False
            out.append(Check("amount typed", done or ok, f"amount field holds {typed!r}"))
        return out

    def typed(self, p):
        return (f"{p['amount']:g}",)  # typed in "Other amount" (a preset's radio is a click, but typing it works too)


# ---------------------------------------------------------------- REAL-like
def _payments(route: tuple[int, int], ride_type: str) -> list[str]:
    """How a ride may be paid: the card, cash, and the credits where they cover it (REAL's udriver-6, 11)."""
    return ["1", "cash"] + (["wallet"] if fare_of(route, ride_type) <= START_BALANCE else [])


def ride_type_check(f: Finish, p: dict[str, Any]) -> Check:
    got = slice_of(f, "ride").get("selectedCar")
    return Check("ride type", got == p["type"], f"selected {got!r}, want {p['type']!r}")


@register
class RequestRide(Family):
    """REAL's udriver-3, 9, 11, 15: a ride now from A to B, a ride type, a payment method, requested."""

    name, site, steps = "udriver.ride", "udriver", "5+"
    description = "request a ride now from A to B with a ride type and a payment method"

    def space(self):
        out = []
        for i, route in enumerate(ROUTES):
            for j, t in enumerate(TYPES):
                pays = _payments(route, t)
                out.append({"pickup": route[0], "dropoff": route[1], "type": t, "payment": pays[(i + j) % len(pays)]})
        return out

    def goal(self, p, rng):
        a, b, t = place_text(p["pickup"]), place_text(p["dropoff"]), p["type"]
        pay = {"1": rng.choice(["pay with my card", "charge my Visa"]), "cash": "I'll pay cash",
               "wallet": rng.choice(["use my UDriver credits", "pay with my credits"])}[p["payment"]]
        return rng.choice([f"Book me a {t} from {a} to {b} now; {pay}.",
                           f"Request a {t} ride from {a} to {b}, pickup now ({pay}).",
                           f"I need a {t} from {a} to {b} right away. {pay[0].upper()}{pay[1:]}."])

    def check(self, f, p):
        trips, txs = added(f, "trips"), added(f, "transactions")
        t = trips[0] if len(trips) == 1 else {}
        price = (t.get("car") or {}).get("finalPrice")
        debit = [x for x in txs if x.get("type") == "debit"]
        charged = len(txs) == 1 == len(debit) and price is not None and \
            debit[0].get("description") == f"Trip to {BY_ID[p['dropoff']].name}" and \
            abs(float(debit[0].get("amount") or 0) + price) < 1e-6
        return [route_check(f, p), ride_type_check(f, p),
                Check("ride requested", len(trips) == 1 and t.get("status") == "completed" and trip_matches(t, p)
                      and not added(f, "bookedTrips"), f"{len(trips)} rides: {[x.get('car') for x in trips]}"),
                Check("payment", (t.get("paymentMethod") or {}).get("id") == p["payment"],
                      f"paid with {(t.get('paymentMethod') or {}).get('id')!r}, want {p['payment']!r}"),
                Check("charged", charged, f"transactions {txs}")]

    def subgoals(self, f, p, page):
        return place_subgoals(f, p, page)

    def typed(self, p):
        """The places typed, and the payment method's option selected (the credits are already selected)."""
        return (place_typed(p["pickup"]), place_typed(p["dropoff"]), PAY_OPTIONS[p["payment"]])


_DAYS = [TODAY + dt.timedelta(days=n) for n in range(14)]
_TODAY_TIMES = ("11:00 AM", "12:30 PM", "1:30 PM", "3:30 PM", "5:00 PM", "6:30 PM", "8:00 PM", "9:30 PM")
_TIMES = ("7:00 AM", "8:30 AM", "9:00 AM", "10:30 AM", "12:00 PM", "2:30 PM", "4:00 PM", "6:00 PM", "7:30 PM",
          "10:00 PM")


@register
class ScheduleRide(Family):
    """REAL's udriver-17, booked: both places, a pickup time and date, "See prices", a ride type, "Schedule ride"."""

    name, site, steps = "udriver.schedule", "udriver", "5+"
    description = "schedule a ride from A to B for a date and time with a ride type"

    def space(self):
        out = []
        for i, (a, b) in enumerate(ROUTES):
            day = _DAYS[i % len(_DAYS)]
            times = _TODAY_TIMES if day == TODAY else _TIMES
            out.append({"pickup": a, "dropoff": b, "date": date_text(day), "time": times[(i // 7) % len(times)],
                        "type": TYPES[(i // 3) % len(TYPES)]})
        return out

    def goal(self, p, rng):
        a, b, t = place_text(p["pickup"]), place_text(p["dropoff"]), p["type"]
        m, d, y = (int(x) for x in p["date"].split("/"))
        when = f"{day_text(dt.date(y, m, d), rng)} at {p['time']}"
        return rng.choice([f"Schedule a {t} from {a} to {b} {when}.",
                           f"Book a {t} for later: pickup at {a} {when}, going to {b}.",
                           f"I need a {t} {when} from {a} to {b}. Schedule it."])

    def check(self, f, p):
        r, booked = slice_of(f, "ride"), added(f, "bookedTrips")
        t = booked[0] if len(booked) == 1 else {}
        return [route_check(f, p), ride_type_check(f, p),
                Check("pickup time", (r.get("pickupDate"), r.get("pickupTime")) == (p["date"], p["time"]),
                      f"pickup {r.get('pickupDate')!r} {r.get('pickupTime')!r}"),
                Check("ride scheduled", len(booked) == 1 and t.get("status") == "scheduled" and trip_matches(t, p)
                      and (t.get("date"), t.get("time")) == (p["date"], p["time"]), f"{len(booked)} scheduled"),
                Check("nothing charged now", not added(f, "trips") and not added(f, "transactions"),
                      f"{len(added(f, 'trips'))} rides now")]

    def subgoals(self, f, p, page):
        r = slice_of(f, "ride")
        set_ = (r.get("pickupDate"), r.get("pickupTime")) == (p["date"], p["time"])
        time, day = field_value(page, TIME_FIELD), field_value(page, DATE_FIELD)
        try:
            day_ok = parse_schedule(day or "", "11:00 PM")[0] == p["date"]
        except ValueError:
            day_ok = False
        return [*place_subgoals(f, p, page),
                Check("pickup time chosen", set_ or time == p["time"], f"time field holds {time!r}"),
                Check("pickup date typed", set_ or day_ok, f"date field holds {day!r}")]

    def typed(self, p):
        return (place_typed(p["pickup"]), place_typed(p["dropoff"]), p["date"], p["time"])
