"""Branchable episodes: what ``BrowserEnv.snapshot()`` records (``EpisodeSnapshot``) and how ``restore()`` returns to
it (``Branching``).

Two ways back (MCTS explores many branches from one state, so restoring must be cheap):
- **fork** (REAL-local): the site copies the session's server-side state under a new session id
  (``/__halo/fork``, reached only by the env's request client); a fresh context gets that session, rebuilds the
  tab's history, opens the URL of the page's document and replays the actions taken on that document since it
  loaded (an open dialog, typed text: UI state that lives only in the page). On an env with ``keep_pages``, that
  work is done ahead for a state that was restored once: a **kept page** (halo.env.keep), a spare context at the
  state, which the next restore takes over instead of loading the page (a tab switch and one request);
- **replay** (REAL's remote sites, or when a fork is gone): reset the task and replay every action from the start.

A restore by fork is checked against the snapshot (same element ids, roles and names, same state key; a kept page
was checked so when made and its state key is checked again when taken); where it differs, the env falls back to
replay (a kept page that differs: to reopening the page).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from halo.env.actions import Action, Wait
from halo.env.browser import BrowserStuck
from halo.env.context import bounded_call
from halo.env.executor import short_error
from halo.env.guard import spawn
from halo.env.keep import KeptPages, discard
from halo.env.types import Observation, StepInfo
from halo.errors import BrowserError, ConfigError, SiteError

log = logging.getLogger(__name__)

RESTORE_METHODS = ("auto", "fork", "replay")
# what a context let go of takes with it into a spare env, for a kept page to recycle (``_shelve``)
SHELVED = ("task", "_ctx", "_page", "_bg", "_cdp", "_guard", "_ctx_generation", "_origins", "_crashed",
           "_session_cookie")
# what an env takes over from a kept page's spare env: its context and tab, and the episode's state there
ADOPTED = SHELVED + ("_step", "_next_id", "_done", "_finish_read", "_history", "_actions", "_since_nav", "_obs_doc",
                     "_doc_url", "_doc_start_id", "_doc_sid", "_last_obs")


def _same_look(a: Any, b: Any) -> bool:
    """Two envs observe pages alike (a kept page made by one serves the other)."""
    return all(getattr(a, k) == getattr(b, k) for k in ("image_format", "jpeg_quality", "screenshot_max_pixels"))


class RestoreDiverged(SiteError):
    """A restored page does not match its snapshot (the site or the page is not deterministic there)."""


@dataclass(frozen=True)
class EpisodeSnapshot:
    """An episode's state, restorable any number of times, in any ``BrowserEnv`` on the same sites.

    ``actions``: every action since reset (replay); ``since_nav``: those taken on the current document (fork);
    ``sid``: the site's frozen copy of the session (REAL-local only); ``obs``: the observation at the state;
    ``pages``: the kept pages of the env that took it (halo.env.keep), or None."""

    task: Any
    obs: Observation
    step: int
    actions: tuple[Action | dict[str, Any], ...]
    since_nav: tuple[Action, ...]
    history: tuple[str, ...]
    doc_url: str
    doc_start_id: int
    history_urls: tuple[str, ...] = ()
    sid: str | None = None
    state_key: str | None = None
    timings: dict[str, float] = field(default_factory=dict, compare=False)
    pages: Any = field(default=None, compare=False, repr=False)

    @property
    def forkable(self) -> bool:
        return self.sid is not None


def same_page(a: Observation, b: Observation, values: bool = False) -> str | None:
    """Where two observations of one state differ (element ids, roles, names, with ``values`` their values too;
    URL), or None."""
    if a.url != b.url:
        return f"url {b.url} != {a.url}"
    ea = {k: (e.role, e.name, e.value if values else None) for k, e in a.elements.items()}
    eb = {k: (e.role, e.name, e.value if values else None) for k, e in b.elements.items()}
    if ea != eb:
        diff = sorted(set(ea.items()) ^ set(eb.items()))[:4]
        return f"elements differ ({len(ea)} vs {len(eb)}; e.g. {diff})"
    return None


class Branching:
    """The part of ``BrowserEnv`` (halo.env.env) that branches: ``snapshot`` records the episode's state,
    ``restore`` returns to it by fork or replay. Restoring drives the rest of the env: it opens a context
    (halo.env.context), observes (halo.env.observing) and steps."""

    async def snapshot(self) -> EpisodeSnapshot:
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
        hist = await bounded_call(self._cdp.send("Page.getNavigationHistory"), "CDP Page.getNavigationHistory")
        first = self._ex.first_history_index or 0
        urls = tuple(e["url"] for e in hist["entries"][first:hist["currentIndex"] + 1])
        key = await self.state_key()
        return EpisodeSnapshot(task=self.task, obs=self._last_obs, step=self._step, actions=tuple(self._actions),
                               since_nav=tuple(self._since_nav), history=tuple(self._history),
                               doc_url=self._doc_url, doc_start_id=self._doc_start_id, history_urls=urls, sid=sid,
                               state_key=key, timings={"snapshot": time.perf_counter() - t0},
                               pages=self._kept if sid is not None else None)

    async def restore(self, snap: EpisodeSnapshot, method: str = "auto", kept: bool = True,
                      again: bool = True) -> Observation:
        """Return to ``snap`` in a fresh context; its observation (the same element ids) is returned.

        ``fork`` (REAL-local): a kept page of the state taken over where there is one (``kept``; the snapshot's env
        has ``keep_pages``), else the site's copy of the state, the page's document reopened, the actions on it
        replayed, then checked against the snapshot; either way, with ``again`` (the caller will come back here),
        a copy is made in the background for the next restore. ``replay``: reset and every action again.
        ``auto``: fork where the snapshot has one, falling back to replay if the fork is gone or does not match."""
        if method not in RESTORE_METHODS:
            raise ConfigError(f"restore method must be one of {RESTORE_METHODS}, got {method!r}")
        t0 = time.perf_counter()
        why = None
        if method != "replay" and snap.forkable:
            self._deadline = time.monotonic() + self.episode_timeout_s if self.episode_timeout_s else None
            copy = snap.pages.take(snap) if kept and snap.pages is not None else None
            if copy is not None:
                try:
                    obs = await asyncio.wait_for(self._adopt(snap, copy), self._reset_limit())
                    self.restore_timings = {"method": "fork", "kept": True, "total": time.perf_counter() - t0}
                    if again:  # the next restore's copy
                        snap.pages.keep(snap)
                    return obs
                except Exception as e:  # noqa: BLE001 - a kept page only saves time: any failure reopens the page
                    log.info("kept page of %s at step %d not taken (%s); reopening the page", snap.task.id,
                             snap.step, short_error(e))
                    await self._close_context()
            generation = self.pool.generation
            try:
                obs = await asyncio.wait_for(self._restore_fork(snap), self._fork_limit(snap))
                self.restore_timings = {"method": "fork", "kept": False, "total": time.perf_counter() - t0}
                if again and snap.pages is not None:
                    snap.pages.keep(snap)
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

    def keep_page(self, snap: EpisodeSnapshot) -> None:
        """Have a kept page of ``snap`` made in the background (where its env keeps pages): the caller is leaving
        that state and will restore it."""
        if snap.pages is not None:
            snap.pages.keep(snap)

    async def set_keep_pages(self, cap: int) -> None:
        """Up to ``cap`` kept pages (halo.env.keep) for the snapshots taken from now on; 0: none. The copies kept
        so far are freed (an MCTS search sets it as it starts and 0 as it ends: its states are not returned to)."""
        if cap < 0:
            raise ConfigError(f"keep_pages must be >= 0, got {cap}")
        if self._kept is not None:
            await self._kept.close()
        self._kept = KeptPages(cap, self._keep_copy) if cap else None

    def _fork_limit(self, snap: EpisodeSnapshot) -> float:
        return self._reset_limit() + len(snap.since_nav) * self._step_limit(Wait(0))

    def _spare_env(self) -> Any:
        """A new env with this one's settings (for a kept page, halo.env.keep)."""
        return type(self)(self.pool, max_steps=self.max_steps, image_format=self.image_format,
                          jpeg_quality=self.jpeg_quality, block_offsite=self.block_offsite,
                          action_timeout_ms=self.action_timeout_ms, run_id=self.run_id,
                          episode_timeout_s=self.episode_timeout_s, nav_timeout_ms=self.nav_timeout_ms,
                          branchable=self.branchable, reuse_context=self.reuse_context, real_setup=self.real_setup,
                          end_on_success=self.end_on_success, screenshot_max_pixels=self.screenshot_max_pixels)

    async def _keep_copy(self, snap: EpisodeSnapshot, shell: Any = None) -> Any:
        """A kept page of ``snap`` (halo.env.keep): a spare env like this one (``shell``, a context an env let go
        of, recycled where it can be: no new context or renderer), restored there by fork and checked."""
        spare = shell if shell is not None and shell._recyclable(shell.task, snap.task) and \
            _same_look(shell, self) else None
        if spare is None:
            if shell is not None:
                await asyncio.shield(discard(shell))
            spare = self._spare_env()
        try:
            await asyncio.wait_for(spare._restore_fork(snap), spare._fork_limit(snap))
        except BaseException:  # failed or cancelled (evicted): its context is closed with it
            await asyncio.shield(discard(spare))
            raise
        return spare

    def _shelve(self) -> Any:
        """This env's context, let go of: moved into a spare env for a kept page to recycle (None where it cannot
        be recycled; then it is closed without waiting)."""
        if self._ctx is None:
            return None
        shell = self._spare_env()
        self._unwatch()
        for name in SHELVED:
            setattr(shell, name, getattr(self, name))
        self._forget_context()
        self._origins = set()
        shell._watch()
        if not shell._recyclable(shell.task, shell.task):
            spawn(self._popup_guards, discard(shell))
            return None
        return shell

    async def _adopt(self, snap: EpisodeSnapshot, copy: asyncio.Task) -> Observation:
        """Take over a kept page of ``snap``: the spare env's context, tab and episode state become this env's
        (their events now this env's), then the site's state key is checked against the snapshot's."""
        spare = await copy  # one still being made is further along than a new fork
        try:
            if not _same_look(spare, self):
                raise RestoreDiverged("the kept page was observed with other image settings")
            if spare._dead():
                raise BrowserError("the kept page's renderer is gone")
            first = spare._ex.first_history_index
            shell = self._shelve()
            if shell is not None:  # this env's last context: the next copy's
                snap.pages.give(shell)
            spare._unwatch()
            for name in ADOPTED:
                setattr(self, name, getattr(spare, name))
            spare._forget_context()
            self._blocked.clear()
            self._popups.clear()
            self._watch()
            await self._make_executor(self.task, first=first)
            if snap.state_key is not None and await self.state_key() != snap.state_key:
                raise RestoreDiverged(f"kept page of {snap.task.id} at step {snap.step}: the site's state key "
                                      f"differs")
            differs = same_page(snap.obs, self._last_obs, values=True) if self._last_obs else "no observation"
            if differs:
                raise RestoreDiverged(f"kept page of {snap.task.id} at step {snap.step} differs: {differs}")
            return self._last_obs
        finally:
            await spare.close()  # nothing left in it once taken over; all of it where it failed

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
        await bounded_call(self._ctx.add_cookies([{"name": self._session_cookie, "value": sid,
                                                   "url": self.task.base_url, "httpOnly": True,
                                                   "sameSite": "Lax"}]), "add_cookies")

    async def _restore_fork(self, snap: EpisodeSnapshot) -> Observation:
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
        hist = await bounded_call(self._cdp.send("Page.getNavigationHistory"), "CDP Page.getNavigationHistory")
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

    async def _restore_replay(self, snap: EpisodeSnapshot) -> Observation:
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
