"""REAL-local's procedural photos (``real_local.imagery``): deterministic per seed, different across seeds and
products, photo-like (shaded, not flat), every kind drawable, cached in memory and on disk."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from real_local.imagery import cache, houses, products


@pytest.fixture
def no_cache(monkeypatch):
    monkeypatch.setenv("HALO_IMAGE_CACHE", "off")
    monkeypatch.setattr(cache, "_MEM", type(cache._MEM)())


def _px(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), np.float32)


def test_same_seed_same_bytes_other_seed_other_picture(no_cache):
    a = cache.product_photo("laptop", "omnizon-300", 160)
    cache._MEM.clear()
    assert cache.product_photo("laptop", "omnizon-300", 160) == a  # drawn again, not read from a cache
    b = cache.product_photo("laptop", "omnizon-301", 160)
    assert a != b and np.abs(_px(a) - _px(b)).mean() > 4
    assert cache.house_photo(7, 320, 210) == cache.house_photo(7, 320, 210) != cache.house_photo(8, 320, 210)


def test_two_products_pictures_differ():
    """Two Omnizon products (a laptop and a phone) get different photos, and each is served as a JPEG."""
    from real_local.omnizon.art import kind, photo
    from real_local.omnizon.catalog import BY_ID

    laptop, phone = BY_ID["300"], BY_ID["22"]
    assert (kind(laptop), kind(phone)) == ("laptop", "phone")
    a, b = photo(laptop), photo(phone)
    assert a[:2] == b[:2] == b"\xff\xd8" and np.abs(_px(a) - _px(b)).mean() > 8


@pytest.mark.parametrize("kind", products.KINDS)
def test_every_kind_is_shaded_not_flat(kind, no_cache):
    """A photo-like picture: many distinct colours (gradients, shading, grain) and an object on the backdrop."""
    px = np.asarray(products.product_image(kind, 1, 96), np.float32)
    assert px.shape == (96, 96, 3)
    colours = len(np.unique(px.reshape(-1, 3).astype(np.uint8), axis=0))
    assert colours > 1500, colours
    centre, corner = px[30:70, 30:70].std(), px[:12, :12].std()
    assert centre > 12 and centre > corner, (centre, corner)


def test_kind_for_titles():
    assert products.kind_for("Dell XPS 13 9340 Laptop, 13.3\" Display") == "laptop"
    assert products.kind_for("SAMSUNG Galaxy S24 Ultra Cell Phone, 256GB AI Smartphone") == "phone"
    assert products.kind_for("Sony WH-1000XM5 Wireless Noise Canceling Headphones") == "headphones"
    assert products.kind_for("Zinus Jackie Sofa Couch") == "sofa"
    assert products.kind_for("Something else entirely") == "box"


def test_house_styles_and_formats(no_cache):
    for style in houses.HOUSE_STYLES:
        im = Image.open(io.BytesIO(cache.house_photo(3, 240, 160, style)))
        assert im.size == (240, 160) and im.format == "JPEG"
    webp = cache.product_photo("phone", 1, 64, fmt="webp")
    assert webp[:4] == b"RIFF" and webp[8:12] == b"WEBP"
    with pytest.raises(ValueError, match="house style"):
        cache.house_photo(1, style="castle")
    with pytest.raises(ValueError, match="image format"):
        cache.product_photo("phone", 1, 64, fmt="gif")


def test_disk_cache_is_used(monkeypatch, tmp_path):
    monkeypatch.setenv("HALO_IMAGE_CACHE", str(tmp_path))
    monkeypatch.setattr(cache, "_MEM", type(cache._MEM)())
    a = cache.product_photo("chair", "x", 64, "#336699")
    files = list(tmp_path.rglob("*.jpg"))
    assert len(files) == 1 and files[0].read_bytes() == a and files[0].parent.parent.name == f"v{cache.VERSION}"
    files[0].write_bytes(b"cached")  # a second process reads the disk, not the drawing
    cache._MEM.clear()
    assert cache.product_photo("chair", "x", 64, "#336699") == b"cached"
