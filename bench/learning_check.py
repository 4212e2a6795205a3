"""Does online GRPO learn from the tiny model's random initialisation? One simple REAL-local task, 3 seeds.

For each seed: a fresh tiny Qwen3-VL (random weights, deterministic per seed), grammar-constrained actions, GRPO
with the demo's settings for ITERATIONS iterations; records mean dense return, success rate and milestones per
iteration. Writes bench/results/learning_check.json with the per-seed curves and, per seed, the mean return of the
first and last thirds of training. Run: .venv/bin/python bench/learning_check.py [--task v2.omnizon-3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


async def one_seed(task: str, seed: int, iterations: int, group: int, max_steps: int, lr: float, model_dir: str,
                   runs: str, update_epochs: int = 1, rank: int = 8) -> dict:
    import torch

    from halo.policy.tiny import build_tiny_model
    from halo.train import GRPOJob, run_grpo

    torch.manual_seed(seed)
    d = Path(model_dir) / f"tiny-seed{seed}"
    if not (d / "config.json").is_file():
        build_tiny_model(d, seed=seed)
    job = GRPOJob(tasks=[task], mode="tiny", sites="local", run_name=f"learn-seed{seed}", runs_dir=runs,
                  mode_overrides={"model": str(d), "seed": seed},
                  grpo_overrides={"iterations": iterations, "group_size": group, "max_steps": max_steps,
                                  "lr": lr, "checkpoint_every": iterations, "seed": seed, "save_episodes": "none",
                                  "max_tokens": 64, "update_epochs": update_epochs},
                  lora_overrides={"rank": rank, "alpha": 2 * rank})
    t0 = time.process_time()
    w0 = time.perf_counter()
    _, hist = await run_grpo(job)
    k = max(1, iterations // 3)
    first, last = hist[:k], hist[-k:]
    return {"seed": seed, "cpu_s": time.process_time() - t0, "wall_s": time.perf_counter() - w0,
            "mean_reward": [h["mean_reward"] for h in hist], "success_rate": [h["success_rate"] for h in hist],
            "milestones": [h["milestones"] for h in hist], "frac_reward_zero_std": [h["frac_reward_zero_std"]
                                                                                    for h in hist],
            "first_third_return": statistics.fmean(h["mean_reward"] for h in first),
            "last_third_return": statistics.fmean(h["mean_reward"] for h in last),
            "first_third_success": statistics.fmean(h["success_rate"] for h in first),
            "last_third_success": statistics.fmean(h["success_rate"] for h in last)}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--task", default="v2.omnizon-3")
    p.add_argument("--seeds", default="0,1,2")
    p.add_argument("--iterations", type=int, default=12)
    p.add_argument("--group", type=int, default=8)
    p.add_argument("--max-steps", type=int, default=3)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--update-epochs", type=int, default=1)
    p.add_argument("--lora-rank", type=int, default=8)
    p.add_argument("--out", default="learning_check.json", help="file name under bench/results/")
    a = p.parse_args()
    out = {"task": a.task, "iterations": a.iterations, "group": a.group, "max_steps": a.max_steps, "lr": a.lr,
           "update_epochs": a.update_epochs, "lora_rank": a.lora_rank,
           "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "seeds": []}
    with tempfile.TemporaryDirectory() as tmp:
        for s in (int(x) for x in a.seeds.split(",")):
            r = asyncio.run(one_seed(a.task, s, a.iterations, a.group, a.max_steps, a.lr, tmp, tmp,
                                     a.update_epochs, a.lora_rank))
            out["seeds"].append(r)
            print(f"seed {s}: return {r['first_third_return']:+.3f} -> {r['last_third_return']:+.3f}, success "
                  f"{r['first_third_success']:.2f} -> {r['last_third_success']:.2f}, {r['cpu_s']:.0f} CPU s",
                  flush=True)
    out["improved_return_seeds"] = sum(r["last_third_return"] > r["first_third_return"] for r in out["seeds"])
    path = ROOT / "bench" / "results" / a.out
    path.write_text(json.dumps(out, indent=1))
    print(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
