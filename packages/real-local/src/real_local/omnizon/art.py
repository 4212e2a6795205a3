"""Product pictures: photo-like shots drawn offline by ``real_local.imagery`` (one per product, its kind from the
product's line or title, its main colour the product's own), served by ``routes.product_image`` at
``/images/I/<id>.jpg`` (or ``.webp``) and shown as ``<img>`` elements where Amazon shows a product photo."""

from __future__ import annotations

import html

from markupsafe import Markup

from real_local.imagery.cache import product_photo
from real_local.imagery.products import kind_for
from real_local.omnizon.catalog import Product

PHOTO_SIZE = 320  # every product photo is drawn once, at this size; pages scale it


def kind(p: Product) -> str:
    """The picture's kind: the product line's own, else from the title, else from the department."""
    if p.kind:
        return p.kind
    k = kind_for(p.title)
    if k == "box" and p.category in ("Furniture",):
        return "desk"
    return k


def photo(p: Product, fmt: str = "jpeg") -> bytes:
    """The product's photo, encoded (cached by ``imagery``)."""
    return product_photo(kind(p), f"omnizon-{p.id}", PHOTO_SIZE, p.color, fmt)


def art(p: Product, size: int = 160, alt: str | None = None) -> Markup:
    """The product's photo as an ``<img>`` of ``size`` pixels (square; the box is reserved before it loads). ``alt``
    defaults to the title; "" where the link around it already names the product (the home page's tiles: so the
    page's accessibility tree holds exactly the nodes it held with the drawn icons)."""
    text = p.title if alt is None else alt
    return Markup(f'<img class="photo" src="/images/I/{html.escape(p.id)}.jpg" width="{size}" height="{size}" '
                  f'alt="{html.escape(text)}" decoding="async">')
