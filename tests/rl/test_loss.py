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


def test_clip_higher_moves_only_the_upper_bound():
    """A ratio of 1.25 with A > 0 is past 1 + 0.2 (no gradient) but inside 1 + 0.28; with A < 0 a ratio of 0.75
    is past the lower bound either way (clip_eps_high leaves it alone)."""
    lp = torch.tensor([[0.0]], requires_grad=True)
    old = torch.log(torch.tensor([[1 / 1.25]]))
    for high, flows in ((None, False), (0.28, True)):
        lp.grad = None
        policy_loss(lp, old, torch.tensor([1.0]), torch.ones(1, 1), clip_eps=0.2, clip_eps_high=high).loss.backward()
        assert (lp.grad[0, 0] != 0) == flows
    low = torch.log(torch.tensor([[1 / 0.75]]))
    lp.grad = None
    policy_loss(lp, low, torch.tensor([-1.0]), torch.ones(1, 1), clip_eps=0.2, clip_eps_high=0.28).loss.backward()
    assert lp.grad[0, 0] == 0


def test_cispo_keeps_a_capped_gradient_past_the_bound_and_matches_ppo_inside_it():
    mask = torch.ones(1, 2)
    lp = torch.tensor([[0.0, 0.0]], requires_grad=True)
    old = torch.tensor([[-1.0, -0.05]])  # ratios e (past 1.2) and 1.05 (inside)
    out = policy_loss(lp, old, torch.tensor([1.0]), mask, clip_eps=0.2, objective="cispo", loss_type="token_mean")
    out.loss.backward()
    g = lp.grad.clone()
    assert float(g[0, 0]) == pytest.approx(-1.2 / 2)  # weight capped at 1 + eps, not zeroed
    assert out.clip_frac == pytest.approx(0.5)
    lp.grad = None
    policy_loss(lp, old, torch.tensor([1.0]), mask, clip_eps=0.2, loss_type="token_mean").loss.backward()
    assert lp.grad[0, 0] == 0 and float(lp.grad[0, 1]) == pytest.approx(float(g[0, 1]))  # PPO: zero past it
    with pytest.raises(ValueError, match="objective"):
        policy_loss(lp, old, torch.tensor([1.0]), mask, objective="nope")


def test_cispo_raises_an_unlikely_credited_token_further_over_an_updates_epochs():
    """Eight gradient steps on one reply whose token was sampled at logprob about -7 with A > 0: PPO stops the
    token once its ratio passes 1.2 (about 0.18 nats); CISPO keeps raising it. What issue 40's ladder needs of a
    found action."""
    def raised(objective: str) -> float:
        z = torch.nn.Parameter(torch.tensor([7.0, 0.0, 0.0]))
        opt = torch.optim.SGD([z], lr=0.05)
        tok = torch.tensor([[1]])
        old = torch.log_softmax(z.detach(), -1)[tok]
        for _ in range(8):
            opt.zero_grad()
            lp = torch.log_softmax(z, -1)[tok]
            policy_loss(lp, old, torch.tensor([1.0]), torch.ones(1, 1), objective=objective).loss.backward()
            opt.step()
        return float(torch.log_softmax(z.detach(), -1)[1] - old[0, 0])
    ppo, cispo = raised("ppo"), raised("cispo")
    assert 0.15 < ppo < 0.25 and cispo > 0.6


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


def test_entropy_bonus_spreads_a_peaked_choice_and_masked_tokens_stay_out():
    """The bonus raises the entropy of a sampled position's masked distribution; -inf (grammar-masked) logits add
    nothing to the entropy and no NaN to the gradient (0 * -inf is how such a bonus usually breaks)."""
    from halo.rl.forward import TrainingBatch, token_logprobs

    class Logits(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.z = torch.nn.Parameter(torch.tensor([[[0.0, 0.0, 0.0, 0.0], [4.0, 0.0, 0.0, 9.0]]]))

        def forward(self, input_ids, **kw):
            return type("Out", (), {"logits": torch.cat([self.z, self.z[:, :1]], 1)})()

    m = Logits()
    batch = TrainingBatch(inputs={"input_ids": torch.tensor([[1, 0, 2]])}, mask_BT=torch.ones(1, 2), prompt_len=1)
    gmask = torch.tensor([[0.0, 0.0, 0.0, float("-inf")], [0.0, 0.0, 0.0, float("-inf")]])
    lp, ent = token_logprobs(m, batch, 1.0, gmask[None], entropy=True)
    p = torch.softmax(torch.tensor([4.0, 0.0, 0.0]), -1)
    assert float(ent.detach()[0, 1]) == pytest.approx(float(-(p * p.log()).sum()), abs=1e-5)  # token 3 masked out
    assert float(ent.detach()[0, 0]) == pytest.approx(float(torch.log(torch.tensor(3.0))), abs=1e-5)
    out = policy_loss(lp, lp.detach(), torch.tensor([0.0]), torch.ones(1, 2), entropy_BT=ent, entropy_coef=0.5)
    out.loss.backward()
    g = m.z.grad[0, 1]
    assert torch.isfinite(m.z.grad).all()
    assert g[0] > 0 and g[1] < 0 and g[2] < 0  # descent lowers the peaked token, raises the others
    assert out.entropy == pytest.approx(float(ent.detach().mean()), abs=1e-5)
    none = policy_loss(lp.detach(), lp.detach(), torch.tensor([0.0]), torch.ones(1, 2), entropy_BT=ent.detach())
    assert float(none.loss) == 0.0  # coefficient 0: reported, not trained on
    m.z.grad = None
    lp, ent = token_logprobs(m, batch, 1.0, gmask[None], entropy=True)
    policy_loss(lp, lp.detach(), torch.tensor([0.0]), torch.ones(1, 2), entropy_BT=ent,
                entropy_coef=-0.5).loss.backward()
    g = m.z.grad[0, 1]  # a negative coefficient is a penalty: descent sharpens onto the peaked token
    assert g[0] < 0 and g[1] > 0 and g[2] > 0
