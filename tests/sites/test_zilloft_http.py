"""Zilloft over real HTTP: every REAL v2 zilloft task graded by agisdk's own script after the requests a browser
would send (SUCCESS), and after nothing (FAILURE); near-misses; bad input; isolation."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from _shop_helpers import HttpEpisode

ME = {"name": "John Doe", "email": "john.doe@example.com", "phone": "310-555-0142"}


@pytest.fixture
def urls(site_urls):
    if "zilloft" not in site_urls:
        pytest.skip("REAL-local zilloft does not import")
    return site_urls


def search(ep: HttpEpisode, location: str, **filters) -> str:
    params = {"searchQuery": location, "minBeds": 0, "minBaths": 0, **filters}
    r = ep.client.get("/search", params=params)
    assert r.status_code == 200
    return r.text


def message(ep: HttpEpisode, zpid: str) -> str:
    page = ep.client.get(f"/homedetails/{zpid}").text
    start = page.index('id="tour-message"')
    return page[page.index(">", start) + 1: page.index("</textarea>", start)]


def tour(ep: HttpEpisode, zpid: str, date: str, time: str, **extra) -> dict:
    body = {"homeId": zpid, "date": date, "time": time, "tourType": "in-person", **ME,
            "message": message(ep, zpid), **extra}
    r = ep.client.post("/api/tour-requests", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def contact(ep: HttpEpisode, zpid: str, date: str, time: str) -> dict:
    body = {"homeId": zpid, "date": date, "time": time, **ME, "message": message(ep, zpid)}
    r = ep.client.post("/api/contact-agent", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def _z10(ep):
    assert "3621 Mulberry St" in search(ep, "California", maxPrice="500000", minBeds=2, sort="price_high")
    tour(ep, "92501", "2024-07-19", "10:00 AM")


def _z14(ep):
    assert "18 Dorchester St" in search(ep, "Boston, MA", maxPrice="1000000")
    contact(ep, "59002", "2024-07-19", "9:00 AM")


def _z15(ep):
    assert "3510 Lyon Ave" in search(ep, "San Francisco Bay Area", maxPrice="1000000", minBeds=3)
    tour(ep, "15004", "2024-07-20", "1:00 PM")


def _z2(ep):
    assert "3521 Gale Ave" in search(ep, "Long Beach, CA", minBeds=3, minBaths=2)
    tour(ep, "90801", "2024-07-20", "11:00 AM")


def _z22(ep):
    assert "3818 W 59th Pl" in search(ep, "Southern California", maxPrice="1000000", homeType="House", sort="newest")
    tour(ep, "90003", "2024-07-22", "2:00 PM")


def _z23(ep):
    page = search(ep, "California", maxPrice="900000", minBeds=3)
    assert "3510 Lyon Ave" in page and "1207 Romeria Dr" not in page  # Austin, TX is not California


def _z3(ep):
    assert "1547 E 118th St" in search(ep, "Los Angeles", maxPrice="350000", minBeds=2, minBaths=1)
    tour(ep, "90001", "2024-07-19", "11:00 AM")


def _z5(ep):
    search(ep, "San Jose, CA")
    contact(ep, "95002", "2024-07-23", "10:00 AM")


def _z6(ep):
    assert "5320 Carlson Dr" in search(ep, "Sacramento, CA", minPrice="500000", maxPrice="1100000", minBeds=4,
                                       minBaths=2)
    contact(ep, "95801", "2024-07-19", "1:00 PM")


def _z9(ep):
    assert "3521 Gale Ave" in search(ep, "Long Beach", minSqft="1000")
    tour(ep, "90801", "2024-07-21", "3:00 PM")


RECIPES = {"zilloft-10": _z10, "zilloft-14": _z14, "zilloft-15": _z15, "zilloft-2": _z2, "zilloft-22": _z22,
           "zilloft-23": _z23, "zilloft-3": _z3, "zilloft-5": _z5, "zilloft-6": _z6, "zilloft-9": _z9}

NEAR_MISSES = {
    # a house over $500k after filtering to $750k
    "zilloft-10": lambda ep: (search(ep, "Long Beach", maxPrice="750000", minBeds=2),
                              tour(ep, "90801", "2024-07-19", "10:00 AM")),
    "zilloft-14": lambda ep: (search(ep, "Boston, MA", maxPrice="1000000"),
                              contact(ep, "59002", "2024-07-20", "9:00 AM")),  # not tomorrow
    "zilloft-15": lambda ep: tour(ep, "15004", "2024-07-22", "1:00 PM"),  # a Monday
    "zilloft-2": lambda ep: tour(ep, "90803", "2024-07-20", "11:00 AM"),  # a condo (Unit 1204)
    "zilloft-6": lambda ep: contact(ep, "95801", "2024-07-19", "4:00 PM"),  # not around 1pm
    "zilloft-23": lambda ep: search(ep, "California", maxPrice="2000000", minBeds=1),
    "zilloft-5": lambda ep: tour(ep, "95002", "2024-07-23", "10:00 AM"),  # a tour, not a message to the agent
    "zilloft-9": lambda ep: contact(ep, "90801", "2024-07-21", "3:00 PM"),  # contact, no tour
}


@pytest.mark.parametrize("task", sorted(RECIPES))
def test_recipe_succeeds_and_noop_fails(urls, task):
    with HttpEpisode(urls["zilloft"], f"v2.{task}") as ep:
        assert not ep.grade(urls).success, f"{task}: a fresh session must not pass"
        RECIPES[task](ep)
        g = ep.grade(urls)
        assert g.success, g.details


@pytest.mark.parametrize("task", sorted(NEAR_MISSES))
def test_near_miss_fails(urls, task):
    with HttpEpisode(urls["zilloft"], f"v2.{task}") as ep:
        NEAR_MISSES[task](ep)
        g = ep.grade(urls)
        assert not g.success, g.details


def test_finish_has_reals_layout(urls):
    with HttpEpisode(urls["zilloft"], "v2.zilloft-3", run_id="run-7") as ep:
        _z3(ep)
        fin = ep.finish()
    ifd = fin["initialfinaldiff"]
    assert ifd["added"]["config"]["zilloft"]["run_id"] == "run-7"
    (req,) = ifd["added"]["tourRequests"]["requestTourList"].values()
    assert fin["differences"]["requestTours"]["added"] == {req["id"]: req}
    rtd = req["requestTourData"]
    assert rtd["options"] == [{"option": "in-person", "date": "2024-07-19", "time": "11:00 AM"}]
    assert rtd["formValues"]["message"] == "I am interested in 1547 E 118th St, Los Angeles, CA 90059."
    assert rtd["formValues"]["wantFinancingInformation"] is False
    assert ifd["updated"]["filters"] == {"searchQuery": "Los Angeles", "maxPrice": 350000, "minBeds": 2,
                                         "minBaths": 1}


def test_search_filters_and_price_formats(urls):
    with HttpEpisode(urls["zilloft"], "v2.zilloft-6") as ep:
        page = search(ep, "Sacramento", minPrice="$500k", maxPrice="1.1M", minBeds=4, minBaths=2)
        assert "5320 Carlson Dr" in page and "7612 Windbridge Dr" in page
        assert "2816 Marshall Way" not in page and "4418 San Juan Ave" not in page  # $1.3M; 3 beds
        f = ep.finish()["initialfinaldiff"]["updated"]["filters"]
        assert f["minPrice"] == 500000 and f["maxPrice"] == 1100000
        page = search(ep, "Sacramento", maxPrice="lots")
        assert "is not a price" in page
        assert ep.finish()["initialfinaldiff"]["updated"]["filters"]["maxPrice"] == 1100000  # kept


def test_an_inverted_range_is_refused_with_what_to_change(urls):
    """Before: a minimum price above the maximum was applied and the page said "0 results". Now it is refused with
    what to change, and the filters keep their last good range (so does a square-feet range)."""
    with HttpEpisode(urls["zilloft"], "v2.zilloft-6") as ep:
        search(ep, "Sacramento", minPrice="500000", maxPrice="900000")
        page = search(ep, "Sacramento", minPrice="1200000", maxPrice="900000")
        assert "The minimum price ($1,200,000) is above the maximum ($900,000)" in page
        assert "5320 Carlson Dr" in page  # the last good range's results, not none
        f = ep.finish()["initialfinaldiff"]["updated"]["filters"]
        assert f["minPrice"] == 500000 and f["maxPrice"] == 900000
        assert "The minimum size (3,000) is above the maximum (1,000)" in search(ep, "Sacramento", minSqft="3000",
                                                                                  maxSqft="1000")


def test_save_home_toggles(urls):
    with HttpEpisode(urls["zilloft"], "v2.zilloft-9") as ep:
        assert ep.client.post("/api/saved-homes", json={"homeId": "90801"}).json()["saved"] is True
        assert ep.finish()["differences"]["savedHomes"]["added"] == {"90801": {"id": "90801"}}
        assert "3521 Gale Ave" in ep.client.get("/myzilloft/saved-homes").text
        assert ep.client.post("/api/saved-homes", json={"homeId": "90801"}).json()["saved"] is False
        assert ep.finish()["differences"]["savedHomes"]["added"] == {}


@pytest.mark.parametrize("path,body,says", [
    ("/api/tour-requests", {"homeId": "nope"}, "no home"),
    ("/api/tour-requests", {"homeId": "90801", "date": "2024-07-18", "time": "9:00 AM", **ME, "message": "x"},
     "not one of the offered days"),
    ("/api/tour-requests", {"homeId": "90801", "date": "2024-07-19", "time": "3 AM", **ME, "message": "x"},
     "not an offered time"),
    ("/api/tour-requests", {"homeId": "90801", "date": "2024-07-19", "time": "9:00 AM", "name": "A",
                            "email": "not-an-email", "phone": "555-123-4567", "message": "x"}, "not an email"),
    ("/api/contact-agent", {"homeId": "90801", "date": "2024-07-19", "time": "9:00 AM", **ME, "name": "",
                            "message": "x"}, "fill in your name"),
    ("/api/contact-agent", [1, 2], "JSON object"),
    ("/api/saved-homes", {"homeId": 5}, "no home"),
])
def test_bad_input_gets_a_clear_error(urls, path, body, says):
    with HttpEpisode(urls["zilloft"], "v2.zilloft-9") as ep:
        r = ep.client.post(path, json=body)
        assert r.status_code == 400 and says in r.json()["error"]
        d = ep.finish()["differences"]
        assert not d["requestTours"]["added"] and not d["contactAgents"]["added"]


def test_unknown_pages(urls):
    c = httpx.Client(base_url=urls["zilloft"])
    r = c.get("/homedetails/x-y/123_zpid/")
    assert r.status_code == 404 and "no home with id" in r.text
    assert c.get("/config", params={"task_id": "v2.omnizon-3"}).status_code == 400  # another site's task
    c.close()


def test_tour_requests_never_leak_between_concurrent_sessions(urls):
    homes = ["90801", "15004", "59002", "95801", "92101", "90003", "95002", "92603"]

    def one(i: int):
        with HttpEpisode(urls["zilloft"], "v2.zilloft-9") as ep:
            tour(ep, homes[i], "2024-07-20", "1:00 PM")
            return ep.finish()

    with ThreadPoolExecutor(8) as pool:
        finishes = list(pool.map(one, range(8)))
    for i, fin in enumerate(finishes):
        (req,) = fin["differences"]["requestTours"]["added"].values()
        assert req["homeId"] == homes[i]
        assert fin["initialfinaldiff"]["added"]["tourRequests"]["requestTourList"]["0"]["homeId"] == homes[i]


# Known leniency of REAL's own scripts (the spec, not our site): wrong episodes they still accept. Pinned so a
# change in agisdk's scripts shows up here; an RL reward on these tasks can be gamed the same way on REAL.
LENIENT = {
    "zilloft-9": lambda ep: tour(ep, "90804", "2024-07-19", "9:00 AM"),  # a 790 sqft condo: size never checked
    "zilloft-22": lambda ep: tour(ep, "98101", "2024-07-19", "9:00 AM"),  # Seattle: any tour request passes
    "zilloft-3": lambda ep: tour(ep, "59001", "2024-08-01", "5:00 PM"),  # Boston, $2.45M, Aug 1: not checked
    "zilloft-10": lambda ep: tour(ep, "59001", "2024-07-19", "9:00 AM"),  # $2.45M, but no filter was set
    "zilloft-5": lambda ep: contact(ep, "59001", "2024-07-19", "9:00 AM"),  # an agent in Boston, not San Jose
    "zilloft-6": lambda ep: contact(ep, "90804", "2024-07-19", "1:00 PM"),  # a Long Beach condo: only date/time
}


@pytest.mark.parametrize("task", sorted(LENIENT))
def test_reals_lenient_scripts_accept_these_wrong_episodes(urls, task):
    with HttpEpisode(urls["zilloft"], f"v2.{task}") as ep:
        LENIENT[task](ep)
        assert ep.grade(urls).success


def test_a_request_without_config_gets_a_fresh_default_session(urls):
    c = httpx.Client(base_url=urls["zilloft"])
    assert c.get("/search", params={"searchQuery": "Boston"}).status_code == 200
    fin = c.get("/finish.json").json()
    assert fin["initialfinaldiff"]["added"]["config"]["zilloft"]["run_id"] == "0"
    assert fin["initialfinaldiff"]["updated"]["filters"] == {"searchQuery": "Boston"}
    assert all(not part["added"] for part in fin["differences"].values())
    c.close()


def test_every_header_and_footer_link_leads_to_a_page_of_its_own(urls):
    """Sell, Home Loans, Agent finder, Manage Rentals, Advertise and Help are pages (they all led to the home page);
    there is no Sign in (Zilloft has no accounts: saving homes and requesting tours need none)."""
    import re

    with HttpEpisode(urls["zilloft"], "v2.zilloft-9") as ep:
        page = ep.client.get("/").text
        head = page[page.index("<header"):page.index("</header>")] + page[page.index("<footer"):]
        links = {text: href for href, text in re.findall(r'<a[^>]*href="([^"]+)"[^>]*>([^<]+)</a>', head)}
        assert "Sign in" not in links
        for text in ("Sell", "Home Loans", "Agent finder", "Manage Rentals", "Advertise", "Help"):
            href = links[text]
            assert href != "/", text
            r = ep.client.get(href)
            assert r.status_code == 200 and r.url.path == href, text
            assert "<h1>" in r.text and "a REAL-local clone" not in r.text, text
            assert ep.finish()["initialfinaldiff"]["updated"]["router"]["location"]["pathname"] == href
        loans = ep.client.get("/home-loans", params={"price": "800,000", "down": "20", "rate": "6.5", "term": "30"})
        assert "Principal &amp; interest: <b>$4,045/mo</b>" in loans.text
        assert "must be a number" in ep.client.get("/home-loans", params={"rate": "lots"}).text
        agents = ep.client.get("/agent-finder", params={"q": "long beach"}).text
        assert "Ashley Nguyen" in agents and "Maria Gonzalez" not in agents and "/homedetails/" in agents
        assert "No agents match" in ep.client.get("/agent-finder", params={"q": "Atlantis"}).text
        assert not ep.finish()["differences"]["requestTours"]["added"]


def test_popular_searches_are_a_real_sites_list_not_the_task_regions(urls):
    from halo.tasks.families.zilloft import POPULAR
    from real_local.zilloft.listings import search
    from real_local.zilloft.routes import POPULAR_SEARCHES

    assert set(POPULAR) < set(POPULAR_SEARCHES) and list(POPULAR_SEARCHES) == sorted(POPULAR_SEARCHES)
    assert len(POPULAR_SEARCHES) >= 2 * len(POPULAR)
    assert all(search(q) for q in POPULAR_SEARCHES)  # each finds homes
    page = httpx.get(urls["zilloft"] + "/").text
    assert all(f">{q}</a>" in page for q in POPULAR_SEARCHES)
    assert "a REAL-local clone" not in page and "agent training" not in page


@pytest.mark.parametrize("path, body, says", [
    ("/api/tour-requests", {}, "tour: choose a date and a time, and fill in your name, email, phone and message."),
    ("/api/tour-requests", {"date": "2024-07-19", "message": "x", **ME}, "tour: choose a time."),
    ("/api/contact-agent", {"date": "", "time": "9:00 AM", "message": " ", **ME}, "agent: choose a date, and fill in your message."),
])
def test_an_incomplete_request_form_names_what_is_missing(urls, path, body, says):
    with HttpEpisode(urls["zilloft"], "v2.zilloft-9") as ep:
        r = ep.client.post(path, json={"homeId": "90801", **body})
        err = r.json()["error"]
        assert r.status_code == 400 and says in err and "None" not in err, err


def test_tour_date_picker_marks_today(urls):
    """Zillow's date picker shows today (no tours that day): the first day one can book is visibly tomorrow."""
    import re

    with HttpEpisode(urls["zilloft"], "v2.zilloft-1") as ep:
        home = re.search(r'href="(/homedetails/[^"]+)"', search(ep, "San Francisco, CA")).group(1)
        page = ep.client.get(home).text
    radios = re.findall(r'<input type="radio" name="date"[^>]*>', page)
    assert 'aria-label="Today, Thursday, July 18"' in radios[0] and " disabled" in radios[0]
    assert 'aria-label="Friday, July 19"' in radios[1] and "disabled" not in radios[1]
    assert ">Today<b>18</b>Jul</label>" in page


# ---------------------------------------------------------------- paging, sorting, Zillow's dropdown filters
def _cards(page: str) -> list[str]:
    import re

    return re.findall(r'<article class="hcard" data-zpid="(\d+)"', page)


def _prices(page: str) -> list[int]:
    import re

    return [int(p.replace(",", "")) for p in re.findall(r'<div class="price">\$([\d,]+)</div>', page)]


def test_results_page_and_sort(urls):
    from real_local.zilloft.listings import search as find

    total = len(find("California"))
    with HttpEpisode(urls["zilloft"], "v2.zilloft-23") as ep:
        first = search(ep, "California")
        assert f"{total} results" in first and len(_cards(first)) == 24
        assert 'aria-label="Next page"' in first and 'aria-label="Previous page"' not in first
        second = ep.client.get("/search", params={"page": 2}).text  # the filters stay in the session
        assert len(_cards(second)) == 24 and not set(_cards(first)) & set(_cards(second))
        assert 'aria-label="Page 2, current page"' in second and 'aria-label="Previous page"' in second
        last = ep.client.get("/search", params={"page": 999}).text
        assert len(_cards(last)) == total - 24 * (-(-total // 24) - 1) and 'aria-label="Next page"' not in last
        cheap = ep.client.get("/search", params={"searchQuery": "California", "sort": "price_low"}).text
        assert _prices(cheap) == sorted(_prices(cheap)) and _prices(cheap)[0] == min(h.price for h in find("California"))
        dear = ep.client.get("/search", params={"page": 1, "sort": "price_high"}).text
        assert _prices(dear)[0] == max(h.price for h in find("California"))
        assert ep.finish()["initialfinaldiff"]["updated"]["filters"]["sort"] == "price_high"
        # a filter changes what is shown and starts again at page 1
        narrow = search(ep, "California", maxPrice="400000", minBeds=3)
        assert all(p <= 400_000 for p in _prices(narrow)) and f"{len(find('California', max_price=400_000, min_beds=3))} results" in narrow


def test_filters_are_zillows_dropdowns(urls):
    import re

    with HttpEpisode(urls["zilloft"], "v2.zilloft-23") as ep:
        page = search(ep, "Boston, MA")
        for key, name in (("price", "Price"), ("beds", "Beds &amp; Baths"), ("type", "Home Type"), ("more", "More")):
            assert re.search(rf'data-dd="{key}" aria-expanded="false" aria-controls="dd-{key}" aria-label="{name}"',
                             page), key
            assert re.search(rf'id="dd-{key}"[^>]*hidden>', page), key  # closed: out of the accessibility tree
        for label in ("Houses", "Townhomes", "Multi-family", "Condos/Co-ops", "Manufactured"):
            assert f"> {label}</label>" in page
        # a radio button applies at once and the page comes back with its dropdown open, the button naming the choice
        page = ep.client.get("/search", params={"minBeds": 3, "minBaths": 2, "open": "beds"}).text
        assert re.search(r'id="dd-beds"[^>]*aria-label="Beds and baths" >', page)
        assert 'aria-label="Beds &amp; Baths: 3+ bd, 2+ ba"' in page and 'aria-label="3+ bedrooms" checked' in page
        page = ep.client.get("/search", params={"minBeds": 0, "minBaths": 0, "homeType": ["Townhouse", "Condo"],
                                                 "maxPrice": "900k"}).text
        assert 'aria-label="Home Type: 2 types"' in page and 'aria-label="Price: Up to $900K"' in page
        assert ep.finish()["initialfinaldiff"]["added"]["filters"]["homeTypes"] == {"0": "Townhouse", "1": "Condo"}
        from real_local.zilloft.listings import search as find

        want = find("Boston, MA", max_price=900_000, home_types=("Townhouse", "Condo"))
        assert f"{len(want)} results" in page and set(_cards(page)) == {h.id for h in want[:24]}


def test_exact_match_is_max_equal_to_min_in_the_state(urls):
    from real_local.zilloft.listings import search as find

    with HttpEpisode(urls["zilloft"], "v2.zilloft-10") as ep:
        page = search(ep, "Los Angeles", minBeds=3, bedsExact=1, minBaths=2, bathsExact=1)
        want = find("Los Angeles", min_beds=3, max_beds=3, min_baths=2, max_baths=2)
        assert want and f"{len(want)} results" in page and 'aria-label="Exactly 3 bedrooms" checked' in page
        assert 'aria-label="Use exact match for bedrooms" checked' in page and "Beds &amp; Baths: 3 bd, 2 ba" in page
        f = ep.finish()["initialfinaldiff"]["updated"]["filters"]
        assert (f["minBeds"], f["maxBeds"], f["minBaths"], f["maxBaths"]) == (3, 3, 2, 2)
        page = search(ep, "Los Angeles", minBeds=3, minBaths=2)  # unticked: "3+" again
        assert f"{len(find('Los Angeles', min_beds=3, min_baths=2))} results" in page and len(want) < len(
            find("Los Angeles", min_beds=3, min_baths=2))
        f = ep.finish()["initialfinaldiff"]["updated"]["filters"]
        assert "maxBeds" not in f and "maxBaths" not in f and f["minBeds"] == 3  # back to the seed's None


@pytest.mark.parametrize("beds, ok", [(2, True), (1, False)])
def test_reals_zilloft_10_reads_an_exact_match_as_a_bedroom_filter(urls, beds, ok):
    """zilloft_10 reads any key with "bed" in it: exactly 2 bedrooms passes its "at least 2", exactly 1 fails."""
    with HttpEpisode(urls["zilloft"], "v2.zilloft-10") as ep:
        search(ep, "Riverside, CA", maxPrice="500000", minBeds=beds, bedsExact=1)
        tour(ep, "92501", "2024-07-19", "10:00 AM")
        assert ep.grade(urls).success is ok
