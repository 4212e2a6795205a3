"""Browsers for Tinker rollouts: one async Playwright and one Chromium per event loop, at most N contexts at once.

tinker-cookbook's training loop runs every group of a batch concurrently, each group its N envs; the browser
count must not follow. Each env takes a slot before its episode starts and gives it back when the episode ends
(or when its group is cleaned up), so at most ``max_concurrent`` browser contexts are open whatever the batch
size. Builders stay picklable: the pool is found (or started) lazily, in the loop that runs the rollouts.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

from halo.env.browser import BrowserPool
from halo.errors import ConfigError

DEFAULT_MAX_CONCURRENT = 8


@dataclass
class BrowserSlots:
    """A started ``BrowserPool`` and a semaphore bounding the envs using it."""

    pool: BrowserPool
    max_concurrent: int
    semaphore: asyncio.Semaphore
    in_use: int = 0
    peak: int = 0  # most slots held at once (tests and metrics)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def acquire(self) -> None:
        await self.semaphore.acquire()
        self.in_use += 1
        self.peak = max(self.peak, self.in_use)

    def release(self) -> None:
        self.in_use -= 1
        self.semaphore.release()


_SLOTS: dict[tuple[int, bool, int], BrowserSlots] = {}
_START_LOCKS: dict[int, asyncio.Lock] = {}


async def browser_slots(max_concurrent: int = DEFAULT_MAX_CONCURRENT, headless: bool = True) -> BrowserSlots:
    """The slots of the running event loop for this limit (started on first use; one run has one limit)."""
    if max_concurrent < 1:
        raise ConfigError(f"max_concurrent_browsers must be >= 1, got {max_concurrent}")
    loop = asyncio.get_running_loop()
    key = (id(loop), headless, max_concurrent)
    lock = _START_LOCKS.setdefault(id(loop), asyncio.Lock())
    async with lock:
        slots = _SLOTS.get(key)
        if slots is None:
            pool = BrowserPool(headless=headless)
            await pool.start()
            slots = _SLOTS[key] = BrowserSlots(pool, max_concurrent, asyncio.Semaphore(max_concurrent))
    return slots


async def close_browser_slots() -> None:
    """Close the pools of the running loop (end of a training run, end of a test session)."""
    loop_id = id(asyncio.get_running_loop())
    for key in [k for k in _SLOTS if k[0] == loop_id]:
        slots = _SLOTS.pop(key)
        with contextlib.suppress(Exception):
            await slots.pool.close()
    _START_LOCKS.pop(loop_id, None)
