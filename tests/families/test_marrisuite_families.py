"""MarriSuite's own family checks; what every site's families keep (instances, graders, oracles and near misses
played in real Chromium, progress along the oracles) is checked in ``test_family_contract.py``. Its instances
(twelve hotels in nine cities, three rooms each, stays of one to six nights, rooms and guests, guests' names and
cards) are checked here to be searchable and bookable on the site, and the typed families' goals to name what a
solution types. Its near misses (another city, date, room or guest count, hotel, room, guest or card; a booking
never sent) are in ``family_oracles_marrisuite.py``."""

from __future__ import annotations

import datetime as dt

from halo.tasks.families import get_family


# ---------------------------------------------------------------- generators (no browser)
def test_every_search_lists_its_hotels_and_every_stay_is_bookable():
    from halo.tasks.families.marrisuite import BY_ID, city_hotels
    from real_local.marrisuite.hotels import search

    for name in ("marrisuite.search", "marrisuite.rooms", "marrisuite.book"):
        for p in get_family(name).space():
            city = p["city"] if "city" in p else BY_ID[p["hotel"]].city
            assert {h.id for h in search(city)} == city_hotels(city)
            assert 1 <= (dt.date.fromisoformat(p["checkout"]) - dt.date.fromisoformat(p["checkin"])).days <= 30
            assert p.get("rooms", 1) <= p.get("guests", 1) <= 8
            if "room" in p:
                assert p["room"] in {r.name for r in BY_ID[p["hotel"]].rooms}


def test_the_typed_families_name_what_they_type():
    for name in ("marrisuite.search", "marrisuite.rooms", "marrisuite.book"):
        f = get_family(name)
        for inst in f.instances("all", limit=20):
            for t in f.typed(inst.params):
                if "-" in t and t[:4].isdigit() and t not in inst.goal:  # a date, named in words
                    continue
                assert t in inst.goal, (t, inst.goal)
