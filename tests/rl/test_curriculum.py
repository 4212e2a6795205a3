"""The curriculum's choices: learning-progress weights, refills of zero-variance groups, round-robin otherwise."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pytest

from halo.errors import ConfigError
from halo.rl.curriculum import Curriculum, CurriculumSettings, RoundRobin, make_sampler


@dataclass(frozen=True)
class T:
    id: str
    family: str = ""


def fam_tasks(*families: str, n: int = 5) -> list[T]:
    return [T(f"{f}-{i}", f) for f in families for i in range(n)]


def test_unseen_families_are_tried_first_then_weights_follow_progress():
    c = Curriculum(fam_tasks("a.solved", "a.learning", "a.hopeless"), CurriculumSettings(window=10, floor=0.01),
                   seed=0)
    assert set(c.weights().values()) == {0.26}  # 0.5 * 0.5 + floor before any episode
    c.record(T("a.solved-0", "a.solved"), [True] * 10)
    c.record(T("a.learning-0", "a.learning"), [True, False] * 5)
    c.record(T("a.hopeless-0", "a.hopeless"), [False] * 10)
    w = c.weights()
    assert w["a.learning"] == pytest.approx(0.26) and w["a.solved"] == w["a.hopeless"] == pytest.approx(0.01)
    drawn = Counter(t.family for t in c.draw(2000, 0))
    assert drawn["a.learning"] > 0.9 * 2000 and drawn["a.solved"] > 0 and drawn["a.hopeless"] > 0
    assert c.state()["a.learning"]["success"] == 0.5


def test_window_forgets_old_outcomes():
    c = Curriculum(fam_tasks("a.x"), CurriculumSettings(window=4), seed=0)
    c.record(T("a.x-0", "a.x"), [False] * 4)
    c.record(T("a.x-0", "a.x"), [True] * 4)
    assert c.success("a.x") == 1.0


def test_same_seed_same_draws():
    tasks = fam_tasks("a.x", "a.y", n=50)
    assert [t.id for t in Curriculum(tasks, seed=3).draw(20, 0)] == [t.id for t in Curriculum(tasks, seed=3).draw(20, 0)]


def test_auto_uses_the_curriculum_only_for_families():
    assert isinstance(make_sampler(fam_tasks("a.x"), "auto"), Curriculum)
    assert isinstance(make_sampler([T("v2.gomail-1")], "auto"), RoundRobin)
    assert isinstance(make_sampler(fam_tasks("a.x"), "off"), RoundRobin)
    with pytest.raises(ConfigError, match="not a family instance"):
        make_sampler([T("v2.gomail-1")], "on")
    with pytest.raises(ConfigError, match="auto, on, off or ladder"):
        make_sampler(fam_tasks("a.x"), "sometimes")


def test_round_robin_cycles_every_task():
    tasks = [T(f"v2.x-{i}") for i in range(5)]
    rr = RoundRobin(tasks, seed=1)
    seen = [t.id for it in range(5) for t in rr.draw(1, it)]
    assert sorted(seen) == sorted(t.id for t in tasks)


def test_gigpo_step_advantage_within_anchor_states():
    from halo.rl.advantages import gigpo_advantages

    # two episodes share the first state "s0"; from it one went to a rewarded state, the other did not
    adv = gigpo_advantages([[0.0, 1.0], [0.0, 0.0]], [["s0", "s1"], ["s0", "s2"]], gamma=1.0, omega=1.0)
    ep = [0.5, -0.5]  # returns 1 and 0 minus their mean
    assert adv[0][0] == pytest.approx(ep[0] + (1.0 - 0.5)) and adv[1][0] == pytest.approx(ep[1] + (0.0 - 0.5))
    assert adv[0][1] == pytest.approx(ep[0]) and adv[1][1] == pytest.approx(ep[1])  # unshared states: no step term
    none = gigpo_advantages([[1.0], [0.0]], [[None], [None]], gamma=1.0)
    assert none == [[0.5], [-0.5]]


def test_a_ladder_opens_its_rungs_in_the_task_lists_order_as_each_is_learned():
    from halo.rl.curriculum import CurriculumSettings, Ladder

    tasks = [*fam_tasks("z.first"), *fam_tasks("a.second"), *fam_tasks("m.top")]  # not alphabetical: the list's
    lad = make_sampler(tasks, "ladder", CurriculumSettings(window=8, unlock=0.5, review=0.3), seed=1)
    assert isinstance(lad, Ladder) and lad.families == ["z.first", "a.second", "m.top"]
    assert {t.family for t in lad.draw(40, 0)} == {"z.first"}  # only the lowest rung at first
    lad.record(tasks[0], [True, False, False])  # 3 episodes: fewer than half a window, nothing opens
    assert lad.open == 1
    lad.record(tasks[0], [True, True, True])  # 4 of 6 succeed: the second rung opens, not the third
    assert lad.open == 2 and lad.weights() == {"z.first": 0.3, "a.second": 0.7, "m.top": 0.0}
    assert {t.family for t in lad.draw(200, 1)} == {"z.first", "a.second"}
    lad.record(tasks[5], [False] * 8)
    assert lad.open == 2 and lad.state()["m.top"]["open"] is False


def test_a_ladder_reviews_a_slipping_rung_more_than_one_that_holds():
    """The rungs below the frontier share its review draws by their recent failure (plus a floor): the rung the
    frontier's updates are overwriting is drawn more; one that holds keeps a share."""
    from halo.rl.curriculum import REVIEW_FLOOR, CurriculumSettings

    tasks = [*fam_tasks("r.one"), *fam_tasks("r.two"), *fam_tasks("r.top")]
    lad = make_sampler(tasks, "ladder", CurriculumSettings(window=8, unlock=0.5, review=0.3), seed=1)
    lad.record(tasks[0], [True] * 8)
    lad.record(tasks[5], [True] * 8)
    assert lad.open == 3
    lad.record(tasks[0], [False] * 6)  # the first rung slips: 2 of its last 8 succeed
    w = lad.weights()
    need_one, need_two = 0.75 + REVIEW_FLOOR, 0.0 + REVIEW_FLOOR
    assert w["r.one"] == pytest.approx(0.3 * need_one / (need_one + need_two))
    assert w["r.two"] == pytest.approx(0.3 * need_two / (need_one + need_two)) and w["r.two"] > 0
    assert w["r.top"] == pytest.approx(0.7)
    drawn = [t.family for t in lad.draw(2000, 2)]
    assert drawn.count("r.one") > 5 * drawn.count("r.two") > 0


def test_a_ladders_goal_share_draws_the_top_rung_before_it_opens_and_no_longer_once_it_has():
    """``goal``: the top rung's first steps are on no lower rung (a reverse curriculum starts every rung later in the
    goal's episode), so it takes that share from the start; once it is the frontier it takes the frontier's share."""
    tasks = [*fam_tasks("g.one"), *fam_tasks("g.two"), *fam_tasks("g.top")]
    lad = make_sampler(tasks, "ladder", CurriculumSettings(window=8, unlock=0.5, review=0.3, goal=0.1), seed=1)
    assert lad.weights() == pytest.approx({"g.one": 0.9, "g.two": 0.0, "g.top": 0.1})
    drawn = Counter(t.family for t in lad.draw(2000, 0))
    assert set(drawn) == {"g.one", "g.top"} and 120 < drawn["g.top"] < 280
    lad.record(tasks[10], [True] * 8)  # the goal's own successes open nothing: the ladder climbs from its frontier
    assert lad.open == 1
    lad.record(tasks[0], [True] * 8)
    assert lad.weights() == pytest.approx({"g.one": 0.3, "g.two": 0.6, "g.top": 0.1})
    lad.record(tasks[5], [True] * 8)
    assert lad.open == 3 and lad.weights()["g.top"] == pytest.approx(0.7)  # the frontier now: no extra share
    with pytest.raises(ConfigError, match="goal share"):
        CurriculumSettings(review=0.3, goal=0.7)


def test_a_ladders_goal_draws_are_capped_at_goal_steps_until_the_top_rung_opens():
    """``goal_steps``: the goal's draws before it opens practise its first steps, so they end after that many; the
    rungs below and the top rung once open keep the run's own cap (None)."""
    tasks = [*fam_tasks("g.one"), *fam_tasks("g.top")]
    lad = make_sampler(tasks, "ladder", CurriculumSettings(window=8, goal=0.1, goal_steps=3), seed=1)
    assert lad.step_cap(tasks[5]) == 3 and lad.step_cap(tasks[0]) is None
    lad.record(tasks[0], [True] * 8)
    assert lad.open == 2 and lad.step_cap(tasks[5]) is None
    plain = make_sampler(tasks, "ladder", CurriculumSettings(window=8, goal=0.1), seed=1)
    assert plain.step_cap(tasks[5]) is None
    assert make_sampler(tasks, "on").step_cap(tasks[5]) is None
    assert make_sampler(tasks, "off").step_cap(tasks[5]) is None
    with pytest.raises(ConfigError, match="goal share > 0"):
        CurriculumSettings(goal_steps=3)
    with pytest.raises(ConfigError, match=">= 0"):
        CurriculumSettings(goal=0.1, goal_steps=-1)


def test_a_ladders_goal_takes_goal_last_in_whole_episodes_once_the_rung_below_it_leads():
    """``goal_last``: with the rung just below the goal the frontier, the goal takes that share (not ``goal``) and
    its draws run whole (no ``goal_steps`` cap); below that, and once the goal opens, as before."""
    tasks = [*fam_tasks("g.one"), *fam_tasks("g.two"), *fam_tasks("g.top")]
    lad = make_sampler(tasks, "ladder", CurriculumSettings(window=8, goal=0.1, goal_steps=3, goal_last=0.25), seed=1)
    assert lad.weights() == pytest.approx({"g.one": 0.9, "g.two": 0.0, "g.top": 0.1})
    assert lad.step_cap(tasks[10]) == 3
    lad.record(tasks[0], [True] * 8)  # g.two, the rung below the goal, leads
    assert lad.open == 2 and lad.weights() == pytest.approx({"g.one": 0.3, "g.two": 0.45, "g.top": 0.25})
    assert lad.step_cap(tasks[10]) is None and lad.step_cap(tasks[5]) is None
    lad.record(tasks[5], [True] * 8)  # the goal opens: the frontier's share, its own cap
    assert lad.open == 3 and lad.weights()["g.top"] == pytest.approx(0.7) and lad.step_cap(tasks[10]) is None
    with pytest.raises(ConfigError, match="goal_last"):
        CurriculumSettings(review=0.3, goal_last=0.7)
