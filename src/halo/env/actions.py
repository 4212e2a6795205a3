"""The action space as data.

Three families share one serialised shape, ``{"action": <name>, **fields}``:
- Qwen3-VL ``computer_use`` actions, coordinates RELATIVE 0..1000 on each axis (Qwen's convention);
- element actions on accessibility-tree ids (``click``, ``fill``, ``select_option``, ``press``, ``hover``);
- navigation (``goto``, ``go_back``) and messages (``send_msg_to_user``).

``terminate``, ``answer`` and ``send_msg_to_user`` end the episode and trigger REAL grading.
Construction validates; ``action_from_dict`` turns untrusted dicts into actions or raises ``ActionError``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from halo.errors import ActionError

COORD_MAX = 1000
MAX_TEXT = 2000


def _check_coord(name: str, v: Any) -> None:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ActionError(f"{name} must be a number in 0..{COORD_MAX}, got {v!r}")
    if not 0 <= v <= COORD_MAX:
        raise ActionError(f"{name}={v} is outside 0..{COORD_MAX} (coordinates are relative, Qwen3-VL style)")


def _check_text(name: str, v: Any, allow_empty: bool = True) -> None:
    if not isinstance(v, str):
        raise ActionError(f"{name} must be a string, got {type(v).__name__}")
    if not allow_empty and not v:
        raise ActionError(f"{name} must not be empty")
    if len(v) > MAX_TEXT:
        raise ActionError(f"{name} is {len(v)} characters; at most {MAX_TEXT}")


def _check_element(v: Any) -> None:
    if not isinstance(v, str) or not v:
        raise ActionError(f"element must be a non-empty element id string, got {v!r}")


def to_pixels(x: float, y: float, width: int, height: int) -> tuple[float, float]:
    """Map relative 0..1000 coordinates to viewport pixels (Qwen: ``x / 1000 * width``), clamped inside."""
    px = min(max(x / COORD_MAX * width, 0.0), width - 1.0)
    py = min(max(y / COORD_MAX * height, 0.0), height - 1.0)
    return px, py


def to_relative(px: float, py: float, width: int, height: int) -> tuple[int, int]:
    """Inverse of ``to_pixels``, rounded to integers (for oracles and scripted policies)."""
    return round(px / width * COORD_MAX), round(py / height * COORD_MAX)


@dataclass(frozen=True)
class Action:
    """Base of all actions. ``name`` is the serialised action name; ``terminal`` ends the episode."""

    name: ClassVar[str] = ""
    terminal: ClassVar[bool] = False

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"action": self.name}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            d[f.name] = list(v) if isinstance(v, tuple) else v
        return d

    def describe(self) -> str:
        """One short line for prompts and logs (``left_click(500, 320)``)."""
        args = ", ".join(repr(v) if isinstance(v, str) else str(list(v) if isinstance(v, tuple) else v)
                         for v in (getattr(self, f.name) for f in dataclasses.fields(self)))
        return f"{self.name}({args})"


# ---------------------------------------------------------------- computer_use (coordinates 0..1000)
@dataclass(frozen=True)
class _Point(Action):
    x: float
    y: float

    def __post_init__(self) -> None:
        _check_coord("x", self.x)
        _check_coord("y", self.y)


@dataclass(frozen=True)
class LeftClick(_Point):
    name: ClassVar[str] = "left_click"


@dataclass(frozen=True)
class DoubleClick(_Point):
    name: ClassVar[str] = "double_click"


@dataclass(frozen=True)
class RightClick(_Point):
    name: ClassVar[str] = "right_click"


@dataclass(frozen=True)
class MiddleClick(_Point):
    name: ClassVar[str] = "middle_click"


@dataclass(frozen=True)
class TripleClick(_Point):
    name: ClassVar[str] = "triple_click"


@dataclass(frozen=True)
class MouseMove(_Point):
    name: ClassVar[str] = "mouse_move"


@dataclass(frozen=True)
class LeftClickDrag(Action):
    """Drag from (start_x, start_y) to (x, y); Qwen's form omits the start (drag from the current mouse position)."""

    name: ClassVar[str] = "left_click_drag"
    x: float
    y: float
    start_x: float | None = None
    start_y: float | None = None

    def __post_init__(self) -> None:
        _check_coord("x", self.x)
        _check_coord("y", self.y)
        if (self.start_x is None) != (self.start_y is None):
            raise ActionError("left_click_drag needs both start_x and start_y, or neither")
        if self.start_x is not None:
            _check_coord("start_x", self.start_x)
            _check_coord("start_y", self.start_y)


@dataclass(frozen=True)
class Type(Action):
    """Type text at the focused element."""

    name: ClassVar[str] = "type"
    text: str

    def __post_init__(self) -> None:
        _check_text("text", self.text, allow_empty=False)


KEY_ALIASES = {
    "ctrl": "Control", "control": "Control", "alt": "Alt", "shift": "Shift", "meta": "Meta", "cmd": "Meta",
    "command": "Meta", "super": "Meta", "win": "Meta", "enter": "Enter", "return": "Enter", "esc": "Escape",
    "escape": "Escape", "tab": "Tab", "space": " ", "backspace": "Backspace", "delete": "Delete", "del": "Delete",
    "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight", "arrowup": "ArrowUp",
    "arrowdown": "ArrowDown", "arrowleft": "ArrowLeft", "arrowright": "ArrowRight", "home": "Home", "end": "End",
    "pageup": "PageUp", "pagedown": "PageDown", "page_up": "PageUp", "page_down": "PageDown",
}


def playwright_key(keys: tuple[str, ...] | list[str] | str) -> str:
    """Qwen's ``keys: ["ctrl", "a"]`` (or ``"ctrl+a"``) as a Playwright chord (``Control+a``)."""
    parts = keys.split("+") if isinstance(keys, str) else list(keys)
    out = []
    for k in parts:
        k = k.strip()
        mapped = KEY_ALIASES.get(k.lower())
        if mapped is None:
            mapped = k if len(k) == 1 else k[:1].upper() + k[1:]
            if len(k) > 1 and k[0].lower() == "f" and k[1:].isdigit():
                mapped = k.upper()
        out.append(mapped)
    return "+".join(out)


@dataclass(frozen=True)
class Key(Action):
    """Press a key chord: ``keys=("ctrl", "a")`` presses Control+a."""

    name: ClassVar[str] = "key"
    keys: tuple[str, ...]

    def __post_init__(self) -> None:
        if isinstance(self.keys, str):
            object.__setattr__(self, "keys", tuple(k for k in self.keys.split("+") if k))
        elif isinstance(self.keys, list):
            object.__setattr__(self, "keys", tuple(self.keys))
        if not self.keys or not all(isinstance(k, str) and k.strip() for k in self.keys):
            raise ActionError(f"keys must be a non-empty list of key names, got {self.keys!r}")
        if len(self.keys) > 5:
            raise ActionError(f"a key chord has at most 5 keys, got {len(self.keys)}")


@dataclass(frozen=True)
class Scroll(Action):
    """Scroll vertically by ``pixels`` (positive = up, Qwen's convention) at (x, y), or at the centre."""

    name: ClassVar[str] = "scroll"
    pixels: int
    x: float | None = None
    y: float | None = None

    def __post_init__(self) -> None:
        if isinstance(self.pixels, bool) or not isinstance(self.pixels, (int, float)):
            raise ActionError(f"pixels must be a number, got {self.pixels!r}")
        if abs(self.pixels) > 10_000:
            raise ActionError(f"pixels={self.pixels} is too large (|pixels| <= 10000)")
        for n in ("x", "y"):
            if getattr(self, n) is not None:
                _check_coord(n, getattr(self, n))


@dataclass(frozen=True)
class HScroll(Scroll):
    """Scroll horizontally by ``pixels`` (positive = left)."""

    name: ClassVar[str] = "hscroll"


@dataclass(frozen=True)
class Wait(Action):
    name: ClassVar[str] = "wait"
    time: float = 1.0

    def __post_init__(self) -> None:
        if isinstance(self.time, bool) or not isinstance(self.time, (int, float)) or not 0 <= self.time <= 30:
            raise ActionError(f"wait time must be 0..30 seconds, got {self.time!r}")


@dataclass(frozen=True)
class Terminate(Action):
    """End the episode claiming success or failure; REAL grades the final state."""

    name: ClassVar[str] = "terminate"
    terminal: ClassVar[bool] = True
    status: str = "success"

    def __post_init__(self) -> None:
        if self.status not in ("success", "failure"):
            raise ActionError(f"terminate status must be 'success' or 'failure', got {self.status!r}")


@dataclass(frozen=True)
class Answer(Action):
    """End the episode with an answer text (sent to REAL as the agent's chat message)."""

    name: ClassVar[str] = "answer"
    terminal: ClassVar[bool] = True
    text: str

    def __post_init__(self) -> None:
        _check_text("text", self.text)


# ---------------------------------------------------------------- element actions (accessibility-tree ids)
@dataclass(frozen=True)
class Click(Action):
    name: ClassVar[str] = "click"
    element: str

    def __post_init__(self) -> None:
        _check_element(self.element)


@dataclass(frozen=True)
class Hover(Click):
    name: ClassVar[str] = "hover"


@dataclass(frozen=True)
class Fill(Action):
    """Replace the value of a text field."""

    name: ClassVar[str] = "fill"
    element: str
    value: str

    def __post_init__(self) -> None:
        _check_element(self.element)
        _check_text("value", self.value)


@dataclass(frozen=True)
class SelectOption(Action):
    name: ClassVar[str] = "select_option"
    element: str
    options: tuple[str, ...]

    def __post_init__(self) -> None:
        _check_element(self.element)
        if isinstance(self.options, str):
            object.__setattr__(self, "options", (self.options,))
        elif isinstance(self.options, list):
            object.__setattr__(self, "options", tuple(self.options))
        if not self.options or not all(isinstance(o, str) for o in self.options):
            raise ActionError(f"options must be a non-empty list of strings, got {self.options!r}")


@dataclass(frozen=True)
class Press(Action):
    """Focus an element and press a key chord on it."""

    name: ClassVar[str] = "press"
    element: str
    key: str

    def __post_init__(self) -> None:
        _check_element(self.element)
        _check_text("key", self.key, allow_empty=False)


# ---------------------------------------------------------------- navigation and messages
@dataclass(frozen=True)
class Goto(Action):
    name: ClassVar[str] = "goto"
    url: str

    def __post_init__(self) -> None:
        _check_text("url", self.url, allow_empty=False)


@dataclass(frozen=True)
class GoBack(Action):
    name: ClassVar[str] = "go_back"


@dataclass(frozen=True)
class SendMsgToUser(Action):
    """Message to the user; REAL grades after the agent's message (``validate`` in agisdk)."""

    name: ClassVar[str] = "send_msg_to_user"
    terminal: ClassVar[bool] = True
    text: str

    def __post_init__(self) -> None:
        _check_text("text", self.text)


ACTION_TYPES: dict[str, type[Action]] = {
    cls.name: cls
    for cls in (LeftClick, DoubleClick, RightClick, MiddleClick, TripleClick, MouseMove, LeftClickDrag, Type, Key,
                Scroll, HScroll, Wait, Terminate, Answer, Click, Hover, Fill, SelectOption, Press, Goto, GoBack,
                SendMsgToUser)
}
COMPUTER_USE_ACTIONS = ("key", "type", "mouse_move", "left_click", "left_click_drag", "right_click", "middle_click",
                        "double_click", "triple_click", "scroll", "hscroll", "wait", "terminate", "answer")
ELEMENT_ACTIONS = ("click", "fill", "select_option", "press", "hover")


def action_from_dict(d: Any) -> Action:
    """Build an action from its serialised dict ``{"action": name, **fields}``; raise ``ActionError`` if invalid.

    Accepts Qwen's ``coordinate: [x, y]`` (and ``start_coordinate``) as well as flat ``x``/``y`` fields.
    """
    if not isinstance(d, dict):
        raise ActionError(f"an action must be a JSON object, got {type(d).__name__}")
    d = dict(d)
    name = d.pop("action", None)
    cls = ACTION_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ActionError(f"unknown action {name!r}; known: {', '.join(ACTION_TYPES)}")
    for key, (fx, fy) in (("coordinate", ("x", "y")), ("start_coordinate", ("start_x", "start_y"))):
        if key in d:
            c = d.pop(key)
            if not isinstance(c, (list, tuple)) or len(c) != 2:
                raise ActionError(f"{key} must be [x, y], got {c!r}")
            d[fx], d[fy] = c
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = set(d) - names
    if unknown:
        raise ActionError(f"{name} does not take {', '.join(sorted(unknown))}; "
                          f"it takes {', '.join(sorted(names)) or 'nothing'}")
    try:
        return cls(**d)
    except TypeError as e:  # missing required field
        raise ActionError(f"{name}: {e}") from None
