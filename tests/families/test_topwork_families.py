"""TopWork's own family checks; what every site's families keep (instances, graders, oracles and near misses
played in real Chromium, progress along the oracles) is checked in ``test_family_contract.py``. Its instances
(fourteen freelancers, four unread conversations, five job posts, crossed with reasons, messages, notes, contract
titles, rates, dates and job ideas) are checked here to be doable on the site, and the typed families' goals to
name what a solution types. Its near misses (another conversation, freelancer, query, message, job, note, title,
rate, date, category or estimate; a message never sent; one freelancer too many; another save or a job post
removed as well) are in ``family_oracles_topwork.py``."""

from __future__ import annotations

import datetime as dt

from halo.tasks.families import all_families, get_family


# ---------------------------------------------------------------- generators (no browser)
def test_every_instance_is_doable_on_the_site():
    from halo.tasks.families.topwork import OPEN_JOBS, UNREAD, Shortlist
    from real_local.topwork.state import TODAY
    from real_local.topwork.talent import BY_ID, search

    assert len(UNREAD) == 4
    for p in get_family("topwork.read").space():
        assert p["freelancer"] in UNREAD
    for p in get_family("topwork.shortlist").space():
        assert 1 <= len(Shortlist.want(p)) <= 3 and Shortlist.want(p) == [x.id for x in search(p["query"],
                                                                                               p["available"])]
    for p in get_family("topwork.invite").space():
        assert p["job"] in OPEN_JOBS and p["freelancer"] in BY_ID
    for p in get_family("topwork.hire").space():
        assert 1 <= p["rate"] <= 999 and TODAY < p["start"] <= (dt.date.fromisoformat(TODAY)
                                                                + dt.timedelta(days=90)).isoformat()
    for p in get_family("topwork.post").space():
        assert 1 <= p["lo"] <= p["hi"] <= 999


def test_the_typed_families_name_what_they_type():
    for f in all_families("topwork"):
        for inst in f.instances("all", limit=20):
            for t in f.typed(inst.params):
                if "-" in t and t[:4].isdigit() and t not in inst.goal:  # a date, named in words
                    continue
                assert t in inst.goal, (t, inst.goal)
