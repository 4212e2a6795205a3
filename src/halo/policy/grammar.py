"""The action space as JSON schema: one table feeds the prompt's tool schemas and constrained decoding.

A reply is one tool call ``{"name": <tool>, "arguments": {...}}``. Three tools:
``computer_use`` (Qwen3-VL's own, coordinates 0..1000), ``browser`` (element actions on accessibility-tree ids,
``goto``, ``go_back``) and ``send_msg_to_user``. Constrained decoding holds a model to this schema inside its
``<tool_call>`` tags: in-process decoding compiles the grammar with xgrammar, and a vLLM request carries the same
grammar as EBNF (``structured_outputs.grammar``; the legacy ``guided_json`` style sends the schema alone).
"""

from __future__ import annotations

import copy
import json
from typing import Any, Iterable, Mapping, Sequence

from halo.env.actions import COMPUTER_USE_ACTIONS, COORD_MAX, ELEMENT_ACTIONS, MAX_TEXT

COMPUTER_TOOL = "computer_use"
BROWSER_TOOL = "browser"
MESSAGE_TOOL = "send_msg_to_user"
TOOL_NAMES = (COMPUTER_TOOL, BROWSER_TOOL, MESSAGE_TOOL)
NAV_ACTIONS = ("goto", "go_back")
PRESS_KEYS = ("Enter", "Tab", "Escape")  # the keys a mode with a choice of text may press
MESSAGE_HELP = "Send the final message to the user (the answer, or that the task is done); ends the task, graded."

_COORD = {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": COORD_MAX}, "minItems": 2,
          "maxItems": 2}
_TEXT = {"type": "string", "maxLength": MAX_TEXT}
_ELEMENT = {"type": "string", "minLength": 1, "maxLength": 32}
_PIXELS = {"type": "integer", "minimum": -10000, "maximum": 10000}

# action -> (argument properties, required arguments, one-line description for the prompt)
ACTION_ARGS: dict[str, tuple[dict[str, Any], tuple[str, ...], str]] = {
    "key": ({"keys": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 16}, "minItems": 1,
                      "maxItems": 5}}, ("keys",), "Press a key chord, e.g. keys=[\"ctrl\", \"a\"] or [\"Enter\"]."),
    "type": ({"text": _TEXT}, ("text",), "Type text into the focused field."),
    "mouse_move": ({"coordinate": _COORD}, ("coordinate",), "Move the mouse to coordinate."),
    "left_click": ({"coordinate": _COORD}, ("coordinate",), "Left-click at coordinate."),
    "left_click_drag": ({"coordinate": _COORD, "start_coordinate": _COORD}, ("coordinate",),
                        "Drag (from start_coordinate, or the mouse position) to coordinate."),
    "right_click": ({"coordinate": _COORD}, ("coordinate",), "Right-click at coordinate."),
    "middle_click": ({"coordinate": _COORD}, ("coordinate",), "Middle-click at coordinate."),
    "double_click": ({"coordinate": _COORD}, ("coordinate",), "Double-click at coordinate."),
    "triple_click": ({"coordinate": _COORD}, ("coordinate",), "Triple-click (select a line) at coordinate."),
    "scroll": ({"pixels": _PIXELS, "coordinate": _COORD}, ("pixels",),
               "Scroll by pixels at coordinate (positive = up, negative = down)."),
    "hscroll": ({"pixels": _PIXELS, "coordinate": _COORD}, ("pixels",),
                "Scroll sideways by pixels (positive = left)."),
    "wait": ({"time": {"type": "integer", "minimum": 0, "maximum": 30}}, ("time",), "Wait time seconds."),
    "terminate": ({"status": {"type": "string", "enum": ["success", "failure"]}}, ("status",),
                  "End the task, reporting success or failure."),
    "answer": ({"text": _TEXT}, ("text",), "End the task with an answer text."),
    "click": ({"element": _ELEMENT}, ("element",), "Click the element with this id."),
    "hover": ({"element": _ELEMENT}, ("element",), "Hover over the element."),
    "fill": ({"element": _ELEMENT, "value": _TEXT}, ("element", "value"), "Replace the text of a field."),
    "select_option": ({"element": _ELEMENT, "options": {"type": "array", "items": _TEXT, "minItems": 1,
                                                        "maxItems": 8}},
                      ("element", "options"), "Choose options of a <select>."),
    "press": ({"element": _ELEMENT, "key": {"type": "string", "minLength": 1, "maxLength": 32}}, ("element", "key"),
              "Focus the element and press a key (\"Enter\")."),
    "goto": ({"url": {"type": "string", "minLength": 1, "maxLength": 512}}, ("url",), "Open a URL."),
    "go_back": ({}, (), "Go back one page."),
}


def tool_of(action_name: str) -> str:
    """The tool an action belongs to (``left_click`` -> ``computer_use``)."""
    if action_name == MESSAGE_TOOL:
        return MESSAGE_TOOL
    return COMPUTER_TOOL if action_name in COMPUTER_USE_ACTIONS else BROWSER_TOOL


def browser_actions(include_elements: bool) -> tuple[str, ...]:
    return (ELEMENT_ACTIONS if include_elements else ()) + NAV_ACTIONS


def _args_schema(action: str, element_ids: Iterable[str] | None, with_action: bool = True,
                 text_choices: Sequence[str] | None = None, text_max: int = MAX_TEXT) -> dict[str, Any]:
    props, required, _ = ACTION_ARGS[action]
    props = copy.deepcopy(props)
    if element_ids is not None and "element" in props:
        props["element"] = {"type": "string", "enum": sorted(element_ids)}
    for k, v in props.items():
        if v == _TEXT:
            props[k] = _text(text_choices, text_max)
        elif v.get("items") == _TEXT:
            v["items"] = _text(text_choices, text_max)
            if text_choices:  # a choice of text: one option at a time (a learnable choice, a bounded reply)
                v["maxItems"] = 1
        elif text_choices and action == "press" and k == "key":  # a choice of text: a choice of key too
            props[k] = {"type": "string", "enum": list(PRESS_KEYS)}
    if with_action:
        props = {"action": {"const": action}, **props}
        required = ("action", *required)
    return {"type": "object", "properties": props, "required": list(required), "additionalProperties": False}


def _text(choices: Sequence[str] | None, max_len: int) -> dict[str, Any]:
    if choices:
        return {"type": "string", "enum": list(choices)}
    return {"type": "string", "maxLength": min(max_len, MAX_TEXT)}


def action_json_schema(include_elements: bool = True,
                       element_ids: Iterable[str] | Mapping[str, Iterable[str]] | None = None,
                       actions: Sequence[str] | None = None, text_choices: Sequence[str] | None = None,
                       text_max: int = MAX_TEXT, single_tool: bool = False) -> dict[str, Any]:
    """JSON schema of one tool call. ``element_ids`` (the current page's) pins element actions to real ids (a
    mapping gives each element action its own ids; an action with none is left out);
    ``actions`` keeps only those action names (``send_msg_to_user`` included); ``text_choices`` makes every text
    argument one of these strings, else text is free up to ``text_max`` characters. ``single_tool`` puts every
    action, the final message too, under the ``browser`` tool: the first free choice is then the action itself,
    not the tool (with two tools, a random policy ends half its episodes at the first step)."""
    by_action = dict(element_ids) if isinstance(element_ids, Mapping) else None
    ids = None if element_ids is None or by_action is not None else tuple(element_ids)
    if (ids is not None and not ids) or (by_action is not None and not any(by_action.values())):
        include_elements = False  # no element on the page: an enum of nothing would admit no element action
    allowed = set(actions) if actions is not None else None
    calls = []
    for action in COMPUTER_USE_ACTIONS + browser_actions(include_elements):
        if allowed is not None and action not in allowed:
            continue
        these = ids
        if by_action is not None and "element" in ACTION_ARGS.get(action, ({}, (), ""))[0]:
            these = tuple(by_action.get(action, ()))
            if not these:
                continue  # nothing on this page this action can act on (no text field to fill)
        calls.append({"type": "object", "properties": {"name": {"const": BROWSER_TOOL if single_tool
                                                                else tool_of(action)},
                                                       "arguments": _args_schema(action, these, True, text_choices,
                                                                                 text_max)},
                      "required": ["name", "arguments"], "additionalProperties": False})
    if single_tool and (allowed is None or MESSAGE_TOOL in allowed):
        calls.append({"type": "object", "properties": {"name": {"const": BROWSER_TOOL}, "arguments": {
            "type": "object", "properties": {"action": {"const": MESSAGE_TOOL}, "text": _text(text_choices, text_max)},
            "required": ["action", "text"], "additionalProperties": False}},
            "required": ["name", "arguments"], "additionalProperties": False})
    elif allowed is None or MESSAGE_TOOL in allowed:
        calls.append({"type": "object", "properties": {"name": {"const": MESSAGE_TOOL},
                                                       "arguments": {"type": "object",
                                                                     "properties": {"text": _text(text_choices,
                                                                                                  text_max)},
                                                                     "required": ["text"],
                                                                     "additionalProperties": False}},
                      "required": ["name", "arguments"], "additionalProperties": False})
    if not calls:
        raise ValueError(f"no action left: actions={sorted(allowed or ())} allows nothing on this page")
    return {"anyOf": calls}


def _brief(prop: dict[str, Any]) -> dict[str, Any]:
    """A property as the prompt shows it: type, enum, item type (limits are the grammar's business)."""
    out = {k: v for k, v in prop.items() if k in ("type", "enum")}
    if "items" in prop:
        out["items"] = _brief(prop["items"])
    return out


def tool_schemas(include_elements: bool = True, actions: Sequence[str] | None = None,
                 single_tool: bool = False) -> list[dict[str, Any]]:
    """The tools in OpenAI/Qwen function format, as listed inside ``<tools></tools>`` of the system prompt
    (only the ``actions`` allowed, when given; all under ``browser`` with ``single_tool``)."""
    allowed = set(actions) if actions is not None else None
    if single_tool:
        names = tuple(a for a in COMPUTER_USE_ACTIONS + browser_actions(include_elements) + (MESSAGE_TOOL,)
                      if allowed is None or a in allowed)
        props: dict[str, Any] = {"action": {"type": "string", "enum": list(names), "description": "\n".join(
            f"* `{a}`: {ACTION_ARGS[a][2] if a in ACTION_ARGS else MESSAGE_HELP}" for a in names)}}
        for a in names:
            for k, v in (ACTION_ARGS[a][0] if a in ACTION_ARGS else {"text": _TEXT}).items():
                props.setdefault(k, _brief(v))
        return [{"type": "function", "function": {"name": BROWSER_TOOL, "description": "Act on the page by element "
                 "id (the [id] of the accessibility tree), navigate, or send the final message.", "parameters": {
                     "type": "object", "properties": props, "required": ["action"]}}}]

    def keep(names: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(a for a in names if allowed is None or a in allowed)

    def tool(name: str, description: str, names: tuple[str, ...]) -> dict[str, Any]:
        props: dict[str, Any] = {"action": {"type": "string", "enum": list(names), "description": "\n".join(
            f"* `{a}`: {ACTION_ARGS[a][2]}" for a in names)}}
        for a in names:
            for k, v in ACTION_ARGS[a][0].items():
                props.setdefault(k, _brief(v))
        return {"type": "function", "function": {"name": name, "description": description, "parameters": {
            "type": "object", "properties": props, "required": ["action"]}}}

    out = []
    if keep(COMPUTER_USE_ACTIONS):
        out.append(tool(COMPUTER_TOOL, "Use a mouse and keyboard to interact with the web page, seen in the "
                        f"screenshot.\n* The screen's resolution is {COORD_MAX}x{COORD_MAX}: coordinate [x, y] is "
                        f"relative, 0..{COORD_MAX} from the left and top edges.\n"
                        "* Click buttons, links and fields at the centre of the element.", keep(COMPUTER_USE_ACTIONS)))
    if keep(browser_actions(include_elements)):
        out.append(tool(BROWSER_TOOL, "Act on the page by element id (the [id] of the accessibility tree) or "
                        "navigate." if include_elements else "Navigate the browser.",
                        keep(browser_actions(include_elements))))
    if allowed is None or MESSAGE_TOOL in allowed:
        out.append({"type": "function", "function": {
            "name": MESSAGE_TOOL, "description": "Send the final message to the user (the answer, or that the task "
            "is done). This ends the task and it is graded.",
            "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}})
    return out


# ---------------------------------------------------------------- in-process constrained decoding (xgrammar)
TOOL_CALL_OPEN = "<tool_call>\n"
TOOL_CALL_CLOSE = "\n</tool_call>"


class ToolCallGrammar:
    """Compiles ``<tool_call>\n{schema JSON}\n</tool_call>`` for one Hugging Face tokenizer with xgrammar.

    The JSON is compact (json.dumps separators, no free whitespace) so a weak model cannot spend its token budget
    on spaces. Compiled grammars are cached by schema (per-page element ids make a new one)."""

    def __init__(self, tokenizer: Any, vocab_size: int | None = None, cache_size: int = 32,
                 stop_token_ids: Sequence[int] | None = None):
        import xgrammar as xgr

        self._xgr = xgr
        # stop tokens (allowed once the reply is complete): the model's end-of-sequence ids, as vLLM allows them
        # (its generation config's, not only the tokenizer's), so both end a reply the same ways
        self.tokenizer_info = xgr.TokenizerInfo.from_huggingface(
            tokenizer, vocab_size=vocab_size, stop_token_ids=list(stop_token_ids) if stop_token_ids else None)
        self.compiler = xgr.GrammarCompiler(self.tokenizer_info)
        self._cache: dict[str, Any] = {}
        self.cache_size = cache_size

    def compile(self, schema: dict[str, Any] | None = None):
        """An ``xgrammar.CompiledGrammar`` for the schema (default: the whole action space)."""
        key = json.dumps(schema or action_json_schema())  # key order is the order the model must write
        if key not in self._cache:
            if len(self._cache) >= self.cache_size:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = self.compiler.compile_grammar(tool_call_grammar(json.loads(key)))
        return self._cache[key]


def tool_call_grammar(schema: dict[str, Any] | None = None):
    """The ``xgrammar.Grammar`` of one reply: ``<tool_call>\n{compact JSON of the schema}\n</tool_call>``."""
    import xgrammar as xgr

    body = xgr.Grammar.from_json_schema(json.dumps(schema or action_json_schema()), any_whitespace=False)
    return xgr.Grammar.concat(xgr.Grammar.from_ebnf(f"root ::= {json.dumps(TOOL_CALL_OPEN)}"), body,
                              xgr.Grammar.from_ebnf(f"root ::= {json.dumps(TOOL_CALL_CLOSE)}"))


def tool_call_ebnf(schema: dict[str, Any] | None = None) -> str:
    """The same grammar as EBNF text: what a vLLM request sends (``structured_outputs.grammar``; vLLM compiles it
    with xgrammar too), so served and in-process constrained decoding allow exactly the same replies."""
    return str(tool_call_grammar(schema))


def compile_tool_call_grammar(tokenizer: Any, schema: dict[str, Any] | None = None, vocab_size: int | None = None):
    """One-off compile (``ToolCallGrammar`` caches the tokenizer info and grammars across calls)."""
    return ToolCallGrammar(tokenizer, vocab_size=vocab_size).compile(schema)
