"""``RayRollouts``, the dispatcher: units (``n`` episodes of a task, or one MCTS search) sent to idle rollout
workers, re-run elsewhere when a worker dies or misses its deadline, the policy's weights pushed to its actor."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from halo.errors import ConfigError, HaloError
from halo.runtime.ray.actors import WORKER_LOST, PolicyActor, PolicyLost, PolicySpec, RolloutWorker
from halo.runtime.ray.cluster import _ray


@dataclass
class Unit:
    """``n`` concurrent episodes of ``task`` on one worker; ``key`` is the caller's."""

    task: Any
    n: int = 1
    key: Any = None
    tries: int = 0
    reasons: list[str] = field(default_factory=list)


@dataclass
class RayStats:
    units: int = 0
    retried: int = 0
    failed: int = 0  # units whose retries were spent
    workers_lost: int = 0
    respawned: int = 0  # lost workers replaced before a later batch of units (respawns budget)
    weight_syncs: int = 0  # learner weights pushed to the policy actor (in-process GRPO)
    worker_s: float = 0.0  # sum of the workers' wall time per unit

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class RayRollouts:
    """Workers, the policy as they reach it, and the dispatch of units over them.

    ``mode`` is the policy mode: an in-process (``hf``) mode is hosted by a ``PolicyActor`` built from it; an
    ``openai`` mode's server config (``policy.server``, the driver's ``OpenAIPolicy`` when given, so that a
    hot-loaded adapter's name is followed) is sent with each unit. ``policy`` may be None; a ``RecoveringPolicy``
    asks the workers to wrap theirs the same way. ``sites``: REAL-local site names each worker serves
    on its own loopback (empty for REAL's remote sites or page tasks)."""

    def __init__(self, mode: Any, policy: Any, workers: int = 2, *, sites: Sequence[str] = (),
                 headless: bool = True, env_kwargs: dict | None = None, per_worker: int = 1, retries: int = 2,
                 unit_timeout_s: float = 1800.0, call_timeout_s: float = 300.0, start_timeout_s: float = 180.0,
                 lora: Any = None, worker_options: dict | None = None, respawns: int | None = None,
                 on_dispatch: Callable[[int, Any, Unit], None] | None = None, critic: Any = None):
        if workers < 1 or per_worker < 1 or retries < 0:
            raise ConfigError(f"workers and per_worker must be >= 1 and retries >= 0, got {workers}, {per_worker}, "
                              f"{retries}")
        from halo.policy.recovery import RecoveringPolicy

        self.recovery = isinstance(policy, RecoveringPolicy)
        self.mode, self.policy = mode, (policy.inner if self.recovery else policy)
        if self.mode.backend == "hf" and self.policy is not None and getattr(self.policy, "name", "") != "hf":
            raise ConfigError(f"mode {mode.name}: its policy is not the in-process one it names")
        self.n_workers, self.per_worker, self.retries = workers, per_worker, retries
        self.sites, self.headless, self.env_kwargs = tuple(sites), headless, dict(env_kwargs or {})
        self.unit_timeout_s, self.call_timeout_s, self.start_timeout_s = unit_timeout_s, call_timeout_s, start_timeout_s
        self.lora = lora
        self.worker_options = {"scheduling_strategy": "SPREAD", **(worker_options or {})}
        self.on_dispatch = on_dispatch
        self.respawns = workers if respawns is None else respawns  # replacements for lost workers, in all
        self.workers: list[Any] = []
        self.alive: list[bool] = []
        self.info: list[dict] = []
        self.actor = None
        # MCTS: None, "same" (the policy critiques itself) or a critic mode: hf in its own PolicyActor, openai reached
        # as its server from the workers
        self.critic = critic
        self.critic_actor = None
        self._critic_server = None
        self.stats = RayStats()
        self._version = 0

    # ------------------------------------------------------------ lifecycle
    async def start(self) -> RayRollouts:
        """The policy actor(s) and the workers, started together (an actor loads its model while the workers start
        their browsers and sites); each wait bounded by ``start_timeout_s``."""
        ray = _ray()
        if self.mode.backend == "hf":
            self.actor = PolicyActor().remote(self.mode, self.lora)
        elif self.mode.backend == "openai":
            if self.policy is None or not hasattr(self.policy, "server"):
                from halo.policy.modes import make_policy

                self.policy = make_policy(self.mode)
        else:
            raise ConfigError(f"--ray reaches the policy as a server (openai/vLLM modes) or in a Ray actor (hf "
                              f"modes); mode {self.mode.name} has backend {self.mode.backend!r}")
        try:
            await self._start_critic()
        except BaseException:
            await self.close()
            raise
        self.workers = [self._new_worker() for _ in range(self.n_workers)]
        self.alive = [True] * self.n_workers
        starts = [w.start.remote() for w in self.workers]
        critic = f"critic's policy actor ({getattr(self.critic, 'name', '')})"
        for name, actor in (("policy actor", self.actor), (critic, self.critic_actor)):
            if actor is None:
                continue
            try:
                await asyncio.wait_for(actor.ping.remote(), self.start_timeout_s)
            except (TimeoutError, ray.exceptions.RayError) as e:
                await self.close()
                raise PolicyLost(f"the {name} did not start within {self.start_timeout_s:.0f} s "
                                 f"({type(e).__name__}: {str(e)[:300]})") from None
        try:
            self.info = list(await asyncio.wait_for(asyncio.gather(*starts), self.start_timeout_s))
        except (TimeoutError, ray.exceptions.RayError) as e:
            await self.close()
            raise HaloError(f"the Ray rollout workers did not start within {self.start_timeout_s:.0f} s "
                            f"({type(e).__name__}: {str(e)[:300]}); does every node have HALO, Chromium "
                            "(`playwright install chromium`) and free CPUs (docs/SCALE_OUT.md)?") from None
        return self

    async def _start_critic(self) -> None:
        """An hf critic mode gets its own ``PolicyActor`` (started with the rest, pinged in ``start``); an openai
        one is reached as its server from the workers."""
        c = self.critic
        if c is None or c == "same":
            return
        if c.backend == "hf":
            self.critic_actor = PolicyActor().remote(c)
        elif c.backend == "openai":
            from halo.policy.modes import make_policy

            p = make_policy(c)
            self._critic_server = p.server
            await p.aclose()
        else:
            raise ConfigError(f"--ray: critic mode {c.name} has backend {c.backend!r}; a critic is reached as a "
                              "server (openai/vLLM modes) or in a Ray actor (hf modes)")

    def _new_worker(self) -> Any:
        return RolloutWorker(**self.worker_options).remote(self.sites, self.headless, self.env_kwargs)

    async def _respawn(self) -> None:
        """Replace lost workers (within the ``respawns`` budget) before a batch of units: a long run keeps its
        capacity. A replacement that does not start in time is dropped."""
        ray = _ray()
        slots = [i for i, ok in enumerate(self.alive) if not ok][:self.respawns - self.stats.respawned]
        if not slots:
            return
        fresh = {i: self._new_worker() for i in slots}
        outs = await asyncio.gather(*(asyncio.wait_for(w.start.remote(), self.start_timeout_s)
                                      for w in fresh.values()), return_exceptions=True)
        for (i, w), out in zip(fresh.items(), outs):
            self.stats.respawned += 1
            if isinstance(out, BaseException):
                with contextlib.suppress(Exception):
                    ray.kill(w)
                continue
            self.workers[i], self.alive[i] = w, True

    async def close(self) -> None:
        ray = _ray()
        for w, ok in zip(self.workers, self.alive):
            if ok:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(w.close.remote(), 30)
            with contextlib.suppress(Exception):
                ray.kill(w)
        self.workers, self.alive = [], []
        for name in ("actor", "critic_actor"):
            if getattr(self, name) is not None:
                with contextlib.suppress(Exception):
                    ray.kill(getattr(self, name))
                setattr(self, name, None)

    async def __aenter__(self) -> RayRollouts:  # noqa: PYI034
        return await self.start()

    async def __aexit__(self, *exc) -> None:
        await self.close()

    # ------------------------------------------------------------ the policy
    def critic_spec(self) -> Any:
        """The MCTS critic as the workers get it: None, ``"same"``, or a ``PolicySpec`` of the critic's mode."""
        c = self.critic
        if c is None or c == "same":
            return c
        common = {"decoding": c.decoding_config(), "prompt": c.prompt_config(), "call_timeout_s": self.call_timeout_s}
        if self.critic_actor is not None:
            return PolicySpec(actor=self.critic_actor, **common)
        return PolicySpec(server=self._critic_server, **common)

    @property
    def records_versions(self) -> bool:
        """Whether each sampled step can come back with the adapter version that drew it (asynchronous GRPO needs
        it): the policy actor records the version of the weights last pushed to it with one (``sync_weights``) on
        each completion; with a vLLM server, each unit's steps record the version of the adapter name it was sent with,
        which the driver's ``LoraSync`` (the sampler's ``lora_versions``) numbers."""
        if self.mode.backend == "hf":
            return True
        return getattr(self.policy, "lora_versions", None) is not None

    def spec(self) -> PolicySpec:
        """What the workers get with each unit: the server config is read now (LoraSync switches its model), with
        the version of its adapter name when a ``LoraSync`` numbers them."""
        m = self.mode
        common = {"decoding": m.decoding_config(), "prompt": m.prompt_config(), "call_timeout_s": self.call_timeout_s,
                  "recovery": self.recovery}
        if self.actor is not None:
            return PolicySpec(actor=self.actor, **common)
        versions = getattr(self.policy, "lora_versions", None)
        server = self.policy.server
        version = versions.versions.get(server.model) if versions is not None else None
        return PolicySpec(server=server, version=version, **common)

    async def sync_weights(self, model: Any, version: int | None = None) -> None:
        """After a learner update (in-process modes): the trainable weights go to the policy actor. With a
        ``version`` (asynchronous GRPO: the learner's update count, the numbering of ``rl/pipeline.py``) the actor's
        completions record it from then on; without one they record none (numbered one past the last push here),
        as the in-process sampler's outside asynchronous GRPO, so both paths write the same episode files."""
        if self.actor is None:
            return
        ray = _ray()
        state = {k: v.detach().cpu() for k, v in model.named_parameters() if v.requires_grad}
        self._version = self._version + 1 if version is None else version
        try:
            await asyncio.wait_for(self.actor.sync_weights.remote(state, self._version, version is not None),
                                   self.call_timeout_s)
            self.stats.weight_syncs += 1
        except TimeoutError:
            raise PolicyLost(f"the policy actor did not take the new weights within {self.call_timeout_s:.0f} s") \
                from None
        except ray.exceptions.RayActorError as e:
            raise PolicyLost(f"the policy actor died ({type(e).__name__})") from None

    # ------------------------------------------------------------ dispatch
    async def run_units(self, units: Sequence[Unit], kw: dict, *,
                        on_done: Callable[[Unit, list], None] | None = None,
                        stop: Callable[[], bool] | None = None) -> list[list]:
        """Run every unit; returns their episodes in the units' order. ``on_done`` is called as each unit ends
        (in the driver: the caller writes episodes there); ``stop()`` true: no new unit starts (the rest come back
        empty)."""
        spec = self.spec()
        # a vLLM name the workers use is held (LoraSync.acquire) until every unit is back: a sync that switches
        # the sampler to a newer adapter meanwhile does not unload it under them (rl/lora_sync.py)
        versions = getattr(self.policy, "lora_versions", None) if spec.server is not None else None
        held = spec.server.model if versions is not None else None
        if held is not None:
            versions.acquire(held)
        try:
            return await self._run_units(units, kw, spec, on_done=on_done, stop=stop)
        finally:
            if held is not None:
                await versions.release(held)

    async def _run_units(self, units: Sequence[Unit], kw: dict, spec: PolicySpec, *,
                         on_done: Callable[[Unit, list], None] | None = None,
                         stop: Callable[[], bool] | None = None) -> list[list]:
        from halo.rl.rollout import Episode

        def errored(u: Unit, why: str) -> list:
            eps = []
            for _ in range(u.n):
                e = Episode(id=uuid.uuid4().hex[:12], task_id=u.task.id, site=getattr(u.task, "site", ""))
                e.errored, e.error = True, why
                eps.append(e)
            return eps

        def unpack(out: dict) -> list:
            eps = out["episodes"]
            lost = next((e.error for e in eps if e.errored and (e.error or "").startswith("PolicyLost")), None)
            if lost is not None:
                raise PolicyLost(lost.split(": ", 1)[-1])
            return eps

        out = await self._dispatch(units, lambda w, u: w.run.remote(u.task, u.n, spec, kw), unpack, errored,
                                   self.unit_timeout_s, on_done=on_done, stop=stop)
        return [r if r is not None else [] for r in out]

    async def run_searches(self, units: Sequence[Unit], settings: Any, *, reward_config: Any = None,
                           timeout_s: float | None = None) -> list[dict]:
        """One whole MCTS search per unit (``_RolloutWorker.search``), spread over the workers; returns, in the
        units' order, ``{"result": SearchResult, "wall_s", "pid"}`` or ``{"error": reason}`` (a search that
        raised on its worker, or a unit whose worker was lost past the retries; a lost worker's search is re-run
        from the start on another one). The critic is the one given at construction. A lost policy (actor) is
        ``PolicyLost``."""
        spec, critic = self.spec(), self.critic_spec()

        def unpack(out: dict) -> dict:
            if out.get("policy_lost"):
                raise PolicyLost(out["error"].split(": ", 1)[-1])
            return out

        out = await self._dispatch(
            units, lambda w, u: w.search.remote(u.task, settings, spec, critic, reward_config), unpack,
            lambda u, why: {"error": why}, timeout_s or self.unit_timeout_s)
        return [r if r is not None else {"error": "not run"} for r in out]

    async def _dispatch(self, units: Sequence[Unit], call: Callable[[Any, Unit], Any], unpack: Callable[[dict], Any],
                        errored: Callable[[Unit, str], Any], timeout_s: float, *,
                        on_done: Callable[[Unit, Any], None] | None = None,
                        stop: Callable[[], bool] | None = None) -> list[Any]:
        """The units over the live workers (``per_worker`` each): a unit whose worker died or missed ``timeout_s``
        (the worker is then killed) is re-queued up to ``retries`` times, then ``errored(unit, reason)``."""
        ray = _ray()
        lost_errors = (ray.exceptions.RayActorError,  # ActorUnavailableError: Ray >= 2.22
                       getattr(ray.exceptions, "ActorUnavailableError", ray.exceptions.RayActorError))
        await self._respawn()
        results: list[Any] = [None] * len(units)
        queue = list(range(len(units)))
        busy = [0] * len(self.workers)
        running: dict[asyncio.Task, tuple[int, int]] = {}

        def finish(i: int, res: Any) -> None:
            results[i] = res
            if on_done is not None:
                on_done(units[i], res)

        async def run_on(wi: int, u: Unit) -> dict:
            return await asyncio.wait_for(call(self.workers[wi], u), timeout_s)

        while queue or running:
            while queue and not (stop is not None and stop()):
                free = [i for i in range(len(self.workers)) if self.alive[i] and busy[i] < self.per_worker]
                if not free:
                    break
                wi = min(free, key=lambda i: busy[i])
                ui = queue.pop(0)
                busy[wi] += 1
                units[ui].tries += 1
                self.stats.units += 1
                if self.on_dispatch is not None:
                    self.on_dispatch(wi, self.workers[wi], units[ui])
                running[asyncio.ensure_future(run_on(wi, units[ui]))] = (wi, ui)
            if stop is not None and stop():
                queue.clear()
            if not running:
                if queue:  # no live worker left
                    for ui in queue:
                        u = units[ui]
                        finish(ui, errored(u, f"{WORKER_LOST}: no rollout worker left ({'; '.join(u.reasons)})"))
                    queue.clear()
                break
            done, _ = await asyncio.wait(list(running), return_when=asyncio.FIRST_COMPLETED)
            for t in done:
                wi, ui = running.pop(t)
                busy[wi] -= 1
                u = units[ui]
                try:
                    out = t.result()
                except (TimeoutError, *lost_errors) as e:
                    why = (f"worker {wi} missed the unit's {timeout_s:.0f} s deadline (killed)"
                           if isinstance(e, TimeoutError) else f"worker {wi} died ({type(e).__name__})")
                    self._lose(wi)
                    u.reasons.append(why)
                    if u.tries <= self.retries:
                        self.stats.retried += 1
                        queue.insert(0, ui)
                    else:
                        self.stats.failed += 1
                        finish(ui, errored(u, f"{WORKER_LOST}: {'; '.join(u.reasons)}; "
                                              f"{self.retries} retries spent"))
                    continue
                self.stats.worker_s += out.get("wall_s", 0.0)
                try:
                    res = unpack(out)
                except PolicyLost:
                    for other in running:
                        other.cancel()
                    raise
                finish(ui, res)
        return results

    def _lose(self, wi: int) -> None:
        if self.alive[wi]:
            self.alive[wi] = False
            self.stats.workers_lost += 1
            with contextlib.suppress(Exception):
                _ray().kill(self.workers[wi])

    async def run_groups(self, tasks: Sequence[Any], n: int, kw: dict) -> list[list]:
        """One group of ``n`` concurrent episodes per task, spread over the workers (GRPO)."""
        return await self.run_units([Unit(task=t, n=n, key=i) for i, t in enumerate(tasks)], kw)


def sites_of(tasks: Sequence[Any]) -> tuple[str, ...]:
    """The REAL-local sites the tasks need (each worker serves them on its own loopback)."""
    return tuple(sorted({t.site for t in tasks if getattr(t, "local", False)}))
