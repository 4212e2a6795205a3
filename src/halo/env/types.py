"""Plain data the env hands out: observations, step results, grading outcomes. No live browser objects."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from halo.tasks.types import Grade

VIEWPORT = (1280, 720)


@dataclass(frozen=True)
class Element:
    """One interactive or named node of the accessibility tree, with its id as shown to the model."""

    id: str
    role: str
    name: str
    bbox: tuple[float, float, float, float] | None = None  # x, y, width, height in viewport pixels
    value: str | None = None


@dataclass(frozen=True)
class Observation:
    screenshot: bytes
    image_format: str  # "jpeg" | "png"
    axtree: str  # compact text, one node per line: `[12] button "Send"`
    elements: dict[str, Element]
    url: str
    goal: str
    step: int
    last_actions: tuple[str, ...] = ()  # at most 5, oldest first, as Action.describe()
    last_action_error: str | None = None
    viewport: tuple[int, int] = VIEWPORT
    task_id: str = ""
    can_go_back: bool = True  # False on the episode's first page: a constrained policy is then not offered go_back
    # ids of the elements the last action brought onto the same document (a menu, an autocomplete's suggestions):
    # empty on a new document and on the episode's first page (an explorer's prior: policy.action_space)
    appeared: frozenset[str] = frozenset()

    @property
    def element_ids(self) -> frozenset[str]:
        return frozenset(self.elements)


@dataclass
class StepInfo:
    error: str | None = None  # the action's error, also in the next observation
    timings: dict[str, float] = field(default_factory=dict)  # seconds: action, settle, observe, grade
    grade: Grade | None = None
    errored: bool = False  # the episode broke (browser crash): not the agent's fault, drop it from training


@dataclass(frozen=True)
class StepResult:
    observation: Observation
    reward: float  # REAL's reward (task points on success at a terminal action), 0 otherwise
    done: bool  # a terminal action was taken (or the episode errored)
    truncated: bool  # max_steps reached
    info: StepInfo


def anchor_key(site_key: str | None, obs: Observation) -> str | None:
    """GiGPO's anchor state: the site's state key (app state and URL) joined with what the page shows, each element's
    role, name and value in page order (not its id, which counts up through an episode). A form's typed text and an
    open suggestion list live in the page, not in the site's state, so on a compose window the site key alone makes
    every step one anchor; with the page, "the name typed, its suggestion open" is a state of its own. None where the
    site has no key."""
    if site_key is None:
        return None
    h = hashlib.sha1(site_key.encode())
    for el in obs.elements.values():
        h.update(f"\x1e{el.role}\x1f{el.name}\x1f{el.value or ''}".encode())
    return h.hexdigest()[:16]
