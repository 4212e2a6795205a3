"""Task families on REAL-local: parametrized generators of verifiable tasks of graded difficulty, to train on.

REAL's 121 v2 tasks stay the held-out benchmark; families give many instances, each with its own goal and grader,
from one-step goals (open the email from X) to REAL-like ones (send X an email with subject S). Task specs:

- ``gomail.open`` or ``gomail.open@train``: the family's training instances; ``@test`` the held-out ones,
  ``@all`` both; ``gomail.open@test:20`` the first 20 of them;
- ``gomail.*@train``: every family of a site; ``families@train``: every family;
- ``families/1@train``: every one-step family of every site (``/2-4``, ``/5+``: the other difficulties; also after a
  site: ``gomail.*/5+@train``), one kind of goal across sites;
- ``gomail.open-17``: one instance.
"""

from __future__ import annotations

import re
from typing import Any

from halo.errors import ConfigError, TaskNotFoundError
from halo.tasks.families.base import FAMILIES, Family, Finish, Instance
from halo.tasks.types import Grade, Task, default_local_urls

# the split and the count are taken as written, then checked (a bad one is named, not read as an unknown task)
_SPEC = re.compile(r"^(?P<fam>families|[a-z]+\.(?:\*|[a-z0-9_]+))(?:/(?P<steps>[^@:]*))?(?:@(?P<split>[^:]*))?"
                   r"(?::(?P<n>.*))?$")
STEPS = ("1", "2-4", "5+")
_ONE = re.compile(r"^(?P<fam>[a-z]+\.[a-z0-9_]+)-(?P<i>\d+)$")
SPLITS = ("train", "test", "all")
MAX_COUNT = 1_000_000  # of ``@split:N`` (the largest family has a few thousand instances)
_loaded = False


def _load() -> None:
    """Import the site modules once (each registers its families)."""
    global _loaded
    if not _loaded:
        from halo.tasks.families import (  # noqa: F401
            dashdish,
            gocalendar,
            gomail,
            marrisuite,
            networkin,
            omnizon,
            opendining,
            staynb,
            topwork,
            udriver,
            zilloft,
        )

        _loaded = True


def all_families(site: str | None = None) -> list[Family]:
    _load()
    return [f for n, f in sorted(FAMILIES.items()) if site is None or f.site == site]


def get_family(name: str) -> Family:
    _load()
    if name not in FAMILIES:
        raise TaskNotFoundError(f"unknown task family {name!r}; list them with `halo tasks --families` "
                                f"(known: {', '.join(sorted(FAMILIES))})")
    return FAMILIES[name]


def is_family_spec(ref: str) -> bool:
    """Whether ``ref`` names families or an instance (``gomail.open@train``, ``gomail.open-3``), not a REAL task."""
    ref = ref.strip()
    if ref.startswith("v") and ref[1:2].isdigit():
        return False
    return bool(_SPEC.match(ref) or _ONE.match(ref))


def family_task(inst: Instance, site_urls: dict[str, str] | None = None) -> Any:
    """An instance as a ``Task`` on REAL-local (graded by its family, not by agisdk)."""
    fam = get_family(inst.family)
    base = (site_urls or default_local_urls())[fam.site].rstrip("/")
    return Task(id=inst.id, version="families", name=inst.id, site=fam.site, goal=inst.goal, base_url=base,
                remote_url=base, local=True, points=1.0, family=inst.family, index=inst.index,
                start_path=fam.start(inst.params))


def resolve_family_spec(ref: str, site_urls: dict[str, str] | None = None) -> list[Any]:
    """Tasks for a family spec (see the module doc). Raises ``ConfigError`` with the fix for a bad one."""
    ref = ref.strip()
    one = _ONE.match(ref)
    if one:
        fam = get_family(one.group("fam"))
        if len(one.group("i")) > 9:
            raise ConfigError(f"{ref[:60]!r}: an instance number has at most 9 digits")
        return [family_task(fam.instance(int(one.group("i"))), site_urls)]
    m = _SPEC.match(ref)
    if not m:
        raise ConfigError(f"{ref!r} is not a family spec; use e.g. gomail.open@train, gomail.*@test:20, "
                          "families@train, families/1@train or gomail.open-17 (`halo tasks --families` lists them)")
    name, split, n = m.group("fam"), m.group("split"), m.group("n")
    if split is not None and split not in SPLITS:
        raise ConfigError(f"{ref!r}: unknown split {split!r}; a family's instances split into train and test "
                          f"(@all: both), e.g. gomail.open@test:20")
    split = split or "train"
    if n is not None:
        if not re.fullmatch(r"-?[0-9]{1,7}", n):
            raise ConfigError(f"{ref[:60]!r}: the count must be a whole number from 1 to {MAX_COUNT:,}, got "
                              f"{n[:20]!r}; :N takes the first N instances of the split (gomail.open@test:20)")
        if not 1 <= int(n) <= MAX_COUNT:
            raise ConfigError(f"{ref!r}: the count must be >= 1 and <= {MAX_COUNT:,}, got {int(n)}; :N takes the "
                              f"first N instances of the split (gomail.open@test:20)")
    if name == "families":
        fams = all_families()
    elif name.endswith(".*"):
        fams = all_families(site=name[:-2])
        if not fams:
            raise ConfigError(f"no task families on site {name[:-2]!r}; `halo tasks --families` lists them")
    else:
        fams = [get_family(name)]
    steps = m.group("steps")
    if steps is not None:
        if steps not in STEPS:
            raise ConfigError(f"{ref!r}: unknown difficulty {steps!r}; a family takes {', '.join(STEPS)} steps "
                              f"(families/1@train: every one-step family)")
        fams = [f for f in fams if f.steps == steps]
        if not fams:
            raise ConfigError(f"{ref!r}: no family of {name} takes {steps} steps; `halo tasks --families` lists them")
    limit = int(n) if n else None
    return [family_task(i, site_urls) for f in fams for i in f.instances(split, limit)]


def progress_of(task: Any, finish_state: dict[str, Any], page: Any = None) -> float:
    """The share of the instance's checks, and of its subgoals on ``page`` (the observation after the step, where
    given), that pass on this state: the family's progress potential, 0..1; 0 on a dead end (``Family.dead_end``).
    Checks on the final message are left out: they cannot pass before it is sent."""
    fam = get_family(task.family)
    params = fam.instance(task.index).params
    checks = [c for c in fam.grade(finish_state, params, "") if c.name != "answer"]
    if not all(c.passed for c in checks) and _dead_end(fam, finish_state, params):
        return 0.0
    if page is not None:
        try:
            checks += fam.subgoals(Finish(finish_state), params, page)
        except Exception:  # noqa: BLE001 - a page or state the agent made; a subgoal that cannot be read is not met
            pass
    return sum(c.passed for c in checks) / len(checks) if checks else 0.0


def dead_end_of(task: Any, finish_state: dict[str, Any]) -> bool:
    """Whether the instance can no longer be solved from this state (``Family.dead_end``; asked of failed states
    only): an episode there is over."""
    fam = get_family(task.family)
    return _dead_end(fam, finish_state, fam.instance(task.index).params)


def _dead_end(fam: Any, finish_state: dict[str, Any], params: dict[str, Any]) -> bool:
    try:
        return bool(fam.dead_end(Finish(finish_state), params))
    except Exception:  # noqa: BLE001 - a state the agent made that the check cannot read is not a dead end
        return False


def grade_family_task(task: Any, finish_state: dict[str, Any], response: str = "") -> Any:
    """A family instance's verdict, shaped as REAL's (``Grade``: success iff every check passed)."""
    fam = get_family(task.family)
    inst = fam.instance(task.index)
    checks = fam.grade(finish_state, inst.params, response)
    details = [{"check": c.name, "passed": c.passed, "info": c.detail} for c in checks]
    ok = bool(checks) and all(c.passed for c in checks)
    return Grade(success=ok, reward=1.0 if ok else 0.0, details=details, finish_state=finish_state)
