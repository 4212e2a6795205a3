"""Line charts as inline SVG for ``report.html``: every point is a link (to its iteration's episodes in the viewer)
with its value on hover. No plotting library: the page is text, small, and works offline."""

from __future__ import annotations

import html
import math
from typing import Callable, Sequence

W, H, L, R, T, B = 420, 230, 52, 12, 26, 34
COLOURS = ("#1a73e8", "#e8710a", "#188038", "#d93025", "#9334e6", "#12b5cb", "#f9ab00", "#5f6368")


def _fmt(v: float) -> str:
    a = abs(v)
    return f"{v:.2e}" if (a and (a < 1e-3 or a >= 1e5)) else f"{v:.4g}"


def _ticks(lo: float, hi: float, n: int = 4) -> list[float]:
    if hi <= lo:
        return [lo]
    step = 10 ** math.floor(math.log10((hi - lo) / n))
    for m in (1, 2, 5, 10):
        if (hi - lo) / (step * m) <= n:
            step *= m
            break
    start = math.ceil(lo / step) * step
    return [start + i * step for i in range(int((hi - start) / step + 1e-9) + 1)]


def line_chart(title: str, series: dict[str, Sequence[tuple[float, float]]],
               link: Callable[[float], str] | None = None, band: Sequence[tuple[float, float, float]] = (),
               y_range: tuple[float, float] | None = None) -> str:
    """An SVG chart of ``series`` (name -> (x, y) points); ``link(x)`` makes each point a link; ``band`` draws
    (x, low, high) shading under the first series."""
    pts = [p for s in series.values() for p in s if math.isfinite(p[1])]
    if not pts:
        return ""
    xs, ys = [p[0] for p in pts], [p[1] for p in pts] + [v for _, lo, hi in band for v in (lo, hi)]
    x0, x1 = min(xs), max(xs)
    y0, y1 = y_range or (min(ys), max(ys))
    if y1 - y0 < 1e-12:
        y0, y1 = y0 - 0.5 if y0 else -0.5, y1 + 0.5 if y1 else 0.5
    pad = (y1 - y0) * 0.06
    y0, y1 = y0 - pad, y1 + pad

    def sx(x: float) -> float:
        return L + (W - L - R) * ((x - x0) / (x1 - x0) if x1 > x0 else 0.5)

    def sy(y: float) -> float:
        return T + (H - T - B) * (1 - (y - y0) / (y1 - y0))

    out = [f'<svg class="chart" width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img">',
           f'<text x="{W / 2}" y="16" text-anchor="middle" font-size="12" font-weight="600">'
           f'{html.escape(title)}</text>']
    for t in _ticks(y0, y1):
        out.append(f'<line x1="{L}" x2="{W - R}" y1="{sy(t):.1f}" y2="{sy(t):.1f}" stroke="#eee"/>'
                   f'<text x="{L - 4}" y="{sy(t) + 3:.1f}" text-anchor="end" font-size="9">{_fmt(t)}</text>')
    for t in _ticks(x0, x1, 6):
        if abs(t - round(t)) < 1e-9:
            out.append(f'<text x="{sx(t):.1f}" y="{H - B + 13}" text-anchor="middle" font-size="9">{int(t)}</text>')
    out.append(f'<text x="{(L + W - R) / 2}" y="{H - 6}" text-anchor="middle" font-size="9" fill="#5f6368">'
               f'iteration{" (click a point for its episodes)" if link else ""}</text>')
    out.append(f'<rect x="{L}" y="{T}" width="{W - L - R}" height="{H - T - B}" fill="none" stroke="#ccc"/>')
    if band:
        poly = [(sx(x), sy(hi)) for x, _, hi in band] + [(sx(x), sy(lo)) for x, lo, _ in reversed(band)]
        out.append('<polygon fill="#1a73e8" fill-opacity="0.13" points="' +
                   " ".join(f"{x:.1f},{y:.1f}" for x, y in poly) + '"/>')
    for i, (name, s) in enumerate(series.items()):
        c = COLOURS[i % len(COLOURS)]
        s = [p for p in s if math.isfinite(p[1])]
        out.append(f'<polyline fill="none" stroke="{c}" stroke-width="1.6" points="' +
                   " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in s) + '"/>')
        for x, y in s:
            dot = (f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3.2" fill="{c}"><title>{html.escape(name)} '
                   f'iteration {x:g}: {_fmt(y)}</title></circle>')
            out.append(f'<a href="{html.escape(link(x))}">{dot}</a>' if link else dot)
        if len(series) > 1:
            out.append(f'<text x="{L + 6 + 110 * (i % 3)}" y="{T + 12 + 11 * (i // 3)}" font-size="9" fill="{c}">'
                       f'{html.escape(name)}</text>')
    out.append("</svg>")
    return "".join(out)
