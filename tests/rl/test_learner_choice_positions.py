"""Under a grammar the learner computes logits only where the grammar left a choice: the logprobs, entropies and
gradients are those of the full computation (every completion position through lm_head and the softmax), and
lm_head sees fewer positions than the completion has."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "policy"))  # policy_helpers, run alone too

pytestmark = [pytest.mark.ml]
torch = pytest.importorskip("torch")


def _full(model, batch, gmask, temperature: float = 1.0):
    """The reference: logits at every completion position, the grammar mask added, log_softmax over the vocabulary."""
    P = batch.prompt_len
    T = batch.inputs["input_ids"].shape[1]
    logits = model(**batch.inputs, use_cache=False, logits_to_keep=T - P + 1).logits[:, :-1].float() / temperature
    Lm = gmask.shape[-2]
    logits = torch.cat([logits[:, :Lm] + gmask, logits[:, Lm:]], dim=1)
    logp = torch.log_softmax(logits, -1)
    lp = logp.gather(-1, batch.inputs["input_ids"][:, P:].unsqueeze(-1)).squeeze(-1)
    ent = -(logp.exp() * torch.where(torch.isfinite(logp), logp, torch.zeros_like(logp))).sum(-1)
    m = batch.mask_BT[:, P - 1:]
    return lp * m, ent * m


def test_choice_positions_only_give_the_full_logprobs_entropies_and_gradients(tiny_model):
    from test_learner_packing import _items, _policy

    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.forward import token_logprobs
    from halo.rl.learner import LoRALearner

    policy = _policy(tiny_model)
    items = _items(policy)
    learner = LoRALearner(policy, LoRASettings(rank=4, alpha=8, modules_to_save=("lm_head",)), OptimSettings(lr=1e-3))
    model = learner.model
    with torch.no_grad():  # move the adapter off zero so that its gradients are not trivially alike
        for n, p in model.named_parameters():
            if "lora_B" in n:
                p.normal_(0, 0.05)
    _, ctx, _ = learner._rows_logprobs([(it.prompt, it.token_ids, it.grammar) for it in items])
    batch, gmask, P, L = ctx[:4]
    forced = (torch.isfinite(gmask).sum(-1) == 1).all(0)
    assert int(forced.sum()) >= L // 3  # much of a tool call is syntax: the case this is for

    seen = []
    hook = model.get_output_embeddings().register_forward_hook(lambda m, i, o: seen.append(i[0].shape[1]))
    adv = torch.linspace(-1, 1, len(items))

    def run(fn):
        model.zero_grad(set_to_none=True)
        lp, ent = fn()
        ((lp.sum(1) * adv).sum() + 0.1 * ent.sum()).backward()
        return lp.detach(), ent.detach(), {n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None}

    try:
        lp, ent, grads = run(lambda: tuple(x[:, P - 1:] for x in token_logprobs(model, batch, 1.0, gmask,
                                                                                 entropy=True)))
        kept = seen[-1]
        ref_lp, ref_ent, ref_grads = run(lambda: _full(model, batch, gmask))
    finally:
        hook.remove()
    assert kept < L - int(forced.sum()) + 1  # only the choice positions went through lm_head
    assert torch.isfinite(lp).all() and lp.shape == ref_lp.shape
    assert torch.allclose(lp, ref_lp, atol=1e-5, rtol=0)
    assert torch.allclose(ent, ref_ent, atol=1e-5, rtol=0)
    assert grads.keys() == ref_grads.keys() and len(grads) >= 3
    for n, g in grads.items():
        assert torch.allclose(g, ref_grads[n], atol=1e-6, rtol=1e-4), n
