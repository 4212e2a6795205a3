"""Product pictures as tiny inline SVGs (no image files, no network): a tinted shape per kind of product and
the brand, so a screenshot shows a product photo where Amazon shows one."""

from __future__ import annotations

import html

from markupsafe import Markup

from halo.sites.omnizon.catalog import Product

_SHAPES = {
    "pot": '<rect x="45" y="70" width="110" height="80" rx="10" fill="{c}"/><rect x="35" y="62" width="130" height="12" rx="6" fill="{c}" opacity=".8"/><rect x="25" y="85" width="22" height="8" rx="4" fill="{c}"/><rect x="153" y="85" width="22" height="8" rx="4" fill="{c}"/>',
    "controller": '<path d="M50 80 Q100 60 150 80 L170 140 Q160 160 140 145 L120 125 L80 125 L60 145 Q40 160 30 140 Z" fill="{c}"/><circle cx="75" cy="100" r="8" fill="#fff" opacity=".6"/><circle cx="130" cy="95" r="5" fill="#fff" opacity=".6"/><circle cx="140" cy="107" r="5" fill="#fff" opacity=".6"/>',
    "headphones": '<path d="M50 120 Q50 50 100 50 Q150 50 150 120" stroke="{c}" stroke-width="10" fill="none"/><rect x="38" y="110" width="28" height="45" rx="10" fill="{c}"/><rect x="134" y="110" width="28" height="45" rx="10" fill="{c}"/>',
    "ball": '<circle cx="100" cy="100" r="55" fill="{c}"/><path d="M45 100 H155 M100 45 V155" stroke="#000" stroke-opacity=".3" stroke-width="3"/>',
    "pillow": '<path d="M60 60 Q100 40 140 60 Q170 100 140 140 Q120 150 115 120 Q100 100 85 120 Q80 150 60 140 Q30 100 60 60Z" fill="{c}"/>',
    "desk": '<rect x="30" y="70" width="140" height="12" fill="{c}"/><rect x="40" y="82" width="8" height="70" fill="{c}"/><rect x="152" y="82" width="8" height="70" fill="{c}"/>',
    "chair": '<rect x="65" y="40" width="70" height="70" rx="12" fill="{c}"/><rect x="55" y="110" width="90" height="16" rx="6" fill="{c}"/><rect x="96" y="126" width="8" height="25" fill="#555"/><path d="M70 160 L100 150 L130 160" stroke="#555" stroke-width="5" fill="none"/>',
    "bed": '<rect x="30" y="90" width="140" height="40" rx="4" fill="{c}"/><rect x="30" y="60" width="20" height="80" fill="{c}"/><rect x="70" y="80" width="50" height="15" rx="6" fill="#fff" opacity=".7"/>',
    "flatware": '<rect x="70" y="40" width="8" height="120" rx="4" fill="{c}"/><ellipse cx="74" cy="45" rx="12" ry="18" fill="{c}"/><rect x="96" y="40" width="8" height="120" rx="4" fill="{c}"/><path d="M90 40 V70 M100 40 V70 M110 40 V70" stroke="{c}" stroke-width="4"/><rect x="122" y="40" width="8" height="120" rx="4" fill="{c}"/>',
    "box": '<rect x="50" y="50" width="100" height="100" rx="8" fill="{c}"/><rect x="50" y="90" width="100" height="10" fill="#fff" opacity=".3"/>',
}
_KINDS = (("pot", ("pot", "stockpot", "dutch", "teapot", "cooker", "coffee")), ("controller", ("controller",)),
          ("headphones", ("headphones", "headset", "earbuds")), ("ball", ("ball", "basketball", "football")),
          ("pillow", ("pillow", "mask")), ("desk", ("desk",)), ("chair", ("chair",)),
          ("bed", ("bed frame", "mattress")), ("flatware", ("silverware", "flatware", "utensils", "spoons")))


def _kind(p: Product) -> str:
    t = p.title.lower()
    for kind, words in _KINDS:
        if any(w in t for w in words):
            return kind
    return "box"


def art(p: Product, size: int = 160) -> Markup:
    shape = _SHAPES[_kind(p)].replace("{c}", html.escape(p.color))
    label = html.escape(p.brand)
    return Markup(f'<svg viewBox="0 0 200 200" width="{size}" height="{size}" role="img" aria-label="{html.escape(p.title)}">'
                  f'<rect width="200" height="200" fill="#f7f8f8"/>{shape}'
                  f'<text x="100" y="188" font-size="13" text-anchor="middle" fill="#777">{label}</text></svg>')
