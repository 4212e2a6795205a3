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
