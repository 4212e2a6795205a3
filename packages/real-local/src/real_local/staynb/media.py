"""StayNB's pictures, drawn by ``real_local.imagery`` (offline, deterministic per listing, cached): each listing's
``PHOTOS`` (the home from the street in the style of its kind, a bedroom, the living space, a second bedroom, and
the pool where it has one, else another room), served at ``/photos/<listing id>/<n>-<size>.jpg``, and its host's
portrait at ``/photos/host/<listing id>.jpg``. A photo is drawn once at ``BIG`` and cropped and reduced for the
cards and the gallery, so a card and the listing page show the same picture. Module data only, never in the
session's state."""

from __future__ import annotations

import functools
import io

from PIL import Image

from real_local.imagery.cache import avatar_photo, encode, hotel_photo, house_photo
from real_local.staynb.listings import BY_ID, Listing

BIG = (720, 480)
SIZES = {"big": BIG, "card": (400, 380), "thumb": (360, 240)}
N_PHOTOS = 5
CONTENT_TYPE = "image/jpeg"
STYLE = {"Entire rental unit": "condo", "Private room": "townhouse", "Entire condo": "condo",
         "Entire cottage": "house", "Entire villa": "house", "Entire loft": "townhouse"}


def kinds(x: Listing) -> tuple[str, ...]:
    """What each photo shows (an imagery.hotels kind, "exterior" for the house)."""
    return ("exterior", "room", "suite", "room2" if x.beds > 1 else "room",
            "pool" if "Pool" in x.amenities else "suite")


def captions(x: Listing) -> tuple[str, ...]:
    names = {"exterior": "Exterior", "room": "Bedroom", "suite": "Living area", "room2": "Bedroom 2",
             "pool": "Pool"}
    out = [names[k] for k in kinds(x)]
    if out[4] == out[2]:
        out[4] = "Living area 2"
    if out[3] == out[1]:
        out[3] = "Bedroom, another view"
    return tuple(out)


def _big(x: Listing, n: int) -> bytes:
    kind = kinds(x)[n]
    seed = ("staynb", x.id, n)
    if kind == "exterior":
        return house_photo(("staynb", x.id), *BIG, STYLE.get(x.kind, "house"))
    return hotel_photo(seed, kind, *BIG)


@functools.lru_cache(maxsize=512)
def photo(lid: str, n: int, size: str) -> bytes | None:
    """Photo ``n`` of listing ``lid`` at ``size`` (one of ``SIZES``), JPEG; None when there is none."""
    x = BY_ID.get(lid)
    if x is None or not 0 <= n < N_PHOTOS or size not in SIZES:
        return None
    big = _big(x, n)
    w, h = SIZES[size]
    if (w, h) == BIG:
        return big
    im = Image.open(io.BytesIO(big)).convert("RGB")
    bw, bh = BIG
    cw = min(bw, round(bh * w / h))  # the centre at the target's aspect
    ch = min(bh, round(bw * h / w))
    left, top = (bw - cw) // 2, (bh - ch) // 2
    return encode(im.crop((left, top, left + cw, top + ch)).resize((w, h), Image.LANCZOS), quality=86)


def host(lid: str) -> bytes | None:
    x = BY_ID.get(lid)
    return avatar_photo(("staynb", "host", x.host), 96) if x else None


def url(x: Listing, n: int = 0, size: str = "card") -> str:
    return f"/photos/{x.id}/{n}-{size}.jpg"
