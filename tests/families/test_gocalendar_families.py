"""GoCalendar's task families: deterministic instances, hundreds of distinct ones, a train/test split, and graders
that pass scripted solutions played in real Chromium (3 instances per family, spread over the space) while refusing
the untouched calendar and near misses (the side calendar's day instead of the header's, a day or an hour off, the
wrong event or title, played in the browser or edited into a solved /finish JSON)."""

from __future__ import annotations

import pytest
from family_oracles_gocalendar import BROWSER_NEAR_MISSES, EXTRA_NEAR_MISSES, ORACLES, near_miss

from halo.tasks.families import all_families, get_family

FAMILIES = [f.name for f in all_families("gocalendar")]


def sample(name: str, n: int = 3) -> list:
    f = get_family(name)
    return [f.instance(i * (f.size - 1) // (n - 1)) for i in range(n)]


# ---------------------------------------------------------------- generators (no browser)
def test_six_families_of_every_difficulty():
    steps = [get_family(n).steps for n in FAMILIES]
    assert len(FAMILIES) >= 6 and steps.count("1") >= 2 and steps.count("2-4") >= 2 and "5+" in steps
    assert sorted(ORACLES) == sorted(FAMILIES)


@pytest.mark.parametrize("name", FAMILIES)
def test_instances_are_deterministic_distinct_and_split(name):
    f = get_family(name)
    params = [tuple(sorted(p.items())) for p in f.space()]
    assert len(set(params)) == len(params) >= 100
    assert f.instance(7) == f.instance(7) and f.instance(7).goal == type(f)().instance(7).goal
    train, test = f.instances("train"), f.instances("test")
    assert train and test and len(train) + len(test) == f.size
    assert not {i.index for i in train} & {i.index for i in test}
    assert len({i.goal for i in f.instances("all")}) > f.size * 0.9  # goals name their parameters


def test_a_crashing_grader_is_a_failed_check():
    f = get_family("gocalendar.schedule")
    checks = f.grade({"differences": {"events": {"added": ["not", "a dict"]}}}, f.instance(0).params)
    assert checks and not all(c.passed for c in checks)


# ---------------------------------------------------------------- in the browser


@pytest.mark.browser
async def test_noop_episode_fails_every_family(run_instance):
    res, _ = await run_instance(get_family("gocalendar.day").instance(0), None)
    assert not res.info.grade.success and res.reward == 0.0
    untouched = res.info.grade.finish_state
    for name in FAMILIES:
        for inst in sample(name):
            checks = get_family(name).grade(untouched, inst.params)
            assert not all(c.passed for c in checks), f"{inst.id}: the untouched calendar passed"


@pytest.mark.browser
@pytest.mark.parametrize("name", FAMILIES)
async def test_oracle_passes_and_near_misses_fail(name, run_instance):
    fam = get_family(name)
    for inst in sample(name):
        res, d = await run_instance(inst, ORACLES[name])
        g = res.info.grade
        assert g.success and res.reward == 1.0, f"{inst.id} ({inst.goal}) graded {g.details} after {d.steps} steps"
        assert fam.steps != "1" or d.steps == 2, f"{inst.id}: a one-step family took {d.steps - 1} actions"
        for fam_name, fn in [(name, None), *[(n, f) for n, f in EXTRA_NEAR_MISSES if n == name]]:
            bad = near_miss(g.finish_state, fam_name, inst.params, fn)
            checks = fam.grade(bad, inst.params)
            assert not all(c.passed for c in checks), f"{inst.id}: near miss {fn or 'default'} passed"


@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(BROWSER_NEAR_MISSES))
async def test_near_miss_in_the_browser_fails(name, run_instance):
    inst = sample(name)[1]
    res, _ = await run_instance(inst, BROWSER_NEAR_MISSES[name])
    assert not res.info.grade.success, f"{inst.id}: a near miss passed {res.info.grade.details}"


def test_otherday_pays_its_first_click_as_progress():
    """gocalendar.otherday: the goal's week shown passes one check more than the week shown at the start (the first
    click's progress reward); only its day view passes all."""
    from datetime import date

    fam = get_family("gocalendar.otherday")
    inst = next(i for i in fam.instances("all") if i.params["date"] == "2024-07-23")
    d = date.fromisoformat(inst.params["date"])

    def shown(path: str) -> dict:
        return {"initialfinaldiff": {"updated": {"router": {"location": {"pathname": path}}}},
                "differences": {"events": {"added": {}, "updated": {}, "deleted": {}}}}

    def passed(path: str) -> list[str]:
        return [c.name for c in fam.grade(shown(path), inst.params) if c.passed]

    assert passed("/") == ["no other event changes"]
    assert passed("/r/week/2024/7/21") == ["its week shown", "no other event changes"]
    assert passed(f"/r/day/{d.year}/{d.month}/{d.day}") == ["its week shown", "day shown", "no other event changes"]
    assert passed("/r/day/2024/7/16") == ["no other event changes"]  # the same weekday, the week shown
