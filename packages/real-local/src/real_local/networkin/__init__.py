"""NetworkIn: REAL-local's clone of LinkedIn (a feed of posts to like, comment on and send, a post composer, people
and company search, profiles with Connect and a note, My Network's invitations and suggestions, company pages to
follow, events to attend, messaging), in what REAL's v2 networkin scripts read (see ``state``)."""

from pathlib import Path

from real_local.core import SiteSpec
from real_local.networkin.routes import ROUTES
from real_local.networkin.state import differences, finish_extra, seed

SPEC = SiteSpec(name="networkin", seed=seed, differences=differences, routes=ROUTES,
                static_dir=str(Path(__file__).parent / "static"), finish_extra=finish_extra)

__all__ = ["SPEC"]
