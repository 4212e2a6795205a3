"""Food photos for delivery apps, drawn as overhead shots on a table (the way DoorDash's menu photos look):
``dish_image(kind, seed, w, h)`` (one of ``DISH_KINDS``: wings on a plate, a pizza on a board, a bowl of pho, a
burger, fries, tacos, a drink...) and ``storefront_image(name, seed, w, h, color)`` (a restaurant's street front: an
awning in the brand's colour, a sign with its name, lit windows, a door and the sidewalk). ``dish_kind(name,
category)`` picks the kind from a menu item's words. All uncached; ``cache.dish_photo`` and ``cache.storefront_photo``
encode and cache them."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from real_local.imagery.canvas import Canvas, _blur, hsv, rgb, rng_for, shift

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
_WHITE = np.ones(3, np.float32)

# menu words -> kind (first match wins)
_KIND_WORDS = (
    ("pizza", ("pizza",)), ("wings", ("wings", "nuggets", "chicken bites")), ("fries", ("fries",)),
    ("burger", ("burger", "cheeseburger")), ("sub", ("sub", "cheesesteak", "crazy bread")),
    ("sandwich", ("sandwich", "club")), ("burrito", ("burrito", "spring roll", "egg roll")),
    ("tacos", ("taco", "quesadilla")), ("sushi", ("roll", "sushi")),
    ("noodles", ("noodles", "lo mein", "vermicelli")), ("soup", ("pho", "ramen", "soup")),
    ("drink", ("horchata", "drink", "coffee", "lemonade", "shake", "soda", "tea")),
    ("bowl", ("rice", "bowl", "mashed", "mac", "edamame", "veggie", "dip", "sticks")),
    ("chicken", ("rotisserie", "chicken", "white")), ("chips", ("chips", "guacamole")),
)
_KIND_RES = tuple((k, re.compile("|".join(rf"(?<![a-z]){re.escape(w)}" for w in ws))) for k, ws in _KIND_WORDS)
DISH_KINDS = ("pizza", "wings", "fries", "burger", "sub", "sandwich", "burrito", "tacos", "sushi", "noodles", "soup",
              "drink", "chicken", "chips", "bowl")


def dish_kind(name: str, category: str = "") -> str:
    """The picture for a menu item: "wings" for "Lemon Pepper Wings", "soup" for "Beef Pho", "bowl" if none."""
    for text in (name.lower(), category.lower()):
        for kind, rx in _KIND_RES:
            if rx.search(text):
                return kind
    return "bowl"


def _tint(name: str) -> str:
    n = name.lower()
    for words, col in ((("lemon", "garlic", "parmesan"), "#d9a84e"), (("hot", "atomic", "buffalo", "spicy"), "#b8401f"),
                       (("mango", "orange"), "#d9781e"), (("bbq", "hickory", "teriyaki"), "#6e3317"),
                       (("beef", "asada", "pastor"), "#7a4a2e"), (("fish", "shrimp", "salmon"), "#e7a07c"),
                       (("miso", "tonkotsu"), "#e8d2a8"), (("horchata", "vanilla", "shake"), "#f1e9da"),
                       (("coffee",), "#8a5a35"), (("lemonade",), "#f4e38a"), (("sour",), "#a4622b"),
                       (("mac", "cheese"), "#f0b83c"), (("mashed",), "#efe4c6"), (("edamame", "veggie", "broccoli"),
                                                                                  "#5f9a3a")):
        if any(w in n for w in words):
            return col
    return ""


# ---------------------------------------------------------------- the table and its dishes
def _table(c: Canvas, rng: np.random.Generator) -> None:
    """An overhead table: warm wood planks, white marble or dark slate."""
    kind = int(rng.integers(3))
    if kind == 0:
        wood = hsv(rng.uniform(0.06, 0.09), rng.uniform(0.4, 0.6), rng.uniform(0.45, 0.7))
        c.gradient(shift(wood, 0.05), shift(wood, -0.06))
        n = c.noise(0.04, 0.0, streak=0.15)
        grain = (0.1 * np.sin((c.xx * 90 + n * 2.5) * math.pi) * (0.6 + 0.4 * n))[..., None]
        c.px *= 1 + grain
        planks = max(3, int(rng.integers(3, 6)))
        c.darken(c.mask_lines([((k / planks, 0), (k / planks, 1)) for k in range(1, planks)], 2), 0.35)
    elif kind == 1:
        g = float(rng.uniform(0.9, 0.97))
        c.gradient((g, g, g - 0.01), (g - 0.05, g - 0.05, g - 0.05))
        n = c.noise(0.12, 0.0)
        veins = np.exp(-(np.abs(np.sin((c.xx * 3 + c.yy * 2 + n * 1.5) * math.pi)) * 25)) * 0.12
        c.px *= (1 - veins)[..., None]
    else:
        s = hsv(rng.uniform(0.55, 0.65), 0.08, rng.uniform(0.2, 0.3))
        c.gradient(shift(s, 0.04), shift(s, -0.05))
        c.noise(0.02, 0.06)


def _circle(c: Canvas, cx: float, cy: float, r: float) -> np.ndarray:
    return c.mask_ellipse(cx, cy, r, r * c.w / c.h)


def _plate(c: Canvas, cx: float, cy: float, r: float, color=(0.96, 0.96, 0.95), bowl: bool = False) -> None:
    c.shadow(cx + 0.015, cy + 0.02, r * 1.02, r * 1.02 * c.w / c.h, 0.35, 0.025)
    c.paint(_circle(c, cx, cy, r), color, round=0.02, gloss=0.25, light=0.15, hl=(0.3, 0.25), hl_size=0.25)
    inner = _circle(c, cx, cy, r * (0.8 if bowl else 0.72))
    c.paint(inner, shift(color, -0.04), round=0.03 if bowl else 0.01, gloss=0.1, light=-0.2 if bowl else 0.1)


def _blobs(c: Canvas, rng, cx, cy, spread, n, size, col, gloss=0.35, texture=0.06, squash=0.6):
    for _ in range(n):
        a, d = rng.uniform(0, 2 * math.pi), spread * math.sqrt(rng.uniform(0, 1))
        x, y = cx + d * math.cos(a), cy + d * math.sin(a) * c.w / c.h
        rx = size * rng.uniform(0.8, 1.2)
        m = c.mask_ellipse(x, y, rx, rx * squash * c.w / c.h)
        c.darken(_blur(m, 2), 0.3)
        c.paint(m, shift(col, rng.uniform(-0.08, 0.06)), round=0.02, gloss=gloss, texture=texture,
                hl=(rng.uniform(0.25, 0.45), 0.3))


def _sticks(c: Canvas, rng, cx, cy, spread, n, ln, width, col, bag=None):
    for _ in range(n):
        x, y = cx + rng.uniform(-spread, spread), cy + rng.uniform(-spread, spread) * c.w / c.h
        a = rng.uniform(0, math.pi)
        dx, dy = math.cos(a) * ln / 2, math.sin(a) * ln / 2 * c.w / c.h
        m = c.mask_line([(x - dx, y - dy), (x + dx, y + dy)], width, round_ends=False)
        if bag is not None:
            m = m * bag
        c.darken(_blur(m, 1.5), 0.25)
        c.paint(m, shift(col, rng.uniform(-0.08, 0.05)), round=0.006, gloss=0.2, texture=0.05)


def _crumbs(c: Canvas, rng, cx, cy, spread, n, size, cols):
    for _ in range(n):
        x, y = cx + rng.uniform(-spread, spread), cy + rng.uniform(-spread, spread) * c.w / c.h
        col = rgb(cols[int(rng.integers(len(cols)))])
        c.paint(c.mask_ellipse(x, y, size * rng.uniform(0.6, 1.3), size * rng.uniform(0.6, 1.3) * c.w / c.h), col,
                round=0.003, gloss=0.2)


def _pizza(c, rng, cx, cy, name):
    r = 0.4
    c.shadow(cx + 0.015, cy + 0.02, r * 1.06, r * 1.06 * c.w / c.h, 0.4, 0.02)
    c.paint(_circle(c, cx, cy, r * 1.06), (0.62, 0.45, 0.3), round=0.01, gloss=0.05, texture=0.05)  # the board
    c.paint(_circle(c, cx, cy, r), (0.82, 0.58, 0.3), round=0.03, gloss=0.15, texture=0.08)  # the crust
    c.paint(_circle(c, cx, cy, r * 0.86), (0.8, 0.24, 0.12), round=0.01, gloss=0.2)
    cheese = _circle(c, cx, cy, r * 0.84)
    c.paint(cheese, (0.97, 0.84, 0.5), round=0.0, gloss=0.3, texture=0.08)
    c.darken(cheese * np.clip(c.noise(0.03, 0.0), 0, 1), 0.25)
    if "cheese" not in name.lower():
        for _ in range(int(rng.integers(14, 22))):
            a, d = rng.uniform(0, 2 * math.pi), r * 0.75 * math.sqrt(rng.uniform(0.02, 1))
            m = _circle(c, cx + d * math.cos(a), cy + d * math.sin(a) * c.w / c.h, 0.045)
            c.paint(m, (0.68, 0.15, 0.1), round=0.008, gloss=0.35, texture=0.08)
    for k in range(4):
        a = k * math.pi / 4 + 0.2
        c.darken(c.mask_line([(cx - math.cos(a) * r * 0.95, cy - math.sin(a) * r * 0.95 * c.w / c.h),
                              (cx + math.cos(a) * r * 0.95, cy + math.sin(a) * r * 0.95 * c.w / c.h)], 0.004), 0.3)


def _bowl(c, rng, cx, cy, name, kind):
    rim = hsv(rng.uniform(0, 1), rng.uniform(0, 0.25), rng.uniform(0.2, 0.95))
    _plate(c, cx, cy, 0.38, rim, bowl=True)
    inner = _circle(c, cx, cy, 0.3)
    tint = _tint(name)
    if kind == "soup":
        broth = rgb(tint or "#c98b4b")
        c.paint(inner, broth, round=0.02, gloss=0.4, light=-0.2)
        for _ in range(int(rng.integers(8, 14))):  # noodles under the surface
            y = cy + rng.uniform(-0.2, 0.2)
            pts = [(cx - 0.22 + t * 0.44, y + 0.02 * math.sin(t * 9 + rng.uniform(0, 6))) for t in np.linspace(0, 1, 12)]
            c.blend(rgb("#f3e6c4")[None, None, :], c.mask_line(pts, 0.012) * inner * 0.7)
        if "ramen" in name.lower():
            for s in (-1, 1):
                x = cx + s * 0.09
                c.paint(_circle(c, x, cy - 0.08, 0.07), (0.98, 0.97, 0.93), round=0.01, gloss=0.3)
                c.paint(_circle(c, x, cy - 0.08, 0.035), (0.96, 0.62, 0.15), round=0.01, gloss=0.4)
        _blobs(c, rng, cx + 0.08, cy + 0.1, 0.07, 6, 0.035, rgb("#8a5a40" if "beef" in name.lower() else "#e8d0b0"))
        _crumbs(c, rng, cx, cy, 0.18, 30, 0.012, ("#3f8f2f", "#5aa83a", "#e8f0d0"))
    elif kind == "noodles":
        c.paint(inner, (0.9, 0.78, 0.5), round=0.02, gloss=0.2)
        for _ in range(40):
            a0, rr = rng.uniform(0, 2 * math.pi), rng.uniform(0.02, 0.24)
            pts = [(cx + rr * math.cos(a0 + t), cy + rr * math.sin(a0 + t) * c.w / c.h) for t in np.linspace(0, 1.6, 10)]
            c.paint(c.mask_line(pts, 0.011) * inner, shift(rgb("#e9c779"), rng.uniform(-0.1, 0.05)), round=0.003,
                    gloss=0.45)
        _crumbs(c, rng, cx, cy, 0.18, 20, 0.016, ("#e58a5a", "#3f8f2f", "#f1d8b0", "#7a4a2e"))
    else:  # rice, mash, mac, greens
        base = rgb(tint or "#f2e3b3")
        c.paint(inner, base, round=0.04, gloss=0.15, texture=0.12)
        n = "rice" in name.lower() and "bowl" not in name.lower()
        _crumbs(c, rng, cx, cy, 0.2, 60 if n else 0, 0.01, ("#f2c14e", "#7bb03a", "#e8803a", "#f5efe0"))
        if "bowl" in name.lower():
            top = rgb("#d9781e" if "orange" in name.lower() else "#6e3317" if "teriyaki" in name.lower()
                      else "#7a4a2e")
            _blobs(c, rng, cx + 0.05, cy - 0.03, 0.13, 9, 0.045, top, gloss=0.5)
            if "broccoli" in name.lower():
                _blobs(c, rng, cx - 0.08, cy + 0.08, 0.1, 6, 0.04, rgb("#3f7f2a"), gloss=0.1, texture=0.2, squash=0.9)
        if "edamame" in name.lower() or "veggie" in name.lower():
            _sticks(c, rng, cx, cy, 0.15, 22, 0.12, 0.03, rgb(tint or "#5f9a3a"), bag=inner)


def _wings(c, rng, cx, cy, name):
    _plate(c, cx, cy, 0.4)
    col = rgb(_tint(name) or "#b8561f")
    boneless = "boneless" in name.lower() or "nugget" in name.lower()
    _blobs(c, rng, cx - 0.03, cy - 0.02, 0.2, 10, 0.075 if boneless else 0.09, col, gloss=0.55,
           squash=0.8 if boneless else 0.55)
    if "lemon" in name.lower() or "garlic" in name.lower():
        _crumbs(c, rng, cx, cy, 0.2, 40, 0.006, ("#f5efcf", "#6b6b3a"))
    _sticks(c, rng, cx + 0.24, cy + 0.2, 0.05, 5, 0.16, 0.028, rgb("#8dc06a"))  # celery
    c.shadow(cx - 0.26, cy + 0.28, 0.08, 0.08 * c.w / c.h, 0.3, 0.015)
    c.paint(_circle(c, cx - 0.27, cy + 0.27, 0.08), (0.95, 0.95, 0.93), round=0.01, gloss=0.2)
    c.paint(_circle(c, cx - 0.27, cy + 0.27, 0.06), (0.96, 0.94, 0.86), round=0.01, gloss=0.5)


def _fries(c, rng, cx, cy, name):
    box = c.mask_rect(cx - 0.26, cy - 0.2, cx + 0.26, cy + 0.3, r=0.04)
    c.shadow(cx + 0.02, cy + 0.07, 0.28, 0.28 * c.w / c.h, 0.35, 0.03)
    c.paint(box, (0.85, 0.15, 0.12), round=0.02, gloss=0.2)
    inner = c.mask_rect(cx - 0.23, cy - 0.17, cx + 0.23, cy + 0.27, r=0.03)
    c.paint(inner, (0.95, 0.93, 0.88), round=0.01, gloss=0.05)
    waffle = "waffle" in name.lower()
    _sticks(c, rng, cx, cy + 0.05, 0.17, 45 if not waffle else 0, 0.22, 0.028, rgb("#f0b94a"), bag=inner)
    if waffle:
        _blobs(c, rng, cx, cy + 0.05, 0.16, 14, 0.06, rgb("#e8aa45"), gloss=0.3, texture=0.15, squash=0.9)
    if "chili" in name.lower():
        _blobs(c, rng, cx, cy + 0.05, 0.1, 8, 0.06, rgb("#7a2e17"), gloss=0.4)
        _crumbs(c, rng, cx, cy + 0.05, 0.12, 40, 0.012, ("#f5b82e",))


def _bun(c, rng, cx, cy, r):
    c.shadow(cx + 0.015, cy + 0.02, r, r * c.w / c.h, 0.4, 0.025)
    c.paint(_circle(c, cx, cy, r * 1.06), (0.25, 0.55, 0.2), round=0.01, gloss=0.2, texture=0.1)  # lettuce frill
    c.paint(_circle(c, cx, cy, r), (0.78, 0.5, 0.22), round=0.06, gloss=0.4, light=0.4)
    for _ in range(26):
        a, d = rng.uniform(0, 2 * math.pi), r * 0.8 * math.sqrt(rng.uniform(0, 1))
        x, y = cx + d * math.cos(a), cy + d * math.sin(a) * c.w / c.h
        c.fill(c.mask_ellipse(x, y, 0.008, 0.004 * c.w / c.h), (0.97, 0.92, 0.78))


def _burger(c, rng, cx, cy, name):
    _plate(c, cx, cy, 0.44, (0.92, 0.9, 0.86))
    _bun(c, rng, cx - 0.05, cy - 0.03, 0.25)
    _sticks(c, rng, cx + 0.26, cy + 0.22, 0.06, 10, 0.16, 0.025, rgb("#f0b94a"))


def _sandwich(c, rng, cx, cy, name):
    _plate(c, cx, cy, 0.44, (0.95, 0.95, 0.94))
    if "club" in name.lower() or "grilled" in name.lower():
        for s in (-1, 1):  # two triangle halves
            pts = [(cx + s * 0.02, cy - 0.22), (cx + s * 0.28, cy + 0.18), (cx + s * 0.02, cy + 0.18)]
            c.shadow(cx + s * 0.12, cy + 0.02, 0.14, 0.16, 0.3, 0.02)
            c.paint(c.mask_poly(pts), (0.86, 0.66, 0.4), round=0.02, gloss=0.15, texture=0.08)
            c.paint(c.mask_line([pts[1], pts[2]], 0.025), (0.3, 0.6, 0.2), round=0.004)
    else:
        _bun(c, rng, cx, cy - 0.02, 0.27)
        _sticks(c, rng, cx + 0.28, cy + 0.26, 0.04, 6, 0.12, 0.022, rgb("#7cae3f"))


def _long(c, rng, cx, cy, w, h, crust, fill, angle_tilt=0.0):
    """A sub roll or a burrito: a long rounded loaf, the filling showing along its cut side."""
    c.shadow(cx + 0.015, cy + 0.03, w / 2, h / 2 * c.w / c.h, 0.35, 0.02)
    c.paint(c.mask_rect(cx - w / 2, cy - h / 2 * c.w / c.h, cx + w / 2, cy + h / 2 * c.w / c.h, r=h * 0.45), crust,
            round=0.05, gloss=0.3, texture=0.05)
    for k, col in enumerate(fill):
        y = cy + h / 2 * c.w / c.h - 0.01 - k * 0.018
        c.paint(c.mask_line([(cx - w / 2 + 0.04, y), (cx + w / 2 - 0.04, y)], 0.02), col, round=0.004, gloss=0.2,
                texture=0.1)


def _sub(c, rng, cx, cy, name):
    board = c.mask_rect(0.06, 0.22, 0.94, 0.78, r=0.03)
    c.shadow(0.51, 0.52, 0.45, 0.3, 0.3, 0.02)
    c.paint(board, (0.72, 0.55, 0.36), round=0.01, gloss=0.05, texture=0.06)
    if "bread" in name.lower():
        for k in range(5):
            _long(c, rng, cx, 0.32 + k * 0.09, 0.6, 0.08, (0.88, 0.7, 0.4), ())
        _crumbs(c, rng, cx, cy, 0.25, 50, 0.005, ("#6b8f3a", "#f6f0da"))
        return
    fill = [(0.3, 0.6, 0.2), (0.85, 0.2, 0.15), (0.95, 0.8, 0.5)] if "cheesesteak" not in name.lower() else \
        [(0.45, 0.3, 0.2), (0.97, 0.88, 0.5), (0.9, 0.85, 0.6)]
    _long(c, rng, cx, cy - 0.08, 0.72, 0.17, (0.82, 0.6, 0.32), fill)
    _long(c, rng, cx + 0.04, cy + 0.12, 0.66, 0.15, (0.8, 0.58, 0.3), fill)


def _burrito(c, rng, cx, cy, name):
    _plate(c, cx, cy, 0.44, (0.95, 0.94, 0.9))
    roll = "roll" in name.lower()
    crust = (0.85, 0.62, 0.3) if roll else (0.93, 0.85, 0.66)
    n = 2 if roll else 1
    for k in range(n):
        y = cy + (k - (n - 1) / 2) * 0.17
        _long(c, rng, cx, y, 0.5 if roll else 0.62, 0.12 if roll else 0.24, crust,
              [] if roll else [(0.5, 0.3, 0.2), (0.9, 0.85, 0.7), (0.3, 0.55, 0.2)])
    if not roll:
        _crumbs(c, rng, cx, cy + 0.22, 0.18, 30, 0.012, ("#3f8f2f", "#e84a2a", "#f5efe0"))


def _tacos(c, rng, cx, cy, name):
    _plate(c, cx, cy, 0.45, (0.2, 0.45, 0.6) if rng.random() < 0.5 else (0.95, 0.94, 0.9))
    quesadilla = "quesadilla" in name.lower()
    for k in range(3):
        x = cx + (k - 1) * 0.2
        if quesadilla:
            pts = [(x, cy - 0.02), (x - 0.1, cy + 0.22), (x + 0.1, cy + 0.22)]
            c.paint(c.mask_poly(pts), (0.9, 0.72, 0.4), round=0.01, gloss=0.2, texture=0.1)
            continue
        shell = c.mask_rect(x - 0.09, cy - 0.22, x + 0.09, cy + 0.22, r=0.08)
        c.shadow(x + 0.01, cy + 0.01, 0.09, 0.22, 0.3, 0.02)
        c.paint(shell, (0.92, 0.78, 0.5), round=0.03, gloss=0.15, texture=0.08)
        meat = rgb(_tint(name) or "#8a4a2a")
        _blobs(c, rng, x, cy, 0.05, 10, 0.03, meat, gloss=0.3, squash=0.9)
        _crumbs(c, rng, x, cy, 0.06, 25, 0.01, ("#f5f5f0", "#3f8f2f", "#e84a2a", "#7a2d6e"))
    if quesadilla:
        _plate(c, cx + 0.25, cy - 0.25, 0.08, (0.95, 0.95, 0.93))
        c.paint(_circle(c, cx + 0.25, cy - 0.25, 0.06), (0.95, 0.95, 0.9), round=0.01, gloss=0.4)
    else:
        for s in (-1, 1):
            c.paint(c.mask_ellipse(cx + s * 0.3, cy - 0.3, 0.05, 0.03 * c.w / c.h), (0.6, 0.8, 0.25), round=0.01,
                    gloss=0.4)


def _sushi(c, rng, cx, cy, name):
    slate = c.mask_rect(0.1, 0.25, 0.9, 0.75, r=0.02)
    c.shadow(0.51, 0.52, 0.42, 0.27, 0.35, 0.02)
    c.paint(slate, (0.16, 0.16, 0.17), round=0.0, gloss=0.08, texture=0.04)
    for k in range(6):
        x, y = 0.2 + (k % 3) * 0.3, 0.38 + (k // 3) * 0.24
        c.paint(_circle(c, x, y, 0.1), (0.96, 0.95, 0.92), round=0.02, gloss=0.1, texture=0.12)
        c.paint(_circle(c, x, y, 0.05), (0.5, 0.75, 0.45), round=0.01, gloss=0.4)
        c.paint(_circle(c, x + 0.02, y, 0.025), (0.95, 0.5, 0.4), round=0.005, gloss=0.5)
        c.blend(rgb("#f08a3a")[None, None, :], _circle(c, x, y, 0.1) * np.clip(c.noise(0.02, 0.0), 0, 1) * 0.6)
    c.paint(c.mask_ellipse(0.82, 0.68, 0.04, 0.03), (0.55, 0.75, 0.3), round=0.01, gloss=0.3)


def _drink(c, rng, cx, cy, name):
    col = rgb(_tint(name) or "#b5651d")
    r = 0.25
    c.shadow(cx + 0.03, cy + 0.04, r, r * c.w / c.h, 0.4, 0.03)
    c.paint(_circle(c, cx, cy, r), (0.95, 0.95, 0.96), round=0.02, gloss=0.5, light=0.2)
    c.paint(_circle(c, cx, cy, r * 0.88), col, round=0.04, gloss=0.4, light=-0.15)
    if "shake" not in name.lower() and "horchata" not in name.lower():
        for _ in range(5):
            x, y = cx + rng.uniform(-0.12, 0.12), cy + rng.uniform(-0.12, 0.12)
            c.blend(_WHITE[None, None, :], c.mask_rect(x - 0.04, y - 0.04, x + 0.04, y + 0.04, r=0.01) * 0.45)
    else:
        c.paint(_circle(c, cx, cy, r * 0.6), (0.99, 0.98, 0.96), round=0.05, gloss=0.3)
    c.paint(c.mask_line([(cx + 0.05, cy - 0.02), (cx + 0.42, cy - 0.38)], 0.03), (0.9, 0.2, 0.2), round=0.005,
            gloss=0.5)
    if "lemon" in name.lower():
        c.paint(_circle(c, cx - 0.25, cy - 0.22, 0.08), (0.98, 0.88, 0.3), round=0.01, gloss=0.3)


def _chicken(c, rng, cx, cy, name):
    _plate(c, cx, cy, 0.44, (0.95, 0.94, 0.9))
    skin = rgb("#c77a34")
    half = "half" in name.lower()
    c.shadow(cx - 0.05, cy, 0.2, 0.16, 0.3, 0.02)
    c.paint(c.mask_ellipse(cx - 0.06, cy - 0.02, 0.2 if half else 0.15, 0.15), skin, round=0.05, gloss=0.5,
            texture=0.08)
    if half:
        c.paint(c.mask_ellipse(cx + 0.14, cy + 0.12, 0.1, 0.06), shift(skin, -0.05), round=0.03, gloss=0.5)
    _crumbs(c, rng, cx - 0.06, cy - 0.02, 0.12, 30, 0.006, ("#5a3a1a", "#3f6f2a"))
    c.paint(_circle(c, cx + 0.22, cy - 0.18, 0.1), (0.95, 0.9, 0.75), round=0.03, gloss=0.2, texture=0.1)
    _sticks(c, rng, cx + 0.18, cy + 0.22, 0.05, 8, 0.12, 0.022, rgb("#3f8f2f"))


def _chips(c, rng, cx, cy, name):
    bowl = _circle(c, cx - 0.05, cy + 0.02, 0.36)
    c.shadow(cx - 0.03, cy + 0.05, 0.36, 0.36, 0.35, 0.03)
    c.paint(bowl, (0.85, 0.3, 0.15) if "guac" in name.lower() else (0.9, 0.88, 0.84), round=0.02, gloss=0.25)
    for _ in range(28):
        x, y = cx - 0.05 + rng.uniform(-0.24, 0.24), cy + 0.02 + rng.uniform(-0.24, 0.24)
        a = rng.uniform(0, 2 * math.pi)
        pts = [(x + 0.07 * math.cos(a + k * 2.1), y + 0.07 * math.sin(a + k * 2.1)) for k in range(3)]
        c.darken(_blur(c.mask_poly(pts) * bowl, 1.5), 0.2)
        c.paint(c.mask_poly(pts) * bowl, shift(rgb("#e8c068"), rng.uniform(-0.1, 0.05)), round=0.006, gloss=0.2,
                texture=0.08)
    if "guac" in name.lower():
        c.paint(_circle(c, cx + 0.27, cy - 0.27, 0.13), (0.95, 0.95, 0.93), round=0.01, gloss=0.2)
        c.paint(_circle(c, cx + 0.27, cy - 0.27, 0.11), (0.52, 0.68, 0.25), round=0.02, gloss=0.3, texture=0.1)


_DRAW = {"pizza": _pizza, "wings": _wings, "fries": _fries, "burger": _burger, "sub": _sub, "sandwich": _sandwich,
         "burrito": _burrito, "tacos": _tacos, "sushi": _sushi, "drink": _drink, "chicken": _chicken,
         "chips": _chips}


def dish_image(kind: str, seed: Any, w: int = 320, h: int = 320, name: str = "") -> Image.Image:
    """An overhead photo of a dish (uncached): ``kind`` one of ``DISH_KINDS``; ``name`` tints it (a lemon pepper
    wing is golden, a hot one red; a pepperoni pizza has pepperoni)."""
    rng = rng_for("dish", kind, seed)
    c = Canvas(w, h, rng, light=(-0.6, -0.7))
    _table(c, rng)
    cx, cy = 0.5 + float(rng.uniform(-0.03, 0.03)), 0.5 + float(rng.uniform(-0.03, 0.03))
    if kind in ("soup", "noodles", "bowl"):
        _bowl(c, rng, cx, cy, name, kind)
    else:
        _DRAW.get(kind, _wings)(c, rng, cx, cy, name)
    return c.finish(grain=0.01, vignette=0.18)


def _font(px: int) -> ImageFont.ImageFont:
    try:
        return ImageFont.truetype(FONT, px)
    except OSError:
        return ImageFont.load_default(size=px)


def storefront_image(name: str, seed: Any, w: int = 480, h: int = 270, color: str | None = None) -> Image.Image:
    """A restaurant's front from across the street (uncached): a wall of brick or stucco, an awning in the brand's
    colour (``color``, else from the seed), a sign with ``name``, lit windows, a glass door, the sidewalk."""
    rng = rng_for("storefront", name, seed)
    c = Canvas(w, h, rng, light=(-0.5, -0.8))
    brand = rgb(color) if color else hsv(rng.uniform(0, 1), rng.uniform(0.6, 0.85), rng.uniform(0.55, 0.8))
    wall = hsv(rng.uniform(0.02, 0.1), rng.uniform(0.25, 0.55), rng.uniform(0.45, 0.75)) if rng.random() < 0.5 \
        else hsv(rng.uniform(0.05, 0.15), rng.uniform(0.05, 0.2), rng.uniform(0.8, 0.93))
    c.gradient(shift(wall, 0.04), shift(wall, -0.08), 0, 0.82)
    c.noise(0.01, 0.05)
    if wall[0] > wall[2] * 1.3:  # brick courses
        c.darken(c.mask_lines([((0, y), (1, y)) for y in np.arange(0.02, 0.82, 0.035)]), 0.18)
    # the sign band, then the awning
    c.paint(c.mask_rect(0.08, 0.06, 0.92, 0.24), shift(brand, -0.15), round=0.004, gloss=0.15, light=0.2)
    c.paint(c.mask_poly([(0.04, 0.27), (0.96, 0.27), (1.0, 0.42), (0.0, 0.42)]), brand, round=0.01, gloss=0.25)
    for k in range(12):
        if k % 2:
            x0, x1 = k / 12, (k + 1) / 12
            c.blend(_WHITE[None, None, :], c.mask_poly([(0.04 + x0 * 0.92, 0.27), (0.04 + x1 * 0.92, 0.27),
                                                        (x1, 0.42), (x0, 0.42)]) * 0.35)
    c.darken(c.mask_rect(0, 0.42, 1, 0.46), 0.35, 0.01)
    # windows with a warm interior and a door
    for x0, x1 in ((0.06, 0.4), (0.6, 0.94)):
        win = c.mask_rect(x0, 0.47, x1, 0.78)
        c.gradient((0.98, 0.85, 0.6), (0.6, 0.42, 0.28), 0.47, 0.78, mask=win)
        for _ in range(3):  # people and tables inside, out of focus
            px = float(rng.uniform(x0 + 0.04, x1 - 0.04))
            c.darken(_blur(c.mask_ellipse(px, 0.66, 0.03, 0.09), 3) * win, 0.4)
        c.blend(_WHITE[None, None, :], c.mask_poly([(x0, 0.47), (x0 + 0.1, 0.47), (x0 + 0.02, 0.78), (x0, 0.78)])
                * win * 0.25)
        c.paint(c.mask_rect(x0 - 0.01, 0.46, x1 + 0.01, 0.48), (0.15, 0.15, 0.15), round=0.002, gloss=0.1)
    door = c.mask_rect(0.44, 0.47, 0.56, 0.82)
    c.gradient((0.35, 0.3, 0.28), (0.2, 0.17, 0.16), 0.47, 0.82, mask=door)
    c.blend(rgb("#ffd9a0")[None, None, :], c.mask_rect(0.46, 0.5, 0.54, 0.72) * 0.6)
    # the sidewalk, a planter
    c.gradient((0.72, 0.71, 0.69), (0.55, 0.54, 0.52), 0.82, 1.0, mask=c.mask_rect(0, 0.82, 1, 1))
    c.darken(c.mask_lines([((x, 0.82), (x - 0.05, 1)) for x in np.arange(0.1, 1.1, 0.16)]), 0.15)
    for x in (0.03, 0.97):
        c.paint(c.mask_rect(x - 0.03, 0.72, x + 0.03, 0.86, r=0.005), (0.3, 0.3, 0.32), round=0.005)
        c.paint(c.mask_ellipse(x, 0.7, 0.05, 0.08), (0.25, 0.5, 0.22), round=0.02, texture=0.2, gloss=0.05)
    img = c.finish(grain=0.01, vignette=0.12)
    # the name on the sign, in white, fitted to the band
    d = ImageDraw.Draw(img)
    size = int(h * 0.12)
    font = _font(size)
    while d.textlength(name, font=font) > w * 0.78 and size > 8:
        size -= 1
        font = _font(size)
    d.text((w * 0.5, h * 0.15), name, font=font, fill=(255, 255, 255), anchor="mm")
    return img


__all__ = ["DISH_KINDS", "dish_image", "dish_kind", "storefront_image"]
