"""People and companies: ``avatar_image(seed, size)`` (a head-and-shoulders portrait photo: a soft out-of-focus
background, shoulders in a shirt or sweater, a shaded face with hair, brows, eyes, nose and mouth) and
``logo_image(name, size)`` (a company's logo: a coloured mark and the company's initials, as on a profile). Both
uncached; ``cache.avatar_photo`` and ``cache.company_logo`` encode and cache them."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from real_local.imagery.canvas import Canvas, _blur, hsv, rgb, rng_for, shift

_SKIN = ("#f1d2bd", "#e8bfa0", "#d9a884", "#c68e68", "#a8734f", "#8a5a3c", "#6b4430", "#f4dcc9", "#e0b393")
_HAIR = ("#1d1714", "#2e221b", "#4a3423", "#6b4a2e", "#8a6239", "#b08a55", "#d2b27a", "#5a5550", "#a7a29c")
_CLOTH = ("#2f4858", "#33658a", "#86bbd8", "#f6ae2d", "#f26419", "#55828b", "#3b6064", "#87bba2", "#c9e4ca",
          "#364958", "#e0e0e0", "#1f2421", "#f4f1de", "#e07a5f", "#81b29a", "#3d405b", "#6d597a", "#b56576")
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def avatar_image(seed: Any, size: int = 160, long_hair: bool | None = None) -> Image.Image:
    """A portrait photo (uncached), square, ``size`` pixels; ``long_hair`` else drawn from the seed."""
    rng = rng_for("avatar", seed)
    c = Canvas(size, size, rng, light=(float(rng.uniform(-0.8, -0.2)), -0.6))
    # background: an office or outdoors, out of focus (soft blobs of light over a gradient)
    bg = hsv(rng.uniform(0, 1), rng.uniform(0.05, 0.35), rng.uniform(0.45, 0.9))
    c.gradient(shift(bg, 0.08), shift(bg, -0.12))
    for _ in range(int(rng.integers(3, 7))):
        r = float(rng.uniform(0.08, 0.25))
        blob = _blur(c.mask_ellipse(rng.uniform(0, 1), rng.uniform(0, 0.7), r, r), r * size * 0.5)
        c.blend(hsv(rng.uniform(0, 1), rng.uniform(0.05, 0.3), rng.uniform(0.6, 1.0))[None, None, :],
                blob * rng.uniform(0.2, 0.5))
    skin, hair, cloth = (rgb(t[int(rng.integers(len(t)))]) for t in (_SKIN, _HAIR, _CLOTH))
    long_hair = bool(rng.random() < 0.45) if long_hair is None else long_hair
    cx = 0.5 + float(rng.uniform(-0.03, 0.03))
    fy, fw, fh = 0.42 + float(rng.uniform(-0.02, 0.03)), float(rng.uniform(0.15, 0.18)), float(rng.uniform(0.2, 0.23))
    if long_hair:  # hair behind the shoulders
        c.paint(c.mask_rect(cx - fw * 1.35, fy - fh * 0.6, cx + fw * 1.35, fy + fh * 1.9, r=0.12), shift(hair, -0.04),
                round=0.04, gloss=0.15, texture=0.05)
    # shoulders, neck
    c.paint(c.mask_ellipse(cx, 1.08, 0.46, 0.3), cloth, round=0.06, gloss=0.1, texture=0.02)
    if rng.random() < 0.5:  # a collar
        c.paint(c.mask_poly([(cx - 0.12, 0.8), (cx, 0.9), (cx + 0.12, 0.8), (cx + 0.1, 0.86), (cx, 0.95),
                             (cx - 0.1, 0.86)]), shift(cloth, 0.25, -0.2), round=0.01, gloss=0.1)
    c.paint(c.mask_rect(cx - fw * 0.62, fy + fh * 0.45, cx + fw * 0.62, 0.84, r=0.05), shift(skin, -0.12), round=0.03,
            gloss=0.05)
    c.darken(c.mask_ellipse(cx, fy + fh * 1.05, fw * 0.6, fh * 0.25), 0.25, 0.02)
    # ears, face
    for s in (-1, 1):
        c.paint(c.mask_ellipse(cx + s * fw * 0.97, fy + fh * 0.1, fw * 0.16, fh * 0.2), shift(skin, -0.06),
                round=0.02, gloss=0.05)
    face = c.mask_ellipse(cx, fy, fw, fh)
    c.paint(face, skin, round=0.05, gloss=0.18, light=0.35, hl=(0.35, 0.3), hl_size=0.3)
    # hair on top (a cap of hair over the forehead; sometimes a parting)
    top = c.mask_ellipse(cx, fy - fh * 0.45, fw * 1.08, fh * 0.68)
    cut = c.mask_ellipse(cx + float(rng.uniform(-0.03, 0.03)), fy + fh * 0.12, fw * 0.95, fh * 0.8)
    short_bald = rng.random() < 0.08
    if not short_bald:
        c.paint(np.clip(top - cut * 0.97, 0, 1), hair, round=0.03, gloss=0.22, texture=0.06, hl=(0.35, 0.2))
    # brows, eyes, nose, mouth
    ey = fy - fh * 0.05
    for s in (-1, 1):
        ex = cx + s * fw * 0.38
        c.fill(c.mask_line([(ex - fw * 0.18, ey - fh * 0.16), (ex + fw * 0.18, ey - fh * 0.19 + s * 0.004)],
                           0.014), shift(hair, -0.05))
        c.fill(c.mask_ellipse(ex, ey, fw * 0.16, fh * 0.07), (0.96, 0.95, 0.93))
        c.fill(c.mask_ellipse(ex, ey, fw * 0.08, fh * 0.07), hsv(rng.uniform(0.05, 0.1), 0.6, 0.25))
        c.fill(c.mask_ellipse(ex + fw * 0.03, ey - fh * 0.02, fw * 0.025, fh * 0.02), (1, 1, 1))
    c.darken(c.mask_line([(cx + fw * 0.02, ey + fh * 0.05), (cx + fw * 0.1, ey + fh * 0.32),
                          (cx - fw * 0.04, ey + fh * 0.36)], 0.012), 0.18, 0.005)
    my = fy + fh * 0.55
    smile = float(rng.uniform(0.01, 0.04))
    c.fill(c.mask_line([(cx - fw * 0.32 + t * fw * 0.64, my + smile * math.sin(t * math.pi)) for t in np.linspace(0, 1, 9)],
                       0.02), shift(skin, -0.3, 0.2, -0.02))
    c.blend(np.array([0.9, 0.45, 0.45], np.float32)[None, None, :],
            (_blur(c.mask_ellipse(cx - fw * 0.55, fy + fh * 0.3, fw * 0.2, fh * 0.12), size * 0.02)
             + _blur(c.mask_ellipse(cx + fw * 0.55, fy + fh * 0.3, fw * 0.2, fh * 0.12), size * 0.02)) * 0.12)
    return c.finish(grain=0.012, vignette=0.15)


def _font(px: int) -> ImageFont.ImageFont:
    try:
        return ImageFont.truetype(FONT, px)
    except OSError:
        return ImageFont.load_default(size=px)


def logo_image(name: str, size: int = 96) -> Image.Image:
    """A company's logo (uncached): a rounded tile in the company's colour, a mark, and its initials."""
    rng = rng_for("logo", name)
    ss = 3
    s = size * ss
    im = Image.new("RGB", (s, s), (255, 255, 255))
    d = ImageDraw.Draw(im)
    hue = float(rng.uniform(0, 1))
    base = tuple(int(v * 255) for v in hsv(hue, rng.uniform(0.55, 0.85), rng.uniform(0.45, 0.8)))
    light = tuple(int(v * 255) for v in hsv(hue + 0.06, 0.35, 0.97))
    style = int(rng.integers(4))
    pad = int(s * 0.04)
    if style == 0:  # a solid tile, white letters
        d.rounded_rectangle([pad, pad, s - pad, s - pad], radius=int(s * 0.2), fill=base)
        fg = (255, 255, 255)
    elif style == 1:  # a pale tile, coloured letters, a ring
        d.rounded_rectangle([pad, pad, s - pad, s - pad], radius=int(s * 0.2), fill=light)
        d.ellipse([s * 0.12, s * 0.12, s * 0.88, s * 0.88], outline=base, width=int(s * 0.05))
        fg = base
    elif style == 2:  # a circle and a quarter, white letters
        d.ellipse([pad, pad, s - pad, s - pad], fill=base)
        d.pieslice([pad, pad, s - pad, s - pad], 200, 290, fill=tuple(min(255, v + 50) for v in base))
        fg = (255, 255, 255)
    else:  # a hexagon
        r = s / 2 - pad
        pts = [(s / 2 + r * math.cos(math.radians(60 * k + 30)), s / 2 + r * math.sin(math.radians(60 * k + 30)))
               for k in range(6)]
        d.polygon(pts, fill=base)
        fg = (255, 255, 255)
    words = [w for w in name.replace("&", " ").split() if w[:1].isalnum()]
    initials = "".join(w[0] for w in words[:2]).upper() or "?"
    f = _font(int(s * (0.42 if len(initials) == 1 else 0.34)))
    box = d.textbbox((0, 0), initials, font=f)
    d.text(((s - (box[2] - box[0])) / 2 - box[0], (s - (box[3] - box[1])) / 2 - box[1]), initials, font=f, fill=fg)
    return im.resize((size, size), Image.LANCZOS)


__all__ = ["avatar_image", "logo_image"]
