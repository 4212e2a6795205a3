"""Hindsight relabelling: a failed family episode becomes, for self-imitation's buffer, a success of another training
instance: the goal replaced in every step's observation and prompt, the grammar's key recomputed for that goal, the
sampler's prompt length dropped (it never read this prompt); text replies, successes, errored or stateless episodes
and non-family tasks are never relabelled."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest

from halo.errors import ConfigError
from halo.policy.action_space import page_schema
from halo.policy.base import PolicyBackend, Sample
from halo.policy.parse import parse_action
from halo.policy.prompt import PromptConfig
from halo.rl.config import GRPOSettings
from halo.rl.hindsight import Hindsight, relabel
from halo.rl.rewards import RewardBreakdown
from halo.rl.rollout import Episode, Step
from halo.rl.self_imitation import SelfImitation
from halo.tasks.families import get_family

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "policy"))

FAMILY = "omnizon.department"
TINY = PromptConfig(max_pixels=16384, min_pixels=4096, actions=("click", "go_back", "send_msg_to_user"),
                    elements="visible", text="goal", text_max_chars=24, single_tool=True, system="none",
                    user="compact", tree="controls")


class _Prompts(PolicyBackend):
    """The tiny mode's prompt builder; relabelling never samples."""

    async def complete(self, prompt, obs, n, temperature):
        raise AssertionError("relabelling must not sample")


def _policy():
    return _Prompts(prompt=TINY)


def _episode(policy, inst, reply: str, success=False, state=None) -> Episode:
    from policy_helpers import make_obs

    obs = make_obs(goal=inst.goal, task_id=inst.id)
    smp = Sample(text=reply, parsed=parse_action(reply, obs), token_ids=(1, 2, 3), logprobs=(-1.0,) * 3,
                 sampler_logprobs=(-1.0,) * 3, grammar=json.dumps(page_schema(obs, TINY)), prompt_tokens=99)
    ep = Episode(id="e1", task_id=inst.id, site="omnizon", success=success, final_state=state)
    ep.steps.append(Step(index=0, obs=obs, prompt=policy.build_prompt(obs), sample=smp,
                         reward=RewardBreakdown(0.0, {}), next_url="", error=None))
    return ep


CLICK = '<tool_call>\n{"name": "browser", "arguments": {"action": "click", "element": "12"}}\n</tool_call>'
MESSAGE = ('<tool_call>\n{"name": "browser", "arguments": {"action": "send_msg_to_user", "text": "done"}}\n'
           '</tool_call>')


def test_relabel_rewrites_the_goal_prompt_and_grammar():
    pol = _policy()
    a, b = get_family(FAMILY).instances("train")[:2]
    ep = _episode(pol, a, CLICK)
    assert ep.steps[0].sample.action is not None
    r = relabel(ep, b, pol)
    assert r.success and r.task_id == b.id and len(r.steps) == 1
    st = r.steps[0]
    assert st.obs.goal == b.goal and b.goal in json.dumps(st.prompt.hf_messages())
    assert a.goal not in json.dumps(st.prompt.hf_messages())
    assert st.sample.token_ids == ep.steps[0].sample.token_ids and st.sample.prompt_tokens is None
    assert st.sample.grammar == json.dumps(page_schema(st.obs, TINY)) != ep.steps[0].sample.grammar  # goal phrases
    assert ep.steps[0].obs.goal == a.goal  # the original episode is left as it was
    assert relabel(_episode(pol, a, MESSAGE), b, pol) is None  # typed text need not exist in another goal


def test_a_reply_whose_tokens_the_new_goals_grammar_replay_forbids_is_not_relabelled():
    """The same text is not always the same tokens: where the new goal leaves one continuation, the learner's replay
    forces its longest token and forbids the one sampled (a -inf logprob, then NaN weights). Such a reply is not
    relabelled; one whose every token the replay admits is."""
    import math

    import torch

    class Replaying(_Prompts):
        forbid: int | None = None

        def grammar_mask(self, grammar, token_ids):
            mask = torch.zeros((len(token_ids), 8))
            if self.forbid is not None:
                mask[1, self.forbid] = -math.inf
            return mask

    pol = Replaying(prompt=TINY)
    a, b = get_family(FAMILY).instances("train")[:2]
    ep = _episode(pol, a, CLICK)  # its tokens: 1, 2, 3
    assert relabel(ep, b, pol) is not None
    pol.forbid = 5  # another token forbidden at step 1: the reply's 2 is still allowed
    assert relabel(ep, b, pol) is not None
    pol.forbid = 2
    assert relabel(ep, b, pol) is None


def test_only_failed_finished_family_episodes_with_a_state_are_relabelled(monkeypatch):
    import halo.rl.hindsight as hs

    pol = _policy()
    a, b = get_family(FAMILY).instances("train")[:2]
    monkeypatch.setattr(hs, "achieved", lambda family, index, state, rng, limit=0: [b] if state else [])
    h = Hindsight(pol)
    assert [e.task_id for e in h(_episode(pol, a, CLICK, state={"x": 1}))] == [b.id]
    assert h(_episode(pol, a, CLICK, state=None)) == []
    assert h(_episode(pol, a, CLICK, success=True, state={"x": 1})) == []
    ep = _episode(pol, a, CLICK, state={"x": 1})
    ep.task_id = "v2.omnizon-3"  # a REAL task: no family grader to read the state against
    assert h(ep) == []
    # the buffer keeps the relabelled success under its instance; the family's success rate counts the real outcome
    si = SelfImitation(per_update=4)
    si.record([[_episode(pol, a, CLICK, state={"x": 1})]], h)
    assert list(si.buffer) == [b.id] and si.relabelled == 1 and si.success_rate(FAMILY) == 0.0
    items, stats = si.replay()
    assert stats.episodes == 1 and items[0].replayed and items[0].prompt_tokens is None


def test_hindsight_needs_self_imitation():
    with pytest.raises(ConfigError, match="self_imitation"):
        GRPOSettings(hindsight=True)
    assert GRPOSettings(hindsight=True, self_imitation=4).hindsight
    with pytest.raises(ConfigError, match="hindsight_per_episode must be >= 1"):
        GRPOSettings(hindsight=True, self_imitation=4, hindsight_per_episode=0)


def test_the_trainer_relabels_as_many_instances_per_episode_as_set(tmp_path):
    from halo.rl.grpo import GRPOTrainer
    from halo.runtime.runs import RunDir

    run = RunDir(tmp_path, "h")
    s = GRPOSettings(hindsight=True, self_imitation=4, hindsight_per_episode=4)
    assert GRPOTrainer(None, None, ["t"], s, run).hindsight.per_episode == 4
    s = GRPOSettings(hindsight=True, self_imitation=4)
    assert GRPOTrainer(None, None, ["t"], s, run).hindsight.per_episode == 1


def test_an_instance_reached_midway_is_relabelled_up_to_that_step(monkeypatch):
    """With each step's state kept, an episode that reached another instance's state and went on is that
    instance's success up to the step that first reached it; an instance reached only at the end takes every
    step; a step whose state is unknown reaches nothing."""
    import halo.rl.hindsight as hs

    pol = _policy()
    a, b, c = get_family(FAMILY).instances("train")[:3]
    reach = {"mid": [b], "end": [c], "both": [b, c]}
    monkeypatch.setattr(hs, "achieved", lambda family, index, state, rng, limit=0: reach.get(state["at"], []))

    def episode(states):
        ep = _episode(pol, a, CLICK, state=states[-1])
        ep.steps = [dataclasses.replace(ep.steps[0], index=i) for i in range(len(states))]
        ep.step_states = states
        return ep

    h = Hindsight(pol, per_episode=2)
    got = {e.task_id: len(e.steps) for e in h(episode([{"at": "no"}, {"at": "mid"}, {"at": "no"}, {"at": "end"}]))}
    assert got == {b.id: 2, c.id: 4}
    got = {e.task_id: len(e.steps) for e in h(episode([{"at": "mid"}, None, {"at": "both"}]))}
    assert got == {b.id: 1, c.id: 3}
    assert h(episode([None, {"at": "no"}])) == []
    ep = episode([{"at": "mid"}, {"at": "no"}])
    ep.step_states = []  # not kept: the final state only
    assert h(ep) == []
