"""Dense, shaped rewards: progress milestones per site plus step shaping, with every part named.

Sparse success gives no gradient early in training, so each step also pays for progress. Milestones are data
(``rewards.milestones`` in configs/rl_config.yaml): a milestone matches when all its conditions hold on the step, and
it is paid once per episode. Conditions read only what every site shows (URL, accessibility tree, elements, the
acted-on element), so the same rules work on REAL's remote sites and on REAL-local.

Milestone patterns are the user's regexes, run on the event loop's thread at every step: they run on PyPI's
``regex`` (``re``'s syntax, with guards against most catastrophic backtracking) with a time bound, so no pattern can
block the loop and the deadlines on it (the step's, the episode's). At start-up each pattern is tried on a few
adversarial texts (``PROBE_TIMEOUT_S``): one that backtracks catastrophically is refused there, naming the key;
during a run a search past ``MATCH_TIMEOUT_S`` errors the episode with that key (``PatternTimeout``) instead of
hanging it.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
import re
import reprlib
from dataclasses import dataclass, field
from typing import Any, Mapping

import regex

from halo.env.actions import Action
from halo.env.alerts import page_alerts
from halo.env.types import Element, Observation
from halo.errors import ConfigError

# CPU seconds (the regex library's clock): a search of a milestone pattern during a run, and each start-up probe
MATCH_TIMEOUT_S = 1.0
PROBE_TIMEOUT_S = 0.25
PROBE_CHARS = 2000  # length of each start-up probe text


class PatternTimeout(ConfigError):
    """A milestone pattern ran past its time bound on a step's text (catastrophic backtracking)."""


@functools.lru_cache(maxsize=4096)
def _compiled(pattern: str, flags: int) -> Any:
    return regex.compile(pattern, flags)


def pattern_matches(pattern: str, text: str, flags: int = 0, *, full: bool = False, where: str = "") -> bool:
    """``pattern`` searched in (``full``: matching all of) ``text``, within ``MATCH_TIMEOUT_S``; ``PatternTimeout``
    naming ``where`` past it."""
    p = _compiled(pattern, flags)
    try:
        m = (p.fullmatch if full else p.search)(text, timeout=MATCH_TIMEOUT_S)
    except TimeoutError:
        raise PatternTimeout(f"{where or 'a milestone pattern'}: the regex {pattern!r} ran over "
                             f"{MATCH_TIMEOUT_S:g} CPU-s on a {len(text):,}-character text (catastrophic "
                             f"backtracking); simplify it (no nested or overlapping quantifiers such as (a+)+ or "
                             f"(a|aa)+)") from None
    return m is not None


@dataclass(frozen=True)
class ElementPattern:
    """An element by role and accessible name (regexes, case-insensitive); ``filled`` asks for a non-empty value."""

    role: str = ".*"
    name: str = ".*"
    filled: bool = False
    where: str = field(default="", compare=False, repr=False)  # its key in rl_config, for a timeout's message

    def matches(self, el: Element) -> bool:
        if not pattern_matches(self.role, el.role or "", regex.I, full=True, where=f"{self.where}.role") or \
                not pattern_matches(self.name, el.name or "", regex.I, where=f"{self.where}.name"):
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
    where: str = field(default="", compare=False, repr=False)  # its key in rl_config, for a timeout's message

    def reached(self, obs: Observation, action: Action | None, next_obs: Observation) -> bool:
        w = self.where or f"milestone {self.name}"
        if self.url is not None and not pattern_matches(self.url, next_obs.url, regex.I, where=f"{w}.url"):
            return False
        if self.text is not None and not pattern_matches(self.text, next_obs.axtree, regex.I | regex.M,
                                                         where=f"{w}.text"):
            return False
        if self.element is not None and not any(self.element.matches(e) for e in next_obs.elements.values()):
            return False
        if self.action is not None and (action is None or not pattern_matches(self.action, action.name, full=True,
                                                                              where=f"{w}.action")):
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
    # a step after which the page shows an alert it did not show before (a form refusing the action: "Please specify
    # at least one recipient."); 0: not charged. Without it a refused Send costs nothing but a step, and under
    # discount 1 an episode that clicks Send early and then succeeds gives the early click full credit
    alert: float = 0.0


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


_MILESTONE_KEYS = {f.name for f in dataclasses.fields(Milestone)} - {"where"}
_PATTERN_KEYS = {f.name for f in dataclasses.fields(ElementPattern)} - {"where"}


def _number(v: Any, where: str, integer: bool = False) -> float:
    ok = isinstance(v, int) if integer else isinstance(v, (int, float))
    if isinstance(v, bool) or not ok or not math.isfinite(v):
        raise ConfigError(f"{where} must be {'an integer' if integer else 'a number'}, got {_short(v)} "
                          f"({type(v).__name__})")
    return v


_PROBE_BASE = 'a0 \n"-_/.:'


def _probes(pattern: str) -> list[str]:
    """Texts that make a backtracking pattern blow up: long runs of one character the pattern names (or a common
    one), then a character it cannot end on and every character it names; and its characters cycled."""
    chars = sorted({c for c in pattern if c.isalnum() or c in _PROBE_BASE} | set(_PROBE_BASE))[:40]
    tail = "\x00" + "".join(chars)  # every literal the pattern needs, after the run (a required one is not missing)
    cycled = "".join(chars) * (PROBE_CHARS // len(chars) + 1)
    return [c * PROBE_CHARS + tail for c in chars] + [cycled[:PROBE_CHARS] + tail]


def _regex(v: Any, where: str, flags: int = 0, full: bool = False) -> str:
    """``v`` as a milestone pattern: a string that compiles and does not backtrack catastrophically on the start-up
    probes (each within ``PROBE_TIMEOUT_S``); ``ConfigError`` naming ``where`` otherwise."""
    if not isinstance(v, str):
        raise ConfigError(f"{where} must be a regex (a string), got {_short(v)} ({type(v).__name__})")
    try:
        p = _compiled(v, flags)
    except (regex.error, re.error, ValueError) as e:
        raise ConfigError(f"{where}: invalid regex {v!r}: {e}") from None
    for text in _probes(v):
        try:
            (p.fullmatch if full else p.search)(text, timeout=PROBE_TIMEOUT_S)
        except TimeoutError:
            raise ConfigError(f"{where}: the regex {v!r} backtracks catastrophically: it ran over "
                              f"{PROBE_TIMEOUT_S:g} CPU-s on a {len(text):,}-character text (a run of {text[0]!r}), "
                              f"and a step's page text is longer; simplify it (no nested or overlapping quantifiers "
                              f"such as (a+)+ or (a|aa)+)") from None
    return v


def _short(v: Any, limit: int = 200) -> str:
    """``repr(v)`` cut to ``limit`` characters (a value in a message, however large it is)."""
    r = reprlib.Repr()
    r.maxstring, r.maxother, r.maxlist, r.maxdict, r.maxlevel = limit, limit, 8, 8, 3
    text = r.repr(v)
    return text if len(text) <= limit else text[:limit] + "..."


def _milestone(r: Any, where: str) -> Milestone:
    if not isinstance(r, Mapping):
        raise ConfigError(f"{where} must be a mapping like {{name: x, weight: 0.2, url: '...'}}, got {_short(r)}")
    unknown = set(r) - _MILESTONE_KEYS
    if unknown:
        raise ConfigError(f"{where}: unknown keys {sorted(unknown)}; known: {sorted(_MILESTONE_KEYS)}")
    name = r.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"{where} needs a name (a non-empty string), got {_short(name)}")
    where = f"{where} ({name})"
    if "weight" not in r:
        raise ConfigError(f"{where} needs a weight (a number)")
    _number(r["weight"], f"{where}.weight")
    vals = dict(r)
    for k, flags, full in (("url", regex.I, False), ("text", regex.I | regex.M, False), ("action", 0, True)):
        if vals.get(k) is not None:
            _regex(vals[k], f"{where}.{k}", flags, full)
    for k in ("element", "acted_on"):
        p = vals.get(k)
        if p is None:
            continue
        if not isinstance(p, Mapping) or set(p) - _PATTERN_KEYS:
            raise ConfigError(f"{where}.{k} must be a mapping with keys among {sorted(_PATTERN_KEYS)}, got "
                              f"{_short(p)}")
        for pk, full in (("role", True), ("name", False)):
            if pk in p:
                _regex(p[pk], f"{where}.{k}.{pk}", regex.I, full)
        if "filled" in p and not isinstance(p["filled"], bool):
            raise ConfigError(f"{where}.{k}.filled must be true or false, got {_short(p['filled'])}")
        vals[k] = ElementPattern(**p, where=f"{where}.{k}")
    if not any(vals.get(k) is not None for k in ("url", "text", "action", "element", "acted_on")):
        raise ConfigError(f"{where} has no condition (url, text, element, acted_on or action): it would be paid "
                          f"at the first step of every episode")
    return Milestone(**vals, where=where)


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

    @property
    def progress(self) -> float:
        """The progress potential of the state reached (a task family's share of checks and subgoals passing, read
        after each step): what MCTS's ``critic: progress`` values a state by."""
        return self._progress

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
            if sh.alert and set(page_alerts(next_obs)) - set(page_alerts(obs)):
                parts["alert"] = sh.alert
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
