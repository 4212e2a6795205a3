"""One registry of tasks: REAL's tasks as shipped in agisdk, on REAL's remote sites or on REAL-local.

A task id is agisdk's canonical id (``v2.gomail-1``). Where it runs is a switch, not a different id:
``sites="remote"`` uses the task's own REAL url, ``sites="local"`` the REAL-local server
(``halo sites``; see ``real_local.site_url``). Grading always goes through agisdk's ``WebCloneEvaluator``,
the same path as remote REAL, each evaluation in its own temp directory.
"""

from __future__ import annotations

import functools
import tempfile
import threading
from typing import Any

from halo.errors import ConfigError, TaskNotFoundError
from halo.tasks.types import DEFAULT_VERSION, LOCAL_SITES, SitesMode, Task, default_local_urls


def _agisdk_task_config():
    """Import agisdk's task tables lazily (it imports Playwright and friends) and quiet its logger."""
    from agisdk.REAL.browsergym.webclones import task_config
    from agisdk.REAL.logging import logger as agisdk_log

    if agisdk_log.console is not None:  # it prints each evaluated state in full; keep our console readable
        agisdk_log.console.quiet = True
    return task_config


@functools.lru_cache(maxsize=None)
def _load(task_id: str) -> Any:
    tc = _agisdk_task_config()
    if task_id not in tc.TASK_INDEX:
        raise TaskNotFoundError(
            f"unknown task {task_id!r}; list them with `halo tasks` (ids look like v2.gomail-1)")
    version, name = tc.TASK_INDEX[task_id]
    return tc.TaskConfig(name, version)


def canonical_id(task_ref: str, version: str = DEFAULT_VERSION) -> str:
    """``gomail-1`` -> ``v2.gomail-1``; ``v1.x`` and ``v2.x`` pass through. agisdk's own default is v1: never ours."""
    task_ref = task_ref.strip()
    head = task_ref.split(".", 1)[0]
    if "." in task_ref and head.startswith("v") and head[1:].isdigit():
        return task_ref
    return f"{version}.{task_ref}"


def all_task_ids(version: str | None = DEFAULT_VERSION) -> list[str]:
    tc = _agisdk_task_config()
    ids = sorted(tc.TASK_INDEX)
    return [t for t in ids if version is None or t.startswith(version + ".")]


def get_task(task_ref: str, *, sites: SitesMode = "remote", site_urls: dict[str, str] | None = None) -> Task:
    """Resolve a task. With ``sites="local"`` the site must be one of REAL-local's and ``site_urls`` (or the
    default REAL-local ports) gives its base url."""
    task_id = canonical_id(task_ref)
    cfg = _load(task_id)
    t = cfg.task
    site = cfg.task_name.rsplit("-", 1)[0]
    remote = t.start_url.rstrip("/")
    local = sites == "local"
    if sites not in ("remote", "local"):
        raise ConfigError(f"sites must be 'remote' or 'local', got {sites!r}")
    if local:
        if site not in LOCAL_SITES:
            raise ConfigError(f"{task_id}: REAL-local serves {', '.join(LOCAL_SITES)}, not {site}; use --sites remote")
        base = (site_urls or default_local_urls())[site].rstrip("/")
    else:
        base = remote
    return Task(id=task_id, version=cfg.version, name=cfg.task_name, site=site, goal=t.goal, base_url=base,
                remote_url=remote, local=local, points=float(t.points or 1.0),
                eval_scripts=tuple(e.script for e in t.evals if getattr(e, "script", "")))


def list_tasks(version: str | None = DEFAULT_VERSION, site: str | None = None, *, sites: SitesMode = "remote",
               site_urls: dict[str, str] | None = None) -> list[Task]:
    out = []
    for tid in all_task_ids(version):
        t_site = tid.split(".", 1)[1].rsplit("-", 1)[0]
        if site and t_site != site:
            continue
        if sites == "local" and t_site not in LOCAL_SITES:
            continue
        out.append(get_task(tid, sites=sites, site_urls=site_urls))
    return sorted(out, key=lambda t: (t.site, t.number))


_grade_lock = threading.Lock()


def grade(task: Task, finish_state: dict[str, Any], response: str = "Done"):
    """Grade a final state with agisdk's ``WebCloneEvaluator`` (REAL's own scripts). Blocking; call in a thread.

    agisdk writes the state to ``tempfile.mkstemp()`` in the default temp dir, and some scripts read every sibling
    file there, so each evaluation gets a fresh directory (``tempfile.tempdir`` is process-global: hence the lock).
    """
    if task.family:
        from halo.tasks.families import grade_family_task

        return grade_family_task(task, finish_state, response)
    from agisdk.REAL.browsergym.webclones.evaluate import WebCloneEvaluator

    from halo.tasks.types import Grade

    cfg = _load(task.id)
    evaluator = WebCloneEvaluator(task_config=cfg)
    with _grade_lock, tempfile.TemporaryDirectory(prefix="halo-grade-") as d:
        saved, tempfile.tempdir = tempfile.tempdir, d
        try:
            reward, _done, _msg, info = evaluator.evaluate(finish_state, response or "Done")
        finally:
            tempfile.tempdir = saved
    details = [r[1] if isinstance(r[1], dict) else {"info": r[1]} for r in info.get("results", [])]
    for r, d in zip(info.get("results", []), details):
        d["passed"] = bool(r[0])
    return Grade(success=bool(details) and all(d["passed"] for d in details), reward=float(reward),
                 details=details, finish_state=finish_state)
