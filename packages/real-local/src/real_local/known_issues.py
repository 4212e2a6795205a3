"""REAL's own graders that cannot pass, pass loosely, are stricter than their goal, contradict it, or whose hosted
site misbehaved, one entry per task id, with what REAL-local does on each (``known_issues.yaml`` beside this file).

    from real_local.known_issues import load
    for issue in load():
        print(issue.id, issue.kind, issue.short)

``load()`` checks every entry: its id is one of agisdk's tasks (``v2.staynb-5``; ``v1.`` for the issues reported on
REAL's v1 tasks), each kind is one of ``KINDS``, no id appears twice, and the texts are there; a bad entry raises
``KnownIssuesError`` naming its id. agisdk's task lists are read from its installed task files, without importing it;
without agisdk, v2 ids are checked against REAL-local's own task index (``tasks_v2.json``) and v1 ids by their form.
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

DATA = Path(__file__).with_name("known_issues.yaml")
KINDS = ("loose", "strict", "contradicts", "empty", "hard-coded-date", "hosted-site-bug")
FIELDS = ("id", "kind", "goal_says", "script_does", "real_local")
OPTIONAL = ("also",)


class KnownIssuesError(ValueError):
    """An entry of the known-issues file that cannot be right (the message names its id)."""


@dataclass(frozen=True)
class KnownIssue:
    id: str  # agisdk's canonical id: "v2.staynb-5"
    kind: str  # one of KINDS
    goal_says: str
    script_does: str
    real_local: str
    also: tuple[str, ...] = ()  # further kinds (networkin-6 is loose and strict)

    @property
    def version(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def task(self) -> str:
        return self.id.split(".", 1)[1]

    @property
    def kinds(self) -> tuple[str, ...]:
        return (self.kind, *self.also)

    @property
    def short(self) -> str:
        """The first sentence of ``script_does``: what the grader really checks, in one line."""
        text = " ".join(self.script_does.split())
        cut = text.find(". ")
        return text if cut < 0 else text[:cut + 1]


def agisdk_task_ids() -> frozenset[str]:
    """Every task agisdk ships, as canonical ids (``v1.x``, ``v2.x``), from its task files."""
    return _agisdk_task_ids()


@functools.lru_cache(maxsize=1)
def _agisdk_task_ids() -> frozenset[str]:
    spec = importlib.util.find_spec("agisdk")
    if spec is None or not spec.submodule_search_locations:
        # REAL-local alone (no agisdk): its own index of v2 tasks, and v1 ids by their form (agisdk 0.3.5's names)
        from real_local.tasks import v2_tasks

        return _AnyV1(t.id for t in v2_tasks())
    root = Path(next(iter(spec.submodule_search_locations))) / "REAL" / "browsergym" / "webclones"
    ids = frozenset(f"{v.name}.{f.stem}" for v in root.glob("v[0-9]*") for f in (v / "tasks").glob("*.json"))
    if not ids:
        raise KnownIssuesError(f"no agisdk task files under {root}")
    return ids


class _AnyV1(frozenset):
    """The v2 ids REAL-local ships, and any well-formed v1 id (``v1.omnizon-3``): without agisdk installed, the
    v1 task files that the issues reported on the v1 sites name are not at hand."""

    def __contains__(self, tid: object) -> bool:
        from real_local.tasks import V1_ID

        return super().__contains__(tid) or (isinstance(tid, str) and bool(V1_ID.fullmatch(tid)))


def parse(entries: Any, known_ids: Iterable[str] | None = None, source: str = "known_issues.yaml"
          ) -> list[KnownIssue]:
    """Check and build the entries (a list of mappings, as the YAML file holds them)."""
    known = frozenset(known_ids) if known_ids is not None else agisdk_task_ids()
    if not isinstance(entries, list):
        raise KnownIssuesError(f"{source}: expected a list of entries, got {type(entries).__name__}")
    out: list[KnownIssue] = []
    seen: set[str] = set()
    for n, e in enumerate(entries, 1):
        where = f"{source}, entry {n}"
        if not isinstance(e, dict):
            raise KnownIssuesError(f"{where}: expected a mapping, got {type(e).__name__}")
        tid = e.get("id")
        if not isinstance(tid, str) or not tid:
            raise KnownIssuesError(f"{where}: no id")
        where = f"{source}, {tid}"
        extra = sorted(set(e) - set(FIELDS) - set(OPTIONAL))
        if extra:
            raise KnownIssuesError(f"{where}: unknown field(s) {', '.join(extra)}; fields: {', '.join(FIELDS + OPTIONAL)}")
        missing = [f for f in FIELDS if not isinstance(e.get(f), str) or not e[f].strip()]
        if missing:
            raise KnownIssuesError(f"{where}: missing or empty {', '.join(missing)}")
        if tid not in known:
            raise KnownIssuesError(f"{where}: not one of agisdk's tasks (ids look like v2.staynb-5)")
        if tid in seen:
            raise KnownIssuesError(f"{where}: listed twice; one entry per task id (further kinds go in `also`)")
        seen.add(tid)
        also = e.get("also") or []
        if isinstance(also, str) or not isinstance(also, list):
            raise KnownIssuesError(f"{where}: `also` must be a list of kinds")
        for k in [e["kind"], *also]:
            if k not in KINDS:
                raise KnownIssuesError(f"{where}: kind {k!r} is not one of {', '.join(KINDS)}")
        out.append(KnownIssue(tid, e["kind"], e["goal_says"].strip(), e["script_does"].strip(),
                              e["real_local"].strip(), tuple(also)))
    return out


def _read(path: Path) -> tuple[KnownIssue, ...]:
    with open(path, encoding="utf-8") as f:
        entries = yaml.safe_load(f)
    return tuple(parse(entries, source=path.name))


@functools.lru_cache(maxsize=1)
def _shipped() -> tuple[KnownIssue, ...]:
    return _read(DATA)


def load(path: str | Path | None = None) -> list[KnownIssue]:
    """Every known issue, in the file's order, checked (``KnownIssuesError`` on a bad entry); by default the file
    shipped beside this module (read once), else ``path``."""
    return list(_read(Path(path)) if path else _shipped())


def by_id(path: str | Path | None = None) -> dict[str, KnownIssue]:
    return {i.id: i for i in load(path)}
