"""Zilloft's pages and API: server-rendered search, listing pages with request-a-tour and contact-agent dialogs
(JSON posts), saved homes. Searching records the filters in the session state, as REAL's clone does; every page
records itself as the router location, and typing in a search box records what it holds."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from real_local.core import picture, session_of
from real_local.zilloft import photos
from real_local.zilloft import state as st
from real_local.zilloft.listings import (
    AGENTS,
    BY_ID,
    HOME_TYPES,
    LISTINGS,
    PAGE_SIZE,
    SORTS,
    TYPE_LABELS,
    Listing,
    page_of,
    search,
)

HERE = Path(__file__).parent
MAX_QUERY = 200


def art(h: Listing, size: str = "card", n: int = 0, label: str = "") -> Markup:
    """A listing's photo ``n`` (``real_local.zilloft.photos``) as an <img>; ``label`` its alt text ("": decorative)."""
    w, ht = photos.SIZES[size]
    return Markup(f'<img src="/photos/{h.id}/{n}-{size}.jpg" width="{w}" height="{ht}" alt="{escape(label)}" '
                  f'loading="{"eager" if size == "big" else "lazy"}" decoding="async">')


def pin(h: Listing) -> tuple[float, float]:
    return photos.pin(h.id)


def short_price(p: int) -> str:
    return f"{p / 1e6:.2g}M" if p >= 1_000_000 else f"{p // 1000}K"


_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                   trim_blocks=True, lstrip_blocks=True)
_env.globals.update(css=Markup((HERE / "static" / "zilloft.css").read_text()), art=art, pin=pin,
                    short_price=short_price, home_types=HOME_TYPES, type_labels=TYPE_LABELS, sorts=SORTS)


def _page(template: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    return HTMLResponse(_env.get_template(template).render(**ctx), status_code=status)


def _error(status: int, headline: str, message: str) -> HTMLResponse:
    return _page("error.html", status=status, headline=headline, message=message)


def _at(request: Request) -> None:
    """Record the page as the router location (REAL's ``router.location.pathname``); error pages are not."""
    s = session_of(request)
    with s.lock:
        s.state["router"]["location"]["pathname"] = request.url.path


def _saved_ids(request: Request) -> set[str]:
    s = session_of(request)
    with s.lock:
        return {x["id"] for x in s.state["savedHomes"]["homes"]}


# The home page's "Popular searches": metro areas and cities in alphabetical order, as a real site lists them (REAL's
# task regions are among them, not the list itself; zilloft.popular's targets are seven of these).
POPULAR_SEARCHES = ("Austin, TX", "Boston, MA", "Cambridge, MA", "Irvine, CA", "Long Beach, CA", "Los Angeles, CA",
                    "Oakland, CA", "Orange County", "Palo Alto, CA", "Pasadena, CA", "Sacramento, CA",
                    "San Diego, CA", "San Francisco Bay Area", "San Jose, CA", "Seattle, WA", "Southern California")


async def home(request: Request) -> Response:
    trending = [BY_ID[i] for i in ("90801", "15004", "59002", "95801", "92101", "90003", "95002", "92603")]
    return _page("home.html", trending=trending, popular=POPULAR_SEARCHES, saved_ids=_saved_ids(request))


def _int(raw: str | None, name: str, lo: int = 0, hi: int = 10**9) -> int | None:
    if raw is None or not raw.strip():
        return None
    try:
        v = int(float(raw.replace(",", "").strip()))
    except ValueError:
        raise st.RequestError(f"{name} {raw!r} is not a number: type a whole number like 1000") from None
    if not lo <= v <= hi:
        raise st.RequestError(f"{name} must be between {lo} and {hi}, got {v}")
    return v


_BEDS = (0, 1, 2, 3, 4, 5)
_BATHS = (0, 1, 1.5, 2, 3, 4)
_ON = ("1", "on", "true", "yes")
DROPDOWNS = ("price", "beds", "type", "more")


def _money(p: int) -> str:
    return f"${p / 1e6:g}M" if p >= 1_000_000 else f"${p // 1000}K" if p >= 1000 else f"${p}"


def filter_labels(f: dict[str, Any]) -> dict[str, str]:
    """What each filter dropdown's button says, as Zillow's do ("Price" or "$500K - $1.1M", "3+ bd, 2+ ba")."""
    lo, hi = f["minPrice"], f["maxPrice"]
    price = (f"{_money(lo)} - {_money(hi)}" if lo is not None and hi is not None else f"{_money(lo)}+"
             if lo is not None else f"Up to {_money(hi)}" if hi is not None else "")
    rooms = []
    if f["minBeds"]:
        rooms.append(f"{f['minBeds']}{'' if f['maxBeds'] is not None else '+'} bd")
    if f["minBaths"]:
        rooms.append(f"{f['minBaths']:g}{'' if f['maxBaths'] is not None else '+'} ba")
    types = f["homeTypes"]
    more = sum(f[k] is not None for k in ("minSqft", "maxSqft"))
    return {"price": price, "beds": ", ".join(rooms),
            "type": TYPE_LABELS[types[0]] if len(types) == 1 else f"{len(types)} types" if types else "",
            "more": f"{more} filter{'s' if more > 1 else ''}" if more else ""}


async def search_page(request: Request) -> Response:
    q = request.query_params
    s = session_of(request)
    with s.lock:
        f = s.state["filters"]
        cur = dict(f, homeTypes=list(f["homeTypes"]))
    errors: list[str] = []
    new: dict[str, Any] = {"searchQuery": (q.get("searchQuery", q.get("q", cur["searchQuery"])) or "").strip()[:MAX_QUERY]}
    reset = q.get("reset") == "1"
    raw = {}
    for key, parse in (("minPrice", lambda v: st.parse_price(v, "minimum price")),
                       ("maxPrice", lambda v: st.parse_price(v, "maximum price")),
                       ("minSqft", lambda v: _int(v, "minimum square feet")),
                       ("maxSqft", lambda v: _int(v, "maximum square feet"))):
        if reset:
            new[key] = None
        elif key in q:
            try:
                new[key] = parse(q.get(key))
            except st.RequestError as e:
                errors.append(str(e))
                raw[key] = q.get(key)
    # a range whose minimum is above its maximum matches nothing: refused with what to change, as Zillow refuses
    # it, rather than applied as "0 results"; the filters keep their last good values
    for lo_key, hi_key, what, unit in (("minPrice", "maxPrice", "price", "$"), ("minSqft", "maxSqft", "size", "")):
        lo, hi = new.get(lo_key, cur[lo_key]), new.get(hi_key, cur[hi_key])
        if not reset and lo is not None and hi is not None and lo > hi:
            errors.append(f"The minimum {what} ({unit}{lo:,}) is above the maximum ({unit}{hi:,}). Lower the minimum "
                          f"or raise the maximum.")
            for key in (lo_key, hi_key):
                if key in new:
                    raw[key] = q.get(key)
                    del new[key]
    # bedrooms and bathrooms: "3+" is a minimum; with "Use exact match" ticked the maximum is the same number
    for key, top, options, conv, exact in (("minBeds", "maxBeds", _BEDS, int, "bedsExact"),
                                           ("minBaths", "maxBaths", _BATHS, float, "bathsExact")):
        if reset:
            new[key], new[top] = 0, None
        elif key in q:
            try:
                v = conv(q.get(key) or 0)
                if v not in options:
                    raise ValueError
                new[key] = int(v) if float(v).is_integer() else v
                new[top] = new[key] if q.get(exact, "").lower() in _ON and new[key] else None
            except ValueError:
                errors.append(f"{key} {q.get(key)!r} is not one of {', '.join(f'{o:g}' for o in options)}")
    if reset:
        new["homeTypes"] = []
    elif "homeType" in q or "minBeds" in q:  # the filter form was submitted: no box ticked means any type
        new["homeTypes"] = [t for t in HOME_TYPES if t in q.getlist("homeType")]
    if q.get("sort") in dict(SORTS):
        new["sort"] = q.get("sort")
    with s.lock:
        f.update(new)
        cur = dict(f, homeTypes=list(f["homeTypes"]))
    homes = search(cur["searchQuery"], cur["minPrice"], cur["maxPrice"], cur["minBeds"], cur["minBaths"],
                   cur["minSqft"], cur["maxSqft"], tuple(cur["homeTypes"]), cur["sort"], max_beds=cur["maxBeds"],
                   max_baths=cur["maxBaths"])
    try:
        want = int(q.get("page") or 1)
    except ValueError:
        want = 1
    shown, page, pages = page_of(homes, want)
    _at(request)
    for key in ("minPrice", "maxPrice", "minSqft", "maxSqft"):
        raw.setdefault(key, "" if cur[key] is None else str(cur[key]))
    exact = {"beds": cur["maxBeds"] is not None or q.get("bedsExact", "").lower() in _ON,
             "baths": cur["maxBaths"] is not None or q.get("bathsExact", "").lower() in _ON}
    keep = [("searchQuery", cur["searchQuery"])]
    first = (page - 1) * PAGE_SIZE
    return _page("search.html", f=cur, raw=raw, homes=shown, total=len(homes), page=page, pages=pages,
                 page_links=_page_links(page, pages), first=first + 1 if homes else 0, last=first + len(shown),
                 others=[h for h in homes[:300] if h not in shown], keep=keep, saved_ids=_saved_ids(request),
                 exact=exact, labels=filter_labels(cur), map_url=f"/maps/{photos.map_key(cur['searchQuery'])}.jpg",
                 open=q.get("open") if q.get("open") in DROPDOWNS else "",
                 error=" ".join(errors) or None)


def _page_links(page: int, pages: int) -> list[int | None]:
    """Page numbers to link, Zillow-style: the first, the last and two either side of this one (None: a gap)."""
    keep = sorted({1, pages, *range(max(1, page - 2), min(pages, page + 2) + 1)})
    out: list[int | None] = []
    for n in keep:
        if out and n - (out[-1] or 0) > 1:
            out.append(None)
        out.append(n)
    return out


def _description(h: Listing) -> str:
    kind = {"Condo": "condo", "Townhouse": "townhome", "Manufactured": "manufactured home"}.get(h.home_type, "home")
    where = f"{h.neighborhood}, {h.city}" if h.neighborhood else h.city
    return (f"Welcome to {h.street}, a {h.beds}-bedroom, {h.baths_text}-bath {kind} in {where} with "
            f"{h.sqft:,} square feet of living space, built in {h.year_built}. Updated kitchen, natural light, "
            f"and close to shops, parks and transit. Contact {h.agent_info[0]} to schedule a private tour.")


async def homedetails(request: Request) -> Response:
    zpid = request.path_params["zpid"]
    h = BY_ID.get(zpid)
    if h is None:
        return _error(404, "This home is not available", f"There is no home with id {zpid!r} on Zilloft. "
                                                         "Search for homes from the home page.")
    _at(request)
    dates = st.tour_dates()
    payment = round(h.price * 0.8 * 0.0066 + h.price * 0.0012)
    return _page("homedetails.html", h=h, dates=dates, today=st.TODAY, times=st.TIMES, tour_types=st.TOUR_TYPES,
                 first_day=f"{dates[0].strftime('%A')}", saved=h.id in _saved_ids(request), payment=payment,
                 description=_description(h))


async def homedetails_short(request: Request) -> Response:
    return await homedetails(request)


async def saved_page(request: Request) -> Response:
    _at(request)
    ids = _saved_ids(request)
    return _page("saved.html", homes=[h for h in LISTINGS if h.id in ids])


# ---------------------------------------------------------------- the header's other pages
_INFO = {
    "sell": ("Sell your home with Zilloft", [
        ("Sell with a listing agent", ("A local agent prices your home, markets it on Zilloft and negotiates with "
                                       "buyers. Compare agents near you in the agent finder.")),
        ("Sell it yourself", ("List your home for sale by owner: add photos and details, set your price and "
                              "answer buyers' questions yourself.")),
        ("Know what it's worth", ("Recent sales of similar homes nearby are the best guide to a listing price; a "
                                  "listing agent prepares a comparative market analysis for free.")),
    ]),
    "rental-manager": ("Zilloft Rental Manager", [
        ("List your rental", ("Post a rental listing with photos, rent and lease terms; it shows up in renters' "
                              "searches.")),
        ("Screen applicants", "Renters apply online with credit and background reports you can review."),
        ("Collect rent", "Set up monthly rent payments, late fees and reminders in one place."),
    ]),
    "advertise": ("Advertise with Zilloft", [
        ("Real estate agents", "Reach buyers and sellers in the ZIP codes you serve with Premier Agent."),
        ("Mortgage lenders", "Connect with home shoppers comparing loan options and rates."),
        ("Rental professionals", "Promote your properties to renters searching your area."),
    ]),
}

HELP = (
    ("How do I search for homes?", ("Type a city, neighborhood, ZIP code or address in the search box, then narrow "
                                    "the results with the price, beds, baths, square feet and home type filters.")),
    ("How do I save a home?", ("Tap the heart on a home's card or its page. Your saved homes are under Saved Homes at "
                               "the top of every page.")),
    ("How do I request a tour?", ("Open the home's page, choose Request a tour, pick a day and a time, and fill in "
                                  "your name, email and phone. The listing agent contacts you to confirm.")),
    ("How do I contact an agent?", ("On a home's page, choose Contact agent, write your message and your preferred "
                                    "day and time to talk.")),
    ("How are results sorted?", "Homes for You first; you can sort by price, newest, bedrooms, bathrooms or size."),
)
RATES = (("30-year fixed", 6.87), ("20-year fixed", 6.62), ("15-year fixed", 6.10), ("7/6 ARM", 6.55))


async def info_page(request: Request) -> Response:
    key = request.url.path.strip("/")
    title, blocks = _INFO[key]
    _at(request)
    return _page("info.html", title=title, blocks=blocks)


async def help_page(request: Request) -> Response:
    _at(request)
    return _page("help.html", faq=HELP)


def monthly_payment(price: int, down_pct: float, rate: float, years: int) -> int:
    """Principal and interest of a fixed-rate loan, per month, in whole dollars."""
    loan = price * (1 - down_pct / 100)
    r, n = rate / 100 / 12, years * 12
    return round(loan / n if r == 0 else loan * r / (1 - (1 + r) ** -n))


async def home_loans(request: Request) -> Response:
    q = request.query_params
    errors, values = [], {"price": 500000, "down": 20.0, "rate": RATES[0][1], "term": 30}
    for key, name, lo, hi in (("price", "home price", 10_000, 100_000_000), ("down", "down payment", 0, 100),
                              ("rate", "interest rate", 0, 25), ("term", "loan term", 1, 40)):
        raw = (q.get(key) or "").replace(",", "").replace("$", "").replace("%", "").strip()
        if not raw:
            continue
        try:
            v = float(raw)
            if not lo <= v <= hi:
                raise ValueError
        except ValueError:
            errors.append(f"The {name} must be a number from {lo:,} to {hi:,}.")
            continue
        values[key] = int(v) if key in ("price", "term") else v
    _at(request)
    payment = None if errors else monthly_payment(values["price"], values["down"], values["rate"], values["term"])
    return _page("home_loans.html", rates=RATES, v=values, payment=payment, error=" ".join(errors) or None)


def _agents() -> list[dict[str, Any]]:
    out = []
    for i, (name, phone, company) in enumerate(AGENTS):
        homes = [h for h in LISTINGS if h.agent == i]
        out.append({"name": name, "phone": phone, "company": company, "homes": homes,
                    "cities": list(dict.fromkeys(f"{h.city}, {h.state}" for h in homes))})
    return out


async def agent_finder(request: Request) -> Response:
    query = (request.query_params.get("q") or "").strip()[:MAX_QUERY]
    words = query.lower().replace(",", " ").split()
    agents = [a for a in _agents()
              if all(w in " ".join([a["name"], a["company"], *a["cities"]]).lower() for w in words)]
    _at(request)
    return _page("agents.html", agents=agents, query=query)


async def _json(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:  # JSONDecodeError and bad UTF-8
        raise st.RequestError("send the form as a JSON object") from None
    if not isinstance(body, dict):
        raise st.RequestError("send the form as a JSON object")
    return body


async def tour_request(request: Request) -> Response:
    s = session_of(request)
    try:
        body = await _json(request)
        with s.lock:
            rec = st.add_tour_request(s.state, body)
    except st.RequestError as e:
        return JSONResponse({"error": f"Could not request the tour: {e}."}, status_code=400)
    opt = rec["requestTourData"]["options"][0]
    h = BY_ID[rec["homeId"]]
    return JSONResponse({"ok": True, "id": rec["id"], "title": "Tour requested",
                         "message": f"Your tour request for {h.full_address} on {opt['date']} at {opt['time']} was "
                                    f"sent to {h.agent_info[0]}, who will contact you to confirm."})


async def contact_agent(request: Request) -> Response:
    s = session_of(request)
    try:
        body = await _json(request)
        with s.lock:
            rec = st.add_contact_agent(s.state, body)
    except st.RequestError as e:
        return JSONResponse({"error": f"Could not contact the agent: {e}."}, status_code=400)
    h = BY_ID[rec["homeId"]]
    return JSONResponse({"ok": True, "id": rec["id"], "title": "Message sent",
                         "message": f"{h.agent_info[0]} received your message about {h.full_address} and will "
                                    f"get back to you soon."})


async def search_input(request: Request) -> Response:
    """What a search box holds while the user types (``filters.searchInputValue``), posted by zilloft.js."""
    try:
        body = await _json(request)
    except st.RequestError as e:
        return JSONResponse({"error": str(e)}, status_code=400)
    value = body.get("value")
    if not isinstance(value, str):
        return JSONResponse({"error": "send JSON like {\"value\": \"what the search box holds\"}"}, status_code=400)
    s = session_of(request)
    with s.lock:
        s.state["filters"]["searchInputValue"] = value[:MAX_QUERY]
    return JSONResponse({"ok": True})


async def photo(request: Request) -> Response:
    """``/photos/<zpid>/<n>-<size>.jpg``: a listing's photo, drawn once and cached (the same bytes every time)."""
    h = BY_ID.get(request.path_params["zpid"])
    n, size = request.path_params["n"], request.path_params["size"]
    known = h is not None and 0 <= n < photos.PHOTOS and size in photos.SIZES
    return await picture(photos.CONTENT_TYPE, photos.listing_photo if known else None, h, n, size)


async def map_tile(request: Request) -> Response:
    key = request.path_params["key"]
    known = re.fullmatch(r"[0-9a-f]{12}", key) is not None
    return await picture(photos.CONTENT_TYPE, photos.map_image if known else None, key, missing="No such map.")


async def saved_homes(request: Request) -> Response:
    s = session_of(request)
    try:
        body = await _json(request)
        with s.lock:
            saved = st.toggle_saved(s.state, body.get("homeId"))
    except st.RequestError as e:
        return JSONResponse({"error": f"Could not save the home: {e}."}, status_code=400)
    return JSONResponse({"ok": True, "saved": saved})


ROUTES = [
    Route("/", home), Route("/search", search_page), Route("/homes", search_page),
    Route("/homedetails/{slug}/{zpid}_zpid/", homedetails), Route("/homedetails/{zpid}", homedetails_short),
    Route("/myzilloft/saved-homes", saved_page),
    Route("/sell", info_page), Route("/rental-manager", info_page), Route("/advertise", info_page),
    Route("/home-loans", home_loans), Route("/agent-finder", agent_finder), Route("/help", help_page),
    Route("/api/tour-requests", tour_request, methods=["POST"]),
    Route("/api/contact-agent", contact_agent, methods=["POST"]),
    Route("/api/saved-homes", saved_homes, methods=["POST"]),
    Route("/api/search-input", search_input, methods=["POST"]),
    Route("/photos/{zpid}/{n:int}-{size}.jpg", photo), Route("/maps/{key}.jpg", map_tile),
]
