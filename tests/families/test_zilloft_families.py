"""Zilloft's own family checks; what every site's families keep (instances, graders, oracles played in real
Chromium on three instances per family spread over the space, the untouched site refused) is checked in
``test_family_contract.py``. Here: the small-target popular-search family (112 instances) still has all seven of
its areas in both splits. Its near misses (another area, listing, day, time, sort or filter, played in the
browser or graded against a solved /finish JSON) are in ``family_oracles_zilloft.py``."""

from __future__ import annotations

from halo.tasks.families import get_family


# ---------------------------------------------------------------- generators (no browser)
def test_the_popular_family_has_seven_distinct_targets():
    f = get_family("zilloft.popular")
    targets = {p["area"] for p in f.space()}
    assert len(targets) == 7
    assert all({i.params["area"] for i in f.instances(s)} == targets for s in ("train", "test"))
