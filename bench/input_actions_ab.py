"""fill / select_option / press through ``js/input.js`` (one evaluate, then the keyboard) against Playwright's
locator calls (the env before stop 39), on REAL-local's oracle episodes: CPU per episode, one env, ABAB.

    .venv/bin/python bench/input_actions_ab.py [--episodes 32] [--rounds 4]

One process, one env, one browser: the same oracle episodes (round-robin over the form-heavy sites) replayed with the
env's handlers for Fill / SelectOption / Press swapped between the two implementations, alternating which goes first
each round, so that drift in the machine's load falls on both. CPU is this process's tree (the sites run in-process
here, so their CPU counts for both). Writes bench/results/input_actions_ab.json.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import logging
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "sites"), str(ROOT / "bench")]
SITES = ["dashdish", "marrisuite", "opendining", "udriver", "staynb", "omnizon", "topwork", "networkin"]


def locator_handlers():
    """The env's handlers as they were: a ``data-halo-id`` locator and Playwright's fill/select_option/press."""
    from halo.env import actions as A
    from halo.env import executor as X

    async def call(ex, element, method, *args):
        try:
            await getattr(ex.page.locator(f'[data-halo-id="{element}"]').first, method)(*args, timeout=ex.timeout_ms)
        except Exception as e:  # as the old executor: the agent's error
            raise X.ActionFailed(f"{method} on element {element!r} failed: {X.short_error(e)}") from e

    async def fill(ex, a):
        await ex.locate(a.element)
        await call(ex, a.element, "fill", a.value)

    async def select(ex, a):
        await ex.locate(a.element)
        await call(ex, a.element, "select_option", list(a.options))

    async def press(ex, a):
        await ex.locate(a.element)
        await call(ex, a.element, "press", A.playwright_key(a.key))

    return {A.Fill: fill, A.SelectOption: select, A.Press: press}


async def run(args) -> dict:
    import rollout_throughput as rt

    from halo.env import executor as X
    from halo.env.browser import BrowserPool
    from halo.env.env import BrowserEnv
    from halo.tasks.real import get_task
    from real_local.server import SitesServer

    impls = {"input_js": {k: X.HANDLERS[k] for k in locator_handlers()}, "locator": locator_handlers()}
    ids = rt.task_order(SITES, args.episodes)
    driver_cls = rt.halo_driver_class()
    out: dict = {"episodes": len(ids), "tasks": ids, "rounds": []}
    with SitesServer(SITES) as urls:
        rt.warm(ids, urls)
        async with BrowserPool() as pool:
            env = BrowserEnv(pool, max_steps=60)
            kinds: collections.Counter = collections.Counter()
            step = env.step

            async def counted(action):
                kinds[type(action).__name__] += 1
                return await step(action)

            env.step = counted

            async def episode(tid: str) -> bool:
                oracle, message = rt.driver_oracle(tid)
                d = driver_cls(env, await env.reset(get_task(tid, sites="local", site_urls=urls)))
                await oracle(d)
                r = await d.finish(message)
                return bool(r.info.grade and r.info.grade.success)

            for tid in ids:  # untimed: the sites' first requests, the browser's caches
                await episode(tid)
            for rnd in range(args.rounds):
                order = list(impls) if rnd % 2 == 0 else list(impls)[::-1]
                for name in order:
                    X.HANDLERS.update(impls[name])
                    kinds.clear()
                    c0, t0 = rt.tree_cpu_now(), time.perf_counter()
                    ok = sum([await episode(tid) for tid in ids])
                    c1, t1 = rt.tree_cpu_now(), time.perf_counter()
                    row = {"round": rnd, "impl": name, "successes": ok,
                           "cpu_ms_per_episode": round(1000 * (c1 - c0) / len(ids), 1),
                           "wall_ms_per_episode": round(1000 * (t1 - t0) / len(ids), 1), "actions": dict(kinds)}
                    out["rounds"].append(row)
                    print(row, flush=True)
            X.HANDLERS.update(impls["input_js"])
            await env.close()
    for name in impls:
        rows = [r for r in out["rounds"] if r["impl"] == name]
        out[name] = {k: round(statistics.fmean(r[k] for r in rows), 1) for k in ("cpu_ms_per_episode",
                                                                              "wall_ms_per_episode")}
        out[name]["successes"] = sum(r["successes"] for r in rows)
    out["locator_over_input_js_cpu"] = round(out["locator"]["cpu_ms_per_episode"] /
                                             out["input_js"]["cpu_ms_per_episode"], 3)
    n = out["rounds"][0]["actions"]
    out["element_input_actions_per_episode"] = round(
        sum(n.get(k, 0) for k in ("Fill", "SelectOption", "Press")) / len(ids), 2)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "input_actions_ab.json"))
    args = ap.parse_args()
    logging.disable(logging.WARNING)
    out = asyncio.run(run(args))
    out["when"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print({k: out[k] for k in ("input_js", "locator", "locator_over_input_js_cpu", "element_input_actions_per_episode")})


if __name__ == "__main__":
    main()
