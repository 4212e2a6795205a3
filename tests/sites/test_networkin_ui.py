"""NetworkIn as LinkedIn looks and behaves (issue 46), in real Chromium through BrowserEnv: profile photos and logos
are <img> elements that load; the footer names no clone and gives no date; "Start a post" opens a modal dialog over
the feed and posting stays on the feed with "Post successful"; "Connect" opens the invitation as a modal dialog
over the profile (Escape closes it); the tasks still grade SUCCESS."""

from __future__ import annotations

import pytest

from halo.env import actions as A

pytestmark = pytest.mark.browser

LOADED = """sel => Array.from(document.querySelectorAll(sel)).map(i => i.complete ? i.naturalWidth : -1)"""
MODAL = """() => Array.from(document.querySelectorAll('dialog')).filter(d => d.matches(':modal'))
                 .map(d => d.getAttribute('aria-label'))"""


async def _img_widths(d, sel: str) -> list[int]:
    page = d.env._page  # the env's Playwright page: image decoding is not in the AXTree
    await page.wait_for_function(f"Array.from(document.querySelectorAll({sel!r})).every(i => i.complete)")
    return await page.evaluate(LOADED, sel)


async def _modal(d) -> list[str]:
    return await d.env._page.evaluate(MODAL)


async def test_avatars_and_logos_load(run_episode):
    seen = {}

    async def flow(d):
        seen["posts"] = await _img_widths(d, "article.post img")
        seen["me"] = await _img_widths(d, ".starter img")
        seen["follow"] = await _img_widths(d, ".follows img")
        await d.click("link", "My Network", exact=True)
        seen["suggested"] = await _img_widths(d, ".grid img")
        await d.click("link", "Olivia Martinez", exact=True)
        seen["profile"] = await _img_widths(d, ".head img.pic")
        seen["experience"] = await _img_widths(d, ".exp img")
        assert d.has("img", "Olivia Martinez", exact=True)
        await d.click("link", "Messaging", exact=True)
        seen["threads"] = await _img_widths(d, ".thread-l img")

    await run_episode("v2.networkin-27", flow)
    assert len(seen["posts"]) == 8 and all(w == 48 for w in seen["posts"]), seen
    assert seen["me"] == [48] and len(seen["follow"]) == 6 and all(w == 48 for w in seen["follow"]), seen
    assert len(seen["suggested"]) >= 8 and all(w == 72 for w in seen["suggested"]), seen
    assert seen["profile"] == [152] and seen["experience"] == [48, 48], seen
    assert len(seen["threads"]) == 4 and all(w == 48 for w in seen["threads"]), seen


async def test_footer_carries_no_clone_hints(run_episode):
    texts = []

    async def flow(d):
        texts.append(await d.env._page.inner_text("body"))
        await d.click("link", "Events", exact=True)
        texts.append(await d.env._page.inner_text("body"))

    await run_episode("v2.networkin-25", flow)
    for t in texts:
        low = t.lower()
        assert "clone" not in low and "real-local" not in low and "agent training" not in low
        assert "today is" not in low and "you are div garg" not in low and "august 15" not in low


async def test_post_dialog_opens_over_the_feed_and_posting_stays_on_the_feed(run_episode):
    text = ("This summer I interned at AGI Inc, building browser agents. Grateful for an amazing summer internship and "
            "a great team!")

    async def flow(d):
        await d.click("link", "Start a post", exact=True)
        assert d.obs.url.endswith("/post/new")  # still a link: the milestone and REAL's router see it
        assert d.has("dialog", "Create a post", exact=True)
        assert await _modal(d) == ["Create a post"]
        behind = await d.env._page.evaluate("document.querySelectorAll('section[aria-label=Feed] article').length")
        assert behind == 8  # the feed is rendered behind the dialog ...
        like = d.find("button", "Like Kevin Patel's post", exact=True)  # ... and out of reach while it is open
        res = await d.env.step(A.Click(like.id))
        assert res.info.error and "covered by" in res.info.error, res.info.error
        d.obs = res.observation
        await d.fill("textbox", "What do you want to talk about?", text, exact=True)
        await d.click("button", "Post", exact=True)
        assert d.obs.url.split("?")[0].endswith("/feed"), d.obs.url
        assert d.sees("Post successful") and d.has("link", "View post", exact=True)
        assert await _modal(d) == []
        first = await d.env._page.inner_text("section[aria-label=Feed] article")
        assert "This summer I interned at AGI Inc" in first  # the new post tops the feed

    res, _ = await run_episode("v2.networkin-13", flow)
    assert res.info.grade.success


async def test_connect_dialog_opens_over_the_profile(run_episode):
    async def flow(d):
        await d.fill("textbox", "Search", "Olivia Martinez", exact=True)
        await d.click("button", "Search", exact=True)
        await d.click("link", "Invite Olivia Martinez to connect", exact=True)
        assert d.obs.url.endswith("/in/oliviamartinez/connect")
        assert await _modal(d) == ["Invite Olivia Martinez to connect"]
        h1 = await d.env._page.inner_text("main h1")
        assert h1.startswith("Olivia Martinez")  # her profile is behind the dialog
        await d.key("Escape")  # closes it, back on the profile
        assert d.obs.url.endswith("/in/oliviamartinez") and await _modal(d) == []
        await d.click("link", "Invite Olivia Martinez to connect", exact=True)
        assert d.has("textbox", "Add a note", exact=True)
        await d.click("button", "Send without a note", exact=True)
        assert "/in/oliviamartinez?" in d.obs.url and d.sees("Invitation sent")
        assert await _modal(d) == []

    res, _ = await run_episode("v2.networkin-27", flow)
    assert res.info.grade.success
