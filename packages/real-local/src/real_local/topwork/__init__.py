"""TopWork: REAL-local's clone of Upwork (talent search, freelancer profiles, saving talent, messages, invitations
to jobs, offers to hire and rehire, job posts created and removed), in what REAL's v2 topwork scripts read (see
``state``)."""

from pathlib import Path

from real_local.core import SiteSpec
from real_local.topwork.routes import ROUTES
from real_local.topwork.state import differences, seed

SPEC = SiteSpec(name="topwork", seed=seed, differences=differences, routes=ROUTES,
                static_dir=str(Path(__file__).parent / "static"))

__all__ = ["SPEC"]
