"""Benchmark REAL-local GoMail and GoCalendar, and HALO's BrowserEnv against agisdk's own BrowserGym env.

    .venv/bin/python bench/mail_calendar_bench.py [--shipped-tasks 5] [--rounds 20]

1. p50 page latency per page (server-side, from the Server-Timing header, and over loopback HTTP);
2. memory per session (tracemalloc over sessions created and changed in-process);
3. the GoMail oracle action sequences (tests/sites/oracles_gomail.py) replayed in one run through
   (a) HALO's BrowserEnv, (b) agisdk's BrowserGym env with slow_mo 0, (c) agisdk's env as shipped (slow_mo 1000 ms,
   on the first --shipped-tasks tasks only: it takes ~1 s per Playwright call). Elements are found by role and name
   in each env's own observation (HALO's DOM-walk tree; BrowserGym's Chromium AXTree with its bids), so both envs
   run the same steps. Steps/s counts env.step calls (terminal send_msg_to_user included, reset excluded).
Writes bench/results/mail_calendar.json.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import json
import logging
import os
import platform
import re
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "sites"))

PAGES = {
    "gomail": ["/", "/?page=2", "/email/33", "/search?q=support", "/starred"],
    "gocalendar": ["/", "/r/month/2024/7/18", "/r/day/2024/7/17", "/r/week/2024/9/20"],
}


# ---------------------------------------------------------------- 1. latency
def latency(urls: dict[str, str], rounds: int) -> dict:
    out = {}
    for site, paths in PAGES.items():
        with httpx.Client(base_url=urls[site]) as c:
            c.get("/config", params={"task_id": f"v2.{site}-1" if site == "gomail" else "v2.gocalendar-4"})
            per_page = {}
            for p in paths:
                c.get(p)
                server, wall = [], []
                for _ in range(rounds):
                    t = time.perf_counter()
                    r = c.get(p)
                    wall.append((time.perf_counter() - t) * 1000)
                    server.append(float(re.search(r"dur=([\d.]+)", r.headers["server-timing"]).group(1)))
                per_page[p] = {"server_p50_ms": round(statistics.median(server), 2),
                               "http_p50_ms": round(statistics.median(wall), 2)}
            out[site] = {"pages": per_page,
                         "server_p50_ms": round(statistics.median(v["server_p50_ms"] for v in per_page.values()), 2),
                         "http_p50_ms": round(statistics.median(v["http_p50_ms"] for v in per_page.values()), 2)}
    return out


# ---------------------------------------------------------------- 2. memory per session
def memory_per_session(n: int = 200) -> dict:
    from real_local.core import SessionStore
    from real_local.gocalendar import SPEC as CAL
    from real_local.gocalendar import planner
    from real_local.gomail import SPEC as MAIL
    from real_local.gomail import mailbox

    out = {}
    for spec, change in ((MAIL, lambda st: mailbox.apply_action(st, "trash", ["1", "2", "3"])),
                         (CAL, lambda st: planner.delete_event(st, "6"))):
        store = SessionStore(spec, max_sessions=n + 10)
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for i in range(n):
            s = store.new(task_id=f"v2.{spec.name}-1")
            change(s.state)
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        grown = sum(st.size_diff for st in after.compare_to(before, "filename"))
        out[spec.name] = {"sessions": n, "kib_per_session": round(grown / n / 1024, 1)}
    return out


# ---------------------------------------------------------------- 3. agisdk's env with the same oracles
def debian_chromium_for_playwright() -> None:
    """agisdk's env launches a second browser for its chat window with Playwright's default executable, which is
    not downloadable here: when it is missing, point PLAYWRIGHT_BROWSERS_PATH at a directory whose expected
    headless-shell path links to Debian's (both envs then run the very same binary)."""
    import playwright

    from halo.env.browser import DEBIAN_SHELL

    spec = json.loads((Path(playwright.__file__).parent / "driver" / "package" / "browsers.json").read_text())
    rev = next(b["revision"] for b in spec["browsers"] if b["name"] == "chromium-headless-shell")
    default = Path.home() / ".cache" / "ms-playwright" / f"chromium_headless_shell-{rev}"
    if default.exists() or not os.path.exists(DEBIAN_SHELL) or os.environ.get("PLAYWRIGHT_BROWSERS_PATH"):
        return
    root = Path("/tmp/halo-pw-browsers")
    exe = root / f"chromium_headless_shell-{rev}" / "chrome-headless-shell-linux64" / "chrome-headless-shell"
    exe.parent.mkdir(parents=True, exist_ok=True)
    if not exe.exists():
        exe.symlink_to(DEBIAN_SHELL)
    os.environ["PLAYWRIGHT_BROWSERS_PATH"] = str(root)


# agisdk's env uses one global sync Playwright, bound to the thread that started it: every call goes to this thread
GYM_THREAD = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="agisdk-env")


class GymDriver:
    """The oracle Driver's interface over agisdk's synchronous BrowserGym env (run on one dedicated thread)."""

    def __init__(self, env, obs, pool: concurrent.futures.ThreadPoolExecutor):
        self.env, self.obs, self.pool = env, obs, pool
        self.steps, self.step_s, self.reward, self.errors = 0, 0.0, 0.0, []

    def _nodes(self):
        props = self.obs.get("extra_element_properties", {})
        for n in self.obs["axtree_object"]["nodes"]:
            bid = n.get("browsergym_id")
            if n.get("ignored") or bid is None:
                continue
            yield bid, n.get("role", {}).get("value", ""), str(n.get("name", {}).get("value", "")), props.get(bid, {})

    def find(self, role, name, exact=False, nth=0):
        hits = []
        for bid, r, nm, prop in self._nodes():
            if role and r != role:
                continue
            a, b = " ".join(nm.split()).lower(), name.lower()
            if (a == b) if exact else a.startswith(b):
                hits.append((bid, prop))
        if len(hits) <= nth:
            raise LookupError(f"BrowserGym observation has no {role} {name!r}")
        return hits[nth]

    async def _step(self, action: str):
        loop = asyncio.get_running_loop()
        t = time.perf_counter()
        self.obs, reward, _done, _trunc, _info = await loop.run_in_executor(self.pool, self.env.step, action)
        self.step_s += time.perf_counter() - t
        self.steps += 1
        self.reward = reward
        if self.obs.get("last_action_error"):  # e.g. agisdk's 500 ms click timeout while a navigation runs:
            self.errors.append(f"{action}: {self.obs['last_action_error'].splitlines()[0][:200]}")  # go on

    async def click(self, role, name, **kw):
        await self._step(f'click("{self.find(role, name, **kw)[0]}")')

    async def click_xy(self, role, name, **kw):
        x, y, w, h = self.find(role, name, **kw)[1]["bbox"]
        await self._step(f"mouse_click({x + w / 2:.1f}, {y + h / 2:.1f})")

    async def fill(self, role, name, value, **kw):
        await self._step(f'fill("{self.find(role, name, **kw)[0]}", {json.dumps(value)})')

    async def press(self, role, name, key, **kw):
        await self._step(f'press("{self.find(role, name, **kw)[0]}", "{key}")')

    async def finish(self, text="Done."):
        await self._step(f"send_msg_to_user({json.dumps(text)})")


def _gym_env(task_id: str, url: str, slow_mo: int | None):
    from agisdk.REAL.browsergym.core.action.highlevel import HighLevelActionSet
    from agisdk.REAL.browsergym.core.env import BrowserEnv as GymEnv
    from agisdk.REAL.browsergym.webclones.base import AbstractWebCloneTask

    from halo.env.browser import DEBIAN_SHELL, find_chromium

    class LocalTask(AbstractWebCloneTask):  # agisdk's task, pointed at REAL-local instead of REAL's vercel app
        def __init__(self, seed, **kw):
            super().__init__(seed, task_id=task_id)
            self.url = url

    exe = os.environ.get("HALO_CHROMIUM") or (DEBIAN_SHELL if os.path.exists(DEBIAN_SHELL) else find_chromium()[0])
    chromium = {"executable_path": exe} if exe else {}  # agisdk passes its own (empty) args
    actions = HighLevelActionSet(subsets=["chat", "bid", "coord", "nav"], strict=False, multiaction=False)
    return GymEnv(task_entrypoint=LocalTask, headless=True, slow_mo=slow_mo, pw_chromium_kwargs=chromium,
                  pw_context_kwargs={"timezone_id": "America/Los_Angeles"}, action_mapping=actions.to_python_code)


async def run_gym(task_ids, url, slow_mo):
    from oracles_gomail import ORACLES

    pool = GYM_THREAD
    loop = asyncio.get_running_loop()
    results = []
    for tid in task_ids:
        env = await loop.run_in_executor(pool, _gym_env, tid, url, slow_mo)
        t = time.perf_counter()
        try:
            obs, _ = await loop.run_in_executor(pool, env.reset)
        except Exception as e:
            results.append({"task": tid, "steps": 0, "step_s": 0.0, "reset_s": 0.0, "success": False,
                            "error": f"reset failed: {type(e).__name__}: {e}"[:300]})
            continue
        reset_s = time.perf_counter() - t
        try:
            d = GymDriver(env, obs, pool)
            error = None
            try:
                await ORACLES[tid](d)
                await d.finish()
            except Exception as e:  # recorded: one broken episode must not stop the benchmark
                error = f"{type(e).__name__}: {e}"[:300]
            results.append({"task": tid, "steps": d.steps, "step_s": round(d.step_s, 3), "reset_s": round(reset_s, 3),
                            "success": d.reward == 1.0, "error": error, "action_errors": d.errors})
        finally:
            await loop.run_in_executor(pool, env.close)
    return results


async def run_halo(task_ids, urls):
    from oracles_gomail import ORACLES
    from site_helpers import Driver

    from halo.env.browser import BrowserPool
    from halo.env.env import BrowserEnv
    from halo.tasks.real import get_task

    results = []
    async with BrowserPool() as pool:
        for tid in task_ids:
            env = BrowserEnv(pool)
            t = time.perf_counter()
            d = Driver(env, await env.reset(get_task(tid, sites="local", site_urls=urls)))
            reset_s = time.perf_counter() - t
            t = time.perf_counter()
            error = None
            try:
                await ORACLES[tid](d)
                res = await d.finish()
                success = bool(res.info.grade and res.info.grade.success)
            except Exception as e:
                error, success = f"{type(e).__name__}: {e}"[:300], False
            results.append({"task": tid, "steps": d.steps, "step_s": round(time.perf_counter() - t, 3),
                            "reset_s": round(reset_s, 3), "success": success, "error": error})
            await env.close()
    return results


def summary(rows):
    steps = sum(r["steps"] for r in rows)
    secs = sum(r["step_s"] for r in rows)
    return {"episodes": len(rows), "successes": sum(r["success"] for r in rows), "steps": steps,
            "step_seconds": round(secs, 2), "steps_per_s": round(steps / secs, 2) if secs else None,
            "reset_p50_s": round(statistics.median(r["reset_s"] for r in rows), 3) if rows else None}


async def compare(urls, shipped_n: int, n_tasks: int | None = None) -> dict:
    from oracles_gomail import ORACLES

    tasks = sorted(ORACLES, key=lambda t: int(t.rsplit("-", 1)[1]))[:n_tasks]
    halo = await run_halo(tasks, urls)
    gym0 = await run_gym(tasks, urls["gomail"], 0)
    shipped_tasks = tasks[:shipped_n]
    gym_shipped = await run_gym(shipped_tasks, urls["gomail"], None) if shipped_n else []

    def on(rows, ids):
        return [r for r in rows if r["task"] in ids]

    out = {"tasks": tasks, "halo_browserenv": summary(halo), "agisdk_slow_mo_0": summary(gym0),
           "agisdk_as_shipped": {"tasks": shipped_tasks, **summary(gym_shipped)},
           "episodes": {"halo_browserenv": halo, "agisdk_slow_mo_0": gym0, "agisdk_as_shipped": gym_shipped}}
    h, g = out["halo_browserenv"]["steps_per_s"], out["agisdk_slow_mo_0"]["steps_per_s"]
    out["ratio_halo_vs_agisdk_slow_mo_0"] = round(h / g, 2) if h and g else None
    if gym_shipped:
        hs, gs = summary(on(halo, set(shipped_tasks)))["steps_per_s"], out["agisdk_as_shipped"]["steps_per_s"]
        out["ratio_halo_vs_agisdk_as_shipped_same_tasks"] = round(hs / gs, 2) if hs and gs else None
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--shipped-tasks", type=int, default=5, help="GoMail tasks run through agisdk's env as shipped")
    ap.add_argument("--tasks", type=int, default=None, help="only the first N GoMail tasks (default: all 21)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "mail_calendar.json"))
    args = ap.parse_args()
    logging.disable(logging.WARNING)
    debian_chromium_for_playwright()

    from real_local.server import SitesServer

    with SitesServer(("gomail", "gocalendar")) as urls:
        result = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "loadavg_at_start": os.getloadavg()},
                  "latency": latency(urls, args.rounds), "memory": memory_per_session(),
                  "env_comparison_gomail": asyncio.run(compare(urls, args.shipped_tasks, args.tasks))}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2))
    c = result["env_comparison_gomail"]
    print(json.dumps({k: result[k] for k in ("latency", "memory")}, indent=1)[:1500])
    for k in ("halo_browserenv", "agisdk_slow_mo_0", "agisdk_as_shipped"):
        print(k, {x: c[k][x] for x in ("episodes", "successes", "steps", "steps_per_s", "reset_p50_s")})
    print("ratio vs slow_mo 0:", c["ratio_halo_vs_agisdk_slow_mo_0"],
          "| vs as shipped (same tasks):", c.get("ratio_halo_vs_agisdk_as_shipped_same_tasks"))
    print("wrote", args.out)


if __name__ == "__main__":
    main()
