"""MarriSuite's hotel photos, drawn by ``real_local.imagery`` (offline, deterministic per hotel, cached): each hotel
has ``PHOTOS`` (its exterior in the style of its brand and place, the pool, the lobby, and a photo of each room
type), served at ``/photos/<hotel id>/<n>-<size>.jpg``. A photo is drawn once at ``BIG`` and reduced for the cards
and thumbnails, so a card and the hotel page show the same picture; the home page's hero is drawn at its own size."""

from __future__ import annotations

import functools
import io

from PIL import Image

from real_local.imagery.cache import encode, hotel_photo
from real_local.marrisuite.hotels import BY_ID, Hotel

BIG = (720, 440)
SIZES = {"big": BIG, "card": (360, 220), "thumb": (176, 108), "hero": (1280, 640)}
PHOTOS = ("exterior", "pool", "lobby", "room", "room2", "suite")
ROOM_PHOTO = {"K": 3, "QQ": 4, "S": 5}  # a room type's photo
CAPTIONS = ("Exterior", "Pool", "Lobby", "Guest room, 1 King", "Guest room, 2 Queen", "Suite")
CONTENT_TYPE = "image/jpeg"
HERO = ("sbabg", 1)  # the home page's hero: the Bacara's pool


def style(h: Hotel) -> str:
    """The exterior's building: resorts by the sea, city towers, suburban mid-rises."""
    if h.brand in ("Ritz-Carlton", "Autograph Collection") or "Beachfront" in h.name:
        return "resort"
    if h.brand in ("Courtyard", "Residence Inn") or "Mission Valley" in h.name:
        return "midrise"
    return "tower"


@functools.lru_cache(maxsize=512)
def photo(hid: str, n: int, size: str) -> bytes:
    """Photo ``n`` of hotel ``hid`` at ``size`` (one of ``SIZES``), JPEG; KeyError/IndexError when none."""
    h = BY_ID[hid]
    kind = PHOTOS[n]
    w, ht = SIZES[size]
    seed = ("marrisuite", h.id)
    if size == "hero":
        return hotel_photo(seed, kind, w, ht, style(h) if kind == "exterior" else None)
    big = hotel_photo(seed, kind, *BIG, style(h) if kind == "exterior" else None)
    if (w, ht) == BIG:
        return big
    return encode(Image.open(io.BytesIO(big)).convert("RGB").resize((w, ht), Image.LANCZOS))


def url(h: Hotel, n: int, size: str) -> str:
    return f"/photos/{h.id}/{n}-{size}.jpg"
