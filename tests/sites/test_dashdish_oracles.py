"""REAL v2 dashdish tasks on REAL-local DashDish in real Chromium through BrowserEnv (``oracle_suite``): each
scripted oracle ends with agisdk's own script printing SUCCESS; an episode that only answers ends with FAILURE; two
browser contexts at once never see each other's orders. Plus the checkout page's script."""

from __future__ import annotations

import oracles_dashdish
import pytest
from oracle_suite import browser_suite, local_urls

from halo.env import actions as A
from halo.tasks.real import get_task

pytestmark = pytest.mark.browser
ORACLES = oracles_dashdish.ORACLES


def _each_order_in_its_own_session(states: list[dict]) -> None:
    seen = []
    for s in states:
        (order,) = s["differences"]["foodOrders"]["added"].values()
        seen.append([(it["restaurantName"], it["name"], it["quantity"]) for it in order["cartItems"]])
    assert seen == [[("Wingstop", "Lemon Pepper Wings", 1)], [("Taco Boys", "Carne Asada Burrito", 2)]]


globals().update(browser_suite("dashdish", ORACLES, ("dashdish-26", "dashdish-8"), _each_order_in_its_own_session))


async def test_checkout_summary_follows_the_choices_in_the_page(env, site_urls):
    """The checkout page's script: choosing Pickup hides the delivery choices and the total drops to subtotal + tax;
    back to Delivery with Express, the fees come back (what the server charges, shown before ordering)."""
    from site_helpers import Driver

    d = Driver(env, await env.reset(get_task("dashdish-26", sites="local",
                                             site_urls=local_urls(site_urls, "dashdish"))))
    await d.click("link", "Wingstop", exact=True)
    await d.click("link", "Lemon Pepper Wings", exact=True)
    await d.click("radio", "10 pc Wings", exact=True)
    await d.click("button", "Add to cart", exact=True)
    await d.click("link", "Checkout", exact=True)
    assert d.sees("$20.91") and d.has("radio", "Express", exact=True)  # 13.99 + 1.99 + 1.50 + 1.33 tax + 2.10 tip

    async def settled(text: str) -> bool:
        for _ in range(10):
            if d.sees(text):
                return True
            await d.step(A.Wait(0.2))
        return False

    await d.click("radio", "Pickup", exact=True)
    assert await settled("$15.32") and not d.has("radio", "Express", exact=True)
    await d.click("radio", "Delivery", exact=True)
    await d.click("radio", "Express", exact=True)
    assert await settled("$23.90")
