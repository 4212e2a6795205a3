"""StayNB's pages: the search bar (where, check-in/out, adults/children/infants/pets), a chooser when a place name
is ambiguous, results at ``/s/<destination>/homes?<query>`` (the URL holds the whole search: dates, guests,
amenity and room filters; showing it applies the search), listing pages with wishlist, share and reserve, the
reserve page with the card form, and wishlists. Changes are HTML form posts followed by a 303. Listing photos and
hosts' portraits (``media``) at ``/photos/<listing id>/<n>-<size>.jpg`` and ``/photos/host/<listing id>.jpg``. The
date fields open a two-month calendar on today's month (``static/staynb.js``) and also take a typed date; the heart
asks which wishlist (Favorites, the default, or a new one) in a dialog before it saves."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from real_local.core import picture, read_form, session_of
from real_local.staynb import media
from real_local.staynb import state as st
from real_local.staynb.listings import AMENITIES, BY_ID, LISTINGS, NAMES, resolve, search

HERE = Path(__file__).parent
MAX_TEXT = 200
KEEP = ("checkin", "checkout", "adults", "children", "infants", "pets", "amenities", "bedrooms", "beds", "bathrooms")
_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                   trim_blocks=True, lstrip_blocks=True)
_env.globals.update(css=Markup((HERE / "static" / "staynb.css").read_text()), amenities=AMENITIES,
                    guest_kinds=st.GUEST_KINDS, max_guests=st.MAX_GUESTS, channels=st.SHARE_CHANNELS,
                    popular=("Rome, Italy", "Paris, France", "Cape Town, South Africa", "Miami, Florida", "Austria",
                             "Vancouver, Canada"), quote=quote, photo=media.url, captions=media.captions,
                    today=st.TODAY.isoformat())
_env.filters["display"] = lambda iso: f"{dt.date.fromisoformat(str(iso)[:10]):%b %-d, %Y}" if iso else ""
DEFAULT_WISHLIST = "Favorites"


def _choices(state: dict) -> list[tuple[str, int, str]]:
    """The wishlists a heart offers: (name, stays saved, the first stay's photo), Favorites first."""
    wls = {w["name"]: w["stays"] for w in state["wishlist"]["wishlists"].values()}
    names = [DEFAULT_WISHLIST, *sorted(n for n in wls if n != DEFAULT_WISHLIST)]
    return [(n, len(wls.get(n, [])), media.url(BY_ID[wls[n][0]["id"]], 0, "thumb") if wls.get(n) else "")
            for n in names]


def _state(request: Request) -> tuple[Any, dict]:
    s = session_of(request)
    with s.lock:
        st.materialize(s.state)
    return s, s.state


def _page(request: Request, template: str, status: int = 200, track: bool = True, **ctx: Any) -> HTMLResponse:
    s, state = _state(request)
    with s.lock:
        if track:
            state["router"]["location"]["pathname"] = request.url.path
        ctx.setdefault("bar", _bar(state))
        ctx["n_saved"] = len(st.saved_ids(state))
        ctx["wishlist_choices"] = _choices(state)
        ctx.setdefault("here", str(request.url.path) + (f"?{request.url.query}" if request.url.query else ""))
        body = _env.get_template(template).render(**ctx)
    return HTMLResponse(body, status_code=status)


def _bar(state: dict) -> dict:
    """The search bar's values: the applied search (dates as YYYY-MM-DD)."""
    s = state["search"]
    d = s["appliedDates"]
    return {"where": s["appliedDestination"], "checkin": (d["startDate"] or "")[:10],
            "checkout": (d["endDate"] or "")[:10] if d["endDate"] != d["startDate"] else "",
            **{k.lower(): s["appliedGuestCounts"][k] for k in st.GUEST_KINDS}, "filters": s["appliedFilters"]}


def _error(request: Request, status: int, headline: str, message: str) -> HTMLResponse:
    return _page(request, "error.html", status=status, track=False, headline=headline, message=message)


def _kept(q: Any) -> list[tuple[str, str]]:
    return [(k, v) for k, v in q.multi_items() if k in KEEP and v != ""]


def _results_url(dest: str, q: Any) -> str:
    return f"/s/{quote(dest)}/homes" + (f"?{urlencode(_kept(q))}" if _kept(q) else "")


async def home(request: Request) -> Response:
    return _page(request, "home.html", dest_listing={d: next(x for x in LISTINGS if x.destination == d)
                                                     for d in _env.globals["popular"]})


async def search_redirect(request: Request) -> Response:
    q = request.query_params
    where = (q.get("where") or "").strip()[:MAX_TEXT]
    if not where:
        return _error(request, 400, "Where to?", "Type a destination (a city, region or country), or 'near me'.")
    hits = resolve(where)
    if not hits:
        return _error(request, 404, "No places found",
                      f"StayNB has no stays in {where!r}. Try a city or country: {', '.join(NAMES[1:8])}...")
    if len(hits) > 1:
        return _page(request, "choose.html", track=False, where=where, hits=hits,
                     urls=[_results_url(h, q) for h in hits])
    return RedirectResponse(_results_url(hits[0], q), status_code=303)


async def results(request: Request) -> Response:
    dest = request.path_params["dest"]
    if dest not in NAMES:
        return _error(request, 404, "No places found", f"StayNB has no destination {dest!r}. Search for it instead.")
    q = request.query_params
    try:
        dates = st.parse_dates(q.get("checkin"), q.get("checkout"))
        guests = st.parse_guests(q)
        filters = st.parse_filters(q)
    except st.StayError as e:
        return _error(request, 400, "Check your search", f"{e}.")
    s, state = _state(request)
    with s.lock:
        st.apply_search(state, dest, dates, guests, filters)
        saved = st.saved_ids(state)
    found = search(dest, guests["Adults"] + guests["Children"], tuple(filters["amenities"]), filters["bedrooms"],
                   filters["beds"], filters["bathrooms"])
    return _page(request, "results.html", dest=dest, found=found, saved=saved, dates=dates, guests=guests,
                 filters=filters, here=str(request.url.path) + (f"?{q}" if str(q) else ""),
                 hidden=[(k, v) for k, v in _kept(q) if k in ("checkin", "checkout", "adults", "children",
                                                                 "infants", "pets")],
                 guests_label=st.guests_label(guests))


async def room(request: Request) -> Response:
    x = BY_ID.get(request.path_params["lid"])
    if x is None:
        return _error(request, 404, "Place not found", f"StayNB has no place {request.path_params['lid']!r}.")
    s, state = _state(request)
    with s.lock:
        saved = x.id in st.saved_ids(state)
        srch = dict(state["search"])
    return _page(request, "room.html", x=x, saved=saved, srch=srch, shared=request.query_params.get("shared"),
                 guests_label=st.guests_label(srch["appliedGuestCounts"]))


def _safe_next(nxt: str, default: str) -> str:
    return nxt if nxt.startswith("/") and not nxt.startswith("//") else default


async def wishlist_post(request: Request) -> Response:
    f = await read_form(request, MAX_TEXT)
    x = BY_ID.get(f.get("id", ""))
    if x is None:
        return _error(request, 400, "Could not save", f"StayNB has no place {f.get('id')!r}.")
    s, state = _state(request)
    with s.lock:
        if request.path_params["action"] == "save":
            st.save(state, x, f.get("wishlist", DEFAULT_WISHLIST))
        elif request.path_params["action"] == "remove":
            st.unsave(state, x.id)
        else:
            return _error(request, 404, "Not found", "Wishlists can save or remove a place.")
    return RedirectResponse(_safe_next(f.get("next", ""), f"/rooms/{x.id}"), status_code=303)


async def share_page(request: Request) -> Response:
    x = BY_ID.get(request.path_params["lid"])
    if x is None:
        return _error(request, 404, "Place not found", f"StayNB has no place {request.path_params['lid']!r}.")
    return _page(request, "share.html", x=x)


async def share_post(request: Request) -> Response:
    f = await read_form(request, MAX_TEXT)
    x = BY_ID.get(request.path_params["lid"])
    if x is None:
        return _error(request, 404, "Place not found", f"StayNB has no place {request.path_params['lid']!r}.")
    s, state = _state(request)
    with s.lock:
        try:
            st.share(state, x, f.get("channel", ""))
        except st.StayError as e:
            return _error(request, 400, "Could not share", f"{e}.")
    return RedirectResponse(f"/rooms/{x.id}?{urlencode({'shared': f['channel']})}", status_code=303)


async def book_start(request: Request) -> Response:
    x = BY_ID.get(request.path_params["lid"])
    if x is None:
        return _error(request, 404, "Place not found", f"StayNB has no place {request.path_params['lid']!r}.")
    s, state = _state(request)
    with s.lock:
        try:
            st.start_booking(state, x)
        except st.StayError as e:
            return _error(request, 400, "Can't reserve yet", f"{e}.")
    return RedirectResponse(f"/book/{x.id}", status_code=303)


async def book_page(request: Request) -> Response:
    s, state = _state(request)
    with s.lock:
        b = state["booking"]
        cur = dict(b["currentBooking"]) if b["currentBooking"] else None
        errors = dict(b["errors"])
    if cur is None or cur["listing"]["id"] != request.path_params["lid"]:
        return _error(request, 400, "No reservation in progress", "Open a place and press Reserve.")
    return _page(request, "book.html", cur=cur, errors=errors, form={})


async def book_post(request: Request) -> Response:
    f = await read_form(request, MAX_TEXT)
    s, state = _state(request)
    lid = request.path_params["lid"]
    with s.lock:
        if f.get("action") == "cancel":
            st.cancel_booking(state)
            return RedirectResponse(f"/rooms/{lid}", status_code=303)
        try:
            ok = st.confirm_booking(state, f)
        except st.StayError as e:
            return _error(request, 400, "No reservation in progress", f"{e}.")
        cur, errors = dict(state["booking"]["currentBooking"]), dict(state["booking"]["errors"])
    if not ok:
        return _page(request, "book.html", status=400, track=False, cur=cur, errors=errors, form=f)
    return _page(request, "booked.html", cur=cur)


async def wishlists_page(request: Request) -> Response:
    s, state = _state(request)
    with s.lock:
        wls = [dict(w) for w in state["wishlist"]["wishlists"].values()]
    return _page(request, "wishlists.html", wls=wls)


async def photo(request: Request) -> Response:
    """A listing's photo or its host's portrait: drawn once (off the event loop) and cached."""
    lid, key = request.path_params["lid"], request.path_params["key"]
    if lid == "host":
        return await picture(media.CONTENT_TYPE, media.host, key)
    if "-" in key and key.split("-", 1)[0].isdigit():
        n, size = key.split("-", 1)
        return await picture(media.CONTENT_TYPE, media.photo, lid, int(n), size)
    return await picture(media.CONTENT_TYPE, None)


ROUTES = [
    Route("/", home), Route("/search", search_redirect), Route("/s/{dest}/homes", results),
    Route("/rooms/{lid}", room), Route("/rooms/{lid}/share", share_page),
    Route("/rooms/{lid}/share", share_post, methods=["POST"]),
    Route("/wishlist/{action}", wishlist_post, methods=["POST"]), Route("/wishlists", wishlists_page),
    Route("/book/{lid}/start", book_start, methods=["POST"]), Route("/book/{lid}", book_page),
    Route("/book/{lid}", book_post, methods=["POST"]),
    Route("/photos/{lid}/{key}.jpg", photo),
]
