"""Zilloft's pictures: photo-like listing photos and the search page's map, drawn offline and deterministic.

- ``listing_photo(h, n, size)``: photo ``n`` of a listing. Photo 0 is the street-side exterior (the shared
  ``real_local.imagery.cache.house_photo``, in the style of the home type: a detached house, a row of townhomes, a condo
  building), drawn once at ``BIG`` and reduced for the cards, so a card and the listing page show the same house.
  Photos 1 and 2 are rooms (living room, bedroom): a painted wall, a window with the day outside, a wooden or
  carpeted floor with the window's light on it, a sofa or a bed, a rug, a framed picture, a plant, shading and grain.
- ``map_image(key)``: a street map for a search (``key``: the search's words): blocks on a slightly rotated grid of
  streets, arterials and a highway, parks, and water along one edge (a coast or a bay), with paper-like texture.
  Pins are placed by ``pin`` inside the middle of the map, where no water is drawn.

Everything is a pure function of the listing id (or the key): the same bytes on every call and every machine.
Encoded pictures are cached in memory (an LRU of a few thousand), and the shared module caches exteriors on disk.
"""

from __future__ import annotations

import functools
import hashlib
import io
import math

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from real_local.imagery.cache import house_photo
from real_local.imagery.canvas import Canvas, _blur, hsv, rgb, rng_for, shift

BIG = (640, 400)  # the listing page's main photo
SIZES = {"card": (336, 210), "big": BIG, "thumb": (320, 200)}
PHOTOS = 3  # per listing: the exterior and two rooms
MAP_SIZE = (720, 760)
STYLE = {"House": "house", "Townhouse": "townhouse", "Multi-family": "townhouse", "Condo": "condo",
         "Manufactured": "house"}
CONTENT_TYPE = "image/jpeg"


def _jpeg(img: Image.Image, quality: int = 84) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality, optimize=True)
    return buf.getvalue()


# ---------------------------------------------------------------- listing photos
@functools.lru_cache(maxsize=4096)
def _photo(zpid: str, home_type: str, n: int, size: str) -> bytes:
    w, h = SIZES[size]
    if n == 0:
        big = house_photo(("zilloft", zpid), *BIG, style=STYLE.get(home_type, "house"))
        if (w, h) == BIG:
            return big
        return _jpeg(Image.open(io.BytesIO(big)).convert("RGB").resize((w, h), Image.LANCZOS))
    return _jpeg(room_image(("zilloft-room", zpid, n), w, h, bedroom=n == 2))


def listing_photo(listing, n: int = 0, size: str = "card") -> bytes:
    """Photo ``n`` (0: the exterior; 1, 2: rooms) of a listing at ``size`` ("card", "big", "thumb"), JPEG."""
    if not 0 <= n < PHOTOS:
        raise ValueError(f"photo {n} does not exist: a listing has photos 0 to {PHOTOS - 1}")
    if size not in SIZES:
        raise ValueError(f"unknown size {size!r}: use one of {', '.join(SIZES)}")
    return _photo(listing.id, listing.home_type, n, size)


_WALLS = ("#efe9df", "#e9e4da", "#dfe3df", "#d8dfe2", "#e8dccb", "#cfd8cc", "#e4e0e8", "#f3efe6", "#c9d3d9",
          "#e6d6c3")
_FABRIC = ("#8a8f94", "#5b6770", "#b9ad9b", "#3f4b5a", "#7c6a58", "#a3a9a0", "#6d5d73", "#c8c2b6", "#4f6b5f")


def room_image(seed, w: int = 320, h: int = 200, bedroom: bool = False) -> Image.Image:
    """A room of a home (uncached): wall, window with daylight, floor with the light on it, furniture."""
    rng = rng_for("room", seed)
    c = Canvas(w, h, rng, light=(float(rng.uniform(-0.9, -0.3)) * (1 if rng.random() < 0.5 else -1), -0.4))
    floor_y = float(rng.uniform(0.6, 0.7))
    wall = rgb(_WALLS[int(rng.integers(len(_WALLS)))])
    c.gradient(shift(wall, 0.02), shift(wall, -0.1), 0, floor_y)
    c.noise(0.02, 0.02, mask=c.mask_rect(0, 0, 1, floor_y))
    # the floor: wooden planks (or carpet in a bedroom, sometimes), darker far away
    floor = c.mask_rect(0, floor_y, 1, 1)
    carpet = bedroom and rng.random() < 0.5
    wood = hsv(rng.uniform(0.06, 0.1), rng.uniform(0.35, 0.6), rng.uniform(0.45, 0.75))
    base = hsv(rng.uniform(0, 1), 0.08, rng.uniform(0.6, 0.8)) if carpet else wood
    c.gradient(shift(base, -0.12), shift(base, 0.04), floor_y, 1, mask=floor)
    if carpet:
        c.noise(0.01, 0.05, mask=floor)
    else:
        c.noise(0.03, 0.12, mask=floor, streak=6.0)
        step = 0.045
        c.darken(c.mask_lines([((0, y), (1, y)) for y in np.arange(floor_y + step * 0.6, 1, step)]) * floor, 0.2)
    c.fill(c.mask_rect(0, floor_y - 0.025, 1, floor_y + 0.004), shift(wall, 0.08, -0.1))  # baseboard
    c.darken(c.mask_rect(0, floor_y + 0.004, 1, floor_y + 0.02), 0.18, 0.01)
    # a window and its light on the floor
    wx = float(rng.uniform(0.08, 0.55))
    ww, wy0, wy1 = float(rng.uniform(0.22, 0.34)), float(rng.uniform(0.1, 0.18)), floor_y - float(rng.uniform(0.1, 0.2))
    c.fill(c.mask_rect(wx - 0.015, wy0 - 0.025, wx + ww + 0.015, wy1 + 0.03), (0.96, 0.96, 0.95))
    glass = c.mask_rect(wx, wy0, wx + ww, wy1)
    sky = hsv(rng.uniform(0.55, 0.6), rng.uniform(0.25, 0.5), rng.uniform(0.85, 0.97))
    c.gradient(sky, shift(sky, 0.05, -0.2), wy0, wy1, mask=glass)
    trees = np.maximum.reduce([c.mask_ellipse(wx + ww * rng.uniform(0, 1), wy1 - (wy1 - wy0) * rng.uniform(0.05, 0.3),
                                              ww * rng.uniform(0.15, 0.3), (wy1 - wy0) * rng.uniform(0.2, 0.4))
                               for _ in range(4)]) * glass
    c.paint(trees, hsv(rng.uniform(0.22, 0.33), 0.45, 0.5), round=0.0, gloss=0.0, texture=0.1)
    for k in (1, 2) if ww > 0.28 else (1,):
        xm = wx + ww * k / (3 if ww > 0.28 else 2)
        c.fill(c.mask_rect(xm - 0.005, wy0, xm + 0.005, wy1), (0.96, 0.96, 0.95))
    c.fill(c.mask_rect(wx, (wy0 + wy1) / 2 - 0.006, wx + ww, (wy0 + wy1) / 2 + 0.006), (0.96, 0.96, 0.95))
    lx = c.light[0]
    patch = c.mask_poly([(wx, floor_y + 0.02), (wx + ww, floor_y + 0.02), (wx + ww - lx * 0.25, 0.98),
                         (wx - lx * 0.25, 0.98)])
    c.blend(np.array([1.0, 0.97, 0.9], np.float32), _blur(patch, 0.02 * w) * 0.22)
    # a framed picture on the other side of the wall
    px = float(rng.uniform(0.62, 0.78)) if wx < 0.4 else float(rng.uniform(0.08, 0.2))
    pw, py = float(rng.uniform(0.12, 0.18)), float(rng.uniform(0.14, 0.22))
    ph = pw * w / h * float(rng.uniform(0.6, 0.9))
    c.darken(c.mask_rect(px + 0.006, py + 0.01, px + pw + 0.006, py + ph + 0.01), 0.3, 0.008)
    c.fill(c.mask_rect(px, py, px + pw, py + ph), hsv(0.08, 0.3, float(rng.uniform(0.15, 0.5))))
    art = c.mask_rect(px + 0.012, py + 0.02, px + pw - 0.012, py + ph - 0.02)
    c.gradient(hsv(rng.uniform(0, 1), 0.35, 0.85), hsv(rng.uniform(0, 1), 0.45, 0.55), py, py + ph, mask=art)
    c.paint(c.mask_ellipse(px + pw * rng.uniform(0.3, 0.7), py + ph * 0.55, pw * 0.22, ph * 0.2) * art,
            hsv(rng.uniform(0, 1), 0.6, 0.6), round=0.0, gloss=0.0)
    # furniture: a bed (bedroom) or a sofa, on a rug, and a plant in a pot
    fab = rgb(_FABRIC[int(rng.integers(len(_FABRIC)))])
    cx = float(rng.uniform(0.35, 0.65))
    rug = c.mask_poly([(cx - 0.36, floor_y + 0.08), (cx + 0.36, floor_y + 0.08), (cx + 0.46, 0.97), (cx - 0.46, 0.97)])
    c.paint(rug, hsv(rng.uniform(0, 1), rng.uniform(0.15, 0.4), rng.uniform(0.45, 0.8)), round=0.0, gloss=0.0,
            texture=0.06, light=0.1)
    if bedroom:
        x0, x1, top = cx - 0.24, cx + 0.24, floor_y - 0.12
        c.shadow(cx, floor_y + 0.14, 0.27, 0.03, 0.4, 0.02)
        c.paint(c.mask_rect(x0 - 0.01, top - 0.16, x1 + 0.01, floor_y + 0.05, r=0.01), shift(fab, -0.15),
                round=0.01, gloss=0.05)  # headboard
        c.paint(c.mask_rect(x0 - 0.02, top + 0.02, x1 + 0.02, floor_y + 0.14, r=0.01), (0.94, 0.94, 0.92),
                round=0.03, gloss=0.1)  # the bed
        c.paint(c.mask_rect(x0 - 0.02, floor_y + 0.04, x1 + 0.02, floor_y + 0.14, r=0.01), fab, round=0.02,
                gloss=0.05, texture=0.04)  # a throw
        for k in (0, 1):
            c.paint(c.mask_ellipse(cx + (k - 0.5) * 0.22, top + 0.02, 0.09, 0.04), (0.97, 0.97, 0.96), round=0.02,
                    gloss=0.15)
    else:
        x0, x1, seat = cx - 0.25, cx + 0.25, floor_y + 0.03
        c.shadow(cx, floor_y + 0.12, 0.28, 0.03, 0.4, 0.02)
        c.paint(c.mask_rect(x0, seat - 0.2, x1, seat + 0.02, r=0.02), shift(fab, -0.05), round=0.02, gloss=0.05,
                texture=0.04)  # back
        c.paint(c.mask_rect(x0 - 0.02, seat - 0.02, x1 + 0.02, seat + 0.09, r=0.015), fab, round=0.02, gloss=0.08,
                texture=0.04)  # seat
        for ax in (x0 - 0.04, x1 - 0.02):
            c.paint(c.mask_rect(ax, seat - 0.1, ax + 0.06, seat + 0.09, r=0.02), shift(fab, -0.08), round=0.02,
                    gloss=0.05, texture=0.04)
        for k in range(int(rng.integers(1, 3))):
            c.paint(c.mask_ellipse(x0 + 0.08 + k * 0.12, seat - 0.06, 0.045, 0.06), hsv(rng.uniform(0, 1), 0.5, 0.7),
                    round=0.015, gloss=0.1)
    pot_x = 0.9 if cx < 0.5 else 0.1
    c.shadow(pot_x, floor_y + 0.09, 0.05, 0.012, 0.35, 0.01)
    c.paint(c.mask_poly([(pot_x - 0.04, floor_y - 0.02), (pot_x + 0.04, floor_y - 0.02), (pot_x + 0.03, floor_y + 0.09),
                         (pot_x - 0.03, floor_y + 0.09)]), hsv(rng.uniform(0, 1), 0.2, 0.85), round=0.01, gloss=0.2)
    leaves = np.maximum.reduce([c.mask_ellipse(pot_x + rng.uniform(-0.05, 0.05), floor_y - rng.uniform(0.05, 0.2),
                                               rng.uniform(0.025, 0.045), rng.uniform(0.04, 0.07))
                                for _ in range(7)])
    c.paint(leaves, hsv(rng.uniform(0.25, 0.35), 0.55, 0.4), round=0.01, gloss=0.1, texture=0.1)
    return c.finish(grain=0.012, vignette=0.12)


# ---------------------------------------------------------------- the map
def map_key(query: str) -> str:
    """The map a search shows: one per set of words (so "Boston, MA" and "boston ma" share it)."""
    words = " ".join(sorted(set("".join(ch if ch.isalnum() else " " for ch in query.lower()).split())))
    return hashlib.md5(words.encode()).hexdigest()[:12]


def _map_noise(rng: np.random.Generator, w: int, h: int, cells: int) -> np.ndarray:
    small = rng.uniform(0, 1, (cells, cells)).astype(np.float32)
    im = Image.fromarray((small * 255).astype(np.uint8), "L").resize((w, h), Image.BICUBIC)
    return np.asarray(im, np.float32) / 255


@functools.lru_cache(maxsize=256)
def map_image(key: str) -> bytes:
    """A street map (JPEG) for the search ``key`` (``map_key``): deterministic per key."""
    w, h = MAP_SIZE
    rng = rng_for("zilloft-map", key)
    S = 2  # drawn at twice the size, then reduced: smooth lines
    im = Image.new("RGB", (w * S, h * S), (242, 239, 233))
    d = ImageDraw.Draw(im)
    # city blocks: a grid of streets turned by a few degrees, with blocks of slightly different tints
    angle = math.radians(float(rng.uniform(-14, 14)))
    ca, sa = math.cos(angle), math.sin(angle)
    cx, cy = w * S / 2, h * S / 2
    pitch = float(rng.uniform(38, 56)) * S

    def rot(x: float, y: float) -> tuple[float, float]:
        return cx + (x * ca - y * sa), cy + (x * sa + y * ca)

    span = int(max(w, h) * S / pitch) + 3
    for i in range(-span, span):
        for j in range(-span, span):
            if rng.random() < 0.35:
                g = int(rng.integers(228, 238))
                a0, a1, b0, b1 = i * pitch + 4 * S, (i + 1) * pitch - 4 * S, j * pitch + 4 * S, (j + 1) * pitch - 4 * S
                pts = [rot(a0, b0), rot(a1, b0), rot(a1, b1), rot(a0, b1)]
                d.polygon(pts, fill=(g, g - 2, g - 6))
    # parks: a few green areas of a block or several
    for _ in range(int(rng.integers(5, 10))):
        i, j = int(rng.integers(-span // 2, span // 2)), int(rng.integers(-span // 2, span // 2))
        a, b = int(rng.integers(1, 4)), int(rng.integers(1, 3))
        pts = [rot(i * pitch, j * pitch), rot((i + a) * pitch, j * pitch), rot((i + a) * pitch, (j + b) * pitch),
               rot(i * pitch, (j + b) * pitch)]
        d.polygon(pts, fill=(200, 226, 190))
    # streets: minor ones white, every fourth an arterial in pale yellow, one highway across in orange
    minor, major = 3 * S, 7 * S
    for i in range(-span, span + 1):
        for along in (True, False):
            big = i % 4 == 0
            if not big and rng.random() < 0.12:
                continue  # a street that does not go through
            a = rot(i * pitch, -span * pitch) if along else rot(-span * pitch, i * pitch)
            b = rot(i * pitch, span * pitch) if along else rot(span * pitch, i * pitch)
            if big:
                d.line([a, b], fill=(214, 205, 180), width=major + 2 * S)
                d.line([a, b], fill=(255, 242, 175), width=major)
            else:
                d.line([a, b], fill=(255, 255, 255), width=minor)
    y0, y1 = float(rng.uniform(0.1, 0.9)) * h * S, float(rng.uniform(0.1, 0.9)) * h * S
    hw = [(0, y0), (w * S * 0.5, (y0 + y1) / 2 + float(rng.uniform(-60, 60)) * S), (w * S, y1)]
    d.line(hw, fill=(219, 160, 90), width=12 * S, joint="curve")
    d.line(hw, fill=(248, 196, 120), width=9 * S, joint="curve")
    # water along one edge: a coast whose line wanders, never past 13% of the map (pins stay clear of it)
    edge = int(rng.integers(4))
    n = 60
    f1, f2, p1, p2 = (float(v) for v in (rng.uniform(0.6, 1.6), rng.uniform(2.5, 5), rng.uniform(0, 6),
                                         rng.uniform(0, 6)))
    depth = [min(0.12, max(0.03, 0.07 + 0.03 * math.sin(2 * math.pi * f1 * k / n + p1)
                           + 0.012 * math.sin(2 * math.pi * f2 * k / n + p2))) for k in range(n + 1)]
    if edge in (0, 1):  # left or right
        xs = [(dd if edge == 0 else 1 - dd) * w * S for dd in depth]
        coast = [(x, k / n * h * S) for k, x in enumerate(xs)]
        shore = [(0 if edge == 0 else w * S, h * S), (0 if edge == 0 else w * S, 0)]
    else:  # top or bottom
        ys = [(dd if edge == 2 else 1 - dd) * h * S for dd in depth]
        coast = [(k / n * w * S, y) for k, y in enumerate(ys)]
        shore = [(w * S, 0 if edge == 2 else h * S), (0, 0 if edge == 2 else h * S)]
    d.polygon(coast + shore, fill=(170, 211, 240))
    d.line(coast, fill=(150, 195, 228), width=2 * S)
    img = im.resize((w, h), Image.LANCZOS).filter(ImageFilter.SMOOTH)
    # paper-like texture
    px = np.asarray(img, np.float32)
    px *= (1 + 0.03 * (_map_noise(rng, w, h, 40) - 0.5))[..., None]
    px += rng.normal(0, 2.0, px.shape).astype(np.float32)
    return _jpeg(Image.fromarray(np.clip(px, 0, 255).astype(np.uint8), "RGB"), 82)


def pin(zpid: str) -> tuple[float, float]:
    """Where a listing sits on a map, in percent of its width and height: inside 16-84% / 15-85%, clear of water."""
    v = int(hashlib.md5(f"pin:{zpid}".encode()).hexdigest()[:8], 16)
    return round(16 + (v % 6800) / 100, 1), round(15 + (v // 6800 % 7000) / 100, 1)
