"""Fixtures of the task-family tests: REAL-local with the families' sites, one Chromium for the session, and
``run_instance`` that plays an oracle on a family instance through BrowserEnv (graded by the family at
send_msg_to_user). The Driver and element finders are the site tests' own (``tests/sites/site_helpers.py``)."""

from __future__ import annotations

import asyncio
import importlib
import logging
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

sys.path.insert(0, str(Path(__file__).parent.parent / "sites"))  # site_helpers: Driver, find_element
log = logging.getLogger(__name__)


def _importable(names: tuple[str, ...]) -> tuple[str, ...]:
    """The sites that import (a site being rewritten elsewhere must not break these tests: its families skip)."""
    ok = []
    for n in names:
        try:
            importlib.import_module(f"real_local.{n}").SPEC  # noqa: B018
        except Exception as e:  # noqa: BLE001 - reported, and that site's family tests skip
            log.warning("REAL-local site %s does not import: %s", n, e)
        else:
            ok.append(n)
    return tuple(ok)


@pytest.fixture(scope="session")
def family_site_urls() -> Any:
    from real_local.server import SitesServer

    server = SitesServer(_importable(("gomail", "gocalendar", "omnizon", "zilloft", "dashdish", "udriver",
                                      "opendining", "staynb", "marrisuite", "topwork", "networkin")))
    server.start()
    yield dict(server.urls)
    server.stop()


@pytest_asyncio.fixture(scope="session")
async def families_pool():
    from halo.env.browser import BrowserError, BrowserPool, find_chromium

    try:
        find_chromium()
    except BrowserError:
        pytest.skip("no Chromium (run `make browser` or set HALO_CHROMIUM)")
    async with BrowserPool() as p:
        yield p


@pytest_asyncio.fixture
async def run_instance(families_pool, family_site_urls):
    """``await run_instance(instance, oracle)``: reset a BrowserEnv on the instance, run ``oracle(driver, params)``
    (None: a no-op episode), end with send_msg_to_user; returns (final StepResult, driver)."""
    from site_helpers import Driver

    from halo.env.env import BrowserEnv
    from halo.tasks.families import family_task, get_family

    envs: list[Any] = []

    async def run(inst: Any, oracle: Any = None) -> tuple[Any, Driver]:
        site = get_family(inst.family).site
        if site not in family_site_urls:
            pytest.skip(f"REAL-local site {site} does not import")
        env = BrowserEnv(families_pool, max_steps=30, end_on_success=False)  # graded at the message
        envs.append(env)
        d = Driver(env, await env.reset(family_task(inst, family_site_urls)))
        if oracle is not None:
            await oracle(d, inst.params)
        res = await d.finish("Done.")
        assert res.done and not res.info.errored, f"grading errored: {res.info.error}"
        assert res.info.grade is not None, "a family instance must be graded at send_msg_to_user"
        return res, d

    yield run
    await asyncio.gather(*(e.close() for e in envs))

