"""GoCalendar: REAL-local's clone of Google Calendar (REAL's "gocalendar"), graded by agisdk's ``eval_gocalendar_*``."""

from __future__ import annotations

from pathlib import Path

from halo.sites.core import SiteSpec
from halo.sites.gocalendar.planner import differences
from halo.sites.gocalendar.routes import routes
from halo.sites.gocalendar.seed import seed

SPEC = SiteSpec(name="gocalendar", seed=seed, differences=differences, routes=routes,
                static_dir=str(Path(__file__).parent / "static"))

__all__ = ["SPEC"]
