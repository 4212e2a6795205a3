"""MarriSuite's pages: the search form (destination, check-in/out, rooms, guests), results at
``/search?destination=..&checkIn=..&checkOut=..&rooms=..&guests=..`` (the URL holds the whole search: showing it
applies the search), hotel pages with their rooms and rates, and booking a room (a form post, then a 303 to the
confirmation); hotel photos at ``/photos/<hotel id>/<n>-<size>.jpg`` (``photos``).

Dates: the search form's date fields open a calendar on today's month (``static/marrisuite.js``) and also take a
typed date ("2024-07-26", "07/26/2024", "Jul 26, 2024", "Fri, Jul 26, 2024"); the URL and the state always hold
YYYY-MM-DD."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from real_local.core import picture, read_form, session_of
from real_local.marrisuite import photos
from real_local.marrisuite import state as st
from real_local.marrisuite.hotels import BY_ID, CITIES, HOTELS, search

HERE = Path(__file__).parent
MAX_TEXT = 120
_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                   trim_blocks=True, lstrip_blocks=True)
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _date(v: str) -> dt.date | None:
    """A typed date: 2024-07-26, 7/26/2024, Jul 26, 2024, July 26 2024, Fri, Jul 26, 2024 (None otherwise)."""
    v = " ".join(v.replace(",", " ").split()).lower()
    try:
        return dt.date.fromisoformat(v)
    except ValueError:
        pass
    try:
        if "/" in v:
            m, d, y = (int(x) for x in v.split("/"))
            return dt.date(y, m, d)
        words = [w for w in v.split() if w[:3] not in {d[:3].lower() for d in DAYS}]
        if len(words) == 3 and len(words[0]) >= 3:
            mon = next(i for i, name in enumerate(MONTHS) if name.lower().startswith(words[0][:3]))
            if not MONTHS[mon].lower().startswith(words[0]):
                return None
            return dt.date(int(words[2]), mon + 1, int(words[1]))
    except (ValueError, StopIteration):
        return None
    return None


def display(iso: str) -> str:
    """YYYY-MM-DD as the date fields and pages show it: "Fri, Jul 26, 2024"."""
    d = _date(iso) if iso else None
    return f"{DAYS[d.weekday()][:3]}, {MONTHS[d.month - 1][:3]} {d.day}, {d.year}" if d else iso


_env.filters["display"] = display
_env.globals.update(css=Markup((HERE / "static" / "marrisuite.css").read_text()), cities=CITIES,
                    max_rooms=st.MAX_ROOMS, max_guests=st.MAX_GUESTS, today=st.TODAY, photo=photos.url,
                    photo_n=photos.ROOM_PHOTO, captions=photos.CAPTIONS, hero=photos.HERO, style=photos.style,
                    city_hotel={c: next(h for h in HOTELS if h.city == c) for c in CITIES})


def _page(request: Request, template: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    s = session_of(request)
    with s.lock:
        ctx.setdefault("q", dict(s.state["search"]))
        body = _env.get_template(template).render(**ctx)
    return HTMLResponse(body, status_code=status)


def _error(request: Request, status: int, headline: str, message: str) -> HTMLResponse:
    return _page(request, "error.html", status=status, headline=headline, message=message)


def _int(v: str | None, lo: int, hi: int) -> int | None:
    try:
        n = int(v or "")
    except ValueError:
        return None
    return n if lo <= n <= hi else None


def _parse(q: Any) -> tuple[dict | None, str]:
    """The search in a query string, checked; (None, why) when it cannot run."""
    dest = " ".join((q.get("destination") or "").split())[:MAX_TEXT]
    if not dest:
        return None, "Type a destination: a city, e.g. 'Goleta, California'."
    cin, cout = (q.get("checkIn") or "").strip()[:40], (q.get("checkOut") or "").strip()[:40]
    din, dout = _date(cin) if cin else None, _date(cout) if cout else None
    if (cin and din is None) or (cout and dout is None):
        which = "check-in" if cin and din is None else "check-out"
        return None, f"Enter a valid {which} date, or pick one on the calendar."
    cin, cout = din.isoformat() if din else "", dout.isoformat() if dout else ""
    if bool(cin) != bool(cout):
        return None, "Give both a check-in and a check-out date, or neither."
    if din and dout:
        if din < dt.date.fromisoformat(st.TODAY):
            return None, "Check-in cannot be before today."
        if dout <= din:
            return None, "Check-out must be after check-in."
        if (dout - din).days > 30:
            return None, "Stays are at most 30 nights."
    rooms = _int(q.get("rooms", "1"), 1, st.MAX_ROOMS)
    guests = _int(q.get("guests", "1"), 1, st.MAX_GUESTS)
    if rooms is None or guests is None:
        return None, f"Rooms are 1 to {st.MAX_ROOMS}, guests 1 to {st.MAX_GUESTS}."
    if guests < rooms:
        return None, "Each room needs at least one guest."
    return {"destination": dest, "checkIn": cin, "checkOut": cout, "rooms": rooms, "guests": guests,
            "summary": st.summary(rooms, guests)}, ""


def _nights(q: dict) -> int:
    if q["checkIn"] and q["checkOut"]:
        return (dt.date.fromisoformat(q["checkOut"]) - dt.date.fromisoformat(q["checkIn"])).days
    return 0


def _query(q: dict) -> str:
    return urlencode({k: q[k] for k in ("destination", "checkIn", "checkOut", "rooms", "guests") if q[k] != ""})


async def home(request: Request) -> Response:
    return _page(request, "home.html")


async def results(request: Request) -> Response:
    q, why = _parse(request.query_params)
    if q is None:
        return _error(request, 400, "Check your search", why)
    hotels = search(q["destination"])
    s = session_of(request)
    with s.lock:
        s.state["search"] = dict(q)
        s.state["searchResults"] = [{"id": h.id, "name": h.name, "city": h.city, "fromRate": h.from_rate}
                                    for h in hotels]
    return _page(request, "results.html", q=q, hotels=hotels, nights=_nights(q), qs=_query(q))


async def hotel(request: Request) -> Response:
    h = BY_ID.get(request.path_params["hid"])
    if h is None:
        return _error(request, 404, "Hotel not found", "Search for a destination and pick a hotel from the results.")
    s = session_of(request)
    with s.lock:
        q = dict(s.state["search"])
    return _page(request, "hotel.html", h=h, nights=_nights(q), qs=_query(q) if q["destination"] else "")


def _confirmation(s: Any, hid: str, n: int) -> str:
    return "MS" + hashlib.sha1(f"{s.sid}:{hid}:{n}".encode()).hexdigest()[:8].upper()


async def book_form(request: Request) -> Response:
    h = BY_ID.get(request.path_params["hid"])
    room = next((r for r in h.rooms if r.code == request.query_params.get("room")), None) if h else None
    if h is None or room is None:
        return _error(request, 404, "Room not found", "Pick a room on a hotel's page.")
    s = session_of(request)
    with s.lock:
        q = dict(s.state["search"])
    if not _nights(q):
        return _error(request, 400, "Choose your dates", "Search with a check-in and check-out date before booking.")
    return _page(request, "book.html", h=h, room=room, nights=_nights(q), total=room.rate * _nights(q) * q["rooms"])


async def book(request: Request) -> Response:
    h = BY_ID.get(request.path_params["hid"])
    form = await read_form(request, MAX_TEXT)
    room = next((r for r in h.rooms if r.code == form.get("room")), None) if h else None
    if h is None or room is None:
        return _error(request, 404, "Room not found", "Pick a room on a hotel's page.")
    name = " ".join(str(form.get("name") or "").split())[:MAX_TEXT]
    card = "".join(str(form.get("card") or "").split())
    if not name or not (card.isdigit() and 13 <= len(card) <= 19):
        return _error(request, 400, "Check your details", "Give the guest's name and a card number (13-19 digits).")
    s = session_of(request)
    with s.lock:
        q = dict(s.state["search"])
        nights = _nights(q)
        if not nights:
            return _error(request, 400, "Choose your dates", "Search with dates before booking.")
        conf = _confirmation(s, h.id, len(s.state["reservations"]))
        s.state["reservations"].append({
            "confirmationNumber": conf, "hotel": h.name, "hotelId": h.id, "room": room.name,
            "checkIn": q["checkIn"], "checkOut": q["checkOut"], "rooms": q["rooms"], "guests": q["guests"],
            "guestName": name, "cardLast4": card[-4:], "total": room.rate * nights * q["rooms"],
            "status": "Reservation confirmed"})
    return RedirectResponse(f"/reservations/{conf}", status_code=303)


async def photo(request: Request) -> Response:
    """``/photos/<hotel id>/<n>-<size>.jpg``: a hotel's photo, drawn once (off the event loop) and cached."""
    hid, n, size = request.path_params["hid"], request.path_params["n"], request.path_params["size"]
    known = hid in BY_ID and 0 <= n < len(photos.PHOTOS) and size in photos.SIZES
    return await picture(photos.CONTENT_TYPE, photos.photo if known else None, hid, n, size)


async def reservation(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        r = next((x for x in s.state["reservations"] if x["confirmationNumber"] == request.path_params["conf"]), None)
    if r is None:
        return _error(request, 404, "Reservation not found", "Your reservations are listed after you book.")
    return _page(request, "booked.html", r=r)


ROUTES = [
    Route("/", home),
    Route("/search", results),
    Route("/hotels/{hid}", hotel),
    Route("/hotels/{hid}/book", book_form, methods=["GET"]),
    Route("/hotels/{hid}/book", book, methods=["POST"]),
    Route("/reservations/{conf}", reservation),
    Route("/photos/{hid}/{n:int}-{size}.jpg", photo),
]
