"""DashDish's pages and API: server-rendered Jinja pages, HTML forms for every cart and order change (POST then
303), and one JSON endpoint the checkout page calls as its choices change (the summary updates in place; placing
the order posts the whole form, so the order never depends on that call having landed). Dish photos, store
fronts and logos (``media``) at ``/photos/dish/<dish id>-<s|m|l>.jpg``, ``/photos/store/<store id>-<card|hero>.jpg``
and ``/photos/logo/<store id>.jpg``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from real_local.core import picture, read_form, session_of
from real_local.dashdish import media
from real_local.dashdish import state as st
from real_local.dashdish.menu import BY_ID, CUISINES, DISHES, RESTAURANTS, search

HERE = Path(__file__).parent
MAX_QUERY = 200
_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                   trim_blocks=True, lstrip_blocks=True)
_env.globals.update(css=Markup((HERE / "static" / "dashdish.css").read_text()), cuisines=CUISINES,
                    payments=st.PAYMENT_METHODS, tips=st.TIPS, money=lambda v: f"${v:,.2f}")


def _page(request: Request, template: str, status: int = 200, track: bool = True, **ctx: Any) -> HTMLResponse:
    """Render a page; ``track`` records it as the router location (REAL's ``router.location.pathname``)."""
    s = session_of(request)
    with s.lock:
        if track:
            s.state["router"]["location"]["pathname"] = request.url.path
        ctx.update(cart_count=st.cart_count(s.state), q=s.state["search"])
        body = _env.get_template(template).render(**ctx)
    return HTMLResponse(body, status_code=status)


def _error(request: Request, status: int, headline: str, message: str) -> HTMLResponse:
    return _page(request, "error.html", status=status, track=False, headline=headline, message=message)


async def home(request: Request) -> Response:
    popular = [DISHES[i] for i in ("wingstop-1", "little-caesars-1", "golden-wok-1", "taco-boys-1")]
    return _page(request, "home.html", restaurants=RESTAURANTS, popular=popular)


async def search_page(request: Request) -> Response:
    qp = request.query_params
    query = (qp.get("q") or "").strip()[:MAX_QUERY]
    cuisine = qp.get("cuisine") or ""
    if cuisine and cuisine not in CUISINES:
        return _error(request, 400, "Unknown cuisine",
                      f"DashDish has no cuisine {cuisine!r}. Pick one of: {', '.join(CUISINES)}.")
    s = session_of(request)
    with s.lock:
        s.state["search"].update(query=query, cuisine=cuisine)
    rests, dishes = search(query, cuisine)
    return _page(request, "search.html", rests=rests, dishes=dishes, query=query, cuisine=cuisine)


async def store_page(request: Request) -> Response:
    r = BY_ID.get(request.path_params["rid"])
    if r is None:
        return _error(request, 404, "Store not found",
                      f"DashDish has no store {request.path_params['rid']!r}. Search for it from the home page.")
    s = session_of(request)
    with s.lock:
        added = next((it for it in s.state["cart"]["cartItems"] if it["id"] == request.query_params.get("added")),
                     None)
    return _page(request, "store.html", r=r, added=added)


async def item_page(request: Request) -> Response:
    rid, did = request.path_params["rid"], request.path_params["did"]
    if did not in DISHES or DISHES[did][0].id != rid:
        return _error(request, 404, "Item not found", f"{rid!r} has no menu item {did!r}. Open the store's menu.")
    r, d = DISHES[did]
    return _page(request, "item.html", r=r, d=d, conflict=None, form={})


async def cart_add(request: Request) -> Response:
    f = await read_form(request)
    did = f.get("dishId", "")
    if did not in DISHES:
        return _error(request, 400, "Could not add to cart", f"DashDish has no menu item {did!r}.")
    r, d = DISHES[did]
    s = session_of(request)
    try:
        qty = st.parse_qty(f.get("quantity", "1"))
        with s.lock:
            line = st.cart_add(s.state, did, f.get("size", d.sizes[0][0] if d.sizes else ""), qty,
                               f.get("specialInstructions", "").strip()[:200], replace=f.get("replace") == "1")
    except st.OtherStore:
        with s.lock:
            other = BY_ID[st.cart_restaurant(s.state)].name
        return _page(request, "item.html", status=409, track=False, r=r, d=d, conflict=other, form=f)
    except st.OrderError as e:
        return _error(request, 400, "Could not add to cart", f"{e}.")
    return RedirectResponse(f"/store/{r.id}?added={line['id']}", status_code=303)


async def cart_update(request: Request) -> Response:
    f = await read_form(request)
    s = session_of(request)
    try:
        qty = 0 if f.get("remove") else int(f.get("quantity", ""))
    except ValueError:
        return _error(request, 400, "Could not update the cart",
                      f"quantity must be a whole number, got {f.get('quantity')!r}.")
    with s.lock:
        try:
            st.cart_set(s.state, f.get("id", ""), min(qty, st.MAX_QTY))
        except KeyError as e:
            return _error(request, 400, "Could not update the cart", f"{e.args[0]}.")
    return RedirectResponse("/cart", status_code=303)


def _summary(s) -> tuple[list[dict], dict[str, Any], dict[str, float]]:
    items = s.state["cart"]["cartItems"]
    co = s.state["checkout"]
    return [dict(it) for it in items], dict(co), st.charges(items, co)


async def cart_page(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        items, _co, ch = _summary(s)
    r = BY_ID[items[0]["restaurantId"]] if items else None
    return _page(request, "cart.html", items=items, r=r, ch=ch)


async def checkout_page(request: Request, error: str | None = None, status: int = 200) -> Response:
    s = session_of(request)
    with s.lock:
        items, co, ch = _summary(s)
    r = BY_ID[items[0]["restaurantId"]] if items else None
    return _page(request, "checkout.html", status=status, track=status == 200, items=items, r=r, co=co, ch=ch,
                 error=error)


async def checkout_update(request: Request) -> Response:
    """The checkout page's choices as they change: stored in the session, the new charges returned."""
    f = await read_form(request)
    s = session_of(request)
    with s.lock:
        try:
            co = st.normalize_checkout(f, s.state["checkout"])
        except st.OrderError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        s.state["checkout"] = co
        ch = st.charges(s.state["cart"]["cartItems"], co)
    return JSONResponse({"ok": True, "charges": ch, "checkout": co})


async def place_order(request: Request) -> Response:
    f = await read_form(request)
    s = session_of(request)
    with s.lock:
        try:
            co = st.normalize_checkout(f, s.state["checkout"])
            order = st.place_order(s.state, s.task_id, co)
        except st.OrderError as e:
            err = str(e)
        else:
            err = None
    if err:
        return await checkout_page(request, error=f"We couldn't place your order: {err}.", status=400)
    return RedirectResponse(f"/orders/{order['orderId']}", status_code=303)


async def order_page(request: Request) -> Response:
    s = session_of(request)
    oid = request.path_params["oid"]
    with s.lock:
        order = next((o for o in s.state["cart"]["foodOrders"] if o["orderId"] == oid), None)
    if order is None:
        return _error(request, 404, "Order not found", f"You have no order {oid!r}. See your orders.")
    r = BY_ID.get(order["cartItems"][0]["restaurantId"])
    return _page(request, "order.html", order=order, r=r)


async def orders_page(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        orders = list(reversed(s.state["cart"]["foodOrders"]))
    return _page(request, "orders.html", orders=orders, by_id=BY_ID)


async def photo(request: Request) -> Response:
    """A dish's photo, a store's front or its logo: drawn once (off the event loop) and cached."""
    what, key = request.path_params["what"], request.path_params["key"]
    make = {"dish": lambda: media.dish(*key.rsplit("-", 1)) if "-" in key else None,
            "store": lambda: media.store(*key.rsplit("-", 1)) if "-" in key else None,
            "logo": lambda: media.logo(key)}.get(what)
    return await picture(media.CONTENT_TYPE, make)


ROUTES = [
    Route("/", home), Route("/search", search_page),
    Route("/store/{rid}", store_page), Route("/store/{rid}/item/{did}", item_page),
    Route("/cart", cart_page), Route("/cart/add", cart_add, methods=["POST"]),
    Route("/cart/update", cart_update, methods=["POST"]),
    Route("/checkout", checkout_page), Route("/checkout/place", place_order, methods=["POST"]),
    Route("/api/checkout", checkout_update, methods=["POST"]),
    Route("/orders", orders_page), Route("/orders/{oid}", order_page),
    Route("/photos/{what}/{key}.jpg", photo),
]
