"""Group-relative advantages (Dr. GRPO): reward minus the group mean, no division by the group's std.

Plain Python on purpose: rollouts produce a handful of floats per group, and the trainer turns the result into
tensors itself. Shape suffixes: ``_G`` one per episode of a group, ``_T`` one per step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class GroupStats:
    mean: float
    std: float
    zero_std: bool  # every episode got the same return: no learning signal from this group


def group_stats(returns_G: Sequence[float], eps: float = 1e-8) -> GroupStats:
    if not returns_G:
        raise ValueError("a group needs at least one episode")
    mean = sum(returns_G) / len(returns_G)
    std = math.sqrt(sum((r - mean) ** 2 for r in returns_G) / len(returns_G))
    return GroupStats(mean=mean, std=std, zero_std=std < eps)


def group_advantages(returns_G: Sequence[float], *, scale_by_std: bool = False, eps: float = 1e-6) -> list[float]:
    """Dr. GRPO by default (``r - mean``); ``scale_by_std=True`` gives the original GRPO ``(r - mean) / std``."""
    st = group_stats(returns_G)
    if scale_by_std:
        return [(r - st.mean) / (st.std + eps) for r in returns_G]
    return [r - st.mean for r in returns_G]


def discounted_returns(rewards_T: Sequence[float], gamma: float) -> list[float]:
    """Return-to-go of every step: ``G_t = r_t + gamma * G_{t+1}``."""
    out = [0.0] * len(rewards_T)
    acc = 0.0
    for t in range(len(rewards_T) - 1, -1, -1):
        acc = rewards_T[t] + gamma * acc
        out[t] = acc
    return out


def step_advantages(rewards_GT: Sequence[Sequence[float]], gamma: float) -> list[list[float]]:
    """Per-step advantages: each step's discounted return-to-go minus the group's mean return-to-go at the same step
    index (episodes that ended earlier count as 0 there). Used with ``advantage: step`` in rl_config.yaml."""
    rtg_GT = [discounted_returns(r, gamma) for r in rewards_GT]
    horizon = max((len(r) for r in rtg_GT), default=0)
    base_T = [sum(r[t] if t < len(r) else 0.0 for r in rtg_GT) / max(len(rtg_GT), 1) for t in range(horizon)]
    return [[g - base_T[t] for t, g in enumerate(r)] for r in rtg_GT]


def frac_reward_zero_std(groups: Sequence[Sequence[float]]) -> float:
    """Share of groups whose returns are all equal (the GRPO failure mode the metrics watch)."""
    if not groups:
        return 0.0
    return sum(group_stats(g).zero_std for g in groups) / len(groups)


def gigpo_advantages(rewards_GT: Sequence[Sequence[float]], keys_GT: Sequence[Sequence[str | None]], gamma: float,
                     omega: float = 1.0) -> list[list[float]]:
    """GiGPO (Feng et al., 2025): episode-level ``R - mean R`` plus ``omega`` x a step-level advantage computed
    within *anchor groups*, the steps of the whole group taken from the same state (equal ``keys``: REAL-local's
    hash of the app state and the URL): each step's discounted return-to-go minus the mean over its anchor group.
    A step whose state no other step shares (or whose key is None) gets no step-level term."""
    returns_G = [sum(r) for r in rewards_GT]
    ep_G = group_advantages(returns_G)
    rtg_GT = [discounted_returns(r, gamma) for r in rewards_GT]
    anchors: dict[str, list[float]] = {}
    for rtg, keys in zip(rtg_GT, keys_GT):
        for g, k in zip(rtg, keys):
            if k is not None:
                anchors.setdefault(k, []).append(g)
    out = []
    for a_ep, rtg, keys in zip(ep_G, rtg_GT, keys_GT):
        row = []
        for g, k in zip(rtg, keys):
            same = anchors.get(k) if k is not None else None
            step = g - sum(same) / len(same) if same and len(same) > 1 else 0.0
            row.append(a_ep + omega * step)
        out.append(row)
    return out
