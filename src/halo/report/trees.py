"""Search trees of an MCTS run (``trees/*.json``) as SVG pictures for ``report.html``.

Each node is drawn at its depth (rows) over its subtree's leaves (columns): its size grows with its visits, its colour
goes from red (low Q) to green (high Q), terminal states are squares (a green ring: success), the path the search
took is drawn thick. Hovering a node names its action, visits and Q; clicking it shows its screenshot beside.
"""

from __future__ import annotations

import html
import json
import math
from pathlib import Path
from typing import Any

MAX_TREES = 12  # the latest ones: the page stays small
DX, DY, PAD = 26, 62, 18


def _layout(nodes: list[dict[str, Any]]) -> dict[int, tuple[float, float]]:
    """Columns by subtree leaves, the path taken leftmost at every node: a wide tree (64 candidates a node) opens in
    its scroll box on the path, not on the siblings it passed over."""
    kids: dict[Any, list[int]] = {}
    for n in sorted(nodes, key=lambda n: not n.get("best")):  # stable: the path's child first, then as recorded
        kids.setdefault(n["parent"], []).append(n["id"])
    pos: dict[int, tuple[float, float]] = {}
    col = [0]

    def place(i: int, depth: int) -> float:
        ch = kids.get(i, [])
        x = (sum(place(c, depth + 1) for c in ch) / len(ch)) if ch else col[0]
        if not ch:
            col[0] += 1
        pos[i] = (x, depth)
        return x

    for r in kids.get(None, []):
        place(r, 0)
    return pos


def _colour(q: float | None, lo: float, hi: float) -> str:
    if q is None:
        return "#9aa0a6"
    t = 0.5 if hi <= lo else (q - lo) / (hi - lo)
    return f"rgb({int(217 - 170 * t)},{int(48 + 120 * t)},{int(37 + 30 * t)})"


def tree_svg(rec: dict[str, Any], key: str) -> str:
    nodes = rec["nodes"]
    pos = _layout(nodes)
    by = {n["id"]: n for n in nodes}
    qs = [n["q"] for n in nodes if n["q"] is not None]
    lo, hi = (min(qs), max(qs)) if qs else (0.0, 1.0)
    vmax = max([n["visits"] or 0 for n in nodes] + [1])
    w = PAD * 2 + DX * max(1, max((x for x, _ in pos.values()), default=0) + 1)
    h = PAD * 2 + DY * (max((d for _, d in pos.values()), default=0) + 1)
    # scaled down to its box's width: a root with 64 children is ~1,600 px wide and would sit scrolled out of view
    out = [(f'<svg class="tree" width="{w:.0f}" height="{h:.0f}" viewBox="0 0 {w:.0f} {h:.0f}" '
            f'style="max-width:100%;height:auto">')]
    for n in nodes:
        if n["parent"] is None:
            continue
        (x1, y1), (x2, y2) = pos[n["parent"]], pos[n["id"]]
        best = n["best"]
        out.append(f'<line x1="{PAD + x1 * DX:.1f}" y1="{PAD + y1 * DY:.1f}" x2="{PAD + x2 * DX:.1f}" '
                   f'y2="{PAD + y2 * DY:.1f}" stroke="{"#f29900" if best else "#bdc1c6"}" '
                   f'stroke-width="{4 if best else 1.2}"/>')
    for n in nodes:
        x, y = pos[n["id"]]
        cx, cy = PAD + x * DX, PAD + y * DY
        r = 4 + 7 * math.sqrt((n["visits"] or 0) / vmax)
        tip = (f'{n["action"] or "root"} | visits {n["visits"]} | Q {n["q"]} (search {n["q_mcts"]}, critic '
               f'{n["critic"]}) | reward {n["reward"]} | {n["url"]}' + (" | SUCCESS" if n["success"] else "") +
               (" | terminal" if n["terminal"] else ""))
        shot = html.escape(f"trees/{n['screenshot']}") if n.get("screenshot") else ""
        attrs = (f'fill="{_colour(n["q"], lo, hi)}" stroke="{"#188038" if n["success"] else "#202124"}" '
                 f'stroke-width="{3 if n["success"] else 0.8}" data-shot="{shot}" data-tip="{html.escape(tip)}" '
                 f'onclick="haloShot(this, \'{key}\')"')
        shape = (f'<rect x="{cx - r:.1f}" y="{cy - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" {attrs}>'
                 if n["terminal"] else f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" {attrs}>')
        out.append(shape + f"<title>{html.escape(tip)}</title>" + ("</rect>" if n["terminal"] else "</circle>"))
        if n["visits"]:
            out.append(f'<text x="{cx:.1f}" y="{cy + r + 10:.1f}" font-size="8" text-anchor="middle">'
                       f'{n["visits"]}</text>')
    out.append("</svg>")
    return "".join(out)


SCRIPT = """<script>
function haloShot(el, key) {
  var box = document.getElementById('shot-' + key);
  box.querySelector('.tip').textContent = el.getAttribute('data-tip');
  var img = box.querySelector('img'), src = el.getAttribute('data-shot');
  if (src) { img.src = src; img.hidden = false; } else { img.hidden = true; }
}
</script>"""


def render_trees(run_path: Path) -> str:
    """HTML of the run's latest search trees (empty when the run has none)."""
    files = sorted((run_path / "trees").glob("*.json"))[-MAX_TREES:]
    parts = []
    for f in files:
        try:
            rec = json.loads(f.read_text())
        except ValueError:
            continue  # a file cut by a kill
        key = html.escape(f.stem)
        path_actions = " → ".join(html.escape(n["action"]) for n in sorted(
            (n for n in rec["nodes"] if n["best"]), key=lambda n: n["step"]))
        parts.append(
            f'<div class="treebox"><h3>{key} · {html.escape(rec["task_id"])} · '
            f'{"SUCCESS" if rec["success"] else "no success"}</h3><div class="muted">{len(rec["nodes"])} nodes · '
            f'{rec["simulations"]} simulations · {rec["env_steps"]} env steps · {rec["restores"]} restores '
            f'({rec["restore_s"]:.1f} s) · {rec["wall_s"]:.1f} s · successes found {rec["successes_found"]}'
            f'<br>path: {path_actions or "(none)"}</div>'
            f'<div style="display:flex;gap:12px;align-items:flex-start"><div style="overflow:auto;max-width:70%">'
            f'{tree_svg(rec, key)}</div><div id="shot-{key}" style="max-width:30%"><div class="tip muted">click a '
            f'node for its screenshot</div><img hidden style="max-width:100%;border:1px solid #ccc"></div></div>'
            f'</div>')
    return (SCRIPT + "".join(parts)) if parts else ""
