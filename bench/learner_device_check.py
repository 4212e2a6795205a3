"""The local learner on a device: the tiny Qwen3-VL sampled and updated in-process (LoRA), on CPU or CUDA, any dtype.

No browser: synthetic observations of a page with 36 links and a goal naming one of six departments, rewarded
when the policy clicks that department's link (a contextual bandit through the real prompt, sampler, grammar,
learner and loss). Reports per-iteration success, the sampler-vs-learner logprob gap (must be ~0: the PPO ratio
is meaningless otherwise), time per sample and per update, and peak device memory; with --lr-final and
--entropy-coef(-final) the learner's schedules over the iterations (lr, entropy and coefficient curves). Writes
bench/results/learner_<device>_<dtype>.json.

Run: python bench/learner_device_check.py --device cuda --dtype bfloat16 [--iterations 40]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEPTS = ["Electronics", "Video Games", "Home & Kitchen", "Sports & Outdoors", "Furniture", "Travel"]
PHRASES = ["Open the {} department.", "Show me {}.", "Go to the {} section.", "Browse {}."]


def observation(dept: str, k: int):
    from PIL import Image

    from halo.env.types import Element, Observation

    buf = io.BytesIO()
    Image.new("RGB", (1280, 720), (240, 240, 240)).save(buf, format="PNG")
    els = {str(i): Element(str(i), "link", f"item {i}", (30 * i, 10, 20, 20)) for i in range(1, 37)}
    goal = random.Random(k).choice(PHRASES).format(dept)
    return Observation(screenshot=buf.getvalue(), image_format="png", axtree="", elements=els, url="http://x/",
                       goal=goal, step=0)


async def run(a) -> dict:
    import torch

    from halo.policy.base import DecodingConfig
    from halo.policy.hf_backend import HFPolicy
    from halo.policy.prompt import PromptConfig
    from halo.policy.tiny import build_tiny_model
    from halo.rl.advantages import group_advantages
    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.forward import token_logprobs, training_batch
    from halo.rl.learner import LoRALearner, TrainItem

    torch.manual_seed(a.seed)
    random.seed(a.seed)
    model_dir = Path(a.model_dir)
    if not (model_dir / "config.json").is_file():
        build_tiny_model(model_dir, seed=a.seed, hidden=a.hidden)
    prompt_cfg = PromptConfig(max_pixels=16384, min_pixels=4096, actions=("click", "go_back", "send_msg_to_user"),
                              elements="visible", text="goal", text_max_chars=24, single_tool=True, system=a.system,
                              goal_last=a.goal_last)
    constrained = a.constrained
    pol = HFPolicy(model_dir, decoding=DecodingConfig(temperature=1.0, max_tokens=128, constrained=constrained,
                                                      jump_forward=constrained, seed=a.seed),
                   prompt=prompt_cfg, dtype=a.dtype, device=a.device, max_batch=16)
    learner = LoRALearner(pol, LoRASettings(rank=a.rank, alpha=2 * a.rank, target_modules=tuple(a.targets.split(",")),
                                            modules_to_save=tuple(x for x in a.save.split(",") if x)),
                          OptimSettings(lr=a.lr, max_tokens=128, pack_rows=a.pack_rows,
                                        entropy_coef=a.entropy_coef, lr_final=a.lr_final,
                                        entropy_coef_final=a.entropy_coef_final))
    pol.explore, pol.explore_per_reply = a.explore, a.explore_unit == "reply"
    target = {d: str(11 + i) for i, d in enumerate(DEPTS)}
    curve, gaps, t_sample, t_update, sched, entropy = [], [], [], [], [], []
    for it in range(a.iterations):
        # the schedules (lr, entropy bonus -> penalty) over the iterations, the penalty gated by the last success
        learner.set_progress(it / max(a.iterations - 1, 1), curve[-1] if curve else 0.0)
        sched.append((learner.lr, learner.entropy_coef))
        reqs = []
        for _ in range(a.goals):
            d = random.choice(DEPTS)
            o = observation(d, random.randrange(100))
            reqs.append((d, o, pol.build_prompt(o)))
        t0 = time.perf_counter()
        outs = await asyncio.gather(*(pol.sample_prompt(p, o, 8) for _, o, p in reqs))
        t_sample.append((time.perf_counter() - t0) / (8 * a.goals))
        items, succ = [], []
        for (d, o, p), samples in zip(reqs, outs):
            r = [float(s.action is not None and s.action.name == "click" and s.action.element == target[d])
                 for s in samples]
            succ += r
            for s, adv in zip(samples, group_advantages(r)):
                if (adv != 0 or learner.entropy_coef != 0) and s.token_ids:
                    old = s.sampler_logprobs if constrained else s.logprobs
                    items.append(TrainItem(prompt=p, token_ids=tuple(s.token_ids), sampler_logprobs=tuple(old),
                                           advantage=adv, grammar=s.grammar if constrained else None))
        if it == 0:  # the learner's logprobs of the sampled tokens must equal the sampler's
            s = outs[0][0]
            with torch.no_grad():
                b = training_batch(pol.encode(reqs[0][2]), [s.token_ids], pol.pad_id)
                m = pol.grammar_mask(s.grammar, s.token_ids) if constrained else None
                lp = token_logprobs(pol.model, b, 1.0, m)[0, b.prompt_len - 1:b.prompt_len - 1 + len(s.token_ids)]
            ref = s.sampler_logprobs if constrained else s.logprobs
            gaps.append(max(abs(float(x) - y) for x, y in zip(lp.float().cpu(), ref)))
        t1 = time.perf_counter()
        stats = [learner.update(items) for _ in range(a.epochs if items else 0)]
        entropy.append(stats[0].entropy if stats else None)
        if a.device.startswith("cuda"):
            torch.cuda.synchronize()
        t_update.append(time.perf_counter() - t1)
        curve.append(statistics.fmean(succ))
        if (it + 1) % 10 == 0:
            print(f"it {it + 1}: success (last 10) {statistics.fmean(curve[-10:]):.2f}, "
                  f"{statistics.fmean(t_sample[-10:]) * 1000:.0f} ms/sample, "
                  f"{statistics.fmean(t_update[-10:]):.2f} s/update", flush=True)
    mem = torch.cuda.max_memory_allocated() / 2 ** 20 if a.device.startswith("cuda") else None
    return {"device": a.device, "dtype": a.dtype, "constrained": constrained, "lr": a.lr, "epochs": a.epochs,
            "rank": a.rank, "targets": a.targets, "goal_last": a.goal_last, "system": a.system, "hidden": a.hidden,
            "goals_per_iteration": a.goals, "modules_to_save": a.save, "pack_rows": a.pack_rows,
            "explore": a.explore, "explore_unit": a.explore_unit, "lr_final": a.lr_final,
            "entropy_coef": a.entropy_coef, "entropy_coef_final": a.entropy_coef_final,
            "lr_curve": [x for x, _ in sched], "entropy_coef_curve": [y for _, y in sched],
            "entropy_curve": entropy,
            "torch": torch.__version__, "gpu": torch.cuda.get_device_name() if a.device.startswith("cuda") else None,
            "success_curve": curve, "first10": statistics.fmean(curve[:10]), "last10": statistics.fmean(curve[-10:]),
            "max_logprob_gap_sampler_vs_learner": max(gaps) if gaps else None,
            "ms_per_sample": 1000 * statistics.fmean(t_sample), "s_per_update": statistics.fmean(t_update),
            "peak_mem_mib": mem}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cpu")
    p.add_argument("--dtype", default="float32")
    p.add_argument("--iterations", type=int, default=40)
    p.add_argument("--lr", type=float, default=1e-2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--goal-last", action="store_true")
    p.add_argument("--system", default="brief", choices=("full", "brief", "none"))
    p.add_argument("--hidden", type=int, default=64, help="width of the tiny model built when --model-dir is empty")
    p.add_argument("--goals", type=int, default=2, help="goals (GRPO groups of 8) per iteration")
    p.add_argument("--save", default="", help="modules trained in full beside LoRA (embed_tokens,lm_head)")
    p.add_argument("--rank", type=int, default=8)
    p.add_argument("--targets", default="q_proj,k_proj,v_proj,o_proj")
    p.add_argument("--pack-rows", type=int, default=16, help="rows per training forward, across prompts")
    p.add_argument("--explore", type=float, default=0.0, help="share of uniform draws (grpo.explore)")
    p.add_argument("--explore-unit", default="choice", choices=("choice", "reply"))
    p.add_argument("--lr-final", type=float, default=None, help="lr moves linearly to this (grpo.lr_final)")
    p.add_argument("--entropy-coef", type=float, default=0.0, help="entropy bonus (grpo.entropy_coef)")
    p.add_argument("--entropy-coef-final", type=float, default=None,
                   help="the coefficient at the end; below 0 a penalty scaled by the last success (grpo.*)")
    p.add_argument("--no-constrained", dest="constrained", action="store_false")
    p.add_argument("--model-dir", default="/tmp/halo-tiny-learner-check")
    p.add_argument("--out", default=None)
    a = p.parse_args()
    out = asyncio.run(run(a))
    path = Path(a.out) if a.out else ROOT / "bench" / "results" / f"learner_{a.device.split(':')[0]}_{a.dtype}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1))
    print(json.dumps({k: v for k, v in out.items() if k != "success_curve"}, indent=1))


if __name__ == "__main__":
    sys.exit(main())
