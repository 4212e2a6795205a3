"""Dense rewards along every REAL-local oracle solution vs a seeded random policy on the same tasks.

Writes bench/results/reward_check.json: per task the oracle's return curve, milestones and REAL verdict, and the
random policy's returns (3 seeds, same number of steps), plus both distributions' summaries and the checks of
issue #6: the oracle's return rises at milestones and peaks at success; the random policy's is lower.
Run: .venv/bin/python bench/reward_check.py [--sites dashdish udriver]   (--sites: only those sites' tasks are run;
their rows replace theirs in the file, the summary is recomputed over every row)
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "sites"))

from reward_runs import all_oracles, oracle_run, random_run, reward_config  # noqa: E402
from rich.progress import Progress  # noqa: E402

from halo.env.browser import BrowserPool  # noqa: E402
from real_local.server import SitesServer  # noqa: E402

SEEDS = (0, 1, 2)


def _site(task_id: str) -> str:
    return task_id.split(".")[1].rsplit("-", 1)[0]


async def main(sites: tuple[str, ...] | None = None, keep: list[dict] | None = None) -> dict:
    cfg = reward_config()
    oracles = {k: v for k, v in all_oracles().items() if sites is None or _site(k) in sites}
    rows = [r for r in keep or [] if sites is not None and _site(r["task_id"]) not in sites]
    with SitesServer() as urls, Progress() as progress:
        bar = progress.add_task("oracles + random runs", total=len(oracles))
        async with BrowserPool() as pool:
            for task_id, oracle in sorted(oracles.items()):
                o = await oracle_run(pool, urls, task_id, oracle, cfg)
                rnd = [await random_run(pool, urls, task_id, o.steps, s, cfg) for s in SEEDS]
                milestone_steps_rise = all(o.returns[i] > (o.returns[i - 1] if i else 0.0)
                                          for i, p in enumerate(o.parts) if any(k.startswith("milestone/") for k in p))
                rows.append({"task_id": task_id, "oracle": asdict(o), "oracle_final": o.final,
                             "random_finals": [r.final for r in rnd], "random_milestones": [r.milestones for r in rnd],
                             "random_success": [r.success for r in rnd],
                             "checks": {"success": o.success, "rises_at_milestones": milestone_steps_rise,
                                        "peaks_at_end": o.final == max(o.returns),
                                        "random_lower": max(r.final for r in rnd) < o.final}})
                progress.advance(bar)
    oracle_f = [r["oracle_final"] for r in rows]
    random_f = [x for r in rows for x in r["random_finals"]]
    rows.sort(key=lambda r: r["task_id"])
    reached = {}
    for r in rows:
        reached.setdefault(_site(r["task_id"]), set()).update(r["oracle"]["milestones"])
    summary = {
        "tasks": len(rows),
        "oracle_return": {"mean": statistics.fmean(oracle_f), "min": min(oracle_f), "max": max(oracle_f)},
        "random_return": {"mean": statistics.fmean(random_f), "min": min(random_f), "max": max(random_f)},
        "checks_passed": {k: sum(r["checks"][k] for r in rows) for k in rows[0]["checks"]},
        "milestones_reached_by_oracles": {s: sorted(v) for s, v in reached.items()},
        "milestones_configured": {s: [m.name for m in ms] for s, ms in cfg.milestones.items()},
    }
    return {"when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "summary": summary, "tasks": rows}


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sites", nargs="+", help="run only these sites' tasks and merge them into the file")
    args = ap.parse_args()
    path = ROOT / "bench" / "results" / "reward_check.json"
    keep = json.loads(path.read_text())["tasks"] if args.sites and path.exists() else None
    out = asyncio.run(main(tuple(args.sites) if args.sites else None, keep))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1))
    print(json.dumps(out["summary"], indent=1))
    print(f"wrote {path}")
