"""The forced opening of a constrained reply (``HFPolicy._forced_prefix``): the tokens the grammar forces at the start
of every row go through the model with the prompt in one forward, and ``generate`` continues from that cache. The
replies, their logprobs and their grammar state must be what token-by-token decoding gives."""

from __future__ import annotations

import asyncio

import pytest
from policy_helpers import constrained_tiny_policy, make_obs

from halo.env.types import Element

pytestmark = [pytest.mark.ml, pytest.mark.usefixtures("one_torch_thread")]
torch = pytest.importorskip("torch")


def _forwards(policy) -> list[int]:
    calls: list[int] = []
    policy.model.register_forward_pre_hook(lambda m, a, k: calls.append(k["input_ids"].shape[1]), with_kwargs=True)
    return calls


def test_the_forced_opening_takes_one_forward_and_changes_no_reply(tiny_model_dir, monkeypatch):
    from halo.policy.hf_backend import HFPolicy

    obs = make_obs()
    fast = constrained_tiny_policy(tiny_model_dir)
    calls = _forwards(fast)
    (a,) = asyncio.run(fast.sample_prompt(fast.build_prompt(obs), obs, 1, 0.0))
    prefix_len = calls[0] - a.prompt_tokens + 1  # the first forward: the prompt and the prefix but its last token
    assert prefix_len >= 10  # '<tool_call>\n{"name": "browser", "arguments": {"action": "' in the tiny vocabulary
    assert len(calls) == len(a.token_ids) - prefix_len + 1  # then one forward per token generate added

    monkeypatch.setattr(HFPolicy, "_forced_prefix", lambda self, gp, rows, limit: [])
    slow = constrained_tiny_policy(tiny_model_dir)
    slow_calls = _forwards(slow)
    (b,) = asyncio.run(slow.sample_prompt(slow.build_prompt(obs), obs, 1, 0.0))
    assert a.token_ids == b.token_ids and len(slow_calls) == len(b.token_ids)
    assert max(abs(x - y) for x, y in zip(a.logprobs, b.logprobs)) < 1e-5
    assert a.sampler_logprobs == pytest.approx(b.sampler_logprobs, abs=1e-5)
    assert all(x == 0.0 for x in a.sampler_logprobs[:prefix_len])  # forced: probability 1


def test_batched_requests_with_their_own_grammars_score_as_the_learner_replays_them(tiny_model_dir):
    """Two pages (different element ids, so different grammars) sampled in one generate call after a shared forced
    opening: each reply is valid on its own page, and the sampler's logprobs (raw and masked) are what the learner's
    teacher-forced forward with the replayed grammar gives."""
    from halo.rl.forward import token_logprobs, training_batch

    p = constrained_tiny_policy(tiny_model_dir, seed=11)
    other = make_obs(elements={"40": Element("40", "link", "Inbox", (10, 10, 80, 20)),
                               "41": Element("41", "link", "Sent", (10, 40, 80, 20)),
                               "42": Element("42", "button", "Compose", (10, 70, 80, 20))},
                     axtree='[40] link "Inbox"\n[41] link "Sent"\n[42] button "Compose"', goal="Open the Sent folder")
    reqs = [(p.build_prompt(make_obs()), make_obs(), 4), (p.build_prompt(other), other, 4)]
    out = p._complete_batch_sync(reqs, 1.0)
    assert [len(o) for o in out] == [4, 4]
    for (prompt, obs, _), comps in zip(reqs, out):
        for c in comps:
            s = p._sample(c, obs)
            assert s.action is not None, c.text
            if s.action.name == "click":
                assert s.action.element in obs.elements
            with torch.no_grad():
                batch = training_batch(p.encode(prompt), [c.token_ids], p.pad_id)
                P, n = batch.prompt_len, len(c.token_ids)
                raw = token_logprobs(p.model, batch, 1.0)[0, P - 1:P - 1 + n]
                masked = token_logprobs(p.model, batch, 1.0, p.grammar_mask(c.grammar, c.token_ids))[0, P - 1:P - 1 + n]
            assert max(abs(a - b) for a, b in zip(raw.tolist(), c.logprobs)) <= 1e-4
            assert max(abs(a - b) for a, b in zip(masked.tolist(), c.sampler_logprobs)) <= 1e-4


def test_forced_text_is_a_token_the_grammars_mask_admits(tiny_model_dir):
    """xgrammar's mask can be narrower than the bytes: inside a value's string, after "Co" of "Coffee" (with "Coffee
    makers" beside it), it admits "f" but not the vocabulary's longer "ffe". The forced token is the longest one the
    mask admits, in sampling and in the learner's replay alike (before: "ffe" was forced, the row had nothing
    allowed, token 0 was emitted and xgrammar's processor raised an AssertionError in an MCTS run)."""
    import xgrammar as xgr

    p = constrained_tiny_policy(tiny_model_dir, seed=5)
    p.explore, p.explore_values = 0.99, True  # explored replies write the goal's quoted values whole
    obs = make_obs(goal='Buy "Coffee" or "Coffee makers" from the shop')
    comps = asyncio.run(p.sample_prompt(p.build_prompt(obs), obs, 32, 1.0))
    coffee = [c for c in comps if "Coffee" in c.text]
    assert coffee, [c.text for c in comps]
    tok = p.processor.tokenizer
    for c in coffee:  # the learner's replay of the grammar: each emitted token is one its mask allowed
        mask = p.grammar_mask(c.grammar, c.token_ids)
        steps = min(len(c.token_ids), mask.shape[0])
        assert all(bool(torch.isfinite(mask[i, t])) for i, t in enumerate(c.token_ids[:steps])), tok.decode(c.token_ids)
    info = p._grammar.tokenizer_info
    ffe = p._forced.by_bytes.get(b"ffe")
    if ffe is not None:  # the tiny vocabulary has it: without the mask's word the longer token would be forced
        comp = xgr.GrammarCompiler(info)
        g = comp.compile_json_schema('{"type": "object", "properties": {"t": {"enum": ["Coffee", "Coffee makers"]}}, '
                                     '"required": ["t"], "additionalProperties": false}', any_whitespace=False)
        m = xgr.GrammarMatcher(g)
        assert m.accept_string('{"t":"Co') or m.accept_string('{"t": "Co')
        bm = xgr.allocate_token_bitmask(1, info.vocab_size)
        m.fill_next_token_bitmask(bm)
        allowed = torch.zeros(1, info.vocab_size)
        xgr.apply_token_bitmask_inplace(allowed, bm)
        assert p._forced.token_for(m) == ffe and not torch.isfinite(allowed[0, ffe])
        t = p._forced.token_for(m, lambda i: bool(torch.isfinite(allowed[0, i])))
        assert t is not None and torch.isfinite(allowed[0, t]) and info.decoded_vocab[t] == b"f"
