"""StayNB's state tree and the mutations its pages make, in the layout REAL's staynb scripts read.

Several of REAL's staynb scripts read ``initialfinaldiff.added.search`` / ``added.wishlist`` / ``added.booking``
only, whole: on REAL those slices come into being after the harness's first snapshot. REAL-local does the same:
the seed holds the router and the share log, and the first request of a session materializes ``search``,
``booking`` and ``wishlist`` with their defaults (``materialize``).

- ``search``: what the search bar holds (``destination``, ``dates``, ``guestCounts``) and what the results show
  (``appliedDestination`` e.g. "Rome, Italy", ``appliedDates: {startDate, endDate}`` as ISO datetimes,
  ``appliedGuestCounts: {Adults, Children, Infants, Pets}``, ``appliedFilters: {amenities: [..], bedrooms, beds,
  bathrooms}``), and ``recentSearches`` (newest first). A search with a check-in and no check-out is a single
  date: ``endDate`` equals ``startDate``, as REAL records it;
- ``wishlist.wishlists``: ``{id: {id, name, stays: [listing records with rooms {bedrooms, beds, bathrooms}]}}``;
- ``booking``: ``isBooking`` (the reserve page is open), ``currentBooking``, ``errors`` (card fields' messages,
  "" when valid), ``bookingDetails`` (confirmed stays);
- ``share.shares``: listings shared, with the channel.

The site clock is fixed: today is Thursday 2024-07-18.
"""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

from real_local.staynb.listings import AMENITIES, BY_ID, Listing

TODAY = dt.date(2024, 7, 18)
LAST_DAY = dt.date(2025, 12, 31)
GUEST_KINDS = ("Adults", "Children", "Infants", "Pets")
MAX_GUESTS = {"Adults": 16, "Children": 15, "Infants": 5, "Pets": 5}
SHARE_CHANNELS = ("Copy link", "Email", "Messages", "WhatsApp", "Text group chat")
MAX_RECENT = 10
NO_ERRORS = {"cardNumber": "", "expiration": "", "cvv": "", "zipcode": ""}


class StayError(ValueError):
    """The search, wishlist or booking cannot be done as asked; the message says why and what to do."""


def seed(task_id: str | None) -> dict[str, Any]:
    """Fresh state for a task: the router and share log; ``materialize`` adds the app slices on first request."""
    return {"router": {"location": {"pathname": "/"}}, "share": {"shares": []}}


def _empty_dates() -> dict:
    return {"startDate": None, "endDate": None}


def _no_guests() -> dict:
    return {k: 0 for k in GUEST_KINDS}


def materialize(state: dict[str, Any]) -> None:
    if "search" in state:
        return
    state["search"] = {"destination": "", "dates": _empty_dates(), "guestCounts": _no_guests(),
                       "appliedDestination": "", "appliedDates": _empty_dates(), "appliedGuestCounts": _no_guests(),
                       "appliedFilters": {"amenities": [], "bedrooms": 0, "beds": 0, "bathrooms": 0},
                       "recentSearches": []}
    state["booking"] = {"isBooking": False, "currentBooking": None, "errors": dict(NO_ERRORS),
                        "bookingDetails": []}
    state["wishlist"] = {"wishlists": {}}


def differences(initial: dict[str, Any], final: dict[str, Any]) -> dict[str, Any]:
    """What the session did, whole: the applied search, wishlisted stays, bookings and shares."""
    s = final.get("search") or {}
    stays = {f"{wid}/{x['id']}": x for wid, wl in (final.get("wishlist") or {}).get("wishlists", {}).items()
             for x in wl["stays"]}
    return {"appliedSearch": {k: copy.deepcopy(s.get(k)) for k in ("appliedDestination", "appliedDates",
                                                                   "appliedGuestCounts", "appliedFilters")},
            "wishlistStays": {"added": copy.deepcopy(stays)},
            "bookings": {"added": {str(i): copy.deepcopy(b) for i, b in
                                   enumerate((final.get("booking") or {}).get("bookingDetails", []))}},
            "shares": {"added": {str(i): copy.deepcopy(x) for i, x in enumerate(final["share"]["shares"])
                                 if i >= len(initial["share"]["shares"])}}}


def iso(d: dt.date) -> str:
    return f"{d.isoformat()}T07:00:00.000Z"  # local midnight in California (PDT), as a browser's Date says


def parse_date(raw: str | None, what: str) -> dt.date | None:
    text = str(raw or "").strip()
    if not text:
        return None
    head, _, rest = text.partition(",")
    if rest and head.strip().lower()[:3] in ("mon", "tue", "wed", "thu", "fri", "sat", "sun"):
        text = rest.strip()  # "Fri, Jul 26, 2024", as the date picker shows it
    for fmt in ("%Y-%m-%d", "%m/%d/%Y", "%B %d, %Y", "%b %d, %Y"):
        try:
            d = dt.datetime.strptime(text, fmt).date()
            break
        except ValueError:
            continue
    else:
        raise StayError(f"Enter a valid {what} date ({text!r} is not one)")
    if d < TODAY:
        raise StayError(f"{what.capitalize()} can't be in the past")
    if d > LAST_DAY:
        raise StayError(f"{what.capitalize()} can't be after {LAST_DAY:%B %-d, %Y}")
    return d


def parse_dates(checkin: str | None, checkout: str | None) -> tuple[dt.date | None, dt.date | None]:
    a, b = parse_date(checkin, "check-in"), parse_date(checkout, "check-out")
    if b is not None and a is None:
        raise StayError("Add a check-in date before the check-out date")
    if a is not None and b is None:
        b = a  # a single date, as REAL records it
    if a is not None and b is not None and b < a:
        raise StayError("Check-out must be on or after check-in")
    return a, b


def parse_guests(q: Any) -> dict[str, int]:
    out = {}
    for k in GUEST_KINDS:
        raw = q.get(k.lower(), "0") or "0"
        try:
            n = int(raw)
        except ValueError:
            raise StayError(f"{k} must be a whole number, not {raw!r}") from None
        if not 0 <= n <= MAX_GUESTS[k]:
            raise StayError(f"{k} must be between 0 and {MAX_GUESTS[k]}, not {n}")
        out[k] = n
    if out["Adults"] == 0 and any(out[k] for k in ("Children", "Infants", "Pets")):
        out["Adults"] = 1  # children, infants and pets travel with an adult
    return out


def parse_filters(q: Any) -> dict[str, Any]:
    amen = [a for a in AMENITIES if a in q.getlist("amenities")]
    unknown = [a for a in q.getlist("amenities") if a not in AMENITIES]
    if unknown:
        raise StayError(f"Unknown amenity {unknown[0]!r}; choose from {', '.join(AMENITIES)}")
    out: dict[str, Any] = {"amenities": amen}
    for k in ("bedrooms", "beds", "bathrooms"):
        raw = q.get(k, "") or "0"
        try:
            n = int(raw)
        except ValueError:
            raise StayError(f"{k.capitalize()} must be a whole number, not {raw!r}") from None
        if not 0 <= n <= 8:
            raise StayError(f"{k.capitalize()} must be between 0 and 8, not {n}")
        out[k] = n
    return out


def guests_label(g: dict[str, int]) -> str:
    n = g["Adults"] + g["Children"]
    parts = [f"{n} guest{'s' if n != 1 else ''}"] if n else []
    if g["Infants"]:
        parts.append(f"{g['Infants']} infant{'s' if g['Infants'] != 1 else ''}")
    if g["Pets"]:
        parts.append(f"{g['Pets']} pet{'s' if g['Pets'] != 1 else ''}")
    return ", ".join(parts) or "Add guests"


def apply_search(state: dict[str, Any], dest: str, dates: tuple[dt.date | None, dt.date | None],
                 guests: dict[str, int], filters: dict[str, Any]) -> None:
    """The results page for these criteria was shown: the applied search, and a recent-search entry."""
    s = state["search"]
    d = {"startDate": iso(dates[0]) if dates[0] else None, "endDate": iso(dates[1]) if dates[1] else None}
    s.update(destination=dest, dates=dict(d), guestCounts=dict(guests), appliedDestination=dest,
             appliedDates=dict(d), appliedGuestCounts=dict(guests), appliedFilters=copy.deepcopy(filters))
    entry = {"destination": dest, "dates": dict(d), "guests": guests_label(guests)}
    recent = [r for r in s["recentSearches"] if r != entry]
    s["recentSearches"] = [entry, *recent][:MAX_RECENT]


def save(state: dict[str, Any], listing: Listing, wishlist: str = "Favorites") -> None:
    name = wishlist.strip()[:50] or "Favorites"
    wid = "".join(ch for ch in name.lower() if ch.isalnum()) or "favorites"
    wls = state["wishlist"]["wishlists"]
    wl = wls.setdefault(wid, {"id": wid, "name": name, "stays": []})
    if all(x["id"] != listing.id for x in wl["stays"]):
        wl["stays"].append(listing.record())


def unsave(state: dict[str, Any], listing_id: str) -> None:
    for wl in state["wishlist"]["wishlists"].values():
        wl["stays"] = [x for x in wl["stays"] if x["id"] != listing_id]


def saved_ids(state: dict[str, Any]) -> set[str]:
    return {x["id"] for wl in state["wishlist"]["wishlists"].values() for x in wl["stays"]}


def share(state: dict[str, Any], listing: Listing, channel: str) -> None:
    if channel not in SHARE_CHANNELS:
        raise StayError(f"Share by {', '.join(SHARE_CHANNELS)}, not {channel!r}")
    state["share"]["shares"].append({"listingId": listing.id, "title": listing.title, "channel": channel})


def start_booking(state: dict[str, Any], listing: Listing) -> dict:
    s = state["search"]
    start, end = s["appliedDates"]["startDate"], s["appliedDates"]["endDate"]
    if not start:
        raise StayError("Add dates to your search before reserving")
    g = s["appliedGuestCounts"]
    if g["Adults"] + g["Children"] > listing.max_guests:
        raise StayError(f"This place takes up to {listing.max_guests} guests")
    nights = max(1, (dt.date.fromisoformat(end[:10]) - dt.date.fromisoformat(start[:10])).days)
    b = state["booking"]
    b["isBooking"] = True
    b["currentBooking"] = {"listing": listing.record(), "startDate": start, "endDate": end, "guests": dict(g),
                           "nights": nights, "total": nights * listing.price + 45, "status": "pending"}
    b["errors"] = dict(NO_ERRORS)
    return b["currentBooking"]


def confirm_booking(state: dict[str, Any], card: dict[str, str]) -> bool:
    """Check the card fields; on success the stay is booked. Returns whether it was."""
    b = state["booking"]
    if not b["currentBooking"]:
        raise StayError("There is no reservation in progress: open a place and press Reserve")
    num = card.get("cardNumber", "").replace(" ", "")
    errors = {"cardNumber": "" if num.isdigit() and 13 <= len(num) <= 19 else "Enter a valid card number",
              "expiration": "" if _valid_expiry(card.get("expiration", "")) else "Enter a valid expiration (MM/YY)",
              "cvv": "" if card.get("cvv", "").isdigit() and len(card.get("cvv", "")) in (3, 4) else "Enter a CVV",
              "zipcode": "" if card.get("zipcode", "").strip() else "Enter a ZIP code"}
    b["errors"] = errors
    if any(errors.values()):
        return False
    b["bookingDetails"].append({**b["currentBooking"], "status": "confirmed"})
    b["currentBooking"] = {**b["currentBooking"], "status": "confirmed"}
    b["isBooking"] = False
    return True


def cancel_booking(state: dict[str, Any]) -> None:
    b = state["booking"]
    b.update(isBooking=False, currentBooking=None, errors=dict(NO_ERRORS))


def _valid_expiry(text: str) -> bool:
    try:
        m, y = (int(x) for x in text.strip().split("/"))
    except ValueError:
        return False
    return 1 <= m <= 12 and (2000 + y, m) >= (TODAY.year, TODAY.month)


def listing_or_error(lid: str) -> Listing:
    if lid not in BY_ID:
        raise KeyError(f"StayNB has no place {lid!r}")
    return BY_ID[lid]
