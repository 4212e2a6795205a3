"""Zilloft's task families: deterministic instances, hundreds of distinct ones (the small-target popular-search
family has 112), a train/test split, and graders that pass scripted solutions played in real Chromium (3 instances
per family, spread over the space) while refusing the untouched site and near misses (another area, listing, day,
time, sort or filter, played in the browser or graded against a solved /finish JSON)."""

from __future__ import annotations

import copy

import pytest
from family_oracles_zilloft import BROWSER_NEAR_MISSES, ORACLES, VERIFIED, extra_saved_home

from halo.tasks.families import all_families, get_family
from real_local.zilloft.listings import search

FAMILIES = [f.name for f in all_families("zilloft")]


def sample(name: str, n: int = 3) -> list:
    f = get_family(name)
    return [f.instance(i * (f.size - 1) // (n - 1)) for i in range(n)]


def neighbours(name: str, params: dict) -> list[dict]:
    """The same parameters with one verified parameter changed to another value the family uses."""
    out = []
    for key in VERIFIED[name]:
        other = next(p[key] for p in get_family(name).space() if p[key] != params[key])
        out.append({**params, key: other})
    return out


# ---------------------------------------------------------------- generators (no browser)
def test_families_of_every_difficulty():
    steps = [get_family(n).steps for n in FAMILIES]
    assert len(FAMILIES) >= 6 and steps.count("1") >= 2 and steps.count("2-4") >= 2 and "5+" in steps
    assert sorted(ORACLES) == sorted(FAMILIES) == sorted(VERIFIED)


@pytest.mark.parametrize("name", FAMILIES)
def test_instances_are_deterministic_distinct_and_split(name):
    f = get_family(name)
    params = [tuple(sorted(p.items())) for p in f.space()]
    assert len(set(params)) == len(params) >= 100
    assert f.instance(7) == f.instance(7) and f.instance(7).goal == type(f)().instance(7).goal
    train, test = f.instances("train"), f.instances("test")
    assert train and test and len(train) + len(test) == f.size
    assert len({i.goal for i in f.instances("all")}) == f.size  # every goal names its parameters


def test_the_popular_family_has_seven_distinct_targets():
    f = get_family("zilloft.popular")
    targets = {p["area"] for p in f.space()}
    assert len(targets) == 7
    assert all({i.params["area"] for i in f.instances(s)} == targets for s in ("train", "test"))


def test_a_crashing_grader_is_a_failed_check():
    f = get_family("zilloft.tour")
    checks = f.grade({"differences": {"requestTours": {"added": {"t": {"requestTourData": "x"}}}}},
                     f.instance(0).params)
    assert checks and not all(c.passed for c in checks)


# ---------------------------------------------------------------- in the browser
@pytest.mark.browser
async def test_noop_episode_fails_every_family(run_instance):
    res, _ = await run_instance(get_family("zilloft.popular").instance(0), None)
    assert not res.info.grade.success and res.reward == 0.0
    untouched = res.info.grade.finish_state
    for name in FAMILIES:
        for inst in sample(name):
            assert not all(c.passed for c in get_family(name).grade(untouched, inst.params)), inst.id


@pytest.mark.browser
@pytest.mark.parametrize("name", FAMILIES)
async def test_oracle_passes_and_near_misses_fail(name, run_instance):
    fam = get_family(name)
    for inst in sample(name):
        res, d = await run_instance(inst, ORACLES[name])
        g = res.info.grade
        assert g.success and res.reward == 1.0, f"{inst.id} ({inst.goal}) graded {g.details} after {d.steps} steps"
        assert fam.steps != "1" or d.steps == 2, f"{inst.id}: a one-step family took {d.steps - 1} actions"
        for wrong in neighbours(name, inst.params):
            assert not all(c.passed for c in fam.grade(g.finish_state, wrong)), f"{inst.id}: passed as {wrong}"
        extra = copy.deepcopy(g.finish_state)
        extra_saved_home(extra)
        assert not all(c.passed for c in fam.grade(extra, inst.params)), f"{inst.id}: an extra saved home passed"


@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(BROWSER_NEAR_MISSES))
async def test_near_miss_in_the_browser_fails(name, run_instance):
    inst = sample(name)[1]
    if name == "zilloft.save":  # a search that finds another home to save by mistake
        inst = next(i for i in get_family(name).instances("all") if len(search(i.params["query"])) >= 2)
    res, _ = await run_instance(inst, BROWSER_NEAR_MISSES[name])
    assert not res.info.grade.success, f"{inst.id}: a near miss passed {res.info.grade.details}"
