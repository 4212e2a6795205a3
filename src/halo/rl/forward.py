"""The learner's teacher-forced forwards: sampled completions fed back after their prompts, and each token's logprob
(and entropy) under the model. They give the numbers the in-process sampler (``halo.policy.hf_backend``) reports from
its raw logits (tested to <= 1e-4). Training forwards must carry ``mm_token_type_ids``; ``training_batch`` builds them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from halo.policy.hf_backend import HFPolicy
    from halo.policy.prompt import Prompt


@dataclass
class TrainingBatch:
    """One row per completion, its prompt left-padded to the batch's prompt length and the completion right-padded
    after it; ``mask_BT`` marks completion targets."""

    inputs: dict[str, Any]  # model kwargs: input_ids, attention_mask, mm_token_type_ids, pixel_values, image_grid_thw
    mask_BT: Any  # bool, aligned with input_ids[:, 1:] (the predicted positions)
    prompt_len: int


def training_batch(encoded: Any, completions: Sequence[Sequence[int]], pad_id: int) -> TrainingBatch:
    """Teacher-forcing batch for one encoded prompt (processor output, batch 1) and its completions' token ids."""
    return packed_batch([encoded] * len(completions), completions, pad_id)


def packed_batch(encoded: Sequence[Any], completions: Sequence[Sequence[int]], pad_id: int,
                 device: Any = None) -> TrainingBatch:
    """Teacher-forcing batch of rows with prompts of their own (processor outputs, batch 1 each, one per row): the
    prompts left-padded to one length, as the sampler batches them, so every completion starts at ``prompt_len``;
    one forward then scores many prompts (a small model's forward costs about the same for 1 row or 16). The batch
    goes to ``device`` (default: where the first prompt's tensors are)."""
    import torch

    if len(encoded) != len(completions) or not encoded:
        raise ValueError(f"one encoded prompt per completion, got {len(encoded)} and {len(completions)}")
    P = max(e["input_ids"].shape[1] for e in encoded)
    B, L = len(completions), max(1, max(len(c) for c in completions))
    ids = torch.full((B, P + L), pad_id, dtype=torch.long)
    att = torch.zeros((B, P + L), dtype=torch.long)
    mm = torch.zeros((B, P + L), dtype=torch.long)
    mask = torch.zeros((B, P + L), dtype=torch.bool)
    for i, (e, c) in enumerate(zip(encoded, completions)):
        p = e["input_ids"].shape[1]
        ids[i, P - p:P] = e["input_ids"][0].cpu()
        mm[i, P - p:P] = e["mm_token_type_ids"][0].cpu()
        ids[i, P:P + len(c)] = torch.tensor(list(c), dtype=torch.long)
        att[i, P - p:P + len(c)] = 1
        mask[i, P:P + len(c)] = True
    dev = encoded[0]["input_ids"].device if device is None else device
    inputs = {"input_ids": ids.to(dev), "attention_mask": att.to(dev), "mm_token_type_ids": mm.to(dev)}
    if any("pixel_values" in e for e in encoded):
        if not all("pixel_values" in e for e in encoded):
            raise ValueError("packed rows must all carry an image or none")
        inputs["pixel_values"] = torch.cat([e["pixel_values"] for e in encoded]).to(dev)
        inputs["image_grid_thw"] = torch.cat([e["image_grid_thw"] for e in encoded]).to(dev)
    return TrainingBatch(inputs=inputs, mask_BT=mask[:, 1:].to(dev), prompt_len=P)


def token_logprobs(model: Any, batch: TrainingBatch, temperature: float = 1.0, completion_mask: Any = None,
                   entropy: bool = False):
    """Per-token logprobs of the batch's completions (``logprobs_BT``, zero outside ``mask_BT``). Differentiable:
    call under ``torch.no_grad()`` to score, with grad to train. ``completion_mask`` ([L, V] or [B, L, V], additive,
    from ``HFPolicy.grammar_mask``) restricts the completion's positions to what a grammar allowed. ``entropy``:
    also the entropy of each position's (masked) distribution, ``(logprobs_BT, entropy_BT)``; a forced token's is 0."""
    import torch

    # Only the positions that predict a completion token get logits (the prompt's hundreds do not: their lm_head,
    # softmax and entropy were most of a small model's update); the result keeps its [B, T-1] shape, zero before.
    # Under a grammar, a position where it allows one token in every row is no choice: its logprob is 0 (or -inf for
    # a token it forbids) and its entropy 0 whatever the model says, so its logits are not computed either (a tool
    # call's syntax is most of a tiny reply's tokens: ~20 of 23).
    P = batch.prompt_len
    T = batch.inputs["input_ids"].shape[1]
    targets = batch.inputs["input_ids"][:, P:]
    L = T - P
    cm = None if completion_mask is None else completion_mask.to(targets.device)
    Lm = 0 if cm is None else cm.shape[-2]  # [L, V] for every row, or [B, L, V] per row
    pos, forced_lp = None, None  # the completion positions whose logits are computed (None: all of them)
    if cm is not None:
        choice = torch.isfinite(cm).sum(-1) > 1
        if choice.dim() == 2:
            choice = choice.any(0)
        choice = torch.cat([choice[:L], torch.ones(max(0, L - Lm), dtype=torch.bool, device=choice.device)])
        if not bool(choice.all()):
            pos = choice.nonzero().flatten()
            n = min(L, Lm)
            rows = cm if cm.dim() == 3 else cm.expand(targets.shape[0], -1, -1)
            forced_lp = torch.zeros(targets.shape, device=targets.device)
            forced_lp[:, :n] = rows[:, :n].gather(-1, targets[:, :n].unsqueeze(-1)).squeeze(-1).float()
    if pos is None:
        logits = model(**batch.inputs, use_cache=False, logits_to_keep=L + 1).logits[:, :-1].float()
    else:
        logits = model(**batch.inputs, use_cache=False, logits_to_keep=pos + (P - 1)).logits.float()
    if temperature > 0 and temperature != 1.0:
        logits = logits / temperature
    if cm is not None:
        if pos is None:
            logits = torch.cat([logits[:, :Lm] + cm, logits[:, Lm:]], dim=1)
        else:
            inside = pos < Lm
            add = torch.zeros_like(logits)
            add[:, inside] = cm[..., pos[inside], :].to(add.dtype)
            logits = logits + add
    tg = targets if pos is None else targets[:, pos]
    logp = torch.log_softmax(logits, -1)
    lp = logp.gather(-1, tg.unsqueeze(-1)).squeeze(-1)
    if pos is not None:
        lp = forced_lp.to(lp.dtype).index_copy(1, pos, lp)
    pad = torch.zeros((lp.shape[0], P - 1), dtype=lp.dtype, device=lp.device)
    mask = batch.mask_BT
    if not entropy:
        return torch.cat([pad, lp], 1) * mask
    finite = torch.isfinite(logp)  # masked tokens (-inf) add nothing, and no inf * 0 reaches the gradient
    ent = -(logp.exp() * torch.where(finite, logp, torch.zeros_like(logp))).sum(-1)
    if pos is not None:
        ent = torch.zeros(lp.shape, dtype=ent.dtype, device=ent.device).index_copy(1, pos, ent)
    return torch.cat([pad, lp], 1) * mask, torch.cat([pad, ent], 1) * mask


def score(policy: HFPolicy, prompt: Prompt, completions: Sequence[Sequence[int]],
          temperature: float = 1.0) -> list[list[float]]:
    """Teacher-forced logprobs of given completion token ids under the policy's current model."""
    import torch

    with policy._lock, torch.no_grad():
        batch = training_batch(policy.encode(prompt), completions, policy.pad_id)
        lp = token_logprobs(policy.model, batch, temperature)
    P = batch.prompt_len
    return [lp[i, P - 1:P - 1 + len(c)].tolist() for i, c in enumerate(completions)]
