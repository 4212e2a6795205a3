"""UDriver over real HTTP: every REAL v2 udriver task graded by agisdk's own script after the requests a browser
would send (SUCCESS) and after nothing (FAILURE); near misses each script must reject; the loose script, pinned;
fares, the wallet, bad input, isolation."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from _shop_helpers import HttpEpisode
from oracle_suite import http_suite

from real_local.udriver import state as st
from real_local.udriver.places import BY_ID, PLACES, fare, find_places

NAME = {p.name: p.id for p in PLACES}


def prices(ep: HttpEpisode, pickup: str, dropoff: str, time: str = "Now", date: str = "7/18/2024") -> None:
    """The ride form with place names (exact), as the page posts it; lands on the ride options."""
    c = ep.client
    assert c.get("/").status_code == 200
    r = c.post("/ride/search", data={"pickup": pickup, "dropoff": dropoff, "pickupId": NAME[pickup],
                                     "dropoffId": NAME[dropoff], "time": time, "date": date})
    assert r.status_code == 200 and r.url.path == "/ride/options", r.text[:500]


def ride(ep: HttpEpisode, pickup: str, dropoff: str, car: str = "UdriverX", payment: str = "wallet",
         **when: str) -> dict:
    prices(ep, pickup, dropoff, **when)
    r = ep.client.post("/ride/book", data={"car": car, "payment": payment})
    assert r.status_code == 200 and r.url.path.startswith("/trips/"), r.text[:500]
    return ep.finish()


def wallet(ep: HttpEpisode, action: str, **form: str) -> None:
    r = ep.client.post(f"/wallet/{action}", data=form)
    assert r.status_code == 200 and r.url.path == "/wallet", r.text[:500]


RECIPES = {
    "udriver-11": lambda ep: ride(ep, "Club X", "Fox Plaza Apartments"),
    "udriver-13": lambda ep: ride(ep, "Golden Gate Apartments", "Chase Bank (Financial District)"),
    "udriver-14": lambda ep: wallet(ep, "default", id="1"),
    "udriver-15": lambda ep: ride(ep, "388 Beale Street", "Amber India Restaurant", "UdriverXL", "1"),
    "udriver-16": lambda ep: ride(ep, "1 Hotel San Francisco", "100 Van Ness Ave"),
    "udriver-17": lambda ep: prices(ep, "333 Fremont Apartments", "201 Turk Street Apartments", "3:30 PM"),
    "udriver-19": lambda ep: prices(ep, "AI Electronics Center.com", "333 Fremont Apartments"),
    "udriver-2": lambda ep: wallet(ep, "topup", amount="100", payment="1"),
    "udriver-20": lambda ep: ride(ep, "Club 26 Mix", "100 Van Ness Ave", "UdriverGreen"),
    "udriver-3": lambda ep: ride(ep, "1001 Castro Street", "1030 Post Street Apartments"),
    "udriver-4": lambda ep: ride(ep, "1000 Chestnut St", "Rooftop 25"),
    "udriver-6": lambda ep: ride(ep, "Aaha Indian Cuisine", "Casa Loma Hotel"),
    "udriver-7": lambda ep: ride(ep, "22nd & Irving", "7-Eleven (Geary Blvd)"),
    "udriver-9": lambda ep: ride(ep, "1 Hotel San Francisco", "1030 Post Street Apartments", "UdriverXL", "cash"),
}

# plausible wrong episodes each script must reject
NEAR_MISSES = [
    ("udriver-11", lambda ep: ride(ep, "Fox Plaza Apartments", "Club X")),  # the wrong way round
    ("udriver-11", lambda ep: prices(ep, "Club X", "Fox Plaza Apartments")),  # never booked
    ("udriver-13", lambda ep: ride(ep, "Golden Gate Apartments", "Chase Bank (Union Square)", "UdriverXL", "1")),
    ("udriver-13", lambda ep: ride(ep, "Golden Gate Apartments", "Chase Center")),
    ("udriver-13", lambda ep: ride(ep, "Golden Gate Park", "Chase Bank (Union Square)")),
    ("udriver-13", lambda ep: ride(ep, "Golden Gate Apartments", "Chase Bank (Union Square)", time="11:00 AM")),
    ("udriver-14", lambda ep: wallet(ep, "default", id="cash")),
    ("udriver-14", lambda ep: wallet(ep, "topup", amount="25", payment="1")),
    ("udriver-15", lambda ep: ride(ep, "388 Beale Street", "Amber India Restaurant", "UdriverX", "1")),
    ("udriver-15", lambda ep: ride(ep, "Amber India Restaurant", "388 Beale Street", "UdriverXL", "1")),
    ("udriver-16", lambda ep: ride(ep, "100 Van Ness Ave", "1 Hotel San Francisco")),
    ("udriver-16", lambda ep: prices(ep, "1 Hotel San Francisco", "100 Van Ness Ave")),
    ("udriver-17", lambda ep: prices(ep, "333 Fremont Apartments", "201 Turk Street Apartments", "4:00 PM")),
    ("udriver-17", lambda ep: prices(ep, "333 Fremont Apartments", "201 Turk Street Apartments")),  # now
    ("udriver-17", lambda ep: prices(ep, "333 Fremont Apartments", "201 Turk Street Apartments", "3:30 PM",
                                     "7/19/2024")),
    ("udriver-17", lambda ep: prices(ep, "201 Turk Street Apartments", "333 Fremont Apartments", "3:30 PM")),
    ("udriver-19", lambda ep: prices(ep, "333 Fremont Apartments", "AI Electronics Center.com")),
    ("udriver-2", lambda ep: wallet(ep, "topup", amount="50", payment="1")),
    ("udriver-2", lambda ep: (wallet(ep, "topup", amount="50", payment="1"),
                              wallet(ep, "topup", amount="50", payment="1"))),  # $125.50, but no $100 top-up
    ("udriver-2", lambda ep: (wallet(ep, "topup", amount="100", payment="1"),
                              wallet(ep, "topup", amount="100", payment="1"))),
    ("udriver-20", lambda ep: ride(ep, "Club 26 Mix", "100 Van Ness Ave")),  # UdriverX is not the cheapest
    ("udriver-20", lambda ep: ride(ep, "100 Van Ness Ave", "Club 26 Mix", "UdriverGreen")),
    ("udriver-3", lambda ep: ride(ep, "1030 Post Street Apartments", "1001 Castro Street")),
    ("udriver-4", lambda ep: ride(ep, "Rooftop 25", "1000 Chestnut St")),
    ("udriver-4", lambda ep: prices(ep, "1000 Chestnut St", "Rooftop 25")),
    ("udriver-6", lambda ep: ride(ep, "Aaha Indian Cuisine", "Casa Loma Hotel", payment="1")),  # not credits
    ("udriver-6", lambda ep: ride(ep, "Casa Loma Hotel", "Aaha Indian Cuisine")),
    ("udriver-7", lambda ep: ride(ep, "Golden Gate Park", "7-Eleven (Irving St)")),
    ("udriver-9", lambda ep: ride(ep, "1 Hotel San Francisco", "1030 Post Street Apartments", "UdriverXL", "1")),
    ("udriver-9", lambda ep: ride(ep, "1 Hotel San Francisco", "1030 Post Street Apartments", "UdriverX", "cash")),
    ("udriver-9", lambda ep: ride(ep, "1 Hotel San Francisco", "1030 Post Street Apartments", "UdriverXL", "cash",
                                  time="2:00 PM")),  # scheduled, not now
]
# what the loose script accepts although the task's words do not (pinned, so a change in agisdk shows up here):
# "choose whatever ride I have enough credits for": a $32.80 XL on the card passes (credits $25.50)
LOOSE = {"udriver-11": lambda ep: ride(ep, "Club X", "Fox Plaza Apartments", "UdriverXL", "1")}


globals().update(http_suite("udriver", RECIPES, NEAR_MISSES, LOOSE, load_home=True))


def test_app_slices_appear_whole_under_added(urls):
    """REAL's scripts read config, ride and user whole under initialfinaldiff.added (lists as lists)."""
    with HttpEpisode(urls["udriver"], "udriver-3") as ep:
        assert ep.finish()["initialfinaldiff"]["added"] == {}
        fin = ride(ep, "1001 Castro Street", "1030 Post Street Apartments")
    added = fin["initialfinaldiff"]["added"]
    assert set(added) == {"config", "ride", "user"} and not fin["initialfinaldiff"]["updated"].get("ride")
    assert isinstance(added["ride"]["trips"], list) and len(added["ride"]["trips"]) == 3
    assert isinstance(added["user"]["wallet"]["paymentMethods"], list)
    assert added["config"]["udriver"]["cars"]["UdriverGreen"] == {"multiplier": 1.05, "discount": 0.1}
    t = added["ride"]["trip"]
    assert (t["status"], t["car"]["type"], t["car"]["finalPrice"]) == ("completed", "UdriverX", 19.25)
    assert added["user"]["wallet"]["balance"] == 6.25
    assert added["user"]["wallet"]["transactions"][-1] == {
        "id": "tx-3", "type": "debit", "amount": -19.25, "description": "Trip to 1030 Post Street Apartments",
        "date": "7/18/2024", "paymentMethod": "UDriver Credits"}
    assert list(fin["differences"]["trips"]["added"]) == ["2"]


def test_fares_follow_the_config():
    p, d = BY_ID[701], BY_ID[717]  # Club 26 Mix -> 100 Van Ness: base 19.25
    got = {t: fare(p, d, t)["finalPrice"] for t in ("UdriverX", "UdriverGreen", "UdriverXL", "UdriverBlack")}
    assert got == {"UdriverX": 19.25, "UdriverGreen": 18.19, "UdriverXL": 30.8, "UdriverBlack": 42.35}


def test_place_names_resolve_as_people_type_them():
    cases = {"Golden Gates apartments": ["Golden Gate Apartments"], "Amber Indian Restaurants":
             ["Amber India Restaurant"], "22 and Irving Street": ["22nd & Irving"], "388 Beale": ["388 Beale Street"],
             "100 Van Ness Ave, San Francisco": ["100 Van Ness Ave"], "Club X": ["Club X"], "nowhere at all": []}
    for typed, want in cases.items():
        assert [p.name for p in find_places(typed)] == want, typed
    assert {p.name for p in find_places("7/11")} == {"7-Eleven (Irving St)", "7-Eleven (Geary Blvd)"}
    assert {p.name for p in find_places("chase bank")} == {"Chase Bank (Union Square)",
                                                           "Chase Bank (Financial District)"}


def test_ambiguous_names_ask_which_place(urls):
    with HttpEpisode(urls["udriver"], "udriver-13") as ep:
        form = {"pickup": "Golden Gates apartments", "dropoff": "chase bank", "time": "Now", "date": "7/18/2024"}
        r = ep.client.post("/ride/search", data=form)
        assert r.status_code == 200 and "Choose your drop-off" in r.text and "Chase Center" not in r.text
        r = ep.client.post("/ride/search", data={**form, "dropoffId": "622"})
        assert r.url.path == "/ride/options" and "Chase Bank (Financial District)" in r.text


def test_schedule_and_insufficient_credits(urls):
    with HttpEpisode(urls["udriver"], "udriver-17") as ep:
        prices(ep, "333 Fremont Apartments", "201 Turk Street Apartments", "3:30 PM")
        r = ep.client.post("/ride/book", data={"car": "UdriverXL", "payment": "wallet"})
        assert r.url.path.startswith("/trips/") and "Ride scheduled" in r.text
        ride_ = ep.finish()["initialfinaldiff"]["added"]["ride"]
        assert (ride_["pickupDate"], ride_["pickupTime"]) == ("7/18/2024", "3:30 PM")
        assert ride_["bookedTrip"]["status"] == "scheduled" and len(ride_["trips"]) == 2
    with HttpEpisode(urls["udriver"], "udriver-11") as ep:
        prices(ep, "Club X", "Fox Plaza Apartments")
        r = ep.client.post("/ride/book", data={"car": "UdriverBlack", "payment": "wallet"})
        assert r.status_code == 400 and "do not cover" in r.text
        assert ep.finish()["differences"]["trips"]["added"] == {}


def test_choosing_a_ride_type_updates_the_calculated_price(urls):
    with HttpEpisode(urls["udriver"], "udriver-19") as ep:
        prices(ep, "AI Electronics Center.com", "333 Fremont Apartments")
        assert ep.finish()["initialfinaldiff"]["added"]["ride"]["calculatedPrice"]["finalPrice"] == 15.5
        r = ep.client.post("/api/ride/select", data={"car": "UdriverXL"})
        assert r.status_code == 200 and r.json()["calculatedPrice"]["finalPrice"] == 24.8
        ride_ = ep.finish()["initialfinaldiff"]["added"]["ride"]
        assert ride_["selectedCar"] == "UdriverXL" and ride_["calculatedPrice"]["type"] == "UdriverXL"
        assert ep.client.post("/api/ride/select", data={"car": "Rocket"}).status_code == 400


def test_wallet_default_and_topup(urls):
    with HttpEpisode(urls["udriver"], "udriver-14") as ep:
        wallet(ep, "default", id="1")
        wallet(ep, "topup", other="$40", payment="1")
        w = ep.finish()["initialfinaldiff"]["added"]["user"]["wallet"]
        assert [m["id"] for m in w["paymentMethods"] if m["isDefault"]] == ["1"] and w["balance"] == 65.5
        assert ep.finish()["initialfinaldiff"]["added"]["ride"]["selectedPaymentMethod"]["id"] == "1"


def test_seed_is_deterministic_and_fresh():
    a, b = st.seed("v2.udriver-1"), st.seed("v2.udriver-1")
    assert a == b and a is not b and set(a) == {"router"}
    st.materialize(a)
    st.materialize(b)
    assert a == b and a["ride"]["trips"] is not b["ride"]["trips"]
    a["ride"]["trips"].clear()
    st.materialize(b)
    assert len(b["ride"]["trips"]) == 2


def test_bad_input_gets_a_clear_error(urls):
    with HttpEpisode(urls["udriver"], "udriver-3") as ep:
        c = ep.client
        base = {"time": "Now", "date": "7/18/2024"}
        r = c.post("/ride/search", data={**base, "pickup": "Atlantis", "dropoff": "Club X"})
        assert r.status_code == 400 and "No place matches" in r.text
        r = c.post("/ride/search", data={**base, "pickup": "", "dropoff": "Club X"})
        assert r.status_code == 400 and "Enter a pickup" in r.text
        r = c.post("/ride/search", data={**base, "pickup": "Club X", "dropoff": "Club X"})
        assert r.status_code == 400 and "different drop-off" in r.text
        for date, time, msg in (("7/18/2024", "9:00 AM", "has passed"), ("8/30/2024", "3:00 PM", "30 days"),
                                ("tomorrow", "3:00 PM", "must look like")):
            r = c.post("/ride/search", data={"pickup": "Club X", "dropoff": "Rooftop 25", "time": time,
                                             "date": date})
            assert r.status_code == 400 and msg in r.text, (date, time)
        r = c.post("/ride/book", data={"car": "UdriverX", "payment": "wallet"})
        assert r.status_code == 400 and "pickup and a drop-off" in r.text
        prices(ep, "Club X", "Rooftop 25")
        r = c.post("/ride/book", data={"car": "Rocket", "payment": "wallet"})
        assert r.status_code == 400 and "ride type" in r.text
        r = c.post("/ride/book", data={"car": "UdriverX", "payment": "bitcoin"})
        assert r.status_code == 400 and "payment method" in r.text
        for form, msg in (({"amount": "100", "payment": "wallet"}, "with a card"),
                          ({"amount": "9999", "payment": "1"}, "between"), ({"other": "lots", "payment": "1"},
                                                                           "number")):
            r = c.post("/wallet/topup", data=form)
            assert r.status_code == 400 and msg in r.text, form
        assert c.post("/wallet/default", data={"id": "nope"}).status_code == 400
        assert c.post("/wallet/explode", data={}).status_code == 404
        assert c.get("/trips/trip-9").status_code == 404
        d = ep.finish()["differences"]
        assert d["trips"]["added"] == {} and d["transactions"]["added"] == {}


def test_two_sessions_never_share_state(urls):
    def run(name: str) -> tuple:
        with HttpEpisode(urls["udriver"], name) as ep:
            RECIPES[name](ep)
            d = ep.finish()["differences"]
            return ([t["destination"]["name"] for t in d["trips"]["added"].values()],
                    [x["description"] for x in d["transactions"]["added"].values()])

    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(run, ["udriver-3", "udriver-2", "udriver-7", "udriver-14"]))
    assert got == [(["1030 Post Street Apartments"], ["Trip to 1030 Post Street Apartments"]),
                   ([], ["Wallet Top-up"]), (["7-Eleven (Geary Blvd)"], ["Trip to 7-Eleven (Geary Blvd)"]), ([], [])]
