"""Omnizon's catalogue and state logic without a server: the ids REAL's scripts hard-code, search, determinism."""

from __future__ import annotations

import copy
import json

import pytest

from real_local.omnizon import generated
from real_local.omnizon import state as st
from real_local.omnizon.catalog import BY_ID, CATEGORIES, CORE_PRODUCTS, PAGE_SIZE, PRODUCTS, search


@pytest.mark.parametrize("pid,words", [
    ("212", "pot"), ("215", "pot"), ("114", "pack"), ("167", "neck pillow"), ("170", "neck pillow"),
    ("16", "ps5"), ("192", "gaming"), ("193", "controller"), ("91", "apron"), ("159", "40 inch desk"),
])
def test_products_reals_scripts_name_exist(pid, words):
    p = BY_ID[pid]
    assert all(w in p.title.lower() or w in p.keywords for w in words.split())
    if pid in ("16", "192", "193"):
        assert p.price < 100  # omnizon_9: a gaming device under $100


def test_search_folds_plurals_and_filters():
    assert [p.id for p in search("cooking pots").products] == ["212", "215"]  # and no generated pot (see below)
    assert {p.id for p in search("neck pillows").products} == {"167", "170"}
    hp = search("headphones", min_price=24, max_price=100)
    assert hp.products and all(24 <= p.price <= 100 for p in hp.products)
    assert "41" not in {p.id for p in hp.products}  # $329.99
    assert search("ps5 controller").products[0].id == "16"
    assert [p.id for p in search("40 inch desk").products] == ["159"]
    partial = search("apron zebra")
    assert not partial.exact and [p.id for p in partial.products] == ["91"]
    asc = search("", category="Furniture", sort="price-asc").products
    assert [p.price for p in asc] == sorted(p.price for p in asc) and len(asc) > 5


def test_catalogue_is_at_a_shops_scale():
    """Hundreds of products in the eight departments; the 61 fixed ones first and unchanged; laptops and phones."""
    assert 300 <= len(PRODUCTS) <= 600 and len(CORE_PRODUCTS) == 61 and PRODUCTS[:61] == CORE_PRODUCTS
    assert {p.category for p in PRODUCTS} == set(CATEGORIES)
    assert all(sum(p.category == c for p in PRODUCTS) >= 10 for c in CATEGORIES)
    assert len({p.title for p in PRODUCTS}) == len(PRODUCTS) and len({p.brand for p in PRODUCTS}) >= 150
    prices = sorted(p.price for p in PRODUCTS)
    assert prices[0] < 10 and prices[-1] > 1500 and len(set(prices)) > 300
    assert len({p.rating for p in PRODUCTS}) >= 12 and sum(p.list_price is not None for p in PRODUCTS) > 100
    for q in ("laptop", "laptops", "smartphone", "smartphones"):
        assert search(q).total > PAGE_SIZE, q  # more than one page of results
    assert {"21", "22", "23"} <= {p.id for p in search("smartphones").products}  # REAL v1's phones
    assert BY_ID["22"].title.startswith("SAMSUNG Galaxy S24 Ultra") and BY_ID["15"].brand == "Marshall"


def test_generation_is_deterministic():
    assert generated.generate() == generated.generate()
    assert generated.generate(generated.SEED + 1) != generated.generate()
    assert [p.id for p in PRODUCTS[61:]][5:8] == [str(generated.FIRST_ID + i) for i in range(3)]


@pytest.mark.parametrize("query,only", [
    ("cooking pot", {"212", "215"}), ("sports balls pack", {"114"}), ("neck pillow", {"167", "170"}),
    ("ps5 controller", {"16"}), ("apron", {"91"}), ("silverware set", {"230", "231"}), ("40 inch desk", {"159"}),
    ("travel pillow", {"167", "170"}), ("soup pot", {"212", "215"}),
])
def test_generated_products_never_answer_reals_tasks(query, only):
    """REAL's v2 scripts accept fixed ids only: no generated product is a second answer to those tasks."""
    res = search(query)
    assert res.exact and {p.id for p in res.products} <= only | {"216", "217", "234", "171", "172"}
    assert not any(p.id not in {x.id for x in CORE_PRODUCTS} for p in res.products)


def test_paging_and_sorting_change_what_is_shown():
    res = search("laptop")
    by_price = search("laptop", sort="price-asc").products
    assert by_price[:PAGE_SIZE] != res.products[:PAGE_SIZE]
    assert [p.price for p in by_price] == sorted(p.price for p in res.products)
    rated = search("laptop", min_rating=4.5)
    assert 0 < rated.total < res.total and all(p.rating >= 4.5 for p in rated.products)


def test_state_is_deterministic_and_json():
    a, b = st.seed("v2.omnizon-13"), st.seed("v2.omnizon-13")
    assert a == b and json.loads(json.dumps(a)) == a

    def order(state):
        st.cart_add(state, "212", 1)
        st.cart_add(state, "212", 2)
        return st.place_order(state, "v2.omnizon-13", st.DEFAULT_ADDRESS, "visa-4242")

    o1, o2 = order(a), order(b)
    assert o1 == o2 and o1["items"] == [{"id": "212", "quantity": 3, "price": 44.99}]
    assert (o1["subtotal"], o1["shipping"], o1["tax"], o1["total"]) == (134.97, 0.0, 12.82, 147.79)
    assert o1["selected_delivery"] == "Monday, Jul 22" and o1["selected_card"] == st.SAVED_CARDS["visa-4242"]
    assert a["cart"]["items"] == []
    later = order(a)
    assert later["date"] > o1["date"] and later["orderNumber"] != o1["orderNumber"]


def test_checkout_errors_say_what_to_do():
    s = st.seed(None)
    with pytest.raises(st.CheckoutError, match="cart is empty"):
        st.place_order(s, None, st.DEFAULT_ADDRESS, "visa-4242")
    st.cart_add(s, "16", 1)
    with pytest.raises(st.CheckoutError, match="unknown payment method"):
        st.place_order(s, None, st.DEFAULT_ADDRESS, "bitcoin")
    with pytest.raises(st.CheckoutError, match="between 1 and"):
        st.parse_qty("0")
    before = copy.deepcopy(s)
    with pytest.raises(KeyError, match="no product"):
        st.cart_add(s, "nope", 1)
    assert s == before


def test_add_card_validates_and_selects_the_card():
    s = st.seed(None)
    with pytest.raises(st.CheckoutError, match="name on the card.*13 to 19 digits.*expiration month.*CVV"):
        st.add_card(s, " ", "12", "13", "2030", "1")
    assert s["checkout"]["cards"] == []
    card = st.add_card(s, "Jack  Fulton", "9231343289277764", "01", "2029", "128")
    assert card == {"id": "card-1", "cardName": "Jack Fulton", "cardNumber": "9231 3432 8927 7764", "month": "1",
                    "year": "2029", "security_code": "128"}
    assert s["checkout"]["paymentMethod"] == "card-1" and "card-1" in st.payment_methods(s)
    st.cart_add(s, "16", 1)
    o = st.place_order(s, None, st.DEFAULT_ADDRESS, "card-1", delivery="2024-07-19")
    assert o["selected_card"]["cardName"] == "Jack Fulton" and o["shipping"] == 9.99
    st.cart_add(s, "16", 1)
    assert "selected_card" not in st.place_order(s, None, st.DEFAULT_ADDRESS, "gift-card")
