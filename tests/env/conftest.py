"""Fixtures for browser tests: static pages served by real HTTP servers on loopback, a shared browser pool, and a
tiny site speaking REAL's protocol (real_local.core.build_app) for reset/finish/grading."""

from __future__ import annotations

import asyncio
import functools
import http.server
import threading
from pathlib import Path

import pytest
import pytest_asyncio

PAGES = Path(__file__).parent / "pages"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # keep pytest output clean
        pass


@functools.cache
def _chromium_available() -> bool:
    from halo.env.browser import find_chromium
    from halo.errors import BrowserError

    try:
        find_chromium()
        return True
    except BrowserError:
        return False


def serve_dir(directory: Path) -> tuple[str, http.server.ThreadingHTTPServer]:
    handler = functools.partial(_Quiet, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="test-pages", daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server


@pytest.fixture(scope="session")
def pages_url():
    url, server = serve_dir(PAGES)
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def offsite_url():
    """The same pages on another port: another origin."""
    url, server = serve_dir(PAGES)
    yield url
    server.shutdown()


@pytest_asyncio.fixture(scope="session")
async def pool():
    from halo.env.browser import BrowserPool

    if not _chromium_available():
        pytest.skip("no Chromium (run `make browser` or set HALO_CHROMIUM)")
    async with BrowserPool() as p:
        yield p


@pytest_asyncio.fixture
async def make_env(pool):
    """Factory of BrowserEnvs on the shared pool; all closed at the end of the test."""
    from halo.env.env import BrowserEnv

    envs = []

    def make(**kw) -> BrowserEnv:
        env = BrowserEnv(pool, **kw)
        envs.append(env)
        return env

    yield make
    await asyncio.gather(*(e.close() for e in envs))


# ---------------------------------------------------------------- a tiny REAL-protocol site (gomail-shaped state)
MAIL_PAGE = """<!doctype html><html><head><title>Tiny mail</title></head><body>
<h1>Tiny mail</h1><p id="count">{unread} unread</p>
<button onclick="fetch('/api/read-all',{{method:'POST'}}).then(()=>location.reload())">Mark all as read</button>
<button onclick="fetch('/api/trash-amazon',{{method:'POST'}}).then(()=>location.reload())">Delete Amazon emails</button>
</body></html>"""


def _tiny_mail_spec():
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse
    from starlette.routing import Route

    from real_local.core import SiteSpec, collection_differences, session_of

    def seed(task_id):
        emails = {str(i): {"id": str(i), "from": "amazon@example.com" if i <= 4 else f"p{i}@example.com",
                           "isRead": False, "trash": False} for i in range(1, 21)}
        return {"email": {"emails": emails}, "ui": {"snackbar": {"message": ""}}}

    def differences(initial, final):
        return {"emails": collection_differences(initial["email"]["emails"], final["email"]["emails"])}

    async def home(request: Request):
        s = session_of(request)
        unread = sum(not e["isRead"] for e in s.state["email"]["emails"].values())
        return HTMLResponse(MAIL_PAGE.format(unread=unread))

    async def read_all(request: Request):
        s = session_of(request)
        with s.lock:
            for e in s.state["email"]["emails"].values():
                e["isRead"] = True
            s.state["ui"]["snackbar"]["message"] = "20 conversations marked as read"
        return JSONResponse({"ok": True})

    async def trash_amazon(request: Request):
        s = session_of(request)
        with s.lock:
            for e in s.state["email"]["emails"].values():
                if e["from"].startswith("amazon"):
                    e["trash"] = True
        return JSONResponse({"ok": True})

    routes = [Route("/", home), Route("/api/read-all", read_all, methods=["POST"]),
              Route("/api/trash-amazon", trash_amazon, methods=["POST"])]
    return SiteSpec(name="gomail", seed=seed, differences=differences, routes=routes)


@pytest.fixture(scope="session")
def tiny_mail_url():
    import uvicorn

    from real_local.core import build_app

    app = build_app(_tiny_mail_spec())
    cfg = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(cfg)
    server.install_signal_handlers = lambda: None
    t = threading.Thread(target=lambda: asyncio.run(server.serve()), name="tiny-mail", daemon=True)
    t.start()
    for _ in range(200):
        if server.started:
            break
        threading.Event().wait(0.05)
    assert server.started, "tiny REAL-protocol site did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    t.join(timeout=5)
