"""OpenDining's pages: server-rendered search (term, cuisine, neighborhood, rating, date, time, party size),
restaurant pages with reviews and time slots, the reservation form (contact details, occasion, request), the
confirmation, "notify me" for a fully booked slot, and the user's reservations. Every change is an HTML form
post followed by a 303. Photos (``media``) at ``/photos/<restaurant id>/<n>-<size>.jpg`` and reviewers' portraits at
``/photos/diner/<n>.jpg``. Date fields open a calendar on today's month (``static/opendining.js``) and also take a
typed date; the forms send YYYY-MM-DD."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from real_local.core import picture, read_form, session_of
from real_local.opendining import media
from real_local.opendining import state as st
from real_local.opendining.restaurants import (
    ALL_TIMES,
    BY_ID,
    CUISINES,
    NEIGHBORHOODS,
    OCCASIONS,
    RESTAURANTS,
    fmt_time,
    parse_time,
    search,
    slots,
)

HERE = Path(__file__).parent
MAX_QUERY = 200
RATINGS = (("", "Any rating"), ("3", "3 stars & up"), ("4", "4 stars & up"), ("4.5", "4.5 stars & up"))
_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                   trim_blocks=True, lstrip_blocks=True)
_env.globals.update(css=Markup((HERE / "static" / "opendining.css").read_text()), cuisines=CUISINES,
                    neighborhoods=NEIGHBORHOODS, times=ALL_TIMES, occasions=OCCASIONS, ratings=RATINGS,
                    urlencode=urlencode, today=st.TODAY, photo=media.url, captions=media.captions,
                    reviewer=lambda who: _REVIEWER_N.get(who, 0))
_env.filters["display"] = lambda iso: f"{dt.date.fromisoformat(str(iso)[:10]):%b %-d, %Y}"
_REVIEWER_N = {who: i for i, who in enumerate(sorted({w for r in RESTAURANTS for w, _, _ in r.reviews}))}
def _page(request: Request, template: str, status: int = 200, track: bool = True, **ctx: Any) -> HTMLResponse:
    s = session_of(request)
    with s.lock:
        if track:
            s.state["router"]["location"]["pathname"] = request.url.path
        ctx.setdefault("sq", dict(s.state["search"]))
        ctx["n_reservations"] = len(s.state["booking"]["bookingDetails"])
        body = _env.get_template(template).render(**ctx)
    return HTMLResponse(body, status_code=status)


def _error(request: Request, status: int, headline: str, message: str) -> HTMLResponse:
    return _page(request, "error.html", status=status, track=False, headline=headline, message=message)


def _when(q: Any, sq: dict[str, Any]) -> tuple[dt.date, str, int]:
    """Date, time and party size from a query (falling back to the last search); raises BookingError."""
    d = st.parse_date(q.get("date", sq["date"]))
    time = q.get("time") or sq["time"]
    try:
        parse_time(time)
    except ValueError as e:
        raise st.BookingError(str(e)) from None
    return d, time, st.parse_party(q.get("party", sq["party"]))


async def home(request: Request) -> Response:
    top = sorted(RESTAURANTS, key=lambda r: (-r.rating, -r.reviews_count))[:6]
    return _page(request, "home.html", top=top)


async def search_page(request: Request) -> Response:
    q = request.query_params
    s = session_of(request)
    with s.lock:
        sq = dict(s.state["search"])
    term = (q.get("term") or "").strip()[:MAX_QUERY]
    cuisine, location, rating = q.get("cuisine") or "", q.get("location") or "", q.get("rating") or ""
    if cuisine and cuisine not in CUISINES:
        return _error(request, 400, "Unknown cuisine", f"OpenDining has no cuisine {cuisine!r}; pick one from "
                                                       f"the list.")
    if location and location not in NEIGHBORHOODS:
        return _error(request, 400, "Unknown neighborhood", f"OpenDining has no neighborhood {location!r}; pick "
                                                            f"one from the list.")
    if rating not in dict(RATINGS):
        return _error(request, 400, "Unknown rating filter", f"Choose a rating from the list ({rating!r} is not one).")
    try:
        d, time, party = _when(q, sq)
    except st.BookingError as e:
        return _error(request, 400, "Check your search", f"{e}.")
    new = {"term": term, "cuisine": cuisine, "location": location, "rating": rating, "date": d.isoformat(),
           "time": time, "party": party}
    with s.lock:
        s.state["search"].update(new)
    results = search(term, cuisine, location, float(rating or 0))
    return _page(request, "search.html", sq=new, results=results, around=parse_time(time), slots=slots,
                 when=d)


async def restaurant_page(request: Request) -> Response:
    r = BY_ID.get(request.path_params["rid"])
    if r is None:
        return _error(request, 404, "Restaurant not found",
                      f"OpenDining has no restaurant {request.path_params['rid']!r}. Search for it instead.")
    s = session_of(request)
    with s.lock:
        sq = dict(s.state["search"])
    try:
        d, time, party = _when(request.query_params, sq)
    except st.BookingError as e:
        return _error(request, 400, "Check the reservation details", f"{e}.")
    sel = {"date": d.isoformat(), "time": time, "party": party}
    return _page(request, "restaurant.html", r=r, sel=sel, when=d, slot_list=slots(r, parse_time(time)),
                 times_fmt=(fmt_time(r.opens), fmt_time(r.closes)),
                 notified=request.query_params.get("notified"))


def _booking_ctx(q: Any) -> tuple[Any, dt.date, str, int]:
    r = BY_ID.get(q.get("rid", ""))
    if r is None:
        raise KeyError(f"OpenDining has no restaurant {q.get('rid')!r}")
    d = st.parse_date(q.get("date"))
    time, party = q.get("time", ""), st.parse_party(q.get("party", "2"))
    st.check_slot(r.id, d, time, party)
    return r, d, time, party


async def booking_page(request: Request) -> Response:
    try:
        r, d, time, party = _booking_ctx(request.query_params)
    except KeyError as e:
        return _error(request, 404, "Restaurant not found", f"{e.args[0]}.")
    except (st.BookingError, ValueError) as e:
        return _error(request, 400, "This time can't be booked", f"{e}.")
    s = session_of(request)
    with s.lock:
        user = dict(s.state["user"])
    return _page(request, "booking.html", r=r, when=d, time=time, party=party, form={**user, "occasion": "",
                                                                                      "request": ""}, error=None)


async def booking_post(request: Request) -> Response:
    f = await read_form(request)
    try:
        r, d, time, party = _booking_ctx(f)
    except KeyError as e:
        return _error(request, 404, "Restaurant not found", f"{e.args[0]}.")
    except (st.BookingError, ValueError) as e:
        return _error(request, 400, "This time can't be booked", f"{e}.")
    s = session_of(request)
    with s.lock:
        try:
            st.book(s.state, r.id, d, time, party, {k: f.get(k, "") for k in st.USER}, f.get("occasion", ""),
                    f.get("request", ""))
            n = len(s.state["booking"]["bookingDetails"])
            err = None
        except st.BookingError as e:
            err = str(e)
    if err:
        return _page(request, "booking.html", status=400, track=False, r=r, when=d, time=time, party=party,
                     form=f, error=f"{err}.")
    return RedirectResponse(f"/reservations/{n}", status_code=303)


async def notify_post(request: Request) -> Response:
    f = await read_form(request)
    s = session_of(request)
    r = BY_ID.get(f.get("rid", ""))
    if r is None:
        return _error(request, 404, "Restaurant not found", f"OpenDining has no restaurant {f.get('rid')!r}.")
    try:
        d, party = st.parse_date(f.get("date")), st.parse_party(f.get("party", "2"))
        parse_time(f.get("time", ""))
    except (st.BookingError, ValueError) as e:
        return _error(request, 400, "Could not set the notification", f"{e}.")
    with s.lock:
        st.notify(s.state, r.id, d, f["time"], party)
    q = urlencode({"date": d.isoformat(), "time": f["time"], "party": party, "notified": f["time"]})
    return RedirectResponse(f"/restaurant/{r.id}?{q}", status_code=303)


async def reservation_page(request: Request) -> Response:
    s = session_of(request)
    try:
        n = int(request.path_params["n"])
    except ValueError:
        n = 0
    with s.lock:
        rows = s.state["booking"]["bookingDetails"]
        entry = dict(rows[n - 1]) if 1 <= n <= len(rows) else None
    if entry is None:
        return _error(request, 404, "Reservation not found", "See your reservations for the ones you made.")
    return _page(request, "confirmation.html", e=entry, when=dt.date.fromisoformat(entry["date"][:10]))


async def reservations_page(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        rows = [dict(e) for e in s.state["booking"]["bookingDetails"]]
        notes = [dict(x) for x in s.state["notification"]["notifications"]]
    return _page(request, "reservations.html", rows=rows, notes=notes)


async def photo(request: Request) -> Response:
    """A restaurant's photo or a reviewer's portrait: drawn once (off the event loop) and cached."""
    rid, key = request.path_params["rid"], request.path_params["key"]
    if rid == "diner" and key.isdigit():
        return await picture(media.CONTENT_TYPE, media.diner, int(key))
    if "-" in key and key.split("-", 1)[0].isdigit():
        n, size = key.split("-", 1)
        return await picture(media.CONTENT_TYPE, media.photo, rid, int(n), size)
    return await picture(media.CONTENT_TYPE, None)


ROUTES = [
    Route("/", home), Route("/search", search_page), Route("/restaurant/{rid}", restaurant_page),
    Route("/booking", booking_page), Route("/booking", booking_post, methods=["POST"]),
    Route("/notify", notify_post, methods=["POST"]),
    Route("/reservations", reservations_page), Route("/reservations/{n}", reservation_page),
    Route("/photos/{rid}/{key}.jpg", photo),
]
