"""GoMail: REAL-local's clone of Gmail (REAL's "gomail" site), graded by agisdk's ``eval_gomail_*.py`` scripts."""

from __future__ import annotations

from pathlib import Path

from real_local.core import SiteSpec
from real_local.gomail.mailbox import differences
from real_local.gomail.routes import routes
from real_local.gomail.seed import seed

SPEC = SiteSpec(name="gomail", seed=seed, differences=differences, routes=routes,
                static_dir=str(Path(__file__).parent / "static"))

__all__ = ["SPEC"]
