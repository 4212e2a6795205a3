"""What a tab may load, enforced over the env's own CDP session of that tab: HALO's internal endpoints never, and
(for a task kept on its origin) nothing outside the task's origin.

Not Playwright's ``route``: a route pauses every request of the context for the driver and turns the HTTP cache off
for the whole context (Playwright's own rule, so that routes see every request), so each page load fetched every
image again. Loading another page of Omnizon (25 product photos) took 334 ms with a route installed against 93 ms
without. Here the cache stays on: a request pauses only when it reaches the network (the
images of a page seen before come from Blink's memory cache and never do), and without an origin to keep only
``/__halo/`` URLs pause. A navigation off the origin is answered "204 No Content", so the page stays as it was, and
reported; any other request off the origin fails as blocked by the client.

The guard belongs to one tab. A popup gets its own as soon as the env learns of it; the popup's first request can
leave before that, which is why the env closes every popup and opens its URL in the main tab only if it is allowed.
Requests of a page's web workers are the workers' own targets and pass unguarded (no REAL-local site starts one).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Callable, Coroutine
from typing import Any
from urllib.parse import urlsplit

log = logging.getLogger(__name__)

INTERNAL_PATH = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]*/__halo/")  # HALO's own endpoints on REAL-local


def origin_of(url: str) -> str:
    p = urlsplit(url)
    return f"{p.scheme}://{p.netloc}"


def offsite(url: str, origin: str) -> bool:
    """An http(s) URL outside ``origin`` (data:, blob:, about: never are)."""
    return url.startswith(("http://", "https://")) and origin_of(url) != origin


def spawn(tasks: set[asyncio.Task], coro: Coroutine[Any, Any, None]) -> None:
    """Run ``coro`` in the background, held in ``tasks`` until it is done (a task only weakly referenced can be
    collected mid-flight)."""
    t = asyncio.get_running_loop().create_task(coro)
    tasks.add(t)
    t.add_done_callback(tasks.discard)


class TabGuard:
    """The rules of one tab. ``start()`` once, ``keep_on(origin)`` whenever the task changes (None: anywhere but
    ``/__halo/``). ``on_blocked(url)`` hears of each main-frame navigation refused."""

    def __init__(self, cdp: Any, on_blocked: Callable[[str], None] | None = None):
        self.cdp = cdp
        self.on_blocked = on_blocked
        self.origin: str | None = None
        self._main_frame: str | None = None
        self._tasks: set[asyncio.Task] = set()
        cdp.on("Fetch.requestPaused", self._paused)

    async def start(self, origin: str | None = None) -> None:
        tree = await self.cdp.send("Page.getFrameTree")
        self._main_frame = tree["frameTree"]["frame"]["id"]
        await self.keep_on(origin, force=True)

    async def keep_on(self, origin: str | None, force: bool = False) -> None:
        if origin == self.origin and not force:
            return
        self.origin = origin
        # without an origin only /__halo/ pauses; with one every request that reaches the network does (a page's
        # images come from Blink's memory cache on the next load and never pause)
        pattern = "*" if origin is not None else "*/__halo/*"
        await self.cdp.send("Fetch.enable", {"patterns": [{"urlPattern": pattern, "requestStage": "Request"}]})

    def _paused(self, event: dict[str, Any]) -> None:
        spawn(self._tasks, self._decide(event))

    async def _decide(self, event: dict[str, Any]) -> None:
        url, rid = event["request"]["url"], event["requestId"]
        try:
            if INTERNAL_PATH.match(url):
                await self.cdp.send("Fetch.failRequest", {"requestId": rid, "errorReason": "BlockedByClient"})
            elif self.origin is not None and offsite(url, self.origin):
                if event.get("resourceType") == "Document" and event.get("frameId") == self._main_frame:
                    # the tab's own navigation: answered "204 No Content", so the page stays as it was
                    if self.on_blocked is not None:
                        self.on_blocked(url)
                    await self.cdp.send("Fetch.fulfillRequest", {"requestId": rid, "responseCode": 204, "body": ""})
                else:
                    await self.cdp.send("Fetch.failRequest", {"requestId": rid, "errorReason": "BlockedByClient"})
            else:
                await self.cdp.send("Fetch.continueRequest", {"requestId": rid})
        except Exception as e:  # noqa: BLE001 - the tab closed or navigated under us: nothing waits on it
            log.debug("guard: %s for %s", type(e).__name__, url[:120])


async def guard_popup(ctx: Any, page: Any, origin: str | None) -> None:
    """Best effort: the popup's own guard (it is closed after the step anyway)."""
    with contextlib.suppress(Exception):
        cdp = await asyncio.wait_for(ctx.new_cdp_session(page), 5)
        await asyncio.wait_for(TabGuard(cdp).start(origin), 5)
