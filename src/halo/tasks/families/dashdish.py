"""DashDish task families, from one click (open a store, a cuisine) to REAL-like ordering (a dish in a size and a
quantity, delivered, express or picked up).

Parameters come from DashDish's menus (``real_local.dashdish.menu``): ten stores, sixty dishes (their sizes, their
stores), the cuisine chips of the home page. Graders read the ``/finish`` JSON only, as agisdk's
``eval_dashdish_*.py`` do: new orders at ``differences.foodOrders.added`` (or ``initialfinaldiff.added.cart.foodOrders``)
with their ``cartItems`` and ``checkoutDetails.shipping``, the open cart at ``differences.cartItems`` (the seed cart is
empty: every line at the end is added), ``initialfinaldiff.updated.search`` for the search box and cuisine filter,
and ``router.location.pathname`` for the page shown. A family that only browses also checks that nothing was carted
or ordered.
"""

from __future__ import annotations

import re
from typing import Any

from halo.tasks.families.base import Check, Family, Finish, field_value, norm, register
from real_local.dashdish.menu import BY_ID, CUISINES, DISHES, RESTAURANTS, Dish, Restaurant
from real_local.dashdish.state import seed

_SEED_SEARCH: dict[str, Any] = seed(None)["search"]
SEARCH_FIELD = "Search DashDish"  # the search box in every page's header
NOTE_FIELD = "Special instructions"  # the item page's note for the kitchen
# order types: (shippingOption, deliveryOption); None: either speed
MODES: dict[str, tuple[str, str | None]] = {"standard": ("Delivery", "Standard"), "express": ("Delivery", "Express"),
                                             "pickup": ("Pickup", "")}
DELIVERY = ("Delivery", None)


def dish(did: str) -> Dish:
    return DISHES[did][1]


def store_of(did: str) -> Restaurant:
    return DISHES[did][0]


def default_size(d: Dish) -> str:
    return d.sizes[0][0] if d.sizes else ""


# ---------------------------------------------------------------- reading the /finish JSON
def pathname(f: Finish) -> str:
    """The page shown at the end (``router.location.pathname``; "/" when it never changed)."""
    p = f.section("updated", "router", "location", "pathname") or f.section("added", "router", "location", "pathname")
    return p if isinstance(p, str) else "/"


def final_search(f: Finish) -> dict[str, Any]:
    """The submitted search at the end: the seed's ``search`` with ``initialfinaldiff.updated.search``."""
    upd = f.section("updated", "search") or {}
    return {**_SEED_SEARCH, **(upd if isinstance(upd, dict) else {})}


def _rows(node: Any) -> list[dict[str, Any]]:
    rows = node.values() if isinstance(node, dict) else node if isinstance(node, list) else []
    return [r for r in rows if isinstance(r, dict)]


def new_orders(f: Finish) -> list[dict[str, Any]]:
    """Orders placed in the episode: ``differences.foodOrders.added``, else ``initialfinaldiff.added.cart.foodOrders``
    (REAL's dashdish scripts read both)."""
    return _rows(f.collection("foodOrders")["added"]) or _rows(f.section("added", "cart", "foodOrders"))


def cart_lines(f: Finish) -> list[dict[str, Any]]:
    """The open cart at the end (the seed cart is empty, so every line is added)."""
    return _rows(f.collection("cartItems")["added"]) or _rows(f.section("added", "cart", "cartItems"))


def lines_of(rows: list[dict[str, Any]]) -> dict[tuple[str, str], int]:
    """(dish id, size) -> quantity over cart lines."""
    out: dict[tuple[str, str], int] = {}
    for it in rows:
        key = (str(it.get("dishId")), str(it.get("size") or ""))
        out[key] = out.get(key, 0) + int(it.get("quantity") or 0)
    return out


def order_lines(o: dict[str, Any]) -> list[dict[str, Any]]:
    return [it for it in o.get("cartItems") or [] if isinstance(it, dict)]


def shipping(o: dict[str, Any]) -> tuple[str, str]:
    s = (o.get("checkoutDetails") or {}).get("shipping") or {}
    return str(s.get("shippingOption") or ""), str(s.get("deliveryOption") or "")


def nothing_ordered(f: Finish) -> Check:
    orders, cart = new_orders(f), lines_of(cart_lines(f))
    return Check("nothing carted or ordered", not orders and not cart, f"orders {len(orders)}, cart {cart}")


def _plain(text: Any) -> str:
    return norm(re.sub(r"[^\w\s']", " ", str(text or "")))


# ---------------------------------------------------------------- one click
def store_contexts(r: Restaurant) -> list[str]:
    """What a hungry user might say about a store (the goal's colour only: the goal names the store)."""
    return ([f"I'm craving the {d.name}" for d in r.dishes]
            + [f"I feel like {c.lower()} food" for c in r.cuisines]
            + [f"it's the one on {r.address.split(',')[0]}"])


@register
class OpenStore(Family):
    """The home page lists every store: one click on its name."""

    name, site, steps = "dashdish.store", "dashdish", "1"
    description = "open a store's menu from the home page"

    def space(self):
        return [{"store": r.id, "why": w} for r in RESTAURANTS for w in store_contexts(r)]

    def goal(self, p, rng):
        r = BY_ID[p["store"]].name
        return rng.choice(["Open {r}'s menu on DashDish; {w}.", "Show me the {r} store ({w}).",
                           "Take me to {r} on DashDish: {w}.", "Go to the {r} page, {w}."]).format(r=r, w=p["why"])

    def check(self, f, p):
        path, want = pathname(f), f"/store/{p['store']}"
        return [Check("store open", path == want, f"shown {path!r}, want {want!r}"), nothing_ordered(f)]


def cuisine_contexts(c: str) -> list[str]:
    return [f"something like the {d.name}" for r in RESTAURANTS if c in r.cuisines for d in r.dishes if d.popular] \
        + [f"maybe from {r.name}" for r in RESTAURANTS if c in r.cuisines] \
        + ["I'm hungry", "I want to see every store that has it", "for dinner tonight", "for lunch",
           "something quick for the family", "whatever delivers fastest"]


@register
class Cuisine(Family):
    """The cuisine chips of the home page (one click shows that cuisine's stores)."""

    name, site, steps = "dashdish.cuisine", "dashdish", "1"
    description = "show the stores of a cuisine (the home page's cuisine chips)"

    def space(self):
        return [{"cuisine": c, "why": w} for c in CUISINES for w in cuisine_contexts(c)]

    def goal(self, p, rng):
        return rng.choice(["Show me {c} stores on DashDish, {w}.", "Filter DashDish by the {c} cuisine ({w}).",
                           "I want {c}: {w}. Show me those stores.", "Browse the {c} cuisine on DashDish, {w}."]
                          ).format(c=p["cuisine"], w=p["why"])

    def check(self, f, p):
        s, path = final_search(f), pathname(f)
        return [Check("results shown", path == "/search", f"shown {path!r}"),
                Check("cuisine", s["cuisine"] == p["cuisine"], f"cuisine {s['cuisine']!r}, want {p['cuisine']!r}"),
                Check("no search words", s["query"] == "", f"searched {s['query']!r}"), nothing_ordered(f)]


# ---------------------------------------------------------------- a few steps
_WORDS = ["wings", "noodles", "pizza", "tacos", "burrito", "sushi", "ramen", "fries", "rice", "sub", "shake",
          "lemonade", "coffee", "soup", "chicken", "beef", "shrimp", "salmon", "spicy", "garlic", "bbq", "cheese",
          "pork", "steak", "veggie", "sandwich", "burger", "dessert", "vegan", "salad"]


def search_queries() -> list[str]:
    out: dict[str, str] = {}
    for q in ([d.name for r in RESTAURANTS for d in r.dishes] + [r.name for r in RESTAURANTS] + list(CUISINES)
              + sorted({d.category for r in RESTAURANTS for d in r.dishes}) + _WORDS):
        out.setdefault(norm(q), q)
    return list(out.values())


@register
class Search(Family):
    """Type a query in the header's search box and submit it (the results page records it)."""

    name, site, steps = "dashdish.search", "dashdish", "2-4"
    description = "search DashDish for a dish, a store or a kind of food"

    def space(self):
        return [{"query": q} for q in search_queries()]

    def goal(self, p, rng):
        return rng.choice(['Search DashDish for "{q}".', 'Look up "{q}" on DashDish.',
                           'Use the search box to find "{q}".', 'Find "{q}" with DashDish\'s search.']
                          ).format(q=p["query"])

    def check(self, f, p):
        s, path = final_search(f), pathname(f)
        return [Check("results shown", path == "/search", f"shown {path!r}"),
                Check("searched", norm(s["query"]) == norm(p["query"]), f"searched {s['query']!r}"),
                Check("no cuisine filter", s["cuisine"] == "", f"cuisine {s['cuisine']!r}"), nothing_ordered(f)]

    def subgoals(self, f, p, page):
        done = norm(final_search(f)["query"]) == norm(p["query"])
        typed = field_value(page, SEARCH_FIELD)
        return [Check("query typed", done or norm(typed) == norm(p["query"]), f"search box holds {typed!r}")]

    def typed(self, p):
        return (p["query"],)


def dish_text(did: str, size: str, n: int, rng: Any) -> str:
    """"2 Lemon Pepper Wings (10 pc Wings) from Wingstop"."""
    d, r = dish(did), store_of(did)
    what = f"{d.name} ({size})" if size else d.name
    count = rng.choice(["one", "a", "1"]) if n == 1 else str(n)
    return f"{count} {what} from {r.name}"


@register
class AddToCart(Family):
    """Store, dish, quantity, "Add to cart" (the dish's default size): the cart, no order."""

    name, site, steps = "dashdish.add", "dashdish", "2-4"
    description = "put N of a dish in the cart (no order)"

    def space(self):
        return [{"dish": did, "quantity": n} for did in DISHES for n in (1, 2, 3, 4)]

    def goal(self, p, rng):
        w = dish_text(p["dish"], default_size(dish(p["dish"])), p["quantity"], rng)
        return rng.choice([f"Add {w} to my DashDish cart.", f"Put {w} in my cart, but don't order yet.",
                           f"I want {w} in my cart (no checkout)."])

    def typed(self, p):
        return (str(p["quantity"]),)  # the quantity's option

    def check(self, f, p):
        cart = lines_of(cart_lines(f))
        want = {(p["dish"], default_size(dish(p["dish"]))): p["quantity"]}
        return [Check("dish in cart", set(cart) == set(want), f"cart {cart}"),
                Check("quantity", cart == want, f"cart {cart}, want {want}"),
                Check("no order", not new_orders(f), f"{len(new_orders(f))} new orders")]


# ---------------------------------------------------------------- REAL-like
def _ordered_or_carted(f: Finish) -> dict[tuple[str, str], int]:
    orders = new_orders(f)
    return lines_of(order_lines(orders[0])) if len(orders) == 1 else lines_of(cart_lines(f))


def ship_ok(ship: tuple[str, str], want: tuple[str, str | None]) -> bool:
    """A pickup order has no speed (an unplaced one's form may still hold one); ``None`` takes either speed."""
    return ship[0] == want[0] and (want[0] == "Pickup" or want[1] is None or ship[1] == want[1])


def order_checks(f: Finish, want: dict[tuple[str, str], int], want_ship: tuple[str, str | None]) -> list[Check]:
    """REAL's dashdish scripts' reading (one new order, its cartItems, its shipping), with checks that pass one
    after another: the dish in the cart, its quantity, the order type chosen, the order placed."""
    got, orders = _ordered_or_carted(f), new_orders(f)
    o = orders[0] if len(orders) == 1 else None
    ship = shipping(o) if o is not None else ((f.section("updated", "checkout", "shippingOption") or "Delivery"),
                                              (f.section("updated", "checkout", "deliveryOption") or "Standard"))
    return [Check("dish chosen", set(got) == set(want), f"lines {got}"),
            Check("quantity", got == want, f"lines {got}, want {want}"),
            Check("order type", ship_ok(ship, want_ship), f"{ship}, want {want_ship}"),
            Check("order placed", o is not None and lines_of(order_lines(o)) == want and not cart_lines(f),
                  f"{len(orders)} new orders, cart {lines_of(cart_lines(f))}")]


@register
class Order(Family):
    """REAL's dashdish-7/8/17/26 for every dish: a size, a quantity, delivery (standard or express) or pickup."""

    name, site, steps = "dashdish.order", "dashdish", "5+"
    description = "order N of a dish in a given size, delivered (standard or express) or for pickup"

    def space(self):
        return [{"dish": did, "size": s, "quantity": n, "mode": m} for did, (_, d) in DISHES.items()
                for s in ([label for label, _ in d.sizes] or [""]) for n in (1, 2, 3) for m in MODES]

    def goal(self, p, rng):
        w = dish_text(p["dish"], p["size"], p["quantity"], rng)
        how = {"standard": rng.choice(["for delivery", "delivered (standard delivery)", "delivered to my place"]),
               "express": rng.choice(["with express delivery", "delivered express", "for express delivery"]),
               "pickup": rng.choice(["for pickup", "as a pickup order", "to pick up myself"])}[p["mode"]]
        return rng.choice([f"Order {w} {how}.", f"Place a DashDish order: {w}, {how}.",
                           f"Get me {w} {how} and check out."])

    def check(self, f, p):
        return order_checks(f, {(p["dish"], p["size"]): p["quantity"]}, MODES[p["mode"]])

    def typed(self, p):
        return (str(p["quantity"]),)  # the quantity's option


NOTES = ["Extra napkins please", "Sauce on the side", "No onions", "Please include utensils", "Light on the salt",
         "No cilantro", "Extra spicy", "Please pack the drinks separately"]


@register
class OrderWithNote(Family):
    """A dish ordered with a note for the kitchen (the item page's special instructions), delivered."""

    name, site, steps = "dashdish.note", "dashdish", "5+"
    description = "order a dish with special instructions for the kitchen"

    def space(self):
        return [{"dish": did, "note": n} for did in DISHES for n in NOTES]

    def goal(self, p, rng):
        w = dish_text(p["dish"], "", 1, rng)
        return rng.choice([f'Order {w} for delivery with the special instructions "{p["note"]}".',
                           f'Get me {w}, delivered; add the note "{p["note"]}" to the item.',
                           f'Place a delivery order for {w} with the instructions "{p["note"]}".'])

    def _noted(self, f, p) -> bool:
        orders = new_orders(f)
        rows = order_lines(orders[0]) if len(orders) == 1 else cart_lines(f)
        return any(it.get("dishId") == p["dish"] and _plain(it.get("specialInstructions")) == _plain(p["note"])
                   for it in rows)

    def check(self, f, p):
        want = {(p["dish"], default_size(dish(p["dish"]))): 1}
        return [*order_checks(f, want, DELIVERY),
                Check("note", self._noted(f, p), f"lines {[it.get('specialInstructions') for it in cart_lines(f)]}")]

    def subgoals(self, f, p, page):
        done = self._noted(f, p)
        typed = field_value(page, NOTE_FIELD)
        return [Check("item open", done or typed is not None),
                Check("note typed", done or _plain(typed) == _plain(p["note"]), f"note field holds {typed!r}")]

    def typed(self, p):
        return (p["note"],)
