"""MarriSuite as Marriott looks and behaves (issue 46), in real Chromium through BrowserEnv: hotel photos are <img>
elements that load (cards, the gallery, rooms); the footer names no clone and gives no date-format hints; the date
fields open a calendar on today's month and take a click or a typed date (the search and the state stay
YYYY-MM-DD, so agisdk's script still grades the task); error texts are capitalised sentences without format hints."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser
TASK = "v2.marrisuite-8"

LOADED = """sel => Array.from(document.querySelectorAll(sel)).map(i => i.complete ? i.naturalWidth : -1)"""


async def _img_widths(d, sel: str) -> list[int]:
    page = d.env._page  # the env's Playwright page: image decoding is not in the AXTree
    await page.wait_for_function(f"Array.from(document.querySelectorAll({sel!r})).every(i => i.complete)")
    return await page.evaluate(LOADED, sel)


def _search(where: str, checkin: str = "", checkout: str = ""):
    async def run(d):
        await d.fill("textbox", "Destination", where, exact=True)
        if checkin:
            await d.fill("textbox", "Check-in", checkin, exact=True)
            await d.fill("textbox", "Check-out", checkout, exact=True)
        await d.click("button", "Find Hotels", exact=True)
    return run


async def test_results_gallery_and_rooms_show_loaded_photos(run_episode):
    seen = {}

    async def flow(d):
        await _search("Goleta, California", "2024-07-26", "2024-07-28")(d)
        seen["cards"] = await _img_widths(d, ".hotel-list img")
        await d.click("link", "Courtyard Santa Barbara Goleta", exact=True)
        seen["gallery"] = await _img_widths(d, ".gallery img")
        seen["rooms"] = await _img_widths(d, ".room-list img")
        assert d.has("img", "Courtyard Santa Barbara Goleta: Pool", exact=True)

    res, _ = await run_episode(TASK, flow)
    assert seen["cards"] and all(w == 360 for w in seen["cards"]) and len(seen["cards"]) == 3, seen
    assert len(seen["gallery"]) == 5 and all(w > 0 for w in seen["gallery"]), seen
    assert len(seen["rooms"]) == 3 and all(w == 176 for w in seen["rooms"]), seen
    assert res.info.grade.success  # photos change nothing the script reads


async def test_footer_and_pages_carry_no_clone_hints(run_episode):
    texts = []

    async def flow(d):
        texts.append(await d.env._page.inner_text("body"))
        await _search("Goleta")(d)
        texts.append(await d.env._page.inner_text("body"))

    await run_episode(TASK, flow)
    for t in texts:
        low = t.lower()
        assert "clone" not in low and "real-local" not in low and "yyyy" not in low and "agent training" not in low
        assert "MarriSuite International" in t  # the footer is a hotel company's


async def test_date_picker_opens_on_todays_month_and_takes_clicks(run_episode):
    async def flow(d):
        await d.fill("textbox", "Destination", "Goleta, California", exact=True)
        await d.click("textbox", "Check-in", exact=True)
        assert d.has("dialog", "Choose dates", exact=True)
        assert d.sees("July 2024") and d.sees("August 2024")  # today's month first
        today = d.env._page.locator('.cal button[aria-current="date"]')
        assert await today.get_attribute("aria-label") == "Thursday, July 18, 2024"
        assert await d.env._page.locator('.cal button[aria-label="Wednesday, July 17, 2024"]').is_disabled()
        await d.click("button", "Friday, July 26, 2024", exact=True)
        await d.click("button", "Sunday, July 28, 2024", exact=True)
        assert d.find("textbox", "Check-in", exact=True).value == "Fri, Jul 26, 2024"
        assert d.find("textbox", "Check-out", exact=True).value == "Sun, Jul 28, 2024"
        assert not d.has("dialog", "Choose dates", exact=True)  # closed once the stay is chosen
        await d.click("button", "Find Hotels", exact=True)
        assert "checkIn=2024-07-26" in d.obs.url and "checkOut=2024-07-28" in d.obs.url
        assert d.sees("3 hotels in Goleta, California") and d.sees("2 nights")

    res, _ = await run_episode(TASK, flow, "The hotels available in Goleta next weekend are listed.")
    state = res.info.grade.finish_state
    assert state["differences"]["search"]["updated"]["checkIn"] == "2024-07-26"
    assert state["differences"]["search"]["updated"]["checkOut"] == "2024-07-28"
    assert res.info.grade.success


@pytest.mark.parametrize("checkin,checkout", [("07/26/2024", "Jul 28, 2024"), ("Fri, Jul 26, 2024", "2024-07-28")])
async def test_date_fields_take_typed_dates(run_episode, checkin, checkout):
    async def flow(d):
        await _search("Goleta, California", checkin, checkout)(d)
        assert "checkIn=2024-07-26" in d.obs.url and d.sees("2 nights")

    res, _ = await run_episode(TASK, flow)
    u = res.info.grade.finish_state["differences"]["search"]["updated"]
    assert (u["checkIn"], u["checkOut"]) == ("2024-07-26", "2024-07-28") and res.info.grade.success


@pytest.mark.parametrize("checkin,checkout,why", [
    ("26.07.2024", "2024-07-28", "Enter a valid check-in date"),
    ("2024-07-01", "2024-07-03", "Check-in cannot be before today."),
])
async def test_errors_are_capitalised_sentences_without_format_hints(run_episode, checkin, checkout, why):
    async def flow(d):
        await _search("Goleta", checkin, checkout)(d)
        alert = await d.env._page.inner_text("[role=alert]")
        assert alert.startswith(why) and alert[0].isupper() and alert.endswith(".")
        assert "YYYY" not in alert and "2024-07-18" not in alert

    await run_episode(TASK, flow)
