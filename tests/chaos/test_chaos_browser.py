"""Chromium SIGKILLed at random moments, and sites that hang: every reset and step returns within its bound, with a
clear error or an errored episode and its reason, and the next episode works."""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
from chaos_helpers import chromium_processes, kill_one, killer

from halo.env import actions as A
from halo.env.env import BrowserEnv
from halo.errors import BrowserError, SiteError
from halo.policy.scripted import ScriptedPolicy
from halo.rl.health import error_reason
from halo.rl.rollout import run_episode
from halo.tasks.types import page_task

pytestmark = pytest.mark.browser


def _tree(pool) -> list[tuple[int, str]]:
    return chromium_processes(pool.browser_pids()[:1])


async def test_reset_after_the_zygote_was_killed_kills_the_tree_and_relaunches(chaos_pool, pages):
    """The hang of the issue: with Chromium's zygotes SIGKILLed, `new_page` never returned and reset froze forever.
    Now the call misses its deadline, the whole process tree is killed, the browser relaunched and reset retried.
    (An env that recycles its context needs no new page, so it is the fresh-context path that is tested here; the
    next test covers recycling envs.)"""
    pool = chaos_pool
    env = BrowserEnv(pool, reuse_context=False)
    task = page_task(f"{pages}/actions.html")
    await env.reset(task)
    # counted from here: under load the first new page of a cold browser can itself miss the chaos tests' short
    # deadline and be restarted (seen in CI: that restart is the fix working, not this test's subject)
    restarts, launches = pool.restarts, pool.launches
    before = _tree(pool)
    assert {k for _, k in before} >= {"main", "zygote"}
    assert len(pool.browser_pids()) == len(before) > 1  # browser_pids finds the descendants too
    assert kill_one(before, random.Random(0), "zygote") == "zygote"
    t0 = time.perf_counter()
    obs = await asyncio.wait_for(env.reset(task), 60)  # hung forever before the fix
    assert time.perf_counter() - t0 < 30
    assert "Count" in obs.axtree and pool.restarts == restarts + 1 and pool.launches == launches + 1
    old = {p for p, _ in before}
    assert not old & {p for p, _ in _tree(pool)}  # every process of the old browser is gone
    assert not any(p.is_running() and p.status() != "zombie" for p in map(_proc, old) if p)
    r = await env.step(A.Wait(0))
    assert not r.done and r.info.error is None
    await env.close()


async def test_a_recycling_env_keeps_working_after_the_zygote_was_killed(chaos_pool, pages):
    """A recycled context keeps its page and renderer, so its next reset works without the zygote; a fresh context
    (a new env) then finds the browser unable to start pages, and reset kills and relaunches it, after which the
    recycling env's next reset opens a fresh context on the new browser."""
    pool = chaos_pool
    env = BrowserEnv(pool)
    task = page_task(f"{pages}/actions.html")
    await env.reset(task)
    # counted after the first reset, which a cold browser under load may itself restart
    restarts, opened = pool.restarts, env.contexts_opened
    assert kill_one(_tree(pool), random.Random(1), "zygote") == "zygote"
    obs = await asyncio.wait_for(env.reset(task), 60)
    assert "Action test page" in obs.axtree and env.contexts_opened == opened
    other = BrowserEnv(pool)
    obs = await asyncio.wait_for(other.reset(task), 60)
    assert "Action test page" in obs.axtree and pool.restarts == restarts + 1
    obs = await asyncio.wait_for(env.reset(task), 60)  # its context died with the old browser: a fresh one
    assert "Action test page" in obs.axtree and env.contexts_opened == opened + 1
    r = await env.step(A.Wait(0))
    assert not r.done and r.info.error is None
    await asyncio.gather(env.close(), other.close())


def _proc(pid):
    import psutil

    try:
        return psutil.Process(pid)
    except psutil.Error:
        return None


async def test_episodes_survive_random_kills(chaos_pool, pages):
    """Two concurrent envs run episodes while random Chromium processes (main, zygote, GPU, renderer, utility) are
    SIGKILLed: every episode ends within its bound, broken ones are errored with a browser reason, none hangs."""
    pool, rng = chaos_pool, random.Random(7)
    envs = [BrowserEnv(pool, max_steps=6, episode_timeout_s=60) for _ in range(2)]
    policy = ScriptedPolicy([A.LeftClick(x=100, y=100), A.Scroll(pixels=-200), A.Wait(time=0.3)])
    task = page_task(f"{pages}/actions.html")
    killed: list[str] = []
    episodes = []

    async def worker(env):
        for _ in range(4):
            t0 = time.perf_counter()
            ep = await run_episode(env, policy, task)
            assert time.perf_counter() - t0 < 65, ep.error
            episodes.append(ep)

    kill = asyncio.create_task(killer(pool, rng, 4, (0.5, 2.5), killed))
    await asyncio.wait_for(asyncio.gather(*(worker(e) for e in envs)), 300)
    await kill
    assert len(killed) == 4 and len(episodes) == 8
    for ep in episodes:
        if ep.errored:
            assert error_reason(ep.error) in ("browser", "step deadline", "site"), ep.error
    assert any(not ep.errored for ep in episodes)
    obs = await envs[0].reset(task)  # and the browser works after it all
    assert "Count" in obs.axtree
    for e in envs:
        await e.close()


async def test_eval_under_kills_loses_no_episode_or_metrics(chaos_pool, pages, tmp_path):
    from halo.jobs.eval import EvalConfig, run_eval
    from halo.runtime.runs import RunDir

    pool, rng = chaos_pool, random.Random(3)
    run = RunDir(tmp_path, "eval")
    tasks = [page_task(f"{pages}/actions.html", task_id="actions"), page_task(f"{pages}/page2.html", task_id="p2")]
    policy = ScriptedPolicy([A.Scroll(pixels=-100), A.Wait(time=0.3)])
    cfg = EvalConfig(episodes=3, parallel=2, max_steps=4, episode_timeout_s=60, max_error_share=1.0)
    killed: list[str] = []
    t0 = time.perf_counter()
    kill = asyncio.create_task(killer(pool, rng, 3, (0.5, 2.0), killed))
    import halo.env.browser as B

    real = B.BrowserPool
    try:
        B.BrowserPool = lambda headless=True: _Borrowed(pool)  # run_eval's pool is the one being killed
        result = await asyncio.wait_for(run_eval(policy, tasks, cfg, run), 300)
    finally:
        B.BrowserPool = real
    await kill
    assert time.perf_counter() - t0 < 300 and len(killed) == 3
    per = result.tasks.values()
    assert sum(r.episodes + r.errored for r in per) == 6  # every episode accounted for
    assert len(list((tmp_path / "eval" / "episodes").glob("*.jsonl"))) == 6
    (m,) = [json.loads(x) for x in (tmp_path / "eval" / "metrics.jsonl").read_text().splitlines()]
    assert m["errored"] == sum(r.errored for r in per) and sum(m["errors"].values()) == m["errored"]


class _Borrowed:
    """An already started pool, entered as ``async with BrowserPool():`` and not closed on exit."""

    def __init__(self, pool):
        self.pool = pool

    async def __aenter__(self):
        return self.pool

    async def __aexit__(self, *exc):
        return None


async def test_a_page_that_never_loads_is_a_site_error_within_the_navigation_deadline(chaos_pool, chaos_site):
    env = BrowserEnv(chaos_pool, nav_timeout_ms=2000)
    t0 = time.perf_counter()
    with pytest.raises(SiteError, match="is the site running"):
        await env.reset(page_task(f"{chaos_site.url}/hang/page.html"))
    assert time.perf_counter() - t0 < 15 and chaos_site.hung >= 1
    chaos_site.hang_paths = {"/config"}  # the site hangs on REAL's setup
    t0 = time.perf_counter()
    with pytest.raises(SiteError, match="/config"):
        await env.reset(chaos_site.task())
    assert time.perf_counter() - t0 < 15
    chaos_site.hang_paths = set()
    obs = await env.reset(chaos_site.task())  # the same env and browser go on
    assert "Chaos mail" in obs.axtree
    await env.close()


async def test_a_renderer_killed_during_a_page_load_is_a_browser_error_not_the_sites(chaos_pool, chaos_site):
    """Before: the page load failed with net::ERR_ABORTED and the reset said "is the site running?" (a 'site'
    error, with the site's advice). Now the crashed renderer is named, counted as 'browser', with its advice."""
    import os
    import signal

    from halo.rl.health import ADVICE

    env = BrowserEnv(chaos_pool, nav_timeout_ms=8000)

    async def kill_the_renderer() -> None:
        while not chaos_site.hung:  # the page's request is held by the site: the load is under way
            await asyncio.sleep(0.02)
        for pid, kind in _tree(chaos_pool):
            if kind == "renderer":
                os.kill(pid, signal.SIGKILL)

    killing = asyncio.create_task(kill_the_renderer())
    t0 = time.perf_counter()
    with pytest.raises(BrowserError) as e:
        await env.reset(page_task(f"{chaos_site.url}/hang/page.html"))
    await killing
    text = f"{type(e.value).__name__}: {e.value}"
    assert "renderer crashed while loading" in text and "is the site running" not in text, text
    assert time.perf_counter() - t0 < 8 and error_reason(text) == "browser"
    assert "--parallel" in ADVICE["browser"].format(fewer="--parallel")
    chaos_site.hang_paths = set()
    obs = await env.reset(chaos_site.task())  # the same env and browser go on
    assert "Chaos mail" in obs.axtree
    await env.close()


async def test_a_finish_that_never_answers_errors_the_episode_with_a_site_reason(chaos_pool, chaos_site):
    env = BrowserEnv(chaos_pool, nav_timeout_ms=2000, max_steps=5)

    def script(obs):
        if obs.step == 0:
            chaos_site.hang_paths = {"/finish"}  # reset has read /finish; from now on it never answers
            return A.Scroll(pixels=-100)
        return A.SendMsgToUser(text="done")  # terminal: the env reads /finish to grade

    t0 = time.perf_counter()
    ep = await run_episode(env, ScriptedPolicy(script), chaos_site.task())
    assert time.perf_counter() - t0 < 20
    assert ep.errored and error_reason(ep.error) == "site" and "/finish" in ep.error, ep.error
    assert chaos_site.hung >= 1 and len(ep.steps) == 2
    await env.close()
