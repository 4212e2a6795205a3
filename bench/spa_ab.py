"""REAL-local's client-side navigation (``/_spa/router.js``) on against off, HALO's env, ABAB in one process.

    .venv/bin/python bench/spa_ab.py [--envs 8] [--episodes 32] [--rounds 4]

Two REAL-local servers run side by side: one as shipped, one whose ``/_spa/router.js`` is empty (every link and form
then loads a new document, as before stop 39). One ``BrowserPool`` and N ``BrowserEnv`` replay the same oracle episodes
(the throughput bench's order over its nine sites) on one server then the other, the order alternating each round;
CPU is this process's tree (Chromium, Playwright's driver, the sites' threads). Writes bench/results/spa_ab.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "sites"), str(ROOT / "bench")]
SITES = ["gomail", "gocalendar", "omnizon", "zilloft", "dashdish", "opendining", "udriver", "staynb", "marrisuite"]


async def run(args) -> dict:
    import rollout_throughput as rt

    from halo.env.browser import BrowserPool
    from halo.env.env import BrowserEnv
    from halo.tasks.real import get_task
    from real_local import core
    from real_local.server import SitesServer

    ids = rt.task_order(SITES, args.episodes)
    driver_cls = rt.halo_driver_class()
    shipped = core.ROUTER_JS
    core.ROUTER_JS = b""  # the apps copy it when they are built
    off = SitesServer(SITES)
    off.start()
    core.ROUTER_JS = shipped
    on = SitesServer(SITES)
    on.start()
    servers = {"router": on.urls, "no_router": off.urls}
    out: dict = {"envs": args.envs, "episodes": len(ids), "rounds": []}
    try:
        rt.warm(ids, on.urls)
        async with BrowserPool() as pool:
            envs = [BrowserEnv(pool, max_steps=60) for _ in range(args.envs)]

            async def batch(urls) -> tuple[int, int]:
                queue = list(ids)
                ok = docs = 0

                async def worker(env):
                    nonlocal ok, docs
                    while queue:
                        tid = queue.pop(0)
                        oracle, message = rt.driver_oracle(tid)
                        obs = await env.reset(get_task(tid, sites="local", site_urls=urls))
                        seen: list[int] = []

                        def handler(r, seen=seen):
                            if r.is_navigation_request():
                                seen.append(1)

                        env.page.on("request", handler)
                        d = driver_cls(env, obs)
                        await oracle(d)
                        r = await d.finish(message)
                        env.page.remove_listener("request", handler)
                        ok += bool(r.info.grade and r.info.grade.success)
                        docs += len(seen)

                await asyncio.gather(*(worker(e) for e in envs))
                return ok, docs

            for urls in servers.values():  # untimed: the sites' first requests, the browser's caches
                await batch(urls)
            for rnd in range(args.rounds):
                order = list(servers) if rnd % 2 == 0 else list(servers)[::-1]
                for name in order:
                    c0, t0 = rt.tree_cpu_now(), time.perf_counter()
                    ok, docs = await batch(servers[name])
                    c1, t1 = rt.tree_cpu_now(), time.perf_counter()
                    row = {"round": rnd, "sites": name, "successes": ok, "documents_after_reset": docs,
                           "cpu_ms_per_episode": round(1000 * (c1 - c0) / len(ids), 1),
                           "episodes_per_min": round(60 * len(ids) / (t1 - t0), 1)}
                    out["rounds"].append(row)
                    print(row, flush=True)
            await asyncio.gather(*(e.close() for e in envs))
    finally:
        on.stop()
        off.stop()
    for name in servers:
        rows = [r for r in out["rounds"] if r["sites"] == name]
        out[name] = {k: round(statistics.fmean(r[k] for r in rows), 1)
                     for k in ("cpu_ms_per_episode", "episodes_per_min", "documents_after_reset")}
        out[name]["successes"] = sum(r["successes"] for r in rows)
    out["no_router_over_router_cpu"] = round(out["no_router"]["cpu_ms_per_episode"] /
                                             out["router"]["cpu_ms_per_episode"], 3)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=8)
    ap.add_argument("--episodes", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "spa_ab.json"))
    args = ap.parse_args()
    logging.disable(logging.WARNING)
    out = asyncio.run(run(args))
    out["when"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    path = Path(args.out)
    runs = json.loads(path.read_text()) if path.exists() else {}
    runs[f"envs_{args.envs}"] = out
    path.write_text(json.dumps(runs, indent=1) + "\n")
    print({k: out[k] for k in ("router", "no_router", "no_router_over_router_cpu")})


if __name__ == "__main__":
    main()
