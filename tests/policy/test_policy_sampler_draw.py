"""``_Sampler``: the HF backend draws each token itself (inverse CDF over the processed scores) and generate only
takes its argmax. The draw must follow the distribution the recorded logprobs describe, never pick a token the
grammar forbids, and sample a prompt's ``n`` rows independently."""

from __future__ import annotations

import math

import pytest
from policy_helpers import constrained_tiny_policy, make_obs

pytestmark = [pytest.mark.ml, pytest.mark.usefixtures("one_torch_thread")]
torch = pytest.importorskip("torch")


def _scores(rows: int, allowed: dict[int, float], vocab: int = 50):
    s = torch.full((rows, vocab), float("-inf"))
    for t, v in allowed.items():
        s[:, t] = v
    return s


@pytest.mark.parametrize("temperature", [1.0, 0.5])
def test_draws_follow_the_tempered_distribution_and_record_its_logprobs(temperature):
    from halo.policy.hf_backend import _Sampler

    torch.manual_seed(0)
    allowed = {3: 0.0, 17: 1.0, 41: -1.0, 49: 0.5}  # the last id: the cdf's end is reachable
    s = _scores(20000, allowed)
    sampler = _Sampler(temperature)
    out = sampler(None, s.clone())
    tok = out.argmax(-1)
    assert torch.isinf(out).sum(-1).eq(49).all()  # one token left per row for generate's argmax
    want = torch.softmax(torch.tensor(list(allowed.values())) / temperature, 0)
    for (t, _), p in zip(allowed.items(), want.tolist()):
        share = tok.eq(t).float().mean().item()
        assert abs(share - p) < 4 * math.sqrt(p * (1 - p) / len(tok)), (t, share, p)
    assert set(tok.tolist()) == set(allowed)  # never a forbidden token
    lp = sampler.logprobs[0]
    ref = torch.log_softmax(s / temperature, -1).gather(1, tok[:, None]).squeeze(1)
    assert torch.allclose(lp, ref, atol=1e-6)


def test_a_forced_token_a_top_k_and_a_row_with_nothing_allowed():
    from halo.policy.hf_backend import _Sampler

    torch.manual_seed(1)
    forced = _Sampler(1.0)
    tok = forced(None, _scores(100, {7: -30.0})).argmax(-1)  # one token allowed, however unlikely
    assert tok.eq(7).all() and forced.logprobs[0].abs().max() < 1e-6
    top1 = _Sampler(1.0, top_k=1)
    assert top1(None, _scores(100, {2: 0.0, 9: 0.1})).argmax(-1).eq(9).all()
    none = _Sampler(1.0)
    s = torch.cat([_scores(1, {}), _scores(1, {4: 0.0})])
    assert none(None, s).argmax(-1).tolist()[1] == 4  # an ended row does not break the others


async def test_rows_of_one_prompt_are_sampled_independently_and_reproducibly(tiny_model_dir):
    """n replies of one prompt are n rows of one generate call: different draws, and the same seed gives the same
    draws again (the sampler uses torch's generator, seeded per call as generate was)."""
    from halo.rl.forward import score

    obs = make_obs()
    a = constrained_tiny_policy(tiny_model_dir, seed=5)
    first = await a.sample_actions(obs, n=8)
    assert len({s.token_ids for s in first}) > 1
    b = constrained_tiny_policy(tiny_model_dir, seed=5)
    assert [s.token_ids for s in await b.sample_actions(obs, n=8)] == [s.token_ids for s in first]
    scored = score(b, b.build_prompt(obs), [s.token_ids for s in first])
    assert max(abs(x - y) for s, sc in zip(first, scored) for x, y in zip(s.logprobs, sc)) <= 1e-4
    c = constrained_tiny_policy(tiny_model_dir, seed=6)
    assert [s.token_ids for s in await c.sample_actions(obs, n=8)] != [s.token_ids for s in first]
