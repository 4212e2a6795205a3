"""DashDish's own family checks; what every site's families keep (instances, graders, oracles and near misses
played in real Chromium) is checked in ``test_family_contract.py``. DashDish's families have hundreds of distinct
instances where the menus allow; the one-click store and cuisine families have about a hundred, so they are
checked to train on every store and cuisine and to hold most of them out too; the typed families' goals name the
text a solution types. Its near misses (another store, cuisine, dish, size, quantity or order type, played in the
browser or graded against a solved /finish JSON) are in ``family_oracles_dashdish.py``."""

from __future__ import annotations

from halo.tasks.families import get_family


# ---------------------------------------------------------------- generators (no browser)
def test_the_one_click_families_train_on_every_store_and_cuisine():
    from real_local.dashdish.menu import CUISINES, RESTAURANTS

    for name, key, every in (("dashdish.store", "store", {r.id for r in RESTAURANTS}),
                             ("dashdish.cuisine", "cuisine", set(CUISINES))):
        f = get_family(name)
        assert {p[key] for p in f.space()} == every
        assert {i.params[key] for i in f.instances("train")} == every, name
        # the held-out fifth (a hash of the instance number, never chosen) holds most targets, in new phrasings
        assert len({i.params[key] for i in f.instances("test")}) >= 0.7 * len(every), name


def test_the_typed_families_name_what_they_type():
    for name in ("dashdish.search", "dashdish.note"):
        f = get_family(name)
        for inst in f.instances("all", limit=20):
            assert all(t in inst.goal for t in f.typed(inst.params)), inst.goal
