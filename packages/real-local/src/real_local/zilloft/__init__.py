"""Zilloft: REAL-local's clone of Zillow (home search with filters, listing pages, request a tour, contact an
agent, saved homes), with the state layout and message formats REAL's v2 zilloft scripts read (see ``state``)."""

from pathlib import Path

from real_local.core import SiteSpec
from real_local.zilloft.routes import ROUTES
from real_local.zilloft.state import differences, on_config, seed

SPEC = SiteSpec(name="zilloft", seed=seed, differences=differences, routes=ROUTES,
                static_dir=str(Path(__file__).parent / "static"), on_config=on_config)

__all__ = ["SPEC"]
