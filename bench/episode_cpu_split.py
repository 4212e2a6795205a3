"""Where an episode's CPU goes: HALO's Python (sampling, env orchestration, the update) vs Chromium's processes vs
Playwright's driver, for a short GRPO run of the tiny mode on a one-step family.

Runs `halo train grpo` as a child process and samples the CPU times of its whole process tree every 0.5 s (the last
reading of each process is kept after it exits). The learning check's budget counts the same processes; this says
which of them a faster episode would have to save on. Writes bench/results/episode_cpu_split.json.

Run: .venv/bin/python bench/episode_cpu_split.py [--family omnizon.department] [--iterations 8]
     .venv/bin/python bench/episode_cpu_split.py --family gomail.send_click,gomail.send_compose,gomail.send_body \
         --mode tiny_text --max-steps 10 --set grpo.curriculum=ladder --set grpo.family_steps=true \
         --iterations 24 --out bench/results/episode_cpu_split_ladder.json   (the GoMail ladder's first rungs)
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def kind_of(p) -> str:
    name = p.name()
    if name.startswith("python") or name == "halo":
        return "halo (python)"
    if "chrom" in name:
        t = next((a.split("=", 1)[1] for a in p.cmdline() if a.startswith("--type=")), "browser")
        return f"chromium {t}"
    if name.startswith("node"):
        return "playwright driver (node)"
    return name


def main() -> None:
    import psutil

    ap = argparse.ArgumentParser()
    ap.add_argument("--family", default="omnizon.department", help="a family, or several comma-separated")
    ap.add_argument("--mode", default="", help="policy mode (default: halo train grpo's)")
    ap.add_argument("--max-steps", type=int, default=3)
    ap.add_argument("--set", action="append", default=[], help="more halo train grpo --set overrides")
    ap.add_argument("--iterations", type=int, default=8)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "episode_cpu_split.json"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tasks = ",".join(f"{f}@train" for f in a.family.split(","))
        cmd = [sys.executable, "-m", "halo", "train", "grpo", "--tasks", tasks, "--iterations", str(a.iterations),
               "--max-steps", str(a.max_steps), "--lr", "3e-3", "--runs-dir", tmp, "--run-name", "cpu",
               "--save-episodes", "none", "--set", "grpo.tasks_per_iteration=2", "--set", "lora.rank=8",
               "--set", "lora.alpha=16", *(["--mode", a.mode] if a.mode else []),
               *(x for kv in a.set for x in ("--set", kv))]
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
        root, last = psutil.Process(proc.pid), {}
        while proc.poll() is None:
            try:
                procs = [root, *root.children(recursive=True)]
            except psutil.Error:
                break
            for p in procs:
                try:
                    t = p.cpu_times()
                    last[(p.pid, p.create_time())] = (kind_of(p), t.user + t.system)
                except psutil.Error:
                    pass
            time.sleep(0.5)
        err = proc.stderr.read() if proc.stderr else ""
        if proc.returncode != 0:
            raise SystemExit(f"halo train grpo failed ({proc.returncode}): {err[-2000:]}")
        metrics = [json.loads(line) for line in (Path(tmp) / "cpu" / "metrics.jsonl").read_text().splitlines()]
    by = collections.Counter()
    for kind, s in last.values():
        by[kind] += s
    total = sum(by.values())
    episodes = sum(m["episodes"] for m in metrics)
    update = sum(m.get("time_update", 0.0) for m in metrics)
    out = {"family": a.family, "mode": a.mode or "default", "max_steps": a.max_steps, "set": a.set,
           "iterations": a.iterations, "episodes": episodes, "wall_s": round(time.perf_counter() - t0, 1),
           "cpu_s_total": round(total, 1), "cpu_s_per_episode": round(total / episodes, 3),
           "update_wall_s": round(update, 1), "cores": os.cpu_count(), "load_avg_1min": os.getloadavg()[0],
           "note": "includes start-up (model load, sites, browser launch); CPU times of every process of the run",
           "by_process": {k: {"cpu_s": round(v, 1), "share": round(v / total, 3)} for k, v in by.most_common()}}
    Path(a.out).write_text(json.dumps(out, indent=1))
    for k, v in by.most_common():
        print(f"{k:32s} {v:7.1f} s {100 * v / total:5.1f}%")
    print(f"{episodes} episodes, {total:.1f} CPU s ({total / episodes:.2f} per episode); wrote {a.out}")


if __name__ == "__main__":
    main()
