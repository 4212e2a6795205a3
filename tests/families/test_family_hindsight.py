"""Hindsight relabelling against real final states: an episode that opened another department than its goal's is,
by the family's own grader, a success of exactly the training instances that ask for that department."""

from __future__ import annotations

import random

import pytest
from family_oracles_omnizon import ORACLES

from halo.families import get_family
from halo.families.base import split_of
from halo.rl.hindsight import achieved

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
