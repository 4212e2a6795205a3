"""Omnizon task families, from one click (open a department, type in the search box) to REAL-like buying.

Parameters come from Omnizon's catalogue (``real_local.omnizon.catalog``): products, departments, the queries that
find a product, the sidebar's price bands. A family that names a product draws from ``NAMEABLE``: the products whose
short name no other product shares and that some search finds among a dozen results (nearly all of the several
hundred); the department family's goals still come from the 61 fixed products, word for word as before the
catalogue grew. Graders read the ``/finish`` JSON only, as agisdk's ``eval_omnizon_*.py``
do: ``initialfinaldiff.updated.router.location.pathname`` for the page shown, ``initialfinaldiff.updated.filter``
for the search box and filters, ``initialfinaldiff.added.order.orders`` for new orders (omnizon_24's reading) and
``differences.cart`` for the cart. A family that only browses also checks that nothing was bought or carted.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from halo.tasks.families.base import Check, Family, Finish, norm, register
from real_local.omnizon.catalog import BY_ID, CORE_PRODUCTS, PAGE_SIZE, PRODUCTS, Product, search
from real_local.omnizon.state import seed

_SEED_FILTER: dict[str, Any] = seed(None)["filter"]
# The department bar on every page (the home page is where episodes start): six departments and two sorted lists.
DEPARTMENTS = ("Electronics", "Video Games", "Home & Kitchen", "Sports & Outdoors", "Furniture", "Travel")
LISTS = {"Best Sellers": "reviews", "Today's Deals": "price-asc"}
SORTS = {"price-asc": "price: low to high", "price-desc": "price: high to low", "rating": "customer review",
         "reviews": "best sellers"}
BANDS = {"Under $25": (None, 25.0), "$25 to $50": (25.0, 50.0), "$50 to $100": (50.0, 100.0),
         "$100 to $200": (100.0, 200.0), "$200 & Above": (200.0, None)}  # the sidebar's price links
MAX_RESULTS = 12  # a query a family names finds its product among at most this many results


# ---------------------------------------------------------------- naming products and queries
def short(p: Product) -> str:
    """The product's name without the trailing details ("Sony WH-1000XM5 Wireless Noise Canceling Headphones")."""
    return re.split(r",| - | with | \(", p.title)[0].strip()


@functools.cache
def _search(query: str, lo: float | None = None, hi: float | None = None) -> tuple[bool, tuple[Product, ...]]:
    """(every word matched, results): the site's own search, cached (spaces are built from many searches)."""
    res = search(query, min_price=lo, max_price=hi)
    return res.exact, tuple(res.products)


def _finds(query: str, p: Product) -> bool:
    exact, res = _search(query)
    return exact and p in res and len(res) <= MAX_RESULTS


@functools.cache
def queries_for(p: Product) -> tuple[str, ...]:
    """Up to four searches that find ``p`` (short name, brand + noun, brand, noun), best first."""
    kw = p.keywords.split()
    cands = [short(p), f"{p.brand} {kw[0]}", p.brand, kw[0], " ".join(kw[:2])]
    out: list[str] = []
    for q in cands:
        if _finds(q, p) and norm(q) not in map(norm, out):
            out.append(q)
    return tuple(out[:4])


ON_SALE = [p for p in CORE_PRODUCTS if p.list_price]  # with a list price: what a deals-hunter asks about
BEST_SELLERS = sorted(CORE_PRODUCTS, key=lambda p: -p.reviews)


def _nameable() -> tuple[Product, ...]:
    counts: dict[str, int] = {}
    for p in PRODUCTS:
        counts[norm(short(p))] = counts.get(norm(short(p)), 0) + 1
    return tuple(p for p in PRODUCTS if counts[norm(short(p))] == 1 and queries_for(p))


NAMEABLE = _nameable()  # products a goal can name unambiguously, and that a search finds


# ---------------------------------------------------------------- reading the /finish JSON
def pathname(f: Finish) -> str:
    """The page shown at the end (``router.location.pathname``; "/" when it never changed)."""
    p = f.section("updated", "router", "location", "pathname") or f.section("added", "router", "location", "pathname")
    return p if isinstance(p, str) else "/"


def final_filter(f: Finish) -> dict[str, Any]:
    """The search box and filters at the end: the seed's ``filter`` with ``initialfinaldiff.updated.filter``."""
    upd = f.section("updated", "filter") or {}
    return {**_SEED_FILTER, **(upd if isinstance(upd, dict) else {})}


def new_orders(f: Finish) -> list[dict[str, Any]]:
    node = f.section("added", "order", "orders") or {}
    return [o for o in (node.values() if isinstance(node, dict) else node) if isinstance(o, dict)]


def cart_now(f: Finish) -> dict[str, int]:
    """Product id -> quantity in the cart at the end: ``differences.cart.added`` (the seed cart is empty)."""
    return {str(x.get("id")): int(x.get("quantity") or 0) for x in f.collection("cart")["added"] if isinstance(x, dict)}


def order_items(o: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for it in o.get("items") or []:
        if isinstance(it, dict):
            out[str(it.get("id"))] = out.get(str(it.get("id")), 0) + int(it.get("quantity") or 0)
    return out


def nothing_bought(f: Finish) -> Check:
    orders, cart = new_orders(f), cart_now(f)
    return Check("nothing bought or carted", not orders and not cart, f"orders {len(orders)}, cart {cart}")


def query_is(f: Finish, q: str) -> Check:
    got = final_filter(f)["searchQuery"]
    return Check("searched", norm(got) == norm(q), f"searched {got!r}, want {q!r}")


def one_order_of(f: Finish, want: dict[str, int]) -> list[Check]:
    """REAL's omnizon_24 reading: on /confirmation, one new order holding exactly ``want``; the cart left empty."""
    orders, path = new_orders(f), pathname(f)
    got = [order_items(o) for o in orders]
    return [Check("order placed", path == "/confirmation", f"shown {path!r}"),
            Check("order items", got == [want], f"orders {got}, want [{want}]"),
            Check("cart emptied", not cart_now(f), f"cart {cart_now(f)}")]


# ---------------------------------------------------------------- one action
# What a shopper might be after in a department the catalogue has few products of (the goal's colour only).
_MORE = {"Electronics": ["a portable Bluetooth speaker"],
         "Video Games": ["a racing wheel for my console", "a new video game", "a charging dock for controllers",
                         "a headset stand", "a handheld console"],
         "Sports & Outdoors": ["a jump rope", "a tennis racket", "resistance bands", "a camping tent",
                               "a gym water bottle", "hiking poles", "a bike helmet"],
         "Furniture": ["a bookshelf"],
         "Travel": ["a packing cube set", "a passport holder", "a travel adapter", "a toiletry bag", "luggage tags",
                    "a weekend backpack", "compression socks for flying", "a travel blanket", "a rolling duffel bag"]}
PER_LINK = 13  # contexts per link: the eight targets are equally frequent


def department_contexts(link: str) -> list[str]:
    if link == "Best Sellers":
        return [f"the {short(p)}" for p in BEST_SELLERS[:PER_LINK]]
    if link == "Today's Deals":
        return [f"the {short(p)}" for p in ON_SALE[:PER_LINK]]
    return ([f"the {short(p)}" for p in CORE_PRODUCTS if p.category == link] + _MORE.get(link, []))[:PER_LINK]


@register
class Department(Family):
    """The small-target family: eight links of the department bar (six departments, Best Sellers, Today's Deals),
    13 instances each. The goal names the link and what the user is after; that context only varies the goal."""

    name, site, steps = "omnizon.department", "omnizon", "1"
    description = "open a department (or Best Sellers / Today's Deals) from the department bar"

    def space(self):
        return [{"link": link, "thing": t} for link in (*DEPARTMENTS, *LISTS) for t in department_contexts(link)]

    def goal(self, p, rng):
        thing, link = p["thing"], p["link"]
        if link in LISTS:
            return rng.choice([f"Show me Omnizon's {link}; I wonder if {thing} is there.",
                               f"Open {link} from the menu bar. I'm curious about {thing}.",
                               f"Go to {link}: I'd like to compare it with {thing}."])
        return rng.choice([f"Open the {link} department; I'm shopping for something like {thing}.",
                           f"I want to browse {link} (I'm after {thing}). Open that department.",
                           f"Take me to the {link} department, I'm looking for {thing}.",
                           f"Browse the {link} department. I'm looking for {thing}."])

    def check(self, f, p):
        ff, path, link = final_filter(f), pathname(f), p["link"]
        want_cat, want_sort = ("All", LISTS[link]) if link in LISTS else (link, "featured")
        return [Check("results shown", path == "/search", f"shown {path!r}"),
                Check("department", ff["category"] == want_cat, f"department {ff['category']!r}, want {want_cat!r}"),
                Check("sort", ff["sort"] == want_sort, f"sort {ff['sort']!r}, want {want_sort!r}"),
                Check("no search or filter", ff["searchQuery"] == "" and ff["minPrice"] is None
                      and ff["maxPrice"] is None and ff["minRating"] is None, f"filter {ff}"),
                nothing_bought(f)]


@register
class TypeQuery(Family):
    """Omnizon records what the search box holds as the user types (``filter.searchInputValue``, read by REAL's
    omnizon_9): one ``fill`` of the box, hundreds of different queries."""

    name, site, steps = "omnizon.type", "omnizon", "1"
    description = "type a given query into the search box"

    def space(self):
        seen: dict[str, str] = {}
        for p in NAMEABLE:
            for q in [*queries_for(p), *p.keywords.split()[:2]]:
                seen.setdefault(norm(q), q)
        return [{"query": q} for q in seen.values()]

    def goal(self, p, rng):
        return rng.choice(['Type "{q}" into the search box.', 'Enter "{q}" in Omnizon\'s search bar.',
                           'Write "{q}" in the search field.', 'Put "{q}" in the search box.']).format(q=p["query"])

    def check(self, f, p):
        got = final_filter(f)["searchInputValue"]
        return [Check("typed", norm(got) == norm(p["query"]), f"search box holds {got!r}, want {p['query']!r}"),
                nothing_bought(f)]


# ---------------------------------------------------------------- a few actions
@register
class OpenProduct(Family):
    name, site, steps = "omnizon.open", "omnizon", "2-4"
    description = "search for a query and open a given product among the results"

    def space(self):
        return [{"product": p.id, "query": q} for p in NAMEABLE for q in queries_for(p)]

    def goal(self, p, rng):
        what = short(BY_ID[p["product"]])
        return rng.choice(['Search Omnizon for "{q}" and open the product page of the {w}.',
                           'Look up "{q}" and open the {w}.', 'Find the {w} by searching for "{q}", then open it.',
                           'Search "{q}" and show me the {w}.']).format(q=p["query"], w=what)

    def check(self, f, p):
        path, want = pathname(f), f"/product/{p['product']}"
        return [Check("product open", path == want, f"shown {path!r}, want {want!r}"), query_is(f, p["query"]),
                nothing_bought(f)]


@register
class SortResults(Family):
    name, site, steps = "omnizon.sort", "omnizon", "2-4"
    description = "search for a query and sort the results"

    def space(self):
        qs: dict[str, str] = {}
        for p in NAMEABLE:
            for q in p.keywords.split()[:2] + [p.brand]:
                if _search(q)[0] and len(_search(q)[1]) >= 2:
                    qs.setdefault(norm(q), q)
        return [{"query": q, "sort": s} for q in qs.values() for s in SORTS]

    def goal(self, p, rng):
        return rng.choice(['Search for "{q}" and sort the results by {s}.', 'Show me "{q}" sorted by {s}.',
                           'Look up "{q}" on Omnizon, ordered by {s}.']).format(q=p["query"], s=SORTS[p["sort"]])

    def check(self, f, p):
        ff = final_filter(f)
        return [Check("results shown", pathname(f) == "/search", f"shown {pathname(f)!r}"), query_is(f, p["query"]),
                Check("sorted", ff["sort"] == p["sort"], f"sort {ff['sort']!r}, want {p['sort']!r}"),
                nothing_bought(f)]


@register
class AddToCart(Family):
    name, site, steps = "omnizon.add", "omnizon", "2-4"
    description = "put N of a product in the cart (no order)"

    def space(self):
        return [{"product": p.id, "quantity": n} for p in NAMEABLE for n in (1, 2, 3, 4)]

    def goal(self, p, rng):
        w, n = short(BY_ID[p["product"]]), p["quantity"]
        if n == 1:
            return rng.choice([f"Add the {w} to my cart.", f"Put one {w} in the cart.",
                               f"I want the {w} in my shopping cart."])
        return rng.choice([f"Add {n} of the {w} to my cart.", f"Put {n} units of the {w} in the cart.",
                           f"I need {n} units of the {w} in my shopping cart (don't check out)."])

    def check(self, f, p):
        cart, want = cart_now(f), {p["product"]: p["quantity"]}
        return [Check("cart", cart == want, f"cart {cart}, want {want}"),
                Check("no order", not new_orders(f), f"{len(new_orders(f))} new orders")]


# ---------------------------------------------------------------- REAL-like
@register
class Buy(Family):
    """REAL's omnizon_24 (buy 2 PS5 controllers) for every product and 1 to 5 units."""

    name, site, steps = "omnizon.buy", "omnizon", "5+"
    description = "buy N of a product (cart, checkout, place the order)"

    def space(self):
        return [{"product": p.id, "quantity": n} for p in NAMEABLE for n in (1, 2, 3, 4, 5)]

    def goal(self, p, rng):
        w, n = short(BY_ID[p["product"]]), p["quantity"]
        if n == 1:
            return rng.choice([f"Buy the {w}.", f"Order one {w} for me.", f"Purchase a {w}."])
        return rng.choice([f"Buy {n} of the {w}.", f"Order {n} units of the {w} for me.",
                           f"Purchase {n} units of the {w} in one order."])

    def check(self, f, p):
        return one_order_of(f, {p["product"]: p["quantity"]})


def band_pick(query: str, band: str, pick: str) -> Product | None:
    """The product a filter-and-buy goal means: the cheapest or dearest result in the price band (None if that is
    not one product, if the band leaves fewer than two to choose from, or more than one page of results)."""
    res = _search(query, *BANDS[band])[1]
    if not 2 <= len(res) <= PAGE_SIZE:
        return None
    prices = sorted(p.price for p in res)
    want = prices[0] if pick == "cheapest" else prices[-1]
    if prices.count(want) > 1:
        return None
    return next(p for p in res if p.price == want)


@register
class FilterBuy(Family):
    """REAL's omnizon_3 (headphones between $25 and $50): search, the sidebar's price band, then buy the cheapest
    or the most expensive result."""

    name, site, steps = "omnizon.filter_buy", "omnizon", "5+"
    description = "search, filter by a price band, buy the cheapest or most expensive result"

    def space(self):
        qs: dict[str, str] = {}
        for p in NAMEABLE:
            for q in p.keywords.split()[:3] + [p.category]:
                if _search(q)[0]:
                    qs.setdefault(norm(q), q)
        return [{"query": q, "band": b, "pick": k, "product": x.id} for q in qs.values() for b in BANDS
                for k in ("cheapest", "most expensive") if (x := band_pick(q, b, k)) is not None]

    def goal(self, p, rng):
        b = p["band"].replace("Under", "under").replace("& Above", "and above")
        return rng.choice(['Search for "{q}", filter the price to {b}, and buy the {k} result.',
                           'Find the {k} "{q}" priced {b} (use the price filter) and order it.',
                           'Buy the {k} "{q}" in the {b} price range; filter the search by price.']).format(
            q=p["query"], b=b, k=p["pick"])

    def check(self, f, p):
        ff, (lo, hi) = final_filter(f), BANDS[p["band"]]
        return [query_is(f, p["query"]),
                Check("price filter", (ff["minPrice"], ff["maxPrice"]) == (lo, hi),
                      f"price {ff['minPrice']}..{ff['maxPrice']}, want {lo}..{hi}"),
                *one_order_of(f, {p["product"]: 1})]
