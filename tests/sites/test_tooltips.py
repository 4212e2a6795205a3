"""Icon-only buttons and links show a tooltip as the real apps do (issue 16, point 5): on GoMail, GoCalendar,
Omnizon and Zilloft every <button>/<a> whose only content is an icon (an SVG or a glyph) has a ``title`` equal to
its accessible name (``aria-label``, kept unchanged: agents and tests find elements by role and name)."""

from __future__ import annotations

import html
import re

import httpx
import pytest
from site_helpers import site_url

TAG = re.compile(r"<(button|a)\b([^>]*)>(.*?)</\1>", re.DOTALL)
ATTR = re.compile(r'([\w-]+)="([^"]*)"')
GLYPHS = {"×", "♥", "✕", "‹", "›"}


def icon_only(inner: str) -> bool:
    text = html.unescape(re.sub(r"<[^>]*>", "", re.sub(r"<svg\b.*?</svg>", "", inner, flags=re.DOTALL))).strip()
    return "<svg" in inner and not text or text in GLYPHS


def missing_tooltips(page: str) -> list[str]:
    bad = []
    for m in TAG.finditer(page):
        attrs = dict(ATTR.findall(m.group(2)))
        if "aria-label" in attrs and icon_only(m.group(3)) and attrs.get("title") != attrs["aria-label"]:
            bad.append(attrs["aria-label"])
    return bad


def pages(c: httpx.Client, site: str) -> list[str]:
    first = c.get("/").text
    if site == "gomail":
        email = re.search(r'href="(/email/[^"]+)"', first).group(1)
        return [first, c.get(html.unescape(email)).text, c.get("/search", params={"q": "meeting"}).text]
    if site == "gocalendar":
        return [first] + [c.get("/", params={"view": v}).text for v in ("day", "month")]
    if site == "omnizon":
        return [first, c.get("/search", params={"q": "laptop"}).text, c.get("/product/212").text,
                c.get("/cart").text]
    found = c.get("/search", params={"searchQuery": "San Francisco, CA"}).text
    home = re.search(r'href="(/homedetails/[^"]+)"', found).group(1)
    return [first, found, c.get(home).text]


@pytest.mark.parametrize("site", ["gomail", "gocalendar", "omnizon", "zilloft"])
def test_icon_only_controls_have_a_tooltip(site_urls, site):
    with httpx.Client(base_url=site_url(site_urls, site), timeout=10, follow_redirects=True) as c:
        assert c.get("/config", params={"run_id": "0", "task_id": f"v2.{site}-1", "latency": 0}).status_code == 200
        seen = 0
        for page in pages(c, site):
            assert not missing_tooltips(page), missing_tooltips(page)
            seen += sum(1 for m in TAG.finditer(page) if icon_only(m.group(3)))
        assert seen >= 3  # the check saw icon buttons
