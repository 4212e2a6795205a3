"""UDriver's state tree and the mutations its pages make, in the layout REAL's udriver scripts read.

REAL's udriver scripts read the app's ``config``, ``ride`` and ``user`` slices whole under
``initialfinaldiff.added`` (``added.ride.trips`` as a list, ``added.user.wallet.paymentMethods`` as a list): on
REAL they come into being after the harness's first snapshot. REAL-local does the same: the seed holds only the
router, and the first request of a session materializes ``config``, ``ride`` and ``user`` with their defaults
(``materialize``), so they diff as added and every later change stays inside them.

- ``config.udriver.cars``: ride types, ``{type: {multiplier, discount}}``;
- ``ride``: ``pickupLocation`` / ``dropoffLocation`` (place records), ``pickupDate`` ("7/18/2024") and
  ``pickupTime`` ("3:30 PM") when scheduled (empty for now), ``calculatedPrice`` (the fare of the selected ride
  type once prices were shown), ``selectedCar``, ``selectedPaymentMethod``, ``trip`` (the last ride booked),
  ``trips`` (every ride taken: ``{id, pickup, destination, car: {type, finalPrice, priceWithoutDiscount},
  paymentMethod, date, time, status: "completed"}``), ``bookedTrip`` / ``bookedTrips`` (scheduled rides, status
  "scheduled");
- ``user.wallet``: ``balance`` (UDriver Credits, $25.50 to start), ``transactions`` (a debit "Trip to <drop-off>"
  with a negative amount for every ride, a credit "Wallet Top-up" for credits bought), ``paymentMethods`` (the
  card on file, Visa 4242 with id "1"; UDriver Credits, the default; cash).

Only rides paid with UDriver Credits take from the balance; a ride the credits cannot cover is refused. The site
clock is fixed: Thursday 7/18/2024, 10:00 AM.
"""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

from real_local.udriver.places import BY_ID, RIDE_TYPES, Place, fare

TODAY = dt.date(2024, 7, 18)
NOW = "10:00 AM"
START_BALANCE = 25.5
MAX_TOPUP = 500.0
CARD = {"id": "1", "type": "credit", "brand": "Visa", "last4": "4242", "displayName": "Visa •••• 4242",
        "expiry": "08/27", "isDefault": False}
CREDITS = {"id": "wallet", "type": "wallet", "displayName": "UDriver Credits", "isDefault": True}
CASH = {"id": "cash", "type": "cash", "displayName": "Cash", "isDefault": False}
_PAST_TRIPS = [
    {"id": "trip-1001", "pickup": 703, "destination": 704, "type": "UdriverX", "date": "7/15/2024",
     "time": "8:40 AM", "pay": "1"},
    {"id": "trip-1002", "pickup": 704, "destination": 702, "type": "UdriverXL", "date": "7/16/2024",
     "time": "5:15 PM", "pay": "1"},
]


class RideError(ValueError):
    """The ride or payment cannot be done as asked; the message says why and what to do."""


def seed(task_id: str | None) -> dict[str, Any]:
    """Fresh state for a task: only the router; ``materialize`` adds the app's slices on the first request."""
    return {"router": {"location": {"pathname": "/"}}}


def _method(mid: str) -> dict:
    return copy.deepcopy({"1": CARD, "wallet": CREDITS, "cash": CASH}[mid])


def _selected(m: dict) -> dict:
    return {"id": m["id"], "type": m["type"], "displayName": m["displayName"]}


def _trip(tid: str, pickup: Place, dropoff: Place, ride_type: str, method: dict, date: str, time: str,
          status: str) -> dict:
    f = fare(pickup, dropoff, ride_type)
    return {"id": tid, "pickup": pickup.record(), "destination": dropoff.record(),
            "car": {"type": ride_type, "finalPrice": f["finalPrice"],
                    "priceWithoutDiscount": f["priceWithoutDiscount"], "seats": f["seats"]},
            "paymentMethod": _selected(method), "date": date, "time": time, "status": status}


def materialize(state: dict[str, Any]) -> None:
    """Give a session its app slices (defaults, deterministic) if it has none yet."""
    if "ride" in state:
        return
    trips, txs = [], []
    for t in _PAST_TRIPS:
        trip = _trip(t["id"], BY_ID[t["pickup"]], BY_ID[t["destination"]], t["type"], _method(t["pay"]), t["date"],
                     t["time"], "completed")
        trips.append(trip)
        txs.append({"id": f"tx-{len(txs) + 1}", "type": "debit", "amount": -trip["car"]["finalPrice"],
                    "description": f"Trip to {trip['destination']['name']}", "date": t["date"],
                    "paymentMethod": trip["paymentMethod"]["displayName"]})
    state["config"] = {"udriver": {"cars": {k: {"multiplier": v["multiplier"], "discount": v["discount"]}
                                            for k, v in RIDE_TYPES.items()}}}
    state["ride"] = {"pickupLocation": None, "dropoffLocation": None, "pickupDate": "", "pickupTime": "",
                     "calculatedPrice": None, "selectedCar": "UdriverX", "selectedPaymentMethod": _selected(CREDITS),
                     "trip": None, "trips": trips, "bookedTrip": None, "bookedTrips": []}
    state["user"] = {"name": "John Doe", "email": "john.doe@example.com", "phone": "(415) 555-0142",
                     "wallet": {"balance": START_BALANCE, "currency": "USD", "transactions": txs,
                                "paymentMethods": [_method("1"), _method("wallet"), _method("cash")]}}


def differences(initial: dict[str, Any], final: dict[str, Any]) -> dict[str, Any]:
    """Trips, scheduled rides and wallet transactions added in the session (whole)."""
    def rows(st: dict, *path: str) -> list:
        cur: Any = st
        for k in path:
            cur = (cur or {}).get(k) if isinstance(cur, dict) else None
        return cur or []

    out = {}
    for name, path in (("trips", ("ride", "trips")), ("bookedTrips", ("ride", "bookedTrips")),
                       ("transactions", ("user", "wallet", "transactions"))):
        a, b = rows(initial, *path), rows(final, *path)
        n0 = len(_PAST_TRIPS) if name != "bookedTrips" else 0
        base = len(a) if a else n0
        out[name] = {"added": {str(i): copy.deepcopy(r) for i, r in enumerate(b) if i >= base}}
    return out


# ---------------------------------------------------------------- choosing a ride
def set_locations(state: dict[str, Any], pickup: Place, dropoff: Place) -> None:
    if pickup.id == dropoff.id:
        raise RideError(f"pickup and drop-off are both {pickup.name}: choose a different drop-off")
    r = state["ride"]
    r["pickupLocation"], r["dropoffLocation"] = pickup.record(), dropoff.record()
    r["calculatedPrice"] = None


def parse_schedule(date_text: str, time_text: str) -> tuple[str, str]:
    """A schedule as typed (7/18/2024 or 2024-07-18; 3:30 PM) -> ("7/18/2024", "3:30 PM")."""
    text = date_text.strip()
    text = " ".join(text.replace(",", ", ").split())
    if text[:3].lower() in ("mon", "tue", "wed", "thu", "fri", "sat", "sun") and "," in text:
        text = text.split(",", 1)[1].strip()  # "Fri, Jul 26, 2024"
    for fmt in ("%m/%d/%Y", "%Y-%m-%d", "%B %d, %Y", "%b %d, %Y"):
        try:
            d = dt.datetime.strptime(text, fmt).date()
            break
        except ValueError:
            continue
    else:
        raise RideError(f"Pickup date must look like 7/18/2024 (or pick it on the calendar), got {text!r}")
    if not TODAY <= d <= TODAY + dt.timedelta(days=30):
        raise RideError("Rides can be scheduled from today up to 30 days ahead")
    try:
        t = dt.datetime.strptime(time_text.strip().upper(), "%I:%M %p")
    except ValueError:
        raise RideError(f"Pickup time must look like 3:30 PM, got {time_text!r}") from None
    if d == TODAY and (t.hour, t.minute) <= (10, 0):
        raise RideError(f"{time_text} today has passed: pick a later time")
    return f"{d.month}/{d.day}/{d.year}", f"{(t.hour - 1) % 12 + 1}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def set_schedule(state: dict[str, Any], when: tuple[str, str] | None) -> None:
    r = state["ride"]
    r["pickupDate"], r["pickupTime"] = when or ("", "")


def options(state: dict[str, Any]) -> list[dict]:
    r = state["ride"]
    p, d = BY_ID[r["pickupLocation"]["id"]], BY_ID[r["dropoffLocation"]["id"]]
    return [fare(p, d, t) for t in RIDE_TYPES]


def show_prices(state: dict[str, Any], ride_type: str | None = None) -> dict:
    """The fare of the selected ride type becomes ``calculatedPrice`` (the prices were shown)."""
    r = state["ride"]
    if not (r["pickupLocation"] and r["dropoffLocation"]):
        raise RideError("set a pickup and a drop-off first")
    if ride_type is not None:
        if ride_type not in RIDE_TYPES:
            raise RideError(f"ride type must be one of {', '.join(RIDE_TYPES)}, not {ride_type!r}")
        r["selectedCar"] = ride_type
    r["calculatedPrice"] = fare(BY_ID[r["pickupLocation"]["id"]], BY_ID[r["dropoffLocation"]["id"]],
                                r["selectedCar"])
    return r["calculatedPrice"]


def method_of(state: dict[str, Any], mid: str) -> dict:
    for m in state["user"]["wallet"]["paymentMethods"]:
        if m["id"] == mid:
            return m
    raise RideError(f"unknown payment method {mid!r}: choose one from your wallet")


def book(state: dict[str, Any], ride_type: str, method_id: str) -> dict:
    """Book the selected ride: now (status "completed", charged at once) or at the scheduled time ("scheduled")."""
    r, w = state["ride"], state["user"]["wallet"]
    price = show_prices(state, ride_type)
    m = method_of(state, method_id)
    scheduled = bool(r["pickupDate"])
    if m["type"] == "wallet" and not scheduled and price["finalPrice"] > w["balance"] + 1e-9:
        raise RideError(f"your UDriver Credits (${w['balance']:.2f}) do not cover this ${price['finalPrice']:.2f} "
                        f"{ride_type} ride: pick a cheaper ride, add credits, or pay another way")
    p, d = BY_ID[r["pickupLocation"]["id"]], BY_ID[r["dropoffLocation"]["id"]]
    n = len(r["trips"]) + len(r["bookedTrips"]) + 1
    if scheduled:
        trip = _trip(f"trip-{1000 + n}", p, d, ride_type, m, r["pickupDate"], r["pickupTime"], "scheduled")
        r["bookedTrips"].append(trip)
        r["bookedTrip"] = copy.deepcopy(trip)
    else:
        trip = _trip(f"trip-{1000 + n}", p, d, ride_type, m, f"{TODAY.month}/{TODAY.day}/{TODAY.year}", NOW,
                     "completed")
        r["trips"].append(trip)
        amount = trip["car"]["finalPrice"]
        w["transactions"].append({"id": f"tx-{len(w['transactions']) + 1}", "type": "debit", "amount": -amount,
                                  "description": f"Trip to {d.name}", "date": trip["date"],
                                  "paymentMethod": m["displayName"]})
        if m["type"] == "wallet":
            w["balance"] = round(w["balance"] - amount, 2)
    r["trip"] = copy.deepcopy(trip)
    r["selectedPaymentMethod"] = _selected(m)
    return trip


# ---------------------------------------------------------------- wallet
def top_up(state: dict[str, Any], amount_text: str, method_id: str) -> dict:
    try:
        amount = round(float(str(amount_text).strip().lstrip("$").replace(",", "")), 2)
    except ValueError:
        raise RideError(f"amount must be a number of dollars, got {amount_text!r}") from None
    if not 5 <= amount <= MAX_TOPUP:
        raise RideError(f"add between $5 and ${MAX_TOPUP:.0f} at a time, not ${amount:g}")
    m = method_of(state, method_id)
    if m["type"] != "credit":
        raise RideError("credits are bought with a card: choose your card")
    w = state["user"]["wallet"]
    tx = {"id": f"tx-{len(w['transactions']) + 1}", "type": "credit", "amount": amount,
          "description": "Wallet Top-up", "date": f"{TODAY.month}/{TODAY.day}/{TODAY.year}",
          "paymentMethod": m["displayName"]}
    w["transactions"].append(tx)
    w["balance"] = round(w["balance"] + amount, 2)
    return tx


def set_default(state: dict[str, Any], method_id: str) -> None:
    m = method_of(state, method_id)
    for x in state["user"]["wallet"]["paymentMethods"]:
        x["isDefault"] = x["id"] == m["id"]
    state["ride"]["selectedPaymentMethod"] = _selected(m)
