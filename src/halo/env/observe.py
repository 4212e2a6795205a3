"""What the agent sees of a page: a screenshot, a compact accessibility tree with stable ids, and its elements.

The tree comes from one DOM walk in the page (``js/observe.js``), which is ~10x cheaper than Chromium's full
accessibility tree over CDP and can tag elements: each named element carries a ``data-halo-id`` attribute, so an
element keeps its id across steps and element actions find it again with one selector.
"""

from __future__ import annotations

import base64
import json
import math
import time
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from halo.env.types import VIEWPORT, Element

ID_ATTR = "data-halo-id"
MAX_NAME = 80
MAX_TEXT = 120
MAX_LINES = 3000
SETTLE_MS = 50  # upper bound of the wait for one animation frame before reading the page
REQUEST_WAIT_MS = 3000  # upper bound of the wait for fetch/XHR the last action started (a client-side page change
# is one: as long as the wait for a new document, env.NAV_SETTLE_S)
TIMER_WAIT_MS = 500  # the short timeouts the last action set (instrument.js) that the read waits for: those due within
# this of the read's start (a list closed 150 ms after a blur; a page polling in a loop costs at most this)


@cache
def js(name: str) -> str:
    """A script from ``halo/env/js/`` (package data)."""
    return resources.files("halo.env").joinpath("js", name).read_text(encoding="utf-8")


@dataclass(frozen=True)
class AXTree:
    text: str
    elements: dict[str, Element]
    next_id: int  # first id not yet given out in this episode
    title: str = ""
    navigating: bool = False  # the page is being replaced: wait for the new document and read again
    doc: float = 0.0  # the document's identity (performance.timeOrigin): a new one after each navigation
    viewport: tuple[float, float, float, float] | None = None  # visual viewport (x, y, w, h) in CSS px, as read


def _elements(rows: list[list[Any]]) -> dict[str, Element]:
    out = {}
    for id_, role, name, x, y, w, h, value in rows:
        out[id_] = Element(id=id_, role=role, name=name, bbox=(float(x), float(y), float(w), float(h)),
                           value=None if value is None else str(value))
    return out


async def read_axtree(page: Any, start_id: int = 1, settle_ms: int = SETTLE_MS) -> AXTree:
    """Wait for one animation frame (bounded), then walk the DOM; ids continue from ``start_id``."""
    r = json.loads(await page.evaluate(js("observe.js"), {
        "start": start_id, "maxName": MAX_NAME, "maxText": MAX_TEXT, "maxLines": MAX_LINES, "settleMs": settle_ms,
        "requestWaitMs": REQUEST_WAIT_MS, "timerWaitMs": TIMER_WAIT_MS}))
    if r.get("navigating"):
        return AXTree(text="", elements={}, next_id=start_id, navigating=True)
    vp = r.get("vp")
    return AXTree(text=r["text"], elements=_elements(r["els"]), next_id=int(r["next"]), title=r.get("title", ""),
                  doc=float(r.get("doc") or 0.0),
                  viewport=tuple(float(x) for x in vp) if vp and vp[2] > 0 and vp[3] > 0 else None)


def capture_scale(max_pixels: int | None, viewport: tuple[int, int] = VIEWPORT) -> float:
    """The capture scale giving a little more than ``max_pixels`` (so the prompt's resize still only shrinks)."""
    if max_pixels is None:
        return 1.0
    return min(1.0, math.sqrt(1.1 * max_pixels / (viewport[0] * viewport[1])))


async def screenshot(page: Any, image_format: str = "jpeg", quality: int = 80, cdp: Any = None,
                     viewport: tuple[float, float, float, float] | None = None, scale: float = 1.0) -> bytes:
    """Viewport screenshot. With a CDP session, ``Page.captureScreenshot`` directly (skips Playwright's
    screenshot machinery: ~2x cheaper on these machines), rendered at ``scale`` (Chromium draws the smaller
    image: no full-size encode). ``viewport``: the visual viewport as the tree read saw it (else one more round
    trip asks Chromium for it). Playwright's fallback has no scale: it captures full size."""
    if cdp is not None:
        if viewport is None:
            vv = (await cdp.send("Page.getLayoutMetrics"))["cssVisualViewport"]
            viewport = (vv["pageX"], vv["pageY"], vv["clientWidth"], vv["clientHeight"])
        # A clip, as Playwright passes: without one, the capture can hang while the page navigates.
        x, y, w, h = viewport
        clip = {"x": x, "y": y, "width": w, "height": h, "scale": scale}
        params: dict[str, Any] = {"format": image_format, "captureBeyondViewport": False, "clip": clip}
        if image_format == "jpeg":
            params["quality"] = quality
        try:
            r = await cdp.send("Page.captureScreenshot", params)
            return base64.b64decode(r["data"])
        except Exception:  # session detached (e.g. the page swapped processes): Playwright's way still works
            if page.is_closed():
                raise
    kw: dict[str, Any] = {"type": image_format, "caret": "initial", "animations": "allow"}
    if image_format == "jpeg":
        kw["quality"] = quality
    return await page.screenshot(**kw)


@dataclass(frozen=True)
class PageCapture:
    """One read of a page: its screenshot, its tree (ids from ``start_id`` on), its URL, and what each part took."""

    screenshot: bytes
    tree: AXTree
    url: str
    timings: dict[str, float]


async def capture_page(page: Any, start_id: int, image_format: str = "jpeg", quality: int = 80,
                       cdp: Any = None, scale: float = 1.0) -> PageCapture:
    """Tree first (its frame wait doubles as the settle), then the screenshot of the rendered result."""
    t0 = time.perf_counter()
    tree = await read_axtree(page, start_id)
    t1 = time.perf_counter()
    if tree.navigating:
        return PageCapture(screenshot=b"", tree=tree, url=page.url, timings={"axtree": t1 - t0})
    shot = await screenshot(page, image_format, quality, cdp, tree.viewport, scale)
    t2 = time.perf_counter()
    return PageCapture(screenshot=shot, tree=tree, url=page.url, timings={"axtree": t1 - t0, "screenshot": t2 - t1})
