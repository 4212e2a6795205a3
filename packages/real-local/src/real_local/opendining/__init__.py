"""OpenDining: REAL-local's clone of OpenTable (San Francisco restaurants; search by cuisine, neighborhood, rating,
date, time and party size; restaurant pages with reviews and time slots; the reservation flow with contact details
and occasions; "notify me" for a fully booked slot), in the state layout REAL's v2 opendining scripts read (see
``state`` and ``restaurants``)."""

from pathlib import Path

from real_local.core import SiteSpec
from real_local.opendining.routes import ROUTES
from real_local.opendining.state import differences, seed

SPEC = SiteSpec(name="opendining", seed=seed, differences=differences, routes=ROUTES,
                static_dir=str(Path(__file__).parent / "static"))

__all__ = ["SPEC"]
