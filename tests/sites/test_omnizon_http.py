"""Omnizon over real HTTP: every REAL v2 omnizon task graded by agisdk's own script after the HTTP requests a
browser would send (SUCCESS), and after nothing (FAILURE); near-misses that must fail; bad input; isolation."""

from __future__ import annotations

import re
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
    assert order["date"].startswith("2024-07-18T") and order["orderNumber"]
    assert (order["subtotal"], order["shipping"], order["tax"], order["total"]) == (139.98, 0.0, 13.3, 153.28)
    assert order["selected_delivery"] == "Monday, Jul 22" and order["paymentMethod"] == "visa-4242"
    assert order["selected_card"]["cardNumber"].endswith("4242")
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


# ---------------------------------------------------------------- scale, paging, sorting (issue 16, point 3)
def _ids(page: str) -> list[str]:
    return re.findall(r'class="result" data-product-id="([^"]+)"', page)


def test_search_results_page_sort_and_filter(urls):
    """A laptop search fills more than one page: page 2 holds other laptops, sorting and filters change the list."""
    with HttpEpisode(urls["omnizon"], "v2.omnizon-3") as ep:
        c = ep.client
        p1 = c.get("/search", params={"q": "laptop"}).text
        total = int(re.search(r"1-24 of (\d+) results", p1).group(1))
        assert total > 24 and len(_ids(p1)) == 24 and 'aria-label="Next page"' in p1
        p2 = c.get("/search", params={"q": "laptop", "page": "2"}).text
        assert f"25-{min(48, total)} of {total} results" in p2 and 'aria-label="Previous page"' in p2
        assert _ids(p2) and not set(_ids(p1)) & set(_ids(p2))
        far = c.get("/search", params={"q": "laptop", "page": "99"}).text  # past the end: the last page
        assert _ids(far) and f"of {total} results" in far
        cheap = _ids(c.get("/search", params={"q": "laptop", "sort": "price-asc"}).text)
        dear = _ids(c.get("/search", params={"q": "laptop", "sort": "price-desc"}).text)
        assert cheap != _ids(p1) and dear != _ids(p1) and not set(cheap[:5]) & set(dear[:5])
        top = c.get("/search", params={"q": "laptop", "min": "1000"}).text
        n_top = int(re.search(r"of (\d+) results", top).group(1))
        assert 0 < n_top < total
        phones = c.get("/search", params={"q": "smartphones"}).text
        assert int(re.search(r"of (\d+) results", phones).group(1)) >= 24 and "Galaxy S24 Ultra" in phones


# ---------------------------------------------------------------- checkout features (issue 16, point 4)
def test_quantities_up_to_30(urls):
    with HttpEpisode(urls["omnizon"], "v2.omnizon-24") as ep:
        c = ep.client
        assert '<option value="30">30</option>' in c.get("/product/16").text
        c.post("/cart/add", data={"id": "16", "quantity": "30"})
        cart = c.get("/cart").text
        assert re.search(r'<option value="30" selected>30</option>', cart) and "Subtotal (30 items)" in cart
        assert c.post("/cart/add", data={"id": "16", "quantity": "31"}).status_code == 400
        c.post("/cart/update", data={"id": "16", "quantity": "12"})
        assert ep.finish()["differences"]["cart"]["added"] == [{"id": "16", "quantity": 12, "price": 69.99}]


def test_buy_now_30_with_the_last_delivery_date(urls):
    """REAL v1's omnizon-10: Buy Now, the quantity at its maximum, the last delivery date, place the order."""
    with HttpEpisode(urls["omnizon"], "v2.omnizon-24") as ep:
        c = ep.client
        page = c.post("/cart/add", data={"id": "16", "quantity": "1", "next": "checkout"}).text
        assert all(d in page for d in ("Friday, Jul 19", "Monday, Jul 22", "Wednesday, Jul 24", "Friday, Jul 26"))
        assert 'name="delivery" value="2024-07-22" data-fee="0.0" checked' in page  # Prime's date by default
        assert re.search(r'<option value="30"\s*>30</option>', page) and "Estimated tax to be collected:" in page
        r = c.post("/checkout/place", data={**ADDRESS, "buyNow": "16", "quantity": "30", "delivery": "2024-07-26"})
        assert r.url.path == "/confirmation" and "Friday, Jul 26" in r.text
        (order,) = ep.finish()["differences"]["orders"]["added"]
        assert order["items"] == [{"id": "16", "quantity": 30, "price": 69.99}]
        assert order["selected_delivery"] == "Friday, Jul 26" and order["shipping"] == 0.0
        assert (order["subtotal"], order["tax"], order["total"]) == (2099.7, 199.47, 2299.17)
        r = c.post("/checkout/place", data={**ADDRESS, "buyNow": "16", "quantity": "1", "delivery": "2024-07-19"})
        (_, fast) = ep.finish()["differences"]["orders"]["added"]
        assert fast["selected_delivery"] == "Friday, Jul 19" and fast["shipping"] == 9.99
        assert fast["total"] == round(69.99 + 9.99 + 6.65, 2)
        r = c.post("/checkout/place", data={**ADDRESS, "buyNow": "16", "quantity": "1", "delivery": "2024-08-30"})
        assert r.status_code == 400 and "unknown delivery date" in r.text


def test_checkout_shows_a_tax_line(urls):
    with HttpEpisode(urls["omnizon"], "v2.omnizon-13") as ep:
        ep.client.post("/cart/add", data={"id": "212", "quantity": "2"})
        page = ep.client.get("/checkout").text
        assert 'Items (<span id="sum-count">2</span>):</span><span id="sum-items">$89.98<' in page
        for label, key, value in (("Total before tax:", "before-tax", "$89.98"),
                                  ("Estimated tax to be collected:", "tax", "$8.55"), ("Order total:", "total", "$98.53")):
            assert f'{label}</span><span id="sum-{key}">{value}<' in page, label


def test_add_a_card_and_pay_with_it(urls):
    """REAL v1's omnizon-9: a new card at checkout becomes the payment method and the order's ``selected_card``."""
    card = {"cardName": "Jack Fulton", "cardNumber": "9231 3432 8927 7764", "month": "1", "year": "2029",
            "security_code": "128"}
    with HttpEpisode(urls["omnizon"], "v2.omnizon-24") as ep:
        c = ep.client
        assert "Add a credit or debit card" in c.get("/checkout", params={"buyNow": "16", "quantity": "1"}).text
        bad = c.post("/checkout/card", data={**card, "cardNumber": "1234", "security_code": "x", "buyNow": "16",
                                             "quantity": "1", "delivery": "2024-07-22"})
        assert bad.status_code == 400 and "card number must be 13 to 19 digits" in bad.text and "CVV" in bad.text
        assert 'value="Jack Fulton"' in bad.text  # the form keeps what was typed
        expired = c.post("/checkout/card", data={**card, "month": "6", "year": "2024"})
        assert expired.status_code == 400 and "the card expired (6/2024)" in expired.text
        assert ep.finish()["initialfinaldiff"]["added"].get("checkout") is None
        r = c.post("/checkout/card", data={**card, "buyNow": "16", "quantity": "1", "delivery": "2024-07-24"})
        assert r.url.path == "/checkout" and r.url.params["buyNow"] == "16" and r.url.params["delivery"] == "2024-07-24"
        assert re.search(r'value="card-1" checked> Visa ending in 7764 \(Jack Fulton\)', r.text) is None
        assert re.search(r'value="card-1" checked>\s*Card ending in 7764 \(Jack Fulton\)', r.text)
        r = c.post("/checkout/place", data={**ADDRESS, "paymentMethod": "card-1", "buyNow": "16", "quantity": "2"})
        assert r.url.path == "/confirmation"
        fin = ep.finish()
        (order,) = fin["differences"]["orders"]["added"]
        assert order["selected_card"] == card and order["paymentMethod"] == "card-1"
        assert fin["initialfinaldiff"]["added"]["checkout"]["cards"]["0"] == {"id": "card-1", **card}
        assert ep.grade(urls).success  # omnizon-24 (2 PS5 controllers) still reads its order alone


def test_product_photos_are_served(urls):
    with HttpEpisode(urls["omnizon"], "v2.omnizon-13") as ep:
        c = ep.client
        page = c.get("/search", params={"q": "laptop"}).text
        srcs = re.findall(r'<img class="photo" src="(/images/I/[^"]+\.jpg)"', page)
        assert len(srcs) == 24
        a, b = c.get(srcs[0]), c.get(srcs[1])
        assert a.status_code == 200 and a.headers["content-type"] == "image/jpeg" and a.content[:2] == b"\xff\xd8"
        assert a.content != b.content and c.get(srcs[0]).content == a.content
        assert c.get(srcs[0], headers={"If-None-Match": a.headers["etag"]}).status_code == 304
        w = c.get("/images/I/212.webp")
        assert w.headers["content-type"] == "image/webp" and w.content[8:12] == b"WEBP"
        assert c.get("/images/I/99999.jpg").status_code == 404 and c.get("/images/I/212.gif").status_code == 404
        assert ep.finish()["initialfinaldiff"]["updated"]["router"]["location"]["pathname"] == "/search"
