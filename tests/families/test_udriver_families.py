"""UDriver's own family checks; what every site's families keep (instances, graders, oracles and near misses
played in real Chromium, progress along the oracles) is checked in ``test_family_contract.py``. Its instances
(702 routes between 27 places, four ride types, three payment methods) are checked here to be doable: every place
found by what a solution types, every ride paid with credits covered by them, every scheduled time bookable. Its
near misses (another screen, place, ride type, payment, day, time or amount, a reversed route, a ride priced but
never requested) are in ``family_oracles_udriver.py``."""

from __future__ import annotations

from halo.tasks.families import get_family


# ---------------------------------------------------------------- generators (no browser)
def test_every_place_a_goal_names_is_found_by_what_a_solution_types():
    """The ride form finds exactly the named place from the text the goal gives (no chooser page)."""
    from halo.tasks.families.udriver import place_text, place_typed
    from real_local.udriver.places import PLACES, find_places

    for p in PLACES:
        assert find_places(place_typed(p.id)) == [p] and place_typed(p.id) in place_text(p.id), p.name


def test_rides_paid_with_credits_are_ones_the_credits_cover():
    from halo.tasks.families.udriver import fare_of
    from real_local.udriver.state import START_BALANCE

    paid = [p for p in get_family("udriver.ride").space() if p["payment"] == "wallet"]
    assert len(paid) > 400 and all(fare_of((p["pickup"], p["dropoff"]), p["type"]) <= START_BALANCE for p in paid)


def test_scheduled_times_are_bookable():
    from real_local.udriver.state import parse_schedule

    for p in get_family("udriver.schedule").space():
        assert parse_schedule(p["date"], p["time"]) == (p["date"], p["time"])
