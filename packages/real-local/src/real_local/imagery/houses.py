"""Street-side photos of homes: ``house_image`` (uncached; ``cache.house_photo`` encodes and caches) in one of
``HOUSE_STYLES``."""

from __future__ import annotations

from typing import Any

import numpy as np
from PIL import Image

from real_local.imagery.canvas import Canvas, _blur, hsv, rgb, rng_for, shift

HOUSE_STYLES = ("house", "townhouse", "condo")

_SIDING = ("#f2efe8", "#e8e2d4", "#d9d4c7", "#c9ccc9", "#b8c4cc", "#8fa3b0", "#6f7f8c", "#e6d9b8", "#c8b89a",
           "#9c6b53", "#a4513c", "#7d8471", "#f5f2ec", "#d8c3a5", "#556070")
_ROOF = ("#3b3b3d", "#4a4642", "#5a4a3e", "#2f3338", "#6b5446", "#7a3b2e", "#50565c")


def house_image(seed: Any, w: int = 640, h: int = 420, style: str | None = None) -> Image.Image:
    """A street-side photo of a home (uncached): sky, trees, lawn and driveway, the house with shaded siding,
    roof, windows with reflections, a door, shrubs, and a soft shadow under the eaves."""
    rng = rng_for("house", seed)
    style = style or str(rng.choice(HOUSE_STYLES, p=[0.6, 0.2, 0.2]))
    c = Canvas(w, h, rng, light=(float(rng.uniform(-0.8, 0.8)), -0.7))
    aspect = w / h
    # sky: a blue gradient (a grey one when overcast), soft clouds
    overcast = rng.random() < 0.2
    sky_top = hsv(rng.uniform(0.55, 0.6), 0.12 if overcast else rng.uniform(0.35, 0.6), rng.uniform(0.75, 0.92))
    sky_low = hsv(rng.uniform(0.55, 0.6), 0.05 if overcast else rng.uniform(0.1, 0.25), rng.uniform(0.9, 0.98))
    horizon = float(rng.uniform(0.5, 0.6))
    c.gradient(sky_top, sky_low, 0, horizon)
    for _ in range(int(rng.integers(2, 7))):
        cx, cy = rng.uniform(0, 1), rng.uniform(0.03, horizon * 0.6)
        rx, ry = rng.uniform(0.05, 0.16), rng.uniform(0.02, 0.05) * aspect
        cloud = _blur(c.mask_ellipse(cx, cy, rx, ry), rx * c.w * 0.35)
        c.blend(np.ones(3, np.float32)[None, None, :], cloud * rng.uniform(0.4, 0.85))
    # distant trees along the horizon
    tree_band = np.zeros((c.h, c.w), np.float32)
    for _ in range(int(rng.integers(10, 22))):
        x, r = rng.uniform(-0.05, 1.05), rng.uniform(0.04, 0.1)
        tree_band = np.maximum(tree_band, c.mask_ellipse(x, horizon - r * aspect * 0.5, r, r * aspect * 0.9))
    c.paint(tree_band, hsv(rng.uniform(0.22, 0.33), rng.uniform(0.35, 0.6), rng.uniform(0.25, 0.42)), round=0.02,
            gloss=0.05, texture=0.08, light=0.2)
    # lawn with mower stripes, a driveway and a walk
    lawn = c.mask_rect(0, horizon, 1, 1)
    grass = hsv(rng.uniform(0.2, 0.3), rng.uniform(0.4, 0.65), rng.uniform(0.42, 0.6))
    c.gradient(shift(grass, -0.08), shift(grass, 0.06), horizon, 1, mask=lawn)
    n = c.noise(0.012, 0.0)
    stripes = (0.04 * np.sign(np.sin(c.xx * 18 + c.yy * 6)) + 0.06 * n)[..., None]
    c.px[:] = c.px * (1 - lawn[..., None]) + c.px * (1 + stripes) * lawn[..., None]
    # the house
    siding = rgb(_SIDING[int(rng.integers(len(_SIDING)))])
    roof = rgb(_ROOF[int(rng.integers(len(_ROOF)))])
    trim = np.array([0.96, 0.96, 0.94], np.float32) if siding.mean() < 0.85 else rgb("#4a4a48")
    base = horizon + float(rng.uniform(0.12, 0.18))
    if style == "condo":
        floors, x0, x1 = int(rng.integers(3, 6)), float(rng.uniform(0.12, 0.2)), float(rng.uniform(0.8, 0.88))
    elif style == "townhouse":
        floors, x0, x1 = int(rng.integers(2, 4)), float(rng.uniform(0.08, 0.14)), float(rng.uniform(0.86, 0.92))
    else:
        floors, x0, x1 = int(rng.integers(1, 3)), float(rng.uniform(0.14, 0.28)), float(rng.uniform(0.72, 0.86))
    fh = float(rng.uniform(0.14, 0.17)) if style == "house" else float(min(0.16, 0.62 / floors))
    top = base - floors * fh
    drive = c.mask_poly([(x1 - 0.2, base), (x1 - 0.02, base), (x1 + 0.12, 1.0), (x1 - 0.3, 1.0)])
    c.paint(drive, (0.66, 0.65, 0.63), round=0.0, gloss=0.0, light=0.1, texture=0.04)
    c.shadow((x0 + x1) / 2, base + 0.005, (x1 - x0) * 0.56, 0.02, 0.45, 0.012)
    body = c.mask_rect(x0, top, x1, base)
    c.paint(body, siding, round=0.0, gloss=0.05, light=0.15, texture=0.015)
    if style != "condo" and rng.random() < 0.7:  # lap siding
        lines = c.mask_lines([((x0, y), (x1, y)) for y in np.arange(top + 0.012, base, 0.012)])
        c.darken(lines * body, 0.12)
    units = 1 if style == "house" else int(rng.integers(2, 4)) if style == "townhouse" else 1
    if style == "townhouse":
        for u in range(1, units):
            xs = x0 + (x1 - x0) * u / units
            c.fill(c.mask_rect(xs - 0.004, top, xs + 0.004, base), shift(siding, -0.15))
    # roof: a gable (house), gables per unit (townhouse), or a flat parapet (condo)
    eave = 0.03
    if style == "condo":
        c.paint(c.mask_rect(x0 - 0.01, top - 0.03, x1 + 0.01, top + 0.005), shift(siding, -0.2), round=0.0,
                gloss=0.05, light=0.2)
    else:
        uw = (x1 - x0) / units
        for u in range(units):
            a, b = x0 + u * uw, x0 + (u + 1) * uw
            peak = top - float(rng.uniform(0.12, 0.2))
            rm = c.mask_poly([(a - eave, top + 0.01), ((a + b) / 2, peak), (b + eave, top + 0.01)])
            c.paint(rm, roof, round=0.0, gloss=0.05, light=0.35, texture=0.05)
            sh = c.mask_lines([((a - eave, y), (b + eave, y)) for y in np.arange(peak + 0.02, top + 0.01, 0.018)])
            c.darken(sh * rm, 0.15)
            c.darken(c.mask_rect(a - eave, top + 0.01, b + eave, top + 0.035), 0.3, 0.01)
    # windows, doors, garage
    win_w = float(rng.uniform(0.045, 0.07))
    for f in range(floors):
        y0 = top + f * fh + fh * 0.22
        y1 = y0 + fh * 0.5
        n_win = max(2, int((x1 - x0) / (win_w * 2.6)))
        for k in range(n_win):
            cx = x0 + (x1 - x0) * (k + 0.5) / n_win
            if f == floors - 1 and style != "condo" and abs(cx - (x0 + (x1 - x0) * 0.35)) < win_w * 1.3:
                continue  # the door goes here
            if style == "house" and f == floors - 1 and cx > x1 - (x1 - x0) * 0.3 and rng.random() < 0.8:
                continue  # the garage side
            c.fill(c.mask_rect(cx - win_w / 2 - 0.008, y0 - 0.01, cx + win_w / 2 + 0.008, y1 + 0.012), trim)
            glass = c.mask_rect(cx - win_w / 2, y0, cx + win_w / 2, y1)
            c.gradient(shift(sky_top, -0.35), shift(sky_low, -0.55), y0, y1, mask=glass)
            refl = c.mask_poly([(cx - win_w / 2, y0 + (y1 - y0) * 0.6), (cx - win_w / 2 + win_w * 0.5, y0),
                                (cx - win_w / 2 + win_w * 0.8, y0), (cx - win_w / 2, y1)]) * glass
            c.blend(np.ones(3, np.float32)[None, None, :], refl * 0.22)
            c.fill(c.mask_rect(cx - 0.002, y0, cx + 0.002, y1) * glass, trim)
            c.fill(c.mask_rect(cx - win_w / 2, (y0 + y1) / 2 - 0.002, cx + win_w / 2, (y0 + y1) / 2 + 0.002), trim)
            if style == "condo" and f < floors - 1 and rng.random() < 0.5:  # a balcony rail
                c.fill(c.mask_rect(cx - win_w * 0.9, y1 + 0.002, cx + win_w * 0.9, y1 + 0.006), (0.2, 0.2, 0.2))
    door_x = x0 + (x1 - x0) * 0.35
    if style == "condo":
        door_x = (x0 + x1) / 2
    door_col = hsv(rng.uniform(0, 1), rng.uniform(0.3, 0.7), rng.uniform(0.25, 0.6))
    c.fill(c.mask_rect(door_x - 0.035, base - fh * 0.8, door_x + 0.035, base), trim)
    c.paint(c.mask_rect(door_x - 0.027, base - fh * 0.74, door_x + 0.027, base), door_col, round=0.003, gloss=0.15)
    c.fill(c.mask_ellipse(door_x + 0.017, base - fh * 0.37, 0.004, 0.006), (0.85, 0.75, 0.4))
    if style == "house":
        gx0, gx1 = x1 - (x1 - x0) * 0.28, x1 - 0.02
        c.paint(c.mask_rect(gx0, base - fh * 0.72, gx1, base), shift(trim, -0.04), round=0.0, gloss=0.05,
                light=0.2)
        for k in range(1, 4):
            c.darken(c.mask_rect(gx0, base - fh * 0.72 * k / 4, gx1, base - fh * 0.72 * k / 4 + 0.003), 0.2)
    # shrubs along the front, a tree or two on the lawn
    for _ in range(int(rng.integers(4, 9))):
        x, r = rng.uniform(x0, x1), rng.uniform(0.02, 0.04)
        if abs(x - door_x) < 0.05:
            continue
        m = c.mask_ellipse(x, base - r * aspect * 0.3, r, r * aspect * 0.75)
        c.paint(m, hsv(rng.uniform(0.22, 0.36), rng.uniform(0.4, 0.7), rng.uniform(0.3, 0.5)), round=0.015,
                gloss=0.1, texture=0.12)
    for _ in range(int(rng.integers(0, 3))):
        x = float(rng.choice([rng.uniform(0.0, x0), rng.uniform(x1, 1.0)]))
        r = rng.uniform(0.07, 0.13)
        ty = base + rng.uniform(0.0, 0.06)
        c.shadow(x + 0.04, ty, r * 1.1, 0.02, 0.35, 0.015)
        c.paint(c.mask_rect(x - 0.01, ty - r * aspect * 1.6, x + 0.01, ty), (0.35, 0.25, 0.18), round=0.004)
        crown = np.maximum.reduce([c.mask_ellipse(x + dx * r, ty - r * aspect * (1.5 + dy), r * 0.7, r * aspect * 0.6)
                                   for dx, dy in ((0, 0.5), (-0.5, 0.1), (0.5, 0.1), (0, 0))])
        c.paint(crown, hsv(rng.uniform(0.2, 0.35), rng.uniform(0.45, 0.7), rng.uniform(0.3, 0.5)), round=0.03,
                gloss=0.1, texture=0.14)
    return c.finish(grain=0.01, vignette=0.08)


__all__ = ["HOUSE_STYLES", "house_image"]
