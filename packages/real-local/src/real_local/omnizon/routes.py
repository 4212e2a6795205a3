"""Omnizon's pages and API: server-rendered Jinja pages, plain HTML forms for every mutation (POST then 303, as a
shop without JavaScript would), one small JSON endpoint for what the search box holds while the user types."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from real_local.core import Session, read_form, session_of
from real_local.imagery.cache import CONTENT_TYPES, VERSION
from real_local.omnizon import state as st
from real_local.omnizon.art import art, photo
from real_local.omnizon.catalog import BY_ID, CATEGORIES, PAGE_SIZE, PRODUCTS, search

HERE = Path(__file__).parent
_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                   trim_blocks=True, lstrip_blocks=True)
_env.globals.update(css=Markup((HERE / "static" / "omnizon.css").read_text()), art=art, categories=CATEGORIES)
SORTS = (("featured", "Featured"), ("price-asc", "Price: Low to High"), ("price-desc", "Price: High to Low"),
         ("rating", "Avg. Customer Review"), ("reviews", "Best Sellers"))
MAX_QUERY = 200


def _page(request: Request, template: str, status: int = 200, track: bool = True, **ctx: Any) -> HTMLResponse:
    """Render a page; ``track`` records it as the router location (REAL's ``router.location.pathname``)."""
    s = session_of(request)
    with s.lock:
        if track:
            s.state["router"]["location"]["pathname"] = request.url.path
        ctx.update(f=s.state["filter"], cart_count=st.cart_count(s.state))
        body = _env.get_template(template).render(**ctx)
    return HTMLResponse(body, status_code=status)


def _error(request: Request, status: int, headline: str, message: str) -> HTMLResponse:
    return _page(request, "error.html", status=status, track=False, code=status, headline=headline,
                 message=message)


def _lines(items: list[dict]) -> list[tuple[dict, Any]]:
    return [(it, BY_ID[it["id"]]) for it in items if it["id"] in BY_ID]


def _num(raw: str | None, name: str) -> float | None:
    if raw is None or str(raw).strip() == "":
        return None
    try:
        v = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {raw!r}") from None
    if not 0 <= v < float("inf"):  # also refuses NaN
        raise ValueError(f"{name} must be a non-negative number, got {raw!r}")
    return v


async def home(request: Request) -> Response:
    rows = [("Kitchen essentials", [BY_ID[i] for i in ("212", "91", "230", "234")]),
            ("Level up your gaming", [BY_ID[i] for i in ("16", "192", "193", "195")]),
            ("Travel in comfort", [BY_ID[i] for i in ("167", "170", "173", "174")]),
            ("Home office", [BY_ID[i] for i in ("159", "160", "161", "156")])]
    links = ["/search?q=&category=Home+%26+Kitchen", "/search?q=gaming", "/search?q=&category=Travel",
             "/search?q=&category=Furniture"]
    best = sorted(PRODUCTS, key=lambda p: -p.reviews)[:10]
    return _page(request, "home.html", rows=rows, rows_links=links, best=best)


async def search_page(request: Request) -> Response:
    q = request.query_params
    query = (q.get("q") or q.get("k") or "").strip()[:MAX_QUERY]
    category = q.get("category") or "All"
    if category != "All" and category not in CATEGORIES:
        return _error(request, 400, "Unknown department",
                      f"Omnizon has no department {category!r}. Pick one from the search box's list.")
    try:
        lo, hi, rating = _num(q.get("min"), "min price"), _num(q.get("max"), "max price"), _num(q.get("rating"), "rating")
    except ValueError as e:
        return _error(request, 400, "Invalid filter", f"{e}. Clear the filter and try again.")
    sort = q.get("sort") or "featured"
    if sort not in dict(SORTS):
        sort = "featured"
    s = session_of(request)
    with s.lock:
        s.state["filter"].update(searchQuery=query, searchInputValue=query, category=category, minPrice=lo,
                                 maxPrice=hi, minRating=rating, sort=sort)
    res = search(query, category, lo, hi, rating, sort)
    pages = max(1, -(-res.total // PAGE_SIZE))
    try:
        page = min(pages, max(1, int(q.get("page") or 1)))
    except ValueError:
        page = 1
    start = (page - 1) * PAGE_SIZE
    shown = res.products[start:start + PAGE_SIZE]
    keep = {"q": query, "category": category, "min": "" if lo is None else f"{lo:g}",
            "max": "" if hi is None else f"{hi:g}", "rating": "" if rating is None else f"{rating:g}", "sort": sort}

    def url_with(**kw: Any) -> str:
        d = {**keep, **{k: "" if v is None else str(v) for k, v in kw.items()}}
        return "/search?" + urlencode({k: v for k, v in d.items() if v != "" or k == "q"})

    return _page(request, "search.html", res=res, keep=keep, url_with=url_with, sorts=SORTS, shown=shown, page=page,
                 pages=pages, first=start + 1, last=start + len(shown))


async def product_page(request: Request) -> Response:
    pid = request.path_params["pid"]
    p = BY_ID.get(pid)
    if p is None:
        return _error(request, 404, "Looking for something?",
                      f"We're sorry. The product {pid!r} does not exist on Omnizon. Search for it instead.")
    return _page(request, "product.html", p=p)


async def cart_add(request: Request) -> Response:
    f = await read_form(request)
    pid = f.get("id", "")
    if pid not in BY_ID:
        return _error(request, 400, "Could not add to cart", f"Omnizon has no product {pid!r}.")
    try:
        qty = st.parse_qty(f.get("quantity", "1"))
    except st.CheckoutError as e:
        return _error(request, 400, "Could not add to cart", str(e))
    if f.get("next") == "checkout":  # Buy Now: a checkout of this product alone; the cart is not touched
        return RedirectResponse("/checkout?" + urlencode({"buyNow": pid, "quantity": qty}), status_code=303)
    s = session_of(request)
    with s.lock:
        st.cart_add(s.state, pid, qty)
    return RedirectResponse(f"/cart?added={pid}", status_code=303)


async def cart_update(request: Request) -> Response:
    f = await read_form(request)
    pid = f.get("id", "")
    try:
        qty = int(f.get("quantity", ""))
    except ValueError:
        return _error(request, 400, "Could not update the cart", f"quantity must be a whole number, got "
                                                                  f"{f.get('quantity')!r}")
    s = session_of(request)
    with s.lock:
        try:
            st.cart_set(s.state, pid, min(qty, st.MAX_QTY))
        except KeyError as e:
            return _error(request, 400, "Could not update the cart", str(e.args[0]))
    return RedirectResponse("/cart", status_code=303)


async def cart_page(request: Request) -> Response:
    s = session_of(request)
    added = BY_ID.get(request.query_params.get("added", ""))
    with s.lock:
        lines = _lines(s.state["cart"]["items"])
        subtotal = st.cart_subtotal(s.state)
    return _page(request, "cart.html", lines=lines, subtotal=subtotal, added=added, error=None)


def _checkout(request: Request, s: Session, error: str | None = None, status: int = 200,
              buy_now: list[dict] | None = None, delivery: str | None = None, card_form: dict | None = None,
              card_error: str | None = None) -> HTMLResponse:
    """The checkout of the cart, or of one Buy Now line (``buy_now``), which the form carries in hidden fields;
    ``delivery`` the date chosen, ``card_form`` what the add-a-card form held when it was refused."""
    delivery = delivery if delivery in st.DELIVERY_OPTIONS else st.DEFAULT_DELIVERY
    with s.lock:
        items = buy_now if buy_now is not None else s.state["cart"]["items"]
        lines = _lines(items)
        money = st.order_money(items, delivery)
        co = s.state["checkout"]
        payments = st.payment_methods(s.state)
        payment = co["paymentMethod"]
    return _page(request, "checkout.html", status=status, track=status == 200, lines=lines, money=money,
                 count=sum(it["quantity"] for it in items), buy_now=buy_now[0] if buy_now else None,
                 addr=co["address"], payment=payment, payments=payments, error=error, delivery=delivery,
                 deliveries=st.DELIVERY_OPTIONS, tax_rate=st.TAX_RATE, max_qty=st.MAX_QTY, card=card_form or {},
                 card_error=card_error, years=range(2024, 2035))


def _buy_now(params: Any) -> list[dict] | None:
    """The Buy Now line of a checkout request (None: the cart's checkout); CheckoutError if it names no product."""
    if not params.get("buyNow"):
        return None
    return st.buy_now_items(params.get("buyNow"), params.get("quantity", "1"))


async def checkout_page(request: Request) -> Response:
    try:
        buy_now = _buy_now(request.query_params)
    except st.CheckoutError as e:
        return _error(request, 400, "Could not buy this item", f"{e}. Go back to the product and try again.")
    return _checkout(request, session_of(request), buy_now=buy_now, delivery=request.query_params.get("delivery"))


async def add_card(request: Request) -> Response:
    """"Add a credit or debit card" at checkout: the new card becomes the payment method; back to the checkout."""
    f = await read_form(request)
    s = session_of(request)
    try:
        buy_now = _buy_now(f)
    except st.CheckoutError as e:
        return _error(request, 400, "Could not add the card", f"{e}. Go back to the product and try again.")
    fields = {k: f.get(k, "") for k in ("cardName", "cardNumber", "month", "year", "security_code")}
    with s.lock:
        try:
            st.add_card(s.state, name=fields["cardName"], number=fields["cardNumber"], month=fields["month"], year=fields["year"], code=fields["security_code"])
        except st.CheckoutError as e:
            err = str(e)
        else:
            err = None
    if err:
        return _checkout(request, s, status=400, buy_now=buy_now, delivery=f.get("delivery"), card_form=fields,
                         card_error=f"Your card was not added: {err}.")
    back = {"delivery": f.get("delivery") or st.DEFAULT_DELIVERY}
    if buy_now:
        back = {"buyNow": buy_now[0]["id"], "quantity": buy_now[0]["quantity"], **back}
    return RedirectResponse("/checkout?" + urlencode(back), status_code=303)


def product_image(request: Request) -> Response:  # sync: drawn in the threadpool, off the event loop
    """A product's photo (``/images/I/<id>.jpg`` or ``.webp``); drawn once, then cached (``real_local.imagery``)."""
    name = request.path_params["name"]
    pid, _, ext = name.rpartition(".")
    fmt = {"jpg": "jpeg", "jpeg": "jpeg", "webp": "webp"}.get(ext)
    p = BY_ID.get(pid)
    if p is None or fmt is None:
        return Response("no such image", status_code=404, media_type="text/plain")
    etag = f'"{VERSION}-{pid}-{fmt}"'
    headers = {"Cache-Control": "public, max-age=86400", "ETag": etag}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(photo(p, fmt), media_type=CONTENT_TYPES[fmt], headers=headers)


async def place_order(request: Request) -> Response:
    f = await read_form(request)
    s = session_of(request)
    address = {k: f.get(k, "") for k in st.DEFAULT_ADDRESS}
    try:
        buy_now = _buy_now(f)
    except st.CheckoutError as e:
        return _error(request, 400, "Could not place the order", f"{e}. Go back to the product and try again.")
    with s.lock:
        try:
            st.place_order(s.state, s.task_id, address, f.get("paymentMethod", ""), items=buy_now,
                           delivery=f.get("delivery") or st.DEFAULT_DELIVERY)
        except st.CheckoutError as e:
            err = str(e)
        else:
            err = None
    if err:
        return _checkout(request, s, error=f"There was a problem with your order: {err}.", status=400,
                         buy_now=buy_now, delivery=f.get("delivery"))
    return RedirectResponse("/confirmation", status_code=303)


async def confirmation(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        orders = s.state["order"]["orders"]
        new = len(orders) > len(s.initial["order"]["orders"])
        order = orders[-1] if new else None
        addr = s.state["checkout"]["address"]
    return _page(request, "confirmation.html", order=order, lines=_lines(order["items"]) if order else [], addr=addr)


async def orders_page(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        orders = [(o, _lines(o["items"])) for o in reversed(s.state["order"]["orders"])]
    return _page(request, "orders.html", orders=orders)


async def search_input(request: Request) -> Response:
    try:
        body = await request.json()
    except ValueError:
        body = None
    value = body.get("value") if isinstance(body, dict) else None
    if not isinstance(value, str):
        return JSONResponse({"error": "send JSON like {\"value\": \"what the search box holds\"}"}, status_code=400)
    s = session_of(request)
    with s.lock:
        s.state["filter"]["searchInputValue"] = value[:MAX_QUERY]
    return JSONResponse({"ok": True})


async def state_json(request: Request) -> Response:
    """The cart count and search box as JSON (for scripts and tests; pages never need it)."""
    s = session_of(request)
    with s.lock:
        return JSONResponse({"cartCount": st.cart_count(s.state), "filter": dict(s.state["filter"])})


ROUTES = [
    Route("/", home), Route("/search", search_page), Route("/s", search_page),
    Route("/product/{pid}", product_page),
    Route("/cart", cart_page), Route("/cart/add", cart_add, methods=["POST"]),
    Route("/cart/update", cart_update, methods=["POST"]),
    Route("/checkout", checkout_page), Route("/checkout/place", place_order, methods=["POST"]),
    Route("/checkout/card", add_card, methods=["POST"]), Route("/images/I/{name}", product_image),
    Route("/confirmation", confirmation), Route("/orders", orders_page),
    Route("/api/search-input", search_input, methods=["POST"]), Route("/api/state", state_json),
]
