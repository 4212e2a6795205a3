"""The one-step family's decision alone, with the family's own goals: how many samples GRPO needs, beside supervised.

``bench/decision_probe.py`` isolates the goal-conditional choice with four short phrasings; this probe takes the goals
``omnizon.department`` really gives (its training instances; held-out instances for the test curve), the tiny mode's
own prompt (no system turn, the compact user turn, a small image) and the forced reply prefix up to the element id,
then trains LoRA (r8, head trained) on the distribution over 36 single-token ids (the eight bar links are 8 of them):

- ``supervised``: log-likelihood of the right id, one sample per goal (the bound: every label given);
- ``grpo``: 8 sampled ids per goal, group-normalised advantages, zero-variance groups dropped, an entropy bonus, and
  ``epochs`` clipped passes over the same samples (HALO's GRPO on this one decision, without a browser);
- ``replay``: self-imitation (``grpo.self_imitation``): own past successes replayed each update;
- ``explore``: that share of the sampled ids drawn uniformly over the 36 (the gradient still on the policy's
  log-probability): replay alone learns the links it has found to ~0.99 and leaves the others at ~0;
- ``hindsight``: a sampled link that is not the goal's is replayed as a success of a goal asking for it
  (``grpo.hindsight``); replayed successes also learn in every clipped epoch.

Each update draws ``goals`` training goals (6 unless the config says). The curve is P(right id) averaged over the 20 held-out goals and 24
training goals, against the samples spent (GRPO: goals x group per update). The loop pays one browser episode per
sample (~1,000 per 10 CPU-minutes on 2 cores, bench/results/learning_1step*.json), so the samples at which a curve
crosses 0.8 say whether the learning check's target is within reach of the objective itself. Each result also has
P(right) per link at the end (``by_link``) and the links any success was found for (``links_found``).
Writes bench/results/decision_probe_family.json and a plot beside it.

Run: .venv/bin/python bench/decision_probe_family.py [--seeds 0,1,2] [--samples 3000]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from learner_device_check import observation

PREFIX = '<tool_call>\n{"name": "browser", "arguments": {"action": "click", "element": "'


@dataclasses.dataclass(frozen=True)
class Config:
    objective: str  # "sup" (every label given) or "grpo"
    lr: float = 3e-3
    entropy: float = 0.3
    epochs: int = 1  # clipped passes over the same samples
    rank: int = 8
    replay: int = 0  # own past successes replayed per update (self-imitation), weighted by 1 - recent success
    goals: int = 6  # goals per update
    group: int = 8
    baseline: bool = True  # replay weight 1 - recent success (False: weight 1)
    explore: float = 0.0  # share of samples drawn uniformly over the ids instead of from the policy
    hindsight: bool = False  # a sampled link that is not the goal's is a success of a goal asking for it (replayed)


CONFIGS = {
    "supervised": Config("sup", entropy=0.0),
    "GRPO, 1 epoch": Config("grpo"),
    "GRPO, 2 clipped epochs": Config("grpo", epochs=2),
    "GRPO, LoRA rank 32": Config("grpo", rank=32),
    "GRPO + self-imitation replay 8": Config("grpo", replay=8),
    "GRPO + self-imitation replay 24": Config("grpo", replay=24),
    "GRPO + replay 24, 2 goals an update": Config("grpo", replay=24, goals=2),
    "GRPO + replay 24, lr 6e-3": Config("grpo", replay=24, lr=6e-3),
    "GRPO + replay 48, 3 goals an update": Config("grpo", replay=48, goals=3),
    "GRPO + replay 48, 3 goals, entropy 0.1": Config("grpo", replay=48, goals=3, entropy=0.1),
    "GRPO + replay 48, 3 goals, weight 1": Config("grpo", replay=48, goals=3, baseline=False),
    "GRPO + replay 24, 2 goals, 20% uniform": Config("grpo", replay=24, goals=2, explore=0.2),
    "GRPO + replay 24, 2 goals, 50% uniform": Config("grpo", replay=24, goals=2, explore=0.5),
    "supervised, lr 1e-2": Config("sup", entropy=0.0, lr=1e-2),
    "GRPO + replay 24, 1 goal, 50% uniform": Config("grpo", replay=24, goals=1, explore=0.5),
    "GRPO + replay 16, 2 goals, 3 epochs, 50% uniform": Config("grpo", replay=16, goals=2, explore=0.5, epochs=3),
    "GRPO + replay 16 + hindsight, 2 goals, 30% uniform": Config("grpo", replay=16, goals=2, explore=0.3,
                                                                hindsight=True),
    "GRPO + replay 48 + hindsight, 2 goals, 2 epochs, 30% uniform": Config("grpo", replay=48, goals=2, explore=0.3,
                                                                          hindsight=True, epochs=2),
}


def run(name: str, seed: int, samples_max: int, model_root: Path) -> dict:
    import torch

    from halo.policy.base import DecodingConfig
    from halo.policy.hf_backend import HFPolicy
    from halo.policy.prompt import PromptConfig
    from halo.policy.tiny import build_tiny_model, is_tiny_model
    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.forward import training_batch
    from halo.rl.learner import LoRALearner
    from halo.tasks.families import get_family

    cfg = CONFIGS[name]
    objective, lr, ent, epochs, rank, replay = cfg.objective, cfg.lr, cfg.entropy, cfg.epochs, cfg.rank, cfg.replay
    GOALS, GROUP = cfg.goals, cfg.group
    md = model_root / f"tiny-seed{seed}"
    if not is_tiny_model(md):
        build_tiny_model(md, seed=seed)
    fam = get_family("omnizon.department")
    train, test = fam.instances("train"), fam.instances("test")
    right = {link: k for k, link in enumerate(sorted({i.params["link"] for i in train}), start=10)}  # ids 11..18
    torch.manual_seed(seed)
    rng = random.Random(seed)
    pcfg = PromptConfig(max_pixels=16384, min_pixels=4096, actions=("click", "go_back", "send_msg_to_user"),
                        elements="visible", text="goal", text_max_chars=24, single_tool=True, system="none",
                        user="compact", tree="controls")
    pol = HFPolicy(str(md), decoding=DecodingConfig(temperature=1.0, max_tokens=128), prompt=pcfg, threads=1)
    learner = LoRALearner(pol, LoRASettings(rank=rank, alpha=2 * rank,
                                            target_modules=("q_proj", "k_proj", "v_proj", "o_proj"),
                                            modules_to_save=("lm_head",)), OptimSettings(lr=lr))
    model, opt, tok = learner.model, learner.optimizer, pol.processor.tokenizer
    prefix = tok(PREFIX, add_special_tokens=False)["input_ids"]
    ids = torch.tensor([tok.convert_tokens_to_ids(str(i)) for i in range(1, 37)])
    base = observation("Electronics", 0)  # a blank page with 36 links; the goal is replaced

    def dist(inst):
        enc = pol.encode(pol.build_prompt(dataclasses.replace(base, goal=inst.goal)))
        b = training_batch(enc, [prefix], pol.pad_id)
        logits = model(**b.inputs, use_cache=False).logits[0].float()
        return torch.softmax(logits[b.prompt_len + len(prefix) - 1][ids], -1)

    def p_right(inst) -> float:
        return float(dist(inst)[right[inst.params["link"]]])

    curve, samples, t0 = [], 0, time.perf_counter()
    eval_train = rng.sample(train, 24)

    def evaluate() -> None:
        model.eval()
        with torch.no_grad():
            curve.append({"samples": samples, "test": round(statistics.fmean(map(p_right, test)), 3),
                          "train": round(statistics.fmean(map(p_right, eval_train)), 3),
                          "s": round(time.perf_counter() - t0, 1)})
        print(f"  [{name}] seed {seed} samples {samples}: P(right) held-out {curve[-1]['test']:.2f} "
              f"train {curve[-1]['train']:.2f}", flush=True)

    evaluate()
    per_update = GOALS * (1 if objective == "sup" else GROUP)
    every = max(1, (48 if objective == "sup" else 240) // per_update)
    step = 0
    found: dict[str, object] = {}  # goal -> an instance whose sampled id succeeded (self-imitation's buffer)
    recent = 0.0  # running success rate of the sampled groups (SIL's baseline V: replay weight max(1 - V, 0))
    while samples < samples_max:
        model.train()
        opt.zero_grad()
        loss, saved, replayed = torch.zeros(()), [], []
        for inst in rng.sample(train, GOALS):
            p = dist(inst)
            want = right[inst.params["link"]]
            if objective == "sup":
                loss = loss - p[want].log()
                continue
            act = torch.multinomial((1 - cfg.explore) * p.detach() + cfg.explore / len(ids), GROUP, replacement=True)
            r = (act == want).float()
            recent = 0.9 * recent + 0.1 * float(r.mean())
            if r.max() > 0:
                found[inst.goal] = inst
            if cfg.hindsight:  # grpo.hindsight: the link opened is what another training goal asks for
                for a in set(act.tolist()) - {want}:
                    asks = [i for i in train if right[i.params["link"]] == a and i.goal != inst.goal]
                    if asks:
                        other = rng.choice(asks)
                        found[other.goal] = other
            loss = loss + ent * (p * p.clamp_min(1e-12).log()).sum()
            if r.std() > 0:
                adv = (r - r.mean()) / (r.std() + 1e-6)
                loss = loss - (adv * p.log()[act]).sum() / GROUP
                saved.append((inst, act, p.log()[act].detach(), adv))
        for goal in rng.sample(sorted(found), min(replay, len(found))):
            w = max(1.0 - recent, 0.0) if cfg.baseline else 1.0
            if w > 0:  # self-imitation: the log-likelihood of an own past success, weighted by its advantage over V
                inst = found[goal]
                loss = loss - w * dist(inst)[right[inst.params["link"]]].log()
                saved.append(None)
                replayed.append((inst, w))
        samples += per_update
        if objective == "sup" or saved:
            loss.backward()
            opt.step()
        for _ in range(epochs - 1):  # PPO-style passes over the same samples, ratio clipped at 0.2
            if not saved:
                break
            opt.zero_grad()
            loss = torch.zeros(())
            for inst, act, old, adv in filter(None, saved):
                p = dist(inst)
                ratio = (p.log()[act] - old).exp()
                loss = loss + ent * (p * p.clamp_min(1e-12).log()).sum() - torch.minimum(
                    ratio * adv, ratio.clamp(0.8, 1.2) * adv).sum() / GROUP
            for inst, w in replayed:  # replayed successes learn on the current policy every pass (ratio 1)
                loss = loss - w * dist(inst)[right[inst.params["link"]]].log()
            loss.backward()
            opt.step()
        step += 1
        if step % every == 0:
            evaluate()
    if curve[-1]["samples"] != samples:
        evaluate()
    crossed = next((c["samples"] for c in curve if c["train"] >= 0.8), None)
    by_link: dict[str, list[float]] = {}  # where the mass is left short: P(right) per link over all training goals
    model.eval()
    with torch.no_grad():
        for inst in train:
            by_link.setdefault(inst.params["link"], []).append(p_right(inst))
    return {"name": name, "seed": seed, "objective": objective, "lr": lr, "entropy_coef": ent, "epochs": epochs,
            "lora_rank": rank, "replay": replay, "explore": cfg.explore, "hindsight": cfg.hindsight,
            "goals_per_update": GOALS,
            "group": GROUP if objective == "grpo" else 1,
            "curve": curve, "final_train": curve[-1]["train"], "final_test": curve[-1]["test"],
            "samples_to_0.8_train": crossed, "updates": step,
            "by_link": {k: round(statistics.fmean(v), 3) for k, v in sorted(by_link.items())},
            "links_found": sorted({i.params["link"] for i in found.values()})}


def plot(results: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5))
    names = list(dict.fromkeys(r["name"] for r in results))
    for i, name in enumerate(names):
        for j, r in enumerate(x for x in results if x["name"] == name):
            ax.plot([c["samples"] for c in r["curve"]], [c["train"] for c in r["curve"]], color=f"C{i}",
                    label=name if j == 0 else None, alpha=0.85)
    ax.axhline(1 / 36, color="gray", ls=":", label="uniform over the 36 ids")
    ax.axhline(0.8, color="black", ls="--", lw=0.8, label="80% target")
    ax.axvline(1000, color="red", ls=":", lw=0.8, label="~episodes in 10 CPU-min (the loop)")
    ax.set_xlabel("samples (one sample = one one-step episode in the loop)")
    ax.set_ylabel("P(right element id), training goals")
    ax.set_ylim(0, 1.02)
    ax.set_title("omnizon.department's decision alone, its own goals: tiny Qwen3-VL, LoRA, 8 links of 36 ids")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--samples", type=int, default=3000, help="GRPO's sample budget (supervised: a fifth)")
    ap.add_argument("--only", default="", help="config names, separated by semicolons")
    ap.add_argument("--model-root", default="/tmp/halo-decision-probe-family")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "decision_probe_family.json"))
    a = ap.parse_args()
    names = [n for n in CONFIGS if not a.only or n in a.only.split(";")]
    if not names:
        sys.exit(f"--only: no config named {a.only!r}; known: {'; '.join(CONFIGS)}")
    results = []
    for name in names:
        for seed in (int(s) for s in a.seeds.split(",")):
            budget = a.samples // 5 if CONFIGS[name].objective == "sup" else a.samples
            results.append(run(name, seed, budget, Path(a.model_root)))
            Path(a.out).write_text(json.dumps({"family": "omnizon.department", "ids": 36, "results": results},
                                              indent=1) + "\n")
    plot(results, Path(a.out).with_suffix(".png"))
    for r in results:
        print(f"{r['name']:<26} seed {r['seed']}: train {r['final_train']:.2f} held-out {r['final_test']:.2f} "
              f"at {r['curve'][-1]['samples']} samples; 0.8 at {r['samples_to_0.8_train']}")


if __name__ == "__main__":
    main()
