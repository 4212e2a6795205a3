"""Evaluation: K episodes per task with a policy, N browser envs in parallel, results in a run directory.

Episodes run through the one rollout function (``halo.rl.rollout.run_episode``). Broken episodes (browser or site
failures) are recorded but left out of success rates, as in training. REAL-local sites are served in-process for
the duration of the run (``SitesServer`` on free ports) unless ``site_urls`` points at running ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Sequence

from halo.errors import ConfigError
from halo.rl.health import RunUnhealthy, check_max_error_share, count_reasons, error_report
from halo.runs import RunDir


@dataclass(frozen=True)
class EvalConfig:
    episodes: int = 1  # per task
    parallel: int = 2  # browser envs
    max_steps: int = 25  # agisdk harness default
    temperature: float | None = None  # None: the policy's own; 0: greedy
    headless: bool = True
    episode_timeout_s: float = 900.0  # wall-clock deadline of one episode
    max_error_share: float = 0.5  # more errored episodes than this share stops the evaluation (halo.rl.health)

    def __post_init__(self) -> None:
        for name in ("episodes", "parallel", "max_steps"):
            if getattr(self, name) < 1:
                raise ConfigError(f"{name} must be >= 1, got {getattr(self, name)}")
        check_max_error_share(self.max_error_share)
        if not self.episode_timeout_s > 0:
            raise ConfigError(f"episode_timeout_s must be > 0, got {self.episode_timeout_s}")


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


def resolve_tasks(refs: Sequence[str], sites: str = "local", site_urls: dict[str, str] | None = None,
                  goal: str | None = None) -> list[Any]:
    """Task ids (``v2.gomail-1`` or ``gomail-1``), site names (all their tasks), ``local`` (every REAL-local
    task), task-family specs (``gomail.open@train``, ``halo.families``; always on REAL-local) or page URLs (a
    plain page with ``goal``). A site name or ``local`` leaves out the tasks no final state can pass
    (``halo.tasks.UNGRADABLE``: gocalendar-11, whose script is empty); named by id, such a task still runs."""
    from halo.families import is_family_spec, resolve_family_spec
    from halo.tasks import LOCAL_SITES, get_task, list_tasks, page_task

    out = []
    for i, ref in enumerate(r.strip() for r in refs if r.strip()):
        if is_family_spec(ref):
            if sites != "local":
                raise ConfigError(f"{ref}: task families run on REAL-local only; drop --sites remote")
            out += resolve_family_spec(ref, site_urls)
        elif ref.startswith(("http://", "https://", "file://")):
            out.append(page_task(ref, goal=goal or "Explore the page.", task_id=f"page-{i}"))
        elif ref == "local":
            out += [t for t in list_tasks(site=None, sites="local", site_urls=site_urls) if t.rewardable]
        elif ref in LOCAL_SITES or (sites == "remote" and "-" not in ref and "." not in ref):
            found = list_tasks(site=ref, sites=sites, site_urls=site_urls)
            if not found:
                raise ConfigError(f"no tasks on site {ref!r}; list them with `halo tasks`")
            out += [t for t in found if t.rewardable]
        else:
            out.append(get_task(ref, sites=sites, site_urls=site_urls))
    if not out:
        raise ConfigError("no tasks given; pass --tasks v2.gomail-1,omnizon or a page URL")
    return out


def needs_local_sites(refs: Sequence[str], sites: str) -> bool:
    return sites == "local" and any(not r.strip().startswith(("http://", "https://", "file://"))
                                    for r in refs if r.strip())


@contextlib.contextmanager
def local_sites(enabled: bool, site_urls: dict[str, str] | None = None):
    """REAL-local for the run: the given URLs, or all four sites served in this process on free ports."""
    if not enabled or site_urls:
        yield site_urls
        return
    from halo.sites.server import SitesServer

    with SitesServer() as urls:
        yield urls


async def run_eval(policy: Any, tasks: Sequence[Any], cfg: EvalConfig, run: RunDir,
                   on_episode: Callable[[Any, Any], None] | None = None,
                   on_step: Callable[[Any], None] | None = None, rollouts: Any = None) -> EvalResult:
    """Every task ``cfg.episodes`` times over ``cfg.parallel`` envs; each episode is written as it ends.

    ``rollouts`` (a started ``halo.scale.RayRollouts``): the episodes run on its Ray workers instead, each
    worker ``cfg.parallel`` at a time, and come back here to be written and counted the same way (``on_step``
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
        from halo.scale import Unit

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
