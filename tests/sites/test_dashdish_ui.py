"""DashDish as DoorDash looks (issue 46), in real Chromium through BrowserEnv: store fronts, store logos and dish
photos are <img> elements that load (home, a store's menu, a dish, the cart); the footer names no clone and gives
no fee or format hints a real app would not show; the task still grades as before."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser
TASK = "v2.dashdish-7"

LOADED = """sel => Array.from(document.querySelectorAll(sel)).map(i => i.complete ? i.naturalWidth : -1)"""


async def _img_widths(d, sel: str) -> list[int]:
    page = d.env._page  # the env's Playwright page: image decoding is not in the AXTree
    await page.evaluate("sel => document.querySelectorAll(sel).forEach(i => { i.loading = 'eager'; })", sel)
    await page.wait_for_function(f"Array.from(document.querySelectorAll({sel!r})).every(i => i.complete)")
    return await page.evaluate(LOADED, sel)


async def test_store_fronts_logos_and_dish_photos_load(run_episode):
    seen = {}

    async def flow(d):
        seen["fronts"] = await _img_widths(d, ".store img.front")
        seen["logos"] = await _img_widths(d, ".store img.slogo")
        seen["popular"] = await _img_widths(d, ".dish img.thumb")
        await d.click("link", "Wingstop", exact=True)
        seen["hero"] = await _img_widths(d, ".hero img")
        seen["menu"] = await _img_widths(d, ".dish img.thumb")
        assert d.has("img", "Lemon Pepper Wings", exact=True)
        await d.click("link", "Lemon Pepper Wings", exact=True)
        seen["item"] = await _img_widths(d, "img.item-photo")
        await d.click("button", "Add to cart", exact=True)
        await d.click("link", "View cart", exact=True)
        seen["cart"] = await _img_widths(d, ".with-thumb img")
        await d.click("link", "Checkout", exact=True)
        await d.click("button", "Place Order", exact=True)

    res, _ = await run_episode(TASK, flow)
    assert len(seen["fronts"]) == 10 and all(w == 480 for w in seen["fronts"]), seen
    assert len(seen["logos"]) == 10 and all(w == 96 for w in seen["logos"]), seen
    assert len(seen["popular"]) == 4 and all(w == 160 for w in seen["popular"]), seen
    assert seen["hero"] == [1080, 96] and len(seen["menu"]) == 10 and all(w == 160 for w in seen["menu"]), seen
    assert seen["item"] == [480] and seen["cart"] == [96], seen
    assert res.info.grade.success  # photos change nothing the script reads


async def test_footer_carries_no_clone_hints(run_episode):
    texts = []

    async def flow(d):
        texts.append(await d.env._page.inner_text("footer"))
        await d.click("link", "Wingstop", exact=True)
        texts.append(await d.env._page.inner_text("body"))

    await run_episode(TASK, flow)
    for t in texts:
        low = t.lower()
        assert "clone" not in low and "real-local" not in low and "agent training" not in low
        assert "9.5%" not in t and "min $1.50" not in t
    assert "DashDish" in texts[0]
