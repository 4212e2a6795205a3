"""Encoded pictures (JPEG or WebP) and their cache: in memory (LRU, one per process) and on disk under
``cache_dir()``, one folder per ``VERSION``; ``product_photo`` and ``house_photo`` are the pictures the sites serve."""

from __future__ import annotations

import hashlib
import io
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from real_local.imagery.canvas import Color, rgb
from real_local.imagery.food import DISH_KINDS, dish_image, storefront_image
from real_local.imagery.hotels import HOTEL_KINDS, HOTEL_STYLES, hotel_image
from real_local.imagery.houses import HOUSE_STYLES, house_image
from real_local.imagery.people import avatar_image, logo_image
from real_local.imagery.products import product_image

VERSION = 2
PEOPLE_HOTELS_VERSION = 1  # hotels, avatars and logos: bump when those drawings change (products, houses keep theirs)
FOOD_MAPS_VERSION = 1  # dishes, storefronts and route maps: bump when those drawings change
CONTENT_TYPES = {"jpeg": "image/jpeg", "webp": "image/webp"}

_MEM: OrderedDict[tuple, bytes] = OrderedDict()
_MEM_MAX = 2048
_LOCK = threading.Lock()


def cache_dir() -> Path | None:
    """Where encoded pictures are kept between runs (None: memory only)."""
    env = os.environ.get("HALO_IMAGE_CACHE")
    if env is not None:
        if env.strip().lower() in ("", "off", "0", "none"):
            return None
        root = Path(env)
    else:
        root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "halo" / "imagery"
    return root / f"v{VERSION}"


def encode(img: Image.Image, fmt: str = "jpeg", quality: int = 84) -> bytes:
    if fmt not in CONTENT_TYPES:
        raise ValueError(f"unknown image format {fmt!r}: use one of {', '.join(CONTENT_TYPES)}")
    buf = io.BytesIO()
    if fmt == "jpeg":
        img.save(buf, "JPEG", quality=quality, optimize=True, progressive=False)
    else:
        img.save(buf, "WEBP", quality=quality, method=4)
    return buf.getvalue()


def _cached(key: tuple, make: Callable[[], Image.Image], fmt: str) -> bytes:
    with _LOCK:
        if key in _MEM:
            _MEM.move_to_end(key)
            return _MEM[key]
    root = cache_dir()
    path = None
    if root is not None:
        name = hashlib.sha256(repr(key).encode()).hexdigest()[:32]
        path = root / name[:2] / f"{name}.{'jpg' if fmt == 'jpeg' else fmt}"
        try:
            data = path.read_bytes()
        except OSError:
            data = None
        if data:
            return _remember(key, data)
    data = encode(make(), fmt)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
            tmp.write_bytes(data)
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only or full disk: memory only
    return _remember(key, data)


def _remember(key: tuple, data: bytes) -> bytes:
    with _LOCK:
        _MEM[key] = data
        _MEM.move_to_end(key)
        while len(_MEM) > _MEM_MAX:
            _MEM.popitem(last=False)
    return data


def product_photo(kind: str, seed: Any, size: int = 320, color: Color | None = None, fmt: str = "jpeg",
                  scene: str | None = None) -> bytes:
    """A product shot, encoded (``fmt`` "jpeg" or "webp") and cached; see ``product_image``."""
    col = None if color is None else tuple(round(float(v), 4) for v in rgb(color))
    key = ("product", VERSION, kind, repr(seed), int(size), col, fmt, scene)
    return _cached(key, lambda: product_image(kind, seed, size, col, scene), fmt)


def house_photo(seed: Any, w: int = 640, h: int = 420, style: str | None = None, fmt: str = "jpeg") -> bytes:
    """A street-side photo of a home, encoded and cached; see ``house_image``."""
    if style is not None and style not in HOUSE_STYLES:
        raise ValueError(f"unknown house style {style!r}: use one of {', '.join(HOUSE_STYLES)}")
    key = ("house", VERSION, repr(seed), int(w), int(h), style, fmt)
    return _cached(key, lambda: house_image(seed, w, h, style), fmt)


def hotel_photo(seed: Any, kind: str = "exterior", w: int = 720, h: int = 440, style: str | None = None,
                fmt: str = "jpeg") -> bytes:
    """A hotel photo (exterior, pool, lobby, a guest room), encoded and cached; see ``hotels.hotel_image``."""
    if kind not in HOTEL_KINDS or (style is not None and style not in HOTEL_STYLES):
        raise ValueError(f"unknown hotel photo {kind!r}/{style!r}: kinds {', '.join(HOTEL_KINDS)}, "
                         f"styles {', '.join(HOTEL_STYLES)}")
    key = ("hotel", VERSION, PEOPLE_HOTELS_VERSION, repr(seed), kind, int(w), int(h), style, fmt)
    return _cached(key, lambda: hotel_image(seed, kind, w, h, style), fmt)


def avatar_photo(seed: Any, size: int = 160, long_hair: bool | None = None, fmt: str = "jpeg") -> bytes:
    """A person's portrait photo, square, encoded and cached; see ``people.avatar_image``."""
    key = ("avatar", VERSION, PEOPLE_HOTELS_VERSION, repr(seed), int(size), long_hair, fmt)
    return _cached(key, lambda: avatar_image(seed, size, long_hair), fmt)


def company_logo(name: str, size: int = 96, fmt: str = "jpeg") -> bytes:
    """A company's logo tile, encoded and cached; see ``people.logo_image``."""
    key = ("logo", VERSION, PEOPLE_HOTELS_VERSION, name, int(size), fmt)
    return _cached(key, lambda: logo_image(name, size), fmt)


def dish_photo(kind: str, seed: Any, w: int = 320, h: int = 320, name: str = "", fmt: str = "jpeg") -> bytes:
    """An overhead photo of a dish, encoded and cached; see ``food.dish_image``."""
    if kind not in DISH_KINDS:
        raise ValueError(f"unknown dish {kind!r}: use one of {', '.join(DISH_KINDS)}")
    key = ("dish", VERSION, FOOD_MAPS_VERSION, kind, repr(seed), int(w), int(h), name, fmt)
    return _cached(key, lambda: dish_image(kind, seed, w, h, name), fmt)


def storefront_photo(name: str, seed: Any, w: int = 480, h: int = 270, color: str | None = None,
                     fmt: str = "jpeg") -> bytes:
    """A restaurant's street front with its name on the sign, encoded and cached; see ``food.storefront_image``."""
    key = ("storefront", VERSION, FOOD_MAPS_VERSION, name, repr(seed), int(w), int(h), color, fmt)
    return _cached(key, lambda: storefront_image(name, seed, w, h, color), fmt)


def route_map(points: tuple, w: int = 640, h: int = 320, fmt: str = "jpeg") -> bytes:
    """A street map with a ride's route, encoded and cached; see ``maps.route_map_image``."""
    from real_local.imagery.maps import route_map_image
    pts = tuple((round(float(x), 6), round(float(y), 6)) for x, y in points)
    key = ("routemap", VERSION, FOOD_MAPS_VERSION, pts, int(w), int(h), fmt)
    return _cached(key, lambda: route_map_image(pts, w, h), fmt)


__all__ = ["CONTENT_TYPES", "VERSION", "avatar_photo", "cache_dir", "company_logo", "dish_photo", "encode",
           "hotel_photo", "house_photo", "product_photo", "route_map", "storefront_photo"]
