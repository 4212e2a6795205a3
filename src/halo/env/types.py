"""Plain data the env hands out: observations, step results, grading outcomes. No live browser objects."""

from __future__ import annotations

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
