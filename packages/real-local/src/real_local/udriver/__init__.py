"""UDriver: REAL-local's clone of Uber (pickup and drop-off by address or place name, now or scheduled; ride
types and fares; booking with a payment method; the wallet: UDriver Credits, top-ups, default payment), in the
state layout REAL's v2 udriver scripts read (see ``state`` and ``places``)."""

from pathlib import Path

from real_local.core import SiteSpec
from real_local.udriver.routes import ROUTES
from real_local.udriver.state import differences, seed

SPEC = SiteSpec(name="udriver", seed=seed, differences=differences, routes=ROUTES,
                static_dir=str(Path(__file__).parent / "static"))

__all__ = ["SPEC"]
