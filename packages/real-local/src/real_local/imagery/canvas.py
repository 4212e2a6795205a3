"""The primitives of a procedural photo: seeded generators, colours, blur and sensor grain, ``Canvas`` (a float RGB
picture with anti-aliased masks and shaded parts), and the backdrops a product stands on."""

from __future__ import annotations

import colorsys
import hashlib
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

SS = 3  # masks are drawn at this multiple of the picture's size, then reduced: anti-aliased edges

Color = str | Sequence[float]


# ---------------------------------------------------------------- small helpers
def rng_for(*seed: Any) -> np.random.Generator:
    """A numpy Generator fully determined by ``seed`` (any reprs: ints, strings, tuples)."""
    h = hashlib.sha256(repr(seed).encode()).digest()
    return np.random.default_rng(int.from_bytes(h[:8], "little"))


def rgb(c: Color) -> np.ndarray:
    """"#rrggbb" (or "#rgb") or a 0..1 triple -> float32 array of 3 in 0..1."""
    if isinstance(c, str):
        s = c.lstrip("#")
        if len(s) == 3:
            s = "".join(ch * 2 for ch in s)
        return np.array([int(s[i:i + 2], 16) / 255 for i in (0, 2, 4)], np.float32)
    return np.asarray(c, np.float32)[:3]


def hsv(h: float, s: float, v: float) -> np.ndarray:
    return np.array(colorsys.hsv_to_rgb(h % 1.0, min(max(s, 0), 1), min(max(v, 0), 1)), np.float32)


def shift(c: Color, dv: float = 0.0, ds: float = 0.0, dh: float = 0.0) -> np.ndarray:
    """The colour ``c`` lighter/darker (dv), more/less saturated (ds), hue-turned (dh)."""
    h, s, v = colorsys.rgb_to_hsv(*map(float, rgb(c)))
    return hsv(h + dh, s + ds, v + dv)


def _blur(a: np.ndarray, radius: float) -> np.ndarray:
    """Gaussian blur of a 0..1 float map (through an 8-bit Pillow image: fast, and plenty for shading); only the box
    around the map's non-zero pixels is blurred."""
    if radius <= 0.3:
        return a
    nz_r, nz_c = np.flatnonzero(a.any(1)), np.flatnonzero(a.any(0))
    if len(nz_r) == 0:
        return a
    m = int(3 * radius) + 2
    y0, y1 = max(0, nz_r[0] - m), min(a.shape[0], nz_r[-1] + 1 + m)
    x0, x1 = max(0, nz_c[0] - m), min(a.shape[1], nz_c[-1] + 1 + m)
    im = Image.fromarray(np.clip(a[y0:y1, x0:x1] * 255 + 0.5, 0, 255).astype(np.uint8), "L")
    out = np.zeros_like(a, dtype=np.float32)
    out[y0:y1, x0:x1] = np.asarray(im.filter(ImageFilter.GaussianBlur(float(radius))), np.float32) / 255
    return out


_GRAIN = np.random.default_rng(12345).standard_normal((256, 256, 3), dtype=np.float32)  # a sensor-noise tile


def _grain(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """Sensor grain for an h x w picture: the noise tile, rolled by offsets drawn from ``rng`` and repeated."""
    tile = np.roll(_GRAIN, (int(rng.integers(256)), int(rng.integers(256))), axis=(0, 1))
    return np.tile(tile, (-(-h // 256), -(-w // 256), 1))[:h, :w]


# ---------------------------------------------------------------- the canvas
class Canvas:
    """An RGB picture in floats (``px``: H x W x 3, 0..1) and the primitives of a procedural photo. Coordinates are
    fractions of the width (x) and height (y), so a drawing is the same at any size."""

    def __init__(self, w: int, h: int, rng: np.random.Generator, light: tuple[float, float] = (-0.55, -0.8)):
        self.w, self.h, self.rng = int(w), int(h), rng
        self.px = np.ones((self.h, self.w, 3), np.float32)
        self.light = light  # where the light comes from (x, y; up-left by default)
        yy, xx = np.mgrid[0:self.h, 0:self.w].astype(np.float32)
        self.yy, self.xx = (yy + 0.5) / self.h, (xx + 0.5) / self.w

    # ---- masks (float H x W, 0..1, anti-aliased; drawn only over the shape's box)
    def _mask(self, draw: Callable[[ImageDraw.ImageDraw, Callable], None],
              box: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)) -> np.ndarray:
        px0 = max(0, math.floor(box[0] * self.w) - 1)
        py0 = max(0, math.floor(box[1] * self.h) - 1)
        px1 = min(self.w, math.ceil(box[2] * self.w) + 2)
        py1 = min(self.h, math.ceil(box[3] * self.h) + 2)
        out = np.zeros((self.h, self.w), np.float32)
        if px1 <= px0 or py1 <= py0:
            return out
        W, H = self.w * SS, self.h * SS
        im = Image.new("L", ((px1 - px0) * SS, (py1 - py0) * SS), 0)

        def P(x: float, y: float) -> tuple[float, float]:
            return (x * W - px0 * SS, y * H - py0 * SS)

        draw(ImageDraw.Draw(im), P)
        small = im.resize((px1 - px0, py1 - py0), Image.BOX)
        out[py0:py1, px0:px1] = np.asarray(small, np.float32) * (1 / 255)
        return out

    def mask_ellipse(self, cx: float, cy: float, rx: float, ry: float) -> np.ndarray:
        return self._mask(lambda d, P: d.ellipse([P(cx - rx, cy - ry), P(cx + rx, cy + ry)], fill=255),
                          (cx - rx, cy - ry, cx + rx, cy + ry))

    def mask_rect(self, x0: float, y0: float, x1: float, y1: float, r: float = 0.0) -> np.ndarray:
        """A rectangle; ``r`` is the corner radius as a fraction of the width."""
        x0, x1, y0, y1 = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)

        def draw(d, P):
            a, b = P(x0, y0), P(x1, y1)
            rad = r * self.w * SS
            if rad > 0:
                d.rounded_rectangle([a, b], radius=min(rad, (b[0] - a[0]) / 2, (b[1] - a[1]) / 2), fill=255)
            else:
                d.rectangle([a, b], fill=255)
        return self._mask(draw, (x0, y0, x1, y1))

    def mask_poly(self, pts: Sequence[tuple[float, float]]) -> np.ndarray:
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return self._mask(lambda d, P: d.polygon([P(x, y) for x, y in pts], fill=255),
                          (min(xs), min(ys), max(xs), max(ys)))

    def mask_line(self, pts: Sequence[tuple[float, float]], width: float, round_ends: bool = True) -> np.ndarray:
        """A polyline ``width`` (fraction of the width) thick."""
        def draw(d, P):
            wpx = max(1, int(width * self.w * SS))
            q = [P(x, y) for x, y in pts]
            d.line(q, fill=255, width=wpx, joint="curve")
            if round_ends:
                for x, y in (q[0], q[-1]):
                    d.ellipse([x - wpx / 2, y - wpx / 2, x + wpx / 2, y + wpx / 2], fill=255)
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        hw, hh = width, width * self.w / self.h
        return self._mask(draw, (min(xs) - hw, min(ys) - hh, max(xs) + hw, max(ys) + hh))

    def mask_lines(self, segs: Sequence[tuple[tuple[float, float], tuple[float, float]]],
                   width_px: int = 1) -> np.ndarray:
        """Many thin straight lines (siding, shingles, seams) in one mask, ``width_px`` pixels wide."""
        def draw(d, P):
            for a, b in segs:
                d.line([P(*a), P(*b)], fill=255, width=max(1, width_px * SS))
        return self._mask(draw)

    def mask_arc(self, cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, width: float) -> np.ndarray:
        """An elliptic arc from angle a0 to a1 (degrees, 0 = right, clockwise as on screen)."""
        n = max(8, int(abs(a1 - a0) / 4))
        pts = [(cx + rx * math.cos(math.radians(a0 + (a1 - a0) * i / n)),
                cy + ry * math.sin(math.radians(a0 + (a1 - a0) * i / n))) for i in range(n + 1)]
        return self.mask_line(pts, width)

    @staticmethod
    def box_of(mask: np.ndarray, thresh: float = 0.004) -> tuple[int, int, int, int] | None:
        """(y0, y1, x0, x1) of the mask's non-zero pixels, None if empty."""
        rows, cols = (mask > thresh).any(1), (mask > thresh).any(0)
        if not rows.any():
            return None
        y0, y1 = int(rows.argmax()), len(rows) - int(rows[::-1].argmax())
        x0, x1 = int(cols.argmax()), len(cols) - int(cols[::-1].argmax())
        return y0, y1, x0, x1

    # ---- fields
    def gradient(self, top: Color, bottom: Color, y0: float = 0.0, y1: float = 1.0,
                 mask: np.ndarray | None = None) -> None:
        """A vertical gradient from ``top`` (at y0) to ``bottom`` (at y1), over the mask (default: everything)."""
        t = np.clip((self.yy[:, :1] - y0) / max(1e-6, y1 - y0), 0, 1)[..., None]  # H x 1 x 1
        col = rgb(top) * (1 - t) + rgb(bottom) * t
        self.blend(np.broadcast_to(col, (self.h, self.w, 3)), mask)

    def blend(self, col: np.ndarray, mask: np.ndarray | None = None) -> None:
        """Lay ``col`` (a colour, or an H x W x 3 picture) over the picture through ``mask``."""
        col = col if col.shape[:2] == (self.h, self.w) else np.broadcast_to(col.reshape(1, 1, 3),
                                                                            (self.h, self.w, 3))
        if mask is None:
            self.px[:] = col
            return
        b = self.box_of(mask)
        if b is None:
            return
        y0, y1, x0, x1 = b
        a = mask[y0:y1, x0:x1, None]
        sub = self.px[y0:y1, x0:x1]
        self.px[y0:y1, x0:x1] = sub + (col[y0:y1, x0:x1] - sub) * a

    def noise(self, scale: float, amount: float, mask: np.ndarray | None = None, streak: float = 1.0) -> np.ndarray:
        """Smooth value noise (features about ``scale`` of the width; ``streak`` > 1 stretches it horizontally, as
        wood grain), multiplied into the picture by ``amount``; returns the noise field (-1..1)."""
        small = self.rng.uniform(-1, 1, (max(2, int(1 / scale) + 2), max(2, int(1 / (scale * streak)) + 2)))
        im = Image.fromarray(((small + 1) * 127.5).astype(np.uint8), "L").resize((self.w, self.h), Image.BICUBIC)
        n = np.asarray(im, np.float32) / 127.5 - 1
        if amount:
            f = (1 + amount * n)[..., None]
            if mask is None:
                self.px *= f
            else:
                a = mask[..., None]
                self.px[:] = self.px * (1 - a) + self.px * f * a
        return n

    # ---- objects
    def paint(self, mask: np.ndarray, color: Color, *, round: float = 0.05, gloss: float = 0.25,
              light: float = 0.28, texture: float = 0.0, hl: tuple[float, float] = (0.3, 0.25),
              hl_size: float = 0.18, flat: float = 0.0) -> None:
        """Paint a part of an object: ``color`` shaded by a directional light across the part (``light``), darker
        towards its edges as a rounded surface is (``round``: the falloff's width, a fraction of the picture), with
        a soft specular highlight (``gloss``, at ``hl``: where in the part's box, 0..1) and optional grain."""
        b = self.box_of(mask)
        if b is None:
            return
        y0, y1, x0, x1 = b
        m = mask[y0:y1, x0:x1]
        bh, bw = y1 - y0, x1 - x0
        u = (np.arange(bw, dtype=np.float32)[None, :] + 0.5) / bw - 0.5
        v = (np.arange(bh, dtype=np.float32)[:, None] + 0.5) / bh - 0.5
        lx, ly = self.light
        shade = 1 + light * (lx * -u + ly * -v) * 2 * 0.5
        if round > 0:
            pad = int(round * self.w * 1.5) + 2
            big = np.pad(m, pad)
            inner = _blur(big, round * self.w)[pad:pad + bh, pad:pad + bw]
            edge = np.clip(inner * 2.0, 0, 1) ** 0.6
            shade = shade * (0.58 + 0.42 * edge) * (1 - flat) + flat * shade
        col = rgb(color)[None, None, :] * shade[..., None]
        if gloss > 0:
            d2 = ((u - (hl[0] - 0.5)) / max(hl_size, 1e-3)) ** 2 + ((v - (hl[1] - 0.5)) / max(hl_size, 1e-3)) ** 2
            spec = gloss * np.exp(-d2 * 2.0)
            col = col + spec[..., None] * (1 - col)
        if texture:
            col = col * (1 + texture * self.rng.standard_normal((bh, bw, 1), dtype=np.float32))
        a = m[..., None]
        sub = self.px[y0:y1, x0:x1]
        self.px[y0:y1, x0:x1] = sub * (1 - a) + np.clip(col, 0, 1) * a

    def fill(self, mask: np.ndarray, color: Color) -> None:
        """A flat colour (print, a label, a screen's glyphs)."""
        self.blend(rgb(color)[None, None, :], mask)

    def shadow(self, cx: float, cy: float, rx: float, ry: float, strength: float = 0.35,
               blur: float = 0.03) -> None:
        """A soft contact shadow (a blurred dark ellipse) under an object."""
        pad = 3 * blur
        m = self.mask_ellipse(cx, cy, rx + pad, ry + pad * self.w / self.h)  # the box the blur spreads to
        m = _blur(self.mask_ellipse(cx, cy, rx, ry), blur * self.w) * (m > 0)
        self.darken(m, strength)

    def darken(self, mask: np.ndarray, strength: float, blur: float = 0.0) -> None:
        m = _blur(mask, blur * self.w) if blur else mask
        b = self.box_of(m)
        if b is not None:
            y0, y1, x0, x1 = b
            self.px[y0:y1, x0:x1] *= (1 - strength * m[y0:y1, x0:x1])[..., None]

    def finish(self, grain: float = 0.012, vignette: float = 0.10) -> Image.Image:
        """Lens vignette and sensor grain, then 8-bit RGB."""
        if vignette:
            d = (self.xx - 0.5) ** 2 + (self.yy - 0.5) ** 2
            self.px *= (1 - vignette * d * 2)[..., None]
        if grain:
            self.px += grain * _grain(self.h, self.w, self.rng)
        return Image.fromarray(np.clip(self.px * 255 + 0.5, 0, 255).astype(np.uint8), "RGB")


# ---------------------------------------------------------------- backdrops
def _backdrop(c: Canvas, rng: np.random.Generator, scene: str | None = None) -> tuple[str, float]:
    """Paint a backdrop; returns (scene, floor_y): where objects stand."""
    scene = scene or str(rng.choice(["studio", "studio", "studio", "tint", "table"]))
    if scene == "studio":  # a white seamless sweep, as most shop photos
        g = float(rng.uniform(0.93, 0.99))
        c.gradient((g, g, g), (g - 0.05, g - 0.05, g - 0.045))
        c.px *= (1 + 0.04 * np.exp(-((c.xx - 0.45) ** 2 + (c.yy - 0.35) ** 2) * 4))[..., None]
        return scene, float(rng.uniform(0.8, 0.86))
    if scene == "tint":  # a pastel paper backdrop with a soft floor line
        h = float(rng.uniform(0, 1))
        top, bottom = hsv(h, rng.uniform(0.12, 0.3), rng.uniform(0.86, 0.96)), hsv(h, rng.uniform(0.15, 0.35),
                                                                               rng.uniform(0.7, 0.84))
        c.gradient(top, bottom)
        c.noise(0.08, 0.015)
        return scene, float(rng.uniform(0.8, 0.86))
    # a wall over a wooden table, seen from a little above
    horizon = float(rng.uniform(0.55, 0.66))
    wall = hsv(rng.uniform(0.05, 0.6), rng.uniform(0.03, 0.16), rng.uniform(0.8, 0.95))
    c.gradient(shift(wall, 0.03), shift(wall, -0.08), 0, horizon)
    wood = hsv(rng.uniform(0.055, 0.1), rng.uniform(0.35, 0.6), rng.uniform(0.38, 0.72))
    table = c.mask_rect(0, horizon, 1, 1)
    c.gradient(shift(wood, -0.08), shift(wood, 0.06), horizon, 1, mask=table)
    n = c.noise(0.03, 0.0, streak=6)
    grain = (0.12 * np.sin((c.yy * 140 + n * 2.2) * math.pi) * (0.6 + 0.4 * n))[..., None]
    c.px[:] = c.px * (1 - table[..., None]) + c.px * (1 + grain) * table[..., None]
    c.darken(c.mask_rect(0, horizon - 0.004, 1, horizon + 0.012), 0.25, 0.006)
    return "table", float(min(0.93, horizon + rng.uniform(0.18, 0.26)))


__all__ = ["SS", "Canvas", "Color", "hsv", "rgb", "rng_for", "shift"]
