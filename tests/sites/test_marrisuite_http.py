"""MarriSuite over real HTTP: REAL's v2 marrisuite task graded by agisdk's own script after the requests a browser
would send (SUCCESS) and after nothing (FAILURE); near misses the script must reject; its loose checks, pinned (what
it accepts that the task's words do not); the URL as the search's state; booking; bad input; isolation."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from _shop_helpers import HttpEpisode
from oracle_suite import http_suite

from real_local.marrisuite import state as st
from real_local.marrisuite.hotels import BY_ID
from real_local.marrisuite.hotels import search as find


def search(ep: HttpEpisode, dest: str, checkin: str = "", checkout: str = "", rooms: int = 1,
           guests: int = 1) -> str:
    """The results page for a search (what Find Hotels navigates to). Returns its text."""
    q = {"destination": dest, "checkIn": checkin, "checkOut": checkout, "rooms": rooms, "guests": guests}
    r = ep.client.get("/search", params=q)
    assert r.status_code == 200 and "hotel" in r.text, r.text[:400]
    return r.text


def book(ep: HttpEpisode, hid: str, room: str = "K") -> str:
    assert ep.client.get(f"/hotels/{hid}").status_code == 200
    assert ep.client.get(f"/hotels/{hid}/book", params={"room": room}).status_code == 200
    r = ep.client.post(f"/hotels/{hid}/book", data={"room": room, "name": "John Doe", "card": "4242424242424242"})
    assert r.status_code == 200 and r.url.path.startswith("/reservations/MS"), r.text[:400]
    return r.text


NEXT_WEEKEND = ("2024-07-26", "2024-07-28")
RECIPES = {"marrisuite-8": lambda ep: search(ep, "Goleta, California", *NEXT_WEEKEND)}
# plausible wrong episodes the script must reject
NEAR_MISSES = [
    ("marrisuite-8", lambda ep: search(ep, "Santa Barbara, California", *NEXT_WEEKEND)),  # the next town
    ("marrisuite-8", lambda ep: (search(ep, "Goleta, California", *NEXT_WEEKEND), book(ep, "sbago"))),  # booked
    ("marrisuite-8", lambda ep: search(ep, "Goleta, California", *NEXT_WEEKEND, rooms=2, guests=2)),  # 2 rooms
    ("marrisuite-8", lambda ep: ep.client.get("/hotels/sbago")),  # a Goleta hotel's page, never searched
    ("marrisuite-8", lambda ep: ep.client.get("/")),  # the home page
    ("marrisuite-8", lambda ep: ep.client.get("/search", params={"destination": "Goleta Beach Park"})),  # 0 hotels
]
# what the script accepts although the task's words do not (pinned, so a change in agisdk shows up here)
LOOSE = {
    "marrisuite-8/no dates": lambda ep: search(ep, "Goleta"),  # "next weekend": dates are not read
    "marrisuite-8/other dates": lambda ep: search(ep, "Goleta", "2024-12-01", "2024-12-05"),
    "marrisuite-8/a whole state": lambda ep: search(ep, "California"),  # Goleta's hotels among 10 in California
}

globals().update(http_suite("marrisuite", RECIPES, NEAR_MISSES, LOOSE))


def test_a_fresh_session_has_none_of_the_scripts_words(urls):
    """The script joins every key and string of the finish JSON: a fresh session must name no city or hotel."""
    with HttpEpisode(urls["marrisuite"], "marrisuite-8") as ep:
        assert ep.client.get("/").status_code == 200
        text = str(ep.finish()).lower()
        for word in ("goleta", "hotel", "results", "available", "map", "rooms"):
            assert word not in text, word


def test_search_records_what_the_page_shows(urls):
    with HttpEpisode(urls["marrisuite"], "marrisuite-8") as ep:
        text = search(ep, "goleta ca", *NEXT_WEEKEND, rooms=1, guests=2)
        assert "3 hotels in goleta ca" in text and "2 nights" in text and "1 Room, 2 Guests" in text
        f = ep.finish()
        assert f["differences"]["search"]["updated"] == {"destination": "goleta ca", "checkIn": "2024-07-26",
                                                          "checkOut": "2024-07-28", "guests": 2,
                                                          "summary": "1 Room, 2 Guests"}
        names = [h["name"] for h in f["initialfinaldiff"]["added"]["searchResults"].values()]
        assert names == ["Courtyard Santa Barbara Goleta", "Residence Inn Santa Barbara Goleta",
                         "The Ritz-Carlton Bacara, Santa Barbara"]


def test_destination_search_matches_city_state_and_abbreviation():
    goleta = [h.id for h in find("Goleta, California")]
    assert goleta == ["sbago", "sbagr", "sbabg"] == [h.id for h in find("goleta ca")] == [h.id for h in find("GOLETA")]
    assert [h.id for h in find("Santa Barbara")] == ["sbasb", "sbaca"]
    assert len(find("California")) == 10 and find("Gotham") == [] and find("") == []


def test_booking_records_a_confirmed_reservation(urls):
    with HttpEpisode(urls["marrisuite"], "marrisuite-8") as ep:
        search(ep, "Goleta", *NEXT_WEEKEND, rooms=2, guests=3)
        text = book(ep, "sbagr", "QQ")
        assert "Reservation confirmed" in text
        (r,) = ep.finish()["differences"]["reservations"]["added"]
        assert r["hotel"] == "Residence Inn Santa Barbara Goleta" and r["total"] == 269 * 2 * 2
        assert (r["checkIn"], r["checkOut"], r["rooms"], r["guests"], r["cardLast4"]) == (*NEXT_WEEKEND, 2, 3, "4242")


def test_seed_is_deterministic_and_fresh():
    a, b = st.seed("marrisuite-8"), st.seed("marrisuite-8")
    assert a == b and a is not b
    a["reservations"].append({})
    assert st.seed("marrisuite-8")["reservations"] == []


def test_finish_is_reals_json_and_config_starts_fresh(urls):
    with HttpEpisode(urls["marrisuite"], "marrisuite-8") as ep:
        search(ep, "Goleta", *NEXT_WEEKEND)
        f = ep.finish()
        assert set(f) == {"config", "differences", "initialfinaldiff"} and f["config"]["task_id"] == "marrisuite-8"
        ep.client.get("/config", params={"run_id": "1", "task_id": "marrisuite-8", "latency": 0})
        assert ep.finish()["initialfinaldiff"] == {"added": {}, "deleted": {}, "updated": {}}


@pytest.mark.parametrize("params,why", [
    ({"destination": ""}, "Type a destination"),
    ({"destination": "Goleta", "checkIn": "26.07.2024", "checkOut": "2024-07-28"}, "Enter a valid check-in date"),
    ({"destination": "Goleta", "checkIn": "2024-07-26", "checkOut": "someday"}, "Enter a valid check-out date"),
    ({"destination": "Goleta", "checkIn": "2024-07-26"}, "both a check-in and a check-out"),
    ({"destination": "Goleta", "checkIn": "2024-07-01", "checkOut": "2024-07-03"}, "before today"),
    ({"destination": "Goleta", "checkIn": "2024-07-28", "checkOut": "2024-07-26"}, "after check-in"),
    ({"destination": "Goleta", "rooms": "9"}, "Rooms are 1 to"),
    ({"destination": "Goleta", "rooms": "3", "guests": "2"}, "at least one guest"),
])
def test_bad_input_gets_a_clear_error(urls, params, why):
    with HttpEpisode(urls["marrisuite"], "marrisuite-8") as ep:
        r = ep.client.get("/search", params=params)
        assert r.status_code == 400 and why in r.text
        assert ep.finish()["initialfinaldiff"]["updated"] == {}


def test_bad_bookings_get_a_clear_error(urls):
    with HttpEpisode(urls["marrisuite"], "marrisuite-8") as ep:
        assert ep.client.get("/hotels/nope").status_code == 404
        assert ep.client.get("/hotels/sbago/book", params={"room": "K"}).status_code == 400  # no dates yet
        search(ep, "Goleta", *NEXT_WEEKEND)
        assert ep.client.get("/hotels/sbago/book", params={"room": "ZZ"}).status_code == 404
        r = ep.client.post("/hotels/sbago/book", data={"room": "K", "name": "John", "card": "12"})
        assert r.status_code == 400 and "card number" in r.text
        assert ep.finish()["differences"]["reservations"]["added"] == []
        assert BY_ID["sbago"].city == "Goleta, California"


def test_two_sessions_never_share_state(urls):
    def run(i: int) -> tuple[str, str]:
        with HttpEpisode(urls["marrisuite"], "marrisuite-8", run_id=str(i)) as ep:
            dest = ("Goleta", "Santa Barbara", "San Francisco", "New York")[i % 4]
            search(ep, dest, "2024-08-0" + str(1 + i % 4), "2024-08-1" + str(i % 4))
            u = ep.finish()["differences"]["search"]["updated"]
            return u["destination"], u["checkIn"]

    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(run, range(8)))
    assert got == [(("Goleta", "Santa Barbara", "San Francisco", "New York")[i % 4], f"2024-08-0{1 + i % 4}")
                   for i in range(8)]
