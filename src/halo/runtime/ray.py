"""Rollouts on Ray: browser workers on any number of machines, the same rollout code as the local path.

A ``RolloutWorker`` is a Ray actor that owns one ``BrowserPool`` (one Chromium) and, when the tasks run on
REAL-local, its own ``SitesServer`` (REAL-local on its node's loopback: a worker on another machine cannot reach the
driver's). It runs ``rollout.run_group`` (the one rollout function) for each unit it is sent, ``n`` concurrent
episodes of one task, and returns the ``Episode`` objects (plain dataclasses; screenshots are bytes). For MCTS
(``halo train mcts --ray``) a unit is one whole search (``MCTSExplorer`` on a branchable env of the worker's
browser, restores by fork on its own REAL-local); the tree comes back without its browser snapshots
(``mcts.portable_result``) for the driver's DPO update.

The policy is reached from the workers either as the mode's OpenAI/vLLM server (``OpenAIPolicy``, the server config
travels with each unit, so a hot-loaded adapter's new name reaches the workers), or, for in-process modes (``tiny``,
``hf``), through a ``PolicyActor``: a Ray actor that hosts the model and serves ``complete`` calls. Its concurrent
calls meet in the in-process batcher (``max_batch``) as the episodes of one process do. GRPO with an in-process
mode learns in the driver and pushes the adapter's weights to the actor after each update (``sync_weights``).

``RayRollouts`` (the dispatcher) sends units to idle workers, at most ``per_worker`` at a time each. A unit whose
worker died (or missed the unit's deadline: the worker is then killed) is re-run on another worker, at most
``retries`` times; past that its episodes come back errored with the reason. A lost policy actor is a
``PolicyLost`` error for the whole run. Every wait is bounded (``unit_timeout_s``, ``call_timeout_s``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from halo.errors import ConfigError, HaloError, PolicyError
from halo.policy.base import Completion, PolicyBackend

WORKER_LOST = "rollout worker lost"


class PolicyLost(PolicyError):
    """The policy actor (or the policy server as seen from the workers) is gone: the run cannot continue."""


def _ray():
    try:
        import ray
    except ImportError as e:  # pragma: no cover - ray is a dependency
        raise ConfigError(f"--ray needs the ray package ({e}); pip install 'ray>=2.9'") from None
    return ray


# ------------------------------------------------------------------ the cluster
def connect(address: str | None, workers: int, *, num_cpus: int | None = None, timeout_s: float = 60.0) -> dict:
    """Start a local Ray cluster (``address`` None or "local") or join one (``ray://host:10001`` or
    ``host:6379``/``auto``), bounded by ``timeout_s``; a bad address is a ``ConfigError`` before anything else
    starts. Returns ``{address, nodes, cpus}``. Idempotent when Ray is already initialised in this process."""
    ray = _ray()
    if workers < 1:
        raise ConfigError(f"--ray-workers must be >= 1, got {workers}")
    started = not ray.is_initialized()
    if started:
        kw: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
        if address in (None, "", "local"):
            kw["num_cpus"] = num_cpus if num_cpus is not None else max(workers, os.cpu_count() or 1)
            # a source checkout that is not installed: the workers import halo from the same tree
            kw["runtime_env"] = {"env_vars": {"PYTHONPATH": os.pathsep.join(
                p for p in (_src_root(), os.environ.get("PYTHONPATH")) if p)}}
            target = None
        else:  # a cluster's nodes have HALO installed (docs/SCALE_OUT.md)
            target = address
            if not address.startswith("ray://") and address != "auto":
                _check_reachable(address, timeout_s)
        try:
            ray.init(address=target, **kw)
        except Exception as e:  # noqa: BLE001 - ConnectionError, RuntimeError, ValueError: no cluster there
            raise ConfigError(f"--ray-address {address}: cannot join the Ray cluster ({type(e).__name__}: {e}); "
                              "start it with `ray start --head` (docs/SCALE_OUT.md), or use --ray alone for a "
                              "local one") from None
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    return {"address": address or "local", "nodes": len(nodes), "started": started,
            "cpus": int(ray.cluster_resources().get("CPU", 0))}


def check_address(address: str | None, workers: int, timeout_s: float = 5.0) -> None:
    """What ``connect`` checks before ``ray.init``: the worker count and, for ``HOST:PORT``, that the head answers."""
    if workers < 1:
        raise ConfigError(f"--ray-workers must be >= 1, got {workers}")
    if address not in (None, "", "local", "auto") and not address.startswith("ray://"):
        _check_reachable(address, timeout_s)


def _src_root() -> str:
    import halo

    return os.path.dirname(os.path.dirname(os.path.abspath(halo.__file__)))


def _check_reachable(address: str, timeout_s: float) -> None:
    """A TCP connect to the head's GCS port first: ``ray.init`` on a dead address retries for minutes."""
    import socket

    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ConfigError(f"--ray-address {address}: give HOST:PORT (the head's GCS port, 6379 by default), ray://HOST:10001, "
                          "auto, or no address for a local cluster")
    try:
        with socket.create_connection((host, int(port)), timeout=min(timeout_s, 5.0)):
            pass
    except OSError as e:
        raise ConfigError(f"--ray-address {address}: the Ray head is not reachable ({e.strerror or e}); start it with "
                          "`ray start --head --port " + port + "` (docs/SCALE_OUT.md)") from None


@contextlib.contextmanager
def ray_session(address: str | None, workers: int, console: Any = None) -> Iterator[dict]:
    """A job's time on Ray: ``connect`` (said on ``console``), and the cluster shut down after if this started it."""
    info = connect(address, workers)
    if console is not None:
        console.print(f"Ray: {info['address']} ({info['nodes']} node(s), {info['cpus']} CPUs), {workers} rollout "
                      "workers")
    try:
        yield info
    finally:
        if info["started"]:
            shutdown()


def shutdown() -> None:
    ray = _ray()
    if ray.is_initialized():
        ray.shutdown()


# ------------------------------------------------------------------ policy as seen from a worker
@dataclass(frozen=True)
class PolicySpec:
    """How a worker reaches the policy: ``actor`` (a ``PolicyActor`` handle) or ``server`` (an OpenAI-compatible
    ``ServerConfig``), with the mode's decoding and prompt settings (the worker builds prompts and parses)."""

    decoding: Any
    prompt: Any
    actor: Any = None
    server: Any = None
    call_timeout_s: float = 300.0
    recovery: bool = False  # evaluation recovery (``RecoveringPolicy``) around the policy, in the worker


class RemotePolicy(PolicyBackend):
    """A ``PolicyBackend`` whose ``complete`` is a call to the ``PolicyActor`` (bounded by ``call_timeout_s``)."""

    name = "ray-actor"

    def __init__(self, spec: PolicySpec):
        super().__init__(spec.decoding, spec.prompt)
        self.actor, self.timeout_s = spec.actor, spec.call_timeout_s

    async def complete(self, prompt, obs, n, temperature) -> list[Completion]:
        ray = _ray()
        try:
            return await asyncio.wait_for(self.actor.complete.remote(prompt, obs, n, temperature), self.timeout_s)
        except TimeoutError:
            raise PolicyLost(f"the policy actor did not answer within {self.timeout_s:.0f} s") from None
        except ray.exceptions.RayActorError as e:
            raise PolicyLost(f"the policy actor died ({type(e).__name__})") from None


def _policy_for(spec: PolicySpec, cache: dict) -> Any:
    key = (("actor", spec.actor._actor_id.hex()) if spec.actor is not None else ("server", spec.server),
           spec.decoding, spec.prompt, spec.recovery)
    if key not in cache:
        if spec.actor is not None:
            policy: Any = RemotePolicy(spec)
        else:
            from halo.policy.openai_backend import OpenAIPolicy

            policy = OpenAIPolicy(spec.server, decoding=spec.decoding, prompt=spec.prompt)
        if spec.recovery:
            from halo.policy.recovery import RecoveringPolicy

            policy = RecoveringPolicy(policy)
        cache[key] = policy
    return cache[key]


def _critic_for(critic: Any, policy: Any, cache: dict) -> Any:
    """The MCTS critic in a worker: None, ``"same"`` (the sampling policy critiques itself) or a ``PolicySpec``."""
    if critic is None:
        return None
    from halo.rl.critic import PolicyCritic

    return PolicyCritic(policy if critic == "same" else _policy_for(critic, cache))


# ------------------------------------------------------------------ the actors (plain classes; ray.remote below)
class _PolicyActor:
    """Hosts an in-process policy (``make_policy(mode)``) and serves ``complete``; async, so concurrent calls from
    several workers meet in the backend's batcher."""

    def __init__(self, mode: Any, lora: Any = None):
        from halo.policy.modes import make_policy

        self.policy = make_policy(mode)
        if lora is not None:  # GRPO: the same adapter layout as the driver's learner, whose weights are pushed
            from peft import LoraConfig, PeftModel, get_peft_model

            from halo.rl.learner import lora_target_regex

            cfg = LoraConfig(r=lora.rank, lora_alpha=lora.alpha, lora_dropout=lora.dropout,
                             target_modules=lora_target_regex(lora.target_modules), bias="none",
                             modules_to_save=list(lora.modules_to_save) or None)
            if not isinstance(self.policy.model, PeftModel):  # else the mode's adapter is the one learning
                self.policy.model = get_peft_model(self.policy.model, cfg).eval()
        self.version = -1

    async def complete(self, prompt, obs, n, temperature):
        return await self.policy.complete(prompt, obs, n, temperature)

    def sync_weights(self, state: dict, version: int) -> int:
        """Load the learner's trainable weights (adapter and modules_to_save) into the hosted model."""
        with self.policy._lock:
            missing = self.policy.model.load_state_dict(state, strict=False)
        if missing.unexpected_keys:
            raise RuntimeError(f"weights the hosted model does not have: {missing.unexpected_keys[:5]}")
        self.version = version
        return version

    def ping(self) -> int:
        return os.getpid()


class _RolloutWorker:
    """One Chromium (``BrowserPool``), REAL-local on this node when asked (``sites``), envs reused between units."""

    def __init__(self, sites: Sequence[str] = (), headless: bool = True, env_kwargs: dict | None = None):
        self.site_names = tuple(sites)
        self.headless = headless
        self.env_kwargs = dict(env_kwargs or {})
        self.urls: dict[str, str] = {}
        self._server = None
        self._pool = None
        self._stack: contextlib.AsyncExitStack | None = None
        self._free: list[Any] = []
        self._free_branch: list[Any] = []  # branchable envs for MCTS searches
        self._policies: dict = {}
        self._start_lock: asyncio.Lock | None = None

    async def start(self) -> dict:
        """Start the sites and the browser (idempotent); returns ``{pid, node, urls}``."""
        if self._start_lock is None:
            self._start_lock = asyncio.Lock()
        async with self._start_lock:
            if self._pool is None:
                if self.site_names:
                    from halo.sites.server import SitesServer

                    self._server = SitesServer(self.site_names)
                    self.urls = await asyncio.to_thread(self._server.start)
                from halo.env.browser import BrowserPool

                self._stack = contextlib.AsyncExitStack()
                self._pool = await self._stack.enter_async_context(BrowserPool(headless=self.headless))
        import socket

        return {"pid": os.getpid(), "node": socket.gethostname(), "urls": dict(self.urls)}

    def _retarget(self, task: Any) -> Any:
        """A REAL-local task pointed at this worker's own sites."""
        if getattr(task, "local", False) and task.site in self.urls:
            return dataclasses.replace(task, base_url=self.urls[task.site])
        return task

    async def run(self, task: Any, n: int, spec: PolicySpec, kw: dict) -> dict:
        """``n`` concurrent episodes of ``task`` (``rollout.run_group``); returns the episodes and timings."""
        from halo.env.env import BrowserEnv
        from halo.rl.rollout import run_group

        t0 = time.perf_counter()
        await self.start()
        envs = [self._free.pop() if self._free else BrowserEnv(self._pool, **self.env_kwargs) for _ in range(n)]
        try:
            eps = await run_group(envs, _policy_for(spec, self._policies), self._retarget(task), **kw)
        finally:
            self._free.extend(envs)
        return {"episodes": eps, "wall_s": time.perf_counter() - t0, "pid": os.getpid()}

    async def search(self, task: Any, settings: Any, spec: PolicySpec, critic: Any = None,
                     reward_config: Any = None) -> dict:
        """One whole MCTS search (``MCTSExplorer``) of ``task`` on a branchable env of this worker's browser.

        Returns ``{"result": SearchResult}`` with the tree made portable (``portable_result``), or ``{"error"}``
        when the search raised (``policy_lost`` set when the policy is gone: the driver stops the run)."""
        from halo.env.env import BrowserEnv
        from halo.rl.mcts import MCTSExplorer, portable_result

        t0 = time.perf_counter()
        await self.start()
        policy = _policy_for(spec, self._policies)
        env = self._free_branch.pop() if self._free_branch else BrowserEnv(
            self._pool, **{**self.env_kwargs, "max_steps": settings.max_steps, "branchable": True})
        ok = False
        try:
            result = await MCTSExplorer(env, policy, self._retarget(task), settings,
                                        critic=_critic_for(critic, policy, self._policies),
                                        reward_config=reward_config).run()
            ok = True
        except Exception as e:  # noqa: BLE001 - a broken search (browser, site, policy) is the driver's to count
            return {"error": f"{type(e).__name__}: {e}", "policy_lost": isinstance(e, PolicyLost),
                    "wall_s": time.perf_counter() - t0, "pid": os.getpid()}
        finally:
            if ok:
                self._free_branch.append(env)
            else:  # its page may be anywhere: a fresh env for the next search
                with contextlib.suppress(Exception):
                    await env.close()
        return {"result": portable_result(result), "wall_s": time.perf_counter() - t0, "pid": os.getpid()}

    async def close(self) -> None:
        for env in self._free_branch:
            with contextlib.suppress(Exception):
                await env.close()
        self._free_branch = []
        for env in self._free:
            with contextlib.suppress(Exception):
                await env.close()
        self._free = []
        for p in self._policies.values():
            with contextlib.suppress(Exception):
                await p.aclose()
        if self._stack is not None:
            with contextlib.suppress(Exception):
                await self._stack.aclose()
        self._pool = None
        if self._server is not None:
            await asyncio.to_thread(self._server.stop)
            self._server = None

    def ping(self) -> int:
        return os.getpid()


_REMOTE: dict[str, Any] = {}


def _remote(cls: type) -> Any:
    if cls.__name__ not in _REMOTE:
        _REMOTE[cls.__name__] = _ray().remote(cls)
    return _REMOTE[cls.__name__]


def PolicyActor(**options: Any) -> Any:  # a Ray actor class, named as one
    return _remote(_PolicyActor).options(**{"num_cpus": 0, "max_concurrency": 64, **options})


def RolloutWorker(**options: Any) -> Any:  # a Ray actor class, named as one
    return _remote(_RolloutWorker).options(**{"num_cpus": 1, "max_concurrency": 64, **options})


# ------------------------------------------------------------------ the dispatcher
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

    def spec(self) -> PolicySpec:
        """What the workers get with each unit: the server config is read now (LoraSync switches its model)."""
        m = self.mode
        common = {"decoding": m.decoding_config(), "prompt": m.prompt_config(), "call_timeout_s": self.call_timeout_s,
                  "recovery": self.recovery}
        if self.actor is not None:
            return PolicySpec(actor=self.actor, **common)
        return PolicySpec(server=self.policy.server, **common)

    async def sync_weights(self, model: Any) -> None:
        """After a learner update (in-process modes): the trainable weights go to the policy actor."""
        if self.actor is None:
            return
        ray = _ray()
        state = {k: v.detach().cpu() for k, v in model.named_parameters() if v.requires_grad}
        self._version += 1
        try:
            await asyncio.wait_for(self.actor.sync_weights.remote(state, self._version), self.call_timeout_s)
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
        from halo.rl.rollout import Episode

        spec = self.spec()

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
