"""Zilloft's listings and state logic without a server: each task has right answers and near misses, messages in
the format REAL's scripts parse, price parsing, determinism."""

from __future__ import annotations

import re

import pytest

from halo.sites.zilloft import state as st
from halo.sites.zilloft.listings import BY_ID, LISTINGS, search


def test_each_task_has_answers_and_near_misses():
    boston = search("Boston, MA")
    assert any(h.price < 1_000_000 for h in boston) and any(h.price > 1_000_000 for h in boston)
    bay = search("San Francisco Bay Area")
    assert [h for h in bay if h.price <= 1_000_000 and h.beds >= 3] and [h for h in bay if h.price > 1_000_000]
    lb = search("long beach")
    assert [h for h in lb if (h.beds, h.baths, h.home_type) == (3, 2, "House")]
    assert [h for h in lb if re.search(r"\b(unit|apt)\b", h.street, re.IGNORECASE)]  # condos zilloft_2 must reject
    assert search("Los Angeles", max_price=350_000, min_beds=2, min_baths=1)
    assert search("Sacramento", 500_000, 1_100_000, min_beds=4, min_baths=2)
    assert len(search("Sacramento")) > len(search("Sacramento", 500_000, 1_100_000, min_beds=4, min_baths=2))
    assert search("San Jose, CA") and search("Southern California", max_price=1_000_000)
    ca = search("California", max_price=900_000, min_beds=3)
    assert ca and all(h.state == "CA" for h in ca)
    assert all(h.sqft > 1000 for h in search("", min_sqft=1001)) and search("", max_sqft=999)


def test_messages_match_reals_format():
    for h in LISTINGS:
        assert re.fullmatch(r"I am interested in [^,]+, [A-Za-z ]+, [A-Z]{2} \d{5}\.", h.message), h.message
    assert BY_ID["90801"].message == "I am interested in 3521 Gale Ave, Long Beach, CA 90810."


@pytest.mark.parametrize("raw,value", [("500000", 500000), ("$500,000", 500000), ("500k", 500000),
                                       ("1.1M", 1100000), ("", None), ("No Max", None)])
def test_parse_price(raw, value):
    assert st.parse_price(raw, "max price") == value


def test_parse_price_refuses_nonsense():
    with pytest.raises(st.RequestError, match="is not a price"):
        st.parse_price("cheap", "max price")


def test_requests_are_deterministic_and_validated():
    body = {"homeId": "90801", "date": "2024-07-20", "time": "1:00 PM", "name": "A B", "email": "a@b.co",
            "phone": "555-123-4567", "message": BY_ID["90801"].message}
    a, b = st.seed(None), st.seed(None)
    assert st.add_tour_request(a, body) == st.add_tour_request(b, body)
    rec = a["tourRequests"]["requestTourList"][0]
    assert list(rec)[:2] == ["id", "createdAt"] and rec["createdAt"].startswith("2024-07-18T")
    assert st.TIMES[0] == "9:00 AM" and "1:00 PM" in st.TIMES and st.TIMES[-1] == "6:00 PM"
    assert [d.isoformat() for d in st.tour_dates()][:2] == ["2024-07-19", "2024-07-20"]
    for bad, says in [({"date": "2024-07-18"}, "offered days"), ({"time": "13:00"}, "offered time"),
                      ({"email": "nope"}, "not an email"), ({"phone": "call me"}, "not a phone"),
                      ({"name": "  "}, "name is required"), ({"tourType": "drone"}, "tour type")]:
        with pytest.raises(st.RequestError, match=says):
            st.add_tour_request(st.seed(None), {**body, **bad})
