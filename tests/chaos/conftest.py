"""Chaos fixtures: a real Chromium pool per test (it gets killed), pages and a misbehaving REAL-protocol site on
loopback, and short deadlines so that recovery is quick to observe (the logic is the same as with the defaults)."""

from __future__ import annotations

import functools

import pytest
import pytest_asyncio


@functools.cache
def _chromium_available() -> bool:
    from halo.env.browser import find_chromium
    from halo.errors import BrowserError

    try:
        find_chromium()
        return True
    except BrowserError:
        return False


@pytest.fixture
def short_deadlines(monkeypatch):
    """Browser calls answer in milliseconds when healthy: 4 s instead of 15 s tells a stuck browser sooner."""
    for module in ("browser", "context", "env"):  # each module that reads it
        monkeypatch.setattr(f"halo.env.{module}.BROWSER_CALL_TIMEOUT_S", 4.0)
    for module in ("observing", "env"):
        monkeypatch.setattr(f"halo.env.{module}.OBSERVE_TIMEOUT_S", 6.0)


@pytest_asyncio.fixture
async def chaos_pool(short_deadlines):
    from halo.env.browser import BrowserPool

    if not _chromium_available():
        pytest.skip("no Chromium (run `make browser` or set HALO_CHROMIUM)")
    async with BrowserPool() as p:
        yield p


@pytest.fixture(scope="session")
def pages():
    from chaos_helpers import serve_pages

    url, server = serve_pages()
    yield url
    server.shutdown()


@pytest.fixture
def chaos_site():
    from chaos_helpers import ChaosSite

    site = ChaosSite()
    yield site
    site.close()
