"""Checks at the door: every task, directory and service a job needs, checked before any model, browser or site
starts, each failing in seconds with what is wrong and the fix.

- ``resolve_task_refs``: task ids, site names and family specs resolved (``--tasks gomial`` fails here);
- ``check_runs_dir``: the runs directory is writable;
- ``check_policy_server`` (an OpenAI-compatible / vLLM mode) and ``check_sites_reachable`` (``--sites remote``),
  both run by ``preflight``.

Settings are checked where they are declared (``halo.config.settings``), when a job builds them.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable, Sequence
from urllib.parse import urlsplit

from halo.errors import ConfigError, PolicyError, SiteError

PREFLIGHT_TIMEOUT_S = 5.0


# ---------------------------------------------------------------- tasks, runs dir
def resolve_task_refs(refs: Sequence[str], sites: str, goal: str | None = None) -> list[Any]:
    """Resolve ``refs`` as the job will (REAL-local at its default URLs; the job serves them on its own ports)."""
    from halo.tasks.resolve import resolve_tasks

    if sites not in ("local", "remote"):
        raise ConfigError(f"--sites must be 'local' or 'remote', got {sites!r}")
    return resolve_tasks(list(refs), sites, None, goal=goal)


def check_runs_dir(path: str | os.PathLike) -> Path:
    p = Path(path)
    try:
        p.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=p, prefix=".halo-write-check-"):
            pass
    except OSError as e:
        raise ConfigError(f"runs directory {p} is not writable ({e.strerror or e}); pass --runs-dir a directory "
                          f"you can write to") from None
    return p


# ---------------------------------------------------------------- preflights
async def check_policy_server(mode: Any) -> None:
    """An OpenAI-compatible mode's server answers ``GET /models`` (and serves the model, for vLLM) within seconds;
    ``PolicyError`` with the URL and the fix otherwise. In-process (``hf``) modes need nothing."""
    if getattr(mode, "backend", "hf") == "hf":
        return
    from halo.policy.modes import make_policy

    policy = make_policy(mode)
    try:
        await asyncio.wait_for(policy.check(), PREFLIGHT_TIMEOUT_S * 2 + 1)
    except TimeoutError:
        raise PolicyError(f"the policy server at {mode.server.base_url} did not answer GET /models within "
                          f"{PREFLIGHT_TIMEOUT_S * 2:.0f} s; check it (`halo smoke --policy-url "
                          f"{mode.server.base_url}`) or start one with `halo serve-policy --mode {mode.name}`") from None
    finally:
        await policy.aclose()


def _site_origins(tasks: Iterable[Any]) -> list[str]:
    out: list[str] = []
    for t in tasks:
        url = getattr(t, "base_url", "")
        if (getattr(t, "local", False) and getattr(t, "protocol", True)) or not url.startswith(("http://", "https://")):
            continue  # REAL-local: the job serves it itself
        p = urlsplit(url)
        origin = f"{p.scheme}://{p.netloc}"
        if origin not in out:
            out.append(origin)
    return out


async def check_sites_reachable(tasks: Iterable[Any], timeout: float = PREFLIGHT_TIMEOUT_S) -> None:
    """Every remote site (and http page) the tasks use answers within ``timeout`` (any HTTP status: the site is
    up); ``SiteError`` naming the unreachable URLs and the fix otherwise. ``file://`` pages must exist."""
    import httpx

    tasks = list(tasks)
    for t in tasks:
        url = getattr(t, "base_url", "")
        if url.startswith("file://") and not Path(urlsplit(url).path).exists():
            raise ConfigError(f"page {url} does not exist")
    origins = _site_origins(tasks)
    if not origins:
        return

    async def probe(client: httpx.AsyncClient, origin: str) -> str | None:
        try:
            await client.get(origin + "/", timeout=timeout)
            return None
        except httpx.HTTPError as e:
            return f"{origin} ({type(e).__name__}{': ' + str(e) if str(e) else ''})"

    async with httpx.AsyncClient(follow_redirects=False) as client:
        bad = [b for b in await asyncio.gather(*(probe(client, o) for o in origins)) if b]
    if bad:
        raise SiteError(f"cannot reach {len(bad)} of the {len(origins)} sites these tasks use within {timeout:.0f} s: "
                        f"{'; '.join(bad[:4])}. REAL's remote sites need internet access: check the network or "
                        f"proxy, or run the same task ids on REAL-local with --sites local")


async def preflight(mode: Any, tasks: Sequence[Any]) -> None:
    """Every external service a job needs, concurrently: the policy server and remote sites."""
    for r in await asyncio.gather(check_policy_server(mode), check_sites_reachable(tasks), return_exceptions=True):
        if isinstance(r, BaseException):
            raise r
