"""KeptPages (halo.env.keep) without a browser: one copy per restored snapshot, taken once, the cap kept by evicting
the least recently restored snapshot's copy (its context recycled by the next copy), a dropped snapshot's copy
freed, a few contexts let go of held for recycling, nothing left open after close."""

from __future__ import annotations

import asyncio
import gc

from halo.env.keep import KeptPages


class Snap:
    """A snapshot stand-in (held by identity, as EpisodeSnapshot is)."""

    def __init__(self, name: str):
        self.name = name


class Spare:
    def __init__(self, snap: Snap):
        self.name, self.closed = snap.name, False

    async def close(self) -> None:
        self.closed = True


class Maker:
    """Makes a copy, recycling the shell it is given (as ``BrowserEnv._keep_copy`` recycles its context)."""

    def __init__(self):
        self.made: list[Spare] = []
        self.recycled: list[str] = []

    async def __call__(self, snap: Snap, shell: Spare | None) -> Spare:
        await asyncio.sleep(0)
        if shell is not None:
            self.recycled.append(shell.name)
            shell.name = snap.name
            return shell
        self.made.append(Spare(snap))
        return self.made[-1]


async def test_one_copy_per_snapshot_taken_once():
    make = Maker()
    kept = KeptPages(4, make)
    a, b = Snap("a"), Snap("b")
    assert kept.take(a) is None
    kept.keep(a)
    kept.keep(a)  # already has one on its way
    await kept.settled()
    assert len(make.made) == 1 and len(kept) == 1 and len(kept.prepare_s) == 1
    assert kept.take(b) is None  # another snapshot's copy is never given out
    task = kept.take(a)
    assert (await task).name == "a"
    assert kept.take(a) is None and len(kept) == 0  # used once


async def test_the_cap_evicts_the_least_recently_restored_and_recycles_it():
    make = Maker()
    kept = KeptPages(2, make)
    a, b, c = Snap("a"), Snap("b"), Snap("c")
    kept.keep(a)
    kept.keep(b)
    await kept.settled()
    kept.keep(a)  # a restored again: b is now the least recent
    kept.keep(c)  # evicts b's copy, whose context c's copy recycles
    await kept.settled()
    assert len(kept) == 2 and kept.take(b) is None
    assert make.recycled == ["b"] and len(make.made) == 2 and not any(s.closed for s in make.made)
    assert (await kept.take(a)).name == "a" and (await kept.take(c)).name == "c"


async def test_contexts_let_go_of_are_recycled_up_to_a_few_then_closed():
    make = Maker()
    kept = KeptPages(4, make)
    shells = [Spare(Snap(f"old{i}")) for i in range(3)]
    for sh in shells:
        kept.give(sh)
    await asyncio.sleep(0.01)
    assert [sh.closed for sh in shells] == [False, False, True]  # two held, the third closed
    a = Snap("a")
    kept.keep(a)
    await kept.settled()
    assert make.recycled == ["old1"] and not make.made
    await kept.close()
    assert all(sh.closed for sh in shells)


async def test_a_copy_on_its_way_is_cancelled_when_evicted():
    started = asyncio.Event()

    async def slow(snap, shell):
        started.set()
        await asyncio.sleep(60)

    kept = KeptPages(1, slow)
    a, b = Snap("a"), Snap("b")
    kept.keep(a)
    await started.wait()
    first = kept._by_snap[id(a)].copy
    kept.keep(b)
    await asyncio.sleep(0)
    assert first.cancelled() or first.cancelling()
    await kept.close()


async def test_a_dropped_snapshot_frees_its_copy_and_close_frees_all():
    make = Maker()
    kept = KeptPages(4, make)
    a, b = Snap("a"), Snap("b")
    kept.keep(a)
    kept.keep(b)
    await kept.settled()
    del a
    gc.collect()
    kept.keep(b)  # the next keep drops what belonged to snapshots that are gone (its context: for recycling)
    assert len(kept) == 1 and [s.name for s in kept.shells] == ["a"]
    await kept.close()
    assert all(s.closed for s in make.made) and len(kept) == 0
    kept.keep(b)  # closed: keeps nothing more
    assert len(kept) == 0
