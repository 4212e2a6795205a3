"""Hindsight relabelling against real final states: an episode that opened another department than its goal's is,
by the family's own grader, a success of exactly the training instances that ask for that department."""

from __future__ import annotations

import random

import pytest
from family_oracles_omnizon import ORACLES

from halo.rl.hindsight import achieved
from halo.tasks.families import get_family
from halo.tasks.types import split_of

FAMILY = "omnizon.department"


@pytest.mark.browser
async def test_a_final_state_achieves_the_instances_that_ask_for_it(run_instance):
    fam = get_family(FAMILY)
    train = fam.instances("train")
    goal_inst = train[0]
    other = next(i for i in train if i.params["link"] != goal_inst.params["link"])
    res, _ = await run_instance(goal_inst, lambda d, p: ORACLES[FAMILY](d, other.params))
    state = res.info.grade.finish_state
    assert not res.info.grade.success  # a failure for its own goal
    found = achieved(FAMILY, goal_inst.index, state, random.Random(0), limit=10_000)
    want = [i for i in train if i.index != goal_inst.index and i.params["link"] == other.params["link"]]
    assert sorted(i.index for i in found) == sorted(i.index for i in want) and found
    assert all(split_of(FAMILY, i.index) == "train" for i in found)  # held-out goals are never a target
    untouched, _ = await run_instance(goal_inst, None)
    assert achieved(FAMILY, goal_inst.index, untouched.info.grade.finish_state, random.Random(0)) == []


@pytest.mark.browser
async def test_a_day_view_passed_through_is_relabelled_up_to_its_step(families_pool, family_site_urls):
    """gocalendar.otherday through the real rollout: Next week, a date of that week in the header (another
    instance's goal reached), then Today (gone again). The rollout keeps each step's state; hindsight makes
    the first two steps a success of an instance asking for that day, the third left out."""
    import dataclasses
    from datetime import date

    from halo.env import actions as A
    from halo.env.env import BrowserEnv
    from halo.policy.scripted import ScriptedPolicy
    from halo.rl.hindsight import Hindsight
    from halo.rl.rollout import run_episode
    from halo.tasks.families import family_task
    from halo.tasks.families.gocalendar import long_day

    fam = get_family("gocalendar.otherday")
    train = fam.instances("train")
    goal = next(i for i in train if i.params["date"] == "2024-07-09")  # a day of the week before
    day = date(2024, 7, 23)
    names = {0: "Next week", 1: long_day(day), 2: "Today, Thursday, July 18"}

    def script(obs):
        return A.Click(next(e.id for e in obs.elements.values() if e.name == names[obs.step]))

    env = BrowserEnv(families_pool, max_steps=3)
    try:
        ep = await run_episode(env, ScriptedPolicy(script), family_task(goal, family_site_urls), max_steps=3,
                               keep_state=True)
    finally:
        await env.close()
    assert not ep.errored, ep.error
    assert not ep.success and len(ep.steps) == len(ep.step_states) == 3
    assert ep.final_state is ep.step_states[-1]
    ep.steps = [dataclasses.replace(st, sample=dataclasses.replace(st.sample, token_ids=(1, 2))) for st in ep.steps]
    relabelled = Hindsight(ScriptedPolicy(script), per_episode=50)(ep)  # (a script samples no tokens: given some)
    assert relabelled and all(len(e.steps) == 2 for e in relabelled)
    want = {i.id for i in train if i.params["date"] == day.isoformat()}
    assert {e.task_id for e in relabelled} == want
