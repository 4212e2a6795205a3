"""The Tinker policy backend for `halo eval`: a TokenCompleter behind HALO's PolicyBackend, the prompt rendered as
in training. Offline the completer is the local tiny model; the Tinker client itself needs a key and the network."""

from __future__ import annotations

import pytest

from halo.errors import ConfigError, PolicyError


def test_sampling_client_needs_a_key_and_a_tinker_path(monkeypatch):
    from halo.policy.tinker_backend import tinker_sampling_client

    monkeypatch.delenv("TINKER_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="TINKER_API_KEY is not set"):
        tinker_sampling_client("Qwen/Qwen3-VL-30B-A3B-Instruct", "tinker://run/sampler_weights/final")
    monkeypatch.setenv("TINKER_API_KEY", "tml-test")
    with pytest.raises(PolicyError, match="not a Tinker path"):
        tinker_sampling_client("Qwen/Qwen3-VL-30B-A3B-Instruct", "runs/x/adapter")


@pytest.mark.browser
@pytest.mark.ml
async def test_eval_rollout_with_a_token_completer_policy(constrained_completer, tiny_dir, site_urls, chromium):
    from tinker_helpers import FAST_PROMPT

    from halo.env.browser import BrowserPool
    from halo.env.env import BrowserEnv
    from halo.policy.base import DecodingConfig
    from halo.policy.tinker_backend import TokenCompleterPolicy
    from halo.rl.rollout import run_episode
    from halo.tasks import get_task
    from halo.tinker.render import load_renderer

    policy = TokenCompleterPolicy(constrained_completer, load_renderer("qwen3_vl_instruct", tiny_dir),
                                  DecodingConfig(temperature=1.0, max_tokens=64), FAST_PROMPT)
    task = get_task("v2.gomail-14", sites="local", site_urls=site_urls)
    async with BrowserPool() as pool:
        env = BrowserEnv(pool, max_steps=1)
        try:
            ep = await run_episode(env, policy, task, max_steps=1)
        finally:
            await env.close()
    assert not ep.errored, ep.error
    (step,) = ep.steps
    s = step.sample
    assert s.action is not None, s.error  # the grammar holds the tiny model to valid actions
    assert s.text.startswith("<tool_call>") and s.finish_reason in ("stop", "length")
    stop = policy.renderer.get_stop_sequences()
    assert (s.token_ids[-1] in stop) == (s.finish_reason == "stop")  # a reply cut at max_tokens has no stop token
    assert len(s.token_ids) == len(s.logprobs) > 0 and s.prompt_tokens > 0
    assert step.reward.parts["valid_action"] == pytest.approx(0.1)
    assert ep.truncated or ep.steps[-1].sample.action.terminal
