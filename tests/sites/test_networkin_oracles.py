"""REAL v2 networkin tasks on REAL-local NetworkIn in real Chromium through BrowserEnv (``oracle_suite``): each
scripted oracle ends with agisdk's own script printing SUCCESS; an episode that only answers ends with FAILURE; two
browser contexts at once never see each other's work."""

from __future__ import annotations

import oracles_networkin
import pytest
from oracle_suite import browser_suite

pytestmark = pytest.mark.browser
ORACLES = oracles_networkin.ORACLES


def _each_in_its_own_session(states: list[dict]) -> None:
    connected, posted = (s["differences"] for s in states)
    assert connected["connections"]["added"] == ["oliviamartinez"] and connected["posts"]["added"] == []
    assert posted["connections"]["added"] == []
    assert [p["description"][:22] for p in posted["posts"]["added"]] == ["This summer I interned"]


globals().update(browser_suite("networkin", ORACLES, ("networkin-27", "networkin-13"), _each_in_its_own_session))
