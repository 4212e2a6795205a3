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
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import logging
import time
from collections import deque
from typing import Any

from halo.env import actions as A
from halo.env.branch import RESTORE_METHODS, RestoreDiverged, Snapshot, same_page
from halo.env.browser import BROWSER_CALL_TIMEOUT_S, BrowserPool, BrowserStuck
from halo.env.executor import ActionFailed, Executor, short_error
from halo.env.guard import TabGuard, guard_popup, origin_of, spawn
from halo.env.observe import capture_scale, js, snapshot
from halo.env.types import VIEWPORT, Observation, StepInfo, StepResult
from halo.errors import ActionError, BrowserError, ConfigError, HaloError, SiteError

log = logging.getLogger(__name__)

HISTORY = 5
RESET_TIMEOUT_MS = 30_000
OBSERVE_TIMEOUT_S = 15.0
NAV_SETTLE_S = 3.0  # longest wait for a navigation the action started (domcontentloaded), then observe anyway
EPISODE_TIMEOUT_S = 900.0  # default wall-clock deadline of one episode (configs: episode.episode_timeout_s)
# a request's connection closed under it (the site's keep-alive socket closed as the request went out): retried once
DROPPED = ("ECONNRESET", "socket hang up", "EPIPE")
EPISODE_DEADLINE = "episode deadline"  # how errors of episodes that ran out of time begin (halo.rl.health counts them)
# what a recycled context's tab clears per origin: everything but cookies (the site session stays readable until the
# next reset, which clears every cookie)
STORAGE_TYPES = ("local_storage,indexeddb,cache_storage,service_workers,file_systems,websql,shader_cache,"
                 "interest_groups,shared_storage,storage_buckets")


def episode_deadline_error(limit_s: float) -> str:
    return (f"{EPISODE_DEADLINE}: the episode ran past its {limit_s:.0f} s wall-clock limit (episode_timeout_s); "
            f"the browser, the site or the policy stopped answering, or raise episode.episode_timeout_s")


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
                 block_offsite: bool | None = None, action_timeout_ms: int = 5000, run_id: str = "0",
                 episode_timeout_s: float | None = EPISODE_TIMEOUT_S, nav_timeout_ms: int = RESET_TIMEOUT_MS,
                 branchable: bool = False, reuse_context: bool = True, real_setup: str = "request",
                 end_on_success: bool = True, screenshot_max_pixels: int | None = None):
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

    # ---------------------------------------------------------------- lifecycle
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

    async def _call(self, aw: Any, what: str, timeout: float | None = None, browser: bool = True) -> Any:
        """Await a call to Chromium with a deadline; a miss means the browser stopped answering (``BrowserStuck``).
        ``browser``: the call involves no site, so its failure is the browser's too (``Target crashed`` after a
        zygote was killed)."""
        limit = BROWSER_CALL_TIMEOUT_S if timeout is None else timeout
        try:
            return await asyncio.wait_for(aw, limit)
        except TimeoutError:
            raise BrowserStuck(f"{what} did not return within {limit:.0f} s") from None
        except HaloError:
            raise
        except Exception as e:
            if browser:
                raise BrowserStuck(f"{what} failed: {short_error(e)}") from e
            raise

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
        resp = await self._goto(self._page, task.base_url)
        if resp is not None and resp.status >= 400:
            raise SiteError(f"{task.base_url} answered HTTP {resp.status}; check the URL (is the site running?)")
        t3 = time.perf_counter()
        _, (obs, timings) = await asyncio.gather(self._make_executor(task), self._observe(None))
        self.reset_timings = {"context": t1 - t0, "protocol": t2 - t1, "goto": t3 - t2, **timings,
                              "total": time.perf_counter() - t0}
        return obs

    async def _open_context(self, task: Any) -> None:
        """A clean context and main page for ``task``, with HALO's tab guard, instrumentation and CDP events: this
        env's own context recycled where isolation allows (``_recyclable``), else a fresh one."""
        prev = self.task
        recycle = self._recyclable(prev, task)
        self.task = task
        self._step, self._next_id, self._done, self._crashed = 0, 1, False, False
        self._finish_read = None
        self._history.clear()
        self._blocked.clear()
        self._popups.clear()
        self._actions.clear()
        self._since_nav.clear()
        self._obs_doc = -1.0
        self._doc_sid = None
        self._last_obs = None
        if recycle:
            try:
                await self._recycle(task)
                return
            except BrowserStuck:
                raise
            except Exception as e:  # the old page broke somehow: a fresh context instead
                log.info("could not recycle the context (%s); opening a fresh one", short_error(e))
        await self._close_context()
        self._origins.clear()
        ctx = self._ctx = await self.pool.new_context()
        self._ctx_generation = self.pool.generation
        self.contexts_opened += 1
        await self._call(ctx.add_init_script(js("instrument.js")), "add_init_script")
        ctx.on("page", self._on_page)
        page = self._page = await self._call(self._new_page(), "new_page")
        page.on("crash", self._on_crash)
        self._cdp = await self._call(ctx.new_cdp_session(page), "new_cdp_session")
        # Navigation and new-window requests reach us before the input event that caused them returns, so the
        # settle knows what to wait for without sleeping.
        self._cdp.on("Page.frameRequestedNavigation", self._on_nav_requested)
        self._cdp.on("Page.frameStartedNavigating", self._on_nav_requested)
        self._cdp.on("Page.domContentEventFired", lambda _e: self._loaded.set())
        self._cdp.on("Page.frameStoppedLoading", lambda _e: self._loaded.set())
        self._cdp.on("Page.windowOpen", lambda _e: self._popup_expected.set())
        await self._call(self._cdp.send("Page.enable"), "CDP Page.enable")
        # before the tab loads anything: /__halo/ never, nothing off the task's origin where it is kept on it
        self._guard = TabGuard(self._cdp, self._blocked.append)
        await self._call(self._guard.start(self._kept_on(task)), "CDP guard")

    def _blocks(self, task: Any) -> bool:
        return bool(task.local if self.block_offsite is None else self.block_offsite)

    def _recyclable(self, prev: Any, task: Any) -> bool:
        """The env's context can serve the next episode: it is healthy, on the current browser, and both episodes
        are local ones kept on their origin, so everything the last one stored is on origins this env saw."""
        return bool(self.reuse_context and prev is not None and self._ctx is not None and self._page is not None
                    and self._cdp is not None and self._guard is not None and not self._crashed
                    and not self._page.is_closed()
                    and self.pool.alive and self._ctx_generation == self.pool.generation
                    and prev.local and task.local and self._blocks(prev) and self._blocks(task)
                    and origin_of(prev.base_url).startswith("http") and origin_of(task.base_url).startswith("http"))

    async def _recycle(self, task: Any) -> None:
        """Clear this env's context for a new episode: the main tab cleared (``_clear_tab``; usually already done
        while the last step was graded), every cookie cleared (only now: the last episode's state stays readable
        through ``finish_state``/``finish_json`` until the next reset); the tab guard follows the task's
        origin."""
        prep, self._prep = self._prep, None
        clean = False
        if prep is not None:
            try:
                clean = await prep
            except BrowserStuck:
                raise
            except Exception as e:  # cleared again below
                log.debug("clearing the tab in the background failed: %s", short_error(e))
        if not clean:
            await self._clear_tab()
        guard = self._guard
        assert guard is not None  # _recyclable checked it
        await asyncio.gather(self._call(self._ctx.clear_cookies(), "clear_cookies"),
                             self._call(guard.keep_on(self._kept_on(task)), "CDP guard"))

    async def _clear_tab(self) -> bool:
        """Every tab but the main one closed, the main tab on ``about:blank`` (the old document unloads first:
        nothing it writes on its way out survives), its history reset, and the storage of every origin the episode
        showed (local and session storage, IndexedDB, caches, service workers) cleared."""
        ctx, page = self._ctx, self._page
        for p in list(ctx.pages):
            if p is not page:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(p.close(), BROWSER_CALL_TIMEOUT_S)
        self._bg = None
        await self._call(page.goto("about:blank", wait_until="commit", timeout=BROWSER_CALL_TIMEOUT_S * 1000),
                         "goto about:blank")
        origins = self._origins | {origin_of(self.task.base_url)} if self.task else set(self._origins)
        self._origins = set()
        await asyncio.gather(  # independent of each other: one round trip's wait for all
            *(self._call(self._cdp.send("Storage.clearDataForOrigin", {"origin": o, "storageTypes": STORAGE_TYPES}),
                         "CDP Storage.clearDataForOrigin") for o in sorted(origins)),
            self._reset_history())
        return True

    async def _reset_history(self) -> None:
        """Forget the tab's history (no ``go_back`` into the last episode). Right after the commit of about:blank
        the page agent can be between documents ("Not attached to an active page"): a protocol error, not a dead
        browser, so it is retried briefly and, if it persists, raised as a plain error (the caller then opens a
        fresh context instead of killing a browser other envs share)."""
        for attempt in range(10):  # up to ~2.5 s: on a loaded machine the swap to about:blank takes a while
            try:
                await self._call(self._cdp.send("Page.resetNavigationHistory"), "CDP Page.resetNavigationHistory",
                                 browser=False)
                return
            except Exception as e:
                if attempt == 9 or "not attached" not in str(e).lower():
                    raise
                await asyncio.sleep(min(0.05 * 2 ** attempt, 0.4))

    def _prepare_next(self) -> None:
        """The episode is over and observed: clear the main tab for the next one in the background (it overlaps
        with grading, or whatever the caller does before its next reset, which waits for it)."""
        if self._prep is None and self.reuse_context and self.task is not None and self.task.local and \
                self._blocks(self.task) and self._ctx is not None and not self._dead():
            self._prep = asyncio.get_running_loop().create_task(self._clear_tab())
            self._prep.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved: never logged

    def _kept_on(self, task: Any) -> str | None:
        """The origin the task's tab is kept on (None: blocking is off)."""
        origin = origin_of(task.base_url)
        return origin if self._blocks(task) and origin.startswith("http") else None

    async def _make_executor(self, task: Any, first: int | None = None) -> None:
        """The action executor on the main page; ``go_back`` never leaves history entry ``first`` (default: the
        current one)."""
        if first is None:
            first = (await self._call(self._cdp.send("Page.getNavigationHistory"), "CDP Page.getNavigationHistory")
                     )["currentIndex"]
        self._ex = Executor(self._page, timeout_ms=self.action_timeout_ms, viewport=VIEWPORT,
                            allowed_origin=origin_of(task.base_url) if self._blocks(task) else None, cdp=self._cdp,
                            first_history_index=first)

    async def _get(self, url: str, timeout_ms: float) -> Any:
        """GET through the context's request client, once more if the connection dropped under it (a keep-alive
        socket the server closed as the request went out: ECONNRESET, seen under load). Every such GET here reads
        state or resets it to the same thing, so a second try is safe."""
        for attempt in (1, 2):
            try:
                return await self._ctx.request.get(url, timeout=timeout_ms)
            except Exception as e:
                if attempt == 2 or not any(m in str(e) for m in DROPPED):
                    raise
                log.info("GET %s: %s; trying once more", url, short_error(e))
        raise AssertionError("unreachable")

    async def _local_setup(self, task: Any) -> None:
        """agisdk's setup on REAL-local: ``/config`` through the context's request client, which shares the context's
        cookie jar (the session cookie it sets is the one the site's pages then send). agisdk's read of ``/finish``
        after it changes nothing on REAL-local, so it is left out."""
        url = f"{task.base_url}/config?run_id={self.run_id}&task_id={task.id}&latency=0"
        try:
            resp = await self._call(self._get(url, self.nav_timeout_ms), f"GET {url}",
                                    self.nav_timeout_ms / 1000 + 5, browser=False)
        except HaloError:
            raise
        except Exception as e:
            raise SiteError(f"{url} did not answer ({short_error(e)}); is the site running (`halo sites`)?") from e
        if resp.status >= 400:
            raise SiteError(f"{url} answered HTTP {resp.status}: "
                            f"{(await self._call(resp.text(), 'body', browser=False))[:200]}")

    async def _real_setup(self, task: Any) -> None:
        """agisdk's ``AbstractWebCloneTask.setup``: background tab /config, then /finish; main tab to the front."""
        bg = self._bg = await self._call(self._new_page(), "new_page")
        url = f"{task.base_url}/config?run_id={self.run_id}&task_id={task.id}&latency=0"
        resp = await self._goto(bg, url)
        if resp is not None and resp.status >= 400:
            raise SiteError(f"{url} answered HTTP {resp.status}: "
                            f"{(await self._call(resp.text(), 'body', browser=False))[:200]}")
        if not task.local:  # REAL's remote apps set up state from JS: wait as agisdk does (bounded)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(bg.wait_for_load_state("networkidle", timeout=10_000), 15)
        await self._goto(bg, f"{task.base_url}/finish")
        await self._call(self._page.bring_to_front(), "bring_to_front")

    async def _goto(self, page: Any, url: str) -> Any:
        """A page load bounded by Playwright's timeout (a slow or dead site: ``SiteError`` naming the URL) and by
        ours (a stuck browser: ``BrowserStuck``)."""
        try:
            return await self._call(page.goto(url, wait_until="load", timeout=self.nav_timeout_ms), f"goto {url}",
                                    self.nav_timeout_ms / 1000 + 5, browser=False)
        except HaloError:
            raise
        except Exception as e:
            if not self.pool.alive or page.is_closed():
                raise  # the browser died under it: reset relaunches it
            raise SiteError(f"{url} did not load ({short_error(e)}); is the site running (`halo sites`)?") from e

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
        ctx = self._forget_context()
        if ctx is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ctx.close(), timeout=10)

    def _forget_context(self) -> Any:
        ctx, self._ctx, self._page, self._bg, self._cdp, self._ex = self._ctx, None, None, None, None, None
        self._guard = None
        if self._prep is not None:
            self._prep.cancel()
            self._prep = None
        return ctx

    # ---------------------------------------------------------------- branching (MCTS): snapshot and restore
    async def snapshot(self) -> Snapshot:
        """The episode's current state, restorable any number of times by ``restore`` (halo.env.branch). On
        REAL-local the site keeps a frozen copy of the session's state (one request, no page load); after actions
        on the current page, only a ``branchable`` env has the copy to replay them on (else restore replays)."""
        if self.task is None or self._ctx is None or self._last_obs is None or self._ex is None:
            raise ConfigError("snapshot() needs an episode; call reset(task) first")
        if self._done:
            raise ConfigError("snapshot() of an episode that is over: there is nothing left to explore from it")
        t0 = time.perf_counter()
        sid = None
        if self.task.local and self.task.protocol:
            # the state the page was rendered from, where actions on the page since must be replayed on it
            sid = self._doc_sid if self._since_nav else await self._fork(None)
        hist = await self._call(self._cdp.send("Page.getNavigationHistory"), "CDP Page.getNavigationHistory")
        first = self._ex.first_history_index or 0
        urls = tuple(e["url"] for e in hist["entries"][first:hist["currentIndex"] + 1])
        key = await self.state_key()
        return Snapshot(task=self.task, obs=self._last_obs, step=self._step, actions=tuple(self._actions),
                        since_nav=tuple(self._since_nav), history=tuple(self._history), doc_url=self._doc_url,
                        doc_start_id=self._doc_start_id, history_urls=urls, sid=sid, state_key=key,
                        timings={"snapshot": time.perf_counter() - t0})

    async def restore(self, snap: Snapshot, method: str = "auto") -> Observation:
        """Return to ``snap`` in a fresh context; its observation (the same element ids) is returned.

        ``fork`` (REAL-local): the site's copy of the state, the page's document reopened, the actions on it
        replayed, then checked against the snapshot; ``replay``: reset and every action again. ``auto``: fork where
        the snapshot has one, falling back to replay if the fork is gone or does not match."""
        if method not in RESTORE_METHODS:
            raise ConfigError(f"restore method must be one of {RESTORE_METHODS}, got {method!r}")
        t0 = time.perf_counter()
        why = None
        if method != "replay" and snap.forkable:
            self._deadline = time.monotonic() + self.episode_timeout_s if self.episode_timeout_s else None
            generation = self.pool.generation
            try:
                obs = await asyncio.wait_for(self._restore_fork(snap), self._reset_limit() +
                                             len(snap.since_nav) * self._step_limit(A.Wait(0)))
                self.restore_timings = {"method": "fork", "total": time.perf_counter() - t0}
                return obs
            except (BrowserStuck, TimeoutError) as e:
                why = str(e) or "restore did not finish in time"
                self._forget_context()
                await self.pool.restart(generation, why)
            except (SiteError, BrowserError) as e:
                why = str(e)
                await self._close_context()
            if method == "fork":
                raise RestoreDiverged(f"restore of {snap.task.id} at step {snap.step} by fork failed: {why}")
            log.info("restore by fork failed (%s); replaying %d actions", why, len(snap.actions))
        elif method == "fork":
            raise ConfigError(f"snapshot of {snap.task.id} has no fork (REAL-local sites only); use replay")
        obs = await self._restore_replay(snap)
        self.restore_timings = {"method": "replay", "total": time.perf_counter() - t0, "fork_failed": why}
        return obs

    async def _fork(self, sid: str | None) -> str:
        """The site's copy of a session (``sid``, or this context's own) under a new id."""
        url = f"{self.task.base_url}/__halo/fork" + (f"?sid={sid}" if sid else "")
        try:
            resp = await asyncio.wait_for(self._ctx.request.get(url, timeout=5000), timeout=6)
            body = await resp.json()
        except Exception as e:
            raise SiteError(f"{url}: {short_error(e)}") from e
        if not resp.ok:
            raise SiteError(f"{url} answered HTTP {resp.status}: {body.get('error')}")
        self._session_cookie = body["cookie"]
        return body["sid"]

    async def _use_session(self, sid: str) -> None:
        await self._call(self._ctx.add_cookies([{"name": self._session_cookie, "value": sid,
                                                 "url": self.task.base_url, "httpOnly": True,
                                                 "sameSite": "Lax"}]), "add_cookies")

    async def _restore_fork(self, snap: Snapshot) -> Observation:
        task = snap.task
        await self._open_context(task)
        if snap.doc_url in ("", "about:blank"):
            raise RestoreDiverged("the snapshot's page has no document to reopen")
        own = await self._fork(snap.sid)
        urls = [u for i, u in enumerate(snap.history_urls[:-1]) if i == 0 or u != snap.history_urls[i - 1]]
        if urls:  # rebuild the tab's history (go_back must work as it did) on a scratch copy of the state
            await self._use_session(await self._fork(snap.sid))
            for u in urls:
                await self._goto(self._page, u)
        await self._use_session(own)
        resp = await self._goto(self._page, snap.doc_url)
        if resp is not None and resp.status >= 400:
            raise SiteError(f"{snap.doc_url} answered HTTP {resp.status}")
        hist = await self._call(self._cdp.send("Page.getNavigationHistory"), "CDP Page.getNavigationHistory")
        await self._make_executor(task, first=hist["currentIndex"] - len(urls))
        self._next_id = snap.doc_start_id
        obs, _ = await self._observe(None)
        doc = self._obs_doc
        self._step = snap.step - len(snap.since_nav)
        self._finish_read = None  # another branch's reads are not this state's (a replayed step's read is)
        for a in snap.since_nav:  # UI state that lives only in the page: the same actions on the same document
            res = await self._step_bounded(a, StepInfo(), time.perf_counter())
            if res.info.errored or res.done or self._obs_doc != doc:
                raise RestoreDiverged(f"replaying {a.describe()} on {snap.doc_url} "
                                      f"{'left the page' if self._obs_doc != doc else res.info.error}")
            obs = res.observation
        self._actions[:] = list(snap.actions)
        self._since_nav[:] = list(snap.since_nav)
        self._history.clear()
        self._history.extend(snap.history)
        self._step = snap.step
        obs = dataclasses.replace(obs, step=snap.step, last_actions=snap.history,
                                  last_action_error=snap.obs.last_action_error)
        self._last_obs = obs
        differs = same_page(snap.obs, obs)
        if differs is None and snap.state_key is not None and await self.state_key() != snap.state_key:
            differs = "the site's state key differs"
        if differs:
            raise RestoreDiverged(f"restored page of {task.id} at step {snap.step} differs: {differs}")
        return obs

    async def _restore_replay(self, snap: Snapshot) -> Observation:
        obs = await self.reset(snap.task)
        for i, a in enumerate(snap.actions):
            res = await self.step(a)
            if res.info.errored or res.done:
                raise RestoreDiverged(f"replay of {snap.task.id} ended at action {i + 1} of {len(snap.actions)}: "
                                      f"{res.info.error or 'the episode ended'}")
            obs = res.observation
        if (differs := same_page(snap.obs, obs)) is not None:
            log.warning("replay of %s to step %d: %s (the site is not deterministic here)", snap.task.id,
                        snap.step, differs)
        return obs

    # ---------------------------------------------------------------- browser events
    def _on_crash(self, _page: Any) -> None:
        self._crashed = True

    def _on_page(self, page: Any) -> None:
        if not self._opening_page and page is not self._page and page is not self._bg:
            self._popups.append(page)
            self._popup_arrived.set()
            if self._ctx is not None and self._guard is not None:
                spawn(self._popup_guards, guard_popup(self._ctx, page, self._guard.origin))

    def _on_nav_requested(self, event: dict[str, Any]) -> None:
        if event.get("disposition", "currentTab") == "currentTab" and \
                event.get("navigationType") not in ("sameDocument", "historySameDocument"):
            self._loading.set()

    def _dead(self) -> bool:
        return self._crashed or not self.pool.alive or self._page is None or self._page.is_closed()

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

    async def _observe(self, error: str | None) -> tuple[Observation, dict[str, float]]:
        page = self._page
        start_id = self._next_id
        for attempt in (1, 2, 3):
            try:
                snap = await asyncio.wait_for(
                    snapshot(page, self._next_id, self.image_format, self.jpeg_quality, self._cdp,
                             capture_scale(self.screenshot_max_pixels)),
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
        if snap.url.startswith("http"):
            self._origins.add(origin_of(snap.url))
        if snap.tree.doc != self._obs_doc:  # the first read of a new document: restore() reopens it from here
            self._obs_doc, self._doc_url, self._doc_start_id = snap.tree.doc, snap.url, start_id
            self._since_nav.clear()
            self._doc_sid = None
            if self.branchable and self.task.local and self.task.protocol:
                with contextlib.suppress(HaloError):  # no copy: snapshots of this page restore by replay
                    self._doc_sid = await self._fork(None)
        obs = Observation(screenshot=snap.screenshot, image_format=self.image_format, axtree=snap.tree.text,
                          elements=snap.tree.elements, url=snap.url, goal=self.task.goal, step=self._step,
                          last_actions=tuple(self._history), last_action_error=error, viewport=VIEWPORT,
                          task_id=self.task.id, can_go_back=await self._can_go_back())
        self._last_obs = obs
        return obs, snap.timings

    async def _can_go_back(self) -> bool:
        """``go_back`` would stay in the episode: the tab's history has an entry after the episode's first page."""
        ex = self._ex
        if self._step == 0:
            return False
        if ex is None or ex.first_history_index is None or self._cdp is None:
            return True  # no bound known: go_back is offered and the executor says if it fails
        h = await self._call(self._cdp.send("Page.getNavigationHistory"), "CDP Page.getNavigationHistory")
        return h["currentIndex"] > ex.first_history_index

    # ---------------------------------------------------------------- REAL's /finish and grading
    async def finish_state(self) -> dict[str, Any]:
        """REAL's ``/finish`` JSON for this episode: on REAL-local ``/finish.json`` through the context's request
        client (the same payload, no page load); elsewhere (or ``real_setup="tab"``) agisdk's ``get_finish_json``:
        reload ``/finish`` in the background tab, parse the JSON inside ``<pre>``. Raises ``SiteError`` if the site
        does not answer as REAL does."""
        if self.task is None or self._ctx is None:
            raise ConfigError("finish_state() needs an episode; call reset(task) first")
        if not self.task.protocol:
            raise ConfigError(f"task {self.task.id} is a plain page: it has no /finish")
        if self.task.local and self.real_setup == "request":  # REAL-local: the same JSON, without a page load
            url = f"{self.task.base_url}/finish.json"
            try:
                resp = await asyncio.wait_for(self._get(url, self.nav_timeout_ms), 2 * (self.nav_timeout_ms / 1000 + 5))
                if resp.status >= 400:
                    raise SiteError(f"{url} answered HTTP {resp.status}")
                state = await asyncio.wait_for(resp.json(), self.action_timeout_ms / 1000 + 5)
            except SiteError:
                raise
            except Exception as e:
                raise SiteError(f"could not read {url}: {short_error(e)}") from e
            if not isinstance(state, dict):
                raise SiteError(f"{url} held {type(state).__name__}, not a JSON object")
            return state
        url = f"{self.task.base_url}/finish"
        try:
            if self._bg is None or self._bg.is_closed():
                self._bg = await self._call(self._new_page(), "new_page")
            resp = await self._goto(self._bg, url)
            if resp is not None and resp.status >= 400:
                raise SiteError(f"{url} answered HTTP {resp.status}")
            if not self.task.local:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self._bg.wait_for_load_state("networkidle", timeout=5000), 10)
            text = await asyncio.wait_for(self._bg.locator("pre").first.inner_text(timeout=self.action_timeout_ms),
                                          self.action_timeout_ms / 1000 + 5)
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
        self._prepare_next()  # the page is observed and the state read: the tab clears while REAL's scripts run
        if not getattr(self.task, "graded", bool(self.task.eval_scripts)):
            return 0.0
        from halo.tasks.real import grade

        response = getattr(action, "text", "") or "Done"
        try:
            g = await asyncio.to_thread(grade, self.task, state, response)
        except Exception as e:  # agisdk itself failed: not the agent's doing
            info.error, info.errored = f"grading failed: {type(e).__name__}: {e}", True
            return 0.0
        info.timings["grade"] = time.perf_counter() - t1
        info.grade = g
        return g.reward

    async def _validate(self, info: StepInfo) -> tuple[float, bool]:
        """A family's checks on the state after a non-terminal step: success ends the episode (graded, reward 1);
        anything else goes on. Checks on the final message cannot pass here, so families that ask for an answer
        still end on the agent's message."""
        state = await self.finish_json()
        if state is None:
            return 0.0, False
        from halo.tasks.families import grade_family_task

        g = grade_family_task(self.task, state, "")
        if not g.success:
            return 0.0, False
        info.grade = g
        self._prepare_next()
        return g.reward, True

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

    async def finish_json(self) -> dict[str, Any] | None:
        """REAL-local's ``/finish`` JSON read through the context's own request client (no page load, the agent's
        tabs untouched): what a task family's progress reads after each step. None where it cannot be read."""
        if self.task is None or self._ctx is None or not self.task.local or not self.task.protocol:
            return None
        if self._finish_read is not None and self._finish_read[0] == self._step:
            return self._finish_read[1]  # read once per step: validation and progress share it
        try:
            resp = await asyncio.wait_for(self._get(f"{self.task.base_url}/finish.json", 5000), timeout=12)
            state = await resp.json() if resp.ok else None
        except Exception:  # progress is shaping: an unreadable state pays nothing, it never fails the step
            return None
        if state is not None:
            self._finish_read = (self._step, state)
        return state

    async def state_key(self) -> str | None:
        """A key of the current state: REAL-local's hash of the session's app state, plus the page's URL. Equal keys,
        equal states (GiGPO groups steps by it); None where the site has no such endpoint (REAL's remote sites)."""
        if self.task is None or self._ctx is None or self._page is None or not self.task.local or \
                not self.task.protocol:
            return None
        try:
            resp = await asyncio.wait_for(self._get(f"{self.task.base_url}/__halo/state_key", 5000),
                                          timeout=12)
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
