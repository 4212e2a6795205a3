"""The Tinker policy backend for `halo eval`: a TokenCompleter behind HALO's PolicyBackend, the prompt rendered as
in training. Offline the completer is the local tiny model; the Tinker client itself needs a key and the network."""

from __future__ import annotations

import io

import pytest

from halo.errors import ConfigError, PolicyError


def test_sampling_client_needs_a_key_and_a_tinker_path(monkeypatch):
    from halo.policy.tinker.backend import tinker_sampling_client

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
    from halo.policy.tinker.backend import TokenCompleterPolicy
    from halo.policy.tinker.render import load_renderer
    from halo.rl.rollout import run_episode
    from halo.tasks.real import get_task

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


class FakeSamplingClient:
    """Tinker's sampling client as far as ``TinkerTokenCompleter`` uses it (a scripted fake of the remote
    service): records each request, answers with a fixed reply."""

    def __init__(self, reply_tokens: list[int]):
        self.reply = reply_tokens
        self.requests = []

    async def sample_async(self, prompt, num_samples, sampling_params):
        from types import SimpleNamespace

        self.requests.append((prompt, num_samples, sampling_params))
        seq = SimpleNamespace(tokens=list(self.reply), logprobs=[-0.5] * len(self.reply), stop_reason="stop")
        return SimpleNamespace(sequences=[seq])


async def test_tinker_completer_path(tiny_dir):
    from policy_like import make_obs
    from tinker_cookbook.completers import TinkerTokenCompleter
    from tinker_helpers import FAST_PROMPT

    import tinker
    from halo.env.actions import LeftClick
    from halo.policy.base import DecodingConfig
    from halo.policy.prompt import tool_call_text
    from halo.policy.tinker.backend import TokenCompleterPolicy
    from halo.policy.tinker.render import load_renderer

    renderer = load_renderer("qwen3_vl_instruct", tiny_dir)
    stop = renderer.get_stop_sequences()
    reply = renderer.tokenizer.encode(tool_call_text(LeftClick(500, 320)), add_special_tokens=False) + stop
    client = FakeSamplingClient(reply)
    completer = TinkerTokenCompleter(client, max_tokens=300, temperature=0.7)
    policy = TokenCompleterPolicy(completer, renderer, DecodingConfig(temperature=0.7, max_tokens=120), FAST_PROMPT)

    samples = await policy.sample_actions(make_obs(), n=2, temperature=0.3)
    assert [s.action for s in samples] == [LeftClick(500, 320)] * 2
    assert all(s.finish_reason == "stop" and s.logprobs == (-0.5,) * len(reply) for s in samples)
    assert len(client.requests) == 2
    prompt, n, params = client.requests[0]
    assert n == 1 and params.temperature == 0.3 and params.max_tokens == 120 and params.stop == stop
    assert isinstance(prompt, tinker.ModelInput)
    images = [c for c in prompt.chunks if isinstance(c, tinker.types.ImageChunk)]
    assert len(images) == 1 and images[0].format == "jpeg"
    from PIL import Image

    from halo.policy.tinker.models import load_image_processor

    w, h = Image.open(io.BytesIO(images[0].data)).size
    assert (w, h) == (416, 224)  # HALO's pixel budget, sides on the 32-pixel grid
    ip = load_image_processor(tiny_dir)  # what the sampler counts: the image as HALO sized it
    assert images[0].expected_tokens == ip.get_number_of_image_patches(h, w, images_kwargs={}) // 4 == 13 * 7
    assert completer.temperature == 0.7  # the policy's call did not change the shared completer


def test_tinker_mode_without_key_fails_before_loading_anything(monkeypatch):
    from halo.policy.modes import ModeConfig
    from halo.policy.tinker.backend import from_mode

    # backend "tinker" as the mode a user would write (model_construct: the mode schema is the modes module's)
    mode = ModeConfig.model_construct(name="qwen3vl_tinker", backend="tinker", model="Qwen/Qwen3-VL-30B-A3B-Instruct",
                                      adapter="tinker://run-1/sampler_weights/final", decoding={}, prompt={})
    monkeypatch.delenv("TINKER_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="TINKER_API_KEY is not set"):
        from_mode(mode)
