"""A BrowserEnv's browser context over an episode's life: a clean one opened for each episode, REAL's setup
replayed in it, cleared for the next episode (or closed), and the main tab's events watched.

Between two REAL-local episodes (where the agent can only ever have been on loopback origins) the env's own
context is recycled rather than replaced: its extra tabs closed, the main tab on ``about:blank`` with its history
reset, the storage of every origin the last episode visited and every cookie cleared, so nothing of the last
episode is left (the renderer process and the site's warm caches stay, which is what makes resets cheap).
Every call to Chromium here has a deadline (``bounded_call``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from halo.env.browser import BROWSER_CALL_TIMEOUT_S, BrowserStuck
from halo.env.executor import Executor, short_error
from halo.env.guard import TabGuard, guard_popup, origin_of, spawn
from halo.env.observe import js
from halo.env.types import VIEWPORT
from halo.errors import BrowserError, HaloError, SiteError

log = logging.getLogger(__name__)

# a request's connection closed under it (the site's keep-alive socket closed as the request went out): retried once
DROPPED = ("ECONNRESET", "socket hang up", "EPIPE")
# what a recycled context's tab clears per origin: everything but cookies (the site session stays readable until the
# next reset, which clears every cookie)
STORAGE_TYPES = ("local_storage,indexeddb,cache_storage,service_workers,file_systems,websql,shader_cache,"
                 "interest_groups,shared_storage,storage_buckets")


async def bounded_call(aw: Any, what: str, timeout: float | None = None, browser: bool = True) -> Any:
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


async def page_crashed(page: Any, timeout: float = 2.0) -> bool:
    """Whether ``page``'s renderer is gone (killed, out of memory): a load that failed under it is the browser's
    failure, not the site's. Asked by evaluating ``1`` in the page, which a crashed target refuses at once."""
    try:
        await asyncio.wait_for(page.evaluate("1"), timeout)
    except TimeoutError:
        return False  # busy, not gone
    except Exception as e:  # noqa: BLE001 - any refusal: read what it says
        return "crash" in str(e).lower()
    return False


async def request_get(ctx: Any, url: str, timeout_ms: float) -> Any:
    """GET through the context's request client, once more if the connection dropped under it (a keep-alive
    socket the server closed as the request went out: ECONNRESET, seen under load). Every such GET here reads
    state or resets it to the same thing, so a second try is safe."""
    for attempt in (1, 2):
        try:
            return await ctx.request.get(url, timeout=timeout_ms)
        except Exception as e:
            if attempt == 2 or not any(m in str(e) for m in DROPPED):
                raise
            log.info("GET %s: %s; trying once more", url, short_error(e))
    raise AssertionError("unreachable")


class ContextLifecycle:
    """The part of ``BrowserEnv`` (halo.env.env) that owns its browser context: opening or recycling it for an
    episode, REAL's setup in it, page loads, clearing it after the episode, closing it; and the main tab's events
    (navigations, popups, crashes) that the step's settle waits on. The state is the env's own (``_ctx``,
    ``_page``, ``_bg``, ``_cdp``, ``_guard``, ...), set in ``BrowserEnv.__init__``."""

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
        await bounded_call(ctx.add_init_script(js("instrument.js")), "add_init_script")
        self._page = await bounded_call(self._new_page(), "new_page")
        self._cdp = await bounded_call(ctx.new_cdp_session(self._page), "new_cdp_session")
        # before the tab loads anything: /__halo/ never, nothing off the task's origin where it is kept on it
        self._guard = TabGuard(self._cdp)
        self._watch()
        await bounded_call(self._cdp.send("Page.enable"), "CDP Page.enable")
        await bounded_call(self._guard.start(self._kept_on(task)), "CDP guard")

    def _watch(self) -> None:
        """Route the context's events to this env: crashes, popups, and navigation and new-window requests, which
        reach us before the input event that caused them returns, so the settle knows what to wait for without
        sleeping. A kept page's context changes hands (``_unwatch`` in the env that made it, then this)."""
        cdp = self._cdp
        self._handlers = [(self._ctx, "page", self._on_page), (self._page, "crash", self._on_crash),
                          (cdp, "Page.frameRequestedNavigation", self._on_nav_requested),
                          (cdp, "Page.frameStartedNavigating", self._on_nav_requested),
                          (cdp, "Page.domContentEventFired", self._on_loaded),
                          (cdp, "Page.frameStoppedLoading", self._on_loaded),
                          (cdp, "Page.windowOpen", self._on_window_open)]
        for emitter, event, fn in self._handlers:
            emitter.on(event, fn)
        self._guard.on_blocked = self._blocked.append

    def _unwatch(self) -> None:
        """This env hears nothing more from its context (it is handed to another env: halo.env.branch)."""
        for emitter, event, fn in self._handlers:
            emitter.remove_listener(event, fn)
        self._handlers = []
        if self._guard is not None:
            self._guard.on_blocked = None

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
        await asyncio.gather(bounded_call(self._ctx.clear_cookies(), "clear_cookies"),
                             bounded_call(guard.keep_on(self._kept_on(task)), "CDP guard"))

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
        await bounded_call(page.goto("about:blank", wait_until="commit", timeout=BROWSER_CALL_TIMEOUT_S * 1000),
                           "goto about:blank")
        origins = self._origins | {origin_of(self.task.base_url)} if self.task else set(self._origins)
        self._origins = set()
        await asyncio.gather(  # independent of each other: one round trip's wait for all
            *(bounded_call(self._cdp.send("Storage.clearDataForOrigin", {"origin": o, "storageTypes": STORAGE_TYPES}),
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
                await bounded_call(self._cdp.send("Page.resetNavigationHistory"), "CDP Page.resetNavigationHistory",
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
            first = (await bounded_call(self._cdp.send("Page.getNavigationHistory"), "CDP Page.getNavigationHistory")
                     )["currentIndex"]
        self._ex = Executor(self._page, timeout_ms=self.action_timeout_ms, viewport=VIEWPORT,
                            allowed_origin=origin_of(task.base_url) if self._blocks(task) else None, cdp=self._cdp,
                            first_history_index=first)

    async def _local_setup(self, task: Any) -> None:
        """agisdk's setup on REAL-local: ``/config`` through the context's request client, which shares the context's
        cookie jar (the session cookie it sets is the one the site's pages then send). agisdk's read of ``/finish``
        after it changes nothing on REAL-local, so it is left out."""
        url = f"{task.base_url}/config?run_id={self.run_id}&task_id={task.id}&latency=0"
        try:
            resp = await bounded_call(request_get(self._ctx, url, self.nav_timeout_ms), f"GET {url}",
                                      self.nav_timeout_ms / 1000 + 5, browser=False)
        except HaloError:
            raise
        except Exception as e:
            raise SiteError(f"{url} did not answer ({short_error(e)}); is the site running (`halo sites`)?") from e
        if resp.status >= 400:
            raise SiteError(f"{url} answered HTTP {resp.status}: "
                            f"{(await bounded_call(resp.text(), 'body', browser=False))[:200]}")

    async def _real_setup(self, task: Any) -> None:
        """agisdk's ``AbstractWebCloneTask.setup``: background tab /config, then /finish; main tab to the front."""
        bg = self._bg = await bounded_call(self._new_page(), "new_page")
        url = f"{task.base_url}/config?run_id={self.run_id}&task_id={task.id}&latency=0"
        resp = await self._goto(bg, url)
        if resp is not None and resp.status >= 400:
            raise SiteError(f"{url} answered HTTP {resp.status}: "
                            f"{(await bounded_call(resp.text(), 'body', browser=False))[:200]}")
        if not task.local:  # REAL's remote apps set up state from JS: wait as agisdk does (bounded)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(bg.wait_for_load_state("networkidle", timeout=10_000), 15)
        await self._goto(bg, f"{task.base_url}/finish")
        await bounded_call(self._page.bring_to_front(), "bring_to_front")

    async def _goto(self, page: Any, url: str) -> Any:
        """A page load bounded by Playwright's timeout (a slow or dead site: ``SiteError`` naming the URL) and by
        ours (a stuck browser: ``BrowserStuck``)."""
        try:
            return await bounded_call(page.goto(url, wait_until="load", timeout=self.nav_timeout_ms), f"goto {url}",
                                      self.nav_timeout_ms / 1000 + 5, browser=False)
        except HaloError:
            raise
        except Exception as e:
            if not self.pool.alive or page.is_closed():
                raise  # the browser died under it: reset relaunches it
            if await page_crashed(page):
                raise BrowserError(f"the page's renderer crashed while loading {url} ({short_error(e)}); "
                                   f"Chromium is short of memory or was killed: check free memory and /dev/shm, "
                                   f"run fewer episodes at once, and run `halo smoke`") from e
            raise SiteError(f"{url} did not load ({short_error(e)}); is the site running (`halo sites`)?") from e

    async def _new_page(self) -> Any:
        self._opening_page = True
        try:
            return await self._ctx.new_page()
        finally:
            self._opening_page = False

    async def close(self) -> None:
        if self._kept is not None:  # the kept pages of its snapshots (halo.env.keep)
            await self._kept.close()
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
        self._handlers = []
        if self._prep is not None:
            self._prep.cancel()
            self._prep = None
        return ctx

    # ---------------------------------------------------------------- browser events
    def _on_crash(self, _page: Any) -> None:
        self._crashed = True

    def _on_page(self, page: Any) -> None:
        if not self._opening_page and page is not self._page and page is not self._bg:
            self._popups.append(page)
            self._popup_arrived.set()
            if self._ctx is not None and self._guard is not None:
                spawn(self._popup_guards, guard_popup(self._ctx, page, self._guard.origin))

    def _on_loaded(self, _event: Any) -> None:
        self._loaded.set()

    def _on_window_open(self, _event: Any) -> None:
        self._popup_expected.set()

    def _on_nav_requested(self, event: dict[str, Any]) -> None:
        if event.get("disposition", "currentTab") == "currentTab" and \
                event.get("navigationType") not in ("sameDocument", "historySameDocument"):
            self._loading.set()

    def _dead(self) -> bool:
        return self._crashed or not self.pool.alive or self._page is None or self._page.is_closed()
