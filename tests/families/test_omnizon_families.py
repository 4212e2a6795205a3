"""Omnizon's own family checks; what every site's families keep (instances, graders, oracles played in real
Chromium on three instances per family spread over the space, the untouched store refused) is checked in
``test_family_contract.py``. Here: the small-target department family (104 instances) still has all eight of its
departments in both splits. Its near misses (another department, product, quantity, sort or price band, played in
the browser or graded against a solved /finish JSON) are in ``family_oracles_omnizon.py``."""

from __future__ import annotations

from halo.tasks.families import get_family


# ---------------------------------------------------------------- generators (no browser)
def test_the_department_family_has_eight_distinct_targets():
    f = get_family("omnizon.department")
    targets = {p["link"] for p in f.space()}
    assert len(targets) == 8
    assert all({i.params["link"] for i in f.instances(s)} == targets for s in ("train", "test"))
