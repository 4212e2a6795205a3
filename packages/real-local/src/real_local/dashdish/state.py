"""DashDish's state tree and the mutations its pages make, in the layout REAL's dashdish scripts read.

The tree (``/finish`` diffs it against the seed):
- ``router.location.pathname``: the page last rendered;
- ``search``: the submitted query and cuisine filter;
- ``cart.cartItems``: the open cart, ``[{id, dishId, name, description, restaurantId, restaurantName, size,
  price, quantity, specialInstructions}]`` (one restaurant at a time, as on DoorDash);
- ``cart.foodOrders``: placed orders, ``[{orderId, cartItems, checkoutDetails: {shipping: {shippingOption
  ("Delivery" | "Pickup"), deliveryOption ("Standard" | "Express"), address, dropoffInstructions}, payment:
  {method}, charges: {subtotal, deliveryFee, expressFee, serviceFee, tax, tip, discount, totalAmount}}, orderDate,
  status}]``; REAL's scripts read a new one at ``initialfinaldiff.added.cart.foodOrders["<n>"]`` and at
  ``differences.foodOrders.added[orderId]``;
- ``checkout``: what the checkout form holds (shipping option, delivery option, tip, address, payment).

Fees are the site's own, fixed and shown on every page that totals: the restaurant's delivery fee (Delivery
only), Express $2.99, a 10% service fee (at least $1.50; Delivery only), 9.5% tax on the subtotal, and the tip
(Delivery only; a percentage of the subtotal or an amount). Dates come from a fixed site clock (2024-07-18).
"""

from __future__ import annotations

import copy
import hashlib
from typing import Any

from real_local.dashdish.menu import DISHES

TODAY = "2024-07-18"
MAX_QTY = 20
EXPRESS_FEE = 2.99
SERVICE_RATE, SERVICE_MIN = 0.10, 1.50
TAX_RATE = 0.095
TIPS = ("0", "10", "15", "20")  # percent of the subtotal; "other" takes an amount
DEFAULT_TIP = "15"
MAX_TIP = 200.0
ADDRESS = "1250 Ocean Ave, Apt 4, Santa Monica, CA 90401"
PAYMENT_METHODS = {"visa-4242": "Visa ending in 4242", "mc-1881": "Mastercard ending in 1881",
                   "paypal": "PayPal (john.doe@example.com)"}

_PAST_ORDER = {
    "orderId": "DD-20240702-4471",
    "cartItems": [{"id": "line-1", "dishId": "burger-barn-1", "name": "Double Cheeseburger",
                   "description": "Two beef patties, American cheese, pickles, onions, ketchup, mustard.",
                   "restaurantId": "burger-barn", "restaurantName": "Burger Barn", "size": "", "price": 5.99,
                   "quantity": 2, "specialInstructions": ""}],
    "checkoutDetails": {"shipping": {"shippingOption": "Delivery", "deliveryOption": "Standard", "address": ADDRESS,
                                     "dropoffInstructions": ""},
                        "payment": {"method": "visa-4242"},
                        "charges": {"subtotal": 11.98, "deliveryFee": 0.99, "expressFee": 0.0, "serviceFee": 1.5,
                                    "tax": 1.14, "tip": 1.8, "discount": 0.0, "totalAmount": 17.41}},
    "orderDate": "2024-07-02T19:12:00.000Z", "status": "Delivered",
}


class OrderError(ValueError):
    """The cart or order cannot change as asked; the message says why and what to do."""


class OtherStore(OrderError):
    """The cart holds another store's items (the page offers to start a new cart)."""


def default_checkout() -> dict[str, Any]:
    return {"shippingOption": "Delivery", "deliveryOption": "Standard", "tip": DEFAULT_TIP, "customTip": "",
            "address": ADDRESS, "dropoffInstructions": "", "paymentMethod": "visa-4242"}


def seed(task_id: str | None) -> dict[str, Any]:
    """Fresh state for a task; every dashdish task starts from the same account (REAL's tasks do too)."""
    return {
        "router": {"location": {"pathname": "/"}},
        "search": {"query": "", "cuisine": ""},
        "cart": {"cartItems": [], "foodOrders": [copy.deepcopy(_PAST_ORDER)]},
        "checkout": default_checkout(),
        "user": {"name": "John Doe", "email": "john.doe@example.com", "phone": "(310) 555-0142"},
    }


def differences(initial: dict[str, Any], final: dict[str, Any]) -> dict[str, Any]:
    """REAL's block: orders keyed by orderId (added ones whole), cart lines keyed by line id."""
    def keyed(rows: list[dict], key: str) -> dict[str, dict]:
        return {str(r.get(key)): r for r in rows}

    out = {}
    for name, rows_of, key in (("foodOrders", lambda s: s["cart"]["foodOrders"], "orderId"),
                               ("cartItems", lambda s: s["cart"]["cartItems"], "id")):
        a, b = keyed(rows_of(initial), key), keyed(rows_of(final), key)
        out[name] = {"added": {k: copy.deepcopy(v) for k, v in b.items() if k not in a},
                     "deleted": {k: copy.deepcopy(v) for k, v in a.items() if k not in b},
                     "updated": {k: copy.deepcopy(v) for k, v in b.items() if k in a and a[k] != v}}
    return out


# ---------------------------------------------------------------- cart
def parse_qty(raw: Any) -> int:
    try:
        q = int(str(raw).strip())
    except (TypeError, ValueError):
        raise OrderError(f"quantity must be a whole number, got {raw!r}") from None
    if not 1 <= q <= MAX_QTY:
        raise OrderError(f"quantity must be between 1 and {MAX_QTY}, got {q}")
    return q


def cart_restaurant(state: dict[str, Any]) -> str | None:
    items = state["cart"]["cartItems"]
    return items[0]["restaurantId"] if items else None


def cart_add(state: dict[str, Any], dish_id: str, size: str, qty: int, note: str = "", *,
             replace: bool = False) -> dict:
    """Add a dish (with a size option) to the cart. A dish from another restaurant needs ``replace`` (it starts a
    new cart), as DoorDash asks before mixing restaurants. Returns the cart line."""
    if dish_id not in DISHES:
        raise KeyError(f"DashDish has no dish {dish_id!r}")
    r, d = DISHES[dish_id]
    sizes = dict(d.sizes)
    if d.sizes and size not in sizes:
        raise OrderError(f"{d.name} comes in {', '.join(sizes)}; choose one of those, not {size!r}")
    size = size if d.sizes else ""
    current = cart_restaurant(state)
    if current is not None and current != r.id:
        if not replace:
            raise OtherStore(f"your cart holds items from another restaurant; start a new cart to order from "
                             f"{r.name}")
        state["cart"]["cartItems"] = []
    items = state["cart"]["cartItems"]
    price = round(d.price + sizes.get(size, 0.0), 2)
    for it in items:
        if it["dishId"] == d.id and it["size"] == size and it["specialInstructions"] == note:
            it["quantity"] = min(MAX_QTY, it["quantity"] + qty)
            return it
    n = 1 + max((int(it["id"].split("-")[1]) for it in items), default=0)
    line = {"id": f"line-{n}", "dishId": d.id, "name": d.name, "description": d.description,
            "restaurantId": r.id, "restaurantName": r.name, "size": size, "price": price, "quantity": qty,
            "specialInstructions": note}
    items.append(line)
    return line


def cart_set(state: dict[str, Any], line_id: str, qty: int) -> None:
    """Set a cart line's quantity; 0 removes it."""
    items = state["cart"]["cartItems"]
    if not any(it["id"] == line_id for it in items):
        raise KeyError(f"{line_id!r} is not in the cart")
    if qty <= 0:
        state["cart"]["cartItems"] = [it for it in items if it["id"] != line_id]
        return
    for it in items:
        if it["id"] == line_id:
            it["quantity"] = min(MAX_QTY, qty)


def cart_count(state: dict[str, Any]) -> int:
    return sum(it["quantity"] for it in state["cart"]["cartItems"])


# ---------------------------------------------------------------- checkout
def normalize_checkout(form: dict[str, str], current: dict[str, Any]) -> dict[str, Any]:
    """The checkout form's fields, checked; unknown values raise OrderError with what is allowed."""
    co = dict(current)
    ship = form.get("shippingOption", co["shippingOption"])
    if ship not in ("Delivery", "Pickup"):
        raise OrderError(f"choose Delivery or Pickup, not {ship!r}")
    speed = form.get("deliveryOption", co["deliveryOption"])
    if speed not in ("Standard", "Express"):
        raise OrderError(f"choose Standard or Express delivery, not {speed!r}")
    tip = form.get("tip", co["tip"])
    if tip not in (*TIPS, "other"):
        raise OrderError(f"choose a tip of {', '.join(t + '%' for t in TIPS)} or Other, not {tip!r}")
    custom = str(form.get("customTip", co.get("customTip", ""))).strip().lstrip("$")
    if tip == "other":
        try:
            amount = float(custom or "0")
        except ValueError:
            raise OrderError(f"the tip amount must be a number of dollars, got {custom!r}") from None
        if not 0 <= amount <= MAX_TIP:
            raise OrderError(f"the tip amount must be between $0 and ${MAX_TIP:.0f}, got {custom!r}")
        custom = f"{amount:.2f}"
    pay = form.get("paymentMethod", co["paymentMethod"])
    if pay not in PAYMENT_METHODS:
        raise OrderError(f"unknown payment method {pay!r}: choose one of the listed ones")
    co.update(shippingOption=ship, deliveryOption=speed, tip=tip, customTip=custom if tip == "other" else "",
              paymentMethod=pay, address=str(form.get("address", co["address"])).strip()[:200],
              dropoffInstructions=str(form.get("dropoffInstructions", co["dropoffInstructions"])).strip()[:300])
    return co


def charges(items: list[dict], co: dict[str, Any]) -> dict[str, float]:
    """The order's charges for these cart lines under these checkout choices (what the pages show and the order
    records)."""
    subtotal = round(sum(it["price"] * it["quantity"] for it in items), 2)
    delivery = co["shippingOption"] == "Delivery"
    fee = DISHES[items[0]["dishId"]][0].delivery_fee if (items and delivery) else 0.0
    express = EXPRESS_FEE if (items and delivery and co["deliveryOption"] == "Express") else 0.0
    service = round(max(SERVICE_MIN, subtotal * SERVICE_RATE), 2) if (items and delivery) else 0.0
    tax = round(subtotal * TAX_RATE, 2)
    if not delivery:
        tip = 0.0
    elif co["tip"] == "other":
        tip = float(co.get("customTip") or 0.0)
    else:
        tip = round(subtotal * int(co["tip"]) / 100, 2)
    total = round(subtotal + fee + express + service + tax + tip, 2)
    return {"subtotal": subtotal, "deliveryFee": fee, "expressFee": express, "serviceFee": service, "tax": tax,
            "tip": tip, "discount": 0.0, "totalAmount": total}


def _order_id(task: str, n: int, items: list[dict]) -> str:
    h = hashlib.sha256(f"{task}|{n}|{items}".encode()).hexdigest()
    return f"DD-{TODAY.replace('-', '')}-{int(h[:8], 16) % 10**4:04d}"


def place_order(state: dict[str, Any], task_id: str | None, co: dict[str, Any]) -> dict:
    """Turn the cart into an order (REAL's shape), empty the cart, return the order."""
    items = state["cart"]["cartItems"]
    if not items:
        raise OrderError("your cart is empty: add a dish before placing an order")
    if co["shippingOption"] == "Delivery" and not co["address"]:
        raise OrderError("a delivery order needs an address: enter one, or choose Pickup")
    orders = state["cart"]["foodOrders"]
    n_new = len(orders) - 1
    order = {
        "orderId": _order_id(task_id or "", len(orders), items),
        "cartItems": copy.deepcopy(items),
        "checkoutDetails": {
            "shipping": {"shippingOption": co["shippingOption"],
                         "deliveryOption": co["deliveryOption"] if co["shippingOption"] == "Delivery" else "",
                         "address": co["address"] if co["shippingOption"] == "Delivery" else "",
                         "dropoffInstructions": co["dropoffInstructions"]},
            "payment": {"method": co["paymentMethod"]},
            "charges": charges(items, co),
        },
        "orderDate": f"{TODAY}T18:{(20 + n_new) % 60:02d}:00.000Z",
        "status": "Placed",
    }
    orders.append(order)
    state["cart"]["cartItems"] = []
    state["checkout"] = {**co}
    return order
