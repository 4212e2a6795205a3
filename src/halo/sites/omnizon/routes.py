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

from halo.sites.core import Session, read_form, session_of
from halo.sites.omnizon import state as st
from halo.sites.omnizon.art import art
from halo.sites.omnizon.catalog import BY_ID, CATEGORIES, PRODUCTS, search

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
    keep = {"q": query, "category": category, "min": "" if lo is None else f"{lo:g}",
            "max": "" if hi is None else f"{hi:g}", "rating": "" if rating is None else f"{rating:g}", "sort": sort}

    def url_with(**kw: Any) -> str:
        d = {**keep, **{k: "" if v is None else str(v) for k, v in kw.items()}}
        return "/search?" + urlencode({k: v for k, v in d.items() if v != "" or k == "q"})

    return _page(request, "search.html", res=res, keep=keep, url_with=url_with, sorts=SORTS)


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
              buy_now: list[dict] | None = None) -> HTMLResponse:
    """The checkout of the cart, or of one Buy Now line (``buy_now``), which the form carries in hidden fields."""
    with s.lock:
        items = buy_now if buy_now is not None else s.state["cart"]["items"]
        lines = _lines(items)
        subtotal = round(sum(it["quantity"] * it["price"] for it in items), 2)
        co = s.state["checkout"]
    return _page(request, "checkout.html", status=status, track=status == 200, lines=lines, subtotal=subtotal,
                 count=sum(it["quantity"] for it in items), buy_now=buy_now[0] if buy_now else None,
                 addr=co["address"], payment=co["paymentMethod"], payments=st.PAYMENT_METHODS, error=error)


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
    return _checkout(request, session_of(request), buy_now=buy_now)


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
            st.place_order(s.state, s.task_id, address, f.get("paymentMethod", ""), items=buy_now)
        except st.CheckoutError as e:
            err = str(e)
        else:
            err = None
    if err:
        return _checkout(request, s, error=f"There was a problem with your order: {err}.", status=400,
                         buy_now=buy_now)
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
    Route("/confirmation", confirmation), Route("/orders", orders_page),
    Route("/api/search-input", search_input, methods=["POST"]), Route("/api/state", state_json),
]
