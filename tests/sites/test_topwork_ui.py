"""TopWork as Upwork looks and reads (issue 46), in real Chromium through BrowserEnv: profile photos and company
logos are <img> elements that load; the footer names no clone; a post with one proposal says "1 proposal"; error
texts are capitalised sentences without format hints."""

from __future__ import annotations

import re

import pytest
from _shop_helpers import HttpEpisode

pytestmark = pytest.mark.browser
TASK = "v2.topwork-14"


async def _img_widths(d, sel: str) -> list[int]:
    page = d.env._page  # the env's Playwright page: image decoding is not in the AXTree
    await page.wait_for_function(f"Array.from(document.querySelectorAll({sel!r})).every(i => i.complete)")
    return await page.evaluate("sel => Array.from(document.querySelectorAll(sel)).map(i => i.naturalWidth)", sel)


async def test_avatars_and_logos_load(run_episode):
    seen = {}

    async def flow(d):
        await d.click("link", "Find Talent", exact=True)
        seen["talent"] = await _img_widths(d, ".person img")
        await d.click("link", "Daniel Kim", exact=True)
        seen["profile"] = await _img_widths(d, ".profile-head img")
        seen["logos"] = await _img_widths(d, "img.logo-img")
        assert d.has("img", "Daniel Kim", exact=True)
        await d.click("link", "Message", exact=True)
        seen["chat"] = await _img_widths(d, ".inbox img")
        seen["header"] = await _img_widths(d, ".me img")

    await run_episode(TASK, flow)
    assert len(seen["talent"]) == 14 and all(w == 64 for w in seen["talent"]), seen
    assert seen["profile"] == [120] and len(seen["logos"]) == 2 and all(w == 40 for w in seen["logos"]), seen
    assert len(seen["chat"]) >= 6 and all(w > 0 for w in seen["chat"]) and seen["header"] == [40], seen


async def test_footer_carries_no_clone_hints_and_one_proposal_is_singular(run_episode):
    texts = []

    async def flow(d):
        texts.append(await d.env._page.inner_text("body"))
        await d.click("link", "Jobs", exact=True)
        texts.append(await d.env._page.inner_text("body"))

    await run_episode(TASK, flow)
    for t in texts:
        low = t.lower()
        assert "clone" not in low and "real-local" not in low and "agent training" not in low
        assert "today is" not in low and "you are sarah johnson" not in low
        assert "1 proposals" not in t
    for t in texts:  # Data Analyst and Blog Content Writer have one proposal each, the other three two
        assert len(re.findall(r"\b1 proposal\b", t)) == 2 and len(re.findall(r"\b2 proposals\b", t)) == 3


async def test_errors_are_capitalised_sentences_without_format_hints(run_episode, site_urls):
    async def flow(d):
        await d.click("link", "Post a Job", exact=True)
        await d.click("button", "Post job", exact=True)
        alert = await d.env._page.inner_text("[role=alert]")
        assert alert == "Give the job a title and a description."

    await run_episode(TASK, flow)
    with HttpEpisode(site_urls["topwork"], "topwork-7") as ep:  # a start date before today
        r = ep.client.post("/freelancers/danielkim/hire", data={"contractTitle": "Lead", "message": "Hi",
                                                               "startDate": "2024-07-01"})
        assert r.status_code == 400 and "Choose a start date from today on." in r.text and "YYYY" not in r.text
