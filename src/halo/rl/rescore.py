"""The logprobs of sampled replies under the updated policy, for the episodes a run saves.

After an update, each saved step's reply is scored again by the learner (no gradient, the same grammar mask as in
training), so the viewer can show per step the sampled logprob beside the new one: how far one update moved the
policy on what it did, and in which direction for a positive or negative advantage.
"""

from __future__ import annotations

import logging
from typing import Any, Sequence

log = logging.getLogger(__name__)


def rescore_steps(learner: Any, steps: Sequence[Any]) -> int:
    """Set ``step.new_logprobs`` for every step with sampled tokens; returns how many were scored. A learner that
    cannot score (a stub, a remote trainer) or a failure leaves the steps as they are: saving must not stop a run."""
    if learner is None or not hasattr(learner, "_logprobs") or not steps:
        return 0
    try:
        import torch
    except ImportError:
        return 0
    vision = getattr(learner.policy, "vision_ids", frozenset())
    by_prompt: dict[int, list[Any]] = {}
    for st in steps:
        ids = st.sample.token_ids
        if st.prompt is None or not ids or vision.intersection(ids):
            continue
        by_prompt.setdefault(id(st.prompt), []).append(st)
    n = 0
    try:
        with learner.policy._lock, torch.no_grad():
            for group in by_prompt.values():
                grammars = [st.sample.grammar if st.sample.sampler_logprobs is not None else None for st in group]
                lp, _ctx, _mask = learner._logprobs(group[0].prompt, [st.sample.token_ids for st in group], grammars)
                for i, st in enumerate(group):
                    st.new_logprobs = tuple(float(v) for v in lp[i, :len(st.sample.token_ids)].tolist())
                    n += 1
    except Exception as e:  # noqa: BLE001 - a viewer's extra must never kill training
        log.warning("could not score saved steps under the updated policy: %s: %s", type(e).__name__, e)
    return n
