"""The evaluation job: K episodes per task with a policy mode, N browser envs in parallel (or Ray workers),
results in a run directory.

Episodes run through the one rollout function (``halo.rl.rollout.run_episode``). Broken episodes (browser or site
failures) are recorded but left out of success rates, as in training. REAL-local sites are served in-process for
the duration of the run (``SitesServer`` on free ports) unless ``site_urls`` points at running ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from dataclasses import asdict, dataclass, field
from typing import Annotated, Any, Callable, Sequence

from pydantic import Field

from halo.config.overrides import Override
from halo.config.settings import AtLeast1, Fraction, NonNegative, Positive, Why, settings
from halo.rl.config import Steps
from halo.rl.health import RunUnhealthy, count_reasons, error_report
from halo.runtime.runs import RunDir


@settings
class EvalConfig:
    episodes: Annotated[AtLeast1, Field(le=1000), Why(
        "episodes of each task, one after another; 1000 is days of browser time per task")] = 1  # per task
    parallel: Annotated[AtLeast1, Field(le=64), Why(
        "each is a browser context with its own renderer process, 100-300 MB each")] = 2  # browser envs
    max_steps: Steps = 25  # agisdk harness default
    temperature: NonNegative | None = None  # None: the policy's own; 0: greedy
    headless: bool = True
    episode_timeout_s: Positive = 900.0  # wall-clock deadline of one episode
    max_error_share: Fraction = 0.5  # more errored episodes than this share stops the evaluation (1: never)


@dataclass
class EvalJob:
    """``halo eval``: a mode on tasks, with the command line's overrides (``--set``, then flags)."""

    mode: str
    tasks: list[str]
    cfg: EvalConfig = field(default_factory=EvalConfig)
    sites: str = "local"
    goal: str | None = None  # for page-URL tasks
    recovery: bool | None = None  # None: the mode's
    run_name: str | None = None
    runs_dir: str | os.PathLike = "runs"
    modes_file: str | None = None
    overrides: tuple[Override, ...] = ()
    log: str = "none"
    ray: str | None = None
    ray_workers: int = 2


@dataclass
class TaskResult:
    task_id: str
    site: str
    episodes: int = 0  # not errored
    successes: int = 0
    errored: int = 0
    steps: int = 0
    dense_return: float = 0.0
    valid_actions: float = 0.0
    clean_actions: float = 0.0  # parsed as written: neither repaired nor cut off at the token limit

    @property
    def success_rate(self) -> float:
        return self.successes / self.episodes if self.episodes else 0.0


@dataclass
class EvalResult:
    tasks: dict[str, TaskResult] = field(default_factory=dict)
    wall_time: float = 0.0
    errors: list[str] = field(default_factory=list)  # why broken episodes broke

    def by_site(self) -> dict[str, TaskResult]:
        out: dict[str, TaskResult] = {}
        for r in self.tasks.values():
            s = out.setdefault(r.site, TaskResult(task_id=r.site, site=r.site))
            for k in ("episodes", "successes", "errored", "steps"):
                setattr(s, k, getattr(s, k) + getattr(r, k))
            s.dense_return += r.dense_return
            s.valid_actions += r.valid_actions
            s.clean_actions += r.clean_actions
        return out

    def metrics(self) -> dict[str, Any]:
        eps = sum(r.episodes for r in self.tasks.values())
        return {"kind": "eval", "episodes": eps, "errored": sum(r.errored for r in self.tasks.values()),
                "success_rate": (sum(r.successes for r in self.tasks.values()) / eps) if eps else 0.0,
                "mean_dense_return": (sum(r.dense_return for r in self.tasks.values()) / eps) if eps else 0.0,
                "action_validity": (sum(r.valid_actions for r in self.tasks.values()) / eps) if eps else 0.0,
                "clean_validity": (sum(r.clean_actions for r in self.tasks.values()) / eps) if eps else 0.0,
                "mean_steps": (sum(r.steps for r in self.tasks.values()) / eps) if eps else 0.0,
                "per_task": {k: r.success_rate for k, r in self.tasks.items()},
                "per_site": {k: r.success_rate for k, r in self.by_site().items()},
                "errors": count_reasons(e.split(": ", 1)[-1] for e in self.errors),
                "wall_time": round(self.wall_time, 2)}


async def run_eval(policy: Any, tasks: Sequence[Any], cfg: EvalConfig, run: RunDir,
                   on_episode: Callable[[Any, Any], None] | None = None,
                   on_step: Callable[[Any], None] | None = None, rollouts: Any = None) -> EvalResult:
    """Every task ``cfg.episodes`` times over ``cfg.parallel`` envs; each episode is written as it ends.

    ``rollouts`` (a started ``halo.runtime.ray.rollouts.RayRollouts``): the episodes run on its Ray workers instead,
    each worker ``cfg.parallel`` at a time, and come back here to be written and counted the same way (``on_step``
    is then called for an episode's steps when it ends)."""
    from halo.env.browser import BrowserPool
    from halo.env.env import BrowserEnv
    from halo.rl.rollout import run_episode

    result = EvalResult(tasks={t.id: TaskResult(task_id=t.id, site=t.site) for t in tasks})
    jobs: asyncio.Queue = asyncio.Queue()
    for k in range(cfg.episodes):
        for t in tasks:
            jobs.put_nowait((t, k))
    t0 = time.perf_counter()
    total, broken = jobs.qsize(), []

    def too_many() -> bool:  # the evaluation failed already: start no more episodes
        return len(broken) > cfg.max_error_share * total

    def record(task: Any, k: int, ep: Any) -> None:
        run.write_episode(f"{task.name}-{k:02d}", ep)
        r = result.tasks[task.id]
        if ep.errored:
            broken.append(ep)
            r.errored += 1
            result.errors.append(f"{task.id}: {ep.error}")
        else:
            r.episodes += 1
            r.successes += int(ep.success)
            r.steps += len(ep.steps)
            r.dense_return += ep.dense_return
            r.valid_actions += ep.action_validity
            r.clean_actions += ep.clean_validity
        if on_episode is not None:
            on_episode(task, ep)

    async def worker(pool: Any) -> None:
        env = BrowserEnv(pool, max_steps=cfg.max_steps, episode_timeout_s=cfg.episode_timeout_s)
        try:
            while not jobs.empty() and not too_many():
                task, k = jobs.get_nowait()
                ep = await run_episode(env, policy, task, temperature=cfg.temperature, max_steps=cfg.max_steps,
                                       on_step=on_step)
                record(task, k, ep)
        finally:
            with contextlib.suppress(Exception):
                await env.close()

    if rollouts is not None:
        from halo.runtime.ray.rollouts import Unit

        def done(unit: Any, eps: list) -> None:
            for ep in eps:
                if on_step is not None:
                    for st in ep.steps:
                        on_step(st)
                record(unit.task, unit.key, ep)

        units = [Unit(task=t, n=1, key=k) for t, k in (jobs.get_nowait() for _ in range(total))]
        await rollouts.run_units(units, {"temperature": cfg.temperature, "max_steps": cfg.max_steps},
                                 on_done=done, stop=too_many)
    else:
        async with BrowserPool(headless=cfg.headless) as pool:
            await asyncio.gather(*(worker(pool) for _ in range(min(cfg.parallel, jobs.qsize()))))
    result.wall_time = time.perf_counter() - t0
    metrics = {"iteration": 0, **result.metrics()}
    if rollouts is not None:
        metrics["ray"] = rollouts.stats.as_dict()
    run.log_metrics(metrics)
    health = error_report(broken)
    health.total = total
    if health.too_many(cfg.max_error_share):
        raise RunUnhealthy(health.paragraph("evaluation", cfg.max_error_share), health, result)
    return result


def config_record(cfg: EvalConfig, mode: Any, tasks: Sequence[Any], sites: str, recovery: bool,
                  site_urls: dict[str, str] | None) -> dict[str, Any]:
    return {"command": "eval", "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "eval": asdict(cfg), "sites": sites, "site_urls": site_urls or {}, "recovery": recovery,
            "tasks": [t.id if t.protocol else t.base_url for t in tasks],
            "mode": mode.model_dump() if hasattr(mode, "model_dump") else mode}


async def run_eval_job(job: EvalJob, *, log: Callable[[str], None] = print,
                       on_start: Callable[[int], None] | None = None,
                       on_episode: Callable[[Any, Any], None] | None = None,
                       on_step: Callable[[Any], None] | None = None) -> tuple[EvalResult, RunDir]:
    """The job: checks at the door (sites, tracker, the mode, Ray's address, tasks, the policy server, remote
    sites, the runs directory) before any site or browser starts, then the episodes here or on Ray workers.
    ``on_start(total)`` is called with the number of episodes once they are known."""
    from halo.errors import ConfigError
    from halo.jobs.preflight import check_runs_dir, preflight, resolve_task_refs
    from halo.policy.modes import get_mode
    from halo.runtime.tracking import check_tracker

    if job.sites not in ("local", "remote"):
        raise ConfigError(f"--sites must be 'local' or 'remote', got {job.sites!r}")
    check_tracker(job.log)
    mode = get_mode(job.mode, job.modes_file, job.overrides)
    if job.ray is not None:
        from halo.runtime.ray.cluster import check_address

        check_address(job.ray, job.ray_workers)
    await preflight(mode, resolve_task_refs(job.tasks, job.sites, job.goal))
    check_runs_dir(job.runs_dir)
    from halo.policy.tiny import ensure_mode_model

    ensure_mode_model(mode, log)  # a tiny mode builds its model on first use (offline)
    recovery = mode.recovery if job.recovery is None else job.recovery
    if job.ray is not None:
        return await _eval_on_ray(job, mode, recovery, log, on_start, on_episode, on_step)
    from halo.tasks.resolve import local_sites, needs_local_sites, resolve_tasks

    with local_sites(needs_local_sites(job.tasks, job.sites)) as urls:
        tasks = resolve_tasks(job.tasks, sites=job.sites, site_urls=urls, goal=job.goal)
        policy = _policy(mode, recovery)
        run = RunDir(job.runs_dir, job.run_name, prefix=f"eval-{job.mode}")
        record = {**config_record(job.cfg, mode, tasks, job.sites, recovery, urls),
                  "sets": [str(o) for o in job.overrides]}
        log(f"[bold]eval[/bold] mode={job.mode} tasks={len(tasks)} episodes={job.cfg.episodes} "
            f"parallel={job.cfg.parallel} -> {run.path}")
        return await _run_recorded(job, policy, tasks, run, record, on_start, on_episode, on_step), run


def _policy(mode: Any, recovery: bool) -> Any:
    from halo.policy.modes import make_policy
    from halo.policy.recovery import RecoveringPolicy

    policy = make_policy(mode)
    return RecoveringPolicy(policy) if recovery else policy


async def _run_recorded(job: EvalJob, policy: Any, tasks: Sequence[Any], run: RunDir, record: dict[str, Any],
                        on_start: Callable[[int], None] | None, on_episode: Callable[[Any, Any], None] | None,
                        on_step: Callable[[Any], None] | None, rollouts: Any = None) -> EvalResult:
    """The run's config written, the episodes run (the policy server checked first), metrics to the tracker."""
    from halo.runtime.tracking import open_tracker

    run.write_config(record)
    if on_start is not None:
        on_start(len(tasks) * job.cfg.episodes)
    with open_tracker(job.log, run.path, record) as tracker:
        try:
            check = getattr(policy, "check", None)
            if check is not None:
                await check()
            result = await run_eval(policy, tasks, job.cfg, run, on_episode=on_episode, on_step=on_step,
                                    rollouts=rollouts)
        finally:
            close = getattr(policy, "aclose", None)
            if close is not None:
                await close()
        tracker.log(result.metrics(), 0)
    return result


async def _eval_on_ray(job: EvalJob, mode: Any, recovery: bool, log: Callable[[str], None],
                       on_start: Callable[[int], None] | None, on_episode: Callable[[Any, Any], None] | None,
                       on_step: Callable[[Any], None] | None) -> tuple[EvalResult, RunDir]:
    """``halo eval --ray``: the same evaluation, its episodes on Ray rollout workers (each serving REAL-local on its
    own node); the run directory is written here, as on the local path."""
    from halo.runtime.ray.cluster import ray_session
    from halo.runtime.ray.rollouts import RayRollouts, sites_of
    from halo.tasks.resolve import resolve_tasks

    cfg = job.cfg
    with ray_session(job.ray, job.ray_workers) as info:  # a bad address is an error here, before any site starts
        tasks = resolve_tasks(job.tasks, sites=job.sites, site_urls=None, goal=job.goal)  # workers use their own
        policy = _policy(mode, recovery) if mode.backend != "hf" else None  # an hf model loads in the policy actor
        rollouts = RayRollouts(mode, policy, workers=job.ray_workers, sites=sites_of(tasks), per_worker=cfg.parallel,
                               headless=cfg.headless,
                               env_kwargs={"max_steps": cfg.max_steps, "episode_timeout_s": cfg.episode_timeout_s},
                               unit_timeout_s=cfg.episode_timeout_s + 120)
        rollouts.recovery = recovery
        run = RunDir(job.runs_dir, job.run_name, prefix=f"eval-{job.mode}")
        record = {**config_record(cfg, mode, tasks, job.sites, recovery, None), "sets": [str(o) for o in job.overrides],
                  "ray": {"address": job.ray, "workers": job.ray_workers, "nodes": info["nodes"], "cpus": info["cpus"]}}
        log(f"[bold]eval[/bold] mode={job.mode} tasks={len(tasks)} episodes={cfg.episodes} on Ray ({info['address']}: "
            f"{info['nodes']} node(s), {info['cpus']} CPUs) with {job.ray_workers} workers x {cfg.parallel} envs -> "
            f"{run.path}")
        async with rollouts:
            result = await _run_recorded(job, policy, tasks, run, record, on_start, on_episode, on_step, rollouts)
        return result, run
