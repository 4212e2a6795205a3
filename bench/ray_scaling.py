"""Rollouts on Ray on one machine: episodes/min with 1 and 2 rollout workers, and Ray's overhead per episode
against the local path (``halo.jobs.eval.run_eval`` without and with ``halo.runtime.ray.rollouts.RayRollouts``).

    .venv/bin/python bench/ray_scaling.py [--episodes 8] [--max-steps 3] [--tasks v2.gomail-1,v2.gomail-2]

The tiny model, greedy (temperature 0, ``max_batch`` 1): every configuration takes the same actions on the same
pages (tests/scale checks it), so their episodes are the same work and the wall-time differences are the
scheduler's. Configurations, each timed over its episodes only (start-up, the workers' Chromium and REAL-local and
the policy actor, is reported apart):

- ``local_1env`` / ``local_2env``: this process, one ``BrowserPool``, 1 or 2 envs;
- ``ray_1worker`` / ``ray_2workers``: 1 or 2 ``RolloutWorker`` actors (one env each), the model in a ``PolicyActor``.

The overhead per episode is ``ray_1worker``'s seconds per episode minus ``local_1env``'s (its Chromium launch,
measured apart, left out): shipping prompts and completions to the policy actor at every step, the episode
(screenshots as bytes) back to the driver, the actor calls; ``ray_dispatch_s_per_episode`` is the part outside the
worker (the driver's wait minus the worker's own time). The greedy tiny model ends most episodes at its first
step, so these are per-episode costs of short episodes (reset, one policy call, grading). On 2 cores
shared with other jobs, 2 workers cannot run twice as fast as 1: the result says how far they got. Results go to
``bench/results/ray_scaling.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


async def timed_local(mode, tasks, cfg, run_dir) -> dict:
    from halo.jobs.eval import run_eval
    from halo.policy.modes import make_policy
    from halo.runtime.runs import RunDir

    policy = make_policy(mode)
    t0 = time.perf_counter()
    res = await run_eval(policy, tasks, cfg, RunDir(run_dir, f"local{cfg.parallel}"))
    wall = time.perf_counter() - t0
    await policy.aclose()
    return _summary(res, wall, cfg)


async def timed_ray(mode, tasks, cfg, run_dir, workers: int) -> dict:
    from halo.jobs.eval import run_eval
    from halo.runtime.ray.rollouts import RayRollouts, sites_of
    from halo.runtime.runs import RunDir

    rollouts = RayRollouts(mode, None, workers=workers, sites=sites_of(tasks), per_worker=cfg.parallel,
                           env_kwargs={"max_steps": cfg.max_steps, "episode_timeout_s": cfg.episode_timeout_s})
    t0 = time.perf_counter()
    await rollouts.start()
    start_s = time.perf_counter() - t0
    try:
        t0 = time.perf_counter()
        res = await run_eval(None, tasks, cfg, RunDir(run_dir, f"ray{workers}"), rollouts=rollouts)
        wall = time.perf_counter() - t0
    finally:
        await rollouts.close()
    out = _summary(res, wall, cfg)
    out.update(start_s=round(start_s, 2), worker_s_per_episode=round(rollouts.stats.worker_s / max(1, out["n"]), 3))
    return out


def _summary(res, wall: float, cfg) -> dict:
    m = res.metrics()
    n = m["episodes"] + m["errored"]
    return {"n": n, "errored": m["errored"], "wall_s": round(wall, 2), "episodes_per_min": round(60 * n / wall, 1),
            "s_per_episode": round(wall / n, 3), "mean_steps": round(m["mean_steps"], 2)}


async def main(args) -> dict:
    import ray

    from halo.jobs.eval import EvalConfig
    from halo.policy.modes import get_mode
    from halo.policy.tiny import ensure_tiny_model
    from halo.tasks.resolve import local_sites, resolve_tasks

    model = str(ROOT / "models" / "tiny-qwen3vl")
    ensure_tiny_model(model, print)
    mode = get_mode("tiny").with_overrides(max_batch=1, model=model)
    refs = [t for t in args.tasks.split(",") if t]
    per_task = max(1, args.episodes // len(refs))
    out: dict = {"machine": {"cpus": os.cpu_count(), "load_avg_before": os.getloadavg(),
                             "python": platform.python_version(), "ray": ray.__version__},
                 "settings": {"tasks": refs, "episodes": per_task * len(refs), "max_steps": args.max_steps,
                              "mode": "tiny, greedy, max_batch 1"}, "runs": {}}
    tmp = Path(tempfile.mkdtemp(prefix="ray-bench-"))
    from halo.env.browser import BrowserPool

    launches = []
    for _ in range(2):  # the local path's timing includes its Chromium launch; Ray's start-up is timed apart
        t0 = time.perf_counter()
        async with BrowserPool():
            launches.append(time.perf_counter() - t0)
    out["local_browser_launch_and_close_s"] = round(min(launches), 2)
    with local_sites(True) as urls:
        tasks = resolve_tasks(refs, sites="local", site_urls=urls)
        for par in (1, 2):
            cfg = EvalConfig(episodes=per_task, parallel=par, max_steps=args.max_steps, temperature=0.0,
                             episode_timeout_s=300)
            out["runs"][f"local_{par}env"] = r = await timed_local(mode, tasks, cfg, tmp)
            print(f"local {par} env(s): {r}", flush=True)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        cfg = EvalConfig(episodes=per_task, parallel=1, max_steps=args.max_steps, temperature=0.0,
                         episode_timeout_s=300)
        for w in (1, 2):
            key = "ray_1worker" if w == 1 else "ray_2workers"
            out["runs"][key] = r = await timed_ray(mode, tasks, cfg, tmp, w)
            print(f"ray {w} worker(s): {r}", flush=True)
    finally:
        ray.shutdown()
    runs = out["runs"]
    n = runs["local_1env"]["n"]
    local_s = (runs["local_1env"]["wall_s"] - out["local_browser_launch_and_close_s"]) / n  # launch left out
    out["local_1env_s_per_episode_without_launch"] = round(local_s, 3)
    out["ray_overhead_s_per_episode"] = round(runs["ray_1worker"]["s_per_episode"] - local_s, 3)
    out["ray_overhead_share"] = round(out["ray_overhead_s_per_episode"] / local_s, 3)
    # the driver's view of a unit minus the worker's own: dispatch, the episode's trip back, bookkeeping
    out["ray_dispatch_s_per_episode"] = round(runs["ray_1worker"]["s_per_episode"]
                                              - runs["ray_1worker"]["worker_s_per_episode"], 3)
    out["scaling_2_vs_1_workers"] = round(runs["ray_2workers"]["episodes_per_min"]
                                          / runs["ray_1worker"]["episodes_per_min"], 2)
    out["scaling_2_vs_1_local_envs"] = round(runs["local_2env"]["episodes_per_min"]
                                             / runs["local_1env"]["episodes_per_min"], 2)
    out["machine"]["load_avg_after"] = os.getloadavg()
    return out


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--episodes", type=int, default=8)
    p.add_argument("--max-steps", type=int, default=3)
    p.add_argument("--tasks", default="v2.gomail-1,v2.gomail-2")
    p.add_argument("--out", default=str(ROOT / "bench" / "results" / "ray_scaling.json"))
    a = p.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    result = asyncio.run(main(a))
    Path(a.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "runs"}, indent=2))
