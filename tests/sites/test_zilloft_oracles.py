"""REAL v2 zilloft tasks on REAL-local in real Chromium through BrowserEnv: each scripted oracle ends with
agisdk's own script printing SUCCESS; an episode that does nothing but answer ends with FAILURE."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio
from _shop_helpers import run_oracle
from oracles_zilloft import ORACLES

from halo.env import actions as A
from halo.tasks import get_task, list_tasks

pytestmark = pytest.mark.browser


@pytest.fixture
def urls(site_urls):
    if "zilloft" not in site_urls:
        pytest.skip("REAL-local zilloft does not import")
    return site_urls


@pytest_asyncio.fixture
async def env(sites_pool):
    from halo.env.env import BrowserEnv

    e = BrowserEnv(sites_pool, max_steps=40)
    yield e
    await e.close()


def test_every_v2_task_has_an_oracle():
    assert sorted(t.name for t in list_tasks("v2", site="zilloft")) == sorted(ORACLES)


@pytest.mark.parametrize("name", sorted(ORACLES))
async def test_oracle_succeeds(env, urls, name):
    task = get_task(name, sites="local", site_urls=urls)
    result = await run_oracle(env, task, ORACLES[name])
    grade = result.info.grade
    assert grade is not None and grade.success and result.reward == 1.0, grade and grade.details


@pytest.mark.parametrize("name", sorted(ORACLES))
async def test_noop_fails(env, urls, name):
    task = get_task(name, sites="local", site_urls=urls)
    await env.reset(task)
    result = await env.step(A.SendMsgToUser("Done."))
    assert result.done and result.info.grade is not None
    assert not result.info.grade.success and result.reward == 0.0


async def test_concurrent_browser_sessions_never_share_requests(sites_pool, urls):
    """A tour request and an agent contact in two browser contexts at once: neither shows up in the other."""
    from halo.env.env import BrowserEnv

    envs = [BrowserEnv(sites_pool, max_steps=40) for _ in range(2)]
    names = ["zilloft-2", "zilloft-6"]
    try:
        results = await asyncio.gather(*(run_oracle(e, get_task(n, sites="local", site_urls=urls), ORACLES[n])
                                         for e, n in zip(envs, names)))
        tours, contacts = [], []
        for r in results:
            assert r.info.grade.success, r.info.grade.details
            d = r.info.grade.finish_state["differences"]
            tours.append([x["homeId"] for x in d["requestTours"]["added"].values()])
            contacts.append([x["homeId"] for x in d["contactAgents"]["added"].values()])
        assert tours == [["90801"], []] and contacts == [[], ["95801"]]
    finally:
        await asyncio.gather(*(e.close() for e in envs))


async def test_oracle_runs_through_conftests_driver(run_episode):
    """The same oracle replayed by conftest's Driver (what the benches and other suites use)."""
    from _shop_helpers import as_driver_oracle

    oracle, message = as_driver_oracle(ORACLES["zilloft-6"])
    res, d = await run_episode("v2.zilloft-6", oracle, message)
    assert res.info.grade.success and d.steps == len(ORACLES["zilloft-6"])
