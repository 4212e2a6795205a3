"""Exploration over whole values: an explored reply draws each argument uniformly among the values the page allows.

GRPO's uniform exploration (``grpo.explore``) draws a constrained reply's tokens uniformly among those the grammar
allows. Token by token, a value spelt in several tokens is drawn far from uniformly: Qwen's tokenizer spells an
element id digit by digit, so on a page with ids 1-189 ``"186"`` comes out about once in 1,000 draws of a click
(1/9, then 1/11, then 1/10) while ``"8"`` comes out once in 9, and GoMail's Send button is practically never tried
(the tiny model's own tokenizer spells most ids in one token: there the two draws nearly agree on ids). ``explore_unit: value`` draws, in
an explored reply, each enumerated argument whole: the action uniformly among the page's actions, then the element
uniformly among the ids that action may take, then the text (a goal phrase) uniformly among the choices; the
reply's tokens are then the ones that spell those values. Free text and numbers stay token-uniform. The policy's own
logprobs of the tokens drawn are kept as for any explored reply (``hf_backend._Explore``).

Typed text is drawn half the time among the goal's quoted strings (``prefer``) and otherwise among all its phrases:
a goal quotes what is to be typed (a subject, a message, a title), and among a goal's ~25 phrases its two or three
quoted ones would otherwise come up once in ten draws; every phrase keeps a chance of at least 1 / (2 x phrases).
The same share goes, where the page has them, to the quoted strings not yet typed into any field (then a quarter to
the goal's names not yet typed: a recipient), to the fields still empty (a fill's element) and to the controls the
last action brought onto the page and a list's options on show (a click's element: an autocomplete's suggestions):
``action_space.explore_prior``.
Measured (4,000 explored replies each, real pages): on gomail.send_subject's page once the message is typed, the
reply that types the subject into its field 7.4% (the quoted-string prior alone 3.5%, uniform 0.8%); on
gomail.send_address's, typing the recipient's name into To 3.2% (0.6%, 1.2%) and then clicking the suggestion it
brings 13.9% (0.5%, 0.5%)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

TEXT_KEYS = ("value", "text")  # the arguments that hold typed text (grammar.ACTION_ARGS): where ``prefer`` applies
_DONE = re.compile(r'"(\w+)"\s*:\s*"((?:[^"\\]|\\.)*)"')  # a string value written whole
_OPEN = re.compile(r'"(\w+)"\s*:\s*"((?:[^"\\]|\\.)*)$')  # the string value being written, at the end


def branches(schema: dict[str, Any]) -> list[dict[str, list[str] | None]]:
    """Each alternative of a tool-call schema (``grammar.action_json_schema``) as ``{key: its values}``: a const or
    an enum gives its strings, a free string ``None``; nested objects (``arguments``) are flattened."""
    def walk(node: dict[str, Any], out: dict[str, list[str] | None]) -> None:
        for key, prop in (node.get("properties") or {}).items():
            if "const" in prop:
                out[key] = [str(prop["const"])]
            elif "enum" in prop:
                out[key] = [str(v) for v in prop["enum"]]
            elif prop.get("type") == "object":
                walk(prop, out)
            elif prop.get("type") == "string":
                out[key] = None
    out = []
    for alt in schema.get("anyOf", [schema]):
        flat: dict[str, list[str] | None] = {}
        walk(alt, flat)
        out.append(flat)
    return out


def _tiers(values: Sequence[str] | Sequence[Sequence[str]]) -> list[Sequence[str]]:
    """A prior's values as tiers: a flat list of strings is one."""
    return [values] if all(isinstance(v, str) for v in values) else list(values)  # type: ignore[list-item]


def _escaped(value: str) -> str:
    """A value as the reply's JSON spells it inside its quotes."""
    return json.dumps(value, ensure_ascii=False)[1:-1]


class ValueDraw:
    """One explored reply's draws: the value each enumerated key takes (drawn on first need, uniformly among the
    values the schema's alternatives still allow after the keys already written), and the token that spells on."""

    def __init__(self, schema: dict[str, Any], rng: random.Random,
                 prefer: Sequence[str] | Mapping[str, Sequence[str]] = (), prefer_share: float = 0.5) -> None:
        self.alts = branches(schema)
        self.rng = rng
        self.drawn: dict[str, str] = {}
        # values drawn with probability prefer_share among those of them a key allows: per key (``value``), or per
        # action and key (``fill.element``: action_space.explore_prior); a plain list is typed text's (quoted strings).
        # A key's values may come in tiers (a list of lists): the first gets prefer_share, the next half that, ...
        if not isinstance(prefer, Mapping):
            prefer = {k: prefer for k in TEXT_KEYS}
        self.prefer = {k: [frozenset(t) for t in _tiers(v) if t] for k, v in prefer.items() if v}
        self.prefer_share = prefer_share

    def _values(self, key: str, written: dict[str, str]) -> list[str] | None:
        """The values ``key`` may take given what the reply wrote already (None: free text, or not enumerated)."""
        vals: list[str] = []
        for alt in self.alts:
            if key not in alt or alt[key] is None:
                continue
            if all(alt.get(k) is None or v in alt[k] for k, v in written.items() if k != key and k in alt):
                vals += [v for v in alt[key] if v not in vals]
        return vals or None

    def token(self, text: str, allowed: Sequence[int], decode: Callable[[int], str]) -> int | None:
        """The token, among ``allowed``, that spells on the drawn value of the string being written at the end of
        ``text`` (the reply so far); None where no enumerated value is being written (the caller draws as before)."""
        m = _OPEN.search(text)
        if m is None:
            return None
        key, part = m.group(1), m.group(2)
        written = {k: json.loads(f'"{v}"') for k, v in _DONE.findall(text[:m.start()])}
        values = self._values(key, written)
        if values is None:
            return None
        target = self.drawn.get(key)
        if target is None or not _escaped(target).startswith(part):
            fits = [v for v in values if _escaped(v).startswith(part)]
            if not fits:
                return None
            tiers = self.prefer.get(f"{written.get('action')}.{key}", self.prefer.get(key, []))
            pool, r, share = fits, self.rng.random(), self.prefer_share
            for tier in tiers:  # each tier that narrows the draw takes prefer_share of what is left
                liked = [v for v in fits if v in tier]
                if not liked or len(liked) == len(fits):
                    continue
                if r < share:
                    pool = liked
                    break
                r -= share
                share /= 2
            target = self.drawn[key] = self.rng.choice(pool)
        rest = _escaped(target)[len(part):] + '"'
        best, best_len, over = None, 0, None
        for t in allowed:
            s = decode(t)
            if s and rest.startswith(s) and len(s) > best_len:
                best, best_len = t, len(s)
            elif s and over is None and s.startswith(rest):  # the closing quote and what the grammar puts after it
                over = t
        return best if best is not None else over
