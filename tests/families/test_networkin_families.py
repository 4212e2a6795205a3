"""NetworkIn's own family checks; what every site's families keep (instances, graders, oracles and near misses
played in real Chromium, progress along the oracles) is checked in ``test_family_contract.py``. Its instances
(25 members, 19 company pages, 8 feed posts and 6 events, crossed with reasons, comments, notes, messages and post
texts) are checked here to be doable on the site, and the typed families' goals to name what a solution types. Its
near misses (another company, post, event, member, comment, note or message; a note not asked for or left out; a
comment or message never sent; a post with other text; another follow or connection as well) are in
``family_oracles_networkin.py``."""

from __future__ import annotations

from halo.tasks.families import all_families, get_family


# ---------------------------------------------------------------- generators (no browser)
def test_every_instance_is_doable_on_the_site():
    from halo.tasks.families.networkin import CONNECTABLE, CONNECTED, FEED_COMPANIES
    from real_local.networkin.directory import BY_ID, search_people
    from real_local.networkin.state import MAX_NOTE, seed

    s = seed(None)
    assert len(CONNECTED) == 10 and len(CONNECTABLE) == 13 and len(FEED_COMPANIES) == 6
    assert not any(s["ui"]["companies"]["followedCompanies"][c] for c in FEED_COMPANIES)
    for name in ("networkin.connect", "networkin.invite", "networkin.message"):
        for p in get_family(name).space():
            m = BY_ID[p["member"]]
            assert search_people(m.name)[0] == m  # the member is found by name, first
            assert (s["connectionGrades"][m.id] == 1) == (name == "networkin.message")
    for p in get_family("networkin.invite").space():
        assert len(p["note"]) <= MAX_NOTE


def test_the_typed_families_name_what_they_type():
    for f in all_families("networkin"):
        for inst in f.instances("all", limit=20):
            for t in f.typed(inst.params):
                assert t in inst.goal, (t, inst.goal)
