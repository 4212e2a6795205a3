"""BrowserEnv: one episode at a time in its own browser context, many envs on one shared browser.

``reset(task)`` starts the episode in a clean context: a fresh one, or (between two REAL-local episodes, where
the agent can only ever have been on loopback origins) the env's own context recycled: its extra tabs closed, the
main tab on ``about:blank`` with its history reset, the storage of every origin the last episode visited and every
cookie cleared, so nothing of the last episode is left (the renderer process and the site's warm caches stay, which
is what makes resets cheap). For sites that speak REAL's protocol it then replays agisdk's
``AbstractWebCloneTask.setup``: on REAL-local ``/config`` through the context's own request client (same cookie
jar, no tab; ``real_setup="tab"`` keeps agisdk's background tab), elsewhere agisdk's background tab (``/config``
then ``/finish``); then the main tab loads the site.
``step(action)`` runs the action, lets the page settle briefly and observes it. Errors the agent caused come
back as data (``info.error``, ``observation.last_action_error``); a dead browser ends the episode as errored and
the next ``reset`` relaunches it. Terminal actions read ``/finish`` and grade with REAL's own scripts.

Nothing here waits forever: every call to Chromium has a deadline. A reset whose browser stops answering (a call
misses its deadline) kills the browser with its whole process tree, relaunches it and tries once more; a step that
misses its deadline, or any step after the episode's wall-clock deadline (``episode_timeout_s``), errors the episode
with that reason.

This module is the episode loop (reset, step and its settle); the rest of ``BrowserEnv`` is in the modules named
for what they do: its browser context (``halo.env.context``), what it observes (``halo.env.observing``), its
branches (``halo.env.branch``) and REAL's ``/finish`` and grading (``halo.env.grading``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections import deque
from typing import Any

from halo.env import actions as A
from halo.env.branch import Branching
from halo.env.browser import BROWSER_CALL_TIMEOUT_S, BrowserPool, BrowserStuck
from halo.env.context import ContextLifecycle
from halo.env.executor import ActionFailed, Executor, short_error
from halo.env.grading import Grading
from halo.env.guard import TabGuard
from halo.env.keep import KeptPages
from halo.env.observing import OBSERVE_TIMEOUT_S, Observing
from halo.env.types import Observation, StepInfo, StepResult
from halo.errors import ActionError, BrowserError, ConfigError, HaloError, SiteError

log = logging.getLogger(__name__)

HISTORY = 5
RESET_TIMEOUT_MS = 30_000
NAV_SETTLE_S = 3.0  # longest wait for a navigation the action started (domcontentloaded), then observe anyway
EPISODE_TIMEOUT_S = 900.0  # default wall-clock deadline of one episode (configs: episode.episode_timeout_s)
EPISODE_DEADLINE = "episode deadline"  # how errors of episodes that ran out of time begin (halo.rl.health counts them)


def episode_deadline_error(limit_s: float) -> str:
    return (f"{EPISODE_DEADLINE}: the episode ran past its {limit_s:.0f} s wall-clock limit (episode_timeout_s); "
            f"the browser, the site or the policy stopped answering, or raise episode.episode_timeout_s")


class BrowserEnv(ContextLifecycle, Observing, Branching, Grading):
    """A browser environment over one shared ``BrowserPool``. Not safe for concurrent calls on one instance;
    run many instances concurrently instead.

    Its public API: ``reset``, ``step`` and ``page`` here; ``close`` (halo.env.context); ``state_key``
    (halo.env.observing); ``snapshot``, ``restore`` (halo.env.branch); ``finish_state``, ``finish_json``
    (halo.env.grading). Those parts share the state set up in ``__init__``."""

    def __init__(self, pool: BrowserPool, *, max_steps: int = 70, image_format: str = "jpeg", jpeg_quality: int = 80,
                 block_offsite: bool | None = None, action_timeout_ms: int = 5000, run_id: str = "0",
                 episode_timeout_s: float | None = EPISODE_TIMEOUT_S, nav_timeout_ms: int = RESET_TIMEOUT_MS,
                 branchable: bool = False, reuse_context: bool = True, real_setup: str = "request",
                 end_on_success: bool = True, screenshot_max_pixels: int | None = None, keep_pages: int = 0):
        if image_format not in ("jpeg", "png"):
            raise ConfigError(f"image_format must be 'jpeg' or 'png', got {image_format!r}")
        if not 1 <= int(jpeg_quality) <= 100:
            raise ConfigError(f"jpeg_quality must be 1..100, got {jpeg_quality}")
        if max_steps < 1:
            raise ConfigError(f"max_steps must be >= 1, got {max_steps}")
        if action_timeout_ms < 100:
            raise ConfigError(f"action_timeout_ms must be >= 100, got {action_timeout_ms}")
        if episode_timeout_s is not None and not episode_timeout_s > 0:
            raise ConfigError(f"episode_timeout_s must be > 0 (or None: no limit), got {episode_timeout_s}")
        if nav_timeout_ms < 100:
            raise ConfigError(f"nav_timeout_ms must be >= 100, got {nav_timeout_ms}")
        if real_setup not in ("request", "tab"):
            raise ConfigError(f"real_setup must be 'request' or 'tab', got {real_setup!r}")
        if keep_pages < 0:
            raise ConfigError(f"keep_pages must be >= 0, got {keep_pages}")
        if screenshot_max_pixels is not None and screenshot_max_pixels < 1:
            raise ConfigError(f"screenshot_max_pixels must be >= 1 (or None: the full viewport), got "
                              f"{screenshot_max_pixels}")
        self.pool = pool
        self.max_steps = max_steps
        self.image_format = image_format
        self.jpeg_quality = int(jpeg_quality)
        self.block_offsite = block_offsite
        self.action_timeout_ms = action_timeout_ms
        self.run_id = str(run_id)
        self.episode_timeout_s = episode_timeout_s  # run_episode bounds the whole episode (the policy too) by it
        self.nav_timeout_ms = nav_timeout_ms  # a page load of reset or /finish
        # REAL-local: keep the site's copy of the state each document was rendered from (one request per page
        # load), so that snapshot() can restore page-only UI state exactly (halo.env.branch)
        self.branchable = branchable
        # REAL-local: up to this many live copies of restored snapshot states (a browser context each), so that the
        # next restore of a state takes one over instead of loading its page (halo.env.keep; 0: none)
        self._kept = KeptPages(keep_pages, self._keep_copy) if keep_pages else None
        # between REAL-local episodes, recycle this env's context (cleared) instead of opening a new one
        self.reuse_context = reuse_context
        self.real_setup = real_setup  # REAL-local's /config: "request" (the context's request client) or "tab"
        # a task family's episode ends as soon as its checks pass (BrowserGym's validate() after every step, as in
        # MiniWoB); REAL's own tasks always wait for the agent's final message, as REAL grades them
        self.end_on_success = end_on_success
        # the pixels the policy will look at (its prompt's max_pixels; run_episode sets it from the policy):
        # Chromium captures the viewport scaled down to about that size (None: full size). A tiny mode's 16k-pixel
        # image then costs a 5 KB capture instead of an 80 KB one (~70 CPU-ms less per one-step episode)
        self.screenshot_max_pixels = screenshot_max_pixels
        self._finish_read: tuple[int, Any] | None = None  # (step, /finish JSON) read after that step
        self.contexts_opened = 0  # fresh contexts; resets - contexts_opened were recycled
        self._ctx_generation = -1  # the pool generation the context was opened on
        self._guard: TabGuard | None = None  # what the main tab may load (halo.env.guard)
        self._popup_guards: set[asyncio.Task] = set()
        self._handlers: list[tuple[Any, str, Any]] = []  # (emitter, event, handler): the context's events heard
        self._origins: set[str] = set()  # http(s) origins the main tab showed this episode (cleared on recycle)
        self._prep: asyncio.Task | None = None  # the main tab being cleared for the next episode (after the last step)
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
        self._deadline: float | None = None  # time.monotonic() past which the episode is over
        # what snapshot() records: every action since reset, those on the current document, where it began
        self._actions: list[Any] = []
        self._since_nav: list[A.Action] = []
        self._obs_doc = -1.0  # the identity of the page last observed (observe.js: its document and client-side page)
        self._doc_url, self._doc_start_id = "", 1
        self._doc_sid: str | None = None  # the site's copy of the state the current document was rendered from
        self.restore_timings: dict[str, Any] = {}
        self._session_cookie = ""

    # ---------------------------------------------------------------- reset
    async def reset(self, task: Any) -> Observation:
        """Start an episode of ``task`` (a ``halo.tasks.types.Task``) in a fresh context; return the first observation.

        Bounded: a browser that stops answering is killed (whole process tree) and relaunched, then reset is tried
        once more; a second miss is a ``BrowserError``."""
        self._deadline = time.monotonic() + self.episode_timeout_s if self.episode_timeout_s else None
        for attempt in (1, 2):
            generation = self.pool.generation
            limit = self._reset_limit()
            try:
                return await asyncio.wait_for(self._reset(task), limit)
            except (BrowserStuck, TimeoutError) as e:
                why = str(e) or f"reset did not finish within {limit:.0f} s"
                self._forget_context()  # the browser is killed next: closing its context would wait on it
                if attempt == 2:
                    raise BrowserError(f"the browser stopped answering during reset of {task.id} ({why}), again "
                                       f"after it was killed and relaunched; check free memory and /dev/shm, and "
                                       f"run `halo smoke`") from None
                await self.pool.restart(generation, why)
            except BrowserError:
                await self._close_context()
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

    def _reset_limit(self) -> float:
        """Reset's own deadline: its three page loads and two observations, plus the browser calls."""
        return 3 * (self.nav_timeout_ms / 1000 + 5) + 2 * OBSERVE_TIMEOUT_S + 4 * BROWSER_CALL_TIMEOUT_S

    async def _reset(self, task: Any) -> Observation:
        t0 = time.perf_counter()
        await self._open_context(task)
        t1 = time.perf_counter()
        if task.protocol:
            if task.local and self.real_setup == "request":
                await self._local_setup(task)
            else:
                await self._real_setup(task)
        t2 = time.perf_counter()
        resp = await self._goto(self._page, task.start_url)
        if resp is not None and resp.status >= 400:
            raise SiteError(f"{task.start_url} answered HTTP {resp.status}; check the URL (is the site running?)")
        t3 = time.perf_counter()
        _, (obs, timings) = await asyncio.gather(self._make_executor(task), self._observe(None))
        self.reset_timings = {"context": t1 - t0, "protocol": t2 - t1, "goto": t3 - t2, **timings,
                              "total": time.perf_counter() - t0}
        return obs

    # ---------------------------------------------------------------- step
    async def step(self, action: A.Action | dict[str, Any]) -> StepResult:
        """Run one action; never raises for the agent's mistakes (they come back in ``info.error``). Bounded: a step
        that misses its deadline, or any step past the episode's deadline, errors the episode."""
        if self.task is None:
            raise ConfigError("BrowserEnv.step() before reset(); call `await env.reset(task)` first")
        t0 = time.perf_counter()
        if self._done:
            return self._over("the episode is over; call reset() to start another")
        info = StepInfo()
        left = self._deadline - time.monotonic() if self._deadline is not None else None
        if left is not None and left <= 0:
            self._step += 1
            return self._errored(info, t0, episode_deadline_error(self.episode_timeout_s or 0))
        limit = self._step_limit(action)
        try:
            return await asyncio.wait_for(self._step_bounded(action, info, t0), limit if left is None else
                                          min(limit, left + 1))
        except TimeoutError:
            if left is not None and time.monotonic() >= self._deadline:
                return self._errored(info, t0, episode_deadline_error(self.episode_timeout_s or 0))
            return self._errored(info, t0, f"the step did not finish within {limit:.0f} s: the browser or the site "
                                           f"stopped answering")

    def _step_limit(self, action: Any) -> float:
        """Every wait a step can make, added up: the action, its settle, two observations, /finish and grading."""
        extra = 0.0
        if isinstance(action, A.Wait):
            extra = action.time
        elif isinstance(action, (A.Type, A.Fill)):
            extra = 0.005 * len(getattr(action, "text", "") or getattr(action, "value", ""))
        return (self.action_timeout_ms / 1000 + 1 + extra + 4 * NAV_SETTLE_S + 2 * OBSERVE_TIMEOUT_S +
                2 * (self.nav_timeout_ms / 1000 + 5) + 60)

    async def _step_bounded(self, action: A.Action | dict[str, Any], info: StepInfo, t0: float) -> StepResult:
        if isinstance(action, dict):
            try:
                action = A.action_from_dict(action)
            except ActionError as e:
                info.error = str(e)
        elif not isinstance(action, A.Action):
            info.error = f"expected an Action or its dict, got {type(action).__name__}"
        self._step += 1
        self._actions.append(action)
        doc_before = self._obs_doc
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
        if isinstance(action, A.Action) and self._obs_doc == doc_before:  # it acted on the document shown
            self._since_nav.append(action)
        reward, done = 0.0, False
        if isinstance(action, A.Action) and action.terminal:
            done = True
            reward = await self._grade(action, info)
        elif self.end_on_success and getattr(self.task, "family", "") and not info.errored:
            reward, done = await self._validate(info)
        self._done = done
        truncated = not done and self._step >= self.max_steps
        if truncated:
            self._done = True
        if self._done:
            self._prepare_next()
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
            await asyncio.wait_for(self._page.evaluate("window.__haloNavigating = false"),
                                   self.action_timeout_ms / 1000)

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
                await asyncio.wait_for(p.close(), BROWSER_CALL_TIMEOUT_S)
        if url is None:
            return None
        try:
            assert self._ex is not None
            await self._ex.run(A.Goto(url))
        except ActionFailed as e:
            return f"the page opened a new tab; {e}"
        return None

    # ---------------------------------------------------------------- results that end the episode
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

    @property
    def page(self) -> Any:
        """The live main page (tests and oracles only; policies get observations)."""
        return self._page
