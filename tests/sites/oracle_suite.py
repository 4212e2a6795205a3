"""The tests every REAL-local site file shares, written once (a site's test file calls a factory and puts what it
returns in its globals, so pytest collects them there):

- ``browser_suite``: each REAL v2 task's scripted oracle through BrowserEnv in real Chromium ends with agisdk's own
  script printing SUCCESS, an episode that only answers ends with FAILURE, every v2 task of the site has an oracle,
  and two episodes at once in two browser contexts never see each other's state (``check`` reads both finish states);
- ``http_suite``: over real HTTP, each recipe succeeds after a fresh session fails, each near miss fails, each loose
  script accepts what the task's words do not and each strict one rejects what they allow (pinned, so a change in
  agisdk shows up).

Usage (in ``tests/sites/test_<site>_oracles.py``)::

    globals().update(browser_suite("dashdish", ORACLES, ("dashdish-26", "dashdish-8"), check))
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest
import pytest_asyncio
from _shop_helpers import HttpEpisode, run_oracle

from halo.env import actions as A
from halo.tasks.real import get_task, list_tasks


def local_urls(site_urls: dict[str, str], site: str) -> dict[str, str]:
    if site not in site_urls:
        pytest.skip(f"REAL-local {site} does not import")
    return site_urls


def browser_suite(site: str, oracles: Mapping[str, Any], pair: Sequence[str | tuple[str, Any]],
                  check: Callable[[list[dict]], None], max_steps: int = 40) -> dict[str, Any]:
    """The browser tests of one site; ``pair``: the two concurrent episodes, each a task id (run with its oracle) or
    ``(task id, steps)``; ``check`` gets their finish states, in ``pair``'s order, and asserts each holds only its
    own episode's work."""
    runs = [(p, oracles[p]) if isinstance(p, str) else p for p in pair]

    @pytest_asyncio.fixture
    async def env(sites_pool):
        from halo.env.env import BrowserEnv

        e = BrowserEnv(sites_pool, max_steps=max_steps)
        yield e
        await e.close()

    def test_every_v2_task_has_an_oracle():
        assert sorted(t.name for t in list_tasks("v2", site=site)) == sorted(oracles)

    @pytest.mark.parametrize("name", sorted(oracles))
    async def test_oracle_succeeds(env, site_urls, name):
        task = get_task(name, sites="local", site_urls=local_urls(site_urls, site))
        result = await run_oracle(env, task, oracles[name])
        grade = result.info.grade
        assert grade is not None and grade.success and result.reward == 1.0, grade and grade.details

    @pytest.mark.parametrize("name", sorted(oracles))
    async def test_noop_fails(env, site_urls, name):
        await env.reset(get_task(name, sites="local", site_urls=local_urls(site_urls, site)))
        result = await env.step(A.SendMsgToUser("Done."))
        assert result.done and result.info.grade is not None
        assert not result.info.grade.success and result.reward == 0.0

    async def test_concurrent_browser_sessions_never_share_state(sites_pool, site_urls):
        """Two episodes in two browser contexts at once, on one server: each one's work lands in its own session."""
        from halo.env.env import BrowserEnv

        urls = local_urls(site_urls, site)
        envs = [BrowserEnv(sites_pool, max_steps=max_steps) for _ in runs]
        try:
            results = await asyncio.gather(*(run_oracle(e, get_task(n, sites="local", site_urls=urls), steps)
                                             for e, (n, steps) in zip(envs, runs)))
        finally:
            await asyncio.gather(*(e.close() for e in envs))
        for r in results:
            assert r.info.grade.success, r.info.grade.details
        check([r.info.grade.finish_state for r in results])

    return {"env": env, "test_every_v2_task_has_an_oracle": test_every_v2_task_has_an_oracle,
            "test_oracle_succeeds": test_oracle_succeeds, "test_noop_fails": test_noop_fails,
            "test_concurrent_browser_sessions_never_share_state": test_concurrent_browser_sessions_never_share_state}


Episode = Callable[[HttpEpisode], Any]


def http_suite(site: str, recipes: Mapping[str, Episode],
               near_misses: Mapping[str, Episode] | Sequence[tuple[str, Episode]],
               loose: Mapping[str, Episode] = {}, strict: Mapping[str, Episode] = {},
               load_home: bool = False) -> dict[str, Any]:
    """The HTTP grading tests of one site. ``near_misses``: ``{task: episode}`` or ``[(task, episode)]``;
    ``loose``/``strict`` keys are task ids, optionally ``task/variant``; ``load_home``: the fresh session loads
    ``/`` before the no-op is graded (sites that create their state on the first request)."""
    misses = list(near_misses.items()) if isinstance(near_misses, Mapping) else list(near_misses)

    @pytest.fixture
    def urls(site_urls):
        return local_urls(site_urls, site)

    @pytest.mark.parametrize("name", sorted(recipes))
    def test_recipe_succeeds_and_noop_fails(urls, name):
        with HttpEpisode(urls[site], name) as ep:
            if load_home:
                assert ep.client.get("/").status_code == 200
            assert not ep.grade(urls).success, "a fresh session must fail"
            recipes[name](ep)
            g = ep.grade(urls)
            assert g.success, g.details

    @pytest.mark.parametrize("i", range(len(misses)))
    def test_near_misses_fail(urls, i):
        name, miss = misses[i]
        with HttpEpisode(urls[site], name) as ep:
            miss(ep)
            assert not ep.grade(urls).success

    @pytest.mark.parametrize("name", sorted(loose))
    def test_loose_scripts_accept_what_the_task_does_not(urls, name):
        with HttpEpisode(urls[site], name.split("/")[0]) as ep:
            loose[name](ep)
            assert ep.grade(urls).success

    @pytest.mark.parametrize("name", sorted(strict))
    def test_strict_scripts_reject_what_the_task_allows(urls, name):
        with HttpEpisode(urls[site], name.split("/")[0]) as ep:
            strict[name](ep)
            assert not ep.grade(urls).success

    out = {"urls": urls, "test_recipe_succeeds_and_noop_fails": test_recipe_succeeds_and_noop_fails,
           "test_near_misses_fail": test_near_misses_fail}
    if loose:
        out["test_loose_scripts_accept_what_the_task_does_not"] = test_loose_scripts_accept_what_the_task_does_not
    if strict:
        out["test_strict_scripts_reject_what_the_task_allows"] = test_strict_scripts_reject_what_the_task_allows
    return out
