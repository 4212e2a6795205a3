"""Fixtures of the Tinker-path tests: the tiny Qwen3-VL (built once), REAL-local GoMail served on loopback, the
env settings of a fast run (small pixel budget, few turns), and the browser slots closed at the end."""

from __future__ import annotations

import os

import pytest
import pytest_asyncio

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(scope="session")
def tiny_dir(tiny_model):
    return tiny_model


@pytest.fixture(scope="session")
def site_urls():
    from real_local.server import SitesServer

    with SitesServer(["gomail"]) as urls:
        yield urls


@pytest.fixture(scope="session")
def chromium():
    from halo.env.browser import find_chromium
    from halo.errors import BrowserError

    try:
        find_chromium()
    except BrowserError as e:
        pytest.skip(f"no Chromium: {e}")


@pytest_asyncio.fixture(scope="session")
async def close_slots():
    """Browser pools the rollouts start lazily, closed when the session ends."""
    yield
    from halo.rl.tinker.browsers import close_browser_slots

    await close_browser_slots()


@pytest.fixture(scope="session")
def constrained_completer(tiny_dir):
    """The tiny model held to HALO's action grammar: every reply is a valid action (compiled once)."""
    from halo.policy.tinker.local_completer import LocalTokenCompleter

    return LocalTokenCompleter(tiny_dir, max_tokens=64, temperature=1.0, seed=1, constrained=True)
