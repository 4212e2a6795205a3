"""Benchmark REAL-local Omnizon and Zilloft: p50 page latency, memory per session, and the oracle episodes'
steps/s through BrowserEnv. Writes bench/results/shop_sites.json.

    .venv/bin/python bench/shop_sites_bench.py [--rounds 30]

Latency is measured over real loopback HTTP (server render + transport) with one keep-alive client; memory per
session with tracemalloc over sessions created and mutated in-process; steps/s by replaying every oracle of
tests/sites/oracles_{omnizon,zilloft}.py in real Chromium (one env at a time), each graded by agisdk's scripts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "sites"))

PAGES = {
    "omnizon": ["/", "/search?q=cooking+pot", "/search?q=headphones&min=25&max=100", "/product/212", "/cart",
                "/checkout", "/orders"],
    "zilloft": ["/", "/search?searchQuery=California&maxPrice=900000&minBeds=3&minBaths=0",
                "/search?searchQuery=Boston%2C+MA", "/homedetails/15004", "/myzilloft/saved-homes"],
}


def latency(urls: dict[str, str], rounds: int) -> dict:
    out = {}
    for site, paths in PAGES.items():
        with httpx.Client(base_url=urls[site]) as c:
            c.get("/config", params={"task_id": f"v2.{site}-{'13' if site == 'omnizon' else '9'}", "run_id": "0"})
            if site == "omnizon":
                c.post("/cart/add", data={"id": "212", "quantity": "1"})
            per_page = {}
            for p in paths:
                c.get(p)  # warm the template cache
                ms = []
                for _ in range(rounds):
                    t = time.perf_counter()
                    r = c.get(p)
                    ms.append((time.perf_counter() - t) * 1000)
                    assert r.status_code == 200, (p, r.status_code)
                per_page[p] = {"p50_ms": round(statistics.median(ms), 2), "bytes": len(r.content)}
        everything = [v["p50_ms"] for v in per_page.values()]
        out[site] = {"p50_ms_over_pages": round(statistics.median(everything), 2), "pages": per_page}
    return out


def memory_per_session(n: int = 300) -> dict:
    from halo.sites.core import build_app
    from halo.sites.server import load_spec

    out = {}
    for site in PAGES:
        store = build_app(load_spec(site)).state.store
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for i in range(n):
            s = store.new(task_id=f"v2.{site}-{'13' if site == 'omnizon' else '9'}", run_id=str(i))
            if site == "omnizon":
                s.state["cart"]["items"].append({"id": "212", "quantity": 1, "price": 44.99})
            else:
                s.state["filters"]["searchQuery"] = "Boston, MA"
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        grown = sum(st.size_diff for st in after.compare_to(before, "filename"))
        out[site] = {"sessions": n, "bytes_per_session": round(grown / n)}
    return out


async def oracle_speed(urls: dict[str, str]) -> dict:
    import oracles_omnizon
    import oracles_zilloft
    from _shop_helpers import run_oracle

    from halo.env.browser import BrowserPool
    from halo.env.env import BrowserEnv
    from halo.tasks import get_task

    out = {}
    async with BrowserPool() as pool:
        env = BrowserEnv(pool, max_steps=60)
        for site, mod in (("omnizon", oracles_omnizon), ("zilloft", oracles_zilloft)):
            steps = successes = 0
            step_s = episode_s = 0.0
            for name, oracle in sorted(mod.ORACLES.items()):
                task = get_task(name, sites="local", site_urls=urls)
                t0 = time.perf_counter()
                result = await run_oracle(env, task, oracle)
                episode_s += time.perf_counter() - t0
                step_s += time.perf_counter() - t0 - env.reset_timings.get("total", 0.0)
                steps += result.observation.step
                successes += bool(result.info.grade and result.info.grade.success)
            out[site] = {"episodes": len(mod.ORACLES), "successes": successes, "steps": steps,
                         "steps_per_s": round(steps / step_s, 2), "episodes_per_min": round(
                             60 * len(mod.ORACLES) / episode_s, 1)}
        await env.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--no-browser", action="store_true", help="skip the oracle replay (no Chromium needed)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "shop_sites.json"))
    args = ap.parse_args()

    from halo.sites.server import SitesServer

    with SitesServer(sites=tuple(PAGES)) as urls:
        res = {"machine": {"python": platform.python_version(), "cpus": __import__("os").cpu_count()},
               "latency": latency(urls, args.rounds), "memory": memory_per_session()}
        if not args.no_browser:
            res["oracles_browserenv"] = asyncio.run(oracle_speed(urls))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(res, indent=2) + "\n")
    print(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
