"""Hotel photos: ``hotel_image(seed, kind, w, h, style=None)`` (uncached; ``cache.hotel_photo`` encodes and caches),
one of ``HOTEL_KINDS``:

- "exterior": the building from across the drive at golden hour or midday: a glass city ``tower``, a stucco
  ``resort`` with tiled roofs and palms, or a ``midrise`` with an entrance canopy (``HOTEL_STYLES``);
- "pool": a pool deck with loungers, parasols and palms, the water's ripples and the sky reflected;
- "lobby": a lobby with a polished floor, a wood-panelled wall, the front desk, pendant lights and plants;
- "room", "room2", "suite": a guest room with one king bed, two queen beds, or a bed and a sofa, nightstands with
  lamps, a curtained window with the day outside.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from PIL import Image

from real_local.imagery.canvas import Canvas, _blur, hsv, rgb, rng_for, shift

HOTEL_KINDS = ("exterior", "pool", "lobby", "room", "room2", "suite")
HOTEL_STYLES = ("tower", "resort", "midrise")
_WHITE = np.ones(3, np.float32)


def _sky(c: Canvas, rng: np.random.Generator, horizon: float, warm: bool = False) -> tuple[np.ndarray, np.ndarray]:
    top = hsv(rng.uniform(0.56, 0.6), rng.uniform(0.45, 0.65), rng.uniform(0.72, 0.9))
    low = hsv(0.08, 0.35, 0.98) if warm else hsv(rng.uniform(0.55, 0.58), rng.uniform(0.1, 0.22), 0.97)
    c.gradient(top, low, 0, horizon)
    for _ in range(int(rng.integers(1, 5))):
        cx, cy = rng.uniform(0, 1), rng.uniform(0.04, horizon * 0.5)
        rx = rng.uniform(0.06, 0.18)
        cloud = _blur(c.mask_ellipse(cx, cy, rx, rx * 0.3 * c.w / c.h), rx * c.w * 0.3)
        c.blend(_WHITE[None, None, :], cloud * rng.uniform(0.35, 0.8))
    return top, low


def _palm(c: Canvas, rng: np.random.Generator, x: float, base: float, height: float) -> None:
    aspect = c.w / c.h
    lean = float(rng.uniform(-0.04, 0.04))
    top = (x + lean, base - height)
    trunk = [(x + lean * t * t, base - height * t) for t in np.linspace(0, 1, 12)]
    c.paint(c.mask_line(trunk, 0.011), (0.45, 0.36, 0.27), round=0.004, gloss=0.05, texture=0.1)
    frond = hsv(rng.uniform(0.22, 0.3), rng.uniform(0.5, 0.7), rng.uniform(0.3, 0.45))
    for k in range(9):
        a = math.radians(k * 40 + rng.uniform(-12, 12))
        ln = rng.uniform(0.06, 0.1)
        pts = [(top[0] + math.cos(a) * ln * t, top[1] + (math.sin(a) * ln * 0.6 + 0.05 * t * t) * t * aspect)
               for t in np.linspace(0, 1, 8)]
        c.paint(c.mask_line(pts, 0.012, round_ends=True), shift(frond, rng.uniform(-0.06, 0.06)), round=0.003,
                gloss=0.05, texture=0.08)


def _tree(c: Canvas, rng: np.random.Generator, x: float, base: float, r: float) -> None:
    aspect = c.w / c.h
    col = hsv(rng.uniform(0.2, 0.33), rng.uniform(0.4, 0.65), rng.uniform(0.28, 0.45))
    crown = np.maximum.reduce([c.mask_ellipse(x + dx * r, base - r * aspect * (1.2 + dy), r * 0.7, r * aspect * 0.6)
                               for dx, dy in ((0, 0.5), (-0.5, 0.1), (0.5, 0.1), (0, 0))])
    c.paint(c.mask_rect(x - 0.006, base - r * aspect, x + 0.006, base), (0.33, 0.25, 0.18), round=0.003)
    c.paint(crown, col, round=0.025, gloss=0.08, texture=0.14)


def _windows(c: Canvas, x0: float, x1: float, y0: float, y1: float, cols: int, rows: int, glass: np.ndarray,
             frame: np.ndarray, rng: np.random.Generator, lit: float = 0.15) -> None:
    cw, rh = (x1 - x0) / cols, (y1 - y0) / rows
    for r in range(rows):
        for k in range(cols):
            gx, gy = x0 + k * cw + cw * 0.14, y0 + r * rh + rh * 0.18
            m = c.mask_rect(gx, gy, gx + cw * 0.72, gy + rh * 0.62)
            g = shift(glass, rng.uniform(-0.08, 0.08))
            if rng.random() < lit:
                g = np.array([0.95, 0.82, 0.55], np.float32)
            c.gradient(shift(g, 0.1), shift(g, -0.12), gy, gy + rh * 0.62, mask=m)
    c.darken(c.mask_lines([((x0, y0 + r * rh), (x1, y0 + r * rh)) for r in range(rows + 1)]), 0.15)


def _exterior(c: Canvas, rng: np.random.Generator, style: str) -> None:
    warm = rng.random() < 0.35
    horizon = float(rng.uniform(0.68, 0.74))
    sky_top, _ = _sky(c, rng, horizon + 0.05, warm)
    base = horizon + 0.06
    light_tint = np.array([1.0, 0.93, 0.82], np.float32) if warm else np.array([1.0, 1.0, 1.0], np.float32)
    if style == "tower":
        x0, x1 = float(rng.uniform(0.18, 0.3)), float(rng.uniform(0.7, 0.82))
        top = float(rng.uniform(0.04, 0.12))
        for _ in range(2):  # neighbours behind
            nx = float(rng.choice([rng.uniform(-0.05, x0 - 0.1), rng.uniform(x1 + 0.02, 0.95)]))
            c.paint(c.mask_rect(nx, rng.uniform(0.2, 0.4), nx + rng.uniform(0.1, 0.18), base),
                    hsv(0.58, 0.08, rng.uniform(0.55, 0.7)), round=0.0, gloss=0.05, light=0.2)
        body = c.mask_rect(x0, top, x1, base)
        glass = shift(sky_top, -0.25, -0.15)
        c.paint(body, hsv(0.58, 0.1, 0.5), round=0.0, gloss=0.0, light=0.3)
        _windows(c, x0 + 0.01, x1 - 0.01, top + 0.01, base - 0.12, int(rng.integers(9, 14)),
                 int(rng.integers(14, 22)), glass, rgb("#333"), rng, lit=0.08 if not warm else 0.2)
        refl = c.mask_poly([(x0, top + 0.1), (x0 + (x1 - x0) * 0.35, top), (x0 + (x1 - x0) * 0.6, top),
                            (x0, base - 0.2)]) * body
        c.blend(_WHITE[None, None, :], refl * 0.12)
        c.paint(c.mask_rect(x0 - 0.02, base - 0.12, x1 + 0.02, base - 0.105), hsv(0.1, 0.05, 0.85), round=0.0,
                gloss=0.1)
    elif style == "resort":
        stucco = hsv(rng.uniform(0.08, 0.12), rng.uniform(0.05, 0.2), rng.uniform(0.88, 0.96))
        roof = hsv(rng.uniform(0.02, 0.05), rng.uniform(0.5, 0.7), rng.uniform(0.5, 0.65))
        c.paint(c.mask_rect(0, horizon - 0.05, 1, base), hsv(0.25, 0.4, 0.35), round=0.01, texture=0.1, gloss=0.0)
        for x0, x1, y0 in ((0.02, 0.42, 0.42), (0.36, 0.72, 0.3), (0.66, 0.98, 0.44)):
            y0 += float(rng.uniform(-0.04, 0.04))
            c.paint(c.mask_rect(x0, y0, x1, base), stucco, round=0.0, gloss=0.05, light=0.25, texture=0.01)
            c.paint(c.mask_poly([(x0 - 0.02, y0 + 0.01), ((x0 + x1) / 2, y0 - 0.09), (x1 + 0.02, y0 + 0.01)]), roof,
                    round=0.0, gloss=0.05, light=0.3, texture=0.05)
            c.darken(c.mask_rect(x0, y0 + 0.01, x1, y0 + 0.03), 0.25, 0.008)
            n = max(2, int((x1 - x0) / 0.07))
            for fl in range(int((base - y0 - 0.05) / 0.11)):
                for k in range(n):
                    wx = x0 + (x1 - x0) * (k + 0.5) / n
                    wy = y0 + 0.05 + fl * 0.11
                    arch = np.maximum(c.mask_rect(wx - 0.018, wy + 0.02, wx + 0.018, wy + 0.08),
                                      c.mask_ellipse(wx, wy + 0.02, 0.018, 0.02 * c.w / c.h))
                    c.gradient(hsv(0.58, 0.3, 0.45), hsv(0.6, 0.3, 0.22), wy, wy + 0.08, mask=arch)
        for k in range(int(rng.integers(3, 6))):
            _palm(c, rng, float(rng.uniform(0.02, 0.98)), base + rng.uniform(0.0, 0.06), float(rng.uniform(0.35, 0.55)))
    else:  # midrise
        x0, x1 = float(rng.uniform(0.08, 0.16)), float(rng.uniform(0.84, 0.92))
        top = float(rng.uniform(0.2, 0.3))
        wall = hsv(rng.uniform(0.06, 0.12), rng.uniform(0.08, 0.3), rng.uniform(0.7, 0.9))
        accent = hsv(rng.uniform(0.05, 0.6), rng.uniform(0.1, 0.35), rng.uniform(0.35, 0.55))
        c.paint(c.mask_rect(x0, top, x1, base), wall, round=0.0, gloss=0.05, light=0.25, texture=0.01)
        mid = (x0 + x1) / 2
        c.paint(c.mask_rect(mid - 0.09, top - 0.05, mid + 0.09, base), accent, round=0.0, gloss=0.1, light=0.3)
        _windows(c, x0 + 0.01, mid - 0.1, top + 0.02, base - 0.1, int(rng.integers(5, 8)), 5,
                 hsv(0.58, 0.25, 0.4), rgb("#333"), rng)
        _windows(c, mid + 0.1, x1 - 0.01, top + 0.02, base - 0.1, int(rng.integers(5, 8)), 5,
                 hsv(0.58, 0.25, 0.4), rgb("#333"), rng)
        c.paint(c.mask_rect(mid - 0.07, base - 0.075, mid + 0.07, base), hsv(0.58, 0.2, 0.3), round=0.0)  # doors
        c.darken(c.mask_rect(mid - 0.13, base - 0.1, mid + 0.13, base - 0.075), 0.3, 0.01)
        c.paint(c.mask_rect(mid - 0.13, base - 0.105, mid + 0.13, base - 0.085), shift(accent, -0.15),
                round=0.0, gloss=0.2)  # the canopy
        for _ in range(int(rng.integers(2, 5))):
            _tree(c, rng, float(rng.choice([rng.uniform(0.0, x0 + 0.08), rng.uniform(x1 - 0.08, 1.0)])),
                  base + 0.02, float(rng.uniform(0.05, 0.09)))
    # the drive: asphalt, a kerb, a lawn strip
    c.paint(c.mask_rect(0, base, 1, 1), (0.42, 0.42, 0.43), round=0.0, gloss=0.0, light=0.1, texture=0.05)
    c.fill(c.mask_rect(0, base, 1, base + 0.012), (0.78, 0.77, 0.74))
    c.paint(c.mask_rect(0, base + 0.012, 1, base + 0.04), hsv(0.25, 0.5, 0.45), round=0.0, gloss=0.0, texture=0.12)
    for _ in range(int(rng.integers(3, 8))):
        x = float(rng.uniform(0, 1))
        c.paint(c.mask_ellipse(x, base + 0.02, rng.uniform(0.02, 0.04), 0.03), hsv(rng.uniform(0.2, 0.35), 0.55, 0.35),
                round=0.01, gloss=0.1, texture=0.12)
    c.px *= light_tint[None, None, :]


def _pool(c: Canvas, rng: np.random.Generator) -> None:
    horizon = float(rng.uniform(0.36, 0.44))
    _sky(c, rng, horizon)
    # the hotel behind, and palms
    c.paint(c.mask_rect(0, horizon - float(rng.uniform(0.15, 0.25)), 1, horizon + 0.02),
            hsv(rng.uniform(0.07, 0.12), 0.15, rng.uniform(0.8, 0.92)), round=0.0, gloss=0.05, light=0.3)
    for k in range(12):
        x = k / 12 + 0.02
        c.fill(c.mask_rect(x, horizon - 0.1, x + 0.04, horizon - 0.03), hsv(0.58, 0.25, 0.45))
    for _ in range(int(rng.integers(2, 5))):
        _palm(c, rng, float(rng.uniform(0, 1)), horizon + 0.04, float(rng.uniform(0.22, 0.3)))
    # the deck, in perspective, and the pool
    deck = hsv(rng.uniform(0.08, 0.12), rng.uniform(0.1, 0.25), rng.uniform(0.8, 0.9))
    c.gradient(shift(deck, -0.08), deck, horizon, 1, mask=c.mask_rect(0, horizon, 1, 1))
    c.noise(0.02, 0.04, mask=c.mask_rect(0, horizon, 1, 1))
    p0, p1 = horizon + 0.06, 0.96
    pool = c.mask_poly([(0.3, p0), (0.92, p0), (1.1, p1), (0.05, p1)])
    water = hsv(rng.uniform(0.49, 0.53), rng.uniform(0.55, 0.75), rng.uniform(0.7, 0.85))
    c.gradient(shift(water, -0.12), shift(water, 0.06), p0, p1, mask=pool)
    rip = np.sin((c.xx * 38 + np.sin(c.yy * 60) * 1.8) * math.pi) * np.sin((c.yy * 70 + c.xx * 9) * math.pi)
    c.px[:] = c.px * (1 + (0.09 * np.clip(rip, 0, 1))[..., None] * pool[..., None])
    c.fill(c.mask_line([(0.3, p0), (0.92, p0), (1.1, p1)], 0.008, round_ends=False), (0.95, 0.95, 0.93))
    c.fill(c.mask_line([(0.3, p0), (0.05, p1)], 0.008, round_ends=False), (0.95, 0.95, 0.93))
    # loungers and parasols on the left deck
    for k in range(int(rng.integers(2, 4))):
        y = p0 + 0.06 + k * 0.15
        x = 0.02 + k * 0.02
        col = (0.97, 0.97, 0.95)
        c.shadow(x + 0.08, y + 0.09, 0.09, 0.015, 0.3, 0.01)
        c.paint(c.mask_poly([(x, y + 0.06), (x + 0.12, y + 0.06), (x + 0.14, y + 0.09), (x + 0.02, y + 0.09)]), col,
                round=0.004, gloss=0.1)
        c.paint(c.mask_poly([(x + 0.11, y + 0.06), (x + 0.15, y), (x + 0.165, y + 0.01), (x + 0.13, y + 0.07)]),
                col, round=0.004, gloss=0.1)
    ux = float(rng.uniform(0.12, 0.2))
    c.paint(c.mask_rect(ux - 0.004, horizon - 0.02, ux + 0.004, p0 + 0.2), (0.5, 0.45, 0.4), round=0.002)
    c.paint(c.mask_poly([(ux - 0.12, horizon + 0.02), (ux, horizon - 0.07), (ux + 0.12, horizon + 0.02)]),
            hsv(rng.uniform(0, 1), rng.uniform(0.05, 0.5), 0.92), round=0.01, gloss=0.1, light=0.4)


def _lobby(c: Canvas, rng: np.random.Generator) -> None:
    floor_y = float(rng.uniform(0.62, 0.7))
    wood = hsv(rng.uniform(0.06, 0.09), rng.uniform(0.4, 0.6), rng.uniform(0.35, 0.55))
    c.gradient(shift(wood, 0.05), shift(wood, -0.1), 0, floor_y)
    c.noise(0.02, 0.1, mask=c.mask_rect(0, 0, 1, floor_y), streak=0.2)
    c.darken(c.mask_lines([((x, 0), (x, floor_y)) for x in np.arange(0.05, 1, 0.1)], 2), 0.25)
    stone = hsv(rng.uniform(0.08, 0.12), 0.06, rng.uniform(0.78, 0.9))
    fl = c.mask_rect(0, floor_y, 1, 1)
    c.gradient(shift(stone, -0.15), stone, floor_y, 1, mask=fl)
    c.darken(c.mask_lines([((0.5 + (x - 0.5) * 0.3, floor_y), (x, 1.0)) for x in np.arange(-0.6, 1.6, 0.2)]) * fl,
             0.12)
    # the front desk with a stone top, its reflection on the floor
    d0, d1, dt = 0.25, 0.75, floor_y - 0.17
    c.paint(c.mask_rect(d0, dt, d1, floor_y + 0.02), shift(wood, -0.15), round=0.005, gloss=0.15, light=0.2)
    c.paint(c.mask_rect(d0 - 0.01, dt - 0.015, d1 + 0.01, dt + 0.005), (0.93, 0.92, 0.9), round=0.003, gloss=0.3)
    refl = c.mask_rect(d0, floor_y + 0.02, d1, floor_y + 0.12)
    c.blend(shift(wood, -0.2)[None, None, :], _blur(refl, 0.01 * c.w) * 0.3)
    # a lit logo panel behind the desk, pendant lights, plants
    c.fill(c.mask_rect(0.42, 0.22, 0.58, 0.3), (0.93, 0.85, 0.6))
    c.blend(np.array([1.0, 0.9, 0.7], np.float32)[None, None, :], _blur(c.mask_rect(0.42, 0.22, 0.58, 0.3), 12) * 0.4)
    for k in range(5):
        x = 0.15 + k * 0.175
        c.fill(c.mask_rect(x - 0.001, 0, x + 0.001, 0.12 + (k % 2) * 0.04), (0.15, 0.15, 0.15))
        glow = c.mask_ellipse(x, 0.14 + (k % 2) * 0.04, 0.022, 0.03)
        c.blend(np.array([1.0, 0.85, 0.55], np.float32)[None, None, :], _blur(glow, 8) * 0.8)
        c.paint(glow, (1.0, 0.9, 0.7), round=0.005, gloss=0.6)
    for x in (0.08, 0.92):
        c.paint(c.mask_rect(x - 0.035, floor_y - 0.06, x + 0.035, floor_y + 0.04), (0.25, 0.25, 0.27), round=0.01)
        leaves = np.maximum.reduce([c.mask_ellipse(x + rng.uniform(-0.05, 0.05), floor_y - rng.uniform(0.1, 0.3),
                                                   0.04, 0.07) for _ in range(6)])
        c.paint(leaves, hsv(0.3, 0.55, 0.35), round=0.01, gloss=0.1, texture=0.15)


def _room(c: Canvas, rng: np.random.Generator, beds: int, sofa: bool) -> None:
    floor_y = float(rng.uniform(0.6, 0.66))
    wall = hsv(rng.uniform(0.07, 0.14), rng.uniform(0.05, 0.18), rng.uniform(0.82, 0.93))
    c.gradient(shift(wall, 0.03), shift(wall, -0.1), 0, floor_y)
    carpet = hsv(rng.uniform(0.05, 0.65), rng.uniform(0.08, 0.25), rng.uniform(0.35, 0.6))
    fl = c.mask_rect(0, floor_y, 1, 1)
    c.gradient(shift(carpet, -0.1), shift(carpet, 0.05), floor_y, 1, mask=fl)
    c.noise(0.008, 0.06, mask=fl)
    # the window with its curtains on one side
    left = rng.random() < 0.5
    wx0, wx1 = (0.0, 0.2) if left else (0.8, 1.0)
    glass = c.mask_rect(wx0, 0.1, wx1, floor_y)
    sky = hsv(rng.uniform(0.55, 0.6), rng.uniform(0.2, 0.45), 0.95)
    c.gradient(sky, shift(sky, 0.04, -0.15), 0.1, floor_y, mask=glass)
    sea = c.mask_rect(wx0, floor_y - 0.18, wx1, floor_y) * glass
    c.gradient(hsv(0.55, 0.5, 0.7), hsv(0.52, 0.45, 0.6), floor_y - 0.18, floor_y, mask=sea)
    curtain = hsv(rng.uniform(0.05, 0.15), rng.uniform(0.1, 0.3), rng.uniform(0.6, 0.85))
    cx = wx1 - 0.02 if left else wx0 - 0.04
    cm = c.mask_rect(cx, 0.06, cx + 0.06, floor_y + 0.02)
    c.paint(cm, curtain, round=0.0, gloss=0.0, light=0.2)
    folds = np.sin((c.xx - cx) * 180) * 0.08
    c.px[:] = c.px * (1 + folds[..., None] * cm[..., None])
    c.blend(np.array([1.0, 0.97, 0.9], np.float32)[None, None, :],
            _blur(c.mask_poly([(wx0, floor_y), (wx1, floor_y), (wx1 + (0.25 if left else -0.05), 1),
                               (wx0 + (0.05 if left else -0.25), 1)]), 0.02 * c.w) * 0.15)
    # art above the bed(s)
    pw = 0.2 if beds == 1 else 0.12
    fab = hsv(rng.uniform(0, 1), rng.uniform(0.2, 0.5), rng.uniform(0.3, 0.6))
    centres = [0.5] if beds == 1 else [0.36, 0.68]
    if sofa:
        centres = [0.4]
    for bx in centres:
        c.fill(c.mask_rect(bx - pw / 2, 0.1, bx + pw / 2, 0.25), (0.2, 0.18, 0.16))
        art = c.mask_rect(bx - pw / 2 + 0.01, 0.115, bx + pw / 2 - 0.01, 0.235)
        c.gradient(hsv(rng.uniform(0, 1), 0.25, 0.85), hsv(rng.uniform(0, 1), 0.35, 0.6), 0.115, 0.235, mask=art)
    bw = 0.3 if beds == 1 else 0.22
    head = shift(wall, -0.35, 0.1)
    for bx in centres:
        top = floor_y - 0.2
        c.shadow(bx, floor_y + 0.22, bw * 0.6, 0.03, 0.4, 0.02)
        c.paint(c.mask_rect(bx - bw / 2 - 0.01, top - 0.04, bx + bw / 2 + 0.01, floor_y + 0.02, r=0.008), head,
                round=0.01, gloss=0.05, texture=0.03)  # headboard
        c.paint(c.mask_rect(bx - bw / 2 - 0.03, top + 0.1, bx + bw / 2 + 0.03, floor_y + 0.23, r=0.012),
                (0.96, 0.96, 0.95), round=0.03, gloss=0.12)  # the duvet
        c.paint(c.mask_rect(bx - bw / 2 - 0.03, floor_y + 0.12, bx + bw / 2 + 0.03, floor_y + 0.17), fab,
                round=0.01, gloss=0.05, texture=0.04)  # the runner
        for k in ((-0.25, 0.25) if beds == 1 else (0.0,)):
            c.paint(c.mask_ellipse(bx + k * bw * (1.6 if beds == 1 else 1), top + 0.09, bw * (0.22 if beds == 1 else 0.4),
                                   0.045), (0.98, 0.98, 0.97), round=0.02, gloss=0.15)
    # nightstands with lamps
    stands = [centres[0] - bw / 2 - 0.1, centres[-1] + bw / 2 + 0.04]
    for sx in stands:
        if sx < 0 or sx > 0.94:
            continue
        c.paint(c.mask_rect(sx, floor_y - 0.05, sx + 0.06, floor_y + 0.08), shift(head, -0.1), round=0.005,
                gloss=0.1)
        c.paint(c.mask_rect(sx + 0.026, floor_y - 0.13, sx + 0.034, floor_y - 0.05), (0.7, 0.6, 0.4), round=0.002)
        shade = c.mask_poly([(sx + 0.01, floor_y - 0.13), (sx + 0.05, floor_y - 0.13), (sx + 0.045, floor_y - 0.2),
                             (sx + 0.015, floor_y - 0.2)])
        c.blend(np.array([1.0, 0.88, 0.6], np.float32)[None, None, :],
                _blur(c.mask_ellipse(sx + 0.03, floor_y - 0.17, 0.06, 0.1), 10) * 0.35)
        c.paint(shade, (1.0, 0.95, 0.82), round=0.004, gloss=0.3)
    if sofa:
        sx0, sx1 = 0.66, 0.94
        sc = hsv(rng.uniform(0, 1), rng.uniform(0.15, 0.4), rng.uniform(0.35, 0.6))
        c.shadow((sx0 + sx1) / 2, floor_y + 0.17, 0.16, 0.025, 0.35, 0.02)
        c.paint(c.mask_rect(sx0, floor_y - 0.08, sx1, floor_y + 0.06, r=0.01), shift(sc, -0.08), round=0.015)
        c.paint(c.mask_rect(sx0 - 0.01, floor_y + 0.03, sx1 + 0.01, floor_y + 0.16, r=0.01), sc, round=0.02,
                gloss=0.1)
        for k in (0, 1):
            c.paint(c.mask_rect(sx0 + 0.02 + k * 0.13, floor_y - 0.05, sx0 + 0.12 + k * 0.13, floor_y + 0.04, r=0.01),
                    shift(sc, 0.08), round=0.015, gloss=0.1)


def hotel_image(seed: Any, kind: str = "exterior", w: int = 720, h: int = 440, style: str | None = None) -> Image.Image:
    """A hotel photo (uncached) of ``kind`` (one of ``HOTEL_KINDS``); ``style`` picks the exterior's building."""
    if kind not in HOTEL_KINDS:
        raise ValueError(f"unknown hotel photo {kind!r}: use one of {', '.join(HOTEL_KINDS)}")
    rng = rng_for("hotel", kind, seed)
    c = Canvas(w, h, rng, light=(float(rng.uniform(-0.8, 0.8)), -0.7))
    if kind == "exterior":
        _exterior(c, rng, style if style in HOTEL_STYLES else str(rng.choice(HOTEL_STYLES)))
    elif kind == "pool":
        _pool(c, rng)
    elif kind == "lobby":
        _lobby(c, rng)
    else:
        _room(c, rng, beds=2 if kind == "room2" else 1, sofa=kind == "suite")
    return c.finish(grain=0.01, vignette=0.1)


__all__ = ["HOTEL_KINDS", "HOTEL_STYLES", "hotel_image"]
