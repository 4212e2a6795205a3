"""Step-level DPO from search trees (Agent Q): at every expanded node, sibling actions whose Q differ by at least a
margin make a preference pair; the optional policy-gradient part treats a node's tried actions as a GRPO group
(advantage: Q minus the siblings' mean). Both feed ``LoRALearner.preference_update``.

``solved`` (``dpo.pairs: solved``) keeps only what a solved path says: at each node on a path from the root to a
successful end, its solving edge over each sibling that solves nothing (and, for the policy-gradient part, solving
1 / not 0 minus the node's mean). Pairs by Q alone are mostly between siblings that both fail (measured on
gocalendar.otherday: ~2,500 pairs a round, the sampled policy 0% -> 0%), which teach the policy nothing about the
path that solved.
"""

from __future__ import annotations

import itertools
import statistics
from typing import Any

from halo.rl.learner import PreferencePair, TrainItem
from halo.rl.mcts import Edge, Node, sibling_groups


def _tokens(e: Edge) -> tuple[tuple[int, ...], str | None]:
    s = e.sample
    constrained = s.grammar is not None and s.sampler_logprobs is not None
    return tuple(s.token_ids or ()), (s.grammar if constrained else None)


def solving_edges(root: Node) -> set[int]:
    """The ids of the edges on a path from ``root`` to a successful terminal node."""
    out: set[int] = set()

    def solves(node: Node) -> bool:
        found = False
        for e in node.edges:
            c = e.child
            if c is not None and ((c.terminal and c.success) or (not c.terminal and solves(c))):
                out.add(id(e))
                found = True
        return found
    solves(root)
    return out


def tree_pairs(root: Node, alpha: float, margin: float,
               solved: bool = False) -> list[tuple[PreferencePair, dict[str, Any]]]:
    """Preference pairs of every node's tried siblings (Q of the chosen >= Q of the rejected + margin), each with a
    JSON record of what was compared; ``solved``: only a solving edge over a sibling that solves nothing (any Q)."""
    out = []
    win = solving_edges(root) if solved else set()
    for node, tried in sibling_groups(root, alpha):
        for a, b in itertools.permutations(tried, 2):
            qa, qb = a.q(alpha), b.q(alpha)
            (ca, ga), (cb, gb) = _tokens(a), _tokens(b)
            keep = id(a) in win and id(b) not in win if solved else qa - qb >= margin
            if not keep or not ca or not cb or ca == cb:
                continue
            pair = PreferencePair(prompt=node.prompt, chosen=ca, rejected=cb, chosen_grammar=ga, rejected_grammar=gb)
            out.append((pair, {"node": node.id, "step": node.step, "url": node.obs.url, "chosen": a.key,
                               "rejected": b.key, "q_chosen": round(qa, 4), "q_rejected": round(qb, 4),
                               "margin": round(qa - qb, 4), "visits": [a.n, b.n]}))
    return out


def sibling_items(root: Node, alpha: float, solved: bool = False) -> list[TrainItem]:
    """GRPO on a node's tried actions: advantage = Q minus the siblings' mean Q (zero-spread nodes give nothing);
    ``solved``: 1 for a solving edge, 0 for the others, minus their mean (nodes off every solved path give nothing)."""
    items = []
    win = solving_edges(root) if solved else set()
    for node, tried in sibling_groups(root, alpha):
        qs = [float(id(e) in win) for e in tried] if solved else [e.q(alpha) for e in tried]
        mean = statistics.fmean(qs)
        for e, q in zip(tried, qs):
            s = e.sample
            ids, g = _tokens(e)
            if not ids or s.logprobs is None or q == mean:
                continue
            items.append(TrainItem(prompt=node.prompt, token_ids=ids,
                                   sampler_logprobs=tuple(s.sampler_logprobs if g else s.logprobs),
                                   advantage=q - mean, grammar=g))
    return items
