"""Shared fixtures for REAL-local site tests: one REAL-local server with every site that imports, one browser pool
for the session, and a small driver that runs scripted (oracle) action sequences through BrowserEnv, finding
elements in each Observation by role and name as a careful agent would."""

from __future__ import annotations

import asyncio
import functools
import importlib
import logging
from typing import Any

import pytest
import pytest_asyncio
from site_helpers import Driver, centre_relative, find_element, find_elements, site_url  # noqa: F401

from halo.env.types import StepResult

log = logging.getLogger(__name__)


# ---------------------------------------------------------------- REAL-local server
def importable_sites() -> tuple[str, ...]:
    """REAL-local sites whose package imports (a site being written elsewhere must not break these tests)."""
    from real_local.ports import SITE_NAMES

    ok = []
    for name in SITE_NAMES:
        try:
            importlib.import_module(f"real_local.{name}").SPEC  # noqa: B018
            ok.append(name)
        except Exception as e:  # noqa: BLE001 - reported, and that site's tests skip
            log.warning("REAL-local site %s does not import: %s", name, e)
    return tuple(ok)


@pytest.fixture(scope="session")
def sites_server():
    from real_local.server import SitesServer

    server = SitesServer(importable_sites())
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def site_urls(sites_server) -> dict[str, str]:
    return dict(sites_server.urls)


# ---------------------------------------------------------------- browser
@functools.cache
def chromium_available() -> bool:
    from halo.env.browser import find_chromium
    from halo.errors import BrowserError

    try:
        find_chromium()
        return True
    except BrowserError:
        return False


@pytest_asyncio.fixture(scope="session")
async def sites_pool():
    """One Chromium for every browser test of the sites."""
    from halo.env.browser import BrowserPool

    if not chromium_available():
        pytest.skip("no Chromium (run `make browser` or set HALO_CHROMIUM)")
    async with BrowserPool() as p:
        yield p


@pytest_asyncio.fixture
async def run_episode(sites_pool, site_urls):
    """``await run_episode(task_id, oracle)``: reset a BrowserEnv on the local task, run ``oracle(driver)`` (None:
    a no-op episode), end with send_msg_to_user, return (final StepResult, driver). Envs close afterwards."""
    from halo.env.env import BrowserEnv
    from halo.tasks.real import get_task

    envs: list[Any] = []

    async def run(task_id: str, oracle: Any = None, message: str = "Done.") -> tuple[StepResult, Driver]:
        task = get_task(task_id, sites="local", site_urls=site_urls)
        if task.site not in site_urls:
            pytest.skip(f"REAL-local site {task.site} does not import")
        env = BrowserEnv(sites_pool, max_steps=60)
        envs.append(env)
        d = Driver(env, await env.reset(task))
        if oracle is not None:
            await oracle(d)
        res = await d.finish(message)
        assert res.done and not res.info.errored, f"grading errored: {res.info.error}"
        assert res.info.grade is not None, "a REAL-local task must be graded at send_msg_to_user"
        return res, d

    yield run
    await asyncio.gather(*(e.close() for e in envs))
