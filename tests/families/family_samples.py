"""What every site's family tests draw on: the instances a scripted solution is played on, and the near misses made
by changing one graded parameter (used by ``test_family_contract.py``, the contract every site's families keep)."""

from __future__ import annotations

from collections.abc import Iterable

from halo.tasks.families import get_family


def sample(name: str) -> list:
    """Two training instances and one held-out one, spread over the family."""
    f = get_family(name)
    train, test = f.instances("train"), f.instances("test")
    return [train[0], train[len(train) // 2], test[len(test) // 2]]


def spread(name: str, n: int = 3) -> list:
    """``n`` instances spread evenly over the family's whole space (the first, the last and between; the first
    sites' choice, kept so that their oracles are still played on the instances they were written against)."""
    f = get_family(name)
    return [f.instance(i * (f.size - 1) // (n - 1)) for i in range(n)]


def neighbours(name: str, params: dict, keys: Iterable[str]) -> list[dict]:
    """The same parameters with one of ``keys`` (the family's graded ones) changed to another value it uses."""
    out = []
    for key in keys:
        other = next(p[key] for p in get_family(name).space() if p[key] != params[key])
        out.append({**params, key: other})
    return out
