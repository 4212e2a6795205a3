"""DashDish: REAL-local's clone of DoorDash (stores and menus, search and cuisine filters, item sizes, a
one-store cart with quantities, delivery or pickup, express, tip, fees and totals, orders), in the state layout
REAL's v2 dashdish scripts read (see ``state`` and ``menu``)."""

from pathlib import Path

from real_local.core import SiteSpec
from real_local.dashdish.routes import ROUTES
from real_local.dashdish.state import differences, seed

SPEC = SiteSpec(name="dashdish", seed=seed, differences=differences, routes=ROUTES,
                static_dir=str(Path(__file__).parent / "static"))

__all__ = ["SPEC"]
