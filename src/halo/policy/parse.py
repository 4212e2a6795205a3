"""Model text -> an action of the env's action space, or the reason there is none. Never raises.

Accepted: Qwen's ``<tool_call>{"name": ..., "arguments": ...}</tool_call>``, fenced or bare JSON, the original
project's flat JSON (``{"action": "click", "x": .., "y": ..}``, element ids), an ``Action.describe()`` line
(``left_click(500, 320)``), with any reasoning text around it. Near misses are repaired and every repair is
recorded (``ParseResult.repairs``) so training can count and penalise them. Ranges are checked by the action
dataclasses; element ids against the observation. Numbers must be finite and of sane size (``invalid number``).

Bounded: linear time in the reply (cut at ``MAX_REPLY_CHARS``), and an error quotes at most ``QUOTE_CHARS`` of the
model's own text (errors go into the next prompt).
"""

from __future__ import annotations

import ast
import json
import math
import re
from dataclasses import dataclass, replace
from typing import Any

from halo.env.actions import ACTION_TYPES, COORD_MAX, Action, action_from_dict
from halo.env.types import Observation
from halo.errors import ActionError
from halo.policy.action_space import resolve_refs
from halo.policy.element_ids import to_real
from halo.policy.grammar import BROWSER_TOOL, COMPUTER_TOOL, MESSAGE_TOOL

MAX_REPLY_CHARS = 20_000  # longer replies are cut here before scanning (a reply is one short tool call)
MAX_OBJECTS = 16
QUOTE_CHARS = 200  # of the model's own text quoted in an error
MAX_ERROR_CHARS = 600
MAX_NUMBER = 10**9  # larger numbers are no coordinate, pixel count, time or element id


@dataclass(frozen=True)
class ParseResult:
    """``action`` or ``error`` (never both). ``repairs`` names each fix applied; ``call`` is the JSON used."""

    action: Action | None
    error: str | None = None
    repairs: tuple[str, ...] = ()
    call: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.action is not None


def parse_action(text: Any, obs: Observation | None = None) -> ParseResult:
    """Parse one model reply. With ``obs``, element ids must exist on that page."""
    repairs: list[str] = []
    try:
        return _parse(text, obs, repairs)
    except Exception as e:  # the parser's promise is to never raise: report the bug as a parse error
        return ParseResult(None, _cap(f"the parser failed on this reply ({type(e).__name__}: {_q(str(e))})"),
                           tuple(repairs))


def parse_to_env(text: Any, view: Observation, cfg: Any) -> ParseResult:
    """One reply as every consumer reads it (the policy backends and Tinker's env): parsed against ``view`` (the
    observation the prompt showed, ids aliased under ``prompt.element_ids: stable``), each ``goal_refs`` reference
    (``#2``) resolved to the goal phrase it names, the chosen element mapped back to the env's id. ``cfg``: the
    mode's ``PromptConfig``."""
    parsed = parse_action(text, view)
    if parsed.action is None:
        return parsed
    action = parsed.action
    if cfg.text == "goal_refs":
        action = resolve_refs(action, view, cfg.text_max_chars, cfg.phrase_words)
    return replace(parsed, action=to_real(action, view))


def _fail(msg: str, repairs: list[str], call: dict | None = None) -> ParseResult:
    return ParseResult(None, _cap(msg), tuple(dict.fromkeys(repairs)), call)


def _q(v: Any, n: int = QUOTE_CHARS) -> str:
    """``repr(v)`` of the model's text, at most ``n`` characters of it."""
    r = repr(v) if not isinstance(v, str) or len(v) <= n else repr(v[:n]) + f"... ({len(v)} chars)"
    return r if len(r) <= n + 40 else r[:n] + f"... ({len(r)} chars)"


_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")


def _cap(msg: str) -> str:
    """Quoted text (the model's own, in the action classes' messages too) cut to ``QUOTE_CHARS``, then the whole."""
    if len(msg) > QUOTE_CHARS:
        msg = _QUOTED.sub(lambda m: m.group(0) if len(m.group(0)) <= QUOTE_CHARS + 2 else
                          f"{m.group(0)[:QUOTE_CHARS + 1]}...{m.group(0)[0]} ({len(m.group(0)) - 2} chars)", msg)
    return msg if len(msg) <= MAX_ERROR_CHARS else msg[:MAX_ERROR_CHARS] + f"... ({len(msg)} chars)"


def _bad_number(v: Any, where: str = "", depth: int = 0) -> str | None:
    """Why a number anywhere in ``v`` is unusable (NaN, infinite, too large), or None."""
    if isinstance(v, bool) or depth > 20:
        return None
    name = f'"{where}"' if where else "a number"
    if isinstance(v, float):
        if math.isnan(v):
            return f"invalid number: {name} is NaN; numbers must be finite"
        if math.isinf(v):
            return f"invalid number: {name} is infinite; numbers must be finite"
        if abs(v) > MAX_NUMBER:
            return f"invalid number: {name} is {v:.3g}, too large (at most {MAX_NUMBER:.0e})"
    elif isinstance(v, int):
        if abs(v) > MAX_NUMBER:
            return (f"invalid number: {name} has {len(str(abs(v))) if v.bit_length() < 14000 else 'thousands of'} "
                    f"digits, too large (at most {MAX_NUMBER:.0e})")
    elif isinstance(v, dict):
        for k, x in list(v.items())[:64]:
            why = _bad_number(x, str(k)[:40], depth + 1)
            if why:
                return why
    elif isinstance(v, (list, tuple)):
        for x in v[:64]:
            why = _bad_number(x, where, depth + 1)
            if why:
                return why
    return None


def _parse(text: Any, obs: Observation | None, repairs: list[str]) -> ParseResult:
    if not isinstance(text, str):
        return _fail(f"expected the model's reply as text, got {type(text).__name__}", repairs)
    if len(text) > MAX_REPLY_CHARS:
        text = text[:MAX_REPLY_CHARS]
        repairs.append("reply_truncated")
    if not text.strip():
        return _fail("empty reply: expected one <tool_call> with a JSON action", repairs)
    objects, errors = _find_calls(text, repairs)
    if not objects:
        call = _call_syntax(text)
        if call is None:
            why = f" ({errors[0]})" if errors else ""
            return _fail(f"no tool call or JSON action found in the reply{why}; expected "
                         '<tool_call>{"name": "computer_use", "arguments": {"action": ...}}</tool_call>', repairs)
        repairs.append("call_syntax")
        objects = [call]
    usable = [o for o in objects if isinstance(o, dict) and ({"name", "action", "function"} & set(o))]
    if len(usable) > 1:
        repairs.append("several_calls_took_first")
    obj = usable[0] if usable else objects[0]
    bad = _bad_number(obj)
    if bad:
        return _fail(bad, repairs, obj if isinstance(obj, dict) else None)
    d, err = _to_action_dict(obj, repairs)
    if err:
        return _fail(err, repairs, obj if isinstance(obj, dict) else None)
    bad = _bad_number(d)
    if bad:
        return _fail(bad, repairs, d)
    try:
        action = action_from_dict(d)
    except ActionError as e:
        return _fail(str(e), repairs, d)
    if obs is not None:
        element = getattr(action, "element", None)
        if element is not None and element not in obs.elements:
            known = ", ".join(sorted(obs.elements, key=_id_key)[:12]) or "none on this page"
            return _fail(f"element {_q(element)} is not on the page (ids: {known})", repairs, d)
    return ParseResult(action, None, tuple(dict.fromkeys(repairs)), d)


def _id_key(s: str) -> tuple[int, str]:
    return (int(s), s) if s.isdigit() else (1 << 60, s)


# ---------------------------------------------------------------- finding the JSON
_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|(?=<tool_call>)|$)", re.S)
_FENCE = re.compile(r"```[ \t]*(?:json|JSON|tool_call|python)?[ \t]*\n?(.*?)(?:```|$)", re.S)


def _find_calls(text: str, repairs: list[str]) -> tuple[list[Any], list[str]]:
    """JSON objects of the reply, from the most to the least explicit place: tool_call tags, fences, bare."""
    if "<tool_call>" in text:
        spans = [m.group(1) for m in _TOOL_CALL.finditer(text)]
        if "</tool_call>" not in text:
            repairs.append("unclosed_tool_call")
    elif "</tool_call>" in text:
        spans = [text.split("</tool_call>", 1)[0]]
        repairs.append("missing_tool_call_open")
    elif "```" in text:
        spans = [m.group(1) for m in _FENCE.finditer(text)]
    else:
        spans = [text]
    objects: list[Any] = []
    errors: list[str] = []
    for span in spans:
        for chunk in _json_chunks(span):
            obj, err = _loads(chunk, repairs)
            if err:
                errors.append(err)
            elif obj is not None:
                objects.append(obj)
            if len(objects) >= MAX_OBJECTS:
                return objects, errors
    return objects, errors


def _json_chunks(s: str) -> list[str]:
    """Top-level ``{...}`` spans of ``s`` (strings respected); an object left open runs to the end."""
    out = []
    i, n = 0, len(s)
    while i < n and len(out) < MAX_OBJECTS:
        start = s.find("{", i)
        if start < 0:
            break
        depth, j, quote = 0, start, None
        while j < n:
            c = s[j]
            if quote:
                if c == "\\":
                    j += 1
                elif c == quote:
                    quote = None
            elif c in "\"'":
                quote = c if c == '"' or _opens_single_quote(s, j) else None
            elif c in "{[":
                depth += 1
            elif c in "}]":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        out.append(s[start:j + 1])
        i = j + 1
    return out


def _opens_single_quote(s: str, j: int) -> bool:
    """A ``'`` starts a string only after JSON punctuation (not the apostrophe of "I'll")."""
    k = j - 1
    while k >= 0 and s[k] in " \t\r\n":
        k -= 1
    return k >= 0 and s[k] in "{[,:"


def _loads(chunk: str, repairs: list[str]) -> tuple[Any, str | None]:
    try:
        return json.loads(chunk, strict=False), None
    except (ValueError, RecursionError):
        pass
    fixed, fixes = _repair_json(chunk)
    try:
        obj = json.loads(fixed, strict=False)
    except (ValueError, RecursionError) as e:
        return None, f"invalid JSON: {str(e)[:120]}"
    repairs.extend(fixes)
    return obj, None


_LITERALS = {"True": "true", "False": "false", "None": "null"}


def _repair_json(s: str) -> tuple[str, list[str]]:
    """One string-aware pass fixing what models get wrong: single quotes, Python literals, trailing commas,
    numbers written with a leading ``+``, unclosed strings, brackets and braces."""
    out: list[str] = []
    fixes: list[str] = []
    stack: list[str] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c == '"' or (c == "'" and _opens_single_quote(s, i)):
            j, buf = i + 1, []
            while j < n and s[j] != c:
                if s[j] == "\\" and j + 1 < n:
                    buf.append("'" if (c == "'" and s[j + 1] == "'") else s[j:j + 2])
                    j += 2
                    continue
                buf.append('\\"' if (c == "'" and s[j] == '"') else s[j])
                j += 1
            if c == "'":
                fixes.append("single_quotes")
            if j >= n:
                fixes.append("unclosed_string")
                if buf and buf[-1] == "\\":
                    buf.pop()
            out.append('"' + "".join(buf) + '"')
            i = j + 1
            continue
        if c in "{[":
            stack.append("}" if c == "{" else "]")
        elif c in "}]":
            if not stack:
                break  # past the end of the value
            expected = stack.pop()
            if c != expected:
                fixes.append("mismatched_bracket")
                c = expected
        elif c == ",":
            k = i + 1
            while k < n and s[k].isspace():
                k += 1
            if k < n and s[k] in "}]":
                fixes.append("trailing_comma")
                i += 1
                continue
        elif c.isalpha() or c == "_":
            j = i
            while j < n and (s[j].isalnum() or s[j] == "_"):
                j += 1
            word = s[i:j]
            if word in _LITERALS:
                fixes.append("python_literals")
                word = _LITERALS[word]
            out.append(word)
            i = j
            continue
        elif c == "+" and i + 1 < n and s[i + 1].isdigit():
            fixes.append("plus_sign")
            i += 1
            continue
        out.append(c)
        i += 1
    if stack:
        while out and (out[-1].isspace() or out[-1] in ",:"):
            out.pop()
        fixes.append("unclosed_braces")
        out.extend(reversed(stack))
    return "".join(out), fixes


_CALL_HEAD = re.compile(r"\b([a-z_]+)\(")
_CALL_END = re.compile(r"\)\s*$", re.M)
MAX_CALL_ARGS = 4_000  # characters of a call's arguments worth handing to literal_eval


def _call_syntax(text: str) -> dict[str, Any] | None:
    """``left_click(500, 320)`` / ``click('12')`` (the form of the prompt's action history) as a call dict.

    Linear in the reply: each call runs from a name's ``(`` to the first ``)`` that ends a line, and the next one
    is looked for after it (a lazy regex retried from every ``name(`` was quadratic on replies like
    ``a(a(a(...``)."""
    import dataclasses

    pos = 0
    while True:
        head = _CALL_HEAD.search(text, pos)
        if head is None:
            return None
        end = _CALL_END.search(text, head.end())
        if end is None:  # no later call can end either
            return None
        pos = end.end()
        cls = ACTION_TYPES.get(head.group(1))
        inner = text[head.end():end.start()]
        if cls is None or len(inner) > MAX_CALL_ARGS:
            continue
        try:
            args = ast.literal_eval(f"({inner},)") if inner.strip() else ()
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        fields = [f.name for f in dataclasses.fields(cls)]
        if len(args) > len(fields):
            continue
        return {"action": cls.name, **dict(zip(fields, args))}
    return None


# ---------------------------------------------------------------- from a call object to the action dict
_COMMENTARY = ("reason", "reasoning", "thought", "thoughts", "explanation", "description", "rationale")
_ELEMENT_KEYS = ("bid", "element_id", "elementId", "id", "ref", "element_ref")
_TEXT_KEYS = ("message", "content", "msg", "answer", "response")
_NUMERIC = ("x", "y", "start_x", "start_y", "pixels", "time")


def _to_action_dict(obj: Any, repairs: list[str]) -> tuple[dict[str, Any], str | None]:
    if not isinstance(obj, dict):
        return {}, f"expected a JSON object for the action, got {type(obj).__name__}"
    if isinstance(obj.get("function"), dict):  # OpenAI tool-call shape {"type": "function", "function": {...}}
        obj = obj["function"]
        repairs.append("openai_tool_call_shape")
    if "name" in obj and ({"arguments", "parameters", "args"} & set(obj) or "action" not in obj):
        name = obj.get("name")
        args = obj.get("arguments", obj.get("parameters", obj.get("args", {})))
        if isinstance(args, str):
            args, err = _loads(args, repairs)
            if err:
                return {}, f"the arguments of {_q(name)} are not JSON ({err})"
            repairs.append("arguments_as_string")
        if args is None:
            args = {}
        if not isinstance(args, dict):
            return {}, f"arguments of {_q(name)} must be a JSON object, got {type(args).__name__}"
        if name == MESSAGE_TOOL:
            d = {**args, "action": MESSAGE_TOOL}
        elif name in (COMPUTER_TOOL, BROWSER_TOOL):
            d = dict(args)
        elif isinstance(name, str) and name in ACTION_TYPES:
            d = {**args, "action": name}
            repairs.append("action_as_tool_name")
        else:
            return {}, (f"unknown tool {_q(name)}; the tools are {COMPUTER_TOOL}, {BROWSER_TOOL} and {MESSAGE_TOOL}")
    elif "action" in obj:
        d = dict(obj)
        if isinstance(d["action"], dict):  # {"action": {"action": "left_click", ...}}
            d = dict(d["action"])
            repairs.append("nested_action")
    else:
        return {}, 'the JSON has neither "name" (a tool call) nor "action"'
    return _normalize_fields(d, repairs)


def _normalize_fields(d: dict[str, Any], repairs: list[str]) -> tuple[dict[str, Any], str | None]:
    name = d.get("action")
    if not isinstance(name, str):
        return d, f'"action" must be an action name, got {_q(name)}'
    if name != name.strip().lower() and name.strip().lower() in ACTION_TYPES:
        name = name.strip().lower()
        repairs.append("action_name_case")
    dropped = [k for k in _COMMENTARY if k in d]
    for k in dropped:
        d.pop(k)
    if dropped:
        repairs.append("dropped_commentary")
    for k in _ELEMENT_KEYS:
        if k in d and "element" not in d:
            d["element"] = d.pop(k)
            repairs.append("element_key_alias")
    if isinstance(d.get("element"), (int, float)) and not isinstance(d.get("element"), bool):
        d["element"] = str(int(d["element"])) if float(d["element"]).is_integer() else str(d["element"])
        repairs.append("element_id_as_number")
    for key in ("coordinate", "start_coordinate"):
        if key in d:
            d[key] = _coordinate(d[key], repairs)
    for k in _NUMERIC:
        if isinstance(d.get(k), str):
            num = _number(d[k])
            if num is not None:
                d[k] = num
                repairs.append("numbers_as_strings")
    has_point = "coordinate" in d or ("x" in d and "y" in d)
    if name == "click" and has_point and "element" not in d:
        name = "left_click"
        repairs.append("click_with_coordinates")
    elif name in ("type", "input", "input_text") and "element" in d:
        name = "fill"
        d.setdefault("value", d.pop("text", ""))
        repairs.append("type_with_element_is_fill")
    elif name == "press" and "element" not in d:
        name = "key"
        if "keys" not in d and "key" in d:
            d["keys"] = d.pop("key")
        repairs.append("press_without_element_is_key")
    if name == "key" and "key" in d and "keys" not in d:
        d["keys"] = d.pop("key")
        repairs.append("key_field_alias")
    if name == "fill" and "value" not in d and "text" in d:
        d["value"] = d.pop("text")
        repairs.append("fill_text_alias")
    if name == "select_option" and "options" not in d:
        for k in ("option", "value", "values"):
            if k in d:
                d["options"] = d.pop(k)
                repairs.append("select_option_alias")
                break
    if name in ("scroll", "hscroll") and "pixels" not in d and "direction" in d:
        if d.get("amount") is not None and _number(d["amount"]) is None:
            return d, f'invalid number: "amount" is {_q(d["amount"])}; expected a finite number of pixels'
        amount = _number(d.pop("amount", 300)) if not isinstance(d.get("amount"), (int, float)) else d.pop("amount")
        direction = str(d.pop("direction")).lower()
        sign = 1 if direction in ("up", "left") else -1
        d["pixels"] = sign * abs(amount if amount is not None else 300)
        repairs.append("scroll_direction")
    if name in (MESSAGE_TOOL, "answer", "type") and "text" not in d:
        for k in _TEXT_KEYS:
            if k in d:
                d["text"] = d.pop(k)
                repairs.append("text_alias")
                break
    d["action"] = name
    return d, None


def _number(v: Any) -> float | int | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return v
    if not isinstance(v, str):
        return None
    try:
        f = float(v.strip())
    except ValueError:
        return None
    if f != f or f in (float("inf"), float("-inf")):
        return None
    return int(f) if f.is_integer() else f


_NUM_RE = re.compile(r"-?\d+(?:\.\d+)?")


def _coordinate(c: Any, repairs: list[str]) -> Any:
    """``[x, y]``; repairs ``"500, 300"``, ``["500", "300"]`` and a box ``[x1, y1, x2, y2]`` (its centre)."""
    if isinstance(c, str):
        nums = _NUM_RE.findall(c)
        if len(nums) in (2, 4) and all(_number(x) is not None and abs(_number(x)) <= MAX_NUMBER for x in nums):
            c = [_number(x) for x in nums]
            repairs.append("coordinate_as_string")
        else:
            return c
    if isinstance(c, dict) and "x" in c and "y" in c:
        c = [c["x"], c["y"]]
        repairs.append("coordinate_as_object")
    if not isinstance(c, (list, tuple)):
        return c
    if any(isinstance(v, str) for v in c):
        conv = [_number(v) if isinstance(v, str) else v for v in c]
        if all(v is not None for v in conv):
            c = conv
            repairs.append("numbers_as_strings")
    if len(c) == 4 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in c):
        c = [(c[0] + c[2]) / 2, (c[1] + c[3]) / 2]
        repairs.append("box_to_centre")
    if len(c) == 2 and all(isinstance(v, float) and v.is_integer() for v in c):
        c = [int(v) for v in c]
    return list(c)


__all__ = ["COORD_MAX", "ParseResult", "parse_action", "parse_to_env"]
