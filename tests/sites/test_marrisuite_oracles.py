"""REAL v2 marrisuite task on REAL-local MarriSuite in real Chromium through BrowserEnv (``oracle_suite``): the
scripted oracle ends with agisdk's own script printing SUCCESS; an episode that only answers ends with FAILURE; two
browser contexts at once never see each other's searches."""

from __future__ import annotations

import oracles_marrisuite
import pytest
from _shop_helpers import say
from oracle_suite import browser_suite

pytestmark = pytest.mark.browser
ORACLES = oracles_marrisuite.ORACLES
# the second concurrent episode: the same task, other dates (the script reads no dates, so both succeed)
LATER = [*oracles_marrisuite.search("Goleta", "2024-08-02", "2024-08-04", rooms=1, guests=2), say("Done.")]


def _each_search_in_its_own_session(states: list[dict]) -> None:
    first, later = (s["differences"]["search"]["updated"] for s in states)
    assert (first["destination"], first["checkIn"], first.get("guests", 1)) == ("Goleta, California", "2024-07-26", 1)
    assert (later["destination"], later["checkIn"], later["guests"]) == ("Goleta", "2024-08-02", 2)


globals().update(browser_suite("marrisuite", ORACLES, ("marrisuite-8", ("marrisuite-8", LATER)),
                               _each_search_in_its_own_session))
