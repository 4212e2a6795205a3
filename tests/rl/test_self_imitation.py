"""Self-imitation replay: which episodes the buffer keeps, the weight they replay with, and the learner's on-policy
ratio for them (a stale sampler logprob must not clip a replayed success's gradient away)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from halo.errors import ConfigError
from halo.policy.base import Sample
from halo.policy.parse import parse_action
from halo.rl.config import GRPOSettings
from halo.rl.forward import score
from halo.rl.rewards import RewardBreakdown
from halo.rl.rollout import Episode, Step
from halo.rl.self_imitation import SelfImitation, success_key

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "policy"))


def _episode(task_id: str, success: bool, n_steps: int = 1, errored: bool = False, tokens=(5, 6)) -> Episode:
    ep = Episode(id=f"{task_id}-{success}", task_id=task_id, site="omnizon", errored=errored, success=success)
    for i in range(n_steps):
        smp = Sample(text="x", parsed=parse_action("left_click(1, 1)"), token_ids=tokens, logprobs=(-0.1, -0.2))
        ep.steps.append(Step(index=i, obs=None, prompt=object(), sample=smp, reward=RewardBreakdown(0.0, {}),
                             next_url="", error=None))
    return ep


def test_success_key_is_the_family_or_star():
    assert success_key("omnizon.department-17") == "omnizon.department"
    assert success_key("v2.gomail-4") == "*" and success_key("file:///x.html") == "*"


def test_buffer_keeps_each_tasks_latest_success_only():
    si = SelfImitation(per_update=8, capacity=3)
    a, a2 = _episode("f.x-1", True, n_steps=2), _episode("f.x-1", True, tokens=(7,))
    si.record([[a, _episode("f.x-2", False), _episode("f.x-3", True, errored=True)]])
    assert list(si.buffer) == ["f.x-1"]  # failures and errored episodes are not replayed
    assert [it.token_ids for it in si.buffer["f.x-1"][1]] == [(5, 6), (5, 6)]  # every step of the episode
    si.record([[a2]])
    assert [it.token_ids for it in si.buffer["f.x-1"][1]] == [(7,)]  # the latest success replaces the older
    si.record([[_episode(f"f.x-{i}", True) for i in (4, 5)]])
    assert list(si.buffer) == ["f.x-1", "f.x-4", "f.x-5"] and si.steps_held == 3
    si.record([[_episode("f.x-6", True, n_steps=2)]])
    assert list(si.buffer) == ["f.x-5", "f.x-6"]  # capacity 3 steps: the oldest tasks leave first
    si.record([[_episode("f.x-7", True, n_steps=5)]])
    assert list(si.buffer) == ["f.x-7"]  # a longer episode than the capacity is still kept, alone
    # errored episodes do not count toward the success rate either: 1 success (a), 1 failure, then a2, 4, 5, 6, 7
    assert si.success_rate("f.x") == pytest.approx(6 / 7)


def test_replay_weight_fades_as_the_family_is_learned():
    si = SelfImitation(per_update=2, seed=1)
    si.record([[_episode("f.x-1", True)] + [_episode("f.x-2", False)] * 3, [_episode("g.y-1", True)]])
    items, stats = si.replay()
    # f.x: 1 success in 4 episodes -> weight 0.75; g.y: 1 in 1 -> weight 0, left out
    assert [it.advantage for it in items] == [0.75] and stats.episodes == 1 and stats.buffer == 2
    assert stats.weight == 0.75 and all(it.replayed and it.sampler_logprobs == () for it in items)
    si.record([[_episode("f.x-3", True)] * 4])  # f.x now 5 in 8
    assert [it.advantage for it in si.replay()[0]] == [0.375]
    one = SelfImitation(per_update=1, seed=0)
    one.record([[_episode(f"f.x-{i}", True) for i in range(3)] + [_episode("f.x-9", False)] * 9])
    assert len(one.replay()[0]) == 1  # per_update caps the episodes replayed
    assert SelfImitation(per_update=4).replay()[0] == []  # nothing found yet: nothing replayed


def test_a_weighted_draw_replays_the_unlearned_family_every_update_and_in_proportion():
    """A ladder's buffer: twenty successes of a learned rung (weight 0) and one of the new rung. Drawing two a
    update, the uniform draw replays the new rung's about one update in ten; the weighted one every time, and
    between two unlearned families in proportion to their weights."""
    def buffer(draw: str, per_update: int = 2) -> SelfImitation:
        si = SelfImitation(per_update=per_update, seed=3, draw=draw)
        si.record([[_episode(f"old.rung-{i}", True) for i in range(20)],
                   [_episode("new.rung-1", True)] + [_episode("new.rung-2", False)] * 9])
        return si

    def new_share(si: SelfImitation, n: int = 400) -> float:
        return sum(any(it.advantage == pytest.approx(0.9) for it in si.replay()[0]) for _ in range(n)) / n

    assert new_share(buffer("uniform")) < 0.2 and new_share(buffer("weight")) == 1.0
    si = buffer("weight", per_update=1)
    si.record([[_episode("mid.rung-1", True)] + [_episode("mid.rung-2", False)]])  # weight 0.5 against 0.9
    firsts = [si.replay()[0][0].advantage for _ in range(3000)]
    assert firsts.count(0.5) / len(firsts) == pytest.approx(0.5 / 1.4, abs=0.04)
    with pytest.raises(ConfigError, match="self_imitation_draw"):
        SelfImitation(per_update=1, draw="greedy")


def test_bad_settings_are_config_errors():
    with pytest.raises(ConfigError, match="self_imitation"):
        GRPOSettings(self_imitation=-1)
    with pytest.raises(ConfigError, match="capacity"):
        GRPOSettings(self_imitation=4, self_imitation_capacity=0)


@pytest.mark.ml
def test_a_replayed_success_is_learned_on_the_current_policy_not_clipped_away(tiny_model):
    """Once the policy has raised a reply far above what the sampler gave it, PPO's clip zeroes a positive
    advantage's gradient; a replayed item's ratio is taken against the current policy, so it still learns."""
    torch = pytest.importorskip("torch")
    from policy_helpers import make_obs

    from halo.policy.base import DecodingConfig
    from halo.policy.hf_backend import HFPolicy
    from halo.policy.prompt import PromptConfig
    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.learner import LoRALearner, TrainItem

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        policy = HFPolicy(tiny_model, decoding=DecodingConfig(temperature=1.0, max_tokens=24, seed=0),
                          prompt=PromptConfig(max_pixels=4096 * 4, min_pixels=4096))
        obs = make_obs()
        prompt = policy.build_prompt(obs)
        s = asyncio.run(policy.sample_actions(obs, 1, 1.0))[0]
        learner = LoRALearner(policy, LoRASettings(rank=8, alpha=16), OptimSettings(lr=2e-2, max_tokens=24))
        now = score(policy, prompt, [s.token_ids])[0]
        # sampled when each token was e times less likely than now: every ratio is e > 1 + clip_eps
        stale = learner.update([TrainItem(prompt, s.token_ids, tuple(x - 1.0 for x in now), 1.0)])
        assert stale.clip_frac == 1.0 and stale.grad_norm == 0.0
        replayed = learner.update([TrainItem(prompt, s.token_ids, (), 1.0, replayed=True)])
        assert replayed.clip_frac == 0.0 and replayed.ratio_mean == pytest.approx(1.0, abs=1e-5)
        assert replayed.grad_norm > 0 and sum(score(policy, prompt, [s.token_ids])[0]) > sum(now)
    finally:
        torch.set_num_threads(before)
