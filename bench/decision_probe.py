"""Why the tiny model does not learn a one-step family in its budget: the goal-conditional choice, isolated.

The one-step family ``omnizon.department`` asks for one click whose target depends on the goal ("Show me Travel" ->
the Travel link). This probe takes that decision alone, with no browser and no sampler: the real tiny Qwen3-VL,
the real prompt of the tiny mode and the forced reply prefix up to the element id, a goal naming one of six
departments, and the distribution over the ids the grammar allows at that position. Each step updates LoRA (and
optionally the head) on all six goals with one of four objectives:

- ``ll``: supervised log-likelihood of the right id (the upper bound: every label given, no exploration needed);
- ``er``: exact expected reward (the infinite-sample limit of policy gradient, no sampling noise);
- ``grpo``: 8 sampled ids per goal, group-normalised advantages, groups with zero variance dropped (HALO's GRPO);
- ``grpo-batch``: as grpo, but a zero-variance group is scored against the batch's mean reward (an all-wrong group
  on one goal pushes its answer down while other goals succeed).

``ids: digits`` decodes an id as REAL-local's digit strings tokenised digit by digit ("11" = "1" + "1": the first
digit is shared by ids 1 and 10-19, and the second "1" is the same token as the first); ``ids: single`` gives
each id its own token. Success is the mean probability of the right id over the six goals, on unseen phrasings.
Writes bench/results/decision_probe.json and a plot beside it.

Run: .venv/bin/python bench/decision_probe.py [--steps 150] [--seeds 0,1]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from learner_device_check import DEPTS, observation

PREFIX = '<tool_call>\n{"name": "browser", "arguments": {"action": "click", "element": "'
# (name, objective, ids, prompt, train the head, lr)
CONFIGS = [
    ("expected reward, digit ids, brief prompt", "er", "digits", "brief", False, 1e-2),
    ("supervised, digit ids, brief prompt", "ll", "digits", "brief", False, 1e-2),
    ("supervised, digit ids, goal-only prompt", "ll", "digits", "short", False, 1e-2),
    ("supervised, digit ids, goal-only prompt, head trained", "ll", "digits", "short", True, 1e-2),
    ("GRPO, digit ids, brief prompt (the tiny mode today)", "grpo", "digits", "brief", False, 1e-2),
    ("GRPO, single-token ids, goal-only prompt, head trained, lr 1e-2", "grpo", "single", "short", True, 1e-2),
    ("GRPO, single-token ids, goal-only prompt, head trained, lr 1e-3", "grpo", "single", "short", True, 1e-3),
    ("GRPO + batch baseline, single-token ids, goal-only prompt, head trained, lr 1e-3", "grpo-batch", "single",
     "short", True, 1e-3),
    ("GRPO, single-token ids, goal-only prompt, head trained, lr 3e-3", "grpo", "single", "short", True, 3e-3),
    ("GRPO, 4 clipped epochs per batch, single-token ids, goal-only prompt, head trained, lr 1e-3", "grpo", "single",
     "short", True, 1e-3, 4),
    ("GRPO, 4 clipped epochs per batch, single-token ids, goal-only prompt, head trained, lr 3e-3", "grpo", "single",
     "short", True, 3e-3, 4),
    ("GRPO + entropy bonus 0.02, single-token ids, goal-only prompt, head trained, lr 3e-3", "grpo", "single",
     "short", True, 3e-3, 1, 0.02),
    ("GRPO + entropy bonus 0.1, single-token ids, goal-only prompt, head trained, lr 3e-3", "grpo", "single",
     "short", True, 3e-3, 1, 0.1),
    ("GRPO + entropy bonus 0.3, single-token ids, goal-only prompt, head trained, lr 3e-3", "grpo", "single",
     "short", True, 3e-3, 1, 0.3),
    ("GRPO + entropy bonus 1.0, single-token ids, goal-only prompt, head trained, lr 3e-3", "grpo", "single",
     "short", True, 3e-3, 1, 1.0),
    ("GRPO + entropy bonus 0.3, single-token ids, goal-only prompt, head trained, lr 1e-2", "grpo", "single",
     "short", True, 1e-2, 1, 0.3),
    ("GRPO + entropy bonus 1.0, single-token ids, goal-only prompt, head trained, lr 1e-2", "grpo", "single",
     "short", True, 1e-2, 1, 1.0),
    ("GRPO + entropy bonus 0.3, 4 clipped epochs per batch, single-token ids, goal-only prompt, head trained, "
     "lr 1e-3", "grpo", "single", "short", True, 1e-3, 4, 0.3),
    ("GRPO + entropy bonus 0.3, 2 clipped epochs per batch, single-token ids, goal-only prompt, head trained, "
     "lr 3e-3", "grpo", "single", "short", True, 3e-3, 2, 0.3),
    ("GRPO + entropy bonus 0.3, 4 clipped epochs per batch, single-token ids, goal-only prompt, head trained, "
     "lr 3e-3", "grpo", "single", "short", True, 3e-3, 4, 0.3),
    ("GRPO + entropy bonus 0.3, 2 clipped epochs per batch, 2 goals per update, single-token ids, goal-only "
     "prompt, head trained, lr 3e-3", "grpo", "single", "short", True, 3e-3, 2, 0.3, 2),
    ("GRPO + entropy bonus 0.3, 2 clipped epochs per batch, single-token ids, goal-only prompt, head trained, "
     "lr 6e-3", "grpo", "single", "short", True, 6e-3, 2, 0.3),
]
GROUP = 8


def run_config(model_dir: str, cfg: tuple, steps: int, seed: int, every: int) -> dict:
    import torch

    import halo.policy.prompt as prompt_mod
    from halo.policy.base import DecodingConfig
    from halo.policy.hf_backend import HFPolicy
    from halo.policy.prompt import PromptConfig
    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.forward import training_batch
    from halo.rl.learner import LoRALearner

    name, objective, ids_kind, prompt_kind, head, lr = cfg[:6]
    epochs = cfg[6] if len(cfg) > 6 else 1  # PPO-style: the same samples, a clipped ratio after the first epoch
    ent = cfg[7] if len(cfg) > 7 else 0.0  # entropy bonus on the id's distribution (each goal's, exact)
    per_step = cfg[8] if len(cfg) > 8 else len(DEPTS)  # goals sampled per update (fewer: more updates per sample)
    torch.manual_seed(seed)
    rng = random.Random(seed)
    original_user_text = prompt_mod.user_text
    if prompt_kind == "short":  # the goal alone: nothing else in the prompt for attention to average over
        prompt_mod.user_text = lambda obs, c: f"Goal: {obs.goal}"
    try:
        pcfg = PromptConfig(max_pixels=16384, min_pixels=4096, actions=("click", "go_back", "send_msg_to_user"),
                            elements="visible", text="goal", text_max_chars=24, single_tool=True,
                            system="none" if prompt_kind == "short" else "brief", goal_last=True)
        pol = HFPolicy(model_dir, decoding=DecodingConfig(temperature=1.0, max_tokens=128), prompt=pcfg)
        learner = LoRALearner(pol, LoRASettings(rank=8, alpha=16, target_modules=("q_proj", "k_proj", "v_proj", "o_proj"),
                                                modules_to_save=("lm_head",) if head else ()),
                              OptimSettings(lr=lr))
        model, opt, tok = learner.model, learner.optimizer, pol.processor.tokenizer
        digit = [tok.convert_tokens_to_ids(str(i)) for i in range(10)]
        quote = tok('"', add_special_tokens=False)["input_ids"][0]
        first_allowed = torch.tensor(digit[1:])  # an id's first digit: 1-9
        second_allowed = torch.tensor(digit + [quote])  # then 0-9 or the closing quote
        single_ids = torch.tensor(list(range(1000, 1036)))  # 36 ids, one token each
        prefix_ids = tok(PREFIX, add_special_tokens=False)["input_ids"]
        right = {d: 11 + i for i, d in enumerate(DEPTS)}  # the department links are ids 11..16 of 1..36

        def dist(dept: str, k: int):
            """(p(right id), [(allowed token distribution, index sampled-from)...]) for one goal phrasing."""
            enc = pol.encode(pol.build_prompt(observation(dept, k)))
            seq = prefix_ids + ([digit[1]] if ids_kind == "digits" else [])
            b = training_batch(enc, [seq], pol.pad_id)
            logits = model(**b.inputs, use_cache=False).logits[0].float()
            end = b.prompt_len + len(seq)
            if ids_kind == "single":
                p = torch.softmax(logits[end - 1][single_ids], -1)
                return p[right[dept] - 1], [p]
            p1 = torch.softmax(logits[end - 2][first_allowed], -1)  # P(first digit), position before "1"
            p2 = torch.softmax(logits[end - 1][second_allowed], -1)  # P(second | "1")
            return p1[0] * p2[right[dept] - 10], [p1, p2]

        def sample(dept: str, parts) -> tuple:
            """GROUP sampled ids: rewards and their log-probabilities."""
            if ids_kind == "single":
                (p,) = parts
                a = torch.multinomial(p.detach(), GROUP, replacement=True)
                return (a == right[dept] - 1).float(), p.log()[a], a
            p1, p2 = parts
            f = torch.multinomial(p1.detach(), GROUP, replacement=True)
            s = torch.multinomial(p2.detach(), GROUP, replacement=True)
            r = ((f == 0) & (s == right[dept] - 10)).float()
            lp = p1.log()[f] + torch.where(f == 0, p2.log()[s], torch.zeros(GROUP))
            return r, lp, None

        curve, t0 = [], time.perf_counter()
        for step in range(steps):
            model.train()
            ks = {d: rng.randrange(100) for d in DEPTS}
            goals = DEPTS if per_step >= len(DEPTS) else rng.sample(DEPTS, per_step)
            saved: dict = {}  # goal -> (sampled ids, their old log-probabilities, advantages)
            for epoch in range(epochs):
                opt.zero_grad()
                loss, groups = torch.zeros(()), []
                for d in goals:
                    pr, parts = dist(d, ks[d])
                    if objective == "ll":
                        loss = loss - pr.log()
                    elif objective == "er":
                        loss = loss - pr
                    elif epoch == 0:
                        groups.append((d, *sample(d, parts)))
                        if ent:
                            loss = loss + ent * sum((q * q.clamp_min(1e-12).log()).sum() for q in parts)
                    elif d in saved:
                        a, old, adv = saved[d]
                        ratio = (parts[0].log()[a] - old).exp()
                        clipped = torch.minimum(ratio * adv, ratio.clamp(0.8, 1.2) * adv)
                        loss = loss - clipped.sum() / GROUP
                if groups:
                    all_r = torch.cat([r for _, r, _, _ in groups])
                    for d, r, lp, a in groups:
                        if r.std() > 0:
                            adv = (r - r.mean()) / (r.std() + 1e-6)
                        elif objective == "grpo-batch" and all_r.std() > 0:
                            adv = (r - all_r.mean()) / (all_r.std() + 1e-6)
                        else:
                            continue
                        saved[d] = (a, lp.detach(), adv)
                        loss = loss - (adv * lp).sum() / GROUP
                if loss.requires_grad:
                    loss.backward()
                    opt.step()
                if objective in ("ll", "er") or not saved:
                    break
            if (step + 1) % every == 0 or step == 0:
                model.eval()
                with torch.no_grad():  # unseen phrasings (k >= 1000)
                    per = [float(dist(d, 1000 + step * 7 + i)[0]) for i, d in enumerate(DEPTS)]
                per_goal_samples = GROUP if objective.startswith("grpo") else 1
                curve.append({"step": step + 1, "samples": (step + 1) * len(goals) * per_goal_samples,
                              "success": statistics.fmean(per), "per_goal": [round(x, 3) for x in per],
                              "goals_learned": sum(x >= 0.8 for x in per), "s": round(time.perf_counter() - t0, 1)})
                print(f"  [{name}] seed {seed} step {step + 1}: success {curve[-1]['success']:.2f} "
                      f"per goal {curve[-1]['per_goal']}", flush=True)
        return {"name": name, "objective": objective, "ids": ids_kind, "prompt": prompt_kind, "head_trained": head,
                "lr": lr, "seed": seed, "curve": curve, "final": curve[-1]["success"],
                "goals_learned": curve[-1]["goals_learned"]}
    finally:
        prompt_mod.user_text = original_user_text


def plot(results: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 5.5))
    names = list(dict.fromkeys(r["name"] for r in results))
    for i, name in enumerate(names):
        for r in (r for r in results if r["name"] == name):
            ax.plot([c["step"] for c in r["curve"]], [c["success"] for c in r["curve"]], color=f"C{i}",
                    label=name if r["seed"] == results[0]["seed"] else None, alpha=0.85)
    ax.axhline(1 / 36, color="gray", ls=":", label="uniform over the 36 ids")
    ax.axhline(0.8, color="black", ls="--", lw=0.8, label="80% target")
    ax.set_xlabel("update step (6 goals each; GRPO: 8 samples per goal)")
    ax.set_ylabel("P(right element id), unseen phrasings")
    ax.set_ylim(0, 1.02)
    ax.set_title("The goal-conditional choice alone: tiny Qwen3-VL, LoRA r8, 6 departments x 36 ids")
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model-dir", default="/tmp/halo-decision-probe-tiny")
    ap.add_argument("--steps", type=int, default=150)
    ap.add_argument("--seeds", default="0,1")
    ap.add_argument("--every", type=int, default=10)
    ap.add_argument("--only", default="", help="comma-separated config numbers (0-based) to run")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "decision_probe.json"))
    ap.add_argument("--append", action="store_true", help="keep the results already in --out (other configs/seeds)")
    a = ap.parse_args()
    from halo.policy.tiny import build_tiny_model, is_tiny_model

    if not is_tiny_model(a.model_dir):
        build_tiny_model(a.model_dir, seed=0)
    chosen = [CONFIGS[int(i)] for i in a.only.split(",")] if a.only else CONFIGS
    results = json.loads(Path(a.out).read_text())["results"] if a.append and Path(a.out).is_file() else []
    for cfg in chosen:
        for seed in (int(s) for s in a.seeds.split(",")):
            results.append(run_config(a.model_dir, cfg, a.steps, seed, a.every))
            out = {"model": json.loads((Path(a.model_dir) / "HALO_TINY.json").read_text()), "steps": a.steps,
                   "group": GROUP, "goals": DEPTS, "ids": 36, "results": results}
            Path(a.out).write_text(json.dumps(out, indent=1))
    plot(results, Path(a.out).with_suffix(".png"))
    for r in results:
        print(f"{r['name']:<90} seed {r['seed']}: final {r['final']:.2f}, goals learned {r['goals_learned']}/6")


if __name__ == "__main__":
    main()
