"""Branchable episodes: what ``BrowserEnv.snapshot()`` records (``EpisodeSnapshot``) and how ``restore()`` returns to
it (``Branching``).

Two ways back (MCTS explores many branches from one state, so restoring must be cheap):
- **fork** (REAL-local): the site copies the session's server-side state under a new session id
  (``/__halo/fork``, reached only by the env's request client); a fresh context gets that session, rebuilds the
  tab's history, opens the URL of the page's document and replays the actions taken on that document since it
  loaded (an open dialog, typed text: UI state that lives only in the page);
- **replay** (REAL's remote sites, or when a fork is gone): reset the task and replay every action from the start.

A restore by fork is checked against the snapshot (same element ids, roles and names, same state key); where it
differs, the env falls back to replay.
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
from halo.env.types import Observation, StepInfo
from halo.errors import BrowserError, ConfigError, SiteError

log = logging.getLogger(__name__)

RESTORE_METHODS = ("auto", "fork", "replay")


class RestoreDiverged(SiteError):
    """A restored page does not match its snapshot (the site or the page is not deterministic there)."""


@dataclass(frozen=True)
class EpisodeSnapshot:
    """An episode's state, restorable any number of times, in any ``BrowserEnv`` on the same sites.

    ``actions``: every action since reset (replay); ``since_nav``: those taken on the current document (fork);
    ``sid``: the site's frozen copy of the session (REAL-local only); ``obs``: the observation at the state."""

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

    @property
    def forkable(self) -> bool:
        return self.sid is not None


def same_page(a: Observation, b: Observation) -> str | None:
    """Where two observations of one state differ (element ids, roles, names, URL), or None."""
    if a.url != b.url:
        return f"url {b.url} != {a.url}"
    ea = {k: (e.role, e.name) for k, e in a.elements.items()}
    eb = {k: (e.role, e.name) for k, e in b.elements.items()}
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
                               state_key=key, timings={"snapshot": time.perf_counter() - t0})

    async def restore(self, snap: EpisodeSnapshot, method: str = "auto") -> Observation:
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
                                             len(snap.since_nav) * self._step_limit(Wait(0)))
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
