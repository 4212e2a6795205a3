"""Scripted solutions of DashDish's task families (TEST FIXTURES ONLY: never training data), and near misses.

``ORACLES[family](d, params)`` solves any instance through BrowserEnv, finding elements by role and name in the
current Observation (``d`` is ``tests/sites/site_helpers.py``'s Driver). ``VERIFIED[family]`` names the parameters
its grader must hold the episode to: the tests grade a solved /finish JSON against the same parameters with one of
them changed (another store, dish, size, quantity, order type ...) and expect a failure. ``BROWSER_NEAR_MISSES`` are
wrong-but-close episodes played in the browser.
"""

from __future__ import annotations

from halo.env import actions as A
from halo.tasks.families.dashdish import default_size, dish, store_of
from real_local.dashdish.menu import CUISINES, RESTAURANTS

SEARCH = "Search DashDish"


async def open_dish(d, did: str) -> None:
    """From the home page: the store's link, then the dish's link on its menu."""
    await d.click("link", store_of(did).name, exact=True)
    await d.click("link", dish(did).name, exact=True)


async def add_dish(d, did: str, size: str, quantity: int, note: str = "") -> None:
    await open_dish(d, did)
    if size and size != default_size(dish(did)):
        await d.click("radio", size, exact=True)
    if quantity != 1:
        await d.step(A.SelectOption(d.find("combobox", "Quantity", exact=True).id, (str(quantity),)))
    if note:
        await d.fill("textbox", "Special instructions", note, exact=True)
    await d.click("button", "Add to cart", exact=True)


async def checkout(d, mode: str = "standard") -> None:
    await d.click("link", "Checkout", exact=True)
    if mode != "standard":
        await d.click("radio", {"express": "Express", "pickup": "Pickup"}[mode], exact=True)
    await d.click("button", "Place Order", exact=True)


async def store(d, p):
    await d.click("link", next(r.name for r in RESTAURANTS if r.id == p["store"]), exact=True)


async def cuisine(d, p):
    await d.click("link", p["cuisine"], exact=True)


async def search(d, p):
    await d.fill("textbox", SEARCH, p["query"], exact=True)
    await d.press("textbox", SEARCH, "Enter", exact=True)


async def add(d, p):
    await add_dish(d, p["dish"], default_size(dish(p["dish"])), p["quantity"])


async def order(d, p):
    await add_dish(d, p["dish"], p["size"], p["quantity"])
    await checkout(d, p["mode"])


async def note(d, p):
    await add_dish(d, p["dish"], default_size(dish(p["dish"])), 1, p["note"])
    await checkout(d)


ORACLES = {"dashdish.store": store, "dashdish.cuisine": cuisine, "dashdish.search": search, "dashdish.add": add,
           "dashdish.order": order, "dashdish.note": note}

# parameters each grader must hold the episode to (the store's and cuisine's reasons only colour the goal)
VERIFIED = {"dashdish.store": ("store",), "dashdish.cuisine": ("cuisine",), "dashdish.search": ("query",),
            "dashdish.add": ("dish", "quantity"), "dashdish.order": ("dish", "size", "quantity", "mode"),
            "dashdish.note": ("dish", "note")}


# ---------------------------------------------------------------- near misses played in the browser
async def wrong_store(d, p):
    ids = [r.id for r in RESTAURANTS]
    await store(d, {"store": ids[(ids.index(p["store"]) + 1) % len(ids)]})


async def wrong_cuisine(d, p):
    await cuisine(d, {"cuisine": CUISINES[(CUISINES.index(p["cuisine"]) + 1) % len(CUISINES)]})


async def typo_search(d, p):
    await search(d, {"query": p["query"][:-1]})


async def wrong_quantity(d, p):
    await order(d, {**p, "quantity": p["quantity"] + 1})


async def unplaced(d, p):
    """Everything but the last click: the cart holds the dish, no order."""
    await add_dish(d, p["dish"], p["size"], p["quantity"])


BROWSER_NEAR_MISSES = {"dashdish.store": wrong_store, "dashdish.cuisine": wrong_cuisine,
                       "dashdish.search": typo_search, "dashdish.order": wrong_quantity}
EXTRA_BROWSER_NEAR_MISSES = [("dashdish.order", unplaced)]


# ---------------------------------------------------------------- near misses edited into a solved /finish JSON
def extra_cart_line(state: dict) -> None:
    """Something else left in the cart (an unwanted change every DashDish family refuses)."""
    cart = state["differences"].setdefault("cartItems", {"added": {}, "deleted": {}, "updated": {}})
    cart["added"]["line-9"] = {"id": "line-9", "dishId": "burger-barn-6", "name": "Vanilla Shake",
                               "restaurantId": "burger-barn", "size": "", "price": 3.99, "quantity": 1,
                               "specialInstructions": ""}
