"""Omnizon's state tree and the mutations its pages make, in the layout REAL's omnizon scripts read.

The tree (``/finish`` diffs it against the seed):
- ``router.location.pathname``: the page last rendered ("/confirmation" after an order);
- ``filter``: ``searchQuery`` (submitted), ``searchInputValue`` (typed), category, price and rating filters;
- ``cart.items``: ``[{id, quantity, price}]``;
- ``order.orders``: ``[{items: [{id, quantity, price}], total, date, orderNumber}]`` (REAL diffs it by index, so a
  new order shows up as ``initialfinaldiff.added.order.orders["<n>"]``);
- ``checkout``: the shipping address and payment method the checkout form holds.

Dates come from a fixed site clock (2024-07-18), never the wall clock, so a replay gives the same state.
"""

from __future__ import annotations

import copy
import hashlib
from typing import Any

from halo.sites.core import collection_differences
from halo.sites.omnizon.catalog import BY_ID

TODAY = "2024-07-18"
MAX_QTY = 30
USER = {"name": "John Doe", "email": "john.doe@example.com"}
DEFAULT_ADDRESS = {"fullName": "John Doe", "street": "1250 Ocean Ave, Apt 4", "city": "Los Angeles",
                   "state": "CA", "zip": "90001", "phone": "(310) 555-0142"}
PAYMENT_METHODS = {"visa-4242": "Visa ending in 4242", "mc-1881": "Mastercard ending in 1881",
                   "gift-card": "Omnizon gift card balance ($25.00)"}

_PAST_ORDERS = [
    {"items": [{"id": "203", "quantity": 2, "price": 9.99}], "total": 19.98, "date": "2024-06-02T18:20:00.000Z",
     "orderNumber": "112-4031977-2210345"},
    {"items": [{"id": "51", "quantity": 1, "price": 25.99}, {"id": "174", "quantity": 1, "price": 9.99}],
     "total": 35.98, "date": "2024-06-27T15:05:00.000Z", "orderNumber": "112-8802413-5519024"},
]


class CheckoutError(ValueError):
    """The order cannot be placed as asked; the message says why and what to do."""


def seed(task_id: str | None) -> dict[str, Any]:
    """Fresh state for a task. Every omnizon task starts from the same store (REAL's tasks do too)."""
    return {
        "router": {"location": {"pathname": "/"}},
        "filter": {"searchQuery": "", "searchInputValue": "", "category": "All", "minPrice": None,
                   "maxPrice": None, "minRating": None, "sort": "featured"},
        "cart": {"items": []},
        "order": {"orders": copy.deepcopy(_PAST_ORDERS)},
        "checkout": {"address": dict(DEFAULT_ADDRESS), "paymentMethod": "visa-4242"},
        "user": dict(USER),
    }


def differences(initial: dict[str, Any], final: dict[str, Any]) -> dict[str, Any]:
    """REAL's per-collection block: orders and cart lines, keyed by position / product id."""
    def orders(st):
        return {str(i): o for i, o in enumerate(st.get("order", {}).get("orders", []))}

    def cart(st):
        return {it["id"]: it for it in st.get("cart", {}).get("items", [])}

    return {"orders": collection_differences(orders(initial), orders(final)),
            "cart": collection_differences(cart(initial), cart(final))}


def product_or_error(pid: str):
    p = BY_ID.get(str(pid))
    if p is None:
        raise KeyError(f"Omnizon has no product {pid!r}")
    return p


def parse_qty(raw: Any) -> int:
    try:
        q = int(str(raw).strip())
    except (TypeError, ValueError):
        raise CheckoutError(f"quantity must be a whole number, got {raw!r}") from None
    if not 1 <= q <= MAX_QTY:
        raise CheckoutError(f"quantity must be between 1 and {MAX_QTY}, got {q}")
    return q


def cart_add(state: dict[str, Any], pid: str, qty: int) -> None:
    p = product_or_error(pid)
    items = state["cart"]["items"]
    for it in items:
        if it["id"] == p.id:
            it["quantity"] = min(MAX_QTY, it["quantity"] + qty)
            return
    items.append({"id": p.id, "quantity": qty, "price": p.price})


def cart_set(state: dict[str, Any], pid: str, qty: int) -> None:
    """Set a cart line's quantity; 0 removes it."""
    items = state["cart"]["items"]
    if qty <= 0:
        state["cart"]["items"] = [it for it in items if it["id"] != str(pid)]
        return
    for it in items:
        if it["id"] == str(pid):
            it["quantity"] = min(MAX_QTY, qty)
            return
    raise KeyError(f"product {pid!r} is not in the cart")


def cart_count(state: dict[str, Any]) -> int:
    return sum(it["quantity"] for it in state["cart"]["items"])


def cart_subtotal(state: dict[str, Any]) -> float:
    return round(sum(it["quantity"] * it["price"] for it in state["cart"]["items"]), 2)


def _order_number(task: str, n: int, items: list[dict]) -> str:
    h = hashlib.sha256(f"{task}|{n}|{items}".encode()).hexdigest()
    return f"112-{int(h[:8], 16) % 10**7:07d}-{int(h[8:16], 16) % 10**7:07d}"


def buy_now_items(pid: str, raw_qty: Any) -> list[dict[str, Any]]:
    """The one line a "Buy Now" checks out (Amazon's: that product alone, the cart left as it is)."""
    p = BY_ID.get(str(pid))
    if p is None:
        raise CheckoutError(f"Omnizon has no product {pid!r}")
    return [{"id": p.id, "quantity": parse_qty(raw_qty), "price": p.price}]


def place_order(state: dict[str, Any], task_id: str | None, address: dict[str, str], payment: str,
                items: list[dict[str, Any]] | None = None) -> dict:
    """Turn the cart into an order (REAL's shape), empty the cart, return the order. With ``items`` (a Buy Now),
    order those instead and leave the cart as it is."""
    buy_now = items is not None
    items = items if buy_now else state["cart"]["items"]
    if not items:
        raise CheckoutError("your cart is empty: add a product to the cart before placing an order")
    missing = [k for k in ("fullName", "street", "city", "state", "zip") if not str(address.get(k, "")).strip()]
    if missing:
        raise CheckoutError(f"the shipping address is missing {', '.join(missing)}: fill it in and place the "
                            f"order again")
    if payment not in PAYMENT_METHODS:
        raise CheckoutError(f"unknown payment method {payment!r}: choose one of the listed cards")
    orders = state["order"]["orders"]
    n_new = len(orders) - len(_PAST_ORDERS)
    minute = 30 + n_new  # a fixed site clock: each later order in a session is a minute later
    order = {"items": [{"id": it["id"], "quantity": it["quantity"], "price": it["price"]} for it in items],
             "total": round(sum(it["quantity"] * it["price"] for it in items), 2),
             "date": f"{TODAY}T17:{minute % 60:02d}:00.000Z",
             "orderNumber": _order_number(task_id or "", len(orders), items)}
    orders.append(order)
    if not buy_now:
        state["cart"]["items"] = []
    state["checkout"] = {"address": {k: str(address.get(k, "")).strip() for k in DEFAULT_ADDRESS},
                         "paymentMethod": payment}
    return order
