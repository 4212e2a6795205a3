"""TopWork's task families: deterministic instances (fourteen freelancers, four unread conversations, five job posts,
crossed with reasons, messages, notes, contract titles, rates, dates and job ideas), a train/test split, and graders
that pass scripted solutions played in real Chromium (two training instances and one held-out instance per family)
while refusing the untouched session and near misses (another conversation, freelancer, query, message, job, note,
title, rate, date, category or estimate; a message never sent; one freelancer too many; another save or a job post
removed as well; played in the browser or graded against a solved /finish JSON)."""

from __future__ import annotations

import copy
import datetime as dt

import pytest
from family_oracles_topwork import BROWSER_NEAR_MISSES, ORACLES, VERIFIED, extra_removal, extra_save
from family_samples import neighbours, sample

from halo.tasks.families import all_families, get_family

FAMILIES = [f.name for f in all_families("topwork")]


# ---------------------------------------------------------------- generators (no browser)
def test_families_of_every_difficulty():
    steps = [get_family(n).steps for n in FAMILIES]
    assert len(FAMILIES) >= 4 and {"1", "2-4", "5+"} <= set(steps) and steps.count("5+") >= 2
    assert sorted(ORACLES) == sorted(FAMILIES) == sorted(VERIFIED) == sorted(BROWSER_NEAR_MISSES)


@pytest.mark.parametrize("name", FAMILIES)
def test_instances_are_deterministic_distinct_and_split(name):
    f = get_family(name)
    params = [tuple(sorted(p.items())) for p in f.space()]
    assert len(set(params)) == len(params) >= 100
    assert f.instance(7) == f.instance(7) and f.instance(7).goal == type(f)().instance(7).goal
    train, test = f.instances("train"), f.instances("test")
    assert train and test and len(train) + len(test) == f.size
    assert not {i.index for i in train} & {i.index for i in test}
    assert len({i.goal for i in f.instances("all")}) == f.size  # every goal names its parameters


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


def test_a_crashing_grader_is_a_failed_check():
    f = get_family("topwork.hire")
    checks = f.grade({"initialfinaldiff": {"added": {"offers": "x"}}}, f.instance(0).params)
    assert checks and not all(c.passed for c in checks)


# ---------------------------------------------------------------- in the browser
@pytest.mark.browser
async def test_noop_episode_fails_every_family(run_instance):
    res, _ = await run_instance(get_family("topwork.read").instance(0), None)
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
        assert fam.steps != "5+" or d.steps - 1 >= 5, f"{inst.id}: a 5+ family solved in {d.steps - 1} actions"
        assert d.steps - 1 <= fam.max_steps, f"{inst.id}: the oracle took {d.steps - 1} > {fam.max_steps} actions"
        for wrong in neighbours(name, inst.params, VERIFIED[name]):
            assert not all(c.passed for c in fam.grade(g.finish_state, wrong)), f"{inst.id}: passed as {wrong}"
        for extra in (extra_save, extra_removal):
            state = copy.deepcopy(g.finish_state)
            extra(state)
            assert not all(c.passed for c in fam.grade(state, inst.params)), f"{inst.id}: {extra.__name__} passed"


@pytest.mark.browser
@pytest.mark.parametrize("name, miss", BROWSER_NEAR_MISSES.items(),
                         ids=lambda x: x if isinstance(x, str) else x.__name__)
async def test_near_miss_in_the_browser_fails(name, miss, run_instance):
    inst = sample(name)[1]
    res, _ = await run_instance(inst, miss)
    assert not res.info.grade.success, f"{inst.id}: a near miss passed {res.info.grade.details}"


@pytest.mark.browser
@pytest.mark.parametrize("name", ["topwork.hire", "topwork.post"])
async def test_progress_never_falls_along_the_oracle(name, families_pool, family_site_urls):
    """Each field of the offer or job post typed pays progress before it is sent; along the oracle progress never
    falls and it reaches 1 with the goal."""
    from site_helpers import Driver

    from halo.env.env import BrowserEnv
    from halo.tasks.families import family_task, progress_of

    if "topwork" not in family_site_urls:
        pytest.skip("REAL-local site topwork does not import")
    inst = get_family(name).instances("train")[1]
    env = BrowserEnv(families_pool, max_steps=16)
    task = family_task(inst, family_site_urls)
    try:
        d = Driver(env, await env.reset(task))
        seen = [progress_of(task, await env.finish_json(), d.obs)]
        step = d.step

        async def recording(action):
            res = await step(action)
            seen.append(progress_of(task, await env.finish_json(), d.obs))
            return res

        d.step = recording
        await ORACLES[name](d, inst.params)
        assert seen == sorted(seen) and seen[-1] == 1.0, seen
        assert len(set(seen[:-1])) >= 4, seen  # each typed field paid before the last step
    finally:
        await env.close()
