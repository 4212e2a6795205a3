"""What every task family shares: instances drawn deterministically from a parameter space, a train/test split by
instance number, and graders written the way REAL's eval scripts are (checks over the ``/finish`` JSON).

A family (``gomail.open``) is a generator of verifiable tasks on one REAL-local site. Instance ``n`` is fully
determined by ``(family, n)``: the same goal text, the same parameters, the same checks, on every machine. The
site's own seed state is the starting state (REAL-local seeds one store per site, as REAL does), so an instance is
(goal, site seed, grader). REAL's own v2 tasks are never generated here: they stay the held-out benchmark.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Sequence

from halo.tasks.types import SHARED_INSTANCES, split_of


# ---------------------------------------------------------------- /finish readers (as REAL's scripts read it)
@dataclass(frozen=True)
class Finish:
    """The ``/finish`` JSON of an episode and the agent's final message; what every check reads."""

    state: dict[str, Any]
    answer: str = ""

    @property
    def differences(self) -> dict[str, Any]:
        return self.state.get("differences") or {}

    @property
    def diff(self) -> dict[str, Any]:
        """``initialfinaldiff``: ``{"added", "deleted", "updated"}`` subtrees of the state tree."""
        return self.state.get("initialfinaldiff") or {}

    def section(self, part: str, *path: str) -> Any:
        """``initialfinaldiff[part][path...]`` or None (``finish.section("updated", "router", "location")``)."""
        node: Any = self.diff.get(part) or {}
        for p in path:
            if not isinstance(node, dict) or p not in node:
                return None
            node = node[p]
        return node

    def collection(self, name: str) -> dict[str, Any]:
        """``differences[name]`` with ``added``/``updated``/``deleted`` always present (lists or dicts)."""
        c = self.differences.get(name) or {}
        return {k: c.get(k) or [] for k in ("added", "updated", "deleted")}

    def merged(self, before: Any, *path: str, index_lists: bool = False, deleted: bool = False) -> dict[str, Any]:
        """The state at ``path`` at the end, as agisdk's ``eval_*.py`` scripts rebuild it: ``before`` (the seed or the
        app's defaults, in the diff's shape; None for nothing), ``initialfinaldiff.added`` then ``updated`` merged
        in, and with ``deleted`` the keys it sets to null taken out. ``index_lists`` turns the diff's lists into
        index-keyed objects first, the shape in which it names a list's items (``{"0": ..., "3": ...}``)."""
        def part(name: str) -> Any:
            node = self.section(name, *path)
            return index_keyed(node) if index_lists else node

        got = deep_merge(deep_merge(before, part("added")), part("updated"))
        if deleted:
            got = prune_deleted(got, self.section("deleted", *path))
        return got if isinstance(got, dict) else {}


def index_keyed(node: Any) -> Any:
    """Lists as index-keyed objects (how ``initialfinaldiff`` names their items), all the way down."""
    if isinstance(node, list):
        return {str(i): index_keyed(v) for i, v in enumerate(node)}
    if isinstance(node, dict):
        return {k: index_keyed(v) for k, v in node.items()}
    return node


def deep_merge(a: Any, b: Any) -> Any:
    """``b`` over ``a``, objects key by key all the way down; a None in ``b`` keeps ``a``'s value."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = dict(a)
        for k, v in b.items():
            out[k] = deep_merge(out.get(k), v)
        return out
    return b if b is not None else a


def prune_deleted(a: Any, gone: Any) -> Any:
    """``a`` without the keys ``gone`` (``initialfinaldiff.deleted``) sets to None, at any depth."""
    if not isinstance(a, dict) or not isinstance(gone, dict):
        return a
    return {k: (prune_deleted(v, gone[k]) if isinstance(gone.get(k), dict) else v) for k, v in a.items()
            if not (k in gone and gone[k] is None)}


@dataclass(frozen=True)
class Check:
    """One named condition of a grader and whether it held (a REAL script prints SUCCESS only if all do)."""

    name: str
    passed: bool
    detail: str = ""


@dataclass(frozen=True)
class Instance:
    family: str  # "gomail.open"
    index: int  # the instance number (its seed)
    goal: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.family}-{self.index}"

    @property
    def split(self) -> str:
        return split_of(self.family, self.index)


class Family:
    """Subclass per family and register it with ``@register``. Define:

    - ``name`` (``site.verb``), ``site``, ``steps`` (the oracle's action count: ``"1"``, ``"2-4"``, ``"5+"``),
      ``description`` (one line);
    - ``space()``: every distinct parameter dict, in a fixed order (hundreds of them);
    - ``goal(params, rng)``: the goal text (``rng`` picks a phrasing; same instance, same text);
    - ``check(finish, params)``: the grader, a list of ``Check`` read from the ``/finish`` JSON only.

    Instance ``n`` takes ``space()[perm[n % len]]`` with a fixed shuffle, so consecutive instances differ.
    """

    name: ClassVar[str] = ""
    site: ClassVar[str] = ""
    steps: ClassVar[str] = "1"
    description: ClassVar[str] = ""
    shares: ClassVar[str] = ""  # another family whose instances (parameters, goal, split) this one's are, one for one

    def __init__(self) -> None:
        self._space: list[dict[str, Any]] | None = None
        self._perm: list[int] | None = None

    # ---- to define
    def space(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def goal(self, params: dict[str, Any], rng: random.Random) -> str:
        raise NotImplementedError

    def check(self, finish: Finish, params: dict[str, Any]) -> list[Check]:
        raise NotImplementedError

    # ---- optional
    def subgoals(self, finish: Finish, params: dict[str, Any], page: Any) -> list[Check]:
        """Steps toward the goal the site's state cannot show yet (a form open, a field of it typed right), read from
        the page after a step (``page``: the env's ``Observation``). Each must also pass once the goal's own checks
        do (the form is gone then), so that progress never falls at the last step. Counted in the family's progress
        (the dense reward) only, never in its grade."""
        return []

    def dead_end(self, finish: Finish, params: dict[str, Any]) -> bool:
        """Whether this state can no longer reach the goal whatever comes next (an email sent with a field wrong:
        sending cannot be taken back). Progress is 0 there: a state that passes most checks but is lost must not pay
        more than the open road to the goal (otherwise sending a half-written email outpays writing it)."""
        return False

    def start(self, params: dict[str, Any]) -> str:
        """The path under the site's root an episode opens ("" = the site's home page). A rung of a ladder starts
        where a longer goal's later stage begins (GoMail's compose window already holding the address), as a site's
        own links can open it; the grader and the site's seed state stay the same."""
        return ""

    def typed(self, params: dict[str, Any]) -> tuple[str, ...]:
        """The values a solution types (a subject, a message, a query): typed-value accuracy is measured on them."""
        return ()

    # ---- shared
    STEP_CAPS: ClassVar[dict[str, int]] = {"1": 1, "2-4": 6, "5+": 10}  # steps an episode needs, with room to err

    @property
    def max_steps(self) -> int:
        """The steps an episode of this family needs at most (``steps``: the oracle's count, with room to err)."""
        return self.STEP_CAPS.get(self.steps, 10)

    @property
    def size(self) -> int:
        """How many distinct instances (parameter dicts x phrasings are not counted: only distinct params)."""
        return len(self._params())

    def _params(self) -> list[dict[str, Any]]:
        if self._space is None:
            self._space = list(self.space())
            if not self._space:
                raise ValueError(f"family {self.name} has an empty parameter space")
            self._perm = list(range(len(self._space)))
            random.Random(f"perm:{self.shares or self.name}").shuffle(self._perm)
        return self._space

    def instance(self, index: int) -> Instance:
        if index < 0:
            raise ValueError(f"instance numbers start at 0, got {index}")
        space = self._params()
        assert self._perm is not None
        params = dict(space[self._perm[index % len(space)]])
        rng = random.Random(f"goal:{self.shares or self.name}:{index}")
        return Instance(family=self.name, index=index, goal=self.goal(params, rng), params=params)

    def instances(self, split: str = "train", limit: int | None = None) -> list[Instance]:
        """The instances of a split (``train``, ``test`` or ``all``), in instance order."""
        if split not in ("train", "test", "all"):
            raise ValueError(f"split must be train, test or all, got {split!r}")
        out = []
        for i in range(self.size):
            if split == "all" or split_of(self.name, i) == split:
                out.append(self.instance(i))
                if limit is not None and len(out) >= limit:
                    break
        return out

    def grade(self, state: dict[str, Any], params: dict[str, Any], answer: str = "") -> list[Check]:
        """Run the checks; a grader that raises is a failed check (a REAL script that crashes prints no SUCCESS)."""
        try:
            return list(self.check(Finish(state, answer), params))
        except Exception as e:  # noqa: BLE001 - the state may be anything the agent made
            return [Check("grader", False, f"{type(e).__name__}: {e}")]


FAMILIES: dict[str, Family] = {}


def register(cls: type[Family]) -> type[Family]:
    """Class decorator: one instance per family, by name."""
    if not cls.name or "." not in cls.name or not cls.site or not cls.name.startswith(cls.site + "."):
        raise ValueError(f"{cls.__name__}: name must be '<site>.<verb>' with site {cls.site!r}")
    if cls.name in FAMILIES:
        raise ValueError(f"family {cls.name} registered twice")
    FAMILIES[cls.name] = cls()
    if cls.shares:
        SHARED_INSTANCES[cls.name] = cls.shares
    return cls


# ---------------------------------------------------------------- helpers graders share
def first(items: Sequence[Any], pred: Callable[[Any], bool]) -> Any:
    return next((x for x in items if pred(x)), None)


def field_value(page: Any, name: str) -> str | None:
    """The value of the page's text field named ``name`` (case-insensitive), None where the page has none."""
    for el in getattr(page, "elements", {}).values():
        if el.role in ("textbox", "searchbox", "combobox") and (el.name or "").strip().lower() == name.lower():
            return el.value or ""
    return None


def norm(text: Any) -> str:
    """Case- and space-insensitive text, as REAL's scripts compare names and subjects."""
    return " ".join(str(text or "").lower().split())
