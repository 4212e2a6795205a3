"""Omnizon: REAL-local's clone of Amazon (search, filters, product pages, cart, checkout, orders), with the
product ids and the state layout REAL's v2 omnizon scripts read (see ``state`` and ``catalog``)."""

from pathlib import Path

from real_local.core import SiteSpec
from real_local.omnizon.routes import ROUTES
from real_local.omnizon.state import differences, seed

SPEC = SiteSpec(name="omnizon", seed=seed, differences=differences, routes=ROUTES,
                static_dir=str(Path(__file__).parent / "static"))

__all__ = ["SPEC"]
