"""agisdk's own env on REAL-local through one switch (``real_local.hosted.route_hosted``): REAL's hosted origins are
answered by REAL-local inside the browser, the page keeps its hosted URL, and agisdk grades as it grades the hosted
sites (an oracle SUCCESS, a no-op FAILURE)."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import sys
from pathlib import Path

import pytest

from real_local.hosted import HostedProxy, hosted_site, route_hosted

ROOT = Path(__file__).resolve().parents[2]
GOMAIL = "https://real-gomail-1glk4rtaf-real-sites.vercel.app"


def test_hosted_origins_name_their_site():
    assert hosted_site(GOMAIL + "/finish") == "gomail"
    assert hosted_site("https://real-opendining.vercel.app") == "opendining"
    assert hosted_site("https://amazon-omnizon-z1-rea-lr9f-agi7-xw2-pq6s-git-b7a192-real-sites.vercel.app/") == "omnizon"
    assert hosted_site("real-udriver-3ufk0q1v4-real-sites.vercel.app:443") == "udriver"
    assert hosted_site("https://example.com/") is None and hosted_site("https://vercel.app.evil.com/") is None


def test_every_v2_task_url_is_a_hosted_origin_of_its_site():
    """agisdk's own task list: each v2 task's start URL maps to the site its id names."""
    from halo.tasks.real import _load, all_task_ids

    ids = all_task_ids("v2")
    assert len(ids) >= 120
    for tid in ids:
        url = _load(tid).get_start_url()
        assert hosted_site(url) == tid.split(".", 1)[1].rsplit("-", 1)[0], (tid, url)


def test_the_proxy_refuses_every_other_host(site_urls):
    proxy = HostedProxy(site_urls).start()
    try:
        with socket.create_connection(("127.0.0.1", proxy.port), timeout=5) as s:
            s.sendall(b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
            assert s.recv(64).startswith(b"HTTP/1.1 403")
        with socket.create_connection(("127.0.0.1", proxy.port), timeout=5) as s:
            s.sendall(b"GET http://real-gomail-x.vercel.app/ HTTP/1.1\r\nHost: real-gomail-x.vercel.app\r\n\r\n")
            assert s.recv(64).startswith(b"HTTP/1.1 403")  # plain-HTTP proxying is not served either
        assert proxy.refused == 2 and proxy.served == 0
    finally:
        proxy.stop()


@pytest.mark.browser
async def test_a_browser_reaches_real_local_at_the_hosted_url(site_urls):
    """Playwright's async API, as any harness would use it: /config then /finish at the hosted origin, served by
    REAL-local (the task's config comes back), the URL unchanged; the switch is undone after the block."""
    from playwright.async_api import async_playwright

    from halo.env.browser import find_chromium

    exe, _ = find_chromium()
    with route_hosted(site_urls) as proxy:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=exe, headless=True)
            ctx = await browser.new_context()
            page = await ctx.new_page()
            await page.goto(GOMAIL + "//config?run_id=0&task_id=v2.gomail-1&latency=0")  # agisdk's doubled slash
            await page.goto(GOMAIL + "/finish")
            state = json.loads(re.search(r"<pre>(.*)</pre>", await page.content(), re.DOTALL).group(1))
            assert page.url == GOMAIL + "/finish" and state["config"]["task_id"] == "v2.gomail-1"
            assert proxy.served >= 1
            with pytest.raises(Exception):
                await page.goto("https://example.com/", timeout=5000)  # nothing else is reachable through it
            await browser.close()
    from playwright.async_api import Browser

    assert Browser.new_context.__name__ == "new_context"  # the original again


@pytest.mark.browser
def test_agisdks_env_made_as_its_harness_makes_it_grades_real_local(site_urls):
    """``gym.make("browsergym/v2.gomail-12")`` with nothing of agisdk overridden: its oracle (a test fixture) is a
    SUCCESS and a no-op a FAILURE under agisdk's own grading."""
    sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests" / "sites")]
    import agisdk_on_real_local as bench
    import mail_calendar_bench as mcb

    mcb.debian_chromium_for_playwright()
    oracle, message = bench.oracles("gomail")["v2.gomail-12"]
    with route_hosted(site_urls) as proxy:
        good = asyncio.run(bench.episode("v2.gomail-12", oracle, message, 0))
        noop = asyncio.run(bench.episode("v2.gomail-12", None, "Done.", 0))
    assert good["success"] and good["url"].startswith("https://real-gomail-"), good
    assert not noop["success"] and noop["error"] is None, noop
    assert proxy.served >= 2


@pytest.mark.browser
def test_offline_is_the_one_switch_serving_and_routing_together():
    """``real_local.hosted.offline()``: REAL-local started and the hosted origins routed to it in one block, with
    Playwright's sync API as agisdk's env uses it; a site left out of ``sites`` is not reachable."""
    from playwright.sync_api import sync_playwright

    from halo.env.browser import find_chromium
    from real_local.hosted import offline

    exe, _ = find_chromium()
    with offline(["gomail"]) as urls, sync_playwright() as pw:
        assert list(urls) == ["gomail"]
        browser = pw.chromium.launch(executable_path=exe, headless=True)
        page = browser.new_context().new_page()
        page.goto(GOMAIL + "/config?run_id=0&task_id=v2.gomail-3&latency=0")
        page.goto(GOMAIL + "/finish")
        state = json.loads(re.search(r"<pre>(.*)</pre>", page.content(), re.DOTALL).group(1))
        assert state["config"]["task_id"] == "v2.gomail-3"
        with pytest.raises(Exception):
            page.goto("https://real-opendining.vercel.app/", timeout=5000)  # not served in this block
        browser.close()


def test_real_locals_task_index_is_agisdks_v2_list():
    """``real-local tasks`` reads REAL-local's own index (no agisdk needed): the same ids, sites, goals and hosted
    URLs as agisdk 0.3.5's v2 task files."""
    from halo.tasks.real import _load, all_task_ids
    from real_local.tasks import v2_tasks

    ours = {t.id: t for t in v2_tasks()}
    assert sorted(ours) == sorted(all_task_ids("v2"))
    for tid, t in ours.items():
        real = _load(tid)
        assert (t.goal, t.hosted_url) == (real.get_goal(), real.get_start_url()), tid
        assert t.site == tid.split(".", 1)[1].rsplit("-", 1)[0]
