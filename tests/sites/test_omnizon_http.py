"""Omnizon over real HTTP: every REAL v2 omnizon task graded by agisdk's own script after the HTTP requests a
browser would send (SUCCESS), and after nothing (FAILURE); near-misses that must fail; bad input; isolation."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from _shop_helpers import HttpEpisode

ADDRESS = {"fullName": "John Doe", "street": "1250 Ocean Ave, Apt 4", "city": "Los Angeles", "state": "CA",
           "zip": "90001", "phone": "(310) 555-0142", "paymentMethod": "visa-4242"}


@pytest.fixture
def urls(site_urls):
    if "omnizon" not in site_urls:
        pytest.skip("REAL-local omnizon does not import")
    return site_urls


def buy(ep: HttpEpisode, *lines: tuple[str, int], search: str | None = None) -> httpx.Response:
    c = ep.client
    if search is not None:
        assert c.get("/search", params={"q": search}).status_code == 200
    for pid, qty in lines:
        assert c.get(f"/product/{pid}").status_code == 200
        assert c.post("/cart/add", data={"id": pid, "quantity": qty}).status_code == 200
    assert c.get("/checkout").status_code == 200
    r = c.post("/checkout/place", data=ADDRESS)
    assert r.status_code == 200 and r.url.path == "/confirmation", r.text[:500]
    return r


RECIPES = {
    "omnizon-13": lambda ep: buy(ep, ("212", 1), search="cooking pot"),
    "omnizon-15": lambda ep: buy(ep, ("114", 1), search="sports balls pack"),
    "omnizon-17": lambda ep: buy(ep, ("167", 1), search="neck pillow"),
    "omnizon-24": lambda ep: buy(ep, ("16", 2), search="ps5 controller"),
    "omnizon-25": lambda ep: buy(ep, ("91", 1), ("212", 1), search="apron"),
    "omnizon-28": lambda ep: buy(ep, ("230", 1), search="silverware set"),
    "omnizon-29": lambda ep: buy(ep, ("159", 1), ("161", 1), search="40 inch desk"),
    "omnizon-3": lambda ep: buy(ep, ("42", 1), search="headphones"),
    "omnizon-30": lambda ep: buy(ep, ("181", 1), search="queen bed frame"),
    "omnizon-9": lambda ep: buy(ep, ("192", 1), search="gaming"),
}

# plausible wrong episodes each script must reject
NEAR_MISSES = {
    "omnizon-13": lambda ep: buy(ep, ("216", 1), search="pot"),  # a flower pot
    "omnizon-15": lambda ep: buy(ep, ("115", 1), search="basketball"),  # one ball, not a pack
    "omnizon-17": lambda ep: buy(ep, ("167", 2), search="neck pillow"),  # two pillows
    "omnizon-24": lambda ep: buy(ep, ("16", 1), search="ps5 controller"),  # one controller
    "omnizon-29": lambda ep: buy(ep, ("158", 1), ("161", 1), search="desk"),  # a 55-inch desk
    "omnizon-3": lambda ep: buy(ep, ("41", 1), search="headphones"),  # $329.99
    "omnizon-30": lambda ep: buy(ep, ("181", 1), search="queen"),  # never searched "bed frame"
    "omnizon-9": lambda ep: buy(ep, ("194", 1), search="ps5"),  # a $449 console
}


@pytest.mark.parametrize("task", sorted(RECIPES))
def test_recipe_succeeds_and_noop_fails(urls, task):
    with HttpEpisode(urls["omnizon"], f"v2.{task}") as ep:
        assert not ep.grade(urls).success, f"{task}: a fresh session must not pass"
        RECIPES[task](ep)
        g = ep.grade(urls)
        assert g.success, g.details


@pytest.mark.parametrize("task", sorted(NEAR_MISSES))
def test_near_miss_fails(urls, task):
    with HttpEpisode(urls["omnizon"], f"v2.{task}") as ep:
        NEAR_MISSES[task](ep)
        g = ep.grade(urls)
        assert not g.success, g.details


def test_finish_has_reals_layout(urls):
    with HttpEpisode(urls["omnizon"], "v2.omnizon-24") as ep:
        buy(ep, ("16", 2), search="ps5 controller")
        fin = ep.finish()
    ifd = fin["initialfinaldiff"]
    (order,) = ifd["added"]["order"]["orders"].values()
    assert order["items"] == [{"id": "16", "quantity": 2, "price": 69.99}]
    assert order["total"] == 139.98 and order["date"].startswith("2024-07-18T") and order["orderNumber"]
    assert ifd["updated"]["router"]["location"]["pathname"] == "/confirmation"
    assert ifd["updated"]["filter"]["searchQuery"] == "ps5 controller"
    assert fin["config"]["task_id"] == "v2.omnizon-24" and fin["differences"]["orders"]["added"] == [order]
    assert "cart" not in ifd["added"]  # the cart is empty again after the order


def test_search_input_and_filters_are_recorded(urls):
    with HttpEpisode(urls["omnizon"], "v2.omnizon-3") as ep:
        assert ep.client.post("/api/search-input", json={"value": "headph"}).json() == {"ok": True}
        assert ep.finish()["initialfinaldiff"]["updated"]["filter"] == {"searchInputValue": "headph"}
        page = ep.client.get("/search", params={"q": "headphones", "min": "24", "max": "100"}).text
        assert "Soundcore" in page and "Sony WH-1000XM5" not in page  # $49.99 in, $329.99 filtered out
        f = ep.finish()["initialfinaldiff"]["updated"]["filter"]
        assert f["searchQuery"] == "headphones" and f["minPrice"] == 24 and f["maxPrice"] == 100


@pytest.mark.parametrize("method,path,kw,status,says", [
    ("get", "/product/99999", {}, 404, "does not exist"),
    ("get", "/search?min=abc", {}, 400, "must be a number"),
    ("get", "/search?category=Nope", {}, 400, "no department"),
    ("post", "/cart/add", {"data": {"id": "nope", "quantity": "1"}}, 400, "no product"),
    ("post", "/cart/add", {"data": {"id": "16", "quantity": "-3"}}, 400, "between 1 and"),
    ("post", "/cart/add", {"data": {"id": "16", "quantity": "two"}}, 400, "whole number"),
    ("post", "/cart/update", {"data": {"id": "16", "quantity": "2"}}, 400, "not in the cart"),
    ("post", "/checkout/place", {"data": ADDRESS}, 400, "cart is empty"),
    ("post", "/api/search-input", {"content": b"not json"}, 400, "JSON"),
])
def test_bad_input_gets_a_clear_error(urls, method, path, kw, status, says):
    with HttpEpisode(urls["omnizon"], "v2.omnizon-13") as ep:
        r = getattr(ep.client, method)(path, **kw)
        assert r.status_code == status and says in r.text
        assert ep.client.get("/").status_code == 200  # the session still works


def test_checkout_needs_an_address(urls):
    with HttpEpisode(urls["omnizon"], "v2.omnizon-13") as ep:
        ep.client.post("/cart/add", data={"id": "212", "quantity": "1"})
        r = ep.client.post("/checkout/place", data={**ADDRESS, "street": " ", "zip": ""})
        assert r.status_code == 400 and "missing street, zip" in r.text
        assert "order" not in ep.finish()["initialfinaldiff"]["added"]


def test_orders_never_leak_between_concurrent_sessions(urls):
    """Eight concurrent shoppers on one server: each sees exactly its own cart and order."""
    picks = ["212", "215", "114", "167", "170", "16", "91", "159"]

    def shop(i: int):
        with HttpEpisode(urls["omnizon"], "v2.omnizon-13") as ep:
            buy(ep, (picks[i], i + 1))
            return ep.finish()

    with ThreadPoolExecutor(8) as pool:
        finishes = list(pool.map(shop, range(8)))
    for i, fin in enumerate(finishes):
        (order,) = fin["initialfinaldiff"]["added"]["order"]["orders"].values()
        assert order["items"] == [{"id": picks[i], "quantity": i + 1, "price": order["items"][0]["price"]}]
    with HttpEpisode(urls["omnizon"], "v2.omnizon-13") as fresh:
        assert fresh.finish()["initialfinaldiff"]["added"] == {}


def test_a_request_without_config_gets_a_fresh_default_session(urls):
    c = httpx.Client(base_url=urls["omnizon"])
    assert c.get("/cart").status_code == 200
    assert c.get("/finish.json").json()["initialfinaldiff"]["added"] == {}
    c.close()


# Known leniency of REAL's own scripts (the spec, not our site): wrong episodes they still accept. Pinned so a
# change in agisdk's scripts shows up here; an RL reward on these tasks can be gamed the same way on REAL.
LENIENT = {
    "omnizon-9": lambda ep: buy(ep, ("114", 1), search="gaming"),  # any item under $100 after searching "gaming"
    "omnizon-30": lambda ep: buy(ep, ("233", 1), search="bed frame"),  # a coffee maker, after a bed-frame search
    "omnizon-3": lambda ep: buy(ep, ("233", 1), search="headphones"),  # $79.99 coffee maker, searched headphones
    "omnizon-28": lambda ep: buy(ep, ("118", 1), search="silverware set"),  # a yoga mat: text heuristics only
}


@pytest.mark.parametrize("task", sorted(LENIENT))
def test_reals_lenient_scripts_accept_these_wrong_episodes(urls, task):
    with HttpEpisode(urls["omnizon"], f"v2.{task}") as ep:
        LENIENT[task](ep)
        assert ep.grade(urls).success


def test_buy_now_buys_only_that_item_and_leaves_the_cart(urls):
    """Amazon's Buy Now: a checkout of that product alone; the cart keeps what it held, before and after."""
    with HttpEpisode(urls["omnizon"], "v2.omnizon-24") as ep:
        c = ep.client
        c.post("/cart/add", data={"id": "212", "quantity": "1"})  # a stockpot waits in the cart
        r = c.post("/cart/add", data={"id": "16", "quantity": "2", "next": "checkout"})  # Buy Now, 2 controllers
        assert r.url.path == "/checkout" and r.url.params["buyNow"] == "16"
        assert "Checkout (2 items)" in r.text and "DualSense" in r.text and "Cuisinart" not in r.text
        assert "$139.98" in r.text
        r = c.post("/checkout/place", data={**ADDRESS, "paymentMethod": "", "buyNow": "16", "quantity": "2"})
        assert r.status_code == 400 and "Checkout (2 items)" in r.text  # no payment: the same Buy Now, again
        r = c.post("/checkout/place", data={**ADDRESS, "buyNow": "16", "quantity": "2"})
        assert r.url.path == "/confirmation"
        fin = ep.finish()
        assert fin["differences"]["orders"]["added"][0]["items"] == [{"id": "16", "quantity": 2, "price": 69.99}]
        assert fin["differences"]["cart"]["added"] == [{"id": "212", "quantity": 1, "price": 44.99}]
        assert ep.grade(urls).success  # omnizon-24: buy 2 PS5 controllers
        for bad in ({"buyNow": "nope"}, {"buyNow": "16", "quantity": "0"}):
            assert c.get("/checkout", params=bad).status_code == 400
            assert c.post("/checkout/place", data={**ADDRESS, **bad}).status_code == 400
        assert len(ep.finish()["differences"]["orders"]["added"]) == 1


def test_no_page_says_it_is_a_clone_for_agent_training(urls):
    with HttpEpisode(urls["omnizon"], "v2.omnizon-13") as ep:
        for path in ("/", "/search?q=pot", "/product/212", "/cart", "/checkout", "/orders"):
            page = ep.client.get(path).text.lower()
            assert "clone" not in page and "agent training" not in page and "real-local" not in page, path
            assert "omnizon.com, inc. or its affiliates" in page, path
