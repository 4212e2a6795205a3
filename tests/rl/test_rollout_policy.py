"""What the rollout asks of a policy: a prompt built once per step, and evaluation-only recovery applied on it."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from halo.env.actions import LeftClick
from halo.policy.recovery import RecoveringPolicy
from halo.policy.scripted import ScriptedPolicy

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "policy"))


def test_recovery_applies_on_the_rollouts_sampling_path():
    from policy_helpers import make_obs

    click = LeftClick(500, 300)
    obs = make_obs(last_actions=(click.describe(), click.describe()), axtree='[12] button "Sign in"')
    inner = ScriptedPolicy([click])
    wrapped = RecoveringPolicy(inner)
    prompt = wrapped.build_prompt(obs)
    (plain,) = asyncio.run(inner.sample_prompt(prompt, obs, 1, 0.0))
    (fixed,) = asyncio.run(wrapped.sample_prompt(prompt, obs, 1, 0.0))
    assert plain.action == click
    assert fixed.action != click and any(r.startswith("recovery:") for r in fixed.parsed.repairs)
    assert wrapped.interventions == 1


def test_the_rollout_sets_the_envs_capture_budget_from_the_policys_prompt():
    """run_episode asks the env for screenshots of about the size the policy's prompt keeps, before the reset."""
    from halo.policy.prompt import PromptConfig
    from halo.rl.rollout import run_episode

    class Env:
        screenshot_max_pixels = None
        max_steps = 1
        seen: list = []

        async def reset(self, task):
            self.seen.append(self.screenshot_max_pixels)
            raise RuntimeError("stop here")

    env, task = Env(), type("T", (), {"id": "t", "site": "s"})()
    pol = ScriptedPolicy([LeftClick(1, 1)])
    pol.prompt_config = PromptConfig(max_pixels=16384, min_pixels=4096)
    ep = asyncio.run(run_episode(env, pol, task))
    assert env.seen == [16384] and ep.errored and "stop here" in ep.error


def test_family_steps_caps_an_episode_at_what_its_family_needs():
    """grpo.family_steps: a one-step family's episode is one decision even where max_steps allows ten (a ladder's
    low rungs stay short); a 5+-step family gets its ten; without the flag max_steps alone bounds it."""
    from policy_helpers import make_obs

    from halo.rl.rollout import run_episode
    from halo.tasks.families import get_family

    class Env:
        max_steps = 20
        steps = 0

        async def reset(self, task):
            return make_obs()

        async def step(self, action):
            from halo.env.types import StepInfo, StepResult

            self.steps += 1
            return StepResult(observation=make_obs(), reward=0.0, done=False, truncated=False, info=StepInfo())

    def episode(family: str, **kw) -> int:
        env = Env()
        task = type("T", (), {"id": f"{family}-1", "site": "gomail", "family": family, "index": 1})()
        pol = ScriptedPolicy([LeftClick(1, 1)] * 30)
        ep = asyncio.run(run_episode(env, pol, task, max_steps=12, **kw))
        assert not ep.errored, ep.error
        return len(ep.steps)

    assert get_family("gomail.folder").max_steps == 1 and get_family("gomail.send").max_steps == 10
    assert episode("gomail.folder", family_steps=True) == 1
    assert episode("gomail.send", family_steps=True) == 10
    assert episode("gomail.folder") == 12
