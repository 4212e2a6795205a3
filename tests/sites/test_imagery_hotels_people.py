"""The hotel, portrait and logo pictures of ``real_local.imagery`` (issue 46): deterministic per seed, different
across seeds, photo-like (many colours, shading), cached; served by MarriSuite and TopWork as JPEG with a long cache
lifetime, 404 for what does not exist."""

from __future__ import annotations

import io

import httpx
import numpy as np
import pytest
from PIL import Image

from real_local.imagery import cache, hotels, people


@pytest.fixture
def no_cache(monkeypatch):
    monkeypatch.setenv("HALO_IMAGE_CACHE", "off")
    monkeypatch.setattr(cache, "_MEM", type(cache._MEM)())


def _px(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), np.float32)


@pytest.mark.parametrize("kind", hotels.HOTEL_KINDS)
def test_hotel_photos_are_deterministic_distinct_and_photo_like(no_cache, kind):
    a = cache.hotel_photo(("t", 1), kind, 240, 150)
    cache._MEM.clear()
    assert cache.hotel_photo(("t", 1), kind, 240, 150) == a
    px = _px(a)
    assert px.shape == (150, 240, 3) and px.std() > 15
    assert len({tuple(p) for p in (px // 8).astype(int).reshape(-1, 3)}) > 200
    assert np.abs(px - _px(cache.hotel_photo(("t", 2), kind, 240, 150))).mean() > 4


def test_exterior_styles_differ_and_bad_kinds_are_refused(no_cache):
    shots = [_px(cache.hotel_photo("s", "exterior", 240, 150, style)) for style in hotels.HOTEL_STYLES]
    assert all(np.abs(shots[i] - shots[j]).mean() > 8 for i in range(3) for j in range(i))
    for bad in ({"kind": "garage"}, {"kind": "exterior", "style": "castle"}):
        with pytest.raises(ValueError):
            cache.hotel_photo("s", w=10, h=10, **bad)


def test_avatars_and_logos(no_cache):
    a = cache.avatar_photo("p1", 96)
    assert a == cache.avatar_photo("p1", 96) and _px(a).shape == (96, 96, 3)
    assert np.abs(_px(a) - _px(cache.avatar_photo("p2", 96))).mean() > 6
    face = _px(a)[30:60, 36:60].mean((0, 1))
    assert face[0] > face[2]  # skin in the middle: warmer than blue
    logo = _px(cache.company_logo("Bluepeak Software", 56))
    assert logo.shape == (56, 56, 3) and logo.std() > 30
    assert np.abs(logo - _px(cache.company_logo("Northwind Labs", 56))).mean() > 10
    assert people.logo_image("Cedar & Co", 40).size == (40, 40)


def test_sites_serve_their_photos(site_urls):
    for site in ("marrisuite", "topwork"):
        if site not in site_urls:
            pytest.skip(f"REAL-local {site} does not import")
    with httpx.Client(base_url=site_urls["marrisuite"], timeout=60) as c:
        r = c.get("/photos/sbago/0-card.jpg")
        assert r.status_code == 200 and r.headers["content-type"] == "image/jpeg" and _px(r.content).shape == (220, 360, 3)
        assert "immutable" in r.headers["cache-control"] and c.get("/photos/sbago/0-card.jpg").content == r.content
        big = _px(c.get("/photos/sbago/0-big.jpg").content)  # the card is the gallery's photo, reduced
        small = np.asarray(Image.fromarray(big.astype(np.uint8)).resize((360, 220), Image.LANCZOS), np.float32)
        assert np.abs(small - _px(r.content)).mean() < 4
        assert np.abs(_px(c.get("/photos/sfodt/0-card.jpg").content) - _px(r.content)).mean() > 8
        for bad in ("/photos/nope/0-card.jpg", "/photos/sbago/6-card.jpg", "/photos/sbago/0-huge.jpg"):
            assert c.get(bad).status_code == 404, bad
    with httpx.Client(base_url=site_urls["topwork"], timeout=60) as c:
        r = c.get("/avatars/danielkim-m.jpg")
        assert r.status_code == 200 and _px(r.content).shape == (64, 64, 3)
        assert _px(c.get("/avatars/sarahjohnson-s.jpg").content).shape == (40, 40, 3)
        assert _px(c.get("/logos/johnson-digital-m.jpg").content).shape == (56, 56, 3)
        for bad in ("/avatars/nobody-m.jpg", "/avatars/danielkim-xl.jpg", "/logos/acme-m.jpg"):
            assert c.get(bad).status_code == 404, bad
