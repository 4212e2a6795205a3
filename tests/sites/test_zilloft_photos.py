"""Zilloft's pictures (issue 16, point 6): photo-like listing photos and a street map, deterministic per listing (per
search), different between listings, served as JPEG with a long cache lifetime."""

from __future__ import annotations

import io

import httpx
import numpy as np
import pytest
from PIL import Image

from real_local.zilloft import photos
from real_local.zilloft.listings import BY_ID


def _img(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), np.float32)


def test_rooms_and_maps_are_deterministic_and_differ():
    a, b = photos.room_image(("t", 1), 160, 100), photos.room_image(("t", 1), 160, 100)
    assert a.tobytes() == b.tobytes()
    assert np.abs(np.asarray(a, np.float32) - np.asarray(photos.room_image(("t", 2), 160, 100), np.float32)).mean() > 8
    key = photos.map_key("Boston, MA")
    assert key == photos.map_key("boston ma") != photos.map_key("Long Beach")
    first = photos.map_image(key)
    photos.map_image.cache_clear()
    assert photos.map_image(key) == first
    assert np.abs(_img(first) - _img(photos.map_image(photos.map_key("Long Beach")))).mean() > 5


def test_photos_look_like_photos():
    """Not flat art: many colours, texture (no large single-colour areas), a sky above a lawn."""
    card = _img(photos.listing_photo(BY_ID["90801"], 0, "card"))
    assert card.shape == (210, 336, 3)
    q = (card // 8).astype(int)
    assert len({tuple(p) for p in q.reshape(-1, 3)}) > 300
    sky, ground = card[:20].mean((0, 1)), card[-20:].mean((0, 1))
    assert sky[2] > sky[1] and ground[1] > ground[2]  # blue above, green below
    room = _img(photos.listing_photo(BY_ID["90801"], 1, "thumb"))
    assert room.shape == (200, 320, 3) and room.std() > 20


def test_http_photos_are_per_listing_and_cached(site_urls):
    if "zilloft" not in site_urls:
        pytest.skip("REAL-local zilloft does not import")
    with httpx.Client(base_url=site_urls["zilloft"], timeout=30) as c:
        r1, r2 = c.get("/photos/90801/0-card.jpg"), c.get("/photos/90801/0-card.jpg")
        assert r1.status_code == 200 and r1.headers["content-type"] == "image/jpeg" and r1.content == r2.content
        assert "immutable" in r1.headers["cache-control"]
        other = c.get("/photos/15004/0-card.jpg").content
        assert np.abs(_img(r1.content) - _img(other)).mean() > 8  # two listings, two houses
        big = _img(c.get("/photos/90801/0-big.jpg").content)  # the card is the listing page's photo, reduced
        small = np.asarray(Image.fromarray(big.astype(np.uint8)).resize((336, 210), Image.LANCZOS), np.float32)
        assert np.abs(small - _img(r1.content)).mean() < 4
        for bad in ("/photos/90801/3-card.jpg", "/photos/1/0-card.jpg", "/photos/90801/0-huge.jpg", "/maps/x.jpg"):
            assert c.get(bad).status_code == 404, bad
        page = c.get("/search", params={"searchQuery": "Long Beach"}).text
        assert f'src="/maps/{photos.map_key("Long Beach")}.jpg"' in page and 'src="/photos/' in page
        assert c.get(f"/maps/{photos.map_key('Long Beach')}.jpg").headers["content-type"] == "image/jpeg"
        detail = c.get(BY_ID["90801"].url).text
        assert 'alt="Photo of 3521 Gale Ave"' in detail and 'src="/photos/90801/2-thumb.jpg"' in detail


def test_pins_stay_clear_of_the_water():
    xs, ys = zip(*(photos.pin(h) for h in BY_ID))
    assert 16 <= min(xs) and max(xs) <= 84 and 15 <= min(ys) and max(ys) <= 85 and len(set(zip(xs, ys))) > 700
