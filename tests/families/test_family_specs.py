"""The family framework: specs, the deterministic split, instances as tasks, grading and progress through the family."""

from __future__ import annotations

import pytest

from halo.errors import ConfigError, TaskNotFoundError
from halo.tasks.families import (
    all_families,
    get_family,
    grade_family_task,
    is_family_spec,
    progress_of,
    resolve_family_spec,
)
from halo.tasks.types import split_of

URLS = {s: f"http://127.0.0.1:{9000 + i}" for i, s in enumerate(("gomail", "gocalendar", "omnizon", "zilloft"))}


FIRST_FOUR = ("gocalendar", "gomail", "omnizon", "zilloft")


def test_every_site_has_families_of_every_difficulty_with_hundreds_of_instances_and_both_splits():
    """The first four sites have six families or more (two one-step, two of 2-4 steps); the later ones (issue 44)
    four or more, from a one-step goal to a REAL-like 5+-step one."""
    by_site: dict[str, list] = {}
    for f in all_families():
        by_site.setdefault(f.site, []).append(f)
        assert f.size >= 100, f"{f.name} has {f.size} distinct instances"
        test = f.instances("test")
        assert test and len(test) < f.size, f"{f.name}: {len(test)} test of {f.size}"
        steps = {"1", "2-4", "5+"}
        assert f.steps in steps, f.name
    assert set(FIRST_FOUR) | {"dashdish", "udriver", "opendining", "staynb", "marrisuite",
                            "topwork", "networkin"} <= set(by_site)
    for site, fams in by_site.items():
        steps = [f.steps for f in fams]
        if site in FIRST_FOUR:
            assert len(fams) >= 6 and steps.count("1") >= 2 and steps.count("2-4") >= 2, site
        else:
            assert len(fams) >= 4 and {"1", "2-4", "5+"} <= set(steps), site


@pytest.mark.parametrize("ref, match", [
    ("gomail.open@test:0", r"^'gomail\.open@test:0': the count must be >= 1 and <= 1,000,000, got 0; :N takes"),
    ("gomail.open@test:-1", r"the count must be >= 1 and <= 1,000,000, got -1"),
    ("gomail.*@train:x", r"the count must be a whole number from 1 to 1,000,000, got 'x'"),
    ("gomail.open@test:" + "9" * 5000, r"the count must be a whole number .*, got '9{20}'"),  # no int() of it
    ("gomail.open@validation", r"^'gomail\.open@validation': unknown split 'validation'; .*train and test"),
    ("families@Test", r"unknown split 'Test'"),
    ("gomail.open-" + "9" * 5000, r"an instance number has at most 9 digits"),
])
def test_a_bad_count_or_split_is_named_as_such(ref, match):
    """Before: ``@test:0`` ran one instance and exited 0; ``@test:-1`` and ``@validation`` were reported as an
    unknown REAL task; a 5000-digit count was a ValueError traceback."""
    from halo.tasks.resolve import resolve_tasks

    assert is_family_spec(ref)
    with pytest.raises(ConfigError, match=match):
        resolve_tasks([ref], "local", URLS)
    assert len(resolve_tasks(["gomail.open@test:1"], "local", URLS)) == 1


def test_split_is_a_fixed_fifth():
    shares = [sum(split_of("x.y", i) == "test" for i in range(2000)) / 2000 for _ in range(2)]
    assert shares[0] == shares[1] and 0.15 < shares[0] < 0.25


def test_instances_are_deterministic_and_distinct():
    f = get_family("omnizon.department")
    a, b = f.instance(7), f.instance(7)
    assert a == b and a.goal and a.params
    assert len({repr(sorted(f.instance(i).params.items())) for i in range(f.size)}) == f.size


def test_specs():
    assert is_family_spec("gomail.folder@train") and is_family_spec("gomail.*@test:3") and is_family_spec("families")
    assert is_family_spec("gomail.folder-3") and not is_family_spec("v2.gomail-3") and not is_family_spec("gomail-3")
    assert not is_family_spec("http://x/y") and not is_family_spec("gomail")
    tasks = resolve_family_spec("gomail.folder@test:3", URLS)
    assert len(tasks) == 3 and all(t.split == "test" and t.family == "gomail.folder" for t in tasks)
    assert all(t.base_url == URLS["gomail"] and t.graded and t.local and t.protocol for t in tasks)
    one = resolve_family_spec("gomail.folder-3", URLS)[0]
    assert one.id == "gomail.folder-3" and one.goal == get_family("gomail.folder").instance(3).goal
    site = resolve_family_spec("zilloft.*@all:2", URLS)
    assert len(site) == 2 * len(all_families("zilloft"))
    with pytest.raises(TaskNotFoundError, match="halo tasks --families"):
        resolve_family_spec("gomail.nosuch@train", URLS)
    with pytest.raises(ConfigError, match="no task families on site"):
        resolve_family_spec("nosuch.*@train", URLS)


def test_resolve_tasks_rejects_families_on_remote_sites():
    from halo.tasks.resolve import resolve_tasks

    with pytest.raises(ConfigError, match="REAL-local only"):
        resolve_tasks(["gomail.folder@train"], "remote", URLS)


def test_grade_and_progress_go_through_the_family():
    task = resolve_family_spec("gomail.folder-0", URLS)[0]
    g = grade_family_task(task, {"config": {}, "differences": {}, "initialfinaldiff": {}}, "Done")
    assert not g.success and g.reward == 0.0 and g.details and all("passed" in d for d in g.details)
    assert 0.0 <= progress_of(task, {"differences": {}, "initialfinaldiff": {}}) < 1.0
    broken = grade_family_task(task, {"differences": "not a dict"}, "")  # a grader that raises fails, never crashes
    assert not broken.success


def test_families_are_paid_their_progress_not_novelty_or_milestones():
    from dataclasses import replace

    from halo.env.actions import Click, SendMsgToUser
    from halo.env.types import Observation
    from halo.rl.rewards import DenseRewardCalculator, RewardConfig

    task = resolve_family_spec("omnizon.department-0", URLS)[0]
    real = replace(task, family="", index=-1)
    o0 = Observation(screenshot=b"", image_format="png", axtree="[1] link 'A'", elements={}, url="http://x/",
                     goal="g", step=0)
    o1 = replace(o0, url="http://x/search?q=", axtree="[2] link 'B'", step=1)
    calc = DenseRewardCalculator(RewardConfig.from_dict(
        {"milestones": {"omnizon": [{"name": "search_results", "weight": 0.2, "url": "/search"}]}}))
    calc.set_progress(0.6)  # three of five checks already hold at the start
    r1 = calc.compute_reward(o0, Click("1"), o1, task, False, False, progress=0.8)
    assert r1.parts == {"progress": pytest.approx(0.2)}  # no novelty, no per-step bonus, no site milestone
    r2 = calc.compute_reward(o1, SendMsgToUser("done"), o1, task, True, True, progress=0.8)
    assert r2.parts == {"success": 1.0}
    calc.reset()
    r_real = calc.compute_reward(o0, Click("1"), o1, real, False, False)
    assert {"valid_action", "new_state", "milestone/search_results"} <= set(r_real.parts)


def test_one_kind_of_family_across_sites():
    """``families/1@train``: every one-step family of every site (one kind of goal, one policy across sites);
    ``SITE.*/5+``: a site's REAL-like ones; an unknown difficulty or an empty choice is named."""
    from real_local.ports import site_urls

    urls = site_urls()
    one = resolve_family_spec("families/1@train:1", urls)
    kinds = {get_family(t.family).steps for t in one}
    assert kinds == {"1"} and len({t.site for t in one}) >= 6, sorted({t.site for t in one})
    assert {t.family for t in one} == {f.name for f in all_families() if f.steps == "1"}
    top = resolve_family_spec("gomail.*/5+@test:2", urls)
    assert {t.family for t in top} == {f.name for f in all_families("gomail") if f.steps == "5+"} and len(top) >= 2
    with pytest.raises(ConfigError, match="unknown difficulty '3'"):
        resolve_family_spec("families/3@train", urls)
    with pytest.raises(ConfigError, match="takes 1 steps"):
        resolve_family_spec("gomail.send/1@train", urls)
    assert is_family_spec("families/1@train")
