"""NetworkIn's pictures, drawn by ``real_local.imagery`` (offline, deterministic, cached): every member's and the
user's profile photo (``/avatars/<id>-<size>.jpg``) and the logos of company pages and of the other organisations
in members' experience (``/logos/<slug>-<size>.jpg``: a company page's id, else the organisation's name as a slug).
Module data like the directory, never in the session's state."""

from __future__ import annotations

import functools
import io
import re

from PIL import Image

from real_local.imagery.cache import avatar_photo, company_logo, encode
from real_local.networkin.directory import COMPANIES, MEMBERS, USER

AVATAR_SIZES = {"xs": 24, "s": 32, "m": 48, "l": 72, "xl": 152}  # drawn once at DRAWN, reduced
DRAWN = 160
LOGO_SIZES = {"s": 32, "m": 48, "l": 120}
CONTENT_TYPE = "image/jpeg"
PEOPLE = {m.id: m for m in (*MEMBERS, USER)}
_LONG_HAIR = {"Sarah", "Emily", "Rachel", "Priya", "Laura", "Jessica", "Olivia", "Sophia", "Natalie", "Hannah",
              "Megan", "Grace"}


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


_PAGE_BY_NAME = {c.name: c.id for c in COMPANIES}


def org_key(name: str) -> str:
    """The logo key of an organisation in someone's experience: its company page's id, else its name's slug."""
    return _PAGE_BY_NAME.get(name) or slug(name)


def school(m) -> str:
    """The school of a member's education line ("Stanford University, B.S. ..." -> "Stanford University")."""
    return m.education.split(",")[0]


LOGOS = {c.id: c.name for c in COMPANIES} | {org_key(org): org for m in PEOPLE.values()
                                             for _, org, _ in m.experience} | {
    org_key(school(m)): school(m) for m in PEOPLE.values()}


def avatar(pid: str, size: str) -> bytes | None:
    """Member ``pid``'s photo (or the user's), JPEG; None if no such member or size."""
    m = PEOPLE.get(pid)
    if m is None or size not in AVATAR_SIZES:
        return None
    return _avatar(pid, m.first in _LONG_HAIR, AVATAR_SIZES[size])


@functools.lru_cache(maxsize=256)
def _avatar(pid: str, long_hair: bool, px: int) -> bytes:
    big = avatar_photo(("networkin", pid), DRAWN, long_hair=long_hair)
    return encode(Image.open(io.BytesIO(big)).convert("RGB").resize((px, px), Image.LANCZOS), quality=88)


def logo(key: str, size: str) -> bytes | None:
    """A company page's or an organisation's logo, JPEG; None if unknown."""
    if key not in LOGOS or size not in LOGO_SIZES:
        return None
    return company_logo(LOGOS[key], LOGO_SIZES[size])


__all__ = ["AVATAR_SIZES", "LOGOS", "LOGO_SIZES", "avatar", "logo", "org_key", "school"]
