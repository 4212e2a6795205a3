"""OpenDining over real HTTP: every REAL v2 opendining task graded by agisdk's own script after the requests a
browser would send (SUCCESS) and after nothing (FAILURE); near misses each script must reject; the loose scripts,
pinned (what they accept that the task's words do not); slots, bad input, isolation."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from _shop_helpers import HttpEpisode
from oracle_suite import http_suite

from real_local.opendining import state as st
from real_local.opendining.restaurants import RESTAURANTS, search, slots

ID = {r.name: r.id for r in RESTAURANTS}
TODAY = "2024-07-18"


def book(ep: HttpEpisode, name: str, time: str, party: int = 2, date: str = TODAY, occasion: str = "") -> dict:
    """Open the restaurant, find the time, open the slot's form, complete it. Returns the new bookingDetails entry."""
    c, rid = ep.client, ID[name]
    q = {"date": date, "time": time, "party": party}
    assert c.get(f"/restaurant/{rid}", params=q).status_code == 200
    assert c.get("/booking", params={"rid": rid, **q}).status_code == 200
    r = c.post("/booking", data={"rid": rid, **q, **st.USER, "occasion": occasion, "request": ""})
    assert r.status_code == 200 and r.url.path.startswith("/reservations/"), r.text[:500]
    return ep.finish()["initialfinaldiff"]["added"]["booking"]["bookingDetails"]


def notify(ep: HttpEpisode, name: str, time: str, party: int = 2) -> None:
    r = ep.client.post("/notify", data={"rid": ID[name], "date": TODAY, "time": time, "party": party})
    assert r.status_code == 200 and "notify you when" in r.text


RECIPES = {
    "opendining-1": lambda ep: book(ep, "Trattoria Roma", "3:00 PM"),
    "opendining-12": lambda ep: book(ep, "River View Café", "3:00 PM", 5, "2025-09-29"),
    "opendining-17": lambda ep: book(ep, "Haight Street Kitchen", "8:00 PM", 6, "2024-09-22", "Business meal"),
    "opendining-2": lambda ep: book(ep, "The Golden Fork", "7:30 PM", 2, occasion="Birthday"),
    "opendining-20": lambda ep: notify(ep, "Evening Delight", "5:00 PM"),
    "opendining-24": lambda ep: book(ep, "Trattoria Roma", "12:30 PM"),
    "opendining-4": lambda ep: book(ep, "Bella Notte", "9:00 PM"),
    "opendining-5": lambda ep: book(ep, "Bella Notte", "8:00 PM", 2, occasion="Birthday"),
    "opendining-6": lambda ep: book(ep, "Liberty Grill", "1:30 PM"),
    "opendining-7": lambda ep: book(ep, "Harbor Lights Seafood", "7:00 PM"),
    "opendining-9": lambda ep: book(ep, "Sunrise Diner", "8:00 AM"),
}

# plausible wrong episodes each script must reject
NEAR_MISSES = [
    ("opendining-1", lambda ep: book(ep, "Trattoria Roma", "4:00 PM")),
    ("opendining-1", lambda ep: book(ep, "Liberty Grill", "3:00 PM")),  # American
    ("opendining-12", lambda ep: book(ep, "River View Café", "3:00 PM", 4, "2025-09-29")),
    ("opendining-12", lambda ep: book(ep, "River View Café", "3:30 PM", 5, "2025-09-29")),
    ("opendining-12", lambda ep: book(ep, "Harbor Lights Seafood", "3:00 PM", 5, "2025-09-29")),
    ("opendining-17", lambda ep: book(ep, "Haight Street Kitchen", "8:00 PM", 6, "2024-09-22")),  # no occasion
    ("opendining-17", lambda ep: book(ep, "Haight Street Kitchen", "8:00 PM", 6, "2024-09-22", "Birthday")),
    ("opendining-17", lambda ep: book(ep, "Haight Street Kitchen", "7:30 PM", 6, "2024-09-22", "Business meal")),
    ("opendining-17", lambda ep: book(ep, "Haight Street Kitchen", "8:00 PM", 5, "2024-09-22", "Business meal")),
    ("opendining-2", lambda ep: book(ep, "The Golden Fork", "7:30 PM", 3, occasion="Birthday")),
    ("opendining-2", lambda ep: book(ep, "The Golden Fork", "7:30 PM")),  # no occasion
    ("opendining-2", lambda ep: book(ep, "Bella Notte", "7:30 PM", occasion="Birthday")),  # Italian
    ("opendining-2", lambda ep: book(ep, "The Golden Fork", "8:30 PM", occasion="Birthday")),
    ("opendining-20", lambda ep: book(ep, "Evening Delight", "5:30 PM")),
    ("opendining-24", lambda ep: book(ep, "Trattoria Roma", "1:00 PM")),
    ("opendining-24", lambda ep: book(ep, "The Golden Fork", "12:30 PM")),
    ("opendining-4", lambda ep: book(ep, "Pasta Presto", "9:00 PM")),  # 2.9 stars
    ("opendining-4", lambda ep: book(ep, "Bella Notte", "8:00 PM")),
    ("opendining-5", lambda ep: book(ep, "Liberty Grill", "8:00 PM", occasion="Birthday")),  # 3.8 stars
    ("opendining-5", lambda ep: book(ep, "Bella Notte", "8:00 PM", 3, occasion="Birthday")),
    ("opendining-5", lambda ep: book(ep, "Bella Notte", "8:00 PM")),  # no occasion
    ("opendining-6", lambda ep: book(ep, "Liberty Grill", "2:00 PM")),
    ("opendining-6", lambda ep: book(ep, "Liberty Grill", "1:30 PM", date="2024-07-19")),
    ("opendining-7", lambda ep: book(ep, "Bella Notte", "7:00 PM")),  # North Beach
    ("opendining-9", lambda ep: book(ep, "Sunrise Diner", "10:00 AM")),
    ("opendining-9", lambda ep: book(ep, "Morning Glory Bakery", "8:00 AM")),  # 2.7 stars
]
# what the loose scripts accept although the task's words do not (pinned, so a change in agisdk shows up here)
LOOSE = {
    "opendining-20": lambda ep: book(ep, "Crowded Corner", "5:00 PM"),  # any restaurant at 5 PM
    "opendining-7": lambda ep: book(ep, "Ferry Dock Dogs", "7:00 PM"),  # "over 3 stars": 2.6 stars passes
    "opendining-17": lambda ep: book(ep, "Prime & Vine", "8:00 PM", 6, "2024-09-22", "Business meal"),  # SoMa
    "opendining-12": lambda ep: book(ep, "River View Café", "3:00 PM", 5),  # today, not Sep 29, 2025
    "opendining-1": lambda ep: book(ep, "Trattoria Roma", "3:00 PM", date="2024-07-25"),  # not today
}


globals().update(http_suite("opendining", RECIPES, NEAR_MISSES, LOOSE))


def test_browsing_and_searching_alone_fail_every_task(urls):
    for name in sorted(RECIPES):
        with HttpEpisode(urls["opendining"], name) as ep:
            c = ep.client
            c.get("/search", params={"term": "Italian", "time": "3:00 PM", "party": 5})
            c.get(f"/restaurant/{ID['Evening Delight']}", params={"time": "5:00 PM"})
            c.get("/booking", params={"rid": ID["Trattoria Roma"], "date": TODAY, "time": "3:00 PM", "party": 2})
            assert not ep.grade(urls).success, name


def test_reservation_record_is_reals_shape(urls):
    with HttpEpisode(urls["opendining"], "opendining-17") as ep:
        details = RECIPES["opendining-17"](ep)
        fin = ep.finish()
    (e,) = details.values()
    assert e["restaurant"]["id"] == ID["Haight Street Kitchen"] and e["restaurant"]["food_type"] == "Californian"
    assert (e["date"], e["time"], e["guests"]) == ("2024-09-22T07:00:00.000Z", "8:00 PM", "6 people")
    assert e["optionals"]["occasion"] == "Business meal"
    assert fin["initialfinaldiff"]["added"]["booking"]["index"] == 1
    assert fin["initialfinaldiff"]["updated"]["booking"]["bookingCompleted"] is True
    assert list(fin["differences"]["reservations"]["added"]) == ["0"]
    assert ID["River View Café"] == "cd4f81d3-3c75-4c67-b47b-e7f013f6ae9d"  # REAL's id (opendining-12 reads it)


def test_slots_hours_and_fully_booked():
    ed = next(r for r in RESTAURANTS if r.name == "Evening Delight")
    assert slots(ed, 17 * 60) == [("5:00 PM", False), ("5:30 PM", True), ("6:00 PM", True), ("6:30 PM", True),
                                  ("7:00 PM", True)]
    diner = next(r for r in RESTAURANTS if r.name == "Sunrise Diner")
    assert [t for t, _ in slots(diner, 20 * 60)] == ["1:00 PM", "1:30 PM", "2:00 PM", "2:30 PM", "3:00 PM"]
    assert [r.name for r in search(location="Embarcadero", min_rating=3)] == ["River View Café",
                                                                             "Harbor Lights Seafood", "Crowded Corner"]
    assert {r.food_type for r in search("italian")} == {"Italian"}


def test_seed_is_deterministic_and_fresh():
    a, b = st.seed("v2.opendining-1"), st.seed("v2.opendining-1")
    assert a == b and a["booking"] is not b["booking"] and "index" not in a["booking"]
    a["booking"]["bookingDetails"].append({})
    assert st.seed(None)["booking"]["bookingDetails"] == []


def test_config_starts_fresh_and_finish_is_reals_json(urls):
    with HttpEpisode(urls["opendining"], "opendining-9", run_id="r3") as ep:
        RECIPES["opendining-9"](ep)
        r = ep.client.get("/finish")
        assert r.status_code == 200 and "<pre>" in r.text and "bookingDetails" in r.text
        assert ep.finish()["config"] == {"run_id": "r3", "task_id": "opendining-9", "latency": 0,
                                         "hide_aria_labels": False}
        ep.client.get("/config", params={"task_id": "v2.opendining-9"})
        assert ep.finish()["initialfinaldiff"]["added"] == {}


def test_bad_input_gets_a_clear_error(urls):
    with HttpEpisode(urls["opendining"], "opendining-1") as ep:
        c, rid = ep.client, ID["Sunrise Diner"]
        assert c.get("/restaurant/nope").status_code == 404
        assert c.get("/search", params={"cuisine": "Martian"}).status_code == 400
        assert c.get("/search", params={"location": "Atlantis"}).status_code == 400
        assert c.get("/search", params={"rating": "9"}).status_code == 400
        for bad in ({"date": "2023-01-01"}, {"date": "2026-06-01"}, {"date": "tomorrow"}, {"time": "25:00"},
                    {"party": "0"}, {"party": "many"}):
            r = c.get("/search", params=bad)
            assert r.status_code == 400, bad
        q = {"rid": rid, "date": TODAY, "party": 2}
        r = c.get("/booking", params={**q, "time": "9:00 PM"})  # closed
        assert r.status_code == 400 and "outside those hours" in r.text
        r = c.get("/booking", params={"rid": ID["Evening Delight"], "date": TODAY, "time": "5:00 PM", "party": 2})
        assert r.status_code == 400 and "fully booked" in r.text
        r = c.get("/booking", params={"rid": ID["Psychedelic Taqueria"], "date": TODAY, "time": "7:00 PM",
                                      "party": 8})
        assert r.status_code == 400 and "up to 6" in r.text
        r = c.post("/booking", data={**q, "time": "8:00 AM", **st.USER, "email": "nope"})
        assert r.status_code == 400 and "not an email" in r.text
        r = c.post("/booking", data={**q, "time": "8:00 AM", **st.USER, "lastName": " "})
        assert r.status_code == 400 and "lastName" in r.text
        r = c.post("/booking", data={**q, "time": "8:00 AM", **st.USER, "occasion": "Wake"})
        assert r.status_code == 400 and "occasion" in r.text
        assert c.get("/reservations/7").status_code == 404
        assert ep.finish()["differences"]["reservations"]["added"] == {}


def test_two_sessions_never_share_state(urls):
    def run(name: str) -> list:
        with HttpEpisode(urls["opendining"], name) as ep:
            RECIPES[name](ep)
            return [e["restaurant"]["name"] for e in ep.finish()["differences"]["reservations"]["added"].values()]

    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(run, ["opendining-1", "opendining-9", "opendining-7", "opendining-12"]))
    assert got == [["Trattoria Roma"], ["Sunrise Diner"], ["Harbor Lights Seafood"], ["River View Café"]]
