"""The learner's packed forwards: rows of different prompts (left-padded, ``packed_batch``) score exactly as each
prompt alone does, an update does not depend on how its rows are packed, and each prompt is encoded once."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "policy"))  # policy_helpers, run alone too

pytestmark = [pytest.mark.ml]
torch = pytest.importorskip("torch")

GOALS = ("Sign in", "Sign in with jane@example.com and open the inbox", "Open the settings page of the account now")


def _policy(tiny_model):
    from policy_helpers import constrained_tiny_policy

    return constrained_tiny_policy(tiny_model, seed=5)


def _items(policy, per_prompt: int = 3):
    """Constrained samples of three prompts of different lengths, with mixed advantages."""
    from policy_helpers import make_obs

    from halo.rl.learner import TrainItem

    items = []
    for k, goal in enumerate(GOALS):
        obs = make_obs(goal=goal)
        prompt = policy.build_prompt(obs)
        for j, s in enumerate(asyncio.run(policy.sample_prompt(prompt, obs, per_prompt, 1.0))):
            assert s.grammar and s.sampler_logprobs is not None
            items.append(TrainItem(prompt=prompt, token_ids=tuple(s.token_ids), sampler_logprobs=s.sampler_logprobs,
                                   advantage=(1.0 if (j + k) % 2 else -0.5), grammar=s.grammar,
                                   prompt_tokens=s.prompt_tokens))
    return items


def test_packed_rows_score_as_each_prompt_alone(tiny_model):
    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.learner import LoRALearner

    policy = _policy(tiny_model)
    items = _items(policy)
    learner = LoRALearner(policy, LoRASettings(rank=4, alpha=8), OptimSettings(lr=1e-3))
    lens = {learner._encode(it.prompt)["input_ids"].shape[1] for it in items}
    assert len(lens) == 3  # the prompts differ in length: rows are left-padded
    with torch.no_grad():
        (packed, ent), ctx, mask = learner._rows_logprobs([(it.prompt, it.token_ids, it.grammar) for it in items],
                                                          entropy=True)
        for r, it in enumerate(items):
            (alone, ent1), _, _ = learner._logprobs(it.prompt, [it.token_ids], [it.grammar], entropy=True)
            n = len(it.token_ids)
            assert packed[r, :n].tolist() == pytest.approx(alone[0, :n].tolist(), abs=1e-5)
            assert ent[r, :n].tolist() == pytest.approx(ent1[0, :n].tolist(), abs=1e-5)
            assert packed[r, :n].tolist() == pytest.approx(list(it.sampler_logprobs), abs=1e-4)  # the sampler's
            assert mask[r].sum() == n
    assert ctx[4] == [learner._encode(it.prompt)["input_ids"].shape[1] for it in items]


def _trained(tiny_model, pack_rows: int, items_from=None):
    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.learner import LoRALearner

    torch.manual_seed(0)
    policy = _policy(tiny_model)
    items = items_from(policy) if items_from else _items(policy)
    learner = LoRALearner(policy, LoRASettings(rank=4, alpha=8), OptimSettings(lr=1e-2, pack_rows=pack_rows))
    calls = []
    encode = policy.encode
    policy.encode = lambda p: calls.append(p) or encode(p)
    mask = policy.grammar_mask
    policy.grammar_mask = lambda g, ids: calls.append(ids) or mask(g, ids)
    batches = learner._micro_batches(items)
    grads, step = [], learner.optimizer.step
    learner.optimizer.step = lambda: grads.append([p.grad.clone() for p in learner.params]) or step()
    stats = [learner.update(items) for _ in range(2)]
    return grads, batches, stats, calls, items


def test_an_update_does_not_depend_on_how_rows_are_packed(tiny_model):
    one, b1, s1, calls, items = _trained(tiny_model, pack_rows=1)
    sixteen, b16, s16, _, _ = _trained(tiny_model, pack_rows=16)
    assert [len(b) for b in b1] == [1] * 9 and [len(b) for b in b16] == [9]
    _, b4, _, _, _ = _trained(tiny_model, pack_rows=4)
    assert [len(b) for b in b4] == [4, 4, 1]
    assert [it for b in b4 for it in b] == items  # a prompt's rows stay together, in order
    for a, b in zip(s1, s16):
        assert a.loss == pytest.approx(b.loss, abs=1e-6)
        assert a.grad_norm == pytest.approx(b.grad_norm, rel=1e-4) and a.grad_norm > 0
    for g1, g16 in zip(one, sixteen):  # the gradients of each update (Adam would magnify rounding in tiny ones)
        assert all(torch.allclose(a, b, rtol=1e-4, atol=1e-8) for a, b in zip(g1, g16))
    prompts = [c for c in calls if not isinstance(c, tuple)]
    assert len({id(p) for p in prompts}) == len(prompts) == 3  # each prompt encoded once over two updates
    assert len(calls) - len(prompts) == len({it.token_ids for it in items})  # each reply's grammar replayed once


def test_pack_tokens_bounds_a_forward(tiny_model):
    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.learner import LoRALearner

    policy = _policy(tiny_model)
    items = _items(policy, per_prompt=2)
    longest = max(policy.encode(it.prompt)["input_ids"].shape[1] + len(it.token_ids) for it in items)
    learner = LoRALearner(policy, LoRASettings(rank=4, alpha=8),
                          OptimSettings(pack_rows=16, pack_tokens=2 * longest))
    batches = learner._micro_batches(items)
    assert all(len(b) <= 2 for b in batches) and sum(len(b) for b in batches) == len(items)
    tight = LoRALearner(policy, LoRASettings(rank=4, alpha=8), OptimSettings(pack_tokens=1))
    assert [len(b) for b in tight._micro_batches(items)] == [1] * len(items)  # a row too long still gets its own


def test_packing_settings_are_checked():
    from halo.errors import ConfigError
    from halo.rl.config import OptimSettings

    for bad in ({"pack_rows": 0}, {"pack_tokens": 0}):
        with pytest.raises(ConfigError, match="pack_"):
            OptimSettings(**bad)


def test_encodings_are_kept_in_host_memory_within_a_byte_budget(tiny_model, monkeypatch):
    """The learner keeps prompts' processor output on the host, bounded in bytes (oldest out first), never beyond."""
    import halo.rl.learner as learner_mod
    from halo.rl.config import LoRASettings
    from halo.rl.learner import LoRALearner

    policy = _policy(tiny_model)
    items = _items(policy, per_prompt=1)
    learner = LoRALearner(policy, LoRASettings(rank=4, alpha=8))
    one = learner._encode(items[0].prompt)
    size = sum(v.numel() * v.element_size() for v in one.values() if hasattr(v, "numel"))
    assert size > 0 and all(v.device.type == "cpu" for v in one.values() if hasattr(v, "device"))
    monkeypatch.setattr(learner_mod, "ENCODING_BYTES_KEPT", int(2.5 * size))
    for it in items:  # three prompts of about the same size: the first is dropped
        learner._encode(it.prompt)
    kept = [e[0] for e in learner._encodings.values()]
    assert kept == [items[1].prompt, items[2].prompt]
    assert learner._encoding_bytes == sum(e[2] for e in learner._encodings.values()) <= 2.5 * size
    assert learner._encode(items[1].prompt) is learner._encodings[id(items[1].prompt)][1]  # a hit: no new encoding
