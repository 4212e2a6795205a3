"""UDriver's pages: the ride form (pickup and drop-off by address or place name, now or scheduled), a chooser when
a name matches several places, ride options with prices and what the credits cover, booking with a payment
method, the trip receipt, the wallet (credits, top-up, default payment) and the activity list. Every change is an
HTML form post followed by a 303; the options page also reports the ride type picked as it changes.

As on Uber, the location fields suggest places as you type (a list under the field; picking one fills the field and
sends its id, ``pickupId``/``dropoffId``), the Suggestions panel fills the next empty location (or the drop-off),
and the pickup date opens a calendar on today's month and also takes a typed date (``static/udriver.js``). Maps
(``media``): ``/maps/city.jpg`` beside the form, ``/maps/route/<pickup id>-<dropoff id>.jpg`` on the options and
trip pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from real_local.core import picture, read_form, session_of
from real_local.udriver import media
from real_local.udriver import state as st
from real_local.udriver.places import BY_ID, PLACES, RIDE_TYPES, Place, find_places

HERE = Path(__file__).parent
MAX_TEXT = 200
TIMES = tuple(f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}" for h in range(24) for m in (0, 30))
_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                   trim_blocks=True, lstrip_blocks=True)
_env.globals.update(css=Markup((HERE / "static" / "udriver.css").read_text()), times=TIMES, ride_types=RIDE_TYPES,
                    places=PLACES, money=lambda v: f"${v:,.2f}",
                    js=Markup((HERE / "static" / "udriver.js").read_text()),
                    place_list=[{"id": p.id, "name": p.name, "street": p.street, "category": p.category}
                                for p in PLACES],
                    suggestions=[p for p in PLACES if p.category in ("Saved place", "Airport")],
                    today=f"{st.TODAY.month}/{st.TODAY.day}/{st.TODAY.year}")


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
        ctx.update(ride=state["ride"], wallet=state["user"]["wallet"])
        body = _env.get_template(template).render(**ctx)
    return HTMLResponse(body, status_code=status)


def _error(request: Request, status: int, headline: str, message: str) -> HTMLResponse:
    return _page(request, "error.html", status=status, track=False, headline=headline, message=message)


async def home(request: Request) -> Response:
    return _page(request, "home.html", form={}, error=None)


def _resolve(f: dict[str, str], role: str) -> tuple[Place | None, list[Place]]:
    """A place from the form: the chosen id, else what was typed (one match, or the candidates)."""
    pid = f.get(f"{role}Id", "")
    if pid:
        try:
            return BY_ID[int(pid)], []
        except (ValueError, KeyError):
            return None, []
    hits = find_places(f.get(role, ""))
    return (hits[0], hits) if len(hits) == 1 else (None, hits)


async def ride_search(request: Request) -> Response:
    f = await read_form(request, MAX_TEXT)
    labels = {"pickup": "pickup", "dropoff": "drop-off"}
    chosen: dict[str, Place] = {}
    for role in ("pickup", "dropoff"):
        if not f.get(role, "").strip() and not f.get(f"{role}Id"):
            return _page(request, "home.html", status=400, track=False, form=f,
                         error=f"Enter a {labels[role]} location: an address or a place name.")
        place, hits = _resolve(f, role)
        if place is None and len(hits) > 1:
            return _page(request, "choose.html", track=False, form=f, role=role, label=labels[role], hits=hits)
        if place is None:
            return _page(request, "home.html", status=400, track=False, form=f,
                         error=f"No place matches {f.get(role, '')!r} for the {labels[role]}. Try a street address "
                               f"or another name.")
        chosen[role] = place
    when = None
    if f.get("time", "Now") != "Now":
        try:
            when = st.parse_schedule(f.get("date", ""), f.get("time", ""))
        except st.RideError as e:
            return _page(request, "home.html", status=400, track=False, form=f, error=f"{e}.")
    s, state = _state(request)
    with s.lock:
        try:
            st.set_locations(state, chosen["pickup"], chosen["dropoff"])
        except st.RideError as e:
            err = str(e)
        else:
            err = None
            st.set_schedule(state, when)
            st.show_prices(state)
    if err:
        return _page(request, "home.html", status=400, track=False, form=f, error=f"{err}.")
    return RedirectResponse("/ride/options", status_code=303)


async def ride_options(request: Request) -> Response:
    s, state = _state(request)
    with s.lock:
        r = state["ride"]
        if not (r["pickupLocation"] and r["dropoffLocation"]):
            return RedirectResponse("/", status_code=303)
        opts = st.options(state)
        st.show_prices(state)
        default = next(m["id"] for m in state["user"]["wallet"]["paymentMethods"] if m["isDefault"])
    return _page(request, "options.html", opts=opts, default=default, error=None)


async def ride_select(request: Request) -> Response:
    f = await read_form(request, MAX_TEXT)
    s, state = _state(request)
    with s.lock:
        try:
            price = st.show_prices(state, f.get("car", ""))
        except st.RideError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
    return JSONResponse({"ok": True, "calculatedPrice": price})


async def ride_book(request: Request) -> Response:
    f = await read_form(request, MAX_TEXT)
    s, state = _state(request)
    with s.lock:
        try:
            trip = st.book(state, f.get("car", ""), f.get("payment", ""))
        except st.RideError as e:
            err = str(e)
            r = state["ride"]
            opts = st.options(state) if (r["pickupLocation"] and r["dropoffLocation"]) else []
        else:
            err = None
    if err:
        if not opts:
            return _error(request, 400, "Set your ride first", f"{err}.")
        return _page(request, "options.html", status=400, track=False, opts=opts, default=f.get("payment", ""),
                     error=f"We couldn't book this ride: {err}.")
    return RedirectResponse(f"/trips/{trip['id']}", status_code=303)


async def trip_page(request: Request) -> Response:
    s, state = _state(request)
    tid = request.path_params["tid"]
    with s.lock:
        r = state["ride"]
        trip = next((t for t in r["trips"] + r["bookedTrips"] if t["id"] == tid), None)
    if trip is None:
        return _error(request, 404, "Trip not found", f"You have no trip {tid!r}. See your activity.")
    return _page(request, "trip.html", t=trip)


async def wallet_page(request: Request) -> Response:
    return _page(request, "wallet.html", error=None, done=request.query_params.get("done"))


async def wallet_post(request: Request) -> Response:
    f = await read_form(request, MAX_TEXT)
    s, state = _state(request)
    action = request.path_params["action"]
    with s.lock:
        try:
            if action == "topup":
                amount = f.get("other", "").strip() or f.get("amount", "")
                st.top_up(state, amount, f.get("payment", ""))
                done = "Credits added"
            elif action == "default":
                st.set_default(state, f.get("id", ""))
                done = "Default payment updated"
            else:
                return _error(request, 404, "Not found", f"The wallet has no action {action!r}.")
            err = None
        except st.RideError as e:
            err = str(e)
    if err:
        return _page(request, "wallet.html", status=400, track=False, error=f"{err}.", done=None)
    return RedirectResponse(f"/wallet?done={done.replace(' ', '+')}", status_code=303)


async def activity_page(request: Request) -> Response:
    return _page(request, "activity.html")


async def map_image(request: Request) -> Response:
    """``/maps/city.jpg`` or ``/maps/route/<pickup id>-<dropoff id>.jpg``: drawn once (off the event loop), cached."""
    key = request.path_params.get("key")
    if key is None:
        return await picture(media.CONTENT_TYPE, media.city, missing="No such map.")
    return await picture(media.CONTENT_TYPE, media.route, key, missing="No such map.")


ROUTES = [
    Route("/", home), Route("/ride/search", ride_search, methods=["POST"]), Route("/ride/options", ride_options),
    Route("/api/ride/select", ride_select, methods=["POST"]), Route("/ride/book", ride_book, methods=["POST"]),
    Route("/trips/{tid}", trip_page), Route("/wallet", wallet_page),
    Route("/wallet/{action}", wallet_post, methods=["POST"]), Route("/activity", activity_page),
    Route("/maps/city.jpg", map_image), Route("/maps/route/{key}.jpg", map_image),
]
