"""Chromium discovery, the shared pool, and recovery from a browser that died."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from halo.env import actions as A
from halo.env.browser import BrowserPool, find_chromium
from halo.errors import BrowserError
from halo.tasks.types import page_task


def test_halo_chromium_must_be_executable(monkeypatch, tmp_path):
    monkeypatch.setenv("HALO_CHROMIUM", str(tmp_path / "nope"))
    with pytest.raises(BrowserError, match="HALO_CHROMIUM=.*not an executable"):
        find_chromium()


def test_halo_chromium_wins(monkeypatch, tmp_path):
    exe = tmp_path / "my-chromium"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    monkeypatch.setenv("HALO_CHROMIUM", str(exe))
    assert find_chromium() == (str(exe), f"HALO_CHROMIUM={exe}")


def test_no_chromium_says_how_to_get_one(monkeypatch, tmp_path):
    monkeypatch.delenv("HALO_CHROMIUM", raising=False)
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path))  # empty: no Playwright browsers
    monkeypatch.setattr("halo.env.browser.DEBIAN_SHELL", str(tmp_path / "missing-shell"))
    monkeypatch.setattr("halo.env.browser.DEBIAN_FULL", str(tmp_path / "missing-full"))
    with pytest.raises(BrowserError, match="make browser"):
        find_chromium()


async def test_pool_refuses_use_before_start():
    with pytest.raises(BrowserError, match="not started"):
        await BrowserPool().new_context()


@pytest.mark.browser
async def test_bad_executable_is_a_clear_error(tmp_path):
    exe = tmp_path / "fake-chromium"
    exe.write_text("#!/bin/sh\nexit 1\n")
    exe.chmod(0o755)
    with pytest.raises(BrowserError, match="failed to launch"):
        async with BrowserPool(executable=str(exe)):
            pass


@pytest.mark.browser
async def test_browser_crash_ends_episode_and_next_reset_relaunches(pages_url):
    """Kill the real Chromium mid-episode: the step reports an errored episode, the next reset works."""
    from halo.env.env import BrowserEnv

    async with BrowserPool() as pool:
        env = BrowserEnv(pool)
        task = page_task(f"{pages_url}/actions.html")
        obs = await env.reset(task)
        pids = pool.browser_pids()
        assert pids, "the pool's Chromium processes were not found"
        os.kill(pids[0], signal.SIGKILL)
        for _ in range(100):  # the driver notices the dead browser
            if not pool.alive:
                break
            await asyncio.sleep(0.05)
        r = await env.step(A.Click(next(e.id for e in obs.elements.values() if e.name == "Count")))
        assert r.done and r.info.errored and not r.truncated and r.reward == 0.0
        assert r.info.error and r.observation.last_action_error == r.info.error
        again = await env.step(A.Wait(0))
        assert again.done
        obs = await env.reset(task)  # relaunches the browser
        assert pool.launches == 2 and pool.browser_pids() and pool.browser_pids()[0] != pids[0]
        r = await env.step(A.Click(next(e.id for e in obs.elements.values() if e.name == "Count")))
        assert r.info.error is None and not r.done and "clicks=1" in r.observation.axtree
        await env.close()


@pytest.mark.browser
async def test_page_crash_is_an_errored_episode(pages_url, pool):
    from playwright.async_api import Error as PlaywrightError

    from halo.env.env import BrowserEnv

    env = BrowserEnv(pool)
    await env.reset(page_task(f"{pages_url}/page2.html"))
    r = await env.step(A.Goto("chrome://crash"))  # blocked by the executor: only http(s)
    assert "only http(s)" in r.info.error and not r.done
    # crash the renderer for real through CDP
    cdp = await env.page.context.new_cdp_session(env.page)
    with pytest.raises((asyncio.TimeoutError, PlaywrightError)):  # the crashed target never answers
        await asyncio.wait_for(cdp.send("Page.crash"), timeout=1)
    r = await env.step(A.Wait(0))
    assert r.done and r.info.errored
    obs = await env.reset(page_task(f"{pages_url}/page2.html"))
    assert '] heading "Second page"' in obs.axtree
    await env.close()
