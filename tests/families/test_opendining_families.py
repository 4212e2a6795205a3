"""OpenDining's task families: deterministic instances (seventeen restaurants, their open slots, party sizes,
dates and guests' contact details), a train/test split, and graders that pass scripted solutions played in real
Chromium (two training instances and one held-out instance per family) while refusing the untouched account and
near misses (another cuisine or neighborhood, restaurant, date, time, party size, guest detail, occasion or
request; a reservation never completed; played in the browser or graded against a solved /finish JSON)."""

from __future__ import annotations

import copy

import pytest
from family_oracles_opendining import (
    BROWSER_NEAR_MISSES,
    EXTRA_BROWSER_NEAR_MISSES,
    ORACLES,
    VERIFIED,
    extra_reservation,
)
from family_samples import neighbours, sample

from halo.tasks.families import all_families, get_family

FAMILIES = [f.name for f in all_families("opendining")]


# ---------------------------------------------------------------- generators (no browser)
def test_families_of_every_difficulty():
    steps = [get_family(n).steps for n in FAMILIES]
    assert len(FAMILIES) >= 4 and "1" in steps and steps.count("2-4") >= 2 and steps.count("5+") >= 2
    assert sorted(ORACLES) == sorted(FAMILIES) == sorted(VERIFIED)


@pytest.mark.parametrize("name", FAMILIES)
def test_instances_are_deterministic_distinct_and_split(name):
    f = get_family(name)
    params = [tuple(sorted(p.items())) for p in f.space()]
    assert len(set(params)) == len(params) >= 150
    assert f.instance(7) == f.instance(7) and f.instance(7).goal == type(f)().instance(7).goal
    train, test = f.instances("train"), f.instances("test")
    assert train and test and len(train) + len(test) == f.size
    assert not {i.index for i in train} & {i.index for i in test}
    assert len({i.goal for i in f.instances("all")}) == f.size  # every goal names its parameters


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


def test_a_crashing_grader_is_a_failed_check():
    f = get_family("opendining.book")
    checks = f.grade({"initialfinaldiff": {"added": {"booking": {"bookingDetails": {"0": {"restaurant": "x"}}}}}},
                     f.instance(0).params)
    assert checks and not all(c.passed for c in checks)


# ---------------------------------------------------------------- in the browser
@pytest.mark.browser
async def test_noop_episode_fails_every_family(run_instance):
    res, _ = await run_instance(get_family("opendining.explore").instance(0), None)
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
        extra = copy.deepcopy(g.finish_state)
        extra_reservation(extra)
        assert not all(c.passed for c in fam.grade(extra, inst.params)), f"{inst.id}: an extra reservation passed"


@pytest.mark.browser
@pytest.mark.parametrize("name, miss", [*BROWSER_NEAR_MISSES.items(), *EXTRA_BROWSER_NEAR_MISSES],
                         ids=lambda x: x if isinstance(x, str) else x.__name__)
async def test_near_miss_in_the_browser_fails(name, miss, run_instance):
    inst = sample(name)[1]
    res, _ = await run_instance(inst, miss)
    assert not res.info.grade.success, f"{inst.id}: a near miss passed {res.info.grade.details}"


@pytest.mark.browser
@pytest.mark.parametrize("name", ["opendining.book", "opendining.occasion"])
async def test_progress_never_falls_along_the_oracle(name, families_pool, family_site_urls):
    """The search's date, time and party, then each typed field, pay progress before the reservation is made;
    along the oracle it never falls and it reaches 1 with the goal."""
    from site_helpers import Driver

    from halo.env.env import BrowserEnv
    from halo.tasks.families import family_task, progress_of

    if "opendining" not in family_site_urls:
        pytest.skip("REAL-local site opendining does not import")
    inst = get_family(name).instances("train")[1]
    env = BrowserEnv(families_pool, max_steps=14)
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
        assert len(set(seen[:-1])) >= 3, seen  # the search, then each typed field, paid before the last step
    finally:
        await env.close()
