"""The tab guard (halo.env.guard) in a real browser: the HTTP cache stays on under it (Playwright's routes turned it
off: every page load fetched every image again), off-origin and /__halo/ requests are refused, and a popup's URL
outside the origin never reaches the main tab."""

from __future__ import annotations

import http.server
import threading
from collections import Counter

import pytest

from halo.env import actions as A
from halo.tasks.types import page_task

pytestmark = pytest.mark.browser

PAGE = b"""<!doctype html><title>guard</title><img src="/photo.png" width="40" height="40" alt="photo">
<a id="away" href="{other}/page.html" target="_blank">Away</a><p id="out">ready</p>"""
# a 1x1 PNG
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a6cf6b0000000049454e44ae426082")


def serve(other: list[str]) -> tuple[str, Counter, http.server.ThreadingHTTPServer]:
    hits: Counter = Counter()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def do_GET(self) -> None:
            hits[self.path] += 1
            if self.path == "/photo.png":
                body, kind, extra = PNG, "image/png", {"Cache-Control": "public, max-age=3600"}
            elif self.path.startswith("/__halo/"):
                body, kind, extra = b"internal", "text/plain", {}
            else:
                body, kind, extra = PAGE.replace(b"{other}", other[0].encode()), "text/html", {"Cache-Control": "no-store"}
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Access-Control-Allow-Origin", "*")
            for k, v in extra.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", hits, server


@pytest.fixture
def two_origins():
    a_other, b_other = [""], [""]
    a, a_hits, sa = serve(a_other)
    b, b_hits, sb = serve(b_other)
    a_other[0], b_other[0] = b, a
    yield (a, a_hits), (b, b_hits)
    sa.shutdown()
    sb.shutdown()


FETCH = "u => fetch(u).then(r => r.status).catch(() => 'blocked')"


async def test_page_loads_under_the_guard_use_the_http_cache(make_env, two_origins):
    (a, hits), _ = two_origins
    env = make_env()
    await env.reset(page_task(f"{a}/page.html"))
    for _ in range(3):
        r = await env.step(A.Goto(f"{a}/page.html"))
        assert r.info.error is None, r.info.error
    assert hits["/page.html"] == 4
    assert hits["/photo.png"] == 1, "a cacheable image was fetched again on each load: is the HTTP cache off?"


async def test_off_origin_and_internal_requests_are_refused(make_env, two_origins):
    (a, hits), (b, b_hits) = two_origins
    env = make_env()
    await env.reset(page_task(f"{a}/page.html"))
    page = env.page
    assert await page.evaluate(FETCH, f"{a}/photo.png") == 200
    assert await page.evaluate(FETCH, f"{b}/photo.png") == "blocked"
    assert await page.evaluate(FETCH, "/__halo/state_key") == "blocked"
    assert b_hits["/photo.png"] == 0 and hits["/__halo/state_key"] == 0
    # the next episode elsewhere (the context recycled): the rules follow the task's origin
    await env.reset(page_task(f"{b}/page.html"))
    assert env.contexts_opened == 1
    assert await env.page.evaluate(FETCH, f"{b}/photo.png") == 200
    assert await env.page.evaluate(FETCH, f"{a}/photo.png") == "blocked"


async def test_without_blocking_only_internal_paths_are_refused(make_env, two_origins):
    (a, hits), (b, _) = two_origins
    env = make_env(block_offsite=False)
    await env.reset(page_task(f"{a}/page.html"))
    assert await env.page.evaluate(FETCH, f"{b}/photo.png") == 200
    assert await env.page.evaluate(FETCH, "/__halo/state_key") == "blocked"
    assert hits["/__halo/state_key"] == 0


async def test_a_popup_off_the_origin_never_reaches_the_main_tab(make_env, two_origins):
    (a, _), _ = two_origins
    env = make_env()
    obs = await env.reset(page_task(f"{a}/page.html"))
    away = next(e for e in obs.elements.values() if e.name == "Away")
    r = await env.step(A.Click(away.id))
    assert r.info.error and "blocked" in r.info.error, r.info.error
    assert r.observation.url == f"{a}/page.html"
    assert len(env.page.context.pages) == 1
