"""What every site's family tests draw on: the instances a scripted solution is played on, and the near misses made
by changing one graded parameter (shared by the later sites' ``test_<site>_families.py``)."""

from __future__ import annotations

from collections.abc import Iterable

from halo.tasks.families import get_family


def sample(name: str) -> list:
    """Two training instances and one held-out one, spread over the family."""
    f = get_family(name)
    train, test = f.instances("train"), f.instances("test")
    return [train[0], train[len(train) // 2], test[len(test) // 2]]


def neighbours(name: str, params: dict, keys: Iterable[str]) -> list[dict]:
    """The same parameters with one of ``keys`` (the family's graded ones) changed to another value it uses."""
    out = []
    for key in keys:
        other = next(p[key] for p in get_family(name).space() if p[key] != params[key])
        out.append({**params, key: other})
    return out
