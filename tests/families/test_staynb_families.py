"""StayNB's own family checks; what every site's families keep (instances, graders, oracles and near misses played
in real Chromium, progress along the oracles) is checked in ``test_family_contract.py``. Its instances (fourteen
destinations of six places each, dates to the end of 2025, guest counts, amenities) are checked here to be found
and booked on the site, and the typed families' goals to name what a solution types. Its near misses (another
destination, night, place, date, guest count or amenity; a search never filtered; a stay never paid for) are in
``family_oracles_staynb.py``."""

from __future__ import annotations

from halo.tasks.families import get_family


# ---------------------------------------------------------------- generators (no browser)
def test_every_stay_asked_for_can_be_found_and_booked():
    """Each searched stay has a place with that amenity for those guests; each booked place takes its adults; every
    destination a goal names is found by what a solution types (no chooser page); every date is one the site takes."""
    from halo.tasks.families.staynb import where_typed
    from real_local.staynb.listings import BY_ID, resolve, search
    from real_local.staynb.state import parse_dates

    for p in get_family("staynb.search").space():
        assert search(p["dest"], p["adults"] + p["children"], (p["amenity"],)), p
        parse_dates(p["checkin"], p["checkout"])
        assert resolve(where_typed(p["dest"])) == [p["dest"]]
    for p in get_family("staynb.book").space():
        assert BY_ID[p["listing"]].max_guests >= p["adults"] and p["checkin"] < p["checkout"]
        parse_dates(p["checkin"], p["checkout"])
    for p in get_family("staynb.night").space():
        assert parse_dates(p["date"], None) == parse_dates(p["date"], p["date"])


def test_the_typed_families_name_what_they_type():
    for name in ("staynb.night", "staynb.search", "staynb.book"):
        f = get_family(name)
        for inst in f.instances("all", limit=20):
            for t in f.typed(inst.params):
                if "-" in t and t[:4].isdigit() and t not in inst.goal:  # a date, named in words
                    continue
                assert t.lower() in inst.goal.lower() or t.isdigit(), (t, inst.goal)
