"""DashDish's pictures, drawn by ``real_local.imagery`` (offline, deterministic, cached): every dish's photo
(``/photos/dish/<dish id>-<s|m|l>.jpg``: an overhead shot of the dish), every store's street front
(``/photos/store/<store id>-<card|hero>.jpg``) and its logo (``/photos/logo/<store id>.jpg``). Module data only,
never in the session's state."""

from __future__ import annotations

import functools
import io

from PIL import Image

from real_local.dashdish.menu import BY_ID, DISHES
from real_local.imagery.cache import company_logo, dish_photo, encode, storefront_photo
from real_local.imagery.food import dish_kind

DISH_DRAWN = 480  # dishes are drawn once, square, then reduced or cropped
DISH_SIZES = {"s": (96, 96), "m": (160, 160), "l": (480, 300)}
STORE_SIZES = {"card": (480, 270), "hero": (1080, 240)}
LOGO_SIZE = 96
CONTENT_TYPE = "image/jpeg"
BRAND = {"wingstop": "#1e6b3a", "taco-boys": "#6a2a8a", "little-caesars": "#e2711d", "jersey-subs": "#0f4c81",
         "pho-saigon": "#b22222", "golden-wok": "#c8102e", "coop-chicken": "#d4a017", "hen-house": "#8b4513",
         "burger-barn": "#a0522d", "sakura": "#c2185b"}


@functools.lru_cache(maxsize=256)
def dish(did: str, size: str) -> bytes | None:
    """Dish ``did``'s photo at ``size`` ("s", "m" square; "l" a wide crop for the item page); None if none."""
    if did not in DISHES or size not in DISH_SIZES:
        return None
    d = DISHES[did][1]
    big = dish_photo(dish_kind(d.name, d.category), ("dashdish", did), DISH_DRAWN, DISH_DRAWN, d.name)
    w, h = DISH_SIZES[size]
    im = Image.open(io.BytesIO(big)).convert("RGB")
    if w != h:  # the middle band, as a wide food photo
        top = (DISH_DRAWN - h * DISH_DRAWN // w) // 2
        im = im.crop((0, top, DISH_DRAWN, DISH_DRAWN - top))
    return encode(im.resize((w, h), Image.LANCZOS), quality=86)


def store(rid: str, size: str) -> bytes | None:
    """Store ``rid``'s street front ("card" or the store page's "hero"); None if none."""
    if rid not in BY_ID or size not in STORE_SIZES:
        return None
    return storefront_photo(BY_ID[rid].name, ("dashdish", rid), *STORE_SIZES[size], color=BRAND.get(rid))


def logo(rid: str) -> bytes | None:
    return company_logo(BY_ID[rid].name, LOGO_SIZE) if rid in BY_ID else None
