"""Rollout throughput on REAL-local's real tasks: HALO's BrowserEnv against agisdk's own env, 1/4/8 envs.

    .venv/bin/python bench/rollout_throughput.py --label final [--concurrency 1,4,8] [--episodes 16] [--agisdk]

The oracle solutions of every REAL-local task (``tests/sites/oracles_*.py``, every site that imports) are replayed
round-robin over the sites (the first ``--episodes`` of that order, at least two per env; 0: all of them) with N
concurrent envs on one machine:

- ``halo``: one process, one shared ``BrowserPool``, N ``BrowserEnv`` on an asyncio loop, each pulling the next task;
- ``agisdk_slow_mo_0``: agisdk's BrowserGym env (``agisdk.REAL.browsergym``, pointed at REAL-local, slow_mo 0), one
  process per env (its sync Playwright is process-global), each pulling the next task; agisdk's env launches a
  browser (and its chat window's) at every reset, so its resets include that, as shipped;
- ``halo_baseline`` (``--baseline-src``): the baseline commit's BrowserEnv, the same way, in the same invocation;
- ``agisdk_as_shipped`` (``--shipped-episodes``, 1 env only): the same with the task's own slow_mo (1 s per call).

Both drivers find elements by role and name in their env's own observation (HALO's DOM-walk tree; BrowserGym's
AXTree with its bids) and, like a model, take a short wait when the element is not there yet (counted as a step).
Every configuration runs in worker processes started, warmed (imports, the browser launch, one untimed reset per env
unless --no-warmup) and released together;
the parent measures: episodes/min and steps/s over the window, reset and step latency (p50/p95), CPU per step (every
process of the workers' trees, Chromium and Playwright's driver included: their own rusage after they exit) and the
PSS of the workers' trees (sampled every 0.5 s): memory per extra env is (median at N - median at 1) / (N - 1), the
steady state of N live episodes (``_at_peak``: the same from the peaks, which catch transient grading processes).
The sites run in their own process, outside every measure but their own: ``site_cpu_ms_per_episode`` (on a real run
they share the machine; a page load the browser's cache serves costs them nothing). They are warmed first by one
untimed pass of HALO's env over the tasks (``--no-site-warmup``: none; before stop 38 there was none, and the
configuration measured first, HALO's env, paid the sites' first requests: the same code measured twice in one run gave
78 then 98 episodes/min at 8 envs). Results go under ``runs[--label]`` of
``bench/results/rollout_throughput.json`` (other labels are kept, so the baseline stays beside later runs).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import logging
import multiprocessing as mp
import os
import platform
import queue as queue_mod
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "sites"), str(ROOT / "bench")]
RESULTS = ROOT / "bench" / "results" / "rollout_throughput.json"
PATIENCE = 4  # waits a driver takes for an element that is not on the page yet
NOT_GYM = {"v2.gocalendar-6"}  # reads an element's box and value in HALO's own observation: no BrowserGym twin
MCTX = mp.get_context("spawn")


# ---------------------------------------------------------------- tasks and their oracles
def importable_sites() -> list[str]:
    from real_local.ports import SITE_NAMES

    out = []
    for name in SITE_NAMES:
        with contextlib.suppress(Exception):
            importlib.import_module(f"real_local.{name}").SPEC  # noqa: B018
            if (ROOT / "tests" / "sites" / f"oracles_{name}.py").exists():
                out.append(name)
    return out


def oracles(site: str) -> dict[str, Any]:
    return importlib.import_module(f"oracles_{site}").ORACLES


def driver_oracle(task_id: str) -> tuple[Any, str]:
    """``(async oracle(driver), final message)`` of a task, whatever way its oracle is written."""
    from _shop_helpers import as_driver_oracle

    site = task_id.split("-")[0].split(".")[-1]
    o = oracles(site)[task_id]
    if isinstance(o, list):  # a list of steps (omnizon, zilloft, dashdish)
        return as_driver_oracle(o)
    return o, "Done."


def task_order(sites: list[str], episodes: int) -> list[str]:
    """Round-robin over the sites (each site's oracles in their natural order), the first ``episodes``."""
    per = {s: sorted((t for t in oracles(s) if t not in NOT_GYM), key=lambda t: int(t.rsplit("-", 1)[1]))
           for s in sites}
    out = []
    while any(per.values()):
        for s in sites:
            if per[s]:
                out.append(per[s].pop(0))
    return out[:episodes] if episodes else out


# ---------------------------------------------------------------- CPU of a process tree
def tree_cpu_now() -> float:
    """CPU seconds of this process and every live descendant (with what each has reaped)."""
    import psutil

    me = psutil.Process()
    total = sum(me.cpu_times()[:4])
    for p in me.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            total += sum(p.cpu_times()[:4])
    return total


def cpu_by_kind() -> dict[str, float]:
    """CPU seconds of this process's tree by kind: python, Playwright's driver, and Chromium's processes by --type
    (grading subprocesses are python too)."""
    import psutil

    me = psutil.Process()
    out = {"python": sum(me.cpu_times()[:2])}
    for p in me.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            cmd = p.cmdline()
            kind = "driver" if "run-driver" in " ".join(cmd[:3]) else "python" if "python" in (cmd[0] if cmd else "") \
                else next((a.split("=", 1)[1] for a in cmd if a.startswith("--type=")), "browser")
            out[kind] = out.get(kind, 0.0) + sum(p.cpu_times()[:2])
    return out


def become_subreaper() -> None:
    """Orphaned descendants (Chromium's zygote and renderers outlive the browser process by a moment) are
    re-parented to this process instead of init, so that their CPU time reaches our RUSAGE_CHILDREN (Linux)."""
    import ctypes

    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


def reap_all(timeout: float = 20.0) -> None:
    """Wait for every descendant to exit and reap it (after the browsers are closed)."""
    import psutil

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            if not psutil.Process().children():
                return
            time.sleep(0.05)


def own_cpu_after_exit() -> float:
    """CPU seconds of this process and every descendant (call after ``reap_all``: with ``become_subreaper`` every
    descendant's time is then in RUSAGE_CHILDREN)."""
    reap_all()
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def tree_pss(pids: list[int]) -> float:
    """MB of PSS of these processes and their descendants."""
    import psutil

    seen, total = set(), 0
    for pid in pids:
        with contextlib.suppress(psutil.Error):
            root = psutil.Process(pid)
            for p in [root, *root.children(recursive=True)]:
                if p.pid in seen:
                    continue
                seen.add(p.pid)
                with contextlib.suppress(psutil.Error):
                    total += p.memory_full_info().pss
    return total / 2**20


# ---------------------------------------------------------------- drivers
def halo_driver_class():
    from site_helpers import Driver, find_elements

    from halo.env import actions as A

    class TimedDriver(Driver):
        """conftest's Driver, timing every step and waiting (bounded) for an element that is not there yet."""

        def __init__(self, env, obs):
            super().__init__(env, obs)
            self.step_times: list[float] = []

        async def _timed(self, action):
            t = time.perf_counter()
            res = await self.env.step(action)
            self.step_times.append(time.perf_counter() - t)
            self.steps += 1
            return res

        async def step(self, action):
            res = await self._timed(action)
            assert not res.info.errored, f"episode errored at {action.describe()}: {res.info.error}"
            assert res.info.error is None, f"{action.describe()} failed on {self.obs.url}: {res.info.error}"
            self.obs, self.result = res.observation, res
            return res

        async def _ensure(self, role, name, **kw):
            for _ in range(PATIENCE):
                if len(find_elements(self.obs, role, name, exact=kw.get("exact", False))) > kw.get("nth", 0):
                    return
                await self.step(A.Wait(0.5))

        async def click(self, role, name, **kw):
            await self._ensure(role, name, **kw)
            return await super().click(role, name, **kw)

        async def click_xy(self, role, name, **kw):
            await self._ensure(role, name, **kw)
            return await super().click_xy(role, name, **kw)

        async def fill(self, role, name, value, **kw):
            await self._ensure(role, name, **kw)
            return await super().fill(role, name, value, **kw)

        async def press(self, role, name, key, **kw):
            await self._ensure(role, name, **kw)
            return await super().press(role, name, key, **kw)

        async def finish(self, text="Done."):
            res = await self._timed(A.SendMsgToUser(text))
            self.obs, self.result = res.observation, res
            return res

    return TimedDriver


def gym_driver_class():
    import mail_calendar_bench as mcb

    class TimedGymDriver(mcb.GymDriver):
        def __init__(self, env, obs, pool):
            super().__init__(env, obs, pool)
            self.step_times: list[float] = []

        async def _step(self, action):
            t = time.perf_counter()
            await super()._step(action)
            self.step_times.append(time.perf_counter() - t)

        def find(self, role, name, exact=False, nth=0):
            return super().find(role, name, exact=exact, nth=nth)

        async def _ensure(self, role, name, **kw):
            for _ in range(PATIENCE):
                try:
                    self.find(role, name, **kw)
                    return
                except LookupError:
                    await self._step("noop(500)")

        async def click(self, role, name, **kw):
            await self._ensure(role, name, **kw)
            await super().click(role, name, **kw)

        async def click_xy(self, role, name, **kw):
            await self._ensure(role, name, **kw)
            await super().click_xy(role, name, **kw)

        async def fill(self, role, name, value, **kw):
            await self._ensure(role, name, **kw)
            await super().fill(role, name, value, **kw)

        async def press(self, role, name, key, **kw):
            await self._ensure(role, name, **kw)
            await super().press(role, name, key, **kw)

        async def select(self, role, name, option, **kw):
            await self._ensure(role, name, **kw)
            await self._step(f'select_option("{self.find(role, name, **kw)[0]}", {json.dumps(option)})')

    return TimedGymDriver


# ---------------------------------------------------------------- workers (each its own process)
def _next(tasks) -> str | None:
    try:
        return tasks.get_nowait()
    except queue_mod.Empty:
        return None


def quiet() -> None:
    """A worker prints nothing (agisdk's evaluator prints every criterion)."""
    logging.disable(logging.WARNING)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - for the life of the worker


def warm(task_ids: list[str], urls: dict[str, str]) -> None:
    """Everything an episode imports or loads once (agisdk's task files, the evaluator, the oracles): before the
    window, in both kinds of worker."""
    from halo.tasks.real import get_task

    for tid in task_ids:
        driver_oracle(tid)
        get_task(tid, sites="local", site_urls=urls)
    importlib.import_module("agisdk.REAL.browsergym.webclones.evaluate")


def halo_worker(urls, tasks, task_ids, n_envs, barrier, results, warmup=True, src=None) -> None:
    if src:  # another checkout's halo (the baseline's), imported before anything of halo is
        sys.path.insert(0, src)
    quiet()
    become_subreaper()
    warm(task_ids, urls)

    async def main():
        from halo.env.browser import BrowserPool
        from halo.env.env import BrowserEnv
        from halo.tasks.real import get_task

        TimedDriver = halo_driver_class()
        rows: list[dict] = []
        async with BrowserPool() as pool:
            envs = [BrowserEnv(pool, max_steps=60) for _ in range(n_envs)]
            if warmup:  # envs live as long as a training run: one untimed reset each (the context is opened)
                first = get_task(task_ids[0], sites="local", site_urls=urls)
                await asyncio.gather(*(e.reset(first) for e in envs))
            await asyncio.to_thread(barrier.wait)
            t_go, cpu_go, kinds_go = time.time(), tree_cpu_now(), cpu_by_kind()

            async def run(env):
                while (tid := _next(tasks)) is not None:
                    oracle, message = driver_oracle(tid)
                    task = get_task(tid, sites="local", site_urls=urls)
                    t0 = time.perf_counter()
                    error, success, d = None, False, None
                    try:
                        d = TimedDriver(env, await env.reset(task))
                        reset_s = time.perf_counter() - t0
                        await oracle(d)
                        res = await d.finish(message)
                        success = bool(res.info.grade and res.info.grade.success)
                    except Exception as e:  # noqa: BLE001 - recorded: one broken episode must not stop the bench
                        error = f"{type(e).__name__}: {e}"[:300]
                        reset_s = env.reset_timings.get("total", time.perf_counter() - t0) if d is None else reset_s
                    rows.append({"task": tid, "reset_s": round(reset_s, 4),
                                 "step_s": [round(x, 4) for x in (d.step_times if d else [])],
                                 "reset_parts": {k: round(v, 4) for k, v in env.reset_timings.items()},
                                 "episode_s": round(time.perf_counter() - t0, 3), "success": success, "error": error})

            await asyncio.gather(*(run(e) for e in envs))
            t_end = time.time()
            kinds = {k: round(v - kinds_go.get(k, 0.0), 2) for k, v in cpu_by_kind().items()}
            desc = pool.description
            await asyncio.gather(*(e.close() for e in envs))
        return rows, t_go, t_end, cpu_go, desc, kinds

    rows, t_go, t_end, cpu_go, desc, kinds = asyncio.run(main())
    results.put({"rows": rows, "t_go": t_go, "t_end": t_end, "cpu": own_cpu_after_exit() - cpu_go, "browser": desc,
                 "cpu_s_by_process": kinds})


def gym_worker(urls, tasks, task_ids, slow_mo, barrier, results, warmup=True) -> None:
    quiet()
    become_subreaper()
    warm(task_ids, urls)
    importlib.import_module("agisdk.REAL.browsergym.core.env")
    import mail_calendar_bench as mcb

    mcb.debian_chromium_for_playwright()
    from agisdk.REAL.browsergym.core import _get_global_playwright

    _get_global_playwright  # noqa: B018 - imported now, started on the env's thread
    TimedGymDriver = gym_driver_class()

    async def main():
        loop = asyncio.get_running_loop()
        pool = mcb.GYM_THREAD
        await loop.run_in_executor(pool, _get_global_playwright)  # the driver starts before the window
        if warmup:  # as HALO's: one untimed reset (agisdk's env launches its browsers at every reset anyway)
            tid = task_ids[0]
            env = await loop.run_in_executor(pool, mcb._gym_env, tid if tid.startswith("v2.") else f"v2.{tid}",
                                             urls[tid.split("-")[0].split(".")[-1]], slow_mo)
            await loop.run_in_executor(pool, env.reset)
            await loop.run_in_executor(pool, env.close)
        await asyncio.to_thread(barrier.wait)
        t_go, cpu_go = time.time(), tree_cpu_now()
        rows = []
        while (tid := _next(tasks)) is not None:
            oracle, message = driver_oracle(tid)
            site = tid.split("-")[0].split(".")[-1]
            t0 = time.perf_counter()
            error, d, reset_s = None, None, 0.0
            env = None
            try:
                env = await loop.run_in_executor(pool, mcb._gym_env, tid if tid.startswith("v2.") else f"v2.{tid}",
                                                 urls[site], slow_mo)
                obs, _ = await loop.run_in_executor(pool, env.reset)
                reset_s = time.perf_counter() - t0
                d = TimedGymDriver(env, obs, pool)
                await oracle(d)
                await d.finish(message)
            except Exception as e:  # noqa: BLE001 - recorded
                error = f"{type(e).__name__}: {e}"[:300]
                reset_s = reset_s or time.perf_counter() - t0
            finally:
                if env is not None:
                    with contextlib.suppress(Exception):
                        await loop.run_in_executor(pool, env.close)
            rows.append({"task": tid, "reset_s": round(reset_s, 4),
                         "step_s": [round(x, 4) for x in (d.step_times if d else [])],
                         "episode_s": round(time.perf_counter() - t0, 3),
                         "success": bool(d and d.reward == 1.0), "error": error})
        t_end = time.time()
        await loop.run_in_executor(pool, lambda: _get_global_playwright().stop())
        return rows, t_go, t_end, cpu_go

    rows, t_go, t_end, cpu_go = asyncio.run(main())
    results.put({"rows": rows, "t_go": t_go, "t_end": t_end, "cpu": own_cpu_after_exit() - cpu_go})


# ---------------------------------------------------------------- one configuration
def pct(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def site_cpu() -> float:
    """CPU seconds of the sites' process (REAL-local's servers: outside every other measure, on the same machine)."""
    import psutil

    with contextlib.suppress(psutil.Error):
        return sum(psutil.Process(SITES_PID[0]).cpu_times()[:2]) if SITES_PID else 0.0
    return 0.0


SITES_PID: list[int] = []


def measure(kind: str, urls: dict[str, str], task_ids: list[str], n: int, slow_mo: int | None = 0,
            warmup: bool = True, src: str | None = None) -> dict:
    tasks, results = MCTX.Queue(), MCTX.Queue()
    for t in task_ids:
        tasks.put(t)
    time.sleep(0.2)  # the queue's feeder thread has flushed
    procs = n if kind != "halo" else 1
    barrier = MCTX.Barrier(procs + 1)
    if kind == "halo":
        workers = [MCTX.Process(target=halo_worker, args=(urls, tasks, task_ids, n, barrier, results, warmup, src))]
    else:
        workers = [MCTX.Process(target=gym_worker, args=(urls, tasks, task_ids, slow_mo, barrier, results, warmup)) for _ in range(n)]
    for w in workers:
        w.start()
    barrier.wait(timeout=300)
    site_go = site_cpu()
    idle = tree_pss([w.pid for w in workers])
    peak, stop = [idle], threading.Event()

    def sample():
        while not stop.wait(0.5):
            peak.append(tree_pss([w.pid for w in workers]))

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    got = [results.get(timeout=1800) for _ in workers]
    site_s = site_cpu() - site_go
    stop.set()
    th.join()
    for w in workers:
        w.join(timeout=60)
    rows = [r for g in got for r in g["rows"]]
    wall = max(g["t_end"] for g in got) - min(g["t_go"] for g in got)
    steps = [s for r in rows for s in r["step_s"]]
    resets = [r["reset_s"] for r in rows]
    cpu = sum(g["cpu"] for g in got)
    out = {"envs": n, "episodes": len(rows), "successes": sum(r["success"] for r in rows),
           "errors": [f"{r['task']}: {r['error']}" for r in rows if r["error"]],
           "steps": len(steps), "wall_s": round(wall, 2),
           "episodes_per_min": round(60 * len(rows) / wall, 2), "steps_per_s": round(len(steps) / wall, 2),
           "reset_p50_ms": round(1000 * pct(resets, 0.5), 1), "reset_p95_ms": round(1000 * pct(resets, 0.95), 1),
           "step_p50_ms": round(1000 * pct(steps, 0.5), 1), "step_p95_ms": round(1000 * pct(steps, 0.95), 1),
           "cpu_s": round(cpu, 2), "cpu_ms_per_step": round(1000 * cpu / max(1, len(steps)), 1),
           "cpu_ms_per_episode": round(1000 * cpu / max(1, len(rows)), 1),
           "site_cpu_ms_per_episode": round(1000 * site_s / max(1, len(rows)), 1),
           "pss_idle_mb": round(idle, 1), "pss_peak_mb": round(max(peak), 1),
           "pss_median_mb": round(statistics.median(peak[1:] or peak), 1)}
    if kind == "halo":
        parts: dict[str, list[float]] = {}
        for r in rows:
            for k, v in r.get("reset_parts", {}).items():
                parts.setdefault(k, []).append(v)
        out["reset_parts_p50_ms"] = {k: round(1000 * statistics.median(v), 1) for k, v in parts.items()}
        out["browser"] = got[0].get("browser")
        out["cpu_s_by_process"] = got[0].get("cpu_s_by_process")  # live processes only (graders have exited)
    out["episodes_detail"] = [{k: v for k, v in r.items() if k != "step_s"} | {"steps": len(r["step_s"])}
                              for r in rows]
    return out


def sites_process(sites: list[str], conn) -> None:
    from real_local.server import SitesServer

    logging.disable(logging.WARNING)
    with SitesServer(sites) as urls:
        conn.send(urls)
        conn.recv()  # until the parent says stop


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--label", default="final", help="key under runs (baseline is kept once written)")
    ap.add_argument("--concurrency", default="1,4,8")
    ap.add_argument("--episodes", type=int, default=16,
                    help="episodes per configuration, round-robin over the sites (at least 2 per env; 0: all)")
    ap.add_argument("--agisdk", action=argparse.BooleanOptionalAction, default=True,
                    help="also run agisdk's env at slow_mo 0 at every concurrency")
    ap.add_argument("--shipped-episodes", type=int, default=1, help="episodes of agisdk's env as shipped (1 env)")
    ap.add_argument("--sites", default="", help="comma-separated sites (default: every site with oracles)")
    ap.add_argument("--warmup", action=argparse.BooleanOptionalAction, default=True,
                    help="one untimed reset per env before the window (the baseline run had none)")
    ap.add_argument("--site-warmup", action=argparse.BooleanOptionalAction, default=True,
                    help="one untimed pass of HALO's env over the tasks before any measure (the sites' first "
                         "requests of each page cost them ~3x: whatever ran first paid it)")
    ap.add_argument("--baseline-src", default="",
                    help="a checkout's src/ of the baseline commit: its BrowserEnv also runs at every level, in the "
                         "same invocation (same machine load), as halo_baseline")
    ap.add_argument("--out", default=str(RESULTS))
    args = ap.parse_args()
    logging.disable(logging.WARNING)

    sites = [s for s in args.sites.split(",") if s] or importable_sites()
    levels = [int(x) for x in args.concurrency.split(",")]
    parent, child = MCTX.Pipe()
    server = MCTX.Process(target=sites_process, args=(sites, child), daemon=True)
    server.start()
    SITES_PID.append(server.pid)
    urls = parent.recv()
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True, check=False).stdout.strip()
    except OSError:
        commit = ""
    run: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": commit,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "loadavg_at_start": os.getloadavg()},
        "sites": sites, "warmup": args.warmup, "site_warmup": args.site_warmup, "baseline_src": args.baseline_src,
        "levels": {}}
    try:
        if args.site_warmup:  # the same code twice in one invocation gave 78 then 98 episodes/min at 8 envs without it
            ids = task_order(sites, max(args.episodes, 2 * max(levels)) if args.episodes else 0)
            w = measure("halo", urls, ids, max(levels), warmup=args.warmup)
            run["site_warmup_pass"] = {k: w[k] for k in ("envs", "episodes", "episodes_per_min", "cpu_ms_per_episode",
                                                         "site_cpu_ms_per_episode")}
            print("site warm-up (not a measure)", run["site_warmup_pass"], flush=True)
        for n in levels:
            ids = task_order(sites, max(args.episodes, 2 * n) if args.episodes else 0)
            row: dict[str, Any] = {"tasks": ids}
            print(f"-- {n} env(s), {len(ids)} episodes", flush=True)
            row["halo"] = measure("halo", urls, ids, n, warmup=args.warmup)
            print("halo", {k: v for k, v in row["halo"].items() if k not in ("episodes_detail", "errors")}, flush=True)
            if args.baseline_src:
                row["halo_baseline"] = measure("halo", urls, ids, n, warmup=args.warmup, src=args.baseline_src)
                b, h = row["halo_baseline"], row["halo"]
                print("halo_baseline", {k: v for k, v in b.items() if k not in ("episodes_detail", "errors")},
                      flush=True)
                row["ratio_halo_vs_halo_baseline"] = {
                    "episodes_per_min": round(h["episodes_per_min"] / b["episodes_per_min"], 2),
                    "cpu_per_episode": round(b["cpu_ms_per_episode"] / h["cpu_ms_per_episode"], 2)}
            if args.agisdk:
                row["agisdk_slow_mo_0"] = measure("gym", urls, ids, n, 0, warmup=args.warmup)
                g = row["agisdk_slow_mo_0"]
                print("agisdk", {k: v for k, v in g.items() if k not in ("episodes_detail", "errors")}, flush=True)
                h = row["halo"]
                row["ratio_halo_vs_agisdk_slow_mo_0"] = {
                    "episodes_per_min": round(h["episodes_per_min"] / g["episodes_per_min"], 2),
                    "steps_per_s": round(h["steps_per_s"] / g["steps_per_s"], 2),
                    "cpu_per_step": round(g["cpu_ms_per_step"] / h["cpu_ms_per_step"], 2)}
                print("ratio", row["ratio_halo_vs_agisdk_slow_mo_0"], flush=True)
            run["levels"][str(n)] = row
        if 1 in levels:
            for kind in ("halo", "halo_baseline", "agisdk_slow_mo_0"):
                one = run["levels"]["1"].get(kind)
                for n in levels:
                    if n > 1 and one and kind in run["levels"][str(n)]:
                        x = run["levels"][str(n)][kind]
                        x["mb_per_extra_env"] = round((x["pss_median_mb"] - one["pss_median_mb"]) / (n - 1), 1)
                        x["mb_per_extra_env_at_peak"] = round((x["pss_peak_mb"] - one["pss_peak_mb"]) / (n - 1), 1)
        if args.agisdk and args.shipped_episodes and 1 in levels:
            ids = task_order(sites, args.shipped_episodes)
            shipped = measure("gym", urls, ids, 1, None)
            run["agisdk_as_shipped_1_env"] = shipped
            h = run["levels"]["1"]["halo"]
            run["agisdk_as_shipped_1_env"]["ratio_halo_episodes_per_min"] = round(
                h["episodes_per_min"] / shipped["episodes_per_min"], 2)
            print("agisdk as shipped", {k: v for k, v in shipped.items() if k != "episodes_detail"}, flush=True)
    finally:
        parent.send("stop")
        server.join(timeout=10)

    out = Path(args.out)
    doc = json.loads(out.read_text()) if out.exists() else {}
    doc.setdefault("about", __doc__.split("\n\n")[0].strip())
    doc.setdefault("runs", {})[args.label] = run
    base, fin = doc["runs"].get("baseline"), doc["runs"].get("final")
    if base and fin:
        cmp = {}
        for n, row in fin["levels"].items():
            b = base["levels"].get(n, {}).get("halo")
            f = row.get("halo")
            if b and f:
                cmp[n] = {"episodes_per_min_x": round(f["episodes_per_min"] / b["episodes_per_min"], 2),
                          "steps_per_s_x": round(f["steps_per_s"] / b["steps_per_s"], 2),
                          "reset_p50_ms": [b["reset_p50_ms"], f["reset_p50_ms"]],
                          "step_p50_ms": [b["step_p50_ms"], f["step_p50_ms"]],
                          "cpu_ms_per_step": [b["cpu_ms_per_step"], f["cpu_ms_per_step"]],
                          "mb_per_extra_env_at_peak": [b.get("mb_per_extra_env_at_peak", b.get("mb_per_extra_env")),
                                                       f.get("mb_per_extra_env_at_peak")],
                          "mb_per_extra_env_median": [b.get("mb_per_extra_env") if "pss_median_mb" in b else None,
                                                      f.get("mb_per_extra_env")]}
        doc["final_vs_baseline"] = cmp
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1) + "\n")
    print("wrote", out)


if __name__ == "__main__":
    main()
