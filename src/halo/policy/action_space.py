"""Which actions a mode may take on the current page, as the JSON schema that constrained decoding enforces.

The 8B default allows the whole action space with free text. A model that starts from random weights learns only
through an interface where every reply is a valid action on this page (``PromptConfig`` settings, tiny mode):
- ``actions``: the action names allowed (e.g. element actions and the final message only);
- ``elements``: ``all`` ids of the tree, ``interactive`` (controls and links), or ``visible`` (interactive and
  inside the viewport); the element enum holds only those ids, so a click always lands on something real;
- ``single_tool``: every action under the ``browser`` tool, so the first free choice is the action (with Qwen's
  separate message tool a random policy ends most episodes at once: measured 75% of first replies);
- ``text``: ``free`` (bounded by ``text_max_chars``), ``goal`` (text arguments are phrases of the goal: quoted
  strings, names and short word spans) or ``goal+page`` (those, then the names of the visible controls), so typing
  the right recipient or title is a choice a tiny policy can learn rather than a string it must spell; ``goal_refs``:
  the goal's phrases by position (``#1`` the first quoted string, ..., then its names; the parsed action holds the
  phrase itself), so that "the subject is the first quoted string" is one choice for every goal rather than a copy
  of its words; with a choice of text, a key to press is one of ``grammar.PRESS_KEYS``; ``phrase_words`` bounds the
  word spans (1: single words, multi-word values come from the goal's quoted strings);
- ``element_roles``: ``by_action`` gives fill and press only the page's fields and select_option only its selects
  (``ROLES_BY_ACTION``), so a random policy types into one of ~4 fields rather than one of ~70 controls.
``max_reply_bytes`` bounds a constrained reply; a mode whose bound exceeds ``max_tokens`` is refused at start-up
(a token is at least one byte), so no constrained reply is ever cut off.
"""

from __future__ import annotations

import json
import re
from typing import Any

from halo.env.types import Element, Observation

INTERACTIVE_ROLES = frozenset({
    "button", "link", "textbox", "searchbox", "checkbox", "radio", "combobox", "listbox", "option", "menuitem",
    "menuitemcheckbox", "menuitemradio", "tab", "switch", "slider", "spinbutton", "treeitem", "clickable",
    "gridcell", "row"})
ELEMENT_FILTERS = ("all", "interactive", "visible")
TEXT_SOURCES = ("free", "goal", "goal+page", "goal_refs")
ELEMENT_ROLES = ("any", "by_action")
# With ``element_roles: by_action``, the roles each element action may target (others: any allowed element): text
# goes into fields, an option is chosen in a select, a key is pressed in a field or a list
TEXT_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton"})
ROLES_BY_ACTION: dict[str, frozenset[str]] = {
    "fill": TEXT_ROLES, "select_option": frozenset({"combobox", "listbox"}),
    "press": TEXT_ROLES | {"listbox", "option"}}
ID_BYTES = 6  # element ids are counters ("1".."999999"): the bound assumes at most this many digits
MAX_PHRASE_WORDS = 4
MAX_PHRASES = 48


def allowed_elements(obs: Observation, how: str) -> list[str]:
    """Element ids the policy may act on under the filter ``how`` (see the module doc)."""
    if how == "all":
        return sorted(obs.elements)
    out = []
    vw, vh = obs.viewport
    for el in obs.elements.values():
        if el.role not in INTERACTIVE_ROLES:
            continue
        if how == "visible" and not _in_view(el, vw, vh):
            continue
        out.append(el.id)
    return sorted(out, key=lambda i: (len(i), i))


def elements_by_action(obs: Observation, ids: list[str]) -> dict[str, list[str]]:
    """Each element action's ids among ``ids`` (``ROLES_BY_ACTION``; click, hover and the rest: all of them): a
    fill lands on a field, so a policy choosing where to type chooses among the page's few fields, not its ~70
    controls."""
    from halo.env.actions import ELEMENT_ACTIONS

    return {a: [i for i in ids if obs.elements[i].role in ROLES_BY_ACTION[a]] if a in ROLES_BY_ACTION else list(ids)
            for a in ELEMENT_ACTIONS}


def _in_view(el: Element, vw: int, vh: int) -> bool:
    if el.bbox is None:
        return False
    x, y, w, h = el.bbox
    return w > 0 and h > 0 and x < vw and y < vh and x + w > 0 and y + h > 0


def goal_phrases(goal: str, max_chars: int, max_words: int = MAX_PHRASE_WORDS) -> list[str]:
    """Text a ``text: goal`` policy may type: quoted strings of the goal, then its names (``_names``), then word
    spans of 1..``max_words`` words (shortest first), each at most ``max_chars`` long; at most ``MAX_PHRASES``.
    Names come before the spans so that under ``goal_refs`` a recipient's first name is one position whatever the
    goal's wording: with spans first, gomail.send's "Send Kevin Moore ..." put Kevin at #4 and "Write an email to
    Kevin Moore ..." at #7, and the ladder's policies typed wrong values into To (measured, stop 62)."""
    quoted = _quoted(goal)
    words = re.findall(r"[\w@.+\-:/$]+", goal)
    words = [w.strip(".:") for w in words if w.strip(".:")]
    spans = [" ".join(words[i:i + n]) for n in range(1, max_words + 1) for i in range(len(words) - n + 1)]
    out: list[str] = []
    for p in quoted + _names(goal) + spans:
        if p and len(p) <= max_chars and p not in out:
            out.append(p)
        if len(out) >= MAX_PHRASES:
            break
    return out or [goal[:max_chars] or "done"]


def _quoted(goal: str) -> list[str]:
    """The goal's quoted strings ("..." or '...'), in order."""
    return [q for pair in re.findall(r"\"([^\"]+)\"|'([^']+)'", goal) for q in pair if q]


def _names(goal: str) -> list[str]:
    """The goal's names, in order and once each: capitalised words outside its quotes, its first word aside ("Send
    Kevin Moore an email ..." -> Kevin, Moore): with the quoted strings, what a goal most often asks to be typed (a
    recipient, a city)."""
    bare = re.sub(r"\"[^\"]*\"|'[^']*'", " ", goal)
    words = [w.strip(".:,;()") for w in re.findall(r"[\w@.+\-:/$()]+", bare)]
    return list(dict.fromkeys(w for w in words[1:] if re.fullmatch(r"[A-Z][a-z]+", w)))


def ref(i: int) -> str:
    """The ``goal_refs`` name of the goal's ``i``-th phrase (0-based): ``#1``, ``#2``, ..."""
    return f"#{i + 1}"


def resolve_refs(action: Any, obs: Observation, max_chars: int, max_words: int = MAX_PHRASE_WORDS) -> Any:
    """``action`` with each ``goal_refs`` reference it typed (a field's value, typed text, a select's options, the
    final message) replaced by the goal phrase it names; an action without one is returned as it is."""
    import dataclasses

    phrases = goal_phrases(obs.goal, max_chars, max_words)
    names = {ref(i): p for i, p in enumerate(phrases)}
    upd: dict[str, Any] = {}
    for k in ("value", "text"):
        v = getattr(action, k, None)
        if isinstance(v, str) and v in names:
            upd[k] = names[v]
    opts = getattr(action, "options", None)
    if opts:
        upd["options"] = tuple(names.get(o, o) for o in opts)
    return dataclasses.replace(action, **upd) if upd else action


def quoted_choices(obs: Observation, cfg: Any) -> list[str]:
    """The text choices (``text_choices``) that are the goal's quoted strings, as the grammar spells them (a phrase,
    or its ``#n`` under ``goal_refs``): the values a goal most often asks to be typed (an explorer's prior)."""
    if cfg.text == "free":
        return []
    quoted = set(_quoted(obs.goal))
    phrases = goal_phrases(obs.goal, cfg.text_max_chars, cfg.phrase_words)
    return [ref(i) if cfg.text == "goal_refs" else p for i, p in enumerate(phrases) if p in quoted]


_DESCRIBED = re.compile(r"^(\w+)\(('([^']*)')?")  # an Action.describe(): its name and first (element) argument


def acted(obs: Observation) -> list[tuple[str, str]]:
    """Each previous action in ``obs.last_actions`` (oldest first) as (its name, its element id or "")."""
    out = []
    for a in obs.last_actions:
        m = _DESCRIBED.match(a)
        if m:
            out.append((m.group(1), m.group(3) or ""))
    return out


def repeating(obs: Observation) -> bool:
    """Whether the last action repeats one of the few before it (the same action on the same element, or the same
    element-less action): a policy doing again what changed nothing it needed, stuck (``grpo.explore_stuck``). An
    element no longer on the page (``?`` under stable ids) matches nothing."""
    done = acted(obs)
    return len(done) >= 2 and "?" not in done[-1][1] and done[-1] in done[:-1]


OPEN_CHOICES = ("option",)  # roles of a list's entries on show (an autocomplete's suggestions, an open listbox)


def explore_prior(obs: Observation, cfg: Any, novel: bool = False, fill: bool = False) -> dict[str, Any]:
    """An explorer's prior (``explore_values.ValueDraw``'s ``prefer``) over this page's values, as the grammar
    spells them: where a goal's text is still to be typed and what was just opened. ``value``: two tiers (``ValueDraw``
    gives the first half the draws, the second a quarter), the goal's quoted strings no field holds yet, then its
    names no field holds yet (the quoted strings, then the names, once every one is typed somewhere; ``text`` the
    same); ``fill.element``: the fields that are still empty; ``click.element``: the controls the last action brought
    onto the page (a menu, an autocomplete's suggestions) and any list options on show (``OPEN_CHOICES``). A key
    with nothing to prefer is left out (its draw stays uniform).

    ``novel`` (``grpo.explore_novel``) adds what the episode has not tried: ``click.element``'s next tier is the
    page's buttons not yet acted on, one per name (GoMail's inbox offers 69 clicks, 16 of them "Select
    conversation" and 15 "Not starred"; Compose is one of 7 button names), buttons because they do things where
    links go places; and where the policy repeats itself (``repeating``) ``action`` prefers the actions other than
    the one it repeats, go_back aside (it leaves what the episode built: a compose window stuck on Send needs a
    fill).

    ``fill`` (``grpo.explore_fill``) makes ``action`` prefer ``fill`` while the goal quotes a string no field holds
    yet and a field is empty: a ladder's new rung differs from the one below by a field left to type, and an
    explored step drawing click among the page's ~70 controls (Send among them) wastes the draw there (stop 68: an
    episode with a drawn step succeeded 0-15% of the time on a new rung). Quoted strings only: a recipient's name
    half typed into To is finished by picking its suggestion, not by typing. A repeating step (``novel``) still
    prefers the actions other than the one it repeats."""
    out: dict[str, Any] = {}
    pending = False
    done = acted(obs) if novel else []
    quoted = quoted_choices(obs, cfg)
    if cfg.text != "free":
        phrases = goal_phrases(obs.goal, cfg.text_max_chars, cfg.phrase_words)
        refs = {ref(i): p for i, p in enumerate(phrases)} if cfg.text == "goal_refs" else {}
        names = _names(obs.goal)
        named = [c for c, p in (refs.items() if refs else ((p, p) for p in phrases)) if p in names and c not in quoted]
        held = [" ".join((el.value or "").split()).casefold() for el in obs.elements.values() if el.value]

        def untyped(cs: list[str]) -> list[str]:
            return [c for c in cs if not any(" ".join(refs.get(c, c).split()).casefold() in h for h in held)]

        tiers = [untyped(quoted), untyped(named)]
        pending = bool(tiers[0])
        if not any(tiers):  # every one typed somewhere: the quoted strings, then the names, none untyped first
            tiers = [quoted, named]
        if any(tiers):
            out["value"] = out["text"] = tiers
    if obs.elements and (cfg.include_axtree or cfg.elements != "all"):
        ids = allowed_elements(obs, cfg.elements)
        by = elements_by_action(obs, ids) if cfg.element_roles == "by_action" else {
            "fill": [i for i in ids if obs.elements[i].role in ROLES_BY_ACTION["fill"]], "click": ids}
        empty = [i for i in by["fill"] if not (obs.elements[i].value or "").strip()]
        if empty:
            out["fill.element"] = empty
            if fill and pending and "fill" in (cfg.actions or ()):
                out["action"] = ["fill"]
        # what the page asks to choose now: the controls the last action brought onto it, and a list's options
        # showing (a page that opens with an autocomplete's suggestions up has no last action to have brought them)
        new = [i for i in by.get("click", ()) if i in obs.appeared or obs.elements[i].role in OPEN_CHOICES]
        tiers = [new]
        if novel:
            used = {e for _, e in done}
            names: set[str] = set()
            buttons = []
            for i in by.get("click", ()):
                name = " ".join((obs.elements[i].name or "").split()).casefold()
                if obs.elements[i].role == "button" and i not in used and name not in names:
                    names.add(name)
                    buttons.append(i)
            tiers.append(buttons)
        if any(tiers):
            out["click.element"] = tiers if novel else new
    if novel and repeating(obs) and cfg.actions:
        fresh = [a for a in cfg.actions if a not in (done[-1][0], "go_back")]
        if fresh:
            out["action"] = fresh
    return out


def text_choices(obs: Observation, source: str, max_chars: int, max_words: int = MAX_PHRASE_WORDS) -> list[str]:
    """What a text argument may be under ``text: goal`` (the goal's phrases) or ``goal+page`` (then the names of the
    page's visible controls, each at most ``max_chars`` long; at most ``MAX_PHRASES`` more)."""
    out = goal_phrases(obs.goal, max_chars, max_words)
    if source == "goal_refs":
        return [ref(i) for i in range(len(out))]
    if source == "goal+page":
        seen = set(out)
        vw, vh = obs.viewport
        extra = 0
        for el in sorted(obs.elements.values(), key=lambda e: (len(e.id), e.id)):
            name = " ".join((el.name or "").split())
            if (name and len(name) <= max_chars and name not in seen and el.role in INTERACTIVE_ROLES
                    and _in_view(el, vw, vh)):
                seen.add(name)
                out.append(name)
                extra += 1
                if extra >= MAX_PHRASES:
                    break
    return out


def page_schema(obs: Observation | None, cfg: Any) -> dict[str, Any]:
    """The action schema for this page under the prompt config ``cfg`` (what the grammar holds a reply to).
    ``obs=None`` gives the page-independent schema (the prompt's tool list, the start-up bound)."""
    from halo.policy.grammar import action_json_schema

    ids: list[str] | dict[str, list[str]] | None = None
    if obs is not None and (cfg.include_axtree or cfg.elements != "all"):
        ids = allowed_elements(obs, cfg.elements)
        if cfg.element_roles == "by_action":
            ids = elements_by_action(obs, ids)
    text = None
    if cfg.text != "free" and obs is not None:
        text = text_choices(obs, cfg.text, cfg.text_max_chars, cfg.phrase_words)
    include = cfg.include_axtree or cfg.elements != "all"
    actions = cfg.actions
    if obs is not None and not obs.can_go_back and actions and len(actions) > 1:
        actions = tuple(a for a in actions if a != "go_back") or actions  # it could only fail here
    return action_json_schema(include_elements=include, element_ids=ids, actions=actions,
                              text_choices=text, text_max=cfg.text_max_chars, single_tool=cfg.single_tool)


def max_reply_bytes(schema: dict[str, Any]) -> int:
    """An upper bound on the UTF-8 bytes of any reply the grammar allows: ``<tool_call>\\n`` + compact JSON + close.

    Strings of free text count 6 bytes per character (a JSON escape), element-id strings ``ID_BYTES``."""
    from halo.policy.grammar import TOOL_CALL_CLOSE, TOOL_CALL_OPEN

    return len(TOOL_CALL_OPEN.encode()) + _bound(schema) + len(TOOL_CALL_CLOSE.encode())


def _bound(s: dict[str, Any]) -> int:
    if "anyOf" in s:
        return max(_bound(x) for x in s["anyOf"])
    if "const" in s:
        return len(json.dumps(s["const"], ensure_ascii=False).encode())
    if "enum" in s:
        return max(len(json.dumps(v, ensure_ascii=False).encode()) for v in s["enum"])
    t = s.get("type")
    if t == "object":
        props = s.get("properties", {})
        # every property present: {"k":v,"k2":v2}
        return 2 + sum(len(json.dumps(k).encode()) + 1 + _bound(v) for k, v in props.items()) + max(0, len(props) - 1)
    if t == "array":
        n = s.get("maxItems", 8)
        return 2 + n * _bound(s.get("items", {})) + max(0, n - 1)
    if t == "integer":
        lo, hi = s.get("minimum", -10 ** 9), s.get("maximum", 10 ** 9)
        return max(len(str(lo)), len(str(hi)))
    if t == "string":
        return 2 + 6 * int(s.get("maxLength", 2000))
    return 16


def bound_schema(cfg: Any) -> dict[str, Any]:
    """The page-independent schema with placeholders sized as the bound assumes (ids, goal phrases)."""
    from halo.policy.grammar import action_json_schema

    include = cfg.include_axtree or cfg.elements != "all"
    text = None if cfg.text == "free" else [ref(MAX_PHRASES - 1)] if cfg.text == "goal_refs" else \
        ["x" * cfg.text_max_chars]
    return action_json_schema(include_elements=include, element_ids=["9" * ID_BYTES] if include else None,
                              actions=cfg.actions, text_choices=text, text_max=cfg.text_max_chars,
                              single_tool=cfg.single_tool)


def check_fits(cfg: Any, max_tokens: int) -> int:
    """Raise ``ValueError`` if a constrained reply could exceed ``max_tokens``; returns the bound."""
    need = max_reply_bytes(bound_schema(cfg))
    if need > max_tokens:
        raise ValueError(f"constrained replies can reach {need} tokens but max_tokens is {max_tokens}: raise "
                         f"max_tokens to >= {need}, or narrow the action space (prompt.actions, text_max_chars)")
    return need
