"""The policy-gradient loss on sampled tokens, with a ratio-clipped importance weight against the sampler.

``logprobs_BT`` are the trainer's (teacher-forced) logprobs of the sampled tokens, ``sampler_logprobs_BT`` those the
sampler reported (vLLM or the in-process backend), ``mask_BT`` marks completion tokens, ``adv_B`` one advantage per
sample (or ``adv_BT`` per token). Dr. GRPO normalises by a constant token budget instead of each sample's length,
so long and short completions are weighted alike per token.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class LossOutput:
    loss: torch.Tensor
    clip_frac: float  # share of tokens whose ratio was outside the clip's bounds
    ratio_mean: float
    kl: float  # mean k3 estimate to the reference, 0 when unused
    entropy: float = 0.0  # mean entropy over the tokens that had a choice (> 0), 0 when not given
    is_weight_mean: float = 1.0  # decoupled loss: mean importance weight min(pi_prox / pi_behaviour, C)
    is_truncated_frac: float = 0.0  # decoupled loss: share of tokens whose weight was truncated at C


def policy_loss(logprobs_BT: torch.Tensor, sampler_logprobs_BT: torch.Tensor, adv: torch.Tensor,
                mask_BT: torch.Tensor, *, clip_eps: float = 0.2, loss_type: str = "dr_grpo",
                max_tokens: int | None = None, ref_logprobs_BT: torch.Tensor | None = None,
                kl_coef: float = 0.0, entropy_BT: torch.Tensor | None = None,
                entropy_coef: float = 0.0, behaviour_logprobs_BT: torch.Tensor | None = None,
                tis_cap: float = 2.0, clip_eps_high: float | None = None, objective: str = "ppo") -> LossOutput:
    """PPO-clip surrogate ``-min(r A, clip(r, 1-eps, 1+eps_high) A)`` per token, aggregated by ``loss_type``:
    ``dr_grpo`` (sum / (B * max_tokens)), ``grpo`` (mean per sample, then over samples), ``token_mean``.
    ``entropy_coef`` subtracts that much of each token's entropy (``entropy_BT``), aggregated the same way: a policy
    that puts all its mass on one answer for every goal stops sampling anything else, its groups then have no
    variance and nothing corrects it (bench/decision_probe.py). A negative one adds it (entropy minimisation).

    Decoupled PPO for asynchronous GRPO (AReaL's decoupled objective with verl's truncated importance sampling):
    with ``behaviour_logprobs_BT`` (the logprobs of the older adapter that sampled the tokens), the second argument
    is the proximal policy's (the learner's at the start of this update) and the clipped surrogate of the ratio
    pi / pi_prox is weighted per token by ``min(pi_prox / pi_behaviour, tis_cap)``, detached: 1 where the two
    agree, so an on-policy step's loss is unchanged.

    ``clip_eps_high`` (DAPO's clip-higher; None: ``clip_eps``) is the upper bound alone. ``objective: cispo``
    (MiniMax-M1) clips the importance weight instead of the update, ``-sg(clip(r, 1-eps, 1+eps_high)) A log pi``:
    the same gradient while the ratio is inside the bounds, and outside them a token keeps a (capped) gradient
    where PPO's is zero. Once an update's first optimizer step has raised a credited token by more than
    log(1 + eps_high) nats, PPO's further epochs leave it there, so an action the explorer found at logprob -10
    takes dozens of updates to become the policy's own (bench/logprob_moves.py); CISPO moves it on every epoch.
    Measured on the ladder (issue 40, stop 70, 4 epochs): twice the gain per update, rungs no sooner per CPU-second."""
    mask = mask_BT.to(logprobs_BT.dtype)
    adv_BT = adv.to(logprobs_BT.dtype)
    if adv_BT.dim() == 1:
        adv_BT = adv_BT[:, None].expand_as(logprobs_BT)
    lo, hi = 1.0 - clip_eps, 1.0 + (clip_eps if clip_eps_high is None else clip_eps_high)
    ratio = torch.exp(logprobs_BT - sampler_logprobs_BT.detach())
    if objective == "cispo":
        per_token = -(torch.clamp(ratio, lo, hi).detach() * adv_BT * logprobs_BT)
    elif objective == "ppo":
        per_token = -torch.minimum(ratio * adv_BT, torch.clamp(ratio, lo, hi) * adv_BT)
    else:
        raise ValueError(f"objective must be ppo or cispo, got {objective!r}")
    is_mean, is_trunc = 1.0, 0.0
    if behaviour_logprobs_BT is not None:
        with torch.no_grad():
            raw = torch.exp(sampler_logprobs_BT.detach() - behaviour_logprobs_BT.detach())
            weight = torch.clamp(raw, max=tis_cap)
            n_tok = mask.sum().clamp(min=1)
            is_mean = float((weight * mask).sum() / n_tok)
            is_trunc = float(((raw > tis_cap).to(mask.dtype) * mask).sum() / n_tok)
        per_token = per_token * weight
    kl_val = torch.zeros((), dtype=logprobs_BT.dtype)
    if ref_logprobs_BT is not None and kl_coef > 0:
        d = ref_logprobs_BT.detach() - logprobs_BT
        kl_tok = torch.exp(d) - d - 1.0  # k3 estimator, >= 0
        per_token = per_token + kl_coef * kl_tok
        kl_val = (kl_tok * mask).sum() / mask.sum().clamp(min=1)
    ent_val = 0.0
    if entropy_BT is not None:
        if entropy_coef:  # < 0: a penalty (the policy sharpens onto its own choices)
            per_token = per_token - entropy_coef * entropy_BT
        ent_val = float((entropy_BT.detach() * mask).sum() / (entropy_BT.detach() * mask > 0).sum().clamp(min=1))
    B = logprobs_BT.shape[0]
    if loss_type == "dr_grpo":
        budget = max_tokens if max_tokens is not None else logprobs_BT.shape[1]
        loss = (per_token * mask).sum() / (B * budget)
    elif loss_type == "grpo":
        loss = ((per_token * mask).sum(1) / mask.sum(1).clamp(min=1)).mean()
    elif loss_type == "token_mean":
        loss = (per_token * mask).sum() / mask.sum().clamp(min=1)
    else:
        raise ValueError(f"loss_type must be dr_grpo, grpo or token_mean, got {loss_type!r}")
    with torch.no_grad():
        n = mask.sum().clamp(min=1)
        clip_frac = float((((ratio < lo) | (ratio > hi)).to(mask.dtype) * mask).sum() / n)
        ratio_mean = float((ratio * mask).sum() / n)
    return LossOutput(loss=loss, clip_frac=clip_frac, ratio_mean=ratio_mean, kl=float(kl_val), entropy=ent_val,
                      is_weight_mean=is_mean, is_truncated_frac=is_trunc)


@dataclass(frozen=True)
class DPOOutput:
    loss: torch.Tensor
    margin: float  # mean implicit reward margin beta * ((pi_c - ref_c) - (pi_r - ref_r))
    accuracy: float  # share of pairs whose chosen action has the larger implicit reward


def dpo_loss(chosen_B: torch.Tensor, rejected_B: torch.Tensor, ref_chosen_B: torch.Tensor,
             ref_rejected_B: torch.Tensor, beta: float = 0.1, weight_B: torch.Tensor | None = None) -> DPOOutput:
    """DPO (Rafailov et al., 2023) on sequence logprobs of the chosen and rejected replies, the reference being the
    model without its adapter: ``-log sigmoid(beta * ((pi_c - ref_c) - (pi_r - ref_r)))``, weighted mean."""
    logits = beta * ((chosen_B - ref_chosen_B.detach()) - (rejected_B - ref_rejected_B.detach()))
    per_pair = -torch.nn.functional.logsigmoid(logits)
    w = torch.ones_like(per_pair) if weight_B is None else weight_B.to(per_pair.dtype)
    loss = (per_pair * w).sum() / w.sum().clamp(min=1e-8)
    with torch.no_grad():
        return DPOOutput(loss=loss, margin=float(logits.mean()), accuracy=float((logits > 0).to(logits.dtype).mean()))
