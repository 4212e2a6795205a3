"""Product shots: a drawer for each of ``KINDS`` (an object of shaded parts on a backdrop), ``kind_for`` (a kind
from a product's title or category) and ``product_image`` (uncached; ``cache.product_photo`` encodes and caches)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
from PIL import Image

from real_local.imagery.canvas import Canvas, Color, _backdrop, _blur, hsv, rgb, rng_for, shift


def _pick_color(rng: np.random.Generator) -> np.ndarray:
    if rng.random() < 0.45:  # neutrals: black, graphite, silver, white
        return hsv(rng.uniform(0, 1), rng.uniform(0, 0.06), float(rng.choice([0.12, 0.22, 0.45, 0.72, 0.9])))
    return hsv(rng.uniform(0, 1), rng.uniform(0.35, 0.85), rng.uniform(0.35, 0.85))


def _screen(c: Canvas, m: np.ndarray, rng: np.random.Generator) -> None:
    """A lit screen: a wallpaper gradient with soft blobs and a glass reflection."""
    h = float(rng.uniform(0, 1))
    ys, xs = np.nonzero(m > 0.01)
    y0, y1 = ys.min() / c.h, ys.max() / c.h
    c.gradient(hsv(h, 0.7, 0.55), hsv(h + rng.uniform(0.1, 0.3), 0.8, 0.25), y0, y1, mask=m)
    for _ in range(3):
        cx, cy = rng.uniform(xs.min(), xs.max()) / c.w, rng.uniform(y0, y1)
        r = (xs.max() - xs.min()) / c.w * rng.uniform(0.15, 0.4)
        blob = _blur(c.mask_ellipse(cx, cy, r, r), r * c.w * 0.6) * m
        c.blend(hsv(h + rng.uniform(-0.2, 0.4), 0.6, 0.9)[None, None, :], blob * 0.55)
    refl = c.mask_poly([(xs.min() / c.w, y0), ((xs.min() + xs.max()) / 2 / c.w, y0),
                        (xs.min() / c.w + 0.05, y1), (xs.min() / c.w, y1)]) * m
    c.blend(np.ones(3, np.float32)[None, None, :], refl * 0.08)


def _laptop(c, col, rng, fy):
    x0, x1, top = 0.5 - rng.uniform(0.3, 0.36), 0.5 + rng.uniform(0.3, 0.36), rng.uniform(0.16, 0.24)
    hinge = fy - rng.uniform(0.12, 0.15)
    c.shadow(0.5, fy - 0.01, (x1 - x0) * 0.58, 0.035, 0.4)
    deck = c.mask_poly([(x0 + 0.02, hinge), (x1 - 0.02, hinge), (x1 + 0.05, fy), (x0 - 0.05, fy)])
    c.paint(deck, col, round=0.01, gloss=0.15, light=0.3)
    for r in range(4):  # keyboard rows
        yy = hinge + 0.012 + r * (fy - hinge - 0.05) / 5
        inset = 0.03 + (4 - r) * 0.004
        c.fill(c.mask_rect(x0 + inset + 0.02, yy, x1 - inset - 0.02, yy + (fy - hinge) / 8.5, 0.002),
               shift(col, -0.45 if rgb(col).mean() > 0.3 else 0.12))
    c.paint(c.mask_rect(0.43, fy - 0.035, 0.57, fy - 0.008, 0.004), shift(col, -0.06), round=0.004, gloss=0.0)
    lid = c.mask_rect(x0 + 0.02, top, x1 - 0.02, hinge + 0.004, 0.012)
    c.paint(lid, shift(col, -0.05), round=0.008, gloss=0.2)
    scr = c.mask_rect(x0 + 0.04, top + 0.025, x1 - 0.04, hinge - 0.015, 0.003)
    c.fill(scr, (0.03, 0.03, 0.04))
    _screen(c, c.mask_rect(x0 + 0.047, top + 0.032, x1 - 0.047, hinge - 0.022), rng)


def _phone(c, col, rng, fy, wide=False):
    w = rng.uniform(0.26, 0.3) if not wide else rng.uniform(0.5, 0.58)
    h = rng.uniform(0.6, 0.66) if not wide else rng.uniform(0.42, 0.5)
    cx, y1 = 0.5 + (0.07 if not wide else 0.0), fy - 0.03
    y0 = y1 - h
    if not wide:  # a second phone behind, showing its back and cameras
        bx = cx - 0.17
        c.shadow(bx + 0.02, y1 - 0.02, w * 0.55, 0.03, 0.3)
        back = c.mask_rect(bx - w / 2, y0 + 0.04, bx + w / 2, y1 - 0.02, 0.05)
        c.paint(back, col, round=0.02, gloss=0.35, hl=(0.3, 0.2))
        cam = c.mask_rect(bx - w / 2 + 0.02, y0 + 0.06, bx - w / 2 + 0.13, y0 + 0.2, 0.03)
        c.paint(cam, shift(col, -0.1), round=0.01, gloss=0.2)
        for k, (ox, oy) in enumerate(((0.045, 0.09), (0.045, 0.16), (0.1, 0.125))):
            if k < 2 or rng.random() < 0.7:
                c.paint(c.mask_ellipse(bx - w / 2 + ox, y0 + oy, 0.022, 0.022), (0.08, 0.08, 0.1), round=0.006,
                        gloss=0.5)
    c.shadow(cx + 0.02, y1, w * 0.55, 0.03, 0.35)
    body = c.mask_rect(cx - w / 2, y0, cx + w / 2, y1, 0.045 if not wide else 0.03)
    c.paint(body, shift(col, -0.25) if rgb(col).mean() > 0.5 else col, round=0.015, gloss=0.3)
    b = 0.012
    scr = c.mask_rect(cx - w / 2 + b, y0 + b * 1.2, cx + w / 2 - b, y1 - b * 1.2, 0.035 if not wide else 0.022)
    c.fill(scr, (0.02, 0.02, 0.03))
    _screen(c, c.mask_rect(cx - w / 2 + b + 0.004, y0 + b * 1.2 + 0.005, cx + w / 2 - b - 0.004,
                           y1 - b * 1.2 - 0.005, 0.03 if not wide else 0.02), rng)
    if not wide:
        c.fill(c.mask_rect(cx - 0.035, y0 + 0.025, cx + 0.035, y0 + 0.045, 0.01), (0.01, 0.01, 0.01))
        for i in range(4):
            for j in range(3):
                m = c.mask_rect(cx - w / 2 + 0.04 + j * (w - 0.08) / 3, y0 + 0.1 + i * 0.07,
                                cx - w / 2 + 0.04 + j * (w - 0.08) / 3 + 0.045, y0 + 0.145 + i * 0.07, 0.012)
                c.paint(m, hsv(rng.uniform(0, 1), 0.6, 0.9), round=0.003, gloss=0.2, light=0.1)


def _tablet(c, col, rng, fy):
    _phone(c, col, rng, fy, wide=True)


def _headphones(c, col, rng, fy):
    cx, cy, r = 0.5, 0.5, rng.uniform(0.24, 0.28)
    c.shadow(cx, fy, r * 1.25, 0.04, 0.35)
    band = c.mask_arc(cx, cy + 0.02, r, r * 1.05, 185, 355, 0.055)
    c.paint(band, shift(col, -0.08), round=0.02, gloss=0.3)
    pad = c.mask_arc(cx, cy + 0.02, r - 0.02, r * 1.05 - 0.02, 220, 320, 0.03)
    c.paint(pad, shift(col, -0.2), round=0.012, gloss=0.1, texture=0.03)
    for sx in (-1, 1):
        ex = cx + sx * r * 0.98
        c.paint(c.mask_rect(ex - 0.012, cy - 0.02, ex + 0.012, cy + 0.12, 0.01), (0.55, 0.56, 0.58), round=0.006)
        cup = c.mask_ellipse(ex, cy + 0.2, 0.095, 0.14)
        c.paint(cup, col, round=0.03, gloss=0.35, hl=(0.35 if sx < 0 else 0.6, 0.3))
        cush = c.mask_ellipse(ex - sx * 0.05, cy + 0.2, 0.05, 0.125)
        c.paint(cush, shift(col, -0.3, -0.2), round=0.02, gloss=0.1, texture=0.04)


def _earbuds(c, col, rng, fy):
    c.shadow(0.5, fy, 0.26, 0.04, 0.35)
    case = c.mask_rect(0.3, fy - 0.3, 0.7, fy - 0.01, 0.09)
    c.paint(case, col, round=0.05, gloss=0.4)
    c.darken(c.mask_rect(0.3, fy - 0.2, 0.7, fy - 0.195), 0.3, 0.002)
    c.fill(c.mask_ellipse(0.5, fy - 0.09, 0.01, 0.01), (0.3, 0.85, 0.4))
    for bx in (0.36, 0.64):
        c.shadow(bx + 0.02, fy - 0.33, 0.06, 0.015, 0.25)
        c.paint(c.mask_rect(bx - 0.018, fy - 0.52, bx + 0.018, fy - 0.34, 0.02), col, round=0.01, gloss=0.4)
        c.paint(c.mask_ellipse(bx, fy - 0.55, 0.055, 0.06), col, round=0.02, gloss=0.5)
        c.paint(c.mask_ellipse(bx + 0.02, fy - 0.56, 0.025, 0.025), shift(col, -0.35), round=0.008, gloss=0.2)


def _speaker(c, col, rng, fy):
    if rng.random() < 0.5:  # a cylinder speaker
        w, h = rng.uniform(0.2, 0.26), rng.uniform(0.46, 0.56)
        c.shadow(0.5, fy, w * 1.1, 0.035, 0.4)
        body = c.mask_rect(0.5 - w, fy - h, 0.5 + w, fy, 0.12)
        c.paint(body, col, round=0.06, gloss=0.15, texture=0.05)
        dots = c._mask(lambda d, P: [d.ellipse([P(0.5 - w + 0.03 + i * 0.025, fy - h + 0.08 + j * 0.025),
                                               P(0.5 - w + 0.037 + i * 0.025, fy - h + 0.087 + j * 0.025)],
                                              fill=255)
                                     for i in range(int((2 * w - 0.05) / 0.025)) for j in range(int((h - 0.14) / 0.025))])
        c.darken(dots, 0.3)
        c.paint(c.mask_ellipse(0.5, fy - h + 0.05, w * 0.8, 0.025), shift(col, 0.12), round=0.01, gloss=0.3)
    else:  # a boxy speaker with a grille and knobs
        w, h = rng.uniform(0.3, 0.36), rng.uniform(0.32, 0.4)
        c.shadow(0.5, fy, w * 1.05, 0.03, 0.4)
        c.paint(c.mask_rect(0.5 - w, fy - h, 0.5 + w, fy, 0.03), col, round=0.03, gloss=0.15, texture=0.04)
        gr = c.mask_rect(0.5 - w + 0.03, fy - h + 0.09, 0.5 + w - 0.03, fy - 0.03, 0.01)
        c.paint(gr, shift(col, -0.3), round=0.01, gloss=0.05, texture=0.12)
        for k in range(3):
            c.paint(c.mask_ellipse(0.5 - w + 0.08 + k * 0.07, fy - h + 0.045, 0.02, 0.02), (0.75, 0.65, 0.4),
                    round=0.006, gloss=0.5)


def _watch(c, col, rng, fy):
    cx, cy = 0.5, 0.48
    strap = shift(col, -0.1) if rng.random() < 0.5 else hsv(rng.uniform(0, 1), 0.4, 0.4)
    c.shadow(cx, fy, 0.2, 0.03, 0.3)
    c.paint(c.mask_rect(cx - 0.09, 0.06, cx + 0.09, 0.94, 0.04), strap, round=0.03, gloss=0.15, texture=0.03)
    square = rng.random() < 0.5
    case = c.mask_rect(cx - 0.17, cy - 0.2, cx + 0.17, cy + 0.2, 0.06) if square else \
        c.mask_ellipse(cx, cy, 0.19, 0.19)
    c.paint(case, (0.78, 0.78, 0.8) if rgb(col).mean() < 0.4 else shift(col, -0.2), round=0.03, gloss=0.6)
    face = c.mask_rect(cx - 0.14, cy - 0.17, cx + 0.14, cy + 0.17, 0.05) if square else \
        c.mask_ellipse(cx, cy, 0.155, 0.155)
    c.paint(face, (0.05, 0.05, 0.07), round=0.01, gloss=0.25)
    for a in range(12):
        x, y = cx + 0.13 * math.cos(a * math.pi / 6), cy + 0.13 * math.sin(a * math.pi / 6)
        c.fill(c.mask_ellipse(x, y, 0.006, 0.006), (0.85, 0.85, 0.85))
    a1, a2 = rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi)
    c.fill(c.mask_line([(cx, cy), (cx + 0.07 * math.cos(a1), cy + 0.07 * math.sin(a1))], 0.012), (0.9, 0.9, 0.9))
    c.fill(c.mask_line([(cx, cy), (cx + 0.11 * math.cos(a2), cy + 0.11 * math.sin(a2))], 0.008), (0.9, 0.9, 0.9))


def _camera(c, col, rng, fy):
    c.shadow(0.5, fy, 0.36, 0.035, 0.4)
    c.paint(c.mask_rect(0.14, fy - 0.4, 0.86, fy - 0.02, 0.04), col, round=0.03, gloss=0.2, texture=0.05)
    c.paint(c.mask_rect(0.2, fy - 0.47, 0.42, fy - 0.38, 0.02), shift(col, -0.05), round=0.015, gloss=0.2)
    for r, v in ((0.19, 0.15), (0.15, 0.08), (0.11, 0.2), (0.07, 0.04)):
        c.paint(c.mask_ellipse(0.54, fy - 0.21, r, r), (v, v, v + 0.02), round=0.02, gloss=0.45)
    c.fill(c.mask_ellipse(0.51, fy - 0.24, 0.02, 0.02), (0.8, 0.85, 1.0))


def _monitor(c, col, rng, fy, tv=False):
    w = rng.uniform(0.38, 0.44)
    h = w * (0.58 if tv else rng.uniform(0.55, 0.62))
    top = fy - 0.1 - h - 0.06
    c.shadow(0.5, fy, 0.2, 0.025, 0.4)
    if tv:
        for sx in (-1, 1):
            c.paint(c.mask_poly([(0.5 + sx * w * 0.75, top + h), (0.5 + sx * (w * 0.75 + 0.02), top + h),
                                 (0.5 + sx * (w * 0.8 + 0.03), fy), (0.5 + sx * (w * 0.8 - 0.01), fy)]),
                    (0.15, 0.15, 0.16), round=0.004)
    else:
        c.paint(c.mask_rect(0.47, top + h - 0.02, 0.53, fy - 0.01, 0.01), shift(col, 0.05), round=0.01)
        c.paint(c.mask_ellipse(0.5, fy - 0.012, 0.15, 0.02), shift(col, 0.05), round=0.01, gloss=0.2)
    c.paint(c.mask_rect(0.5 - w, top, 0.5 + w, top + h + 0.01, 0.008), (0.07, 0.07, 0.08), round=0.005, gloss=0.1)
    _screen(c, c.mask_rect(0.5 - w + 0.01, top + 0.01, 0.5 + w - 0.01, top + h - 0.01), rng)


def _tv(c, col, rng, fy):
    _monitor(c, col, rng, fy, tv=True)


def _controller(c, col, rng, fy):
    cy = fy - 0.2
    c.shadow(0.5, fy - 0.05, 0.33, 0.04, 0.4)
    body = np.maximum.reduce([c.mask_ellipse(0.3, cy + 0.05, 0.13, 0.16), c.mask_ellipse(0.7, cy + 0.05, 0.13, 0.16),
                              c.mask_rect(0.28, cy - 0.11, 0.72, cy + 0.06, 0.05)])
    c.paint(body, col, round=0.05, gloss=0.35, hl=(0.35, 0.2))
    for x in (0.4, 0.6):
        c.paint(c.mask_ellipse(x, cy + 0.04, 0.045, 0.045), (0.1, 0.1, 0.11), round=0.015, gloss=0.3)
        c.paint(c.mask_ellipse(x, cy + 0.04, 0.03, 0.03), (0.2, 0.2, 0.22), round=0.012, gloss=0.3)
    c.fill(c.mask_rect(0.27, cy - 0.04, 0.33, cy - 0.02), (0.15, 0.15, 0.15))
    c.fill(c.mask_rect(0.29, cy - 0.06, 0.31, cy), (0.15, 0.15, 0.15))
    for (dx, dy), hue in zip(((0, -0.03), (0.03, 0), (0, 0.03), (-0.03, 0)), (0.33, 0.0, 0.6, 0.15)):
        c.paint(c.mask_ellipse(0.7 + dx, cy - 0.03 + dy, 0.014, 0.014), hsv(hue, 0.6, 0.8), round=0.005, gloss=0.4)


def _console(c, col, rng, fy):
    w, h = rng.uniform(0.14, 0.18), rng.uniform(0.5, 0.62)
    c.shadow(0.5, fy, w * 1.5, 0.03, 0.4)
    c.paint(c.mask_rect(0.5 - w, fy - h, 0.5 + w, fy, 0.03), col, round=0.03, gloss=0.25)
    c.paint(c.mask_rect(0.5 - w * 0.25, fy - h, 0.5 + w * 0.25, fy, 0.01), (0.08, 0.08, 0.09), round=0.005)
    c.fill(c.mask_ellipse(0.5 + w * 0.6, fy - h + 0.05, 0.008, 0.008), (0.3, 0.6, 1.0))


def _mouse(c, col, rng, fy):
    c.shadow(0.5, fy - 0.02, 0.2, 0.035, 0.4)
    c.paint(c.mask_ellipse(0.5, fy - 0.27, 0.17, 0.27), col, round=0.08, gloss=0.45, hl=(0.35, 0.25))
    c.darken(c.mask_rect(0.497, fy - 0.54, 0.503, fy - 0.36), 0.5)
    c.paint(c.mask_rect(0.485, fy - 0.47, 0.515, fy - 0.4, 0.01), (0.2, 0.2, 0.2), round=0.006)
    if rng.random() < 0.5:  # RGB glow
        c.fill(c.mask_rect(0.47, fy - 0.1, 0.53, fy - 0.08, 0.01), hsv(rng.uniform(0, 1), 0.8, 0.95))


def _plant(c, col, rng, fy):
    """A plant in a tapered planter (terracotta, ceramic or the product's colour)."""
    pot = col if rng.random() < 0.5 else (0.76, 0.42, 0.28)
    w = rng.uniform(0.15, 0.2)
    c.shadow(0.5, fy, w * 1.2, 0.03, 0.4)
    leaf = hsv(rng.uniform(0.24, 0.36), rng.uniform(0.45, 0.75), rng.uniform(0.3, 0.55))
    for _ in range(int(rng.integers(7, 13))):
        a = rng.uniform(-2.6, -0.5)
        ln = rng.uniform(0.18, 0.34)
        x1, y1 = 0.5 + ln * math.cos(a), fy - 0.3 + ln * math.sin(a)
        c.paint(c.mask_ellipse((0.5 + x1) / 2, (fy - 0.3 + y1) / 2, 0.04 + ln * 0.12, 0.05), shift(leaf, rng.uniform(
            -0.1, 0.1)), round=0.02, gloss=0.2, texture=0.03)
    c.paint(c.mask_poly([(0.5 - w, fy - 0.3), (0.5 + w, fy - 0.3), (0.5 + w * 0.75, fy), (0.5 - w * 0.75, fy)]), pot,
            round=0.03, gloss=0.2, texture=0.04)
    c.paint(c.mask_rect(0.5 - w - 0.015, fy - 0.33, 0.5 + w + 0.015, fy - 0.28, 0.01), shift(pot, 0.05),
            round=0.01, gloss=0.2)


def _keyboard(c, col, rng, fy):
    top = fy - 0.3
    c.shadow(0.5, fy, 0.46, 0.03, 0.4)
    c.paint(c.mask_poly([(0.1, top), (0.9, top), (0.96, fy - 0.02), (0.04, fy - 0.02)]), col, round=0.01,
            gloss=0.2)
    key = shift(col, -0.2) if rgb(col).mean() > 0.35 else shift(col, 0.12)
    for r in range(5):
        t0, t1 = r / 5, (r + 0.78) / 5
        ya, yb = top + 0.02 + t0 * 0.24, top + 0.02 + t1 * 0.24
        xa, xb = 0.12 - 0.06 * t0, 0.88 + 0.06 * t0
        n = 14
        for k in range(n):
            kx0 = xa + (xb - xa) * k / n
            c.paint(c.mask_rect(kx0 + 0.003, ya, kx0 + (xb - xa) / n - 0.003, yb, 0.003), key, round=0.003,
                    gloss=0.1, light=0.4)
    if rng.random() < 0.5:
        glow = c.mask_rect(0.08, fy - 0.03, 0.92, fy - 0.015)
        c.fill(glow, hsv(rng.uniform(0, 1), 0.8, 0.9))


def _pot(c, col, rng, fy):
    w, h = rng.uniform(0.26, 0.32), rng.uniform(0.26, 0.34)
    top = fy - h
    c.shadow(0.5, fy, w * 1.15, 0.035, 0.45)
    for sx in (-1, 1):
        c.paint(c.mask_rect(0.5 + sx * (w - 0.05), top + 0.06, 0.5 + sx * (w + 0.07), top + 0.1, 0.02),
                shift(col, -0.1), round=0.01, gloss=0.3)
    body = np.maximum(c.mask_rect(0.5 - w, top, 0.5 + w, fy - 0.03), c.mask_ellipse(0.5, fy - 0.03, w, 0.03))
    c.paint(body, col, round=0.04, gloss=0.55, hl=(0.25, 0.4), hl_size=0.12, light=0.45)
    c.paint(c.mask_ellipse(0.5, top, w * 1.02, 0.045), shift(col, 0.08), round=0.01, gloss=0.4)
    c.paint(c.mask_ellipse(0.5, top - 0.02, w * 0.95, 0.05), shift(col, -0.05) if rng.random() < 0.6 else
            (0.85, 0.9, 0.92), round=0.015, gloss=0.5)
    c.paint(c.mask_rect(0.47, top - 0.09, 0.53, top - 0.035, 0.02), (0.12, 0.12, 0.12), round=0.01, gloss=0.3)


def _pan(c, col, rng, fy):
    cy = fy - 0.2
    c.shadow(0.42, fy - 0.08, 0.3, 0.08, 0.4)
    c.paint(c.mask_line([(0.6, cy + 0.02), (0.95, cy - 0.12)], 0.05), (0.12, 0.12, 0.12), round=0.015, gloss=0.3)
    c.paint(c.mask_ellipse(0.4, cy, 0.3, 0.16), col, round=0.02, gloss=0.4)
    c.paint(c.mask_ellipse(0.4, cy - 0.005, 0.26, 0.13), shift(col, -0.15), round=0.04, gloss=0.2, hl=(0.4, 0.35),
            texture=0.02)


def _appliance(c, col, rng, fy):
    w, h = rng.uniform(0.2, 0.26), rng.uniform(0.5, 0.62)
    top = fy - h
    c.shadow(0.5, fy, w * 1.3, 0.035, 0.45)
    if rng.random() < 0.5:  # a multicooker: a rounded drum with a lid and a panel
        c.paint(c.mask_rect(0.5 - w, top + 0.12, 0.5 + w, fy, 0.08), col, round=0.05, gloss=0.45, light=0.4)
        c.paint(c.mask_ellipse(0.5, top + 0.12, w, 0.07), shift(col, -0.15), round=0.03, gloss=0.4)
        c.paint(c.mask_rect(0.47, top + 0.02, 0.53, top + 0.08, 0.02), (0.1, 0.1, 0.1), round=0.01)
        c.paint(c.mask_rect(0.5 - w * 0.55, top + 0.28, 0.5 + w * 0.55, top + 0.4, 0.015), (0.06, 0.06, 0.07),
                round=0.005, gloss=0.2)
        c.fill(c.mask_rect(0.47, top + 0.31, 0.53, top + 0.35), (0.2, 0.8, 1.0))
    else:  # a coffee maker: a tower with a spout and a cup or carafe
        c.paint(c.mask_rect(0.5 - w, top, 0.5 + w, top + 0.16, 0.03), col, round=0.03, gloss=0.3)
        c.paint(c.mask_rect(0.5 + w * 0.2, top + 0.1, 0.5 + w, fy, 0.02), col, round=0.03, gloss=0.3)
        c.paint(c.mask_rect(0.5 - w, fy - 0.05, 0.5 + w, fy, 0.01), shift(col, -0.1), round=0.01, gloss=0.2)
        c.paint(c.mask_rect(0.5 - w * 0.6, fy - 0.2, 0.5 + w * 0.05, fy - 0.05, 0.02), (0.95, 0.95, 0.93),
                round=0.02, gloss=0.4)
        c.fill(c.mask_ellipse(0.5 - w * 0.27, fy - 0.19, w * 0.3, 0.015), (0.3, 0.18, 0.1))


def _kettle(c, col, rng, fy):
    c.shadow(0.5, fy, 0.27, 0.035, 0.45)
    c.paint(c.mask_arc(0.62, fy - 0.28, 0.1, 0.14, -80, 80, 0.03), shift(col, -0.1), round=0.01, gloss=0.3)
    c.paint(c.mask_poly([(0.34, fy - 0.22), (0.18, fy - 0.36), (0.16, fy - 0.34), (0.3, fy - 0.14)]), col,
            round=0.015, gloss=0.3)
    c.paint(c.mask_ellipse(0.46, fy - 0.2, 0.2, 0.19), col, round=0.06, gloss=0.6, hl=(0.3, 0.3), light=0.45)
    c.paint(c.mask_ellipse(0.46, fy - 0.38, 0.1, 0.03), shift(col, -0.1), round=0.01, gloss=0.3)
    c.paint(c.mask_ellipse(0.46, fy - 0.42, 0.03, 0.025), (0.15, 0.15, 0.15), round=0.01, gloss=0.3)


def _flatware(c, col, rng, fy):
    metal = (0.78, 0.79, 0.82) if rng.random() < 0.8 else shift(col, 0.1)
    c.shadow(0.5, fy - 0.01, 0.3, 0.03, 0.25, 0.02)
    for i, x in enumerate((0.3, 0.43, 0.56, 0.69)):
        top = 0.14 + 0.02 * (i % 2)
        c.shadow(x + 0.02, fy - 0.35, 0.025, 0.3, 0.12, 0.02)
        c.paint(c.mask_rect(x - 0.015, top + 0.2, x + 0.015, fy - 0.03, 0.015), metal, round=0.008, gloss=0.6)
        if i % 3 == 0:  # a spoon
            c.paint(c.mask_ellipse(x, top + 0.1, 0.045, 0.1), metal, round=0.02, gloss=0.7)
        elif i % 3 == 1:  # a fork
            c.paint(c.mask_rect(x - 0.035, top + 0.12, x + 0.035, top + 0.22, 0.02), metal, round=0.008, gloss=0.5)
            for k in range(4):
                c.paint(c.mask_rect(x - 0.035 + k * 0.021, top, x - 0.022 + k * 0.021, top + 0.15, 0.006), metal,
                        round=0.004, gloss=0.5)
        else:  # a knife
            c.paint(c.mask_poly([(x - 0.02, top + 0.24), (x - 0.02, top + 0.02), (x + 0.012, top),
                                 (x + 0.02, top + 0.24)]), metal, round=0.005, gloss=0.7, light=0.5)


def _chair(c, col, rng, fy):
    c.shadow(0.5, fy, 0.28, 0.04, 0.4)
    for a in (-0.28, -0.12, 0.0, 0.12, 0.28):  # a star base with casters
        ex = 0.5 + a * 0.9
        c.paint(c.mask_line([(0.5, fy - 0.12), (ex, fy - 0.035)], 0.022), (0.15, 0.15, 0.16), round=0.006)
        c.paint(c.mask_ellipse(ex, fy - 0.02, 0.018, 0.018), (0.1, 0.1, 0.1), round=0.006)
    c.paint(c.mask_rect(0.49, fy - 0.32, 0.51, fy - 0.11), (0.55, 0.55, 0.58), round=0.005, gloss=0.5)
    c.paint(c.mask_rect(0.3, fy - 0.4, 0.7, fy - 0.3, 0.04), col, round=0.04, gloss=0.2, texture=0.03)
    c.paint(c.mask_rect(0.33, 0.1, 0.67, fy - 0.42, 0.07), col, round=0.05, gloss=0.2, texture=0.04)
    for sx in (-1, 1):
        c.paint(c.mask_rect(0.5 + sx * 0.2 - 0.02, fy - 0.5, 0.5 + sx * 0.2 + 0.02, fy - 0.38, 0.01),
                (0.15, 0.15, 0.16), round=0.008)
        c.paint(c.mask_rect(0.5 + sx * 0.2 - 0.05, fy - 0.52, 0.5 + sx * 0.2 + 0.05, fy - 0.49, 0.01),
                (0.15, 0.15, 0.16), round=0.008, gloss=0.2)


def _desk(c, col, rng, fy):
    top = fy - rng.uniform(0.38, 0.46)
    legs = (0.18, 0.18, 0.2) if rng.random() < 0.6 else shift(col, -0.1)
    c.shadow(0.5, fy, 0.42, 0.03, 0.35)
    for x in (0.14, 0.82):
        c.paint(c.mask_rect(x, top + 0.04, x + 0.035, fy, 0.005), legs, round=0.006, gloss=0.2)
    for x in (0.2, 0.77):
        c.paint(c.mask_rect(x, top + 0.04, x + 0.025, fy - 0.06, 0.005), shift(legs, -0.05), round=0.004)
    c.paint(c.mask_poly([(0.12, top), (0.88, top), (0.94, top + 0.06), (0.06, top + 0.06)]), col, round=0.005,
            gloss=0.25, texture=0.02)
    c.paint(c.mask_rect(0.06, top + 0.06, 0.94, top + 0.085), shift(col, -0.12), round=0.003, gloss=0.1)
    if rng.random() < 0.6:  # a lamp or a plant on it
        c.paint(c.mask_rect(0.7, top - 0.14, 0.78, top + 0.01, 0.01), hsv(rng.uniform(0, 1), 0.3, 0.85),
                round=0.01, gloss=0.3)
        c.paint(c.mask_ellipse(0.74, top - 0.2, 0.07, 0.07), hsv(0.3, 0.55, 0.45), round=0.03, texture=0.08)


def _sofa(c, col, rng, fy):
    c.shadow(0.5, fy, 0.46, 0.035, 0.4)
    for x in (0.12, 0.85):
        c.paint(c.mask_rect(x, fy - 0.06, x + 0.03, fy, 0.004), (0.2, 0.14, 0.1), round=0.004)
    c.paint(c.mask_rect(0.1, fy - 0.42, 0.9, fy - 0.16, 0.05), shift(col, -0.05), round=0.05, texture=0.04,
            gloss=0.1)
    c.paint(c.mask_rect(0.08, fy - 0.2, 0.92, fy - 0.05, 0.03), col, round=0.04, texture=0.04, gloss=0.1)
    for x0 in (0.17, 0.51):
        c.paint(c.mask_rect(x0, fy - 0.26, x0 + 0.32, fy - 0.15, 0.03), shift(col, 0.04), round=0.05,
                texture=0.04, gloss=0.12)
    for x0 in (0.06, 0.84):
        c.paint(c.mask_rect(x0, fy - 0.32, x0 + 0.1, fy - 0.05, 0.04), shift(col, -0.02), round=0.05,
                texture=0.04, gloss=0.1)
    if rng.random() < 0.7:
        c.paint(c.mask_rect(0.22, fy - 0.38, 0.36, fy - 0.25, 0.03), hsv(rng.uniform(0, 1), 0.4, 0.8), round=0.04,
                texture=0.05)


def _bed(c, col, rng, fy):
    c.shadow(0.5, fy, 0.47, 0.03, 0.4)
    c.paint(c.mask_rect(0.1, fy - 0.5, 0.9, fy - 0.15, 0.03), col, round=0.04, texture=0.04, gloss=0.1)
    c.paint(c.mask_rect(0.06, fy - 0.18, 0.94, fy - 0.02, 0.01), shift(col, -0.1), round=0.02, texture=0.03)
    sheet = hsv(rng.uniform(0, 1), rng.uniform(0, 0.25), rng.uniform(0.8, 0.96))
    c.paint(c.mask_rect(0.08, fy - 0.27, 0.92, fy - 0.14, 0.02), sheet, round=0.05, gloss=0.1)
    for x0 in (0.17, 0.52):
        c.paint(c.mask_rect(x0, fy - 0.36, x0 + 0.3, fy - 0.24, 0.05), shift(sheet, 0.03), round=0.05, gloss=0.15)


def _lamp(c, col, rng, fy):
    c.shadow(0.5, fy, 0.15, 0.025, 0.4)
    c.paint(c.mask_ellipse(0.5, fy - 0.02, 0.13, 0.025), shift(col, -0.1), round=0.01, gloss=0.4)
    c.paint(c.mask_rect(0.49, 0.35, 0.51, fy - 0.02), (0.7, 0.6, 0.4), round=0.005, gloss=0.6)
    c.paint(c.mask_poly([(0.38, 0.12), (0.62, 0.12), (0.72, 0.4), (0.28, 0.4)]), col, round=0.02, gloss=0.1,
            texture=0.03)
    glow = _blur(c.mask_ellipse(0.5, 0.42, 0.14, 0.03), 0.02 * c.w)
    c.blend(np.array([1.0, 0.93, 0.75], np.float32)[None, None, :], glow * 0.7)


def _shelf(c, col, rng, fy):
    c.shadow(0.5, fy, 0.3, 0.025, 0.35)
    c.paint(c.mask_rect(0.22, 0.08, 0.78, fy), shift(col, -0.15), round=0.01, texture=0.03)
    c.paint(c.mask_rect(0.25, 0.1, 0.75, fy - 0.02), shift(col, -0.35), round=0.02)
    rows = 4
    for r in range(rows):
        y = 0.1 + (fy - 0.12) * (r + 1) / rows
        c.paint(c.mask_rect(0.23, y - 0.02, 0.77, y), col, round=0.004, gloss=0.2)
        x = 0.27
        while x < 0.7 and rng.random() < 0.9:
            bw = rng.uniform(0.02, 0.05)
            bh = rng.uniform(0.1, (fy - 0.12) / rows - 0.03)
            c.paint(c.mask_rect(x, y - 0.02 - bh, x + bw, y - 0.02), hsv(rng.uniform(0, 1), 0.5, 0.6), round=0.004)
            x += bw + 0.006


def _ball(c, col, rng, fy):
    n = int(rng.integers(1, 4))
    spots = [(0.5, 0.26)] if n == 1 else [(0.34, 0.2), (0.66, 0.2)] if n == 2 else [(0.28, 0.16), (0.52, 0.2),
                                                                                     (0.74, 0.15)]
    for i, (x, r) in enumerate(spots):
        kind = int(rng.integers(0, 4))
        y = fy - r
        c.shadow(x + 0.03, fy, r * 0.9, 0.03, 0.45)
        base = [shift(col, 0) if i == 0 else (0.85, 0.42, 0.12), (0.95, 0.95, 0.95), (0.45, 0.22, 0.1),
                (0.95, 0.9, 0.55)][kind]
        if kind == 2:  # an American football
            m = c.mask_ellipse(x, y + r * 0.3, r * 1.1, r * 0.65)
            c.paint(m, base, round=0.05, gloss=0.35, texture=0.05)
            c.fill(c.mask_rect(x - r * 0.3, y + r * 0.25, x + r * 0.3, y + r * 0.32), (0.95, 0.95, 0.95))
            continue
        m = c.mask_ellipse(x, y, r, r)
        c.paint(m, base, round=r * 0.9, gloss=0.45, hl=(0.33, 0.3), hl_size=0.2, texture=0.03)
        line = (0.1, 0.1, 0.1) if kind != 3 else (0.2, 0.35, 0.7)
        if kind == 0:  # basketball seams
            c.fill(np.minimum(m, c.mask_line([(x - r, y), (x + r, y)], 0.008)), line)
            c.fill(np.minimum(m, c.mask_line([(x, y - r), (x, y + r)], 0.008)), line)
            c.fill(np.minimum(m, c.mask_arc(x - r * 1.3, y, r * 0.9, r, -50, 50, 0.008)), line)
            c.fill(np.minimum(m, c.mask_arc(x + r * 1.3, y, r * 0.9, r, 130, 230, 0.008)), line)
        elif kind == 1:  # soccer panels
            for k in range(5):
                a = k * 2 * math.pi / 5 + 0.3
                c.fill(np.minimum(m, c.mask_ellipse(x + r * 0.75 * math.cos(a), y + r * 0.75 * math.sin(a), r * 0.22,
                                                    r * 0.22)), (0.1, 0.1, 0.12))
            c.fill(c.mask_ellipse(x, y, r * 0.25, r * 0.25), (0.1, 0.1, 0.12))
        else:  # volleyball bands
            for k in range(3):
                c.fill(np.minimum(m, c.mask_arc(x, y + r * 1.6, r * 1.5, r * 1.5, 200 + k * 25, 340 - k * 25,
                                                0.012)), line)


def _dumbbell(c, col, rng, fy):
    for k, y in enumerate((fy - 0.12, fy - 0.3)):
        x0, x1 = 0.2 + 0.05 * k, 0.8 + 0.05 * k
        c.shadow(0.5 + 0.05 * k, y + 0.1, 0.33, 0.025, 0.35)
        c.paint(c.mask_rect(x0 + 0.08, y - 0.02, x1 - 0.08, y + 0.02, 0.01), (0.6, 0.6, 0.62), round=0.008, gloss=0.6)
        for x in (x0, x1 - 0.12):
            c.paint(c.mask_rect(x, y - 0.09, x + 0.12, y + 0.09, 0.02), col, round=0.03, gloss=0.35, texture=0.02)


def _mat(c, col, rng, fy):
    c.shadow(0.5, fy, 0.42, 0.035, 0.35)
    c.paint(c.mask_poly([(0.1, fy - 0.02), (0.62, fy - 0.02), (0.72, fy - 0.16), (0.3, fy - 0.16)]), col,
            round=0.01, gloss=0.1, texture=0.03)
    c.paint(c.mask_rect(0.55, fy - 0.4, 0.9, fy - 0.02, 0.2), col, round=0.06, gloss=0.2, texture=0.03)
    c.paint(c.mask_ellipse(0.58, fy - 0.21, 0.07, 0.19), shift(col, -0.12), round=0.02)
    c.fill(c.mask_arc(0.58, fy - 0.21, 0.035, 0.1, 0, 300, 0.006), shift(col, -0.3))


def _luggage(c, col, rng, fy):
    if rng.random() < 0.5:  # a backpack
        c.shadow(0.5, fy, 0.27, 0.035, 0.4)
        c.paint(c.mask_rect(0.27, 0.2, 0.73, fy - 0.01, 0.12), col, round=0.06, texture=0.05, gloss=0.1)
        c.paint(c.mask_rect(0.33, fy - 0.32, 0.67, fy - 0.05, 0.05), shift(col, -0.08), round=0.05, texture=0.05)
        c.fill(c.mask_line([(0.36, fy - 0.27), (0.64, fy - 0.27)], 0.006), (0.15, 0.15, 0.15))
        c.paint(c.mask_arc(0.5, 0.22, 0.08, 0.07, 180, 360, 0.025), shift(col, -0.15), round=0.01)
        return
    c.shadow(0.5, fy, 0.24, 0.03, 0.4)
    for x in (0.33, 0.64):
        c.paint(c.mask_ellipse(x, fy - 0.025, 0.025, 0.025), (0.08, 0.08, 0.08), round=0.01, gloss=0.3)
    c.paint(c.mask_rect(0.45, 0.06, 0.47, 0.2), (0.6, 0.6, 0.62), round=0.004, gloss=0.6)
    c.paint(c.mask_rect(0.53, 0.06, 0.55, 0.2), (0.6, 0.6, 0.62), round=0.004, gloss=0.6)
    c.paint(c.mask_rect(0.44, 0.05, 0.56, 0.08, 0.01), (0.12, 0.12, 0.12), round=0.008)
    c.paint(c.mask_rect(0.28, 0.19, 0.72, fy - 0.04, 0.04), col, round=0.05, gloss=0.4)
    for x in (0.36, 0.44, 0.56, 0.64):
        c.darken(c.mask_rect(x, 0.23, x + 0.01, fy - 0.08), 0.2, 0.004)


def _travel_pillow(c, col, rng, fy):
    _pillow(c, col, rng, fy, travel=True)


def _pillow(c, col, rng, fy, travel=False):
    if travel:  # a U-shaped travel pillow
        cy = fy - 0.3
        ring = np.clip(c.mask_ellipse(0.5, cy, 0.3, 0.26) - c.mask_ellipse(0.5, cy + 0.02, 0.11, 0.1), 0, 1)
        ring = np.clip(ring - c.mask_rect(0.43, cy, 0.57, fy), 0, 1)
        c.shadow(0.5, fy - 0.02, 0.3, 0.04, 0.35)
        c.paint(ring, col, round=0.07, gloss=0.15, texture=0.03)
        return
    c.shadow(0.5, fy, 0.38, 0.04, 0.35)
    m = c.mask_rect(0.14, fy - 0.38, 0.86, fy - 0.04, 0.12)
    c.paint(m, col, round=0.1, gloss=0.2, texture=0.02)
    c.darken(c.mask_line([(0.2, fy - 0.21), (0.8, fy - 0.21)], 0.01), 0.08, 0.01)


def _bottle(c, col, rng, fy):
    n = int(rng.integers(1, 4))
    xs = [0.5] if n == 1 else [0.38, 0.62] if n == 2 else [0.3, 0.5, 0.7]
    w = 0.12 if n > 1 else 0.15
    label = hsv(rng.uniform(0, 1), rng.uniform(0, 0.3), 0.95)
    for x in xs:
        h = rng.uniform(0.45, 0.58)
        c.shadow(x, fy, w * 1.15, 0.025, 0.4)
        c.paint(c.mask_rect(x - w * 0.4, fy - h - 0.09, x + w * 0.4, fy - h + 0.02, 0.02), (0.92, 0.92, 0.92)
                if rng.random() < 0.5 else shift(col, -0.2), round=0.01, gloss=0.4)
        c.paint(c.mask_rect(x - w, fy - h, x + w, fy, 0.05), col, round=0.04, gloss=0.55, hl=(0.3, 0.3), light=0.4)
        c.paint(c.mask_rect(x - w * 0.85, fy - h * 0.7, x + w * 0.85, fy - h * 0.25, 0.01), label, round=0.01,
                gloss=0.1, light=0.3)
        c.fill(c.mask_rect(x - w * 0.6, fy - h * 0.6, x + w * 0.6, fy - h * 0.55), shift(col, -0.2))
        c.fill(c.mask_rect(x - w * 0.5, fy - h * 0.48, x + w * 0.3, fy - h * 0.45), (0.4, 0.4, 0.4))


def _mug(c, col, rng, fy):
    c.shadow(0.5, fy, 0.25, 0.03, 0.4)
    c.paint(c.mask_arc(0.7, fy - 0.22, 0.08, 0.1, -90, 90, 0.035), col, round=0.01, gloss=0.3)
    c.paint(np.maximum(c.mask_rect(0.3, fy - 0.42, 0.7, fy - 0.03), c.mask_ellipse(0.5, fy - 0.03, 0.2, 0.03)), col,
            round=0.05, gloss=0.5, hl=(0.25, 0.35), light=0.45)
    c.paint(c.mask_ellipse(0.5, fy - 0.42, 0.2, 0.035), shift(col, -0.35), round=0.01)


def _box(c, col, rng, fy):
    """A product's retail box in three-quarter view (front, side, top faces)."""
    w, h, d = rng.uniform(0.22, 0.3), rng.uniform(0.3, 0.5), rng.uniform(0.1, 0.16)
    x0, y1 = 0.5 - w - d * 0.4, fy - 0.01
    c.shadow(0.5, fy, w + d, 0.03, 0.4)
    front = c.mask_rect(x0, y1 - h, x0 + 2 * w, y1)
    c.paint(front, col, round=0.0, gloss=0.15, light=0.2)
    side = c.mask_poly([(x0 + 2 * w, y1 - h), (x0 + 2 * w + d, y1 - h - d * 0.6), (x0 + 2 * w + d, y1 - d * 0.6),
                        (x0 + 2 * w, y1)])
    c.paint(side, shift(col, -0.18), round=0.0, gloss=0.05, light=0.15)
    top = c.mask_poly([(x0, y1 - h), (x0 + d, y1 - h - d * 0.6), (x0 + 2 * w + d, y1 - h - d * 0.6),
                       (x0 + 2 * w, y1 - h)])
    c.paint(top, shift(col, 0.12), round=0.0, gloss=0.1, light=0.1)
    c.fill(c.mask_rect(x0 + 0.03, y1 - h * 0.62, x0 + 2 * w - 0.03, y1 - h * 0.32), shift(col, 0.3, -0.3))
    c.fill(c.mask_rect(x0 + 0.05, y1 - h * 0.52, x0 + w, y1 - h * 0.45), shift(col, -0.4))
    c.fill(c.mask_rect(x0 + 0.05, y1 - h * 0.42, x0 + w * 1.4, y1 - h * 0.39), shift(col, -0.3))


def _shoe(c, col, rng, fy):
    c.shadow(0.5, fy, 0.38, 0.03, 0.4)
    sole = c.mask_poly([(0.12, fy - 0.05), (0.88, fy - 0.05), (0.9, fy - 0.01), (0.14, fy)])
    c.paint(sole, (0.95, 0.95, 0.93), round=0.01, gloss=0.2)
    upper = c.mask_poly([(0.14, fy - 0.05), (0.16, fy - 0.24), (0.42, fy - 0.3), (0.6, fy - 0.18), (0.86, fy - 0.12),
                         (0.89, fy - 0.05)])
    c.paint(_blur(upper, 0.01 * c.w), col, round=0.04, gloss=0.25, texture=0.04)
    for k in range(4):
        x = 0.38 + k * 0.05
        c.fill(c.mask_line([(x, fy - 0.27 + k * 0.02), (x + 0.04, fy - 0.24 + k * 0.02)], 0.008),
               (0.95, 0.95, 0.95))


_DRAW: dict[str, Callable] = {
    "laptop": _laptop, "phone": _phone, "tablet": _tablet, "headphones": _headphones, "earbuds": _earbuds,
    "speaker": _speaker, "watch": _watch, "camera": _camera, "monitor": _monitor, "tv": _tv,
    "controller": _controller, "console": _console, "keyboard": _keyboard, "mouse": _mouse, "plant": _plant,
    "travel_pillow": _travel_pillow, "pot": _pot, "pan": _pan,
    "appliance": _appliance, "kettle": _kettle, "flatware": _flatware, "chair": _chair, "desk": _desk,
    "sofa": _sofa, "bed": _bed, "lamp": _lamp, "shelf": _shelf, "ball": _ball, "dumbbell": _dumbbell, "mat": _mat,
    "luggage": _luggage, "pillow": _pillow, "bottle": _bottle, "mug": _mug, "box": _box, "shoe": _shoe,
}
KINDS: tuple[str, ...] = tuple(_DRAW)

# words of a title or category -> kind (first match wins; whole words, a plural "s" allowed)
_KIND_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("laptop", ("laptop", "notebook", "chromebook", "macbook")),
    ("tablet", ("tablet", "ipad", "e-reader", "kindle")),
    ("earbuds", ("earbuds", "earbud", "airpods", "earphones")),
    ("console", ("console", "vr headset", "quest", "router", "hard drive", "ssd")),
    ("headphones", ("headphones", "headphone", "headset")),
    ("phone", ("smartphone", "phone", "iphone", "cell phone")),
    ("watch", ("watch", "smartwatch", "fitness tracker")),
    ("camera", ("camera", "webcam", "dashcam")),
    ("tv", ("tv", "television")),
    ("monitor", ("monitor", "display")),
    ("speaker", ("speaker", "soundbar", "echo dot")),
    ("controller", ("controller", "gamepad")),
    ("keyboard", ("keyboard",)),
    ("mouse", ("mouse", "mice")),
    ("flatware", ("silverware", "flatware", "cutlery", "utensil", "spoon", "knife set")),
    ("pan", ("skillet", "frying pan", "pan", "griddle", "wok")),
    ("kettle", ("kettle", "teapot")),
    ("appliance", ("coffee", "espresso", "cooker", "blender", "air fryer", "toaster", "mixer", "maker",
                   "microwave", "vacuum")),
    ("plant", ("planter", "flower pot", "plant pot", "houseplant")),
    ("pot", ("stockpot", "pot", "dutch oven", "saucepan", "cookware")),
    ("mug", ("mug", "tumbler", "cup")),
    ("travel_pillow", ("neck pillow", "travel pillow")),
    ("pillow", ("pillow", "cushion", "mask", "blanket")),
    ("chair", ("chair", "stool")),
    ("desk", ("desk", "table")),
    ("sofa", ("sofa", "couch", "loveseat", "sectional", "ottoman")),
    ("bed", ("bed frame", "mattress", "bed", "headboard")),
    ("lamp", ("lamp", "light")),
    ("shelf", ("bookshelf", "bookcase", "shelf", "shelves", "cabinet", "dresser")),
    ("ball", ("ball", "basketball", "football", "soccer", "volleyball")),
    ("dumbbell", ("dumbbell", "weights", "kettlebell")),
    ("mat", ("yoga mat", "mat", "foam roller")),
    ("luggage", ("luggage", "suitcase", "carry-on", "backpack", "duffel", "bag")),
    ("shoe", ("shoe", "sneaker", "boot", "sandal")),
    ("bottle", ("wash", "shampoo", "soap", "lotion", "bottle", "detergent", "sanitizer", "vitamin", "spray")),
)
_KIND_RES = tuple((kind, re.compile("|".join(rf"(?<![a-z]){re.escape(w)}(?:s|es)?(?![a-z])" for w in words)))
                  for kind, words in _KIND_WORDS)


def kind_for(text: str) -> str:
    """The kind of picture for a product title (or category): "laptop" for "Dell XPS 13 Laptop", "box" if none."""
    t = text.lower()
    for kind, rx in _KIND_RES:
        if rx.search(t):
            return kind
    return "box"


def product_image(kind: str, seed: Any, size: int = 320, color: Color | None = None,
                  scene: str | None = None) -> Image.Image:
    """A product shot (uncached): ``kind`` one of ``KINDS`` (unknown kinds draw a retail box)."""
    rng = rng_for("product", kind, seed)
    c = Canvas(size, size, rng)
    _, fy = _backdrop(c, rng, scene)
    col = rgb(color) if color is not None else _pick_color(rng)
    col = shift(col, float(rng.uniform(-0.03, 0.03)), float(rng.uniform(-0.04, 0.04)))
    _DRAW.get(kind, _box)(c, col, rng, fy)
    return c.finish()


__all__ = ["KINDS", "kind_for", "product_image"]
