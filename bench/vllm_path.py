"""The vLLM training path on this machine: a real vLLM server (`make vllm`) with the tiny Qwen3-VL samples, the local
learner updates, each adapter is saved and hot-loaded. Measures, into bench/results/vllm_path.json:
- the time split of each GRPO iteration (`halo train grpo --mode tiny_vllm` on REAL-local): sample (the groups'
  rollouts, browsers included), update, adapter save, hot-load;
- logprob parity: vLLM's logprobs of its sampled tokens vs the learner's recomputation on the same prompt, image
  and tokens, base and LoRA, free and grammar-constrained (median and max absolute difference);
- the server's start-up time.

    .venv/bin/python bench/vllm_path.py [--iterations 6] [--group-size 4]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "policy"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


async def parity(mode, url: str, work: Path, n: int = 8) -> dict[str, dict[str, float]]:
    import torch
    from policy_helpers import make_obs

    from halo.env.types import Element
    from halo.policy.hf_backend import HFPolicy
    from halo.policy.modes import make_policy
    from halo.rl.config import LoRASettings
    from halo.rl.learner import LoRALearner
    from halo.rl.parity import gaps, recompute, summary

    hf = HFPolicy(mode.model, decoding=mode.decoding_config(), prompt=mode.prompt_config())
    learner = LoRALearner(hf, LoRASettings(rank=8, alpha=16), temperature=1.0)
    els = {str(i): Element(str(i), "link", f"Department {i}", (40 + 90 * i, 50, 80, 24)) for i in range(3, 9)}
    observations = [make_obs(), make_obs(elements=els, goal="Open the Department 5 page",
                                         axtree="\n".join(f'[{i}] link "Department {i}"' for i in els))]
    out = {}
    for lora in (False, True):
        if lora:  # random B: a fresh adapter's B is zero, i.e. the base model
            torch.manual_seed(1)
            with torch.no_grad():
                for name, p in learner.model.named_parameters():
                    if "lora_B" in name:
                        p.normal_(0.0, 0.2)
            learner.save_adapter(str(work / "parity"))
        for constrained in (False, True):
            pol = make_policy(mode.with_overrides(base_url=url))
            pol.decoding = dataclasses.replace(pol.decoding, constrained=constrained,
                                               max_tokens=128 if constrained else 32)
            diffs = []
            try:
                if lora:
                    await pol.load_lora_adapter("parity", str(work / "parity"), inplace=True)
                    pol.server = dataclasses.replace(pol.server, model="parity")
                for obs in observations:
                    prompt = pol.build_prompt(obs)
                    samples = await pol.sample_prompt(prompt, obs, n=n, temperature=1.0)
                    diffs += gaps(samples, recompute(learner, prompt, samples))
            finally:
                await pol.aclose()
            out[f"{'lora' if lora else 'base'}/{'grammar' if constrained else 'free'}"] = summary(diffs)
    return out


def grpo_split(mode, url: str, work: Path, iterations: int, group_size: int) -> list[dict[str, float]]:
    args = [sys.executable, "-m", "halo.cli", "train", "grpo", "--mode", "tiny_vllm", "--model", mode.model,
            "--base-url", url, "--tasks", "omnizon.department@train", "--iterations", str(iterations),
            "--group-size", str(group_size), "--max-steps", "3", "--checkpoint-every", str(iterations),
            "--lora-rank", "8", "--lr", "1e-3", "--runs-dir", str(work), "--run-name", "bench",
            "--save-episodes", "none"]
    r = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=1800, check=False)
    if r.returncode != 0:
        raise SystemExit(f"halo train grpo failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    rows = []
    for line in (work / "bench" / "metrics.jsonl").read_text().splitlines():
        m = json.loads(line)
        rows.append({"iteration": m["iteration"], "sample_s": m["time_rollout"], "update_s": m["time_update"],
                     "adapter_save_s": m["time_save"], "hot_load_s": m["time_sync"], "train_items": m["train_items"],
                     "tokens": m["tokens"], "episode_steps": m["episode_length"], "ratio_mean": m["ratio_mean"]})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iterations", type=int, default=6)
    ap.add_argument("--group-size", type=int, default=4)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "vllm_path.json"))
    a = ap.parse_args()

    from halo.policy.modes import get_mode
    from halo.policy.serve import vllm_python
    from halo.policy.tiny import HIDDEN, build_tiny_model
    from halo.policy.vllm_server import VLLMServer

    with tempfile.TemporaryDirectory(prefix="vllm-path-") as tmp:
        work = Path(tmp)
        model = str(build_tiny_model(work / "tiny-qwen3vl", hidden=max(HIDDEN, 128)))  # vLLM's CPU attention: head_dim >= 32
        mode = get_mode("tiny_vllm").with_overrides(model=model)
        with VLLMServer(mode, work / "vllm.log") as srv:
            t = time.perf_counter()
            par = asyncio.run(parity(mode, srv.base_url, work))
            t_par = time.perf_counter() - t
            rows = grpo_split(mode, srv.base_url, work, a.iterations, a.group_size)
            startup = srv.startup_s
        version = subprocess.run([str(vllm_python()), "-c", "import vllm; print(vllm.__version__)"],
                                 capture_output=True, text=True, check=False).stdout.strip().splitlines()[-1:]
    steady = rows[1:] or rows  # iteration 0 also loads the learner's model and warms vLLM up
    med = {k: round(statistics.median(r[k] for r in steady), 3)
           for k in ("sample_s", "update_s", "adapter_save_s", "hot_load_s")}
    result = {
        "what": "halo train grpo --mode tiny_vllm (vLLM samples, the local learner updates, adapters hot-loaded) on "
                "REAL-local omnizon.department, and sampler-vs-learner logprob parity",
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "vllm": version[0] if version else "?",
                    "note": "2 cores shared with other jobs; vLLM, Chromium and the learner on the same cores"},
        "settings": {"iterations": a.iterations, "group_size": a.group_size, "max_steps": 3, "lora_rank": 8,
                     "dtype": "float32", "model": "tiny Qwen3-VL (halo model tiny)"},
        "server_startup_s": round(startup, 1),
        "parity": par, "parity_targets": {"median_abs_diff": 1e-3, "max_abs_diff": 1e-2}, "parity_s": round(t_par, 1),
        "iterations": rows, "median_after_first": med,
    }
    Path(a.out).write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({"server_startup_s": result["server_startup_s"], "parity": par, "median_after_first": med},
                     indent=1))
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
