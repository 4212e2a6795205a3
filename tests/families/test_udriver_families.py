"""UDriver's task families: deterministic instances (702 routes between 27 places, four ride types, three payment
methods), a train/test split, and graders that pass scripted solutions played in real Chromium (two training
instances and one held-out instance per family) while refusing the untouched account and near misses (another
screen, place, ride type, payment, day, time or amount, a reversed route, a ride priced but never requested, played
in the browser or graded against a solved /finish JSON)."""

from __future__ import annotations

import copy

import pytest
from family_oracles_udriver import BROWSER_NEAR_MISSES, EXTRA_BROWSER_NEAR_MISSES, ORACLES, VERIFIED, extra_trip
from family_samples import neighbours, sample

from halo.tasks.families import all_families, get_family

FAMILIES = [f.name for f in all_families("udriver")]


# ---------------------------------------------------------------- generators (no browser)
def test_families_of_every_difficulty():
    steps = [get_family(n).steps for n in FAMILIES]
    assert len(FAMILIES) >= 4 and "1" in steps and steps.count("2-4") >= 2 and steps.count("5+") >= 2
    assert sorted(ORACLES) == sorted(FAMILIES) == sorted(VERIFIED)


@pytest.mark.parametrize("name", FAMILIES)
def test_instances_are_deterministic_distinct_and_split(name):
    f = get_family(name)
    params = [tuple(sorted(p.items())) for p in f.space()]
    assert len(set(params)) == len(params) >= 100
    assert f.instance(7) == f.instance(7) and f.instance(7).goal == type(f)().instance(7).goal
    train, test = f.instances("train"), f.instances("test")
    assert train and test and len(train) + len(test) == f.size
    assert not {i.index for i in train} & {i.index for i in test}
    assert len({i.goal for i in f.instances("all")}) == f.size


def test_every_place_a_goal_names_is_found_by_what_a_solution_types():
    """The ride form finds exactly the named place from the text the goal gives (no chooser page)."""
    from halo.tasks.families.udriver import place_text, place_typed
    from real_local.udriver.places import PLACES, find_places

    for p in PLACES:
        assert find_places(place_typed(p.id)) == [p] and place_typed(p.id) in place_text(p.id), p.name


def test_rides_paid_with_credits_are_ones_the_credits_cover():
    from halo.tasks.families.udriver import fare_of
    from real_local.udriver.state import START_BALANCE

    paid = [p for p in get_family("udriver.ride").space() if p["payment"] == "wallet"]
    assert len(paid) > 400 and all(fare_of((p["pickup"], p["dropoff"]), p["type"]) <= START_BALANCE for p in paid)


def test_scheduled_times_are_bookable():
    from real_local.udriver.state import parse_schedule

    for p in get_family("udriver.schedule").space():
        assert parse_schedule(p["date"], p["time"]) == (p["date"], p["time"])


def test_a_crashing_grader_is_a_failed_check():
    f = get_family("udriver.ride")
    checks = f.grade({"differences": {"trips": {"added": {"0": {"car": "x"}}}}}, f.instance(0).params)
    assert checks and not all(c.passed for c in checks)


# ---------------------------------------------------------------- in the browser
@pytest.mark.browser
async def test_noop_episode_fails_every_family(run_instance):
    res, _ = await run_instance(get_family("udriver.screen").instance(0), None)
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
        for wrong in neighbours(name, inst.params, VERIFIED[name]):
            assert not all(c.passed for c in fam.grade(g.finish_state, wrong)), f"{inst.id}: passed as {wrong}"
        extra = copy.deepcopy(g.finish_state)
        extra_trip(extra)
        assert not all(c.passed for c in fam.grade(extra, inst.params)), f"{inst.id}: an extra ride passed"


@pytest.mark.browser
@pytest.mark.parametrize("name, miss", [*BROWSER_NEAR_MISSES.items(), *EXTRA_BROWSER_NEAR_MISSES],
                         ids=lambda x: x if isinstance(x, str) else x.__name__)
async def test_near_miss_in_the_browser_fails(name, miss, run_instance):
    inst = sample(name)[1]
    res, _ = await run_instance(inst, miss)
    assert not res.info.grade.success, f"{inst.id}: a near miss passed {res.info.grade.details}"


@pytest.mark.browser
@pytest.mark.parametrize("name", ["udriver.ride", "udriver.schedule", "udriver.topup"])
async def test_progress_never_falls_along_the_oracle(name, families_pool, family_site_urls):
    """The places (or the amount) typed right pay progress before the form is sent; along the oracle it never
    falls and it reaches 1 with the goal."""
    from site_helpers import Driver

    from halo.env.env import BrowserEnv
    from halo.tasks.families import family_task, progress_of
    from halo.tasks.families.udriver import PRESETS

    if "udriver" not in family_site_urls:
        pytest.skip("REAL-local site udriver does not import")
    fam = get_family(name)
    inst = next(i for i in fam.instances("train") if i.params.get("amount") not in PRESETS)
    env = BrowserEnv(families_pool, max_steps=12)
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
        assert len(set(seen[:-1])) >= 3, seen  # each typed field paid before the last step
    finally:
        await env.close()
