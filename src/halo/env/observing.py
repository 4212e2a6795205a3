"""What ``BrowserEnv`` shows the agent: the main tab read into an ``Observation`` (halo.env.observe does the
reading), the document it is on tracked for ``snapshot``/``restore``, and the site's state key.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging

from halo.env.context import bounded_call, request_get
from halo.env.executor import short_error
from halo.env.guard import origin_of
from halo.env.observe import capture_page, capture_scale
from halo.env.types import VIEWPORT, Observation
from halo.errors import BrowserError, HaloError

log = logging.getLogger(__name__)

OBSERVE_TIMEOUT_S = 15.0


class Observing:
    """The part of ``BrowserEnv`` (halo.env.env) that observes: ``_observe`` after reset and each step (it notes
    each new document: where ``restore`` reopens the page from, and on a ``branchable`` env the site's copy of the
    state it was rendered from), the observation of an episode that ended without one (``_blank``), and
    ``state_key``."""

    async def _observe(self, error: str | None) -> tuple[Observation, dict[str, float]]:
        page = self._page
        start_id = self._next_id
        for attempt in (1, 2, 3):
            try:
                cap = await asyncio.wait_for(
                    capture_page(page, self._next_id, self.image_format, self.jpeg_quality, self._cdp,
                                 capture_scale(self.screenshot_max_pixels)),
                    timeout=OBSERVE_TIMEOUT_S)
                if cap.tree.navigating and attempt < 3:  # the page is being replaced: read the new one
                    await self._wait_loaded()
                    continue
                break
            except TimeoutError:
                raise BrowserError(f"observing the page took over {OBSERVE_TIMEOUT_S:.0f} s") from None
            except Exception as e:
                if attempt == 3 or self._dead():
                    raise
                # A navigation replaced the document mid-read: wait for the new one, read again.
                log.debug("observe retry after %s", short_error(e))
                await self._wait_loaded()
        self._next_id = cap.tree.next_id
        if cap.url.startswith("http"):
            self._origins.add(origin_of(cap.url))
        last = self._last_obs
        same_doc = last is not None and self._step > 0 and cap.tree.doc == self._obs_doc and bool(last.elements)
        appeared = frozenset(cap.tree.elements) - frozenset(last.elements) if same_doc else frozenset()
        if cap.tree.doc != self._obs_doc:  # the first read of a new document: restore() reopens it from here
            self._obs_doc, self._doc_url, self._doc_start_id = cap.tree.doc, cap.url, start_id
            self._since_nav.clear()
            self._doc_sid = None
            if self.branchable and self.task.local and self.task.protocol:
                with contextlib.suppress(HaloError):  # no copy: snapshots of this page restore by replay
                    self._doc_sid = await self._fork(None)
        obs = Observation(screenshot=cap.screenshot, image_format=self.image_format, axtree=cap.tree.text,
                          elements=cap.tree.elements, url=cap.url, goal=self.task.goal, step=self._step,
                          last_actions=tuple(self._history), last_action_error=error, viewport=VIEWPORT,
                          task_id=self.task.id, can_go_back=await self._can_go_back(), appeared=appeared)
        self._last_obs = obs
        return obs, cap.timings

    async def _can_go_back(self) -> bool:
        """``go_back`` would stay in the episode: the tab's history has an entry after the episode's first page."""
        ex = self._ex
        if self._step == 0:
            return False
        if ex is None or ex.first_history_index is None or self._cdp is None:
            return True  # no bound known: go_back is offered and the executor says if it fails
        h = await bounded_call(self._cdp.send("Page.getNavigationHistory"), "CDP Page.getNavigationHistory")
        return h["currentIndex"] > ex.first_history_index

    def _blank(self, error: str) -> Observation:
        last = self._last_obs
        return Observation(screenshot=b"", image_format=self.image_format, axtree="", elements={},
                           url=last.url if last else "", goal=self.task.goal if self.task else "", step=self._step,
                           last_actions=tuple(self._history), last_action_error=error, viewport=VIEWPORT,
                           task_id=self.task.id if self.task else "")

    async def state_key(self) -> str | None:
        """A key of the current state: REAL-local's hash of the session's app state, plus the page's URL. Equal keys,
        equal states (GiGPO groups steps by it); None where the site has no such endpoint (REAL's remote sites)."""
        if self.task is None or self._ctx is None or self._page is None or not self.task.local or \
                not self.task.protocol:
            return None
        try:
            resp = await asyncio.wait_for(request_get(self._ctx, f"{self.task.base_url}/__halo/state_key", 5000),
                                          timeout=12)
            site = (await resp.json())["key"] if resp.ok else None
        except Exception:  # the key is an optimisation of credit assignment, never a reason to fail a step
            return None
        if site is None:
            return None
        return hashlib.sha1(f"{site}|{self._page.url}".encode()).hexdigest()[:16]
