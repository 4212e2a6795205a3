"""REAL v2 udriver tasks on REAL-local UDriver in real Chromium through BrowserEnv (``oracle_suite``): each scripted
oracle ends with agisdk's own script printing SUCCESS; an episode that only answers ends with FAILURE; two browser
contexts at once never see each other's rides or wallets."""

from __future__ import annotations

import oracles_udriver
import pytest
from oracle_suite import browser_suite

pytestmark = pytest.mark.browser
ORACLES = oracles_udriver.ORACLES


def _each_ride_and_wallet_in_its_own_session(states: list[dict]) -> None:
    rides, wallet = (s["differences"] for s in states)
    assert [t["destination"]["name"] for t in rides["trips"]["added"].values()] == ["7-Eleven (Irving St)"]
    assert wallet["trips"]["added"] == {}
    assert [x["description"] for x in wallet["transactions"]["added"].values()] == ["Wallet Top-up"]


globals().update(browser_suite("udriver", ORACLES, ("udriver-7", "udriver-2"),
                               _each_ride_and_wallet_in_its_own_session))
