"""GoMail: REAL-local's clone of Gmail (REAL's "gomail" site), graded by agisdk's ``eval_gomail_*.py`` scripts."""

from __future__ import annotations

from pathlib import Path

from halo.sites.core import SiteSpec
from halo.sites.gomail.mailbox import differences
from halo.sites.gomail.routes import routes
from halo.sites.gomail.seed import seed

SPEC = SiteSpec(name="gomail", seed=seed, differences=differences, routes=routes,
                static_dir=str(Path(__file__).parent / "static"))

__all__ = ["SPEC"]
