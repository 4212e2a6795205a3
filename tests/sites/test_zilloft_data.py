"""Zilloft's listings and state logic without a server: each task has right answers and near misses, messages in
the format REAL's scripts parse, price parsing, determinism."""

from __future__ import annotations

import re

import pytest

from real_local.zilloft import state as st
from real_local.zilloft.listings import BY_ID, LISTINGS, search


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
                      ({"name": "  "}, "fill in your name"), ({"tourType": "drone"}, "tour type")]:
        with pytest.raises(st.RequestError, match=says):
            st.add_tour_request(st.seed(None), {**body, **bad})


# ---------------------------------------------------------------- the market's scale (issue 16, point 3)
MAIN = ("Boston", "San Francisco", "San Jose", "Sacramento", "Los Angeles", "Long Beach", "San Diego")


def test_hundreds_of_homes_dozens_per_city_and_type():
    from collections import Counter

    from real_local.zilloft.listings import CITIES, FIXED

    assert len(LISTINGS) == 800 and LISTINGS[:48] == FIXED
    assert len({h.id for h in LISTINGS}) == len({h.street for h in LISTINGS}) == 800
    per_city = Counter(h.city for h in LISTINGS)
    assert set(per_city) == set(CITIES) and all(per_city[c] >= 80 for c in MAIN)
    assert all(per_city[c] >= 13 for c in CITIES)
    kinds = Counter((h.city, h.home_type) for h in LISTINGS)
    assert all(kinds[c, "House"] >= 24 and kinds[c, "Condo"] >= 12 and kinds[c, "Townhouse"] >= 9 for c in MAIN)
    sf_condos = search("San Francisco", max_price=1_000_000, home_types=("Condo",))
    assert len(sf_condos) >= 24 and {h.city for h in sf_condos} == {"San Francisco"}


def test_generation_is_deterministic_from_its_seed():
    from real_local.zilloft.listings import FIXED, SEED, generate

    assert generate(SEED, FIXED) == LISTINGS[48:]
    other = generate(SEED + 1, FIXED)
    assert len(other) == len(LISTINGS) - 48 and other != LISTINGS[48:]


def test_prices_and_sizes_are_plausible_per_city():
    from statistics import median

    def med(city, kind="House"):
        return median(h.price for h in LISTINGS if h.city == city and h.home_type == kind)

    assert med("Palo Alto") > med("San Francisco") > med("Sacramento") and med("Boston") > med("Riverside")
    assert 400_000 < med("Sacramento") < 800_000 and 1_000_000 < med("San Francisco") < 2_000_000
    for h in LISTINGS:
        assert 300 <= h.sqft / h.beds <= 1500 and 1 <= h.baths <= h.beds + 1, h
        assert 30_000 < h.price < 10_000_000 and 1850 <= h.year_built <= 2024, h
        if h.home_type == "Manufactured":
            assert h.price < 450_000, h


def test_generated_addresses_keep_reals_scripts_and_searches_right():
    """Only condos read as apartments to zilloft_2 (Unit/APT); no street puts a home in another place's search."""
    from real_local.zilloft.listings import CITIES, STATE_NAMES

    for h in LISTINGS[48:]:
        flat = re.search(r"\b(unit|apt)\b", h.street, re.IGNORECASE)
        assert bool(flat) == (h.home_type == "Condo"), h.street
        assert "condo" not in h.street.lower()
    places = [*CITIES, *{r for _, rs in CITIES.values() for r in rs}, *STATE_NAMES.values()]
    for p in places:
        for h in search(p):
            where = {h.city, *CITIES[h.city][1], STATE_NAMES[h.state]}
            assert p in where, (p, h.full_address)


def test_a_city_name_finds_that_city_and_a_region_its_cities():
    assert {h.city for h in search("San Francisco")} == {"San Francisco"}
    assert {h.city for h in search("san jose, ca")} == {"San Jose"}
    assert len({h.city for h in search("San Francisco Bay Area")}) == 7
    assert {h.city for h in search("Boston")} == {"Boston"} and "Cambridge" in {h.city for h in search("Greater Boston")}


def test_sorts_order_and_pages_cover_every_result():
    from real_local.zilloft.listings import PAGE_SIZE, SORTS, page_of

    homes = search("California")
    assert len(homes) > 10 * PAGE_SIZE
    for key, _ in SORTS:
        got = search("California", sort=key)
        assert sorted(h.id for h in got) == sorted(h.id for h in homes)
    assert [h.price for h in search("California", sort="price_low")] == sorted(h.price for h in homes)
    assert [h.price for h in search("California", sort="price_high")] == sorted((h.price for h in homes), reverse=True)
    assert [h.days_on_market for h in search("California", sort="newest")] == sorted(h.days_on_market for h in homes)
    assert search("California")[:5] != [h for h in LISTINGS if h.state == "CA"][:5]  # not the fixed homes first
    shown, page, pages = page_of(homes, 2)
    assert (page, pages, len(shown)) == (2, -(-len(homes) // PAGE_SIZE), PAGE_SIZE) and shown == homes[24:48]
    assert page_of(homes, 999)[1:] == (pages, pages) and page_of(homes, -3)[1] == 1 and page_of([], 1) == ([], 1, 1)
    every = [h for n in range(1, pages + 1) for h in page_of(homes, n)[0]]
    assert every == homes


def test_exact_match_filters_to_that_many_rooms():
    at_least = search("Los Angeles", min_beds=3)
    exactly = search("Los Angeles", min_beds=3, max_beds=3)
    assert exactly and len(exactly) < len(at_least) and {h.beds for h in exactly} == {3}
    assert any(h.beds > 3 for h in at_least)
    baths = search("Sacramento", min_baths=2, max_baths=2)
    assert baths and {h.baths for h in baths} == {2.0} and len(baths) < len(search("Sacramento", min_baths=2))
    types = search("Long Beach", home_types=("House", "Townhouse"))
    assert types and {h.home_type for h in types} == {"House", "Townhouse"}
