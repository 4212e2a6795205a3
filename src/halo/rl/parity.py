"""Sampler-vs-learner logprob parity: the PPO ratio and its clip mean something only if the learner, recomputing the
sampled tokens' logprobs on the same prompt and image (under the same grammar mask), gets the sampler's numbers.
Used by the real-vLLM tests and ``bench/vllm_path.py``."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from halo.rl.learner import LoRALearner, check_prompt_length


def recompute(learner: LoRALearner, prompt: Any, samples: Sequence[Any]) -> list[list[float]]:
    """The learner's logprobs of each sample's tokens (the grammar's mask applied where it was sampled under one)."""
    import torch

    with torch.no_grad():
        lp, ctx, _ = learner._logprobs(prompt, [s.token_ids for s in samples], [s.grammar for s in samples])
    for s in samples:
        check_prompt_length(s.prompt_tokens, ctx[2])
    return [lp[i, :len(s.token_ids)].tolist() for i, s in enumerate(samples)]


def gaps(samples: Sequence[Any], recomputed: Sequence[Sequence[float]]) -> list[float]:
    """|sampler - learner| per sampled token (the sampler's masked logprobs where a grammar applied)."""
    out = []
    for s, r in zip(samples, recomputed):
        theirs = s.sampler_logprobs if s.sampler_logprobs is not None else s.logprobs
        if len(theirs) != len(r):
            raise ValueError(f"{len(theirs)} sampler logprobs for {len(r)} tokens")
        out += [abs(a - b) for a, b in zip(theirs, r)]
    return out


def summary(diffs: Sequence[float]) -> dict[str, float]:
    return {"tokens": len(diffs), "median_abs_diff": statistics.median(diffs), "max_abs_diff": max(diffs)}
