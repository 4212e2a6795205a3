"""Element ids as the policy sees them (``PromptConfig.element_ids``).

``page``: the env's ids, counters in page order. A chip, a banner or one more list item before a control shifts the id
of everything after it: GoMail's Send is [186] with a recipient chip before To and [185] without, where [186] is
"More send options". A model that starts from random weights learns ids, not names, so what it learned on one form
clicks the wrong button on the next (measured: bench/ladder_stalls.py on the ladder's send_to rung).

``stable``: each element shown under an id drawn from its role, its name and its rank among the page's elements of
that role and name (a hash into 1..999, one token each in the tiny tokenizer; probing on a collision), so Send is
the same id on every page where it appears whatever comes before it. The policy's prompt, grammar and explorer all
read the aliased observation (``aliased``); a reply's element is mapped back to the env's id (``to_real``) before
the action reaches the env. Deterministic: the same page gives the same ids in the sampler, the learner's replay and
a hindsight relabel.
"""

from __future__ import annotations

import dataclasses
import re
import zlib
from dataclasses import dataclass, field
from typing import Any

from halo.env.types import Element, Observation

ELEMENT_ID_SCHEMES = ("page", "stable")
ID_RANGE = 999  # ids 1..999 are single tokens for the tiny model (halo.policy.tiny)
# an element action as Action.describe() writes it: its first argument is the element id
_DESCRIBED = re.compile(r"^(\w+)\('([^']*)'")
_TREE_ID = re.compile(r"\[(\d+)\]")


@dataclass(frozen=True)
class AliasedObservation(Observation):
    """An observation under stable ids; ``real_ids`` maps each shown id back to the env's."""

    real_ids: dict[str, str] = field(default_factory=dict)


def stable_ids(elements: dict[str, Element]) -> dict[str, str]:
    """The env's id -> its stable id, for every element (in page order, so collisions resolve the same way on the
    same page)."""
    span = max(ID_RANGE, 2 * len(elements))
    rank: dict[str, int] = {}
    used: set[int] = set()
    out: dict[str, str] = {}
    for i, el in elements.items():
        key = f"{el.role}|{' '.join((el.name or '').split())}"
        k = rank[key] = rank.get(key, -1) + 1
        h = zlib.crc32(f"{key}|{k}".encode()) % span + 1
        while h in used:
            h = h % span + 1
        used.add(h)
        out[i] = str(h)
    return out


def aliased(obs: Observation, scheme: str) -> Observation:
    """``obs`` as the policy sees it under ``scheme``: itself for ``page`` (or when already aliased), else a copy
    whose elements, tree, previous actions and appeared set carry stable ids. A previous action's element that is no
    longer on the page shows as ``?`` (its stable id is unknown here)."""
    if scheme == "page" or isinstance(obs, AliasedObservation):
        return obs
    if scheme != "stable":
        raise ValueError(f"element_ids must be one of {ELEMENT_ID_SCHEMES}, got {scheme!r}")
    to = stable_ids(obs.elements)
    elements = {to[i]: dataclasses.replace(el, id=to[i]) for i, el in obs.elements.items()}

    def described(a: str) -> str:
        m = _DESCRIBED.match(a)
        if not m or not m.group(2).isdigit():
            return a
        return f"{m.group(1)}('{to.get(m.group(2), '?')}'" + a[m.end():]

    fields = {f.name: getattr(obs, f.name) for f in dataclasses.fields(Observation)}
    fields.update(elements=elements, axtree=_TREE_ID.sub(lambda m: f"[{to.get(m.group(1), m.group(1))}]", obs.axtree),
                  last_actions=tuple(described(a) for a in obs.last_actions),
                  appeared=frozenset(to[i] for i in obs.appeared if i in to))
    return AliasedObservation(**fields, real_ids={v: k for k, v in to.items()})


def to_real(action: Any, obs: Observation) -> Any:
    """``action`` chosen on ``obs`` with its element mapped back to the env's id (unchanged under ``page``)."""
    real = getattr(obs, "real_ids", None)
    element = getattr(action, "element", None)
    if not real or not isinstance(element, str) or element not in real:
        return action
    return dataclasses.replace(action, element=real[element])
