"""BrowserEnv: one episode at a time in its own browser context, many envs on one shared browser.

``reset(task)`` opens a fresh context and, for sites that speak REAL's protocol, replays agisdk's
``AbstractWebCloneTask.setup`` (background tab: ``/config`` then ``/finish``; main tab: the site).
``step(action)`` runs the action, lets the page settle briefly and observes it. Errors the agent caused come
back as data (``info.error``, ``observation.last_action_error``); a dead browser ends the episode as errored and
the next ``reset`` relaunches it. Terminal actions read ``/finish`` and grade with REAL's own scripts.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import logging
import re
import time
from collections import deque
from typing import Any
from urllib.parse import urlsplit

from halo.env import actions as A
from halo.env.browser import BrowserPool
from halo.env.executor import ActionFailed, Executor, short_error
from halo.env.observe import js, snapshot
from halo.env.types import VIEWPORT, Observation, StepInfo, StepResult
from halo.errors import ActionError, BrowserError, ConfigError, HaloError, SiteError

log = logging.getLogger(__name__)

HISTORY = 5
RESET_TIMEOUT_MS = 30_000
OBSERVE_TIMEOUT_S = 15.0
NAV_SETTLE_S = 3.0  # longest wait for a navigation the action started (domcontentloaded), then observe anyway


def origin_of(url: str) -> str:
    p = urlsplit(url)
    return f"{p.scheme}://{p.netloc}"


def offsite_pattern(origin: str) -> re.Pattern[str]:
    """Every http(s) URL outside ``origin`` (matched inside Playwright's driver: same-origin requests never
    reach Python)."""
    return re.compile(rf"^(?!{re.escape(origin)}(?:[/?#]|$))https?://")


def parse_finish_html(text: str) -> dict[str, Any]:
    try:
        state = json.loads(text)
    except json.JSONDecodeError as e:
        raise SiteError(f"/finish did not hold JSON inside <pre> ({e}); is this a REAL site?") from None
    if not isinstance(state, dict):
        raise SiteError(f"/finish held {type(state).__name__}, not a JSON object")
    return state


class BrowserEnv:
    """A browser environment over one shared ``BrowserPool``. Not safe for concurrent calls on one instance;
    run many instances concurrently instead."""

    def __init__(self, pool: BrowserPool, *, max_steps: int = 70, image_format: str = "jpeg", jpeg_quality: int = 80,
                 block_offsite: bool | None = None, action_timeout_ms: int = 5000, run_id: str = "0"):
        if image_format not in ("jpeg", "png"):
            raise ConfigError(f"image_format must be 'jpeg' or 'png', got {image_format!r}")
        if not 1 <= int(jpeg_quality) <= 100:
            raise ConfigError(f"jpeg_quality must be 1..100, got {jpeg_quality}")
        if max_steps < 1:
            raise ConfigError(f"max_steps must be >= 1, got {max_steps}")
        if action_timeout_ms < 100:
            raise ConfigError(f"action_timeout_ms must be >= 100, got {action_timeout_ms}")
        self.pool = pool
        self.max_steps = max_steps
        self.image_format = image_format
        self.jpeg_quality = int(jpeg_quality)
        self.block_offsite = block_offsite
        self.action_timeout_ms = action_timeout_ms
        self.run_id = str(run_id)
        self.task: Any = None
        self.reset_timings: dict[str, float] = {}
        self._ctx: Any = None
        self._page: Any = None
        self._bg: Any = None
        self._cdp: Any = None
        self._ex: Executor | None = None
        self._step = 0
        self._next_id = 1
        self._history: deque[str] = deque(maxlen=HISTORY)
        self._done = False
        self._crashed = False
        self._blocked: list[str] = []
        self._popups: list[Any] = []
        self._opening_page = False  # our own background tab is not a popup
        self._loading = asyncio.Event()
        self._loaded = asyncio.Event()
        self._popup_expected = asyncio.Event()
        self._popup_arrived = asyncio.Event()
        self._last_obs: Observation | None = None

    # ---------------------------------------------------------------- lifecycle
    async def reset(self, task: Any) -> Observation:
        """Start an episode of ``task`` (a ``halo.tasks.Task``) in a fresh context; return the first observation."""
        for attempt in (1, 2):
            try:
                return await self._reset(task)
            except BrowserError:
                raise
            except HaloError:
                await self._close_context()
                raise
            except Exception as e:
                await self._close_context()
                if attempt == 2 or self.pool.alive:
                    if self.pool.alive:
                        raise SiteError(f"reset of {task.id} at {task.base_url} failed: {short_error(e)}; "
                                        f"is the site running (`halo sites`)?") from e
                    raise BrowserError(f"the browser died during reset of {task.id}: {short_error(e)}") from e
                log.warning("browser died during reset (%s); relaunching", short_error(e))
        raise AssertionError("unreachable")

    async def _reset(self, task: Any) -> Observation:
        t0 = time.perf_counter()
        await self._close_context()
        self.task = task
        self._step, self._next_id, self._done, self._crashed = 0, 1, False, False
        self._history.clear()
        self._blocked.clear()
        self._popups.clear()
        self._last_obs = None
        ctx = self._ctx = await self.pool.new_context()
        await ctx.add_init_script(js("instrument.js"))
        block = task.local if self.block_offsite is None else self.block_offsite
        origin = origin_of(task.base_url)
        if block and origin.startswith("http"):
            await ctx.route(offsite_pattern(origin), self._on_offsite)
        ctx.on("page", self._on_page)
        page = self._page = await self._new_page()
        page.on("crash", self._on_crash)
        self._cdp = await ctx.new_cdp_session(page)
        # Navigation and new-window requests reach us before the input event that caused them returns, so the
        # settle knows what to wait for without sleeping.
        self._cdp.on("Page.frameRequestedNavigation", self._on_nav_requested)
        self._cdp.on("Page.frameStartedNavigating", self._on_nav_requested)
        self._cdp.on("Page.domContentEventFired", lambda _e: self._loaded.set())
        self._cdp.on("Page.frameStoppedLoading", lambda _e: self._loaded.set())
        self._cdp.on("Page.windowOpen", lambda _e: self._popup_expected.set())
        await self._cdp.send("Page.enable")
        t1 = time.perf_counter()
        if task.protocol:
            await self._real_setup(task)
        t2 = time.perf_counter()
        resp = await page.goto(task.base_url, wait_until="load", timeout=RESET_TIMEOUT_MS)
        if resp is not None and resp.status >= 400:
            raise SiteError(f"{task.base_url} answered HTTP {resp.status}; check the URL (is the site running?)")
        first = (await self._cdp.send("Page.getNavigationHistory"))["currentIndex"]
        self._ex = Executor(page, timeout_ms=self.action_timeout_ms, viewport=VIEWPORT,
                            allowed_origin=origin if block else None, cdp=self._cdp, first_history_index=first)
        t3 = time.perf_counter()
        obs, timings = await self._observe(None)
        self.reset_timings = {"context": t1 - t0, "protocol": t2 - t1, "goto": t3 - t2, **timings,
                              "total": time.perf_counter() - t0}
        return obs

    async def _real_setup(self, task: Any) -> None:
        """agisdk's ``AbstractWebCloneTask.setup``: background tab /config, then /finish; main tab to the front."""
        bg = self._bg = await self._new_page()
        url = f"{task.base_url}/config?run_id={self.run_id}&task_id={task.id}&latency=0"
        resp = await bg.goto(url, wait_until="load", timeout=RESET_TIMEOUT_MS)
        if resp is not None and resp.status >= 400:
            raise SiteError(f"{url} answered HTTP {resp.status}: {(await resp.text())[:200]}")
        if not task.local:  # REAL's remote apps set up state from JS: wait as agisdk does (bounded)
            with contextlib.suppress(Exception):
                await bg.wait_for_load_state("networkidle", timeout=10_000)
        await bg.goto(f"{task.base_url}/finish", wait_until="load", timeout=RESET_TIMEOUT_MS)
        await self._page.bring_to_front()

    async def _new_page(self) -> Any:
        self._opening_page = True
        try:
            return await self._ctx.new_page()
        finally:
            self._opening_page = False

    async def close(self) -> None:
        await self._close_context()
        self.task = None

    async def _close_context(self) -> None:
        ctx, self._ctx, self._page, self._bg, self._cdp, self._ex = self._ctx, None, None, None, None, None
        if ctx is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ctx.close(), timeout=10)

    # ---------------------------------------------------------------- browser events
    def _on_crash(self, _page: Any) -> None:
        self._crashed = True

    def _on_page(self, page: Any) -> None:
        if not self._opening_page and page is not self._page and page is not self._bg:
            self._popups.append(page)
            self._popup_arrived.set()

    def _on_nav_requested(self, event: dict[str, Any]) -> None:
        if event.get("disposition", "currentTab") == "currentTab" and \
                event.get("navigationType") not in ("sameDocument", "historySameDocument"):
            self._loading.set()

    async def _on_offsite(self, route: Any, request: Any) -> None:
        """Off-site requests fail; an off-site navigation gets "204 No Content", so the page stays as it was
        (an aborted navigation would show Chrome's error page and lose the page's state)."""
        nav = False
        with contextlib.suppress(Exception):
            nav = request.is_navigation_request()
            if nav and request.frame.parent_frame is None:  # a tab's own navigation (main tab or a popup)
                self._blocked.append(request.url)
        with contextlib.suppress(Exception):
            if nav:
                await route.fulfill(status=204, body="")
            else:
                await route.abort("blockedbyclient")

    def _dead(self) -> bool:
        return self._crashed or not self.pool.alive or self._page is None or self._page.is_closed()

    # ---------------------------------------------------------------- step
    async def step(self, action: A.Action | dict[str, Any]) -> StepResult:
        """Run one action; never raises for the agent's mistakes (they come back in ``info.error``)."""
        if self.task is None:
            raise ConfigError("BrowserEnv.step() before reset(); call `await env.reset(task)` first")
        t0 = time.perf_counter()
        if self._done:
            return self._over("the episode is over; call reset() to start another")
        info = StepInfo()
        if isinstance(action, dict):
            try:
                action = A.action_from_dict(action)
            except ActionError as e:
                info.error = str(e)
        elif not isinstance(action, A.Action):
            info.error = f"expected an Action or its dict, got {type(action).__name__}"
        self._step += 1
        if isinstance(action, A.Action):
            self._history.append(action.describe())
            if self._page is None or self._dead():
                return self._errored(info, t0, "the browser or page died before this step")
            info.error = await self._execute(action, info)
        else:
            self._history.append(f"invalid({info.error})")
        if self._dead():
            return self._errored(info, t0, f"the browser or page died ({info.error or 'no error from the action'})")
        t1 = time.perf_counter()
        try:
            obs, obs_t = await self._observe(info.error)
        except Exception as e:
            if self._dead():
                return self._errored(info, t0, f"the browser died while observing: {short_error(e)}")
            return self._errored(info, t0, f"the page did not answer: {short_error(e)}")
        if self._pending():  # a navigation or popup the action caused showed up while we read the page
            t2 = time.perf_counter()
            info.error = await self._settle(info.error)
            try:
                obs, obs_t = await self._observe(info.error)
            except Exception as e:
                return self._errored(info, t0, f"the page did not answer: {short_error(e)}")
            info.timings["settle"] = info.timings.get("settle", 0.0) + time.perf_counter() - t2
        info.timings.update(obs_t)
        info.timings["observe"] = time.perf_counter() - t1
        reward, done = 0.0, False
        if isinstance(action, A.Action) and action.terminal:
            done = True
            reward = await self._grade(action, info)
        self._done = done
        truncated = not done and self._step >= self.max_steps
        if truncated:
            self._done = True
        info.timings["total"] = time.perf_counter() - t0
        return StepResult(observation=obs, reward=reward, done=done, truncated=truncated, info=info)

    async def _execute(self, action: A.Action, info: StepInfo) -> str | None:
        """Run the action and settle; the error message for the agent, or None."""
        assert self._ex is not None
        for ev in (self._loading, self._loaded, self._popup_expected, self._popup_arrived):
            ev.clear()
        error: str | None = None
        t0 = time.perf_counter()
        limit = self.action_timeout_ms / 1000 + 1.0
        if isinstance(action, A.Wait):
            limit += action.time
        elif isinstance(action, (A.Type, A.Fill)):  # typing is one key event per character
            limit += 0.005 * len(getattr(action, "text", "") or getattr(action, "value", ""))
        try:
            await asyncio.wait_for(self._ex.run(action), timeout=limit)
        except ActionFailed as e:
            error = str(e)
        except TimeoutError:
            error = f"{action.name} did not finish within {limit:.0f} s"
        except Exception as e:  # a Playwright error: the page may be dead (checked by the caller)
            error = f"{action.name} failed: {short_error(e)}"
        t1 = time.perf_counter()
        info.timings["action"] = t1 - t0
        if not self._dead():
            error = await self._settle(error)
        info.timings["settle"] = time.perf_counter() - t1
        return error

    async def _wait_loaded(self) -> None:
        """Bounded wait for the main document being loaded to reach DOMContentLoaded."""
        if not self._loaded.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._loaded.wait(), timeout=NAV_SETTLE_S)
        with contextlib.suppress(Exception):
            await self._page.wait_for_load_state("domcontentloaded", timeout=self.action_timeout_ms)
        with contextlib.suppress(Exception):  # a navigation that never committed (blocked, 204) leaves the flag up
            await self._page.evaluate("window.__haloNavigating = false")

    def _pending(self) -> bool:
        return bool((self._loading.is_set() and not self._loaded.is_set()) or self._popups or self._blocked or
                    (self._popup_expected.is_set() and not self._popup_arrived.is_set()))

    async def _settle(self, error: str | None) -> str | None:
        """Bounded: if the action started a navigation, wait for its DOM (never for network idle)."""
        if self._loading.is_set() and not self._loaded.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._loaded.wait(), timeout=NAV_SETTLE_S)
        if self._popup_expected.is_set() and not self._popup_arrived.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._popup_arrived.wait(), timeout=NAV_SETTLE_S)
        if self._popups:
            error = await self._adopt_popups() or error
        if self._blocked:
            urls, self._blocked[:] = list(self._blocked), []
            error = (f"navigation to {urls[-1]} was blocked: this task stays on {self._ex.allowed_origin}"
                     if self._ex and self._ex.allowed_origin else f"navigation to {urls[-1]} was blocked")
        return error

    async def _adopt_popups(self) -> str | None:
        """Keep one tab: a page the action opened (target=_blank, window.open) is closed and its URL opened in
        the main tab, as the model only ever sees one tab."""
        popups, self._popups[:] = list(self._popups), []
        url = None
        for p in popups:
            with contextlib.suppress(Exception):
                await p.wait_for_load_state("commit", timeout=2000)
                url = p.url if p.url not in ("", "about:blank") else url
            with contextlib.suppress(Exception):
                await p.close()
        if url is None:
            return None
        try:
            assert self._ex is not None
            await self._ex.run(A.Goto(url))
        except ActionFailed as e:
            return f"the page opened a new tab; {e}"
        return None

    async def _observe(self, error: str | None) -> tuple[Observation, dict[str, float]]:
        page = self._page
        for attempt in (1, 2, 3):
            try:
                snap = await asyncio.wait_for(
                    snapshot(page, self._next_id, self.image_format, self.jpeg_quality, self._cdp),
                    timeout=OBSERVE_TIMEOUT_S)
                if snap.tree.navigating and attempt < 3:  # the page is being replaced: read the new one
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
        self._next_id = snap.tree.next_id
        obs = Observation(screenshot=snap.screenshot, image_format=self.image_format, axtree=snap.tree.text,
                          elements=snap.tree.elements, url=snap.url, goal=self.task.goal, step=self._step,
                          last_actions=tuple(self._history), last_action_error=error, viewport=VIEWPORT,
                          task_id=self.task.id)
        self._last_obs = obs
        return obs, snap.timings

    # ---------------------------------------------------------------- REAL's /finish and grading
    async def finish_state(self) -> dict[str, Any]:
        """REAL's ``/finish`` JSON for this episode (agisdk's ``get_finish_json``: reload it in the background tab,
        parse the JSON inside ``<pre>``). Raises ``SiteError`` if the site does not answer as REAL does."""
        if self.task is None or self._ctx is None:
            raise ConfigError("finish_state() needs an episode; call reset(task) first")
        if not self.task.protocol:
            raise ConfigError(f"task {self.task.id} is a plain page: it has no /finish")
        if self._bg is None or self._bg.is_closed():
            self._bg = await self._new_page()
        url = f"{self.task.base_url}/finish"
        try:
            resp = await self._bg.goto(url, wait_until="load", timeout=RESET_TIMEOUT_MS)
            if resp is not None and resp.status >= 400:
                raise SiteError(f"{url} answered HTTP {resp.status}")
            if not self.task.local:
                with contextlib.suppress(Exception):
                    await self._bg.wait_for_load_state("networkidle", timeout=5000)
            text = await self._bg.locator("pre").first.inner_text(timeout=self.action_timeout_ms)
        except SiteError:
            raise
        except Exception as e:
            raise SiteError(f"could not read {url}: {short_error(e)}") from e
        return parse_finish_html(text)

    async def _grade(self, action: A.Action, info: StepInfo) -> float:
        if not self.task.protocol:
            return 0.0
        t0 = time.perf_counter()
        try:
            state = await self.finish_state()
        except (SiteError, ConfigError) as e:
            info.error, info.errored = str(e), True
            return 0.0
        t1 = time.perf_counter()
        info.timings["finish"] = t1 - t0
        if not getattr(self.task, "graded", bool(self.task.eval_scripts)):
            return 0.0
        from halo.tasks import grade

        response = getattr(action, "text", "") or "Done"
        try:
            g = await asyncio.to_thread(grade, self.task, state, response)
        except Exception as e:  # agisdk itself failed: not the agent's doing
            info.error, info.errored = f"grading failed: {type(e).__name__}: {e}", True
            return 0.0
        info.timings["grade"] = time.perf_counter() - t1
        info.grade = g
        return g.reward

    # ---------------------------------------------------------------- results that end the episode
    def _blank(self, error: str) -> Observation:
        last = self._last_obs
        return Observation(screenshot=b"", image_format=self.image_format, axtree="", elements={},
                           url=last.url if last else "", goal=self.task.goal if self.task else "", step=self._step,
                           last_actions=tuple(self._history), last_action_error=error, viewport=VIEWPORT,
                           task_id=self.task.id if self.task else "")

    def _errored(self, info: StepInfo, t0: float, error: str) -> StepResult:
        self._done = True
        info.error, info.errored = error, True
        info.timings["total"] = time.perf_counter() - t0
        log.warning("episode %s errored at step %d: %s", self.task.id if self.task else "?", self._step, error)
        return StepResult(observation=self._blank(error), reward=0.0, done=True, truncated=False, info=info)

    def _over(self, error: str) -> StepResult:
        obs = self._last_obs or self._blank(error)
        obs = dataclasses.replace(obs, last_action_error=error)
        return StepResult(observation=obs, reward=0.0, done=True, truncated=False, info=StepInfo(error=error))

    async def state_key(self) -> str | None:
        """A key of the current state: REAL-local's hash of the session's app state, plus the page's URL. Equal keys,
        equal states (GiGPO groups steps by it); None where the site has no such endpoint (REAL's remote sites)."""
        if self.task is None or self._ctx is None or self._page is None or not self.task.local or \
                not self.task.protocol:
            return None
        try:
            resp = await asyncio.wait_for(self._ctx.request.get(f"{self.task.base_url}/__halo/state_key",
                                                                timeout=5000), timeout=6)
            site = (await resp.json())["key"] if resp.ok else None
        except Exception:  # the key is an optimisation of credit assignment, never a reason to fail a step
            return None
        if site is None:
            return None
        return hashlib.sha1(f"{site}|{self._page.url}".encode()).hexdigest()[:16]

    @property
    def step_count(self) -> int:
        return self._step

    @property
    def page(self) -> Any:
        """The live main page (tests and oracles only; policies get observations)."""
        return self._page
