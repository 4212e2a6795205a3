"""OpenDining's pictures, drawn by ``real_local.imagery`` (offline, deterministic, cached): each restaurant's
photos (``/photos/<restaurant id>/<n>-<size>.jpg``: ``n`` 0 is its signature dish, the card's photo; 1 and 2 more
dishes of its cuisine; 3 its street front) and reviewers' portraits (``/photos/diner/<n>.jpg``). Module data only,
never in the session's state (the reservation record keeps REAL's ``imageUrl``)."""

from __future__ import annotations

import functools
import io

from PIL import Image

from real_local.imagery.cache import avatar_photo, dish_photo, encode, storefront_photo
from real_local.opendining.restaurants import BY_ID, Restaurant

DRAWN = 480  # dishes are drawn once, square, then cropped and reduced
SIZES = {"card": (480, 300), "big": (720, 450), "thumb": (240, 160)}
CONTENT_TYPE = "image/jpeg"
N_PHOTOS = 4
STOREFRONT = 3
# a cuisine's dishes (imagery.food's kinds) and the menu words that tint them
DISHES = {
    "Italian": (("noodles", "Pasta"), ("pizza", "Margherita pizza"), ("bowl", "Parmesan risotto")),
    "American": (("burger", "Cheeseburger"), ("fries", "Fries"), ("wings", "BBQ wings")),
    "French": (("soup", "Onion soup"), ("chicken", "Roast chicken"), ("bowl", "Veggie salad")),
    "Japanese": (("sushi", "Salmon roll"), ("soup", "Miso ramen"), ("noodles", "Udon noodles")),
    "Mexican": (("tacos", "Tacos al pastor"), ("burrito", "Carne asada burrito"), ("chips", "Chips and guacamole")),
    "Seafood": (("soup", "Shrimp cioppino"), ("sushi", "Fish crudo"), ("bowl", "Salmon bowl")),
    "Breakfast & Brunch": (("sandwich", "Egg sandwich"), ("drink", "Coffee"), ("bowl", "Fruit bowl")),
    "Californian": (("bowl", "Veggie bowl"), ("sandwich", "Club sandwich"), ("drink", "Lemonade")),
    "Steakhouse": (("chicken", "Beef"), ("fries", "Fries"), ("bowl", "Mashed potatoes")),
    "Chinese": (("noodles", "Lo mein noodles"), ("soup", "Wonton soup"), ("burrito", "Spring roll")),
    "Cafe": (("drink", "Coffee"), ("sandwich", "Club sandwich"), ("bowl", "Salad bowl")),
}
ACCENT = {"Italian": "#7a1f1f", "American": "#1f3a5f", "French": "#283845", "Japanese": "#7b2d26",
          "Mexican": "#c0392b", "Seafood": "#1b4f72", "Breakfast & Brunch": "#d68910", "Californian": "#4a7c3a",
          "Steakhouse": "#3b2416", "Chinese": "#b03a2e", "Cafe": "#5d4037"}


def captions(r: Restaurant) -> tuple[str, ...]:
    return (*(name for _, name in DISHES[r.food_type]), "Outside")


@functools.lru_cache(maxsize=256)
def photo(rid: str, n: int, size: str) -> bytes | None:
    """Photo ``n`` of restaurant ``rid`` at ``size`` (one of ``SIZES``), JPEG; None when there is none."""
    r = BY_ID.get(rid)
    if r is None or not 0 <= n < N_PHOTOS or size not in SIZES:
        return None
    w, h = SIZES[size]
    if n == STOREFRONT:
        return storefront_photo(r.name, ("opendining", rid), w, h, color=ACCENT.get(r.food_type))
    kind, name = DISHES[r.food_type][n]
    big = dish_photo(kind, ("opendining", rid, n), DRAWN, DRAWN, name)
    im = Image.open(io.BytesIO(big)).convert("RGB")
    top = (DRAWN - h * DRAWN // w) // 2  # the middle band, as a wide food photo
    im = im.crop((0, top, DRAWN, DRAWN - top))
    return encode(im.resize((w, h), Image.LANCZOS), quality=86)


def diner(n: int) -> bytes | None:
    """Reviewer ``n``'s portrait (a small square)."""
    return avatar_photo(("opendining", "diner", n), 80) if 0 <= n < 64 else None


def url(r: Restaurant, n: int = 0, size: str = "card") -> str:
    return f"/photos/{r.id}/{n}-{size}.jpg"
