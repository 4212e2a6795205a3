"""The Ray actors: a ``RolloutWorker`` (one Chromium, its own REAL-local, the one rollout function) and a
``PolicyActor`` (an in-process model serving the workers' ``complete`` calls), and how a worker reaches the policy
(``PolicySpec``: the actor, or the mode's OpenAI/vLLM server)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import time
from dataclasses import dataclass
from typing import Any, Sequence

from halo.errors import PolicyError
from halo.policy.base import Completion, PolicyBackend
from halo.runtime.ray.cluster import _ray

WORKER_LOST = "rollout worker lost"


class PolicyLost(PolicyError):
    """The policy actor (or the policy server as seen from the workers) is gone: the run cannot continue."""


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
    # ``server``: the adapter version of ``server.model`` (a vLLM name LoraSync loaded; None: not versioned). Every
    # request of the unit uses that one name, so each of its steps is recorded at this version
    version: int | None = None


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


def stamp_version(episodes: list, version: int | None) -> list:
    """A server unit's episodes with each step's sample recorded at ``version``, the adapter version of the one
    vLLM name all its requests used (``PolicySpec.version``); a step that already carries one keeps it, and
    ``None`` (an unversioned server) leaves them as they are. A ``PolicyActor``'s completions carry their own."""
    if version is None:
        return episodes
    for e in episodes:
        for st in e.steps:
            if st.sample.version is None:
                st.sample = dataclasses.replace(st.sample, version=version)
    return episodes


def _critic_for(critic: Any, policy: Any, cache: dict) -> Any:
    """The MCTS critic in a worker: None, ``"same"`` (the sampling policy critiques itself) or a ``PolicySpec``."""
    if critic is None:
        return None
    from halo.rl.critic import PolicyCritic, ProgressCritic

    if critic == "progress":
        return ProgressCritic()
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

    def sync_weights(self, state: dict, version: int, record: bool = False) -> int:
        """Load the learner's trainable weights (adapter and modules_to_save) into the hosted model. ``record``
        (asynchronous GRPO): ``version`` becomes the adapter version its completions record (``weights_version``,
        set under the sampler's lock with the weights: a generate call holds that lock, so a push lands between two
        calls, i.e. between two steps of an episode in flight, and each completion records the version of the
        weights that drew it); else they record none, as the in-process sampler's outside asynchronous GRPO."""
        with self.policy._lock:
            missing = self.policy.model.load_state_dict(state, strict=False)
            if not missing.unexpected_keys:
                self.policy.weights_version = version if record else None
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
        """Start the sites and the browser (idempotent); returns ``{pid, node, node_id, urls}`` (``node``: the
        host's name; ``node_id``: the Ray node's id, which tells apart several nodes on one host)."""
        if self._start_lock is None:
            self._start_lock = asyncio.Lock()
        async with self._start_lock:
            if self._pool is None:
                if self.site_names:
                    from real_local.server import SitesServer

                    self._server = SitesServer(self.site_names)
                    self.urls = await asyncio.to_thread(self._server.start)
                from halo.env.browser import BrowserPool

                self._stack = contextlib.AsyncExitStack()
                self._pool = await self._stack.enter_async_context(BrowserPool(headless=self.headless))
        import socket

        return {"pid": os.getpid(), "node": socket.gethostname(),
                "node_id": _ray().get_runtime_context().get_node_id(), "urls": dict(self.urls)}

    def _retarget(self, task: Any) -> Any:
        """A REAL-local task pointed at this worker's own sites."""
        if getattr(task, "local", False) and task.site in self.urls:
            return dataclasses.replace(task, base_url=self.urls[task.site])
        return task

    async def run(self, task: Any, n: int, spec: PolicySpec, kw: dict) -> dict:
        """``n`` episodes of ``task`` (``rollout.run_group``), at most ``kw["parallel"]`` at once (in waves past it);
        returns the episodes and timings."""
        from halo.env.env import BrowserEnv
        from halo.rl.rollout import run_group

        t0 = time.perf_counter()
        await self.start()
        width = max(1, min(n, kw.get("parallel") or n))
        envs = [self._free.pop() if self._free else BrowserEnv(self._pool, **self.env_kwargs) for _ in range(width)]
        try:
            eps = await run_group(envs, _policy_for(spec, self._policies), self._retarget(task), n=n, **kw)
        finally:
            self._free.extend(envs)
        return {"episodes": stamp_version(eps, spec.version), "wall_s": time.perf_counter() - t0,
                "pid": os.getpid()}

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
