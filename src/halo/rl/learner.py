"""LoRA policy-gradient updates with transformers + peft, on the same model the in-process sampler uses.

The learner wraps an ``HFPolicy``'s model with a LoRA adapter (peft), so after ``update()`` the sampler draws from
the new policy at once (backend b). With vLLM sampling (backend a) the same learner runs on the GPU and each saved
adapter is hot-loaded into the server (``lora_sync.py``).
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Sequence

from halo.policy.prompt import Prompt
from halo.rl.config import LoRASettings, OptimSettings
from halo.rl.loss import dpo_loss, policy_loss

log = logging.getLogger(__name__)
NONFINITE_KEPT = 5  # examples of items whose logprobs were not finite, kept for the run's metrics


@dataclass(frozen=True)
class TrainItem:
    """One sampled completion to learn from: its prompt, its token ids, the sampler's logprobs and an advantage
    (one per sample, or one per token)."""

    prompt: Prompt
    token_ids: tuple[int, ...]
    sampler_logprobs: tuple[float, ...]
    advantage: float
    grammar: str | None = None  # sampled under this grammar: learn on the masked (actually sampled) distribution
    prompt_tokens: int | None = None  # the prompt's length as the sampler counted it (checked against the learner's)
    replayed: bool = False  # an own past success replayed (self_imitation.py): ratio against the current policy


def step_item(step: Any, advantage: float, replayed: bool = False) -> TrainItem:
    """A rollout step's sampled reply as a TrainItem. Under a grammar it carries the masked distribution it was drawn
    from (those logprobs and the grammar); a replayed one carries no sampler logprobs (the learner takes the current
    policy's)."""
    smp = step.sample
    constrained = smp.grammar is not None and smp.sampler_logprobs is not None
    logprobs = () if replayed else tuple(smp.sampler_logprobs if constrained else smp.logprobs)
    return TrainItem(prompt=step.prompt, token_ids=tuple(smp.token_ids), sampler_logprobs=logprobs,
                     advantage=float(advantage), grammar=smp.grammar if constrained else None,
                     prompt_tokens=smp.prompt_tokens, replayed=replayed)


@dataclass(frozen=True)
class PreferencePair:
    """Two replies to one prompt, the chosen one better (step-level DPO from MCTS siblings: Q higher by a margin)."""

    prompt: Prompt
    chosen: tuple[int, ...]
    rejected: tuple[int, ...]
    chosen_grammar: str | None = None
    rejected_grammar: str | None = None
    weight: float = 1.0


@dataclass
class UpdateStats:
    loss: float = 0.0
    grad_norm: float = 0.0
    clip_frac: float = 0.0
    ratio_mean: float = 0.0
    kl: float = 0.0
    entropy: float = 0.0  # mean entropy of the sampled positions the grammar left a choice at (nats)
    items: int = 0
    tokens: int = 0
    extra: dict[str, float] = field(default_factory=dict)


def scheduled(start: float, final: float | None, progress: float) -> float:
    """A setting's value at ``progress`` (0..1) on the line from ``start`` to ``final`` (None: constant)."""
    return start if final is None else start + (final - start) * progress


def lora_target_regex(modules: Sequence[str]) -> str:
    """Only the language model's projections (Qwen3-VL's vision tower has its own q/k/v names we leave frozen)."""
    return r".*language_model.*\.(" + "|".join(modules) + r")$"


def check_prompt_length(sampler_tokens: int | None, learner_tokens: int) -> None:
    """The sampler (vLLM) and the learner must read the same prompt tokens, or every ratio compares different
    things: a differing count (image resized differently, another chat template) stops the update, loudly."""
    if sampler_tokens is not None and sampler_tokens != learner_tokens:
        from halo.errors import PolicyError

        raise PolicyError(f"the sampler read the prompt as {sampler_tokens} tokens and the learner as {learner_tokens}:"
                          " they differ in the image's visual tokens or the chat template; serve the mode with "
                          "`halo serve-policy --mode M` (it passes the mode's pixel budget to vLLM) and give the "
                          "learner the served model's own directory (--learner-model)")


# bytes of prompts' processor output the learner keeps in host memory (an iteration's steps and the replays): a tiny
# prompt's is ~0.4 MB (its 64 image patches), an 8B's 1280x720 screenshot ~22 MB
ENCODING_BYTES_KEPT = 2 * 2 ** 30
MASK_BYTES_KEPT = 256 * 2 ** 20  # grammar masks kept ([tokens, vocab] floats: ~0.5 MB a tiny reply, 18 MB an 8B's)


CHECKPOINT_AUTO_PARAMS = 1e9  # lora.gradient_checkpointing "auto": models above this (any real Qwen3-VL, not the tiny)


def checkpointing_wanted(setting: bool | str, model: Any) -> bool:
    if setting == "auto":
        return sum(p.numel() for p in model.parameters()) > CHECKPOINT_AUTO_PARAMS
    return bool(setting)


def set_gradient_checkpointing(model: Any, on: bool) -> None:
    """transformers' own checkpointing of the base model's layers (it acts in ``train()`` mode only: sampling is
    unchanged), non-reentrant, so the frozen inputs of LoRA's layers need no grad hook."""
    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    if on:
        base.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    elif getattr(base, "is_gradient_checkpointing", False):
        base.gradient_checkpointing_disable()


def _by_prompt(items: Sequence[TrainItem]) -> list[list[TrainItem]]:
    """Items grouped by their prompt (the same Prompt object, or an equal one), in first-seen order."""
    groups: dict[int, list[TrainItem]] = {}
    keys: dict[Any, int] = {}
    for it in items:
        k = keys.setdefault(id(it.prompt), len(keys))
        groups.setdefault(k, []).append(it)
    return list(groups.values())


class LoRALearner:
    """Owns the LoRA parameters and the optimizer of an in-process policy (``HFPolicy``)."""

    def __init__(self, policy: Any, lora: LoRASettings | None = None, optim: OptimSettings | None = None,
                 temperature: float = 1.0):
        import torch
        from peft import LoraConfig, PeftModel, get_peft_model

        self.policy = policy
        self.lora = lora or LoRASettings()
        self.optim_cfg = optim or OptimSettings()
        self.temperature = temperature  # logprobs of log_softmax(logits / T): the sampler's distribution
        model = policy.model
        if isinstance(model, PeftModel):  # an adapter was given (resume, or continue from a trained one)
            for n, p in model.named_parameters():
                p.requires_grad = "lora_" in n
        else:
            cfg = LoraConfig(r=self.lora.rank, lora_alpha=self.lora.alpha, lora_dropout=self.lora.dropout,
                             target_modules=lora_target_regex(self.lora.target_modules), bias="none",
                             modules_to_save=list(self.lora.modules_to_save) or None)
            model = get_peft_model(model, cfg)
            policy.model = model
        self.model = model
        self.checkpointing = checkpointing_wanted(self.lora.gradient_checkpointing, model)
        set_gradient_checkpointing(model, self.checkpointing)
        self.params = [p for p in model.parameters() if p.requires_grad]
        if not self.params:
            raise RuntimeError("the LoRA adapter has no trainable parameters; check lora.target_modules")
        o = self.optim_cfg
        self.optimizer = torch.optim.AdamW(self.params, lr=o.lr, betas=o.betas, weight_decay=o.weight_decay)
        self.progress = 0.0
        self.lr, self.entropy_coef = o.lr, o.entropy_coef  # the values now (set_progress moves them)
        self._encodings: OrderedDict[int, tuple[Prompt, Any, int]] = OrderedDict()  # id(prompt) -> (prompt, enc, bytes)
        self._encoding_bytes = 0
        self._masks: OrderedDict[tuple[str, tuple[int, ...]], Any] = OrderedDict()  # (grammar, ids) -> mask
        self._mask_bytes = 0
        # asynchronous GRPO (update_versioned): the decoupled loss, the proximal logprobs of the update's items
        # (id(item) -> (item, logprobs before the update's first step)) and the sampler's lock already held
        self.decoupled = False
        self._prox: dict[int, tuple[TrainItem, Any]] = {}
        self._held = False

    def set_progress(self, progress: float, success: float = 1.0) -> None:
        """The run's progress in [0, 1] (the trainer's iterations, or a driver's own budget): ``lr`` and
        ``entropy_coef`` at ``progress`` on the lines to ``lr_final`` and ``entropy_coef_final`` where those are set.
        A coefficient below zero (a penalty) is scaled by ``success``, the policy's recent success rate: a policy that
        has not yet succeeded is not sharpened onto its failing choices (one seed collapsed to 0.03 nats a choice
        before its first success with the penalty alone) and one that succeeds half the time is sharpened half as
        hard."""
        o = self.optim_cfg
        p = min(max(float(progress), 0.0), 1.0)
        self.progress = p
        self.lr = scheduled(o.lr, o.lr_final, p)
        coef = scheduled(o.entropy_coef, o.entropy_coef_final, p)
        self.entropy_coef = coef * min(max(float(success), 0.0), 1.0) if coef < 0 else coef
        for g in self.optimizer.param_groups:
            g["lr"] = self.lr

    @property
    def trainable_parameters(self) -> int:
        return sum(p.numel() for p in self.params)

    def update(self, items: Sequence[TrainItem], epochs: int = 1) -> UpdateStats:
        """``epochs`` optimizer steps over all items (gradients accumulated item by item: each has its own image):
        the last step's stats, with every step's ``skipped_steps`` (a non-finite gradient) summed."""
        stats, skipped = UpdateStats(), 0.0
        for _ in range(epochs):
            stats = self.preference_update((), items=items)
            skipped += stats.extra.get("skipped_steps", 0.0)
        if skipped:
            stats.extra["skipped_steps"] = skipped
        return stats

    def preference_update(self, pairs: Sequence[PreferencePair], *, beta: float = 0.1,
                          items: Sequence[TrainItem] = (), pg_weight: float = 1.0,
                          nll_weight: float = 0.0) -> UpdateStats:
        """One optimizer step on the DPO loss of ``pairs`` (reference: this model with its adapter disabled), with
        ``nll_weight`` times each chosen reply's mean token NLL (RPO), plus ``pg_weight`` times the policy-gradient
        loss of ``items`` (GRPO's), gradients accumulated per prompt."""
        import torch

        vision = getattr(self.policy, "vision_ids", frozenset())
        usable = [it for it in items if it.token_ids and not vision.intersection(it.token_ids)]
        good = [p for p in pairs if p.chosen and p.rejected and not vision.intersection(p.chosen + p.rejected)]
        stats = UpdateStats(items=len(usable), extra={"dropped_items": float(len(items) - len(usable))})
        if pairs:
            stats.extra.update(pairs=float(len(good)), dropped_pairs=float(len(pairs) - len(good)))
        if not usable and not good:
            return stats
        with contextlib.nullcontext() if self._held else self.policy._lock:  # no sampling while the weights move
            self.model.train()
            self.optimizer.zero_grad(set_to_none=True)
            if usable:
                self._policy_gradient(usable, stats, pg_weight if good else 1.0)
            if good:
                self._dpo(good, beta, stats, nll_weight)
            o = self.optim_cfg
            gn = torch.nn.utils.clip_grad_norm_(self.params, o.max_grad_norm if o.max_grad_norm > 0 else math.inf)
            stats.grad_norm = float(gn)
            if math.isfinite(stats.grad_norm):
                self.optimizer.step()
            else:  # one bad step would leave every weight NaN and the run sampling noise from then on
                self.optimizer.zero_grad(set_to_none=True)
                stats.extra["skipped_steps"] = 1.0
                log.warning("update skipped: gradient norm %s", stats.grad_norm)
            self.model.eval()
        return stats

    def update_versioned(self, items: Sequence[TrainItem], epochs: int, version: int) -> UpdateStats:
        """Asynchronous GRPO's update (rl/pipeline.py): ``epochs`` optimizer steps on ``items`` under the decoupled
        loss (each item's sampler logprobs are the behaviour policy's, the learner's before the first step the
        proximal one), with the sampler's lock held throughout, then the sampler's ``weights_version`` set to
        ``version`` before the lock is let go: every completion is drawn from the weights of exactly one version."""
        self.decoupled, self._prox = True, {}
        try:
            with self.policy._lock:
                self._held = True
                stats = self.update(items, epochs)
                self.policy.weights_version = version
        finally:
            self._held, self._prox = False, {}
        return stats

    def _proximal(self, item: TrainItem, row: Any) -> Any:
        """The logprobs of ``item``'s tokens before this update's first step: this forward's on its first epoch (no
        step has been taken yet), kept for the next ones."""
        hit = self._prox.get(id(item))
        if hit is not None and hit[0] is item:
            return hit[1]
        v = row.detach().clone()
        self._prox[id(item)] = (item, v)
        return v

    def _encode(self, prompt: Prompt) -> Any:
        """The processor's output for a prompt, kept in host memory (up to ENCODING_BYTES_KEPT: not on the GPU, where
        hundreds of 8B screenshots would take GBs beside the model) for the update's next epochs and for replayed
        steps (the same Prompt object; it is held, so its id cannot be reused while cached): the processor costs as
        much as the tiny model's forward."""
        hit = self._encodings.get(id(prompt))
        if hit is not None and hit[0] is prompt:
            self._encodings.move_to_end(id(prompt))
            return hit[1]
        enc = self.policy.encode(prompt).to("cpu")
        size = sum(v.numel() * v.element_size() for v in enc.values() if hasattr(v, "numel"))
        self._encodings[id(prompt)] = (prompt, enc, size)
        self._encoding_bytes += size
        while self._encoding_bytes > ENCODING_BYTES_KEPT and len(self._encodings) > 1:
            _, (_, _, old) = self._encodings.popitem(last=False)
            self._encoding_bytes -= old
        return enc

    def _grammar_mask(self, grammar: str, token_ids: Sequence[int]) -> Any:
        """``HFPolicy.grammar_mask``, kept (up to MASK_BYTES_KEPT) for the update's next epochs: replaying the grammar
        costs a quarter of the tiny model's training forward."""
        key = (grammar, tuple(token_ids))
        m = self._masks.get(key)
        if m is not None:
            self._masks.move_to_end(key)
            return m
        m = self.policy.grammar_mask(grammar, token_ids)
        self._masks[key] = m
        self._mask_bytes += m.numel() * m.element_size()
        while self._mask_bytes > MASK_BYTES_KEPT and self._masks:
            _, old = self._masks.popitem(last=False)
            self._mask_bytes -= old.numel() * old.element_size()
        return m

    def _logprobs(self, prompt: Prompt, completions: Sequence[Sequence[int]],
                  grammars: Sequence[str | None], entropy: bool = False) -> tuple[Any, Any, Any]:
        """(trainer logprobs [B, L] with grad, context for ``_reference``, mask [B, L]) of one prompt's completions;
        with ``entropy``, the first is (logprobs, entropies [B, L])."""
        return self._rows_logprobs([(prompt, c, g) for c, g in zip(completions, grammars)], entropy)

    def _rows_logprobs(self, rows: Sequence[tuple[Prompt, Sequence[int], str | None]],
                       entropy: bool = False) -> tuple[Any, Any, Any]:
        """``_logprobs`` of rows (prompt, completion, grammar) that may each have their own prompt: one forward
        (``packed_batch``). The context is (batch, grammar mask, prompt length, completion length, each row's
        prompt length)."""
        import torch

        from halo.rl.forward import packed_batch, token_logprobs

        encoded = [self._encode(p) for p, _, _ in rows]
        completions = [c for _, c, _ in rows]
        batch = packed_batch(encoded, completions, self.policy.pad_id, device=self.policy.device)
        P, L = batch.prompt_len, max(len(c) for c in completions)
        gmask = None
        if any(g for _, _, g in rows):
            gmask = torch.zeros((len(completions), L, self.model.get_output_embeddings().weight.shape[0]))
            for r, (_, c, g) in enumerate(rows):
                if g:
                    m = self._grammar_mask(g, c)
                    gmask[r, :m.shape[0]] = m
        out = token_logprobs(self.model, batch, self.temperature, gmask, entropy=entropy)
        lp = (out[0] if entropy else out)[:, P - 1:P - 1 + L]
        dev = lp.device
        lens = torch.tensor([len(c) for c in completions], device=dev)
        mask = (torch.arange(L, device=dev)[None, :] < lens[:, None]).to(lp.dtype)
        ctx = (batch, gmask, P, L, [int(e["input_ids"].shape[1]) for e in encoded])
        if entropy:
            return (lp, out[1][:, P - 1:P - 1 + L]), ctx, mask
        return lp, ctx, mask

    def _reference(self, ctx: Any) -> Any:
        import torch

        from halo.rl.forward import token_logprobs

        batch, gmask, P, L = ctx[:4]
        with torch.no_grad(), self.model.disable_adapter():
            return token_logprobs(self.model, batch, self.temperature, gmask)[:, P - 1:P - 1 + L]

    def _policy_gradient(self, items: Sequence[TrainItem], stats: UpdateStats, weight: float) -> None:
        n = len(items)
        for group in self._micro_batches(items):  # rows of several prompts share a forward (packed_batch)
            self._policy_gradient_batch(group, n, stats, weight)

    def _policy_gradient_batch(self, group: Sequence[TrainItem], n: int, stats: UpdateStats, weight: float) -> None:
        """One forward and backward of the GRPO loss on ``group`` (``n`` items in the whole update). A row whose
        logprob, entropy or sampler logprob is not finite (a reply token its replayed grammar forbids: -inf) would
        make the loss, and after the step every weight, NaN: such rows are dropped, counted (``nonfinite_items``)
        and kept as examples (``nonfinite``), and the rest forwarded again."""
        import torch

        o = self.optim_cfg
        lp, ctx, mask = self._rows_logprobs([(it.prompt, it.token_ids, it.grammar) for it in group], entropy=True)
        lp, ent = lp
        sel = mask.bool()
        bad = ((~torch.isfinite(lp.detach()) | ~torch.isfinite(ent.detach())) & sel).any(1).tolist()
        bad = [b or not all(map(math.isfinite, it.sampler_logprobs)) for b, it in zip(bad, group)]  # ratio's base
        if any(bad):
            self._note_nonfinite(group, bad, lp.detach(), sel)
            stats.extra["nonfinite_items"] = stats.extra.get("nonfinite_items", 0.0) + sum(bad)
            good = [it for it, b in zip(group, bad) if not b]
            if good:
                self._policy_gradient_batch(good, n, stats, weight)
            return
        for it, p in zip(group, ctx[4]):
            check_prompt_length(it.prompt_tokens, p)
        L, dev = lp.shape[1], lp.device
        old = torch.tensor([list(it.sampler_logprobs[:len(it.token_ids)]) +
                            [0.0] * (L - len(it.token_ids)) if not it.replayed else [0.0] * L for it in group],
                           dtype=lp.dtype, device=dev)
        replayed = torch.tensor([it.replayed for it in group], device=dev)
        if replayed.any():  # sampled by an older policy: learn on the current one (ratio 1, never clipped)
            old = torch.where(replayed[:, None], lp.detach(), old)
        behaviour = None
        if self.decoupled:  # the sampler's logprobs weigh the ratio to the proximal (pre-update) policy
            behaviour = old
            old = torch.stack([lp[r].detach() if it.replayed else self._proximal(it, lp[r])
                               for r, it in enumerate(group)])
        ref = self._reference(ctx) if o.kl_coef > 0 else None
        out = policy_loss(lp, old, torch.tensor([it.advantage for it in group], device=dev), mask,
                          clip_eps=o.clip_eps, clip_eps_high=o.clip_eps_high, objective=o.objective,
                          loss_type=o.loss_type, max_tokens=max(o.max_tokens, L), ref_logprobs_BT=ref,
                          kl_coef=o.kl_coef, entropy_BT=ent, entropy_coef=self.entropy_coef,
                          behaviour_logprobs_BT=behaviour, tis_cap=o.tis_cap)
        w = len(group) / n  # the loss is a mean over the batch's rows; weigh it by its share of items
        (out.loss * w * weight).backward()
        stats.loss += float(out.loss.detach()) * w * weight
        stats.clip_frac += out.clip_frac * w
        stats.ratio_mean += out.ratio_mean * w
        stats.kl += out.kl * w
        stats.entropy += out.entropy * w
        stats.tokens += int(mask.sum())
        if behaviour is not None:
            for k, v in (("is_weight_mean", out.is_weight_mean), ("is_truncated_frac", out.is_truncated_frac)):
                stats.extra[k] = stats.extra.get(k, 0.0) + v * w

    def _note_nonfinite(self, group: Sequence[TrainItem], bad: Sequence[bool], lp: Any, sel: Any) -> None:
        """Log and keep (the last NONFINITE_KEPT) what each dropped item (``bad`` rows of ``group``) was: its reply,
        the first position whose logprob is not finite, its grammar's start; the trainer's metrics show them."""
        for r, it in ((r, it) for r, (it, b) in enumerate(zip(group, bad)) if b):
            cols = [c for c in range(lp.shape[1]) if bool(sel[r, c]) and not math.isfinite(float(lp[r, c]))]
            tok = getattr(getattr(self.policy, "processor", None), "tokenizer", None)
            text = tok.decode(list(it.token_ids)) if tok is not None else str(list(it.token_ids))
            ex = {"reply": text[:300], "position": cols[0] if cols else None,
                  "token": it.token_ids[cols[0]] if cols and cols[0] < len(it.token_ids) else None,
                  "replayed": it.replayed, "grammar": (it.grammar or "")[:200]}
            log.warning("dropped an update item whose logprob is not finite: %s", ex)
            self.nonfinite = [*getattr(self, "nonfinite", [])[-(NONFINITE_KEPT - 1):], ex]

    def _micro_batches(self, items: Sequence[TrainItem]) -> list[list[TrainItem]]:
        """Items in forwards of at most ``pack_rows`` rows and ``pack_tokens`` padded tokens, a prompt's rows
        together (a group's first step: one image for many replies); a group larger than the limits gets forwards
        of its own."""
        o = self.optim_cfg
        out: list[list[TrainItem]] = []
        cur: list[TrainItem] = []
        longest = 0  # the current batch's longest prompt + reply, in tokens
        for group in _by_prompt(items):
            for it in group:
                size = len(self._encode(it.prompt)["input_ids"][0]) + len(it.token_ids)
                if cur and (len(cur) + 1 > o.pack_rows or (len(cur) + 1) * max(longest, size) > o.pack_tokens):
                    out.append(cur)
                    cur, longest = [], 0
                cur.append(it)
                longest = max(longest, size)
        if cur:
            out.append(cur)
        return out

    def _dpo(self, pairs: Sequence[PreferencePair], beta: float, stats: UpdateStats, nll_weight: float = 0.0) -> None:
        total_w = sum(p.weight for p in pairs)
        margin = acc = loss = nll = 0.0
        for p in pairs:  # one forward per pair: its two replies share the prompt (and its image)
            lp, ctx, mask = self._logprobs(p.prompt, [p.chosen, p.rejected], [p.chosen_grammar, p.rejected_grammar])
            ref = self._reference(ctx)
            seq, ref_seq = (lp * mask).sum(1), (ref * mask).sum(1)
            out = dpo_loss(seq[:1], seq[1:], ref_seq[:1], ref_seq[1:], beta)
            w = p.weight / total_w
            total = out.loss
            if nll_weight:  # RPO: the chosen reply's mean token NLL (a token the grammar forces adds 0)
                chosen_nll = -seq[0] / mask[0].sum().clamp(min=1)
                total = total + nll_weight * chosen_nll
                nll += float(chosen_nll.detach()) * w
            (total * w).backward()
            loss += float(out.loss.detach()) * w
            margin += out.margin * w
            acc += out.accuracy * w
            stats.tokens += int(mask.sum())
        stats.loss += loss + nll_weight * nll
        stats.extra.update(dpo_loss=loss, dpo_margin=margin, dpo_accuracy=acc)
        if nll_weight:
            stats.extra["chosen_nll"] = nll

    # ------------------------------------------------------------ persistence (PEFT format + optimizer)
    def save_adapter(self, path: str) -> None:
        self.model.save_pretrained(path)

    def state_dict(self) -> dict[str, Any]:
        return {"optimizer": self.optimizer.state_dict()}

    def load_state(self, adapter_dir: str, state: dict[str, Any] | None) -> None:
        """Load LoRA weights saved by ``save_adapter`` (and the optimizer state) into the live adapter."""
        from peft import set_peft_model_state_dict
        from safetensors.torch import load_file

        f = os.path.join(adapter_dir, "adapter_model.safetensors")
        set_peft_model_state_dict(self.model, load_file(f))
        if state and "optimizer" in state:
            self.optimizer.load_state_dict(state["optimizer"])
