"""Which tasks each GRPO iteration trains on: round-robin over fixed tasks, or a curriculum over task families.

A group teaches only where its episodes differ: a family the policy always fails (or always solves) gives
zero-variance groups and no gradient. The curriculum (as WebRL's self-evolving curriculum and learning-progress
samplers do) draws a family with weight ``p * (1 - p) + floor``, ``p`` its recent success rate over the last
``window`` episodes (0.5 until it has any, so every family is tried early), then one of its training instances at
random. The trainer refills groups that came back with zero variance (DAPO's dynamic sampling).

A **ladder** (``curriculum: ladder``) orders the families as the task list names them, from one step up to a
REAL-length one, and climbs it: at first only the lowest rung is drawn; the next rung opens once the highest open
one succeeds ``unlock`` of its last ``window`` episodes (at least half a window seen). The highest open rung (the
frontier) takes ``1 - review`` of the draws, the rungs below share ``review`` so that what was learned is kept: each
in proportion to its recent failure rate plus ``REVIEW_FLOOR`` (a rung that slips as the frontier's updates
overwrite it is drawn more, one that holds is still drawn). With ``goal`` > 0 the top rung (the goal itself) takes
that share of the draws from the start, before it opens: in a reverse curriculum every rung below starts later in
the goal's episode, so the goal's first steps (GoMail's Compose from the inbox) are practised on no rung; its
episodes pay the progress they make (the dense reward), which teaches those steps while the ladder climbs. With
``goal_steps`` those early episodes end after that many steps (``step_cap``): what they are for is the first steps,
and a whole-length failure costs a rung's worth of episodes; a short one also puts the per-episode explorer's one
drawn choice on those first steps. With ``goal_last`` > 0, once the rung just below the goal is the frontier the goal
takes that share instead, in whole episodes (no ``goal_steps`` cap): that rung is the goal less its first steps, so
its policy already succeeds on the goal now and then (measured: 12-25% on gomail.send with send_address at 38%, the
goal never opened), and the goal's own episodes then teach the whole send before the gate opens it.
"""

from __future__ import annotations

import random
import statistics
from collections import defaultdict, deque
from dataclasses import dataclass
from typing import Any, Sequence

from halo.errors import ConfigError

REVIEW_FLOOR = 0.1  # ladder: a held rung's review weight beside a failing one's 1.1


@dataclass(frozen=True)
class CurriculumSettings:
    window: int = 32  # recent episodes per family that estimate its success rate
    floor: float = 0.02  # every family keeps this weight (mastered families are revisited, unseen ones tried)
    unlock: float = 0.5  # ladder: the frontier's recent success that opens the next rung
    review: float = 0.3  # ladder: the share of draws the rungs below the frontier take
    goal: float = 0.0  # ladder: the share of draws the top rung takes before it opens (its first steps practised)
    goal_steps: int = 0  # ladder: those draws' episodes end after this many steps (0: the family's own cap)
    goal_last: float = 0.0  # ladder: the goal's share, whole episodes, once the rung below it is the frontier (0: goal)

    def __post_init__(self) -> None:
        if self.window < 1:
            raise ConfigError(f"curriculum window must be >= 1, got {self.window}")
        if not 0 <= self.floor <= 1:
            raise ConfigError(f"curriculum floor must be in [0, 1], got {self.floor}")
        if not 0 <= self.goal < 1 or self.review + self.goal >= 1:
            raise ConfigError(f"ladder goal share must be in [0, 1) and leave the frontier a share beside review "
                              f"{self.review}, got {self.goal}")
        if not 0 <= self.goal_last < 1 or self.review + self.goal_last >= 1:
            raise ConfigError(f"ladder goal_last share must be in [0, 1) and leave the frontier a share beside review "
                              f"{self.review}, got {self.goal_last}")
        if self.goal_steps < 0:
            raise ConfigError(f"ladder goal steps must be >= 0 (0: the family's own cap), got {self.goal_steps}")
        if self.goal_steps and not self.goal:
            raise ConfigError(f"ladder goal steps {self.goal_steps} cap the top rung's draws before it opens: set "
                              "the ladder goal share > 0 (e.g. 0.1) with it")


class RoundRobin:
    """Fixed tasks in a seeded shuffled order, ``k`` per iteration (REAL's own tasks)."""

    def __init__(self, tasks: Sequence[Any], seed: int = 0):
        if not tasks:
            raise ConfigError("GRPO needs at least one task")
        self.tasks = list(tasks)
        self._order = list(range(len(self.tasks)))
        random.Random(seed).shuffle(self._order)
        self._next = 0

    def draw(self, k: int, iteration: int) -> list[Any]:
        return [self.tasks[self._order[(iteration * k + j) % len(self._order)]] for j in range(k)]

    def extra(self, iteration: int, n: int) -> Any:
        """One more task for a refill (the next in the order after this iteration's)."""
        return self.tasks[self._order[(iteration * 7919 + n) % len(self._order)]]

    def record(self, task: Any, successes: Sequence[bool]) -> None:
        pass

    def step_cap(self, task: Any) -> int | None:
        """Steps ``task``'s episodes may take at most now, where the sampler says (None: the run's own)."""
        return None

    def state(self) -> dict[str, Any]:
        return {}


class Curriculum:
    """Learning-progress sampling over task families (``task.family``); see the module doc."""

    def __init__(self, tasks: Sequence[Any], settings: CurriculumSettings | None = None, seed: int = 0):
        self.s = settings or CurriculumSettings()
        self.by_family: dict[str, list[Any]] = defaultdict(list)
        for t in tasks:
            if not getattr(t, "family", ""):
                raise ConfigError(f"the curriculum samples task families; {t.id} is not a family instance "
                                  "(mix REAL tasks and families without --curriculum)")
            self.by_family[t.family].append(t)
        if not self.by_family:
            raise ConfigError("the curriculum needs family tasks, e.g. --tasks gomail.*@train")
        self.families = sorted(self.by_family)
        self.recent: dict[str, deque[bool]] = {f: deque(maxlen=self.s.window) for f in self.families}
        self.rng = random.Random(seed)

    def success(self, family: str) -> float | None:
        r = self.recent[family]
        return statistics.fmean(r) if r else None

    def weights(self) -> dict[str, float]:
        out = {}
        for f in self.families:
            p = self.success(f)
            p = 0.5 if p is None else p
            out[f] = p * (1 - p) + self.s.floor
        return out

    def _one(self) -> Any:
        w = self.weights()
        fam = self.rng.choices(self.families, weights=[w[f] for f in self.families])[0]
        return self.rng.choice(self.by_family[fam])

    def draw(self, k: int, iteration: int) -> list[Any]:
        return [self._one() for _ in range(k)]

    def extra(self, iteration: int, n: int) -> Any:
        return self._one()

    def record(self, task: Any, successes: Sequence[bool]) -> None:
        self.recent[task.family].extend(bool(x) for x in successes)

    def step_cap(self, task: Any) -> int | None:
        return None

    def state(self) -> dict[str, Any]:
        """Per family: recent success (None before any episode) and sampling weight, for metrics and reports."""
        w = self.weights()
        return {f: {"success": self.success(f), "weight": round(w[f], 4)} for f in self.families}


class Ladder(Curriculum):
    """The families as rungs, in the order the tasks name them; see the module doc."""

    def __init__(self, tasks: Sequence[Any], settings: CurriculumSettings | None = None, seed: int = 0):
        super().__init__(tasks, settings, seed)
        self.families = list(dict.fromkeys(t.family for t in tasks))  # the task list's order, not sorted
        self.open = 1

    def _climb(self) -> None:
        while self.open < len(self.families):
            recent = self.recent[self.families[self.open - 1]]
            if len(recent) < max(1, self.s.window // 2) or statistics.fmean(recent) < self.s.unlock:
                break
            self.open += 1

    def weights(self) -> dict[str, float]:
        below = self.open - 1
        goal = self.s.goal if self.open < len(self.families) else 0.0  # the top rung drawn before it opens
        if self._last():
            goal = self.s.goal_last
        out = {f: 0.0 for f in self.families}
        out[self.families[below]] = 1.0 - (self.s.review if below else 0.0) - goal
        out[self.families[-1]] += goal
        recent = {f: self.success(f) for f in self.families[:below]}
        need = {f: 1.0 - (0.5 if p is None else p) + REVIEW_FLOOR for f, p in recent.items()}
        for f in self.families[:below]:  # a rung that is slipping is reviewed more than one that holds
            out[f] = self.s.review * need[f] / sum(need.values())
        return out

    def record(self, task: Any, successes: Sequence[bool]) -> None:
        super().record(task, successes)
        self._climb()

    @property
    def frontier(self) -> str:
        """The highest open rung: the family the ladder is learning now."""
        return self.families[self.open - 1]

    def _last(self) -> bool:
        """Whether ``goal_last`` applies: set, and the rung just below the goal is the frontier."""
        return bool(self.s.goal_last) and self.open == len(self.families) - 1

    def step_cap(self, task: Any) -> int | None:
        """``goal_steps`` for the top rung's episodes while it is not open yet (the goal share's draws), unless
        ``goal_last`` has them whole."""
        top = getattr(task, "family", None) == self.families[-1]
        early = self.open < len(self.families) and not self._last()
        return self.s.goal_steps if top and self.s.goal_steps and early else None

    def state(self) -> dict[str, Any]:
        return {f: {**v, "open": i < self.open} for i, (f, v) in enumerate(super().state().items())}


def make_sampler(tasks: Sequence[Any], mode: str, settings: CurriculumSettings | None = None, seed: int = 0):
    """``mode``: ``auto`` (the curriculum when every task is a family instance), ``on``, ``off`` or ``ladder``."""
    if mode not in ("auto", "on", "off", "ladder"):
        raise ConfigError(f"curriculum must be auto, on, off or ladder, got {mode!r}")
    families = bool(tasks) and all(getattr(t, "family", "") for t in tasks)
    if mode == "ladder":
        return Ladder(tasks, settings, seed)
    if mode == "on" or (mode == "auto" and families):
        return Curriculum(tasks, settings, seed)
    return RoundRobin(tasks, seed)
