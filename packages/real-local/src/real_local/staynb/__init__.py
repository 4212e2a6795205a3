"""StayNB: REAL-local's clone of Airbnb (search by destination, dates and adults/children/infants/pets; amenity and
room filters; results with the whole search in the URL; listing pages; wishlists, sharing, reserving), in the state
layout REAL's v2 staynb scripts read (see ``state`` and ``listings``)."""

from pathlib import Path

from real_local.core import SiteSpec
from real_local.staynb.routes import ROUTES
from real_local.staynb.state import differences, seed

SPEC = SiteSpec(name="staynb", seed=seed, differences=differences, routes=ROUTES,
                static_dir=str(Path(__file__).parent / "static"))

__all__ = ["SPEC"]
