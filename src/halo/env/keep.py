"""Kept pages (issue 41): live copies of a snapshot's state, so that a restore switches tabs instead of loading a page.

A restore by fork pays a page load (a context, the tab's history rebuilt, the document reopened, the page-only
actions replayed): about what replaying a short episode costs, so every MCTS simulation cost about a page load. A kept
page is that same work done ahead, in the background, by a spare env of its own (its own context and cookie jar,
holding its own copy of the site's session, so nothing another branch does reaches it), checked against the
snapshot as a fork is. A restore takes it over (``Branching._adopt``): the spare's context, tab and episode state
become the restoring env's, checked once more by the site's state key. A kept page serves one restore (the branch
then changes it); the restore that takes one starts its replacement.

Copies are made only for states the caller will come back to: as it leaves one (``keep_page``) or restores one
(``restore(again=True)``: a state's first restore reopens its page and asks for a copy, every later one takes the
copy made meanwhile). MCTS asks for them for nodes with untried edges left: most nodes of a search tree are never
returned to, and a copy no one takes is a page load spent for nothing. ``KeptPages``
holds up to ``cap`` copies for the snapshots of one env, the least recently restored snapshot's evicted first; a
snapshot that is gone (its search tree dropped) loses its copy at the next ``keep``. Each copy is a browser context
with the site's page in it. The context a restore lets go of (and an evicted copy's) is recycled by the next copy, as
a reset recycles an env's context: no new context or renderer per copy.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from halo.env.guard import spawn

SHELLS = 2  # contexts let go of, held for the next copies to recycle


@dataclass(eq=False)
class _Kept:
    """The copy of one snapshot (held by identity: equal snapshots of two episodes are two states)."""

    ref: weakref.ref
    copy: asyncio.Task | None = None  # ready or on its way; None once taken or evicted
    used: int = 0  # when it was last kept or taken (``KeptPages._clock``): the least recent is evicted first


@dataclass(eq=False)
class KeptPages:
    """Up to ``cap`` live copies of snapshot states; ``make(snapshot)`` builds one (a spare env at that state, whose
    ``close()`` frees it). ``prepare_s``: the wall time of each copy made, the work a kept restore no longer waits
    for."""

    cap: int
    make: Callable[[Any, Any], Awaitable[Any]]
    prepare_s: list[float] = field(default_factory=list)
    shells: list[Any] = field(default_factory=list)  # contexts let go of, for the next copies to recycle (``give``)
    _by_snap: dict[int, _Kept] = field(default_factory=dict)
    _clock: Any = field(default_factory=itertools.count)
    _closing: set[asyncio.Task] = field(default_factory=set)
    closed: bool = False

    def __len__(self) -> int:
        return sum(k.copy is not None for k in self._by_snap.values())

    def keep(self, snap: Any) -> None:
        """Start a copy of ``snap``'s state in the background, unless it has one (ready or on its way) or the cap
        leaves no room once the least recently restored snapshots' copies are evicted."""
        if self.closed or self.cap <= 0:
            return
        for key, k in list(self._by_snap.items()):  # snapshots that are gone: their copies serve no one
            if k.ref() is None:
                self._drop(key)
        k = self._entry(snap)
        k.used = next(self._clock)
        if k.copy is not None:
            return
        while len(self) >= self.cap:
            victims = sorted((o for o in self._by_snap.values() if o.copy is not None and o is not k),
                             key=lambda o: o.used)
            if not victims:
                return
            self._discard(victims[0].copy)
            victims[0].copy = None
        k.copy = asyncio.get_running_loop().create_task(self._prepare(snap))
        k.copy.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved: a failed copy is only skipped

    def take(self, snap: Any) -> asyncio.Task | None:
        """The copy of ``snap``'s state (ready or still being made), now the caller's; None if there is none."""
        k = self._by_snap.get(id(snap))
        if k is None or k.ref() is not snap or k.copy is None:
            return None
        k.used = next(self._clock)
        task, k.copy = k.copy, None
        return task

    def give(self, shell: Any) -> None:
        """A spare env holding a context someone let go of: the next copy recycles it instead of opening a new
        context (a new renderer), beyond ``SHELLS`` it is closed."""
        if self.closed or len(self.shells) >= SHELLS:
            spawn(self._closing, discard(shell))
        else:
            self.shells.append(shell)

    async def settled(self) -> None:
        """Every copy on its way is made (or failed): for measuring restores with nothing else running."""
        tasks = [k.copy for k in self._by_snap.values() if k.copy is not None and not k.copy.done()]
        await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        """Free every copy (their contexts closed)."""
        self.closed = True
        for key in list(self._by_snap):
            self._drop(key)
        while self.shells:
            spawn(self._closing, discard(self.shells.pop()))
        await asyncio.gather(*self._closing, return_exceptions=True)

    # ------------------------------------------------------------ pieces
    def _entry(self, snap: Any) -> _Kept:
        k = self._by_snap.get(id(snap))
        if k is None or k.ref() is not snap:  # an id reused by a new snapshot: the old one's copies are not its
            if k is not None:
                self._drop(id(snap))
            k = self._by_snap[id(snap)] = _Kept(ref=weakref.ref(snap))
        return k

    async def _prepare(self, snap: Any) -> Any:
        t0 = time.perf_counter()
        spare = await self.make(snap, self.shells.pop() if self.shells else None)
        self.prepare_s.append(time.perf_counter() - t0)
        return spare

    def _drop(self, key: int) -> None:
        k = self._by_snap.pop(key)
        if k.copy is not None:
            self._discard(k.copy)

    def _discard(self, task: asyncio.Task) -> None:
        """A copy no one will take: its context recycled for the next copy, or closed (one on its way is
        cancelled; ``make`` closes it)."""
        if not task.done():
            task.cancel()
        elif not task.cancelled() and task.exception() is None:
            self.give(task.result())


async def discard(spare: Any) -> None:
    with contextlib.suppress(Exception):
        await spare.close()
