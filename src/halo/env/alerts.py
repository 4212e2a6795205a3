"""The page's alerts: what a site says when it refuses an action ("Please specify at least one recipient.").

A form that refuses a click writes its reason into a ``role=alert`` region. The observation's tree keeps it (the
region's line, its text as ``StaticText`` lines under it), but a prompt that shows only the controls drops it, and
then a refused Send looks like any other click. ``page_alerts`` reads the texts back so the prompt can show them
(``prompt.alerts``) and the rewards can charge for them (``rewards.shaping.alert``).
"""

from __future__ import annotations

import json
import re

from halo.env.types import Observation

ALERT_ROLES = ("alert", "alertdialog")
# a tree line: indent, optional [id], role, optional quoted name (observe.js writes names with JSON's quoting)
_LINE = re.compile(r'^(?P<indent> *)(?:\[[^\]]*\] +)?(?P<role>[\w-]+)(?: +(?P<name>"(?:[^"\\]|\\.)*"))?')
MAX_ALERT_CHARS = 120  # one alert's text, cut: a prompt line, not a page


def _unquote(q: str) -> str:
    try:
        return json.loads(q)
    except ValueError:
        return q.strip('"')


def page_alerts(obs: Observation) -> tuple[str, ...]:
    """The texts of the page's non-empty alerts, in page order: each alert's name, else the text and headings under
    it (its buttons' names are not what it says)."""
    out: list[str] = []
    lines = (obs.axtree or "").splitlines()
    for i, line in enumerate(lines):
        m = _LINE.match(line)
        if not m or m["role"] not in ALERT_ROLES:
            continue
        parts = [_unquote(m["name"])] if m["name"] else []
        if not parts:
            depth = len(m["indent"])
            for sub in lines[i + 1:]:
                s = _LINE.match(sub)
                if not s or len(s["indent"]) <= depth:
                    break
                if s["role"] in ("StaticText", "heading") and s["name"]:
                    parts.append(_unquote(s["name"]))
        text = " ".join(p.strip() for p in parts if p.strip())
        if text:
            out.append(text[:MAX_ALERT_CHARS])
    return tuple(out)
