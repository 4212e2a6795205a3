"""MarriSuite: REAL-local's clone of Marriott (hotel search by destination, dates, rooms and guests; results;
hotel pages with rooms and rates; booking a room), in what REAL's v2 marrisuite script reads (see ``state``)."""

from pathlib import Path

from real_local.core import SiteSpec
from real_local.marrisuite.routes import ROUTES
from real_local.marrisuite.state import differences, seed

SPEC = SiteSpec(name="marrisuite", seed=seed, differences=differences, routes=ROUTES,
                static_dir=str(Path(__file__).parent / "static"))

__all__ = ["SPEC"]
