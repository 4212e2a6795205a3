"""TopWork's pictures, drawn by ``real_local.imagery`` (offline, deterministic, cached): every freelancer's and the
client's profile photo (``/avatars/<id>-<size>.jpg``) and company logos (``/logos/<slug>-<size>.jpg``): the
client's company and the companies in freelancers' employment history (``EMPLOYMENT``, module data like the
catalogue, never in the session's state)."""

from __future__ import annotations

import functools
import io
import re

from PIL import Image

from real_local.imagery.cache import avatar_photo, company_logo, encode
from real_local.topwork.state import CLIENT, COMPANY
from real_local.topwork.talent import BY_ID, FREELANCERS

AVATAR_SIZES = {"s": 40, "m": 64, "l": 120}  # drawn once at DRAWN, reduced
DRAWN = 160
LOGO_SIZES = {"s": 40, "m": 56}
CONTENT_TYPE = "image/jpeg"
CLIENT_ID = CLIENT.lower().replace(" ", "")  # "sarahjohnson"
_LONG_HAIR = {"Priya", "Emily", "Ashley", "Olivia", "Sofia", "Natalie", "Lauren", "Sarah", "Alex"}
_COMPANIES = ("Bluepeak Software", "Northwind Labs", "Cedar & Co", "Quantive Analytics", "Brightline Media",
              "Harbor Health", "Orbital Apps", "Greenfield Retail", "Lumen Studio", "Atlas Logistics",
              "Summit Finance", "Kite Mobile")


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


LOGOS = {slug(n): n for n in (COMPANY, *_COMPANIES)}


def _employment(i: int, title: str) -> tuple[dict, ...]:
    a, b = _COMPANIES[(i * 5) % len(_COMPANIES)], _COMPANIES[(i * 5 + 3) % len(_COMPANIES)]
    return ({"company": a, "slug": slug(a), "role": title, "years": f"{2019 + i % 3} - {2022 + i % 2}"},
            {"company": b, "slug": slug(b), "role": f"Junior {title}" if not title.startswith("Junior") else title,
             "years": f"{2015 + i % 3} - {2019 + i % 3}"})


EMPLOYMENT = {f.id: _employment(i, f.title) for i, f in enumerate(FREELANCERS)}


def avatar(pid: str, size: str) -> bytes | None:
    """Person ``pid``'s photo (a freelancer's id, or the client's), JPEG; None if no such person or size."""
    name = CLIENT if pid == CLIENT_ID else BY_ID[pid].name if pid in BY_ID else None
    if name is None or size not in AVATAR_SIZES:
        return None
    return _avatar(pid, name.split()[0] in _LONG_HAIR, AVATAR_SIZES[size])


@functools.lru_cache(maxsize=256)
def _avatar(pid: str, long_hair: bool, px: int) -> bytes:
    big = avatar_photo(("topwork", pid), DRAWN, long_hair=long_hair)
    return encode(Image.open(io.BytesIO(big)).convert("RGB").resize((px, px), Image.LANCZOS), quality=88)


def logo(key: str, size: str) -> bytes | None:
    if key not in LOGOS or size not in LOGO_SIZES:
        return None
    return company_logo(LOGOS[key], LOGO_SIZES[size])
