"""Qwen3-VL computer-use prompts, rebuilt fresh from each observation so they stay bounded.

Shape (REFERENCE.md §2): a system turn "You are a helpful assistant." with the Nous function-calling block
(``# Tools``, the tool schemas inside ``<tools></tools>``, reply inside ``<tool_call></tool_call>``), then one user
turn holding the screenshot, the goal, the URL, the last actions and optionally the accessibility tree. The
screenshot is resized here to the pixel budget (sides snapped to multiples of 32, Qwen3-VL's patch 16 x merge 2),
so every backend sees the same image and the same number of visual tokens.
"""

from __future__ import annotations

import base64
import io
import json
import math
from dataclasses import dataclass
from typing import Any, Literal

from halo.config.settings import AtLeast1, NonNegativeInt, settings
from halo.env.actions import MAX_TEXT, Action, LeftClickDrag, SendMsgToUser
from halo.env.alerts import page_alerts
from halo.env.types import Observation
from halo.policy.grammar import MESSAGE_TOOL, tool_of, tool_schemas

PATCH_FACTOR = 32  # patch 16 x spatial merge 2: one visual token per 32x32 pixels
SYSTEM_HEAD = "You are a helpful assistant."
NOUS_TOOLS = """# Tools

You may call one or more functions to assist with the user query.

You are provided with function signatures within <tools></tools> XML tags:
<tools>
{tools}
</tools>

For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:
<tool_call>
{{"name": <function-name>, "arguments": <args-json-object>}}
</tool_call>"""
AGENT_RULES = (
    "You are a web agent operating a browser to complete the user's goal. Each turn you see a fresh screenshot "
    "and the last actions. Reply with exactly one tool call. When the goal is done (or it asks for information), "
    "call send_msg_to_user with the answer or a short confirmation: the task is graded only after that message.")


@settings
class PromptConfig:
    """How observations become prompts. The pixel budget bounds the visual tokens (``max_pixels`` / 1024)."""

    max_pixels: int = 1280 * 720  # a 1280x720 screenshot -> 1280x704 -> 880 visual tokens
    min_pixels: int = 64 * 32 * 32
    include_axtree: bool = False
    axtree_max_chars: AtLeast1 = 6000
    history: NonNegativeInt = 5
    image_format: Literal["png", "jpeg"] = "png"  # what the resized screenshot is re-encoded as (png keeps text crisp)
    # the action interface (halo.policy.action_space): allowed actions, which element ids, where text comes from
    actions: tuple[str, ...] | None = None
    elements: str = "all"
    # any: every element action may target any allowed element; by_action: fill/press only fields, select_option
    # only selects (action_space.ROLES_BY_ACTION), so where to type is a choice among the page's few fields
    element_roles: str = "any"
    text: str = "free"
    phrase_words: int = 4  # the longest word span (after the quoted strings) a goal phrase may be, 1..4
    text_max_chars: int = MAX_TEXT
    single_tool: bool = False
    # full: Qwen's tool-calling system prompt; brief: one paragraph naming the actions; none: no system turn (a
    # random-init model reads nothing from it, and every prompt token dilutes its attention to the goal)
    system: Literal["full", "brief", "none"] = "full"
    # full: the accessibility tree; controls: one line per element the policy may act on
    tree: Literal["full", "controls"] = "full"
    tree_name_chars: AtLeast1 = 40  # with tree: controls, each element's name is cut to this many characters
    goal_last: bool = False  # the goal as the prompt's last line, nearest the reply (small models attend to it)
    # full: goal, URL, step, previous actions, the question; compact: the previous actions and a failed action's
    # error only when there are some, then the goal (a random-init model's attention averages over every token, and
    # the goal's words are the signal its first choice depends on: ~10 tokens instead of ~60)
    user: Literal["full", "compact"] = "full"
    # compact user turn: a line with the page's text fields and what each holds ("[185] Message Body: ''"), so a
    # policy that sees no tree still knows what is typed (a half-written form and a whole one differ only there)
    fields: bool = False
    fields_value_chars: AtLeast1 = 24  # each field's value cut to this many characters
    # inline: one line, every field with its value; split: "Filled: ..." then "Empty: ..." (or "Empty: none"), so
    # what is left to type is a few words of its own next to the goal, the same tokens in every instance (a small
    # model told a half-written form from a whole one only by a field's value changing from '' to some words);
    # split_last: the same two lines after the goal, Empty last: the reply's first token is read at the end of the
    # Empty line, so "none" and "[x] Subject" differ in the tokens nearest it (a policy that clicks Send with a field
    # empty does not tell the two apart when they sit above the goal)
    # empty_ids: split_last with the element ids on the Empty line only ("Filled: Subject: 'Weekend plans'"), so the
    # id to type into is an id the prompt holds, and a filled field's id is not there to be copied
    # (bench/field_choice_probe.py: the field choice learned faster, Send-or-fill slower, the ladder no faster)
    fields_layout: Literal["inline", "split", "split_last", "empty_ids"] = "inline"
    # page: the env's ids (page order: a chip before a form shifts every id after it); stable: each element under an
    # id from its role and name, the same on every page it is on (halo.policy.element_ids)
    element_ids: Literal["page", "stable"] = "page"
    # an "Alert: ..." line with the text of the page's alerts (a form refusing a click: "Please specify at least one
    # recipient."), after a failed action's error: a controls-only tree drops them, and a refused Send then reads
    # like any other click (halo.env.alerts)
    alerts: bool = False

    def __post_init__(self) -> None:
        from halo.policy.action_space import ELEMENT_FILTERS, ELEMENT_ROLES, MAX_PHRASE_WORDS, TEXT_SOURCES
        from halo.policy.grammar import ACTION_ARGS, MESSAGE_TOOL

        if self.actions is not None:
            object.__setattr__(self, "actions", tuple(self.actions))
            unknown = set(self.actions) - set(ACTION_ARGS) - {MESSAGE_TOOL}
            if unknown or not self.actions:
                raise ValueError(f"actions: unknown {sorted(unknown)}; known: {sorted(ACTION_ARGS)} and "
                                 f"{MESSAGE_TOOL}" if unknown else "actions must not be empty")
        if self.elements not in ELEMENT_FILTERS:
            raise ValueError(f"elements must be one of {ELEMENT_FILTERS}, got {self.elements!r}")
        if self.element_roles not in ELEMENT_ROLES:
            raise ValueError(f"element_roles must be one of {ELEMENT_ROLES}, got {self.element_roles!r}")
        if not 1 <= self.phrase_words <= MAX_PHRASE_WORDS:
            raise ValueError(f"phrase_words must be in 1..{MAX_PHRASE_WORDS}, got {self.phrase_words}")
        if self.text not in TEXT_SOURCES:
            raise ValueError(f"text must be one of {TEXT_SOURCES}, got {self.text!r}")
        if not 1 <= self.text_max_chars <= MAX_TEXT:
            raise ValueError(f"text_max_chars must be in 1..{MAX_TEXT}, got {self.text_max_chars}")
        if self.min_pixels < PATCH_FACTOR ** 2 or self.max_pixels < self.min_pixels:
            raise ValueError(f"pixel budget needs {PATCH_FACTOR ** 2} <= min_pixels <= max_pixels, "
                             f"got min_pixels={self.min_pixels}, max_pixels={self.max_pixels}")


@dataclass(frozen=True)
class Prompt:
    """One step's prompt, independent of the backend. ``image`` is already resized to the budget."""

    system: str
    user_text: str
    image: bytes
    image_mime: str
    image_size: tuple[int, int]  # width, height after resizing

    @property
    def visual_tokens(self) -> int:
        return (self.image_size[0] // PATCH_FACTOR) * (self.image_size[1] // PATCH_FACTOR)

    def image_data_url(self) -> str:
        return f"data:{self.image_mime};base64,{base64.b64encode(self.image).decode('ascii')}"

    def openai_messages(self) -> list[dict[str, Any]]:
        """Chat-completions messages: the image as a base64 data URL (vLLM, OpenAI and compatible servers)."""
        system = [{"role": "system", "content": self.system}] if self.system else []
        image = {"type": "image_url", "image_url": {"url": self.image_data_url()}}
        return system + [{"role": "user", "content": [image, {"type": "text", "text": self.user_text}]}]

    def hf_messages(self) -> list[dict[str, Any]]:
        """Messages for a Hugging Face processor's chat template (every content a list of parts; the image is
        passed to the processor separately, in order)."""
        system = [{"role": "system", "content": [{"type": "text", "text": self.system}]}] if self.system else []
        return system + [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": self.user_text}]}]

    def pil_image(self):
        from PIL import Image

        return Image.open(io.BytesIO(self.image)).convert("RGB")


def smart_resize(width: int, height: int, min_pixels: int, max_pixels: int,
                 factor: int = PATCH_FACTOR) -> tuple[int, int]:
    """Qwen-VL's resize rule: sides snapped to ``factor``, area kept within [min_pixels, max_pixels]."""
    if width <= 0 or height <= 0:
        raise ValueError(f"image size must be positive, got {width}x{height}")
    h = max(factor, round(height / factor) * factor)
    w = max(factor, round(width / factor) * factor)
    if h * w > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h = max(factor, math.floor(height / beta / factor) * factor)
        w = max(factor, math.floor(width / beta / factor) * factor)
    elif h * w < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h = math.ceil(height * beta / factor) * factor
        w = math.ceil(width * beta / factor) * factor
    return w, h


def system_prompt(include_elements: bool, actions: tuple[str, ...] | None = None, single_tool: bool = False) -> str:
    tools = "\n".join(json.dumps(t, ensure_ascii=False) for t in tool_schemas(include_elements, actions,
                                                                                single_tool))
    return f"{SYSTEM_HEAD}\n\n{NOUS_TOOLS.format(tools=tools)}\n\n{AGENT_RULES}"


def brief_system_prompt(actions: tuple[str, ...] | None) -> str:
    """A short system prompt for small models (every prompt token costs them compute and teaches them nothing)."""
    names = ", ".join(actions) if actions else "the browser actions"
    return (f"{SYSTEM_HEAD} You are a web agent. Reply with one tool call: <tool_call>\n{{\"name\": \"browser\", "
            f"\"arguments\": {{\"action\": ..., ...}}}}\n</tool_call>. Actions: {names}. Elements are the [id]s of "
            "the list below; send_msg_to_user ends the task.")


def controls_text(obs: Observation, cfg: PromptConfig) -> str:
    """The elements the policy may act on, one line each: ``[11] link Electronics``."""
    from halo.policy.action_space import allowed_elements

    lines = []
    for i in allowed_elements(obs, cfg.elements):
        el = obs.elements[i]
        lines.append(f"[{i}] {el.role} {' '.join(el.name.split())[:cfg.tree_name_chars]}")
    return "\n".join(lines)


def field_chips(obs: Observation, field_id: str) -> list[str]:
    """The chips a chip input holds (a recipient picked from suggestions): the ``Remove <name>`` buttons just before
    the input in the page's order (GoMail's To; MUI-style chip inputs). The input itself is empty once a chip is
    made, so without them an addressed message and an unaddressed one show the same field."""
    ids = list(obs.elements)
    chips: list[str] = []
    for i in reversed(ids[:ids.index(field_id)] if field_id in obs.elements else []):
        el = obs.elements[i]
        if el.role != "button" or not (el.name or "").startswith("Remove "):
            break
        chips.insert(0, " ".join(el.name.split())[len("Remove "):])
    return chips


def fields_lines(obs: Observation, cfg: PromptConfig) -> list[str]:
    """``Fields: [184] Subject: 'Weekend plans'; [185] Message Body: ''``: the text fields the policy may type into
    (those ``fill`` may take), each with its value (a chip input's chips where it holds no typed text); nothing where
    the page has none. ``fields_layout: split`` gives ``Filled: [184] Subject: 'Weekend plans'`` and
    ``Empty: [185] Message Body`` instead (each line there always, ``none`` where no field is); ``split_last`` the
    same lines, which ``user_text`` puts after the goal."""
    from halo.policy.action_space import TEXT_ROLES, allowed_elements

    rows = []
    for i in allowed_elements(obs, cfg.elements):
        el = obs.elements[i]
        if el.role in TEXT_ROLES:
            value = " ".join((el.value or "").split()) or ", ".join(field_chips(obs, i))
            rows.append((i, " ".join(el.name.split())[:cfg.tree_name_chars], value[:cfg.fields_value_chars]))
    if not rows:
        return []
    if cfg.fields_layout != "inline":
        ids = cfg.fields_layout != "empty_ids"  # empty_ids: a filled field shows no id
        filled = [(f"[{i}] " if ids else "") + f"{n}: {v!r}" for i, n, v in rows if v]
        return [f"Filled: {'; '.join(filled) or 'none'}",
                f"Empty: {'; '.join(f'[{i}] {n}' for i, n, v in rows if not v) or 'none'}"]
    return [f"Fields: {'; '.join(f'[{i}] {n}: {v!r}' for i, n, v in rows)}"]


def tree_lines(obs: Observation, cfg: PromptConfig) -> list[str]:
    """The page as the prompt shows it, when it does (``include_axtree``), cut to ``axtree_max_chars``."""
    if not cfg.include_axtree:
        return []
    tree = (controls_text(obs, cfg) or "(none)") if cfg.tree == "controls" else (obs.axtree or "(empty)")
    if len(tree) > cfg.axtree_max_chars:
        tree = tree[:cfg.axtree_max_chars].rsplit("\n", 1)[0] + "\n... (truncated)"
    return ["Elements:" if cfg.tree == "controls" else "Accessibility tree (use the [id] with the browser tool):",
            tree]


def alert_lines(obs: Observation, cfg: PromptConfig) -> list[str]:
    """``Alert: <text>`` when ``prompt.alerts`` is on and the page shows alerts (``; `` between several)."""
    alerts = page_alerts(obs) if cfg.alerts else ()
    return [f"Alert: {'; '.join(alerts)}"] if alerts else []


def user_text(obs: Observation, cfg: PromptConfig) -> str:
    history = list(obs.last_actions)[-cfg.history:] if cfg.history else []
    if cfg.user == "compact":
        lines = [f"Done: {'; '.join(history)}"] if history else []
        if obs.last_action_error:
            lines.append(f"Failed: {obs.last_action_error}")
        lines += alert_lines(obs, cfg)
        fields = fields_lines(obs, cfg) if cfg.fields else []
        if cfg.fields_layout in ("split_last", "empty_ids"):
            return "\n".join(lines + tree_lines(obs, cfg) + [f"Goal: {obs.goal}"] + fields)
        return "\n".join(lines + fields + tree_lines(obs, cfg) + [f"Goal: {obs.goal}"])
    lines = [f"Goal: {obs.goal}", f"Current URL: {obs.url}", f"Step: {obs.step}"]
    if history:
        lines.append("Previous actions (oldest first):")
        lines += [f"{i}. {a}" for i, a in enumerate(history, 1)]
    else:
        lines.append("Previous actions: none")
    if obs.last_action_error:
        lines.append(f"Last action failed: {obs.last_action_error}")
    lines += alert_lines(obs, cfg)
    lines += tree_lines(obs, cfg)
    lines.append("What is the next action? Reply with one tool call.")
    if cfg.goal_last:
        lines = lines[1:] + [lines[0]]
    return "\n".join(lines)


def resize_screenshot(data: bytes, cfg: PromptConfig) -> tuple[bytes, str, tuple[int, int]]:
    """Decode, resize to the budget, re-encode. Raises ``ValueError`` with the reason on an undecodable image."""
    from PIL import Image, UnidentifiedImageError

    try:
        img = Image.open(io.BytesIO(data))
        img.load()
    except (UnidentifiedImageError, OSError) as e:
        raise ValueError(f"the observation's screenshot is not a readable image ({e})") from None
    w, h = smart_resize(img.width, img.height, cfg.min_pixels, cfg.max_pixels)
    img = img.convert("RGB")
    if (w, h) != img.size:
        img = img.resize((w, h), Image.Resampling.BICUBIC)
    buf = io.BytesIO()
    if cfg.image_format == "png":
        img.save(buf, format="PNG")
    else:
        img.save(buf, format="JPEG", quality=90)
    return buf.getvalue(), f"image/{cfg.image_format}", (w, h)


def build_prompt(obs: Observation, cfg: PromptConfig | None = None) -> Prompt:
    """The prompt for one step, from the observation alone."""
    cfg = cfg or PromptConfig()
    image, mime, size = resize_screenshot(obs.screenshot, cfg)
    include = cfg.include_axtree or cfg.elements != "all"
    if cfg.system == "none":
        system = ""
    elif cfg.system == "brief":
        system = brief_system_prompt(cfg.actions)
    else:
        system = system_prompt(include, cfg.actions, cfg.single_tool)
    return Prompt(system=system, user_text=user_text(obs, cfg), image=image,
                  image_mime=mime, image_size=size)


def tool_call_text(action: Action) -> str:
    """An action as the reply Qwen3-VL is asked for (scripted policies, tests, few-shot examples)."""
    d = action.to_dict()
    name = d.pop("action")
    if isinstance(action, SendMsgToUser):
        return f'<tool_call>\n{json.dumps({"name": MESSAGE_TOOL, "arguments": d}, ensure_ascii=False)}\n</tool_call>'
    args: dict[str, Any] = {"action": name}
    for key, (fx, fy) in (("start_coordinate", ("start_x", "start_y")), ("coordinate", ("x", "y"))):
        if d.get(fx) is not None:
            args[key] = [_num(d.pop(fx)), _num(d.pop(fy))]
        else:
            d.pop(fx, None), d.pop(fy, None)
    if isinstance(action, LeftClickDrag) and "start_coordinate" in args:  # keep Qwen's order: target first
        args = {"action": name, "coordinate": args["coordinate"], "start_coordinate": args["start_coordinate"]}
    args.update({k: v for k, v in d.items() if v is not None})
    call = {"name": tool_of(name), "arguments": args}
    return f"<tool_call>\n{json.dumps(call, ensure_ascii=False)}\n</tool_call>"


def _num(v: float) -> float | int:
    return int(v) if float(v).is_integer() else v
