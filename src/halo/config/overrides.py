"""Overrides of config keys: ``--set key.path=value`` and a command's flags, one typed value each, applied to the
file's mapping by the same code before its schema checks it.

The first key of a path names what it changes: an ``rl_config.yaml`` section (``grpo``, ``lora``, ...), ``mode``
(the mode the command runs), ``modes`` (``modes.yaml`` itself) or ``demo``. A ``--set`` value is YAML (``1e-5``,
``[q_proj, v_proj]``, ``true``), read with a config file's bounds (``halo.config.files``); a flag's value is already
typed. Later overrides win: a job applies the file, then ``--set``, then flags.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from halo.config.files import load_yaml
from halo.errors import ConfigError


@dataclass(frozen=True)
class Override:
    """One key path and its value (``Override(("grpo", "lr"), 1e-5)``)."""

    path: tuple[str, ...]
    value: Any

    @property
    def key(self) -> str:
        return ".".join(self.path)

    def __str__(self) -> str:  # as a --set item, for run records
        return f"{self.key}={self.value!r}"


def parse_set(item: str, known: Sequence[str]) -> Override:
    """``key.path=value`` as an ``Override``; the first key must be one of ``known`` (the configs there are)."""
    key, eq, raw = item.partition("=")
    path = tuple(p for p in key.strip().split("."))
    if not eq or not key.strip() or any(not p for p in path):
        raise ConfigError(f"--set {item!r}: write key.path=value (grpo.lr=1e-5, mode.decoding.temperature=0.5)")
    if path[0] not in known:
        raise ConfigError(f"--set {item!r}: {path[0]!r} is not a config; the first key is one of {', '.join(known)}")
    try:
        value = load_yaml(raw) if raw.strip() else ""
    except ConfigError as e:  # too large, too deep, or aliases that expand past the bound
        raise ConfigError(f"--set {item[:80]!r}: {e}") from None
    except Exception as e:  # noqa: BLE001 - any YAML error is the user's value
        raise ConfigError(f"--set {item!r}: the value is not YAML ({e})") from None
    return Override(path, value)


def parse_sets(items: Iterable[str], known: Sequence[str], allowed: Sequence[str],
               command: str) -> tuple[Override, ...]:
    """Every ``--set`` of a command, parsed at the door: each names a config there is and one this command reads."""
    out = []
    for item in items:
        o = parse_set(item, known)
        if o.path[0] not in allowed:
            raise ConfigError(f"--set {item!r}: `{command}` does not read {o.path[0]!r}; it reads "
                              f"{', '.join(allowed)}")
        out.append(o)
    return tuple(out)


def flags(target: str, values: Mapping[str, Any]) -> tuple[Override, ...]:
    """A command's flags as overrides under ``target`` (``flags("grpo", {"lr": 1e-5, "seed": None})``); a flag left
    at None was not given. Keys may be dotted (``"decoding.temperature"``)."""
    return tuple(Override((target, *k.split(".")), v) for k, v in values.items() if v is not None)


def select(overrides: Iterable[Override], targets: Iterable[str], strip: bool = False) -> list[Override]:
    """The overrides whose first key is one of ``targets`` (without it when ``strip``)."""
    targets = set(targets)
    return [Override(o.path[1:], o.value) if strip else o for o in overrides if o.path[0] in targets]


def apply(data: Mapping[str, Any], overrides: Iterable[Override], where: str) -> dict[str, Any]:
    """A copy of ``data`` with each override set, creating mappings on the way."""
    out = copy.deepcopy(dict(data))
    for o in overrides:
        if not o.path:
            raise ConfigError(f"--set: a key path is needed after {where}")
        node = out
        for i, k in enumerate(o.path[:-1]):
            nxt = node.get(k)
            if nxt is None:
                nxt = node[k] = {}
            if not isinstance(nxt, dict):
                raise ConfigError(f"--set {o.key}: {where} {'.'.join(o.path[:i + 1])} is {nxt!r}, not a mapping")
            node = nxt
        node[o.path[-1]] = o.value
    return out
