"""REAL v2 opendining tasks on REAL-local OpenDining in real Chromium through BrowserEnv (``oracle_suite``): each
scripted oracle ends with agisdk's own script printing SUCCESS; an episode that only answers ends with FAILURE; two
browser contexts at once never see each other's reservations."""

from __future__ import annotations

import oracles_opendining
import pytest
from oracle_suite import browser_suite

pytestmark = pytest.mark.browser
ORACLES = oracles_opendining.ORACLES


def _each_reservation_in_its_own_session(states: list[dict]) -> None:
    seen = []
    for s in states:
        (entry,) = s["differences"]["reservations"]["added"].values()
        seen.append((entry["restaurant"]["name"], entry["time"], entry["guests"]))
    assert seen == [("River View Café", "3:00 PM", "5 people"), ("Sunrise Diner", "8:00 AM", "2 people")]


globals().update(browser_suite("opendining", ORACLES, ("opendining-12", "opendining-9"),
                               _each_reservation_in_its_own_session))
