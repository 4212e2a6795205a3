"""Asynchronous GRPO (``grpo.max_staleness`` k >= 1): the next iterations' rollouts run while the learner updates.

One producer task runs the iterations' rollouts in order (``GRPOTrainer.roll``: the same groups, refills and
curriculum records as in turn) into a bounded queue; the learner takes them in order (``GRPOTrainer.learn``).

Versions: the adapter after iteration i's update is version i + 1 (a run that starts or resumes at iteration s
samples version s first). The in-process sampler records on every completion the version of the weights that drew
it (``Sample.version``, read under the sampler's lock); the learner's update holds that lock through all its epochs
and publishes the new version before letting it go (``LoRALearner.update_versioned``), so each completion comes from
exactly one version, and an episode that spans an update records the version of each of its steps.

With a vLLM server the sampler is another process: the learner's update publishes nothing to it; the adapter it
saves is hot-loaded under a new versioned name (``rl/lora_sync.LoraSync``, version i + 1 after iteration i's
update) and the sampler's next requests use that name, while requests already sent finish on theirs. Each request
records the version of the name it was sent with, so here too each completion comes from exactly one version and
an episode that spans a sync records each step's. A name is unloaded only once it is no longer current and no
request in flight holds it (episodes take the current name at each step: see ``rl/lora_sync.py``).

With Ray rollout workers (``--ray``) the sampler is elsewhere as well. An in-process mode's policy actor is pushed
the learner's weights with their version after each update (``RayRollouts.sync_weights``: version i + 1 after
iteration i's update, the starting version at the start); it loads them under its sampler's lock and sets the
version its completions record in the same hold, so a push lands between two steps of an episode in flight and
each step records the version that drew it. The learner's update does not pause the actor's sampling: rollouts go
on with the previous weights until the push. With a vLLM server, each batch of units is sent with the sampler's
current adapter name and its version (``PolicySpec.version``), the name held (``LoraSync.acquire``) until the
batch's units are back, and every step the units sampled records that version (all their requests used that name).

Bound: iteration j's rollouts start only once the learner has finished iteration j - k - 1, its vLLM sync or Ray push included
(its version is then >= j - k, and j's update runs at version j: every step is at most k versions behind). They
never start past a checkpoint that is not yet written: nothing is in flight when a checkpoint is taken, so a killed
run resumes from its last checkpoint and re-runs, from scratch, the rollouts that had started after it (they are
discarded, not saved), with the same versions an uninterrupted run gave them. Drop rule: a group whose oldest step
is more than k versions behind the learner at its update is dropped and counted (the bound keeps this from
happening, in process, on vLLM and on Ray; it is the guard for whatever else samples). Metrics (``async``): the histogram
of the trained steps' staleness, dropped groups, the time the learner waited for rollouts, and the importance
weights' mean and truncated share.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from halo.errors import ConfigError


def check_async(policy: Any, learner: Any, rollouts: Any, sync: Any) -> None:
    """Asynchronous GRPO needs a sampler that records on each completion the adapter version that drew it: the
    in-process one (which shares the learner's weights), a vLLM server's through its ``LoraSync`` (each request
    records the version of the adapter name it was sent with), or Ray workers' (``--ray``: the policy actor
    records the version of the weights last pushed to it; a vLLM unit, its name's version). Refuse any other
    sampler before anything starts."""
    if rollouts is not None and not getattr(rollouts, "records_versions", False):
        raise ConfigError(f"grpo.max_staleness >= 1 (asynchronous GRPO) with --ray needs rollouts whose samples record "
                          f"their adapter version (an in-process mode's policy actor, or a vLLM server with its "
                          f"LoraSync); these ({type(rollouts).__name__}) record none: set grpo.max_staleness: 0")
    if not hasattr(learner, "update_versioned"):
        raise ConfigError(f"grpo.max_staleness >= 1 needs a learner with a versioned update (LoRALearner); this "
                          f"learner is {type(learner).__name__}")
    if sync is not None:
        if not callable(getattr(sync, "acquire", None)) or getattr(policy, "lora_versions", None) is not sync:
            raise ConfigError(f"grpo.max_staleness >= 1 with a vLLM server needs its sampler (backend openai, "
                              f"server.kind vllm) to record each request's adapter version through the run's "
                              f"LoraSync; this sampler ({getattr(policy, 'name', type(policy).__name__)}) and sync "
                              f"({type(sync).__name__}) record none")
        return
    if not hasattr(policy, "weights_version"):
        raise ConfigError(f"grpo.max_staleness >= 1 needs a sampler whose completions carry the adapter version "
                          f"that drew them (backend hf, or a vLLM mode); this sampler is "
                          f"{getattr(policy, 'name', type(policy).__name__)}")


def last_startable(done: int, k: int, checkpoints_at: Callable[[int], bool], last: int) -> int:
    """The last iteration whose rollouts may start once iterations up to ``done`` are finished (updated, logged,
    checkpointed): k past the next update, and not past the next checkpoint's iteration."""
    bound = done + 1 + k
    for c in range(done + 1, min(bound, last) + 1):
        if checkpoints_at(c):
            return c
    return bound


def staleness(groups: Sequence[Sequence[Any]], version: int, k: int
              ) -> tuple[list[list[Any]], int, Counter[int], int]:
    """(the groups kept, groups dropped, histogram of the kept steps' staleness, steps with no version) for an
    update at learner ``version``: a group whose oldest sampled step is more than ``k`` versions behind is
    dropped."""
    kept: list[list[Any]] = []
    dropped, unversioned = 0, 0
    hist: Counter[int] = Counter()
    for g in groups:
        lags = [version - st.sample.version for e in g for st in e.steps if st.sample.version is not None]
        if lags and max(lags) > k:
            dropped += 1
            continue
        unversioned += sum(st.sample.version is None for e in g for st in e.steps)
        hist.update(lags)
        kept.append(list(g))
    return kept, dropped, hist, unversioned


async def run_pipeline(trainer: Any, envs: Sequence[Any], start: int, finish: Callable[[Any], None]) -> None:
    """Iterations ``start .. iterations-1`` of ``trainer`` with rollouts ahead of the learner (see the module doc);
    ``finish`` saves, logs and checkpoints each result in order. Any failure stops both sides."""
    s = trainer.s
    k = s.max_staleness
    last = s.iterations - 1
    trainer.learner.policy.weights_version = start  # the weights the run starts (or resumes) with
    if trainer.sync is not None and hasattr(trainer.sync, "begin"):  # vLLM: the name the sampler starts with
        trainer.sync.begin(start)
    queue: asyncio.Queue[Any] = asyncio.Queue(maxsize=k + 1)
    allowed = last_startable(start - 1, k, trainer.checkpoints_at, last)
    moved = asyncio.Condition()

    async def produce() -> None:
        for j in range(start, s.iterations):
            async with moved:
                await moved.wait_for(lambda j=j: j <= allowed)
            await queue.put(await trainer.roll(j, envs))

    producer = asyncio.create_task(produce(), name="grpo-rollouts")
    try:
        for it in range(start, s.iterations):
            t0 = time.perf_counter()
            getter = asyncio.ensure_future(queue.get())
            await asyncio.wait({getter, producer}, return_when=asyncio.FIRST_COMPLETED)
            # the producer ended first: its error, never a silent hang
            if not getter.done() and (producer.cancelled() or producer.exception() is not None or queue.empty()):
                getter.cancel()
                producer.result()
                raise RuntimeError("the rollouts ended before the learner had every iteration")
            ro = await getter
            waited = time.perf_counter() - t0
            kept, dropped, hist, unversioned = staleness(ro.groups, it, k)
            extra = {"max_staleness": k, "version": it, "staleness": {str(v): n for v, n in sorted(hist.items())},
                     "dropped_groups": dropped, "time_wait": round(waited, 3)}
            if unversioned:
                extra["unversioned_steps"] = unversioned
            finish(await trainer.learn(replace(ro, groups=kept, extra=extra)))
            async with moved:
                allowed = last_startable(it, k, trainer.checkpoints_at, last)
                moved.notify_all()
    finally:
        producer.cancel()  # rollouts past the last finished iteration are discarded (a resume re-runs them)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await producer
