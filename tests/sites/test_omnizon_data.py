"""Omnizon's catalogue and state logic without a server: the ids REAL's scripts hard-code, search, determinism."""

from __future__ import annotations

import copy
import json

import pytest

from halo.sites.omnizon import state as st
from halo.sites.omnizon.catalog import BY_ID, PRODUCTS, search


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
    assert [p.id for p in search("cooking pots").products] == ["212", "215"]
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


def test_catalogue_is_big_enough_that_search_matters():
    assert len(PRODUCTS) >= 50 and len({p.category for p in PRODUCTS}) >= 6


def test_state_is_deterministic_and_json():
    a, b = st.seed("v2.omnizon-13"), st.seed("v2.omnizon-13")
    assert a == b and json.loads(json.dumps(a)) == a

    def order(state):
        st.cart_add(state, "212", 1)
        st.cart_add(state, "212", 2)
        return st.place_order(state, "v2.omnizon-13", st.DEFAULT_ADDRESS, "visa-4242")

    o1, o2 = order(a), order(b)
    assert o1 == o2 and o1["items"] == [{"id": "212", "quantity": 3, "price": 44.99}] and o1["total"] == 134.97
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
