"""OpenDining as OpenTable looks and behaves (issue 46), in real Chromium through BrowserEnv: restaurant photos and
reviewers' portraits are <img> elements that load; the footer names no clone and gives no date-format hint; the
Date field opens a calendar on today's month and takes a click or a typed date (the search, the booking and the
state stay YYYY-MM-DD, so agisdk's script still grades the task); ratings are drawn as CSS-filled stars (no
missing-glyph half star); error texts are capitalised sentences."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser
TASK = "v2.opendining-12"  # River View Café for 5 on September 29, 2025 at 3:00 PM

LOADED = """sel => Array.from(document.querySelectorAll(sel)).map(i => i.complete ? i.naturalWidth : -1)"""


async def _img_widths(d, sel: str) -> list[int]:
    page = d.env._page  # the env's Playwright page: image decoding is not in the AXTree
    await page.evaluate(f"Array.from(document.querySelectorAll({sel!r})).forEach(i => i.loading = 'eager')")
    await page.wait_for_function(f"Array.from(document.querySelectorAll({sel!r})).every(i => i.complete)")
    return await page.evaluate(LOADED, sel)


async def _reserve(d) -> None:
    await d.click("button", "Find a time", exact=True)
    await d.click("link", "3:00 PM", exact=True)
    await d.click("button", "Complete reservation", exact=True)


async def test_cards_results_gallery_and_reviewers_show_loaded_photos(run_episode):
    seen = {}

    async def flow(d):
        seen["home"] = await _img_widths(d, ".tile img")
        await d.fill("textbox", "Location, Restaurant, or Cuisine", "Italian", exact=True)
        await d.click("button", "Let's go", exact=True)
        seen["results"] = await _img_widths(d, ".result img")
        await d.click("link", "Bella Notte", exact=True)
        seen["banner"] = await _img_widths(d, ".banner img")
        seen["gallery"] = await _img_widths(d, ".gallery img")
        seen["reviews"] = await _img_widths(d, ".review img")
        assert d.has("img", "Bella Notte: Outside", exact=True)

    res, _ = await run_episode(TASK, flow)
    assert len(seen["home"]) == 6 and all(w == 480 for w in seen["home"]), seen
    assert len(seen["results"]) == 3 and all(w == 240 for w in seen["results"]), seen
    assert len(seen["banner"]) == 3 and all(w == 720 for w in seen["banner"]), seen
    assert len(seen["gallery"]) == 4 and all(w == 240 for w in seen["gallery"]), seen
    assert len(seen["reviews"]) == 3 and all(w == 80 for w in seen["reviews"]), seen
    assert not res.info.grade.success  # photos alone reserve nothing


async def test_footer_and_pages_carry_no_clone_hints(run_episode):
    texts = []

    async def flow(d):
        texts.append(await d.env._page.inner_text("body"))
        await d.click("link", "Italian", exact=True)
        texts.append(await d.env._page.inner_text("body"))

    await run_episode(TASK, flow)
    for t in texts:
        low = t.lower()
        assert "clone" not in low and "real-local" not in low and "agent training" not in low
        assert "yyyy" not in low and "today is" not in low
        assert "OpenDining, Inc." in t  # the footer is a restaurant-booking company's


async def test_date_picker_opens_on_todays_month_and_takes_a_click(run_episode):
    async def flow(d):
        await d.fill("textbox", "Location, Restaurant, or Cuisine", "River View", exact=True)
        await d.click("button", "Let's go", exact=True)
        await d.click("link", "River View Café", exact=True)
        await d.env._page.select_option(".booking-box select[name=party]", "5")
        await d.env._page.select_option(".booking-box select[name=time]", "3:00 PM")
        await d.click("textbox", "Date", exact=True)
        assert d.has("dialog", "Choose a date", exact=True) and d.sees("July 2024")  # today's month
        page = d.env._page
        assert await page.locator('.cal button[aria-current="date"]').get_attribute("aria-label") == \
            "Thursday, July 18, 2024"
        assert await page.locator('.cal button[aria-label="Wednesday, July 17, 2024"]').is_disabled()
        for _ in range(14):  # July 2024 -> September 2025
            await d.click("button", "Next month", exact=True)
        assert d.sees("September 2025")
        await d.click("button", "Monday, September 29, 2025", exact=True)
        assert d.find("textbox", "Date", exact=True).value == "Sep 29, 2025"
        assert not d.has("dialog", "Choose a date", exact=True)
        await _reserve(d)

    res, _ = await run_episode(TASK, flow, "Reserved River View Café for 5 on September 29, 2025 at 3:00 PM.")
    (entry,) = res.info.grade.finish_state["differences"]["reservations"]["added"].values()
    assert entry["date"] == "2025-09-29T07:00:00.000Z" and entry["guests"] == "5 people"
    assert res.info.grade.success


@pytest.mark.parametrize("typed", ["09/29/2025", "Sep 29, 2025", "Mon, Sep 29, 2025"])
async def test_date_field_takes_typed_dates(run_episode, typed):
    async def flow(d):
        await d.fill("textbox", "Date", typed, exact=True)
        await d.fill("textbox", "Location, Restaurant, or Cuisine", "River View", exact=True)
        await d.click("button", "Let's go", exact=True)
        assert "date=2025-09-29" in d.obs.url and d.sees("Monday, September 29")

    await run_episode(TASK, flow)


async def test_ratings_are_css_stars_with_a_partial_fill(run_episode):
    async def flow(d):
        page = d.env._page
        body = await page.inner_text("body")
        assert "\u2bea" not in body and "\u2bd8" not in body  # no half-star glyph (a missing-glyph box in Chromium)
        fill = await page.evaluate("""() => {
            const s = document.querySelector('.stars[aria-label="4.6 stars"]');
            const on = s && s.querySelector('.stars-on');
            return on ? on.getBoundingClientRect().width / s.getBoundingClientRect().width : null; }""")
        assert fill is not None and 0.88 < fill < 0.96, fill  # 4.6 of 5 stars filled
        assert d.has("img", "4.6 stars", exact=True)

    await run_episode(TASK, flow)


async def test_errors_are_capitalised_sentences(run_episode):
    async def flow(d):
        await d.fill("textbox", "Date", "2024-07-01", exact=True)
        await d.click("button", "Let's go", exact=True)
        alert = await d.env._page.inner_text("[role=alert]")
        assert alert[0].isupper() and alert.endswith(".") and "YYYY" not in alert, alert

    await run_episode(TASK, flow)
