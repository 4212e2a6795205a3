"""The in-process Qwen3-VL backend on the tiny model: build, sampling, on-policy logprobs (sampler vs
teacher-forced), grammar-constrained decoding, LoRA adapters."""

from __future__ import annotations

import hashlib

import pytest
from policy_helpers import make_obs

from halo.policy.base import DecodingConfig
from halo.policy.prompt import PromptConfig
from halo.rl.forward import score

pytestmark = [pytest.mark.ml, pytest.mark.usefixtures("one_torch_thread")]
torch = pytest.importorskip("torch")

SMALL = PromptConfig(max_pixels=64 * 32 * 32, min_pixels=16 * 32 * 32)
LOGPROB_TOL = 1e-4


@pytest.fixture(scope="module")
def policy(tiny_model_dir):
    from halo.policy.hf_backend import HFPolicy

    return HFPolicy(tiny_model_dir, decoding=DecodingConfig(temperature=0.7, max_tokens=24, seed=0), prompt=SMALL)


def test_tiny_model_is_small_and_deterministic(tiny_model_dir, tmp_path):
    from halo.policy.tiny import build_tiny_model

    size = sum(f.stat().st_size for f in tiny_model_dir.iterdir())
    assert 1e6 < size < 10e6, size
    again = build_tiny_model(tmp_path / "again", seed=0)

    def digest(d):
        return {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in sorted(d.iterdir())}

    assert digest(again) == digest(tiny_model_dir)


async def test_sampling_returns_n_samples_with_tokens_and_logprobs(policy):
    obs = make_obs()
    samples = await policy.sample_actions(obs, n=4)
    assert len(samples) == 4
    for s in samples:
        assert s.token_ids and len(s.token_ids) == len(s.logprobs) <= 24
        assert all(lp <= 0 for lp in s.logprobs)
        assert s.finish_reason in ("stop", "length")
        assert s.prompt_tokens > 64  # 64 visual tokens plus the text
        assert (s.action is None) != (s.error is None)
    assert len({s.token_ids for s in samples}) > 1  # random weights at T=0.7: the samples differ


async def test_sampler_and_teacher_forced_logprobs_agree(policy):
    obs = make_obs()
    samples = await policy.sample_actions(obs, n=4, temperature=0.7)
    prompt = policy.build_prompt(obs)
    scored = score(policy, prompt, [s.token_ids for s in samples], temperature=0.7)
    diff = max(abs(a - b) for s, sc in zip(samples, scored) for a, b in zip(s.logprobs, sc))
    print(f"\nsampler vs teacher-forced logprob max |diff| (T=0.7, n=4): {diff:.3g}")
    assert diff <= LOGPROB_TOL
    # and the check can fail: scoring at another temperature gives other numbers
    other = score(policy, prompt, [samples[0].token_ids], temperature=1.0)[0]
    assert max(abs(a - b) for a, b in zip(samples[0].logprobs, other)) > LOGPROB_TOL


async def test_greedy_is_deterministic_and_on_policy(policy):
    obs = make_obs()
    a, b = await policy.sample_single(obs), await policy.sample_single(obs)
    assert a.token_ids == b.token_ids
    scored = score(policy, policy.build_prompt(obs), [a.token_ids])[0]
    assert max(abs(x - y) for x, y in zip(a.logprobs, scored)) <= LOGPROB_TOL


async def test_constrained_decoding_gives_only_valid_actions(tiny_model_dir):
    from halo.policy.hf_backend import HFPolicy

    pol = HFPolicy(tiny_model_dir, decoding=DecodingConfig(temperature=1.0, max_tokens=64, seed=1, constrained=True),
                   prompt=PromptConfig(max_pixels=SMALL.max_pixels, min_pixels=SMALL.min_pixels, include_axtree=True))
    obs = make_obs()
    samples = await pol.sample_actions(obs, n=6)
    bad = [(s.text, s.error) for s in samples if s.action is None]
    assert not bad, bad
    assert all(s.text.startswith("<tool_call>\n{") for s in samples)
    element_actions = [s.action for s in samples if hasattr(s.action, "element")]
    assert all(a.element in obs.elements for a in element_actions)
    # logprobs stay the model's own (what a trainer recomputes), the masked ones are kept beside them
    scored = score(pol, pol.build_prompt(obs), [s.token_ids for s in samples])
    assert max(abs(a - b) for s, sc in zip(samples, scored) for a, b in zip(s.logprobs, sc)) <= LOGPROB_TOL
    assert all(len(s.sampler_logprobs) == len(s.token_ids) for s in samples)
    assert all(m >= r - 1e-5 for s in samples for m, r in zip(s.sampler_logprobs, s.logprobs))


async def test_unconstrained_random_model_mostly_babbles(policy):
    # the counterpart of the test above: without the grammar the random model rarely writes a valid call
    samples = await policy.sample_actions(make_obs(), n=8, temperature=1.0)
    assert sum(s.action is not None for s in samples) < 8


async def test_lora_adapter_loads_and_changes_the_policy(tiny_model_dir, tmp_path):
    from peft import LoraConfig, get_peft_model

    from halo.policy.hf_backend import HFPolicy, load_model
    from halo.rl.forward import token_logprobs, training_batch

    base = load_model(tiny_model_dir)
    peft_model = get_peft_model(base, LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"]))
    torch.manual_seed(0)
    with torch.no_grad():
        for name, p in peft_model.named_parameters():
            if "lora_B" in name:
                p.normal_(0, 0.5)
    peft_model.save_pretrained(tmp_path / "adapter")

    plain = HFPolicy(tiny_model_dir, decoding=DecodingConfig(max_tokens=16), prompt=SMALL)
    adapted = HFPolicy(tiny_model_dir, adapter=tmp_path / "adapter", decoding=DecodingConfig(max_tokens=16),
                       prompt=SMALL)
    obs = make_obs()
    sample = await adapted.sample_single(obs)
    prompt = adapted.build_prompt(obs)
    with_adapter = score(adapted, prompt, [sample.token_ids])[0]
    without = score(plain, prompt, [sample.token_ids])[0]
    assert max(abs(a - b) for a, b in zip(with_adapter, without)) > 1e-3
    assert max(abs(a - b) for a, b in zip(sample.logprobs, with_adapter)) <= LOGPROB_TOL  # on-policy with LoRA
    with torch.no_grad():  # the saved adapter is the in-memory one
        batch = training_batch(adapted.encode(prompt), [sample.token_ids], adapted.pad_id)
        ref = token_logprobs(peft_model.eval(), batch)[0, batch.prompt_len - 1:].tolist()
    assert max(abs(a - b) for a, b in zip(with_adapter, ref)) <= LOGPROB_TOL


def test_missing_model_or_adapter_is_a_policy_error(tiny_model_dir, tmp_path):
    from halo.errors import PolicyError
    from halo.policy.hf_backend import HFPolicy

    with pytest.raises(PolicyError, match="halo model tiny"):
        HFPolicy(tmp_path / "nothing-here")
    with pytest.raises(PolicyError, match="no PEFT adapter"):
        HFPolicy(tiny_model_dir, adapter=tmp_path)


def test_tokens_per_step_at_default_settings(tiny_model_dir):
    from halo.policy.hf_backend import HFPolicy

    pol = HFPolicy(tiny_model_dir, prompt=PromptConfig())
    prompt = pol.build_prompt(make_obs())
    enc = pol.encode(prompt)
    image_tokens = int((enc["input_ids"] == pol.model.config.image_token_id).sum())
    total = enc["input_ids"].shape[1]
    print(f"\ntokens per step at default settings: {total} ({image_tokens} visual + {total - image_tokens} text, "
          "text counted with the tiny tokenizer)")
    assert image_tokens == prompt.visual_tokens == 880
    assert total - image_tokens > 500  # system prompt with the tool schemas
