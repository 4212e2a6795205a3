"""``real_local.core.picture``: how every site sends a drawn picture (photos, portraits, logos, maps)."""

from __future__ import annotations

import asyncio
import threading

from real_local.core import picture


def test_a_picture_is_drawn_off_the_event_loop_and_cached_for_a_week() -> None:
    drawn_on = []

    def draw(key: str, size: str) -> bytes:
        drawn_on.append(threading.get_ident())
        return f"{key}-{size}".encode()

    async def main() -> tuple[object, int]:
        return await picture("image/jpeg", draw, "sbago", "card"), threading.get_ident()

    r, loop_thread = asyncio.run(main())
    assert r.status_code == 200 and r.body == b"sbago-card" and r.media_type == "image/jpeg"
    assert "immutable" in r.headers["cache-control"] and "max-age=604800" in r.headers["cache-control"]
    assert drawn_on and drawn_on[0] != loop_thread  # Pillow's work would hold up every session's requests


def test_no_such_picture_is_a_404_in_plain_text() -> None:
    r = asyncio.run(picture("image/jpeg", lambda key: None, "nope", missing="No such logo."))
    assert (r.status_code, r.body, r.media_type) == (404, b"No such logo.", "text/plain")
    r = asyncio.run(picture("image/jpeg", None, "x"))  # a key the route already knows is not a picture
    assert (r.status_code, r.body) == (404, b"No such photo.") and "cache-control" not in r.headers
