"""REAL v2 topwork tasks on REAL-local TopWork in real Chromium through BrowserEnv (``oracle_suite``): each scripted
oracle ends with agisdk's own script printing SUCCESS; an episode that only answers ends with FAILURE; two browser
contexts at once never see each other's work."""

from __future__ import annotations

import oracles_topwork
import pytest
from oracle_suite import browser_suite

pytestmark = pytest.mark.browser
ORACLES = oracles_topwork.ORACLES


def _each_in_its_own_session(states: list[dict]) -> None:
    saved, posted = (s["initialfinaldiff"] for s in states)
    assert list(saved["added"]["saved"]["savedFreelancerIds"].values()) == ["ashleycampbell", "brandonmartinez"]
    assert "jobs" not in saved["added"] and "saved" not in posted["added"]
    assert [j["title"] for j in posted["added"]["jobs"]["jobs"].values()] == ["Data Annotator"]


globals().update(browser_suite("topwork", ORACLES, ("topwork-14", "topwork-13"), _each_in_its_own_session))
