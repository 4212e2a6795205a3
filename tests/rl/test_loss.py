"""The clipped surrogate: its sign, its clipping and its normalisations."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from halo.rl.loss import policy_loss  # noqa: E402

pytestmark = pytest.mark.ml


def _grad(adv: float) -> torch.Tensor:
    lp = torch.tensor([[-1.0, -2.0]], requires_grad=True)
    out = policy_loss(lp, lp.detach(), torch.tensor([adv]), torch.ones(1, 2))
    out.loss.backward()
    return lp.grad


def test_gradient_descent_raises_logprob_of_positive_advantage():
    assert (_grad(1.0) < 0).all()  # loss decreases as logprob increases
    assert (_grad(-1.0) > 0).all()
    assert (_grad(0.0) == 0).all()


def test_ratio_is_clipped_and_masked_tokens_ignored():
    lp = torch.tensor([[0.0, 0.0, 5.0]], requires_grad=True)
    old = torch.tensor([[-1.0, 0.0, 0.0]])
    mask = torch.tensor([[1.0, 1.0, 0.0]])
    out = policy_loss(lp, old, torch.tensor([1.0]), mask, clip_eps=0.2)
    out.loss.backward()
    assert lp.grad[0, 0] == 0  # ratio e > 1.2 with A>0: clipped, no gradient
    assert lp.grad[0, 1] != 0 and lp.grad[0, 2] == 0  # on-policy token flows; masked token does not
    assert out.clip_frac == pytest.approx(0.5)


def test_normalisations_differ_as_documented():
    lp = torch.zeros(2, 4)
    mask = torch.tensor([[1, 1, 0, 0], [1, 1, 1, 1]], dtype=torch.float)
    adv = torch.tensor([1.0, 1.0])
    dr = policy_loss(lp, lp, adv, mask, loss_type="dr_grpo", max_tokens=10).loss
    assert float(dr) == pytest.approx(-6 / 20)
    assert float(policy_loss(lp, lp, adv, mask, loss_type="grpo").loss) == pytest.approx(-1.0)
    assert float(policy_loss(lp, lp, adv, mask, loss_type="token_mean").loss) == pytest.approx(-1.0)
    with pytest.raises(ValueError):
        policy_loss(lp, lp, adv, mask, loss_type="nope")
