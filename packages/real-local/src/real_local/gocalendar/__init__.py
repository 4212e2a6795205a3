"""GoCalendar: REAL-local's clone of Google Calendar (REAL's "gocalendar"), graded by agisdk's ``eval_gocalendar_*``."""

from __future__ import annotations

from pathlib import Path

from real_local.core import SiteSpec
from real_local.gocalendar.planner import differences
from real_local.gocalendar.routes import routes
from real_local.gocalendar.seed import seed

SPEC = SiteSpec(name="gocalendar", seed=seed, differences=differences, routes=routes,
                static_dir=str(Path(__file__).parent / "static"))

__all__ = ["SPEC"]
