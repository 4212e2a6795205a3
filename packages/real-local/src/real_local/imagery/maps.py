"""Street maps as ride apps draw them (Uber's light map style): ``route_map_image(points, w, h)`` draws city blocks
on a pale ground, a park, the bay along two edges, arterials wider and lighter than side streets, and, when
``points`` holds a pickup and a drop-off (fractions of the map, 0..1), the route between them along the street grid
as a black line, the pickup a black ring and the drop-off a black square. Uncached; ``cache.route_map`` encodes and
caches it. The same points give the same bytes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw

SS = 2  # drawn at twice the size, then reduced: anti-aliased lines
GROUND = (236, 236, 232)
BLOCK = (226, 226, 221)
STREET = (255, 255, 255)
ARTERIAL = (252, 244, 214)
WATER = (170, 205, 230)
PARK = (200, 229, 196)
GRID = 0.045  # street spacing, a fraction of the map's width


def _snap(v: float, step: float) -> float:
    return round(v / step) * step


def route_map_image(points: Sequence[tuple[float, float]] = (), w: int = 640, h: int = 320) -> Image.Image:
    """A street map (uncached), ``w`` x ``h``; with two ``points`` (pickup, drop-off as 0..1 fractions of the map),
    the route between them."""
    W, H = w * SS, h * SS
    im = Image.new("RGB", (W, H), GROUND)
    d = ImageDraw.Draw(im)
    step = GRID * W
    # blocks between the streets (a slight rotation of the grid would need masks; a grid reads as a city map)
    for x in np.arange(0, W + step, step):
        for y in np.arange(0, H + step, step):
            d.rectangle([x + step * 0.12, y + step * 0.12, x + step * 0.88, y + step * 0.88], fill=BLOCK)
    # the bay along the top and right, a park (a long one, as Golden Gate Park)
    d.polygon([(W * 0.72, 0), (W, 0), (W, H * 0.62), (W * 0.93, H * 0.45), (W * 0.88, H * 0.18)], fill=WATER)
    d.polygon([(0, 0), (W * 0.3, 0), (W * 0.22, H * 0.07), (0, H * 0.1)], fill=WATER)
    # side streets, then arterials (a diagonal one, as Market Street)
    for x in np.arange(0, W, step):
        d.line([(x, 0), (x, H)], fill=STREET, width=max(2, int(step * 0.14)))
    for y in np.arange(0, H, step):
        d.line([(0, y), (W, y)], fill=STREET, width=max(2, int(step * 0.14)))
    for x in (W * 0.2, W * 0.47, W * 0.74):
        d.line([(_snap(x, step), 0), (_snap(x, step), H)], fill=ARTERIAL, width=int(step * 0.34))
    for y in (H * 0.3, H * 0.78):
        d.line([(0, _snap(y, step)), (W, _snap(y, step))], fill=ARTERIAL, width=int(step * 0.34))
    d.line([(W * 0.35, H * 1.0), (W * 0.86, H * 0.12)], fill=ARTERIAL, width=int(step * 0.38))
    d.rectangle([W * 0.04, H * 0.55, W * 0.3, H * 0.66], fill=PARK)
    d.ellipse([W * 0.55, H * 0.7, W * 0.63, H * 0.84], fill=PARK)
    # the bay's edge over the streets again, so streets end at the water
    d.polygon([(W * 0.74, 0), (W, 0), (W, H * 0.6), (W * 0.94, H * 0.44), (W * 0.9, H * 0.17)], fill=WATER)
    if len(points) >= 2:
        (ax, ay), (bx, by) = points[0], points[1]
        a = (_snap(ax * W, step), _snap(ay * H, step))
        b = (_snap(bx * W, step), _snap(by * H, step))
        mid = (b[0], a[1]) if abs(b[0] - a[0]) > abs(b[1] - a[1]) else (a[0], b[1])
        path = [a, mid, b]
        lw = max(4, int(W * 0.009))
        d.line(path, fill=(255, 255, 255), width=lw + 6, joint="curve")
        d.line(path, fill=(0, 0, 0), width=lw, joint="curve")
        r = lw * 2.2
        d.ellipse([a[0] - r, a[1] - r, a[0] + r, a[1] + r], fill=(0, 0, 0))
        d.ellipse([a[0] - r * 0.45, a[1] - r * 0.45, a[0] + r * 0.45, a[1] + r * 0.45], fill=(255, 255, 255))
        d.rectangle([b[0] - r, b[1] - r, b[0] + r, b[1] + r], fill=(0, 0, 0))
        d.rectangle([b[0] - r * 0.4, b[1] - r * 0.4, b[0] + r * 0.4, b[1] + r * 0.4], fill=(255, 255, 255))
    elif len(points) == 1:
        (ax, ay), = points
        a = (ax * W, ay * H)
        r = W * 0.02
        d.ellipse([a[0] - r * 2.5, a[1] - r * 2.5, a[0] + r * 2.5, a[1] + r * 2.5], fill=(205, 220, 240))
        d.ellipse([a[0] - r, a[1] - r, a[0] + r, a[1] + r], fill=(39, 110, 241), outline=(255, 255, 255),
                  width=int(r * 0.35))
    return im.resize((w, h), Image.LANCZOS)


__all__ = ["route_map_image"]
