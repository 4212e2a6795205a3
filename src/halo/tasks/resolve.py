"""Task specs to tasks, the one way every job reads ``--tasks``, and REAL-local served for a run that needs it."""

from __future__ import annotations

import contextlib
from typing import Any, Sequence

from halo.errors import ConfigError
from halo.tasks.types import LOCAL_SITES, page_task


def resolve_tasks(refs: Sequence[str], sites: str = "local", site_urls: dict[str, str] | None = None,
                  goal: str | None = None) -> list[Any]:
    """Task ids (``v2.gomail-1`` or ``gomail-1``), site names (all their tasks), ``local`` (every REAL-local
    task), task-family specs (``gomail.open@train``, ``halo.tasks.families``; always on REAL-local) or page URLs (a
    plain page with ``goal``). A site name or ``local`` leaves out the tasks no final state can pass
    (``UNGRADABLE``: gocalendar-11, whose script is empty); named by id, such a task still runs."""
    from halo.tasks.families import is_family_spec, resolve_family_spec
    from halo.tasks.real import get_task, list_tasks

    out = []
    for i, ref in enumerate(r.strip() for r in refs if r.strip()):
        if is_family_spec(ref):
            if sites != "local":
                raise ConfigError(f"{ref}: task families run on REAL-local only; drop --sites remote")
            out += resolve_family_spec(ref, site_urls)
        elif ref.startswith(("http://", "https://", "file://")):
            out.append(page_task(ref, goal=goal or "Explore the page.", task_id=f"page-{i}"))
        elif ref == "local":
            out += [t for t in list_tasks(site=None, sites="local", site_urls=site_urls) if t.rewardable]
        elif ref in LOCAL_SITES or (sites == "remote" and "-" not in ref and "." not in ref):
            found = list_tasks(site=ref, sites=sites, site_urls=site_urls)
            if not found:
                raise ConfigError(f"no tasks on site {ref!r}; list them with `halo tasks`")
            out += [t for t in found if t.rewardable]
        else:
            out.append(get_task(ref, sites=sites, site_urls=site_urls))
    if not out:
        raise ConfigError("no tasks given; pass --tasks v2.gomail-1,omnizon or a page URL")
    return out


def needs_local_sites(refs: Sequence[str], sites: str) -> bool:
    return sites == "local" and any(not r.strip().startswith(("http://", "https://", "file://"))
                                    for r in refs if r.strip())


@contextlib.contextmanager
def local_sites(enabled: bool, site_urls: dict[str, str] | None = None):
    """REAL-local for the run: the given URLs, or all four sites served in this process on free ports."""
    if not enabled or site_urls:
        yield site_urls
        return
    from real_local.server import SitesServer

    with SitesServer() as urls:
        yield urls
