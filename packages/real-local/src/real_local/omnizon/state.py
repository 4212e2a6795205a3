"""Omnizon's state tree and the mutations its pages make, in the layout REAL's omnizon scripts read.

The tree (``/finish`` diffs it against the seed):
- ``router.location.pathname``: the page last rendered ("/confirmation" after an order);
- ``filter``: ``searchQuery`` (submitted), ``searchInputValue`` (typed), category, price and rating filters;
- ``cart.items``: ``[{id, quantity, price}]``;
- ``order.orders``: ``[{items: [{id, quantity, price}], total, date, orderNumber}]`` (REAL diffs it by index, so a
  new order shows up as ``initialfinaldiff.added.order.orders["<n>"]``); an order placed here also holds what the
  checkout chose, in the keys REAL's v1 omnizon tasks read (``selected_delivery``: "Monday, Jul 22";
  ``selected_card``: ``{cardName, cardNumber, month, year, security_code}`` when paid by card) and its money:
  ``subtotal`` (the items), ``shipping`` (the delivery option's fee), ``tax`` (California sales tax on the items) and
  ``total`` = subtotal + shipping + tax (what Amazon's "Order total" is); ``paymentMethod`` (the method's id);
- ``checkout``: the shipping address and payment method the checkout form holds, and ``cards``: the cards the user
  added ("Add a credit or debit card"; a new card is ``initialfinaldiff.added.checkout.cards["<n>"]``).

REAL's v2 scripts read an order's ``items`` (id, quantity, price), its ``date`` and ``total`` (omnizon_30: above 0;
omnizon_9: under $100 only when no item is), never the new keys, and the text-reading scripts (omnizon_25, _28) find
none of their words in them; every v2 oracle and near miss grades as before (``tests/sites/test_omnizon_http.py``).

Dates come from a fixed site clock (2024-07-18), never the wall clock, so a replay gives the same state.
"""

from __future__ import annotations

import copy
import hashlib
from typing import Any

from real_local.core import collection_differences
from real_local.omnizon.catalog import BY_ID

TODAY = "2024-07-18"
MAX_QTY = 30
USER = {"name": "John Doe", "email": "john.doe@example.com"}
DEFAULT_ADDRESS = {"fullName": "John Doe", "street": "1250 Ocean Ave, Apt 4", "city": "Los Angeles",
                   "state": "CA", "zip": "90001", "phone": "(310) 555-0142"}
PAYMENT_METHODS = {"visa-4242": "Visa ending in 4242", "mc-1881": "Mastercard ending in 1881",
                   "gift-card": "Omnizon gift card balance ($25.00)"}
# the saved cards behind the built-in methods (the gift card is not a card)
SAVED_CARDS = {"visa-4242": {"cardName": "John Doe", "cardNumber": "4242 4242 4242 4242", "month": "8",
                             "year": "2027", "security_code": "737"},
               "mc-1881": {"cardName": "John Doe", "cardNumber": "5425 2334 3010 1881", "month": "3",
                           "year": "2026", "security_code": "418"}}
TAX_RATE = 0.095  # Los Angeles sales tax, on the items (not on shipping)
# Delivery choices at checkout (the site's clock: Thursday, July 18, 2024): id -> (date shown, fee, what it is).
DELIVERY_OPTIONS = {"2024-07-19": ("Friday, Jul 19", 9.99, "One-Day Delivery"),
                    "2024-07-22": ("Monday, Jul 22", 0.0, "FREE Prime Delivery"),
                    "2024-07-24": ("Wednesday, Jul 24", 0.0, "FREE No-Rush Delivery (get a $1 digital credit)"),
                    "2024-07-26": ("Friday, Jul 26", 0.0, "FREE Standard Delivery")}
DEFAULT_DELIVERY = "2024-07-22"
MAX_CARDS = 20

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
        "checkout": {"address": dict(DEFAULT_ADDRESS), "paymentMethod": "visa-4242", "cards": []},
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


def payment_methods(state: dict[str, Any]) -> dict[str, str]:
    """Every payment method the checkout offers: the saved ones, then the cards the user added."""
    out = dict(PAYMENT_METHODS)
    for c in state["checkout"].get("cards", []):
        out[c["id"]] = f"{card_brand(c['cardNumber'])} ending in {c['cardNumber'][-4:]} ({c['cardName']})"
    return out


def card_brand(number: str) -> str:
    return {"4": "Visa", "5": "Mastercard", "2": "Mastercard", "3": "American Express", "6": "Discover"}.get(
        number[:1], "Card")


def selected_card(state: dict[str, Any], payment: str) -> dict[str, str] | None:
    """The card a payment method charges (REAL v1's ``selected_card`` layout), None for the gift card."""
    if payment in SAVED_CARDS:
        return dict(SAVED_CARDS[payment])
    for c in state["checkout"].get("cards", []):
        if c["id"] == payment:
            return {k: c[k] for k in ("cardName", "cardNumber", "month", "year", "security_code")}
    return None


def add_card(state: dict[str, Any], name: str, number: str, month: str, year: str, code: str) -> dict[str, str]:
    """Add a credit or debit card (Amazon's form: name on card, number, expiration month and year, security code)
    and make it the checkout's payment method. CheckoutError says what to fix."""
    name, digits = " ".join(str(name).split()), "".join(str(number).split()).replace("-", "")
    month, year, code = str(month).strip(), str(year).strip(), str(code).strip()
    problems = []
    if not name:
        problems.append("enter the name on the card")
    if not digits.isdigit() or not 13 <= len(digits) <= 19:
        problems.append("the card number must be 13 to 19 digits")
    if not (month.isdigit() and 1 <= int(month) <= 12):
        problems.append("choose the expiration month")
    if not (year.isdigit() and len(year) == 4):
        problems.append("choose the expiration year")
    elif month.isdigit() and (int(year), int(month)) < (int(TODAY[:4]), int(TODAY[5:7])):
        problems.append(f"the card expired ({int(month)}/{year})")
    if not (code.isdigit() and len(code) in (3, 4)):
        problems.append("the security code (CVV) is the 3 or 4 digits on the card")
    cards = state["checkout"].setdefault("cards", [])
    if len(cards) >= MAX_CARDS:
        problems.append(f"you have {MAX_CARDS} cards already: use one of them")
    if problems:
        raise CheckoutError("; ".join(problems))
    card = {"id": f"card-{len(cards) + 1}", "cardName": name,
            "cardNumber": " ".join(digits[i:i + 4] for i in range(0, len(digits), 4)), "month": str(int(month)),
            "year": year, "security_code": code}
    cards.append(card)
    state["checkout"]["paymentMethod"] = card["id"]
    return card


def order_money(items: list[dict[str, Any]], delivery: str) -> dict[str, float]:
    """subtotal, shipping, tax and total of an order (what the order summary shows)."""
    subtotal = round(sum(it["quantity"] * it["price"] for it in items), 2)
    shipping = DELIVERY_OPTIONS.get(delivery, DELIVERY_OPTIONS[DEFAULT_DELIVERY])[1]
    tax = round(subtotal * TAX_RATE + 1e-9, 2)
    return {"subtotal": subtotal, "shipping": shipping, "tax": tax, "total": round(subtotal + shipping + tax, 2)}


def place_order(state: dict[str, Any], task_id: str | None, address: dict[str, str], payment: str,
                items: list[dict[str, Any]] | None = None, delivery: str = DEFAULT_DELIVERY) -> dict:
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
    if payment not in payment_methods(state):
        raise CheckoutError(f"unknown payment method {payment!r}: choose one of the listed cards")
    if delivery not in DELIVERY_OPTIONS:
        raise CheckoutError(f"unknown delivery date {delivery!r}: choose one of the listed dates")
    orders = state["order"]["orders"]
    n_new = len(orders) - len(_PAST_ORDERS)
    minute = 30 + n_new  # a fixed site clock: each later order in a session is a minute later
    money = order_money(items, delivery)
    order = {"items": [{"id": it["id"], "quantity": it["quantity"], "price": it["price"]} for it in items],
             "total": money["total"], "date": f"{TODAY}T17:{minute % 60:02d}:00.000Z",
             "orderNumber": _order_number(task_id or "", len(orders), items),
             "subtotal": money["subtotal"], "shipping": money["shipping"], "tax": money["tax"],
             "selected_delivery": DELIVERY_OPTIONS[delivery][0], "paymentMethod": payment}
    card = selected_card(state, payment)
    if card is not None:
        order["selected_card"] = card
    orders.append(order)
    if not buy_now:
        state["cart"]["items"] = []
    state["checkout"]["address"] = {k: str(address.get(k, "")).strip() for k in DEFAULT_ADDRESS}
    state["checkout"]["paymentMethod"] = payment
    return order
