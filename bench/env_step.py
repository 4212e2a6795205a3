"""Benchmark: BrowserEnv steps against the raw Playwright floor, 1/4/8 envs on one browser.

A local page with ~250 elements, a fixed script of coordinate clicks (each changes text on the page). Per
concurrency level, the same script runs through
- ``env``: ``BrowserEnv.step(LeftClick)`` (click, settle, screenshot, accessibility tree, bookkeeping);
- ``floor``: the same primitives called directly, no env: ``mouse.click`` + the same DOM-walk tree + the same CDP
  JPEG screenshot. env/floor is the env's own overhead;
- ``floor_playwright``: what plain Playwright code would do: ``mouse.click`` + ``page.screenshot(jpeg, q80)`` +
  ``locator("body").aria_snapshot()`` (for context: the env is compared with a typical hand-written loop).
Floors and env runs alternate, ``--reps`` times each, in one process on one browser. Writes
``bench/results/env_step.json``.

    .venv/bin/python bench/env_step.py [--concurrency 1,4,8] [--steps 120] [--reps 2]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import http.server
import json
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from halo.env import actions as A
from halo.env import observe
from halo.env.browser import BrowserPool
from halo.env.env import BrowserEnv
from halo.tasks.types import page_task

RESULTS = Path(__file__).parent / "results" / "env_step.json"
TARGET = 1.25
ROWS = 60  # 4 interactive elements a row + header: ~250 elements


def bench_page(rows: int = ROWS) -> str:
    body = []
    for i in range(rows):
        body.append(
            f'<tr><td><input type="checkbox" aria-label="select row {i}"></td><td><a href="#r{i}">Item {i}</a></td>'
            f"<td>Description of item {i}, with a little text to read</td>"
            f'<td><button onclick="hit({i})">Buy {i}</button></td><td><input type="text" placeholder="note {i}"></td>'
            f"</tr>")
    nav = "".join(f'<a href="#s{i}">Section {i}</a> ' for i in range(10))
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>Bench</title>
<style>body{{font-family:sans-serif;margin:8px}} td{{padding:2px 6px}} button{{width:80px}}</style></head>
<body><h1>Benchmark page</h1><nav>{nav}</nav><p id="out">no clicks yet</p>
<table>{''.join(body)}</table>
<script>let n = 0;
function hit(i) {{ n++; document.getElementById('out').textContent = 'clicked ' + i + ' (' + n + ' total)'; }}</script>
</body></html>"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):
        pass


def serve(directory: str) -> tuple[str, http.server.ThreadingHTTPServer]:
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=directory))
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{srv.server_address[1]}", srv


async def button_points(pool: BrowserPool, url: str) -> list[tuple[float, float]]:
    """Pixel centres of the "Buy" buttons visible without scrolling: the fixed click script."""
    ctx = await pool.new_context()
    page = await ctx.new_page()
    await page.goto(url)
    pts = await page.evaluate("""() => Array.from(document.querySelectorAll('button')).map(b => {
        const r = b.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })
        .filter(([x, y]) => y < innerHeight - 10)""")
    await ctx.close()
    return [tuple(p) for p in pts]


# ---------------------------------------------------------------- the three loops
async def run_env(pool, url, points, steps, lat, go):
    env = BrowserEnv(pool, max_steps=steps + 1)
    await env.reset(page_task(url))
    await go()
    for i in range(steps):
        x, y = points[i % len(points)]
        t0 = time.perf_counter()
        r = await env.step(A.LeftClick(*A.to_relative(x, y, 1280, 720)))
        lat.append(time.perf_counter() - t0)
        if r.info.error:
            raise RuntimeError(f"benchmark step failed: {r.info.error}")
    await env.close()


async def run_floor(pool, url, points, steps, lat, go):
    ctx = await pool.new_context()
    page = await ctx.new_page()
    cdp = await ctx.new_cdp_session(page)
    await page.goto(url)
    await go()
    next_id = 1
    for i in range(steps):
        t0 = time.perf_counter()
        await page.mouse.click(*points[i % len(points)])
        tree = await observe.read_axtree(page, next_id)
        next_id = tree.next_id
        await observe.screenshot(page, "jpeg", 80, cdp)
        lat.append(time.perf_counter() - t0)
    await ctx.close()


async def run_floor_playwright(pool, url, points, steps, lat, go):
    ctx = await pool.new_context()
    page = await ctx.new_page()
    await page.goto(url)
    await go()
    for i in range(steps):
        t0 = time.perf_counter()
        await page.mouse.click(*points[i % len(points)])
        await page.screenshot(type="jpeg", quality=80)
        await page.locator("body").aria_snapshot()
        lat.append(time.perf_counter() - t0)
    await ctx.close()


LOOPS = {"env": run_env, "floor": run_floor, "floor_playwright": run_floor_playwright}


def tree_cpu() -> tuple[float, float]:
    """(CPU seconds of this Python process, CPU seconds of all its descendants: Playwright's driver, Chromium
    and its renderers, counting renderers already reaped). Robust where wall time is not: this machine is shared."""
    tick = os.sysconf("SC_CLK_TCK")
    procs = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                f = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            procs[int(d.name)] = (int(f[1]), sum(int(x) for x in f[11:15]))  # ppid, utime+stime+cutime+cstime
    kids: dict[int, list[int]] = {}
    for pid, (ppid, _) in procs.items():
        kids.setdefault(ppid, []).append(pid)
    me = os.getpid()
    todo, total = list(kids.get(me, [])), 0
    while todo:
        pid = todo.pop()
        total += procs[pid][1]
        todo += kids.get(pid, [])
    return time.process_time(), total / tick


class _Latencies(list):
    """Step latencies; remembers when the last one was recorded (the end of the timed window)."""

    last = 0.0

    def append(self, v: float) -> None:
        super().append(v)
        self.last = time.perf_counter()


async def measure(kind, pool, url, points, concurrency, total_steps):
    steps = max(10, total_steps // concurrency)
    lat = _Latencies()
    barrier = asyncio.Barrier(concurrency)
    start: list[float] = []

    cpu: list[tuple[float, float]] = []

    async def go() -> None:  # all loops start stepping together, after their resets (not timed)
        await barrier.wait()
        if not start:
            start.append(time.perf_counter())
            cpu.append(tree_cpu())

    async def timed(task):
        await task
        if len(cpu) == 1 and lat.last and len(lat) == steps * concurrency:
            cpu.append(tree_cpu())

    await asyncio.gather(*(timed(LOOPS[kind](pool, url, points, steps, lat, go)) for _ in range(concurrency)))
    (py0, ch0), (py1, ch1) = cpu[0], cpu[-1]
    return list(lat), lat.last - start[0], steps * concurrency, py1 - py0, ch1 - ch0


def summary(lat: list[float], wall: float, n: int, py_cpu: float, child_cpu: float) -> dict:
    q = statistics.quantiles(lat, n=20)
    return {"steps": n, "steps_per_s": round(n / wall, 2), "p50_ms": round(statistics.median(lat) * 1000, 1),
            "p95_ms": round(q[18] * 1000, 1), "mean_ms": round(statistics.fmean(lat) * 1000, 1),
            "cpu_ms_per_step": round((py_cpu + child_cpu) / n * 1000, 1),
            "python_cpu_ms_per_step": round(py_cpu / n * 1000, 1),
            "browser_driver_cpu_ms_per_step": round(child_cpu / n * 1000, 1)}


async def main(args) -> dict:
    tmp = tempfile.mkdtemp(prefix="halo-bench-")
    Path(tmp, "bench.html").write_text(bench_page())
    base, srv = serve(tmp)
    url = f"{base}/bench.html"
    out: dict = {"results": []}
    async with BrowserPool() as pool:
        points = await button_points(pool, url)
        # page facts, from one observation
        env = BrowserEnv(pool)
        obs = await env.reset(page_task(url))
        await env.close()
        out["page"] = {"interactive_elements": len(obs.elements), "axtree_lines": obs.axtree.count("\n") + 1,
                       "screenshot_kb": round(len(obs.screenshot) / 1024, 1), "clicked_buttons": len(points)}
        out["machine"] = {"cpus": os.cpu_count(), "python": platform.python_version(),
                          "browser": pool.description, "loadavg_before": os.getloadavg()}
        for kind in LOOPS:  # warm-up: JIT, caches, first contexts
            await measure(kind, pool, url, points, 1, 10)
        for c in args.concurrency:
            acc: dict[str, list] = {k: [[], 0.0, 0, 0.0, 0.0] for k in LOOPS}
            for _ in range(args.reps):
                for kind in LOOPS:
                    for i, v in enumerate(await measure(kind, pool, url, points, c, args.steps)):
                        acc[kind][i] += v
            row = {"concurrency": c, **{k: summary(*v) for k, v in acc.items()}}
            env_s, floor_s = row["env"], row["floor"]
            row["ratio_env_floor"] = round(floor_s["steps_per_s"] / env_s["steps_per_s"], 3)
            row["ratio_env_floor_p50"] = round(env_s["p50_ms"] / floor_s["p50_ms"], 3)
            row["ratio_env_floor_cpu"] = round(env_s["cpu_ms_per_step"] / floor_s["cpu_ms_per_step"], 3)
            row["ratio_env_floor_playwright"] = round(row["floor_playwright"]["steps_per_s"] / env_s["steps_per_s"],
                                                      3)
            out["results"].append(row)
            print(json.dumps(row), flush=True)
        out["machine"]["loadavg_after"] = os.getloadavg()
    srv.shutdown()
    out["target_ratio"] = TARGET
    out["met"] = all(r["ratio_env_floor"] <= TARGET for r in out["results"])
    out["definition"] = ("ratio_env_floor = time per step of BrowserEnv / time per step of the same primitives "
                         "(mouse.click + DOM-walk tree + CDP JPEG q80) called directly, from steps/s at equal "
                         "concurrency; ratio_env_floor_playwright compares with plain Playwright (page.screenshot "
                         "+ aria_snapshot); < 1 means the env is faster")
    out["when"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return out


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--concurrency", default="1,4,8", type=lambda s: [int(x) for x in s.split(",")])
    p.add_argument("--steps", type=int, default=120, help="steps per measurement, split across the envs")
    p.add_argument("--reps", type=int, default=2)
    p.add_argument("--out", type=Path, default=RESULTS)
    a = p.parse_args()
    result = asyncio.run(main(a))
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {a.out}; target env/floor <= {TARGET}: {'met' if result['met'] else 'MISSED'}")
    sys.exit(0)
