"""Scripted solutions of Omnizon's task families (TEST FIXTURES ONLY: never training data), and near misses.

``ORACLES[family](d, params)`` solves any instance through BrowserEnv, finding elements by role and name in the
current Observation (``d`` is ``tests/sites/site_helpers.py``'s Driver). ``VERIFIED[family]`` names the parameters
its grader must hold the episode to: the tests grade a solved /finish JSON against the same parameters with one of
them changed (another product, quantity, sort, band ...) and expect a failure. ``BROWSER_NEAR_MISSES`` are
wrong-but-close episodes played in the browser.
"""

from __future__ import annotations

from halo.env import actions as A
from halo.tasks.families.omnizon import queries_for
from real_local.omnizon.catalog import BY_ID

SEARCH = "Search Omnizon"


def named(text: str) -> str:
    """The start of an accessible name: the observation cuts long names (product titles) short."""
    return text[:60]


async def search(d, query: str) -> None:
    await d.fill("textbox", SEARCH, query, exact=True)
    await d.press("textbox", SEARCH, "Enter", exact=True)


async def add_from_results(d, pid: str, quantity: int) -> None:
    """Search for the product, its card's "Add to cart" (lands on the cart), then the cart line's quantity."""
    title = BY_ID[pid].title
    await search(d, queries_for(BY_ID[pid])[0])
    await d.click("button", named(f"Add to cart: {title}"))
    if quantity != 1:
        await d.step(A.SelectOption(d.find("combobox", named(f"Quantity for {title}")).id, (str(quantity),)))


async def checkout(d) -> None:
    await d.click_xy("link", "Proceed to checkout")
    await d.click_xy("button", "Place your order", exact=True)


async def department(d, p):
    await d.click("link", p["link"], exact=True)


async def type_query(d, p):
    await d.fill("textbox", SEARCH, p["query"], exact=True)


async def open_product(d, p):
    await search(d, p["query"])
    await d.click("link", named(BY_ID[p["product"]].title))


async def sort(d, p):
    await search(d, p["query"])
    await d.step(A.SelectOption(d.find("combobox", "Sort by:", exact=True).id, (p["sort"],)))


async def add(d, p):
    await add_from_results(d, p["product"], p["quantity"])


async def buy(d, p):
    await add_from_results(d, p["product"], p["quantity"])
    await checkout(d)


async def filter_buy(d, p):
    await search(d, p["query"])
    await d.click("link", p["band"], exact=True)
    await d.click("button", named(f"Add to cart: {BY_ID[p['product']].title}"))
    await checkout(d)


ORACLES = {"omnizon.department": department, "omnizon.type": type_query, "omnizon.open": open_product,
           "omnizon.sort": sort, "omnizon.add": add, "omnizon.buy": buy, "omnizon.filter_buy": filter_buy}

# parameters each grader must hold the episode to (the department's product only colours the goal)
VERIFIED = {"omnizon.department": ("link",), "omnizon.type": ("query",), "omnizon.open": ("product", "query"),
            "omnizon.sort": ("query", "sort"), "omnizon.add": ("product", "quantity"),
            "omnizon.buy": ("product", "quantity"), "omnizon.filter_buy": ("query", "band", "product")}


# ---------------------------------------------------------------- near misses played in the browser
async def wrong_department(d, p):
    links = ["Electronics", "Video Games", "Home & Kitchen", "Sports & Outdoors", "Furniture", "Travel",
             "Best Sellers", "Today's Deals"]
    await d.click("link", links[(links.index(p["link"]) + 1) % len(links)], exact=True)


async def wrong_quantity(d, p):
    await add_from_results(d, p["product"], p["quantity"] + 1)
    await checkout(d)


async def typo_query(d, p):
    """Types the query with a typo (one letter dropped)."""
    await d.fill("textbox", SEARCH, p["query"][:-1], exact=True)


BROWSER_NEAR_MISSES = {"omnizon.department": wrong_department, "omnizon.buy": wrong_quantity,
                       "omnizon.type": typo_query}


# ---------------------------------------------------------------- near misses edited into a solved /finish JSON
def extra_cart_line(state: dict) -> None:
    """Something else left in the cart (an unwanted change every Omnizon family refuses)."""
    pid = "203"
    cart = state["differences"].setdefault("cart", {"added": [], "updated": [], "deleted": []})
    if any(x.get("id") == pid for x in cart["added"]):
        pid = "202"
    cart["added"].append({"id": pid, "quantity": 1, "price": BY_ID[pid].price})
