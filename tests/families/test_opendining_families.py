"""OpenDining's own family checks; what every site's families keep (instances, graders, oracles and near misses
played in real Chromium, progress along the oracles) is checked in ``test_family_contract.py``. Its instances
(seventeen restaurants, their open slots, party sizes, dates and guests' contact details) are checked here to be
reservations the site can make, and the typed families' goals to name what a solution types. Its near misses
(another cuisine or neighborhood, restaurant, date, time, party size, guest detail, occasion or request; a
reservation never completed) are in ``family_oracles_opendining.py``."""

from __future__ import annotations

from halo.tasks.families import get_family


# ---------------------------------------------------------------- generators (no browser)
def test_every_reservation_asked_for_can_be_made():
    """Each time is one the restaurant seats and not fully booked; each party fits the restaurant; each date is
    one the site books."""
    from real_local.opendining.state import check_slot, parse_date

    for name in ("opendining.reserve", "opendining.book", "opendining.occasion"):
        for p in get_family(name).space():
            d = parse_date(p.get("date", ""))
            check_slot(p["restaurant"], d, p["time"], p["party"])


def test_the_typed_families_name_what_they_type():
    for name in ("opendining.find", "opendining.book", "opendining.occasion"):
        f = get_family(name)
        for inst in f.instances("all", limit=20):
            typed = [t for t in f.typed(inst.params) if t != inst.params.get("date") and "people" not in t
                     and t != inst.params.get("occasion")]
            assert all(t in inst.goal for t in typed), (typed, inst.goal)
