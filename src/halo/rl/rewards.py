"""Dense, shaped rewards: progress milestones per site plus step shaping, with every part named.

Sparse success gives no gradient early in training, so each step also pays for progress. Milestones are data
(``rewards.milestones`` in configs/rl_config.yaml): a milestone matches when all its conditions hold on the step, and
it is paid once per episode. Conditions read only what every site shows (URL, accessibility tree, elements, the
acted-on element), so the same rules work on REAL's remote sites and on REAL-local.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from halo.env.actions import Action
from halo.env.types import Element, Observation
from halo.errors import ConfigError


@dataclass(frozen=True)
class ElementPattern:
    """An element by role and accessible name (regexes, case-insensitive); ``filled`` asks for a non-empty value."""

    role: str = ".*"
    name: str = ".*"
    filled: bool = False

    def matches(self, el: Element) -> bool:
        if not re.fullmatch(self.role, el.role or "", re.I) or not re.search(self.name, el.name or "", re.I):
            return False
        return not self.filled or bool((el.value or "").strip())


@dataclass(frozen=True)
class Milestone:
    """Paid once per episode when every given condition holds after the step.

    ``url``: regex searched in the new URL; ``text``: regex searched in the new accessibility-tree text;
    ``element``: some element of the new observation matches; ``acted_on``: the action targeted a matching element
    of the observation it was taken in (by id, or by the point of a coordinate action); ``action``: regex matched
    against the action's name."""

    name: str
    weight: float
    url: str | None = None
    text: str | None = None
    element: ElementPattern | None = None
    acted_on: ElementPattern | None = None
    action: str | None = None

    def reached(self, obs: Observation, action: Action | None, next_obs: Observation) -> bool:
        if self.url is not None and not re.search(self.url, next_obs.url, re.I):
            return False
        if self.text is not None and not re.search(self.text, next_obs.axtree, re.I | re.M):
            return False
        if self.element is not None and not any(self.element.matches(e) for e in next_obs.elements.values()):
            return False
        if self.action is not None and (action is None or not re.fullmatch(self.action, action.name)):
            return False
        if self.acted_on is not None:
            target = target_element(obs, action)
            if target is None or not self.acted_on.matches(target):
                return False
        return True


@dataclass(frozen=True)
class Shaping:
    valid_action: float = 0.1
    unparseable: float = -0.5
    new_state: float = 0.2
    loop: float = -1.0
    action_error: float = -0.2
    success: float = 1.0
    loop_repeats: int = 3  # the same action in the same state this many times is a loop
    progress: float = 1.0  # task families: weight of the change in the share of the family's checks that pass


@dataclass(frozen=True)
class RewardConfig:
    shaping: Shaping = field(default_factory=Shaping)
    milestones: Mapping[str, tuple[Milestone, ...]] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "RewardConfig":
        """From the ``rewards`` section of rl_config.yaml, validated whole at start-up (``ConfigError`` naming the
        key): unknown keys, values that are not numbers, regexes that do not compile. A bad value must never wait
        for the first step that reads it (a ``success: "yes"`` would break exactly the successful episodes)."""
        if not isinstance(d, Mapping):
            raise ConfigError(f"rewards must be a mapping with shaping and milestones, got {type(d).__name__}")
        unknown = set(d) - {"shaping", "milestones"}
        if unknown:
            raise ConfigError(f"rewards: unknown keys {sorted(unknown)}; expected shaping, milestones")
        sh = d.get("shaping") or {}
        if not isinstance(sh, Mapping):
            raise ConfigError(f"rewards.shaping must be a mapping of names to numbers, got {type(sh).__name__}")
        names = {f.name for f in dataclasses.fields(Shaping)}
        for k, v in sh.items():
            if k not in names:
                raise ConfigError(f"rewards.shaping: unknown key {k!r}; known: {sorted(names)}")
            _number(v, f"rewards.shaping.{k}", integer=k == "loop_repeats")
            if k == "loop_repeats" and v < 1:
                raise ConfigError(f"rewards.shaping.loop_repeats must be >= 1, got {v}")
        shaping = Shaping(**dict(sh))
        ms_d = d.get("milestones") or {}
        if not isinstance(ms_d, Mapping):
            raise ConfigError(f"rewards.milestones must map site names to lists of milestones, got "
                              f"{type(ms_d).__name__}")
        ms: dict[str, tuple[Milestone, ...]] = {}
        for site, rules in ms_d.items():
            if not isinstance(rules, list):
                raise ConfigError(f"rewards.milestones.{site} must be a list of milestones, got "
                                  f"{type(rules).__name__}")
            out, seen = [], set()
            for i, r in enumerate(rules):
                m = _milestone(r, f"rewards.milestones.{site}[{i}]")
                if m.name in seen:
                    raise ConfigError(f"rewards.milestones.{site}: two milestones are named {m.name!r}; names "
                                      f"must be unique (each is paid once per episode)")
                seen.add(m.name)
                out.append(m)
            ms[str(site)] = tuple(out)
        return cls(shaping=shaping, milestones=ms)


_MILESTONE_KEYS = {f.name for f in dataclasses.fields(Milestone)}
_PATTERN_KEYS = {f.name for f in dataclasses.fields(ElementPattern)}


def _number(v: Any, where: str, integer: bool = False) -> float:
    ok = isinstance(v, int) if integer else isinstance(v, (int, float))
    if isinstance(v, bool) or not ok or not math.isfinite(v):
        raise ConfigError(f"{where} must be {'an integer' if integer else 'a number'}, got {v!r} "
                          f"({type(v).__name__})")
    return v


def _regex(v: Any, where: str) -> str:
    if not isinstance(v, str):
        raise ConfigError(f"{where} must be a regex (a string), got {v!r} ({type(v).__name__})")
    try:
        re.compile(v)
    except re.error as e:
        raise ConfigError(f"{where}: invalid regex {v!r}: {e}") from None
    return v


def _milestone(r: Any, where: str) -> Milestone:
    if not isinstance(r, Mapping):
        raise ConfigError(f"{where} must be a mapping like {{name: x, weight: 0.2, url: '...'}}, got {r!r}")
    unknown = set(r) - _MILESTONE_KEYS
    if unknown:
        raise ConfigError(f"{where}: unknown keys {sorted(unknown)}; known: {sorted(_MILESTONE_KEYS)}")
    name = r.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"{where} needs a name (a non-empty string), got {name!r}")
    where = f"{where} ({name})"
    if "weight" not in r:
        raise ConfigError(f"{where} needs a weight (a number)")
    _number(r["weight"], f"{where}.weight")
    vals = dict(r)
    for k in ("url", "text", "action"):
        if vals.get(k) is not None:
            _regex(vals[k], f"{where}.{k}")
    for k in ("element", "acted_on"):
        p = vals.get(k)
        if p is None:
            continue
        if not isinstance(p, Mapping) or set(p) - _PATTERN_KEYS:
            raise ConfigError(f"{where}.{k} must be a mapping with keys among {sorted(_PATTERN_KEYS)}, got {p!r}")
        for pk in ("role", "name"):
            if pk in p:
                _regex(p[pk], f"{where}.{k}.{pk}")
        if "filled" in p and not isinstance(p["filled"], bool):
            raise ConfigError(f"{where}.{k}.filled must be true or false, got {p['filled']!r}")
        vals[k] = ElementPattern(**p)
    if not any(vals.get(k) is not None for k in ("url", "text", "action", "element", "acted_on")):
        raise ConfigError(f"{where} has no condition (url, text, element, acted_on or action): it would be paid "
                          f"at the first step of every episode")
    return Milestone(**vals)


@dataclass(frozen=True)
class RewardBreakdown:
    total: float
    parts: dict[str, float]


def target_element(obs: Observation, action: Action | None) -> Element | None:
    """The element an action aimed at: by id for element actions, by point for coordinate actions (the smallest
    element whose box holds the point)."""
    if action is None:
        return None
    el_id = getattr(action, "element", None)
    if el_id is not None:
        return obs.elements.get(el_id)
    x, y = getattr(action, "x", None), getattr(action, "y", None)
    if x is None or y is None:
        return None
    from halo.env.actions import to_pixels

    px, py = to_pixels(x, y, *obs.viewport)
    best, best_area = None, float("inf")
    for el in obs.elements.values():
        if el.bbox is None:
            continue
        bx, by, bw, bh = el.bbox
        if bx <= px <= bx + bw and by <= py <= by + bh and bw * bh < best_area:
            best, best_area = el, bw * bh
    return best


def state_key(obs: Observation) -> str:
    """What counts as 'the same state': URL plus the accessibility tree without ids (ids only grow)."""
    tree = re.sub(r"\[\d+\]", "", obs.axtree)
    return hashlib.sha1(f"{obs.url}\n{tree}".encode("utf-8", "replace")).hexdigest()


class DenseRewardCalculator:
    """Call ``reset()`` at each episode start, then ``compute_reward`` once per step."""

    def __init__(self, config: RewardConfig | None = None):
        self.config = config or RewardConfig()
        self.reset()

    def reset(self) -> None:
        self._seen_states: set[str] = set()
        self._paid: set[str] = set()
        self._visits: dict[tuple[str, str], int] = {}
        self._progress = 0.0

    def set_progress(self, progress: float | None) -> None:
        """The progress potential of the start state (a task family's share of checks passing before any step)."""
        self._progress = progress or 0.0

    def compute_reward(self, obs: Observation, action: Action | None, next_obs: Observation, task: Any,
                       done: bool, success: bool, progress: float | None = None) -> RewardBreakdown:
        """``action`` is None when the model's reply did not parse (nothing was executed). ``progress`` (task
        families) is the share of the family's checks that pass after the step: its change is paid, a potential-based
        shaping (Ng et al., 1999) that leaves the best policy unchanged; families use it instead of site milestones."""
        sh = self.config.shaping
        parts: dict[str, float] = {}
        if not self._seen_states:
            self._seen_states.add(state_key(obs))
        if action is None:
            parts["unparseable"] = sh.unparseable
        else:
            family = bool(getattr(task, "family", ""))
            if not family:  # a constant per step under a grammar: it pays for long episodes, not for progress
                parts["valid_action"] = sh.valid_action
            key = (state_key(obs), action.describe())
            self._visits[key] = self._visits.get(key, 0) + 1
            if self._visits[key] >= sh.loop_repeats:
                parts["loop"] = sh.loop
            if next_obs.last_action_error:
                parts["action_error"] = sh.action_error
            nk = state_key(next_obs)
            if nk not in self._seen_states:
                self._seen_states.add(nk)
                if not family:  # families pay their own progress; novelty would pay for wandering instead of ending
                    parts["new_state"] = sh.new_state
            site = getattr(task, "site", "")
            for m in () if getattr(task, "family", "") else self.config.milestones.get(site, ()):
                if m.name not in self._paid and m.reached(obs, action, next_obs):
                    self._paid.add(m.name)
                    parts[f"milestone/{m.name}"] = m.weight
        if progress is not None and progress != self._progress:
            parts["progress"] = sh.progress * (progress - self._progress)
            self._progress = progress
        if done and success:
            parts["success"] = sh.success
        return RewardBreakdown(total=sum(parts.values()), parts=parts)

    @property
    def milestones_reached(self) -> frozenset[str]:
        return frozenset(self._paid)


class RewardedEnv:
    """An env whose steps also compute the dense reward, for scripted runs (oracle checks, benchmarks, search).

    Delegates everything else to the wrapped env; ``rewards`` holds one ``RewardBreakdown`` per step since reset."""

    def __init__(self, env: Any, config: RewardConfig | None = None):
        self.env = env
        self.calc = DenseRewardCalculator(config)
        self.rewards: list[RewardBreakdown] = []
        self._obs: Observation | None = None
        self._task: Any = None

    async def reset(self, task: Any) -> Observation:
        self._obs = await self.env.reset(task)
        self._task = task
        self.calc.reset()
        self.rewards = []
        return self._obs

    async def step(self, action: Action) -> Any:
        if self._obs is None:
            raise RuntimeError("call reset() before step()")
        res = await self.env.step(action)
        grade = res.info.grade
        self.rewards.append(self.calc.compute_reward(self._obs, action, res.observation, self._task, res.done,
                                                     bool(grade and grade.success)))
        self._obs = res.observation
        return res

    @property
    def returns(self) -> list[float]:
        """Cumulative return after each step."""
        out, acc = [], 0.0
        for r in self.rewards:
            acc += r.total
            out.append(acc)
        return out

    def __getattr__(self, name: str) -> Any:
        return getattr(self.env, name)
