"""OpenDining's state tree and the mutations its pages make, in the layout REAL's opendining scripts read.

The tree (``/finish`` diffs it against the seed):
- ``booking``: the reservation flow's slice. ``date`` (ISO), ``time`` ("7:00 PM"), ``guests`` ("2 people") hold
  the last reservation's values; ``bookingCompleted`` turns true and ``index`` (absent in the seed, so REAL's
  scripts find it under ``initialfinaldiff.added.booking``) counts the reservations made; ``loading`` is false;
  ``bookingDetails`` is the list of reservations, each ``{restaurant: {id, name, food_type, rating, description,
  imageUrl, location, price, reviews}, date, time, guests, optionals: {occasion, specialRequest}, contact,
  confirmationNumber}`` (a new one shows up as ``initialfinaldiff.added.booking.bookingDetails["<n>"]``);
- ``notification.notifications``: "notify me" requests for a fully booked slot, ``{restaurantId,
  restaurantName, date, time, guests}``;
- ``search``: the last search (term, cuisine, location, rating, date, time, party size);
- ``router.location.pathname``: the page last rendered.

The site clock is fixed: today is Thursday 2024-07-18 (REAL's opendining-6 says "today, July 18th").
"""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
from typing import Any

from real_local.opendining.restaurants import BY_ID, OCCASIONS, fmt_time, parse_time

TODAY = dt.date(2024, 7, 18)
LAST_DAY = dt.date(2025, 12, 31)
MAX_PARTY = 20
USER = {"firstName": "John", "lastName": "Doe", "email": "john.doe@example.com", "phone": "(415) 555-0142"}


class BookingError(ValueError):
    """The reservation cannot be made as asked; the message says why and what to do."""


def seed(task_id: str | None) -> dict[str, Any]:
    """Fresh state for a task; every opendining task starts from the same account (REAL's tasks do too)."""
    return {
        "router": {"location": {"pathname": "/"}},
        "search": {"term": "", "cuisine": "", "location": "", "rating": "", "date": TODAY.isoformat(),
                   "time": "7:00 PM", "party": 2},
        "booking": {"date": iso(TODAY), "time": "7:00 PM", "guests": guests(2), "loading": False,
                    "bookingCompleted": False, "bookingDetails": []},
        "notification": {"notifications": []},
        "user": dict(USER),
    }


def differences(initial: dict[str, Any], final: dict[str, Any]) -> dict[str, Any]:
    """Reservations and notifications, keyed by position (added ones whole)."""
    out = {}
    for name, rows_of in (("reservations", lambda s: s["booking"]["bookingDetails"]),
                          ("notifications", lambda s: s["notification"]["notifications"])):
        a, b = rows_of(initial), rows_of(final)
        out[name] = {"added": {str(i): copy.deepcopy(r) for i, r in enumerate(b) if i >= len(a)},
                     "updated": {str(i): copy.deepcopy(r) for i, r in enumerate(b) if i < len(a) and a[i] != r},
                     "deleted": {str(i): copy.deepcopy(r) for i, r in enumerate(a) if i >= len(b)}}
    return out


def iso(d: dt.date) -> str:
    return f"{d.isoformat()}T07:00:00.000Z"  # local midnight in San Francisco (PDT), as a browser's Date says


def guests(n: int) -> str:
    return f"{n} {'person' if n == 1 else 'people'}"


def parse_date(raw: str | None) -> dt.date:
    """A date as typed or picked: 2024-07-18, 07/18/2024, July 18, 2024 or Thu, Jul 18, 2024 (empty: today)."""
    text = str(raw or "").strip()
    if not text:
        return TODAY
    head, _, rest = text.partition(",")
    if rest and head.strip().lower()[:3] in ("mon", "tue", "wed", "thu", "fri", "sat", "sun"):
        text = rest.strip()
    for fmt in ("%Y-%m-%d", "%m/%d/%Y", "%B %d, %Y", "%b %d, %Y", "%B %d %Y"):
        try:
            d = dt.datetime.strptime(text, fmt).date()
            break
        except ValueError:
            continue
    else:
        raise BookingError(f"Enter a valid date ({text!r} is not one)")
    if d < TODAY:
        raise BookingError(f"{d:%B %-d, %Y} has passed: choose today or a later date")
    if d > LAST_DAY:
        raise BookingError(f"Reservations are open until {LAST_DAY:%B %-d, %Y}: choose an earlier date")
    return d


def parse_party(raw: Any) -> int:
    try:
        n = int(str(raw).split()[0])
    except (ValueError, IndexError):
        raise BookingError(f"Party size must be a number of people, not {raw!r}") from None
    if not 1 <= n <= MAX_PARTY:
        raise BookingError(f"Party size must be between 1 and {MAX_PARTY}, not {n}")
    return n


def check_slot(rid: str, date: dt.date, time: str, party: int) -> None:
    r = BY_ID.get(rid)
    if r is None:
        raise KeyError(f"OpenDining has no restaurant {rid!r}")
    t = parse_time(time)
    if not r.opens <= t <= r.closes:
        raise BookingError(f"{r.name} seats from {fmt_time(r.opens)} to {fmt_time(r.closes)}; {time} is outside those hours")
    if party > r.max_party:
        raise BookingError(f"{r.name} takes parties of up to {r.max_party}; call them for a larger group")
    if time in r.booked:
        raise BookingError(f"{r.name} is fully booked at {time}; pick another time or ask to be notified")


def book(state: dict[str, Any], rid: str, date: dt.date, time: str, party: int, contact: dict[str, str],
         occasion: str = "", request: str = "") -> dict:
    """Make a reservation (REAL's shape); returns the bookingDetails entry."""
    check_slot(rid, date, time, party)
    missing = [k for k in ("firstName", "lastName", "phone", "email") if not contact.get(k, "").strip()]
    if missing:
        names = {"firstName": "first name", "lastName": "last name", "phone": "phone number", "email": "email"}
        raise BookingError(f"Enter your {', '.join(names[k] for k in missing)}")
    if "@" not in contact["email"]:
        raise BookingError(f"Enter a valid email address ({contact['email']!r} is not an email address)")
    if occasion and occasion not in OCCASIONS:
        raise BookingError(f"Choose an occasion from the list ({', '.join(OCCASIONS)}), not {occasion!r}")
    b = state["booking"]
    n = len(b["bookingDetails"]) + 1
    conf = hashlib.sha256(f"{rid}|{date}|{time}|{party}|{n}".encode()).hexdigest()[:8].upper()
    entry = {"restaurant": BY_ID[rid].record(), "date": iso(date), "time": time, "guests": guests(party),
             "optionals": {"occasion": occasion, "specialRequest": request.strip()[:300]},
             "contact": {k: contact[k].strip() for k in ("firstName", "lastName", "phone", "email")},
             "confirmationNumber": conf}
    b["bookingDetails"].append(entry)
    b.update(date=iso(date), time=time, guests=guests(party), bookingCompleted=True, loading=False, index=n)
    return entry


def notify(state: dict[str, Any], rid: str, date: dt.date, time: str, party: int) -> dict:
    r = BY_ID.get(rid)
    if r is None:
        raise KeyError(f"OpenDining has no restaurant {rid!r}")
    parse_time(time)
    note = {"restaurantId": rid, "restaurantName": r.name, "date": iso(date), "time": time,
            "guests": guests(party)}
    notes = state["notification"]["notifications"]
    if note not in notes:
        notes.append(note)
    return note
