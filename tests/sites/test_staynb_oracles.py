"""REAL v2 staynb tasks on REAL-local StayNB in real Chromium through BrowserEnv (``oracle_suite``): each scripted
oracle ends with agisdk's own script printing SUCCESS; an episode that only answers ends with FAILURE; two browser
contexts at once never see each other's searches or wishlists."""

from __future__ import annotations

import oracles_staynb
import pytest
from oracle_suite import browser_suite

pytestmark = pytest.mark.browser
ORACLES = oracles_staynb.ORACLES


def _each_search_and_wishlist_in_its_own_session(states: list[dict]) -> None:
    cape, rome = (s["differences"] for s in states)
    assert cape["appliedSearch"]["appliedDestination"] == "Cape Town, South Africa"
    assert rome["appliedSearch"]["appliedDestination"] == "Rome, Italy"
    assert [x["title"] for x in cape["wishlistStays"]["added"].values()] == ["Charming apartment in Cape Town"]
    assert rome["wishlistStays"]["added"] == {}


globals().update(browser_suite("staynb", ORACLES, ("staynb-6", "staynb-14"),
                               _each_search_and_wishlist_in_its_own_session))
