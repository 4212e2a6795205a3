"""DashDish over real HTTP: every REAL v2 dashdish task graded by agisdk's own script after the requests a browser
would send (SUCCESS) and after nothing (FAILURE); near misses each script must reject; the loose scripts, pinned
(what they accept that the task's words do not); charges; bad input; isolation."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from _shop_helpers import HttpEpisode
from oracle_suite import http_suite

from real_local.dashdish import state as st
from real_local.dashdish.menu import DISHES, search


def order(ep: HttpEpisode, *lines: tuple[str, str, int], place: bool = True, **choices: str) -> dict | None:
    """Add ``(dish id, size, quantity)`` lines through the item pages, then place the order with ``choices``
    (shippingOption, deliveryOption, tip, ...). Returns the placed order."""
    c = ep.client
    for did, size, qty in lines:
        rid = DISHES[did][0].id
        assert c.get(f"/store/{rid}/item/{did}").status_code == 200
        r = c.post("/cart/add", data={"dishId": did, "size": size, "quantity": qty, "replace": "1"})
        assert r.status_code == 200 and r.url.path == f"/store/{rid}", r.text[:400]
    if not place:
        return None
    assert c.get("/checkout").status_code == 200
    form = {"shippingOption": "Delivery", "deliveryOption": "Standard", "tip": "15", "paymentMethod": "visa-4242",
            "address": st.ADDRESS, **choices}
    r = c.post("/checkout/place", data=form)
    assert r.status_code == 200 and r.url.path.startswith("/orders/DD-"), r.text[:500]
    (o,) = ep.finish()["differences"]["foodOrders"]["added"].values()
    return o


RECIPES = {
    "dashdish-1": lambda ep: order(ep, ("pho-saigon-3", "", 1)),
    "dashdish-10": lambda ep: order(ep, ("burger-barn-4", "Small", 1)),
    "dashdish-11": lambda ep: order(ep, ("jersey-subs-1", "Regular", 1)),
    "dashdish-12": lambda ep: order(ep, ("golden-wok-1", "", 1)),
    "dashdish-17": lambda ep: order(ep, ("wingstop-1", "6 pc Wings", 1), ("wingstop-2", "6 pc Wings", 1),
                                    deliveryOption="Express"),
    "dashdish-24": lambda ep: order(ep, ("hen-house-1", "", 1)),
    "dashdish-26": lambda ep: order(ep, ("wingstop-1", "10 pc Wings", 1), shippingOption="Pickup"),
    "dashdish-3": lambda ep: order(ep, ("little-caesars-1", "Large", 1)),
    "dashdish-4": lambda ep: order(ep, ("coop-chicken-1", "", 1)),
    "dashdish-7": lambda ep: order(ep, ("wingstop-1", "6 pc Wings", 1)),
    "dashdish-8": lambda ep: order(ep, ("taco-boys-1", "", 2)),
}

# plausible wrong episodes each script must reject
NEAR_MISSES = {
    "dashdish-1": lambda ep: order(ep, ("pho-saigon-1", "Large", 2)),  # noodles, but $45.78
    "dashdish-10": lambda ep: order(ep, ("burger-barn-5", "", 4)),  # fries, but $25.15
    "dashdish-11": lambda ep: order(ep, ("little-caesars-1", "Large", 1)),  # a pizza
    "dashdish-12": lambda ep: order(ep, ("golden-wok-1", "", 1), ("golden-wok-6", "", 1)),  # rice + egg rolls
    "dashdish-17": lambda ep: order(ep, ("wingstop-1", "6 pc Wings", 1), ("wingstop-2", "6 pc Wings", 1)),  # standard
    "dashdish-24": lambda ep: order(ep, ("coop-chicken-1", "", 1)),  # another chicken sandwich
    "dashdish-26": lambda ep: order(ep, ("wingstop-1", "10 pc Wings", 1)),  # delivered, not picked up
    "dashdish-3": lambda ep: order(ep, ("little-caesars-3", "", 3)),  # pizza, but $35.25
    "dashdish-4": lambda ep: order(ep, ("coop-chicken-3", "", 3)),  # chicken sandwiches, but $35.65
    "dashdish-7": lambda ep: order(ep, ("wingstop-2", "6 pc Wings", 1)),  # Original Hot
    "dashdish-8": lambda ep: order(ep, ("taco-boys-1", "", 1)),  # $16.97
}
# more near misses: two of one flavour, a wing and a sandwich, one wing only
MORE_17 = [
    lambda ep: order(ep, ("wingstop-1", "6 pc Wings", 2), deliveryOption="Express"),
    lambda ep: order(ep, ("wingstop-1", "6 pc Wings", 1), ("wingstop-7", "", 1), deliveryOption="Express"),
    lambda ep: order(ep, ("wingstop-1", "6 pc Wings", 1), deliveryOption="Express"),
    lambda ep: order(ep, ("wingstop-1", "6 pc Wings", 1), ("wingstop-2", "6 pc Wings", 1),
                     shippingOption="Pickup", deliveryOption="Express"),
]
# what the loose scripts accept although the task's words do not (pinned, so a change in agisdk shows up here)
LOOSE = {
    "dashdish-10": lambda ep: order(ep, ("burger-barn-5", "", 3)),  # "under $15": $19.11 passes (script: <= 20)
    "dashdish-4": lambda ep: order(ep, ("jersey-subs-1", "Regular", 1)),  # "chicken sandwich": an Italian Sub passes
    "dashdish-11": lambda ep: order(ep, ("jersey-subs-4", "", 1)),  # "sub-sandwich": chips from Jersey Subs pass
    "dashdish-12": lambda ep: order(ep, ("taco-boys-6", "Medium", 1)),  # "meals with rice": a horchata passes
}


globals().update(http_suite("dashdish", RECIPES, NEAR_MISSES, LOOSE))


@pytest.mark.parametrize("i", range(len(MORE_17)))
def test_wings_near_misses_fail(urls, i):
    with HttpEpisode(urls["dashdish"], "dashdish-17") as ep:
        MORE_17[i](ep)
        assert not ep.grade(urls).success


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_a_full_cart_never_placed_fails(urls, name):
    with HttpEpisode(urls["dashdish"], name) as ep:
        order(ep, ("wingstop-1", "6 pc Wings", 1), ("wingstop-2", "6 pc Wings", 1), place=False)
        assert ep.finish()["differences"]["cartItems"]["added"]
        assert not ep.grade(urls).success


def test_charges_are_the_documented_fees(urls):
    with HttpEpisode(urls["dashdish"], "dashdish-17") as ep:
        o = order(ep, ("wingstop-1", "10 pc Wings", 2), deliveryOption="Express", tip="20")
    ch = o["checkoutDetails"]["charges"]
    assert o["cartItems"][0]["price"] == 13.99 and ch["subtotal"] == 27.98
    assert (ch["deliveryFee"], ch["expressFee"], ch["serviceFee"], ch["tax"], ch["tip"]) == (1.99, 2.99, 2.8, 2.66, 5.6)
    assert ch["totalAmount"] == 44.02
    with HttpEpisode(urls["dashdish"], "dashdish-26") as ep:
        o = order(ep, ("wingstop-1", "10 pc Wings", 1), shippingOption="Pickup", tip="20")
    ch = o["checkoutDetails"]["charges"]
    assert (ch["deliveryFee"], ch["serviceFee"], ch["tip"], ch["totalAmount"]) == (0.0, 0.0, 0.0, 15.32)
    assert o["checkoutDetails"]["shipping"] == {"shippingOption": "Pickup", "deliveryOption": "", "address": "",
                                                "dropoffInstructions": ""}
    with HttpEpisode(urls["dashdish"], "dashdish-1") as ep:
        o = order(ep, ("burger-barn-4", "Small", 1), tip="other", customTip="$3")
    assert o["checkoutDetails"]["charges"]["tip"] == 3.0


def test_checkout_api_returns_charges_and_keeps_choices(urls):
    with HttpEpisode(urls["dashdish"], "dashdish-26") as ep:
        order(ep, ("wingstop-1", "6 pc Wings", 1), place=False)
        r = ep.client.post("/api/checkout", data={"shippingOption": "Pickup"})
        assert r.status_code == 200 and r.json()["charges"]["totalAmount"] == 9.84
        assert 'value="Pickup" checked' in ep.client.get("/checkout").text
        r = ep.client.post("/api/checkout", data={"tip": "99"})
        assert r.status_code == 400 and "tip" in r.json()["error"]


def test_seed_is_deterministic_and_fresh():
    a, b = st.seed("v2.dashdish-1"), st.seed("v2.dashdish-1")
    assert a == b and a is not b and a["cart"]["foodOrders"] is not b["cart"]["foodOrders"]
    a["cart"]["foodOrders"].clear()
    assert st.seed(None)["cart"]["foodOrders"], "a seed must never share structure with an earlier one"


def test_finish_is_reals_json_and_config_starts_fresh(urls):
    with HttpEpisode(urls["dashdish"], "dashdish-7", run_id="r9") as ep:
        order(ep, ("wingstop-1", "6 pc Wings", 1))
        r = ep.client.get("/finish")
        assert r.status_code == 200 and "<pre>" in r.text and "foodOrders" in r.text
        fin = ep.finish()
        assert fin["config"]["task_id"] == "dashdish-7" and fin["config"]["run_id"] == "r9"
        assert list(fin["initialfinaldiff"]["added"]["cart"]["foodOrders"]) == ["1"]
        ep.client.get("/config", params={"task_id": "v2.dashdish-7", "run_id": "r10"})
        fin = ep.finish()
        assert fin["differences"]["foodOrders"]["added"] == {} and fin["initialfinaldiff"]["added"] == {}


def test_search_and_filters(urls):
    rests, dishes = search("noodles")
    assert {r.name for r in rests} >= {"Pho Saigon Noodle House", "Golden Wok"}
    assert "Garlic Butter Noodles" in {d.name for _, d in dishes}
    rests, _ = search("", "Pizza")
    assert [r.name for r in rests] == ["Little Caesars"]
    rests, dishes = search("zzzz")
    assert rests == [] and dishes == []
    with HttpEpisode(urls["dashdish"], "dashdish-3") as ep:
        r = ep.client.get("/search", params={"q": "wings", "cuisine": "Chicken"})
        assert r.status_code == 200 and "Lemon Pepper Wings" in r.text and "Taco Boys" not in r.text
        assert ep.finish()["initialfinaldiff"]["updated"]["search"] == {"query": "wings", "cuisine": "Chicken"}


def test_bad_input_gets_a_clear_error(urls):
    with HttpEpisode(urls["dashdish"], "dashdish-1") as ep:
        c = ep.client
        assert c.get("/store/nope").status_code == 404
        assert c.get("/store/wingstop/item/taco-boys-1").status_code == 404
        assert c.get("/search", params={"cuisine": "Martian"}).status_code == 400
        r = c.post("/cart/add", data={"dishId": "nope"})
        assert r.status_code == 400 and "no menu item" in r.text
        for bad in ("0", "99", "two"):
            r = c.post("/cart/add", data={"dishId": "wingstop-1", "size": "6 pc Wings", "quantity": bad})
            assert r.status_code == 400 and "quantity" in r.text
        r = c.post("/cart/add", data={"dishId": "wingstop-1", "size": "100 pc Wings"})
        assert r.status_code == 400 and "comes in" in r.text
        r = c.post("/checkout/place", data={"shippingOption": "Delivery"})
        assert r.status_code == 400 and "cart is empty" in r.text
        order(ep, ("wingstop-1", "6 pc Wings", 1), place=False)
        r = c.post("/cart/add", data={"dishId": "taco-boys-1", "quantity": "1"})  # another store
        assert r.status_code == 409 and "Start new cart" in r.text
        r = c.post("/checkout/place", data={"shippingOption": "Drone"})
        assert r.status_code == 400 and "Delivery or Pickup" in r.text
        r = c.post("/checkout/place", data={"shippingOption": "Delivery", "address": " "})
        assert r.status_code == 400 and "address" in r.text
        r = c.post("/cart/update", data={"id": "line-9", "quantity": "1"})
        assert r.status_code == 400
        assert ep.finish()["differences"]["foodOrders"]["added"] == {}


def test_cart_quantities_and_remove(urls):
    with HttpEpisode(urls["dashdish"], "dashdish-8") as ep:
        order(ep, ("taco-boys-1", "", 1), ("taco-boys-1", "", 2), ("taco-boys-2", "", 1), place=False)
        items = ep.finish()["differences"]["cartItems"]["added"]
        assert {k: v["quantity"] for k, v in items.items()} == {"line-1": 3, "line-2": 1}
        ep.client.post("/cart/update", data={"id": "line-1", "quantity": "2"})
        ep.client.post("/cart/update", data={"id": "line-2", "remove": "1"})
        items = ep.finish()["differences"]["cartItems"]["added"]
        assert {k: v["quantity"] for k, v in items.items()} == {"line-1": 2}


def test_two_sessions_never_share_state(urls):
    def run(name: str) -> list:
        with HttpEpisode(urls["dashdish"], name) as ep:
            RECIPES[name](ep)
            return [it["name"] for o in ep.finish()["differences"]["foodOrders"]["added"].values()
                    for it in o["cartItems"]]

    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(run, ["dashdish-7", "dashdish-8", "dashdish-24", "dashdish-12"]))
    assert got == [["Lemon Pepper Wings"], ["Carne Asada Burrito"], ["Rotisserie Chicken Sandwich"],
                   ["Chicken Fried Rice"]]
