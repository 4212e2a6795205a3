"""The ladder's slow choice alone: which field to type into, told only by the prompt's Filled/Empty lines (issue 40).

On the GoMail ladder a rung's first success comes quickly and then takes ~10-40 iterations to be learned (stop 70,
``bench/rung_times.py``: 88% of a rung's CPU time); on send_title the policy keeps filling Message Body, the step of
the rung below, while the page differs only in which field its Empty line names. This probe takes that first step
alone, on the real pages: the start pages of ``gomail.send_body`` (Subject filled, Message Body empty) and
``gomail.send_title`` (the other way round) for 8 training instances each, opened once on REAL-local; the tiny model
from random initialisation in the ladder's tiny_text interface (``--fields --fields-layout ...``, stable element
ids, fill/click/go_back, values named by the goal's position ``#1``/``#2``); replies sampled by the policy itself
(``sample_prompt``: the grammar, jump-forward, the same tokens a rollout gets); a reply is right when it fills the
empty field with the goal's string for it (reward 1, else 0); and updates by HALO's own learner (``LoRALearner``:
Dr. GRPO advantages per group of 8, zero-variance groups dropped, PPO or CISPO, the entropy bonus, the head trained,
self-imitation of past right replies weighted by 1 - that page kind's recent success), as the ladder's GRPO does;
the ladder's explorer draws whole replies (values drawn whole, untried ones first) for a share of each group that
falls with the kind's recent success.

Phase 1 draws two body pages an update until the body's recent success (the last 5 updates) reaches 0.8; phase 2 draws
one body and one title page (the ladder's frontier and the rung below) until both are at 0.8. A run's number is phase
2's updates to that point (``upper_updates``), the new rung's learning alone, with where the wrong replies went (not a
fill, the wrong field, the right field with the wrong value), and the title pages' success over phase 2's first 150
updates (the summary). ``--kinds click,body`` poses the ladder's other recurring choice instead: send_click's page
(every field filled: click Send) learned first, then send_body's (fill the empty Message Body, not Send); more kinds
(``--kinds click,compose,body,title``: the ladder's first four rungs, send_compose's page the inbox where Compose is
right) are learned one after another, each phase the newest beside one of the kinds below it. Each config runs on
``--seeds``; configs differ by one thing from the ladder's (configs/ladder.yaml): the layout, the objective, the rate,
replay, the explorer, the model's width, LoRA's scale, which weights train (the token embeddings beside the adapter, or
every weight). ``supervised`` configs learn the right reply's likelihood on every drawn page instead (once one of its
kind has been found): the bound on how fast the model learns the choice at all. Writes
bench/results/field_choice_probe.json (``--out``; the runs already there are kept, a rerun of a config, seed and pair of
kinds replaces its own) and a plot beside it; ``--merge`` joins files of runs made apart (two processes on two cores).

    .venv/bin/python bench/field_choice_probe.py [--seeds 0,1,2] [--only NAME;NAME] [--max-updates 250]
    .venv/bin/python bench/field_choice_probe.py --kinds click,body --only "ladder (split_last, PPO, 2 epochs, lr 3e-3)"
    .venv/bin/python bench/field_choice_probe.py --kinds click,compose,body,title --max-updates 400
    .venv/bin/python bench/field_choice_probe.py --merge a.json,b.json
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import dataclasses
import json
import pickle
import random
import re
import statistics
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the ladder's rungs whose start pages the probe opens, and the one right first step on each: click Send (every field
# filled), or fill the field the page leaves empty
KINDS = {"click": "gomail.send_click", "compose": "gomail.send_compose", "body": "gomail.send_body",
         "title": "gomail.send_title"}
BUTTON = {"click": "Send", "compose": "Compose"}  # a click kind's right reply: this button
FIELD = {"body": "Message Body", "title": "Subject"}
WINDOW, TARGET = 5, 0.8  # recent success: the mean over the last WINDOW updates' groups of that kind


@dataclasses.dataclass(frozen=True)
class Config:
    layout: str = "split_last"
    objective: str = "ppo"  # or "cispo"; "supervised": no policy gradient, each drawn page told its right reply (the
    # last one found for its kind: values named by position are right on every page of it) by likelihood, weight 8
    epochs: int = 2
    lr: float = 3e-3
    entropy: float = 0.01
    replay: int = 16  # past right replies replayed an update (0: none)
    explore: float = 0.5  # a group's share of whole replies drawn by the explorer, times 1 - the kind's recent success
    group: int = 8
    draw: str = "uniform"  # the replayed replies drawn uniformly, or "weight": by 1 - their kind's recent success
    baseline: str = "group"  # "batch": an all-wrong group scored against the update's mean reward (not dropped)
    explore_fill: bool = False  # grpo.explore_fill: explored replies fill while a quoted string is untyped
    hidden: int = 64  # the tiny model's width (halo.policy.tiny.HIDDEN: 64)
    pages: int = 1  # pages of each kind drawn an update (phase 1: twice this many of the lower kind)
    alpha: int = 16  # LoRA's alpha (rank 8: scale alpha / rank = 2)
    loraplus: float = 1.0  # LoRA+: the B matrices' learning rate this many times A's (1: one rate)
    train: str = "lora"  # "embed": the token embeddings trained in full beside the adapter and head (PEFT's
    # modules_to_save); "full": every weight of the model trained (the random-init model has no features to keep)


CONFIGS = {
    "ladder (split_last, PPO, 2 epochs, lr 3e-3)": Config(),
    "CISPO, 4 epochs": Config(objective="cispo", epochs=4),
    "layout split (Filled/Empty above the goal)": Config(layout="split"),
    "layout inline (one Fields line)": Config(layout="inline"),
    "layout empty_ids (ids on the Empty line only)": Config(layout="empty_ids"),
    "lr 6e-3": Config(lr=6e-3),
    "no replay": Config(replay=0),
    "supervised (every right reply found, learned by likelihood)": Config(objective="supervised", replay=0),
    "supervised, layout empty_ids": Config(objective="supervised", replay=0, layout="empty_ids"),
    "supervised, layout split": Config(objective="supervised", replay=0, layout="split"),
    "supervised, layout inline": Config(objective="supervised", replay=0, layout="inline"),
    "supervised, lr 1e-2": Config(objective="supervised", replay=0, lr=1e-2),
    "supervised, 4 steps an update": Config(objective="supervised", replay=0, epochs=4),
    "supervised, 4 pages of each kind an update": Config(objective="supervised", replay=0, pages=4),
    "supervised, hidden 128": Config(objective="supervised", replay=0, hidden=128),
    "hidden 128": Config(hidden=128),
    "supervised, LoRA alpha 64": Config(objective="supervised", replay=0, alpha=64),
    "supervised, LoRA+ (B at 16x the rate)": Config(objective="supervised", replay=0, loraplus=16),
    "LoRA alpha 64": Config(alpha=64),
    "embeddings trained": Config(train="embed"),
    "supervised, embeddings trained": Config(objective="supervised", replay=0, train="embed"),
    "every weight trained": Config(train="full"),
    "groups of 4, 2 pages of each kind": Config(group=4, pages=2),
    "embeddings trained, groups of 4, 2 pages of each kind": Config(train="embed", group=4, pages=2),
    "supervised, every weight trained": Config(objective="supervised", replay=0, train="full"),
    "LoRA+ (B at 16x the rate)": Config(loraplus=16),
    "replay drawn by weight": Config(draw="weight"),
    "all-wrong groups against the batch mean": Config(baseline="batch"),
    "explorer's fill prior": Config(explore_fill=True),
    "explore 0.8": Config(explore=0.8),
    "empty_ids + fill prior": Config(layout="empty_ids", explore_fill=True),
    "empty_ids + fill prior + replay drawn by weight": Config(layout="empty_ids", explore_fill=True, draw="weight"),
}


def norm(v: str) -> str:
    return " ".join((v or "").split()).casefold()


async def open_pages(n: int, kinds: tuple[str, ...]) -> dict[str, list]:
    """The start page (an Observation) of ``n`` training instances of each kind's rung (the same ``n``: the rungs
    share gomail.send's instances)."""
    from halo.env.browser import BrowserPool
    from halo.env.env import BrowserEnv
    from halo.tasks.resolve import resolve_tasks
    from real_local.server import SitesServer

    out: dict[str, list] = {}
    with SitesServer() as urls:
        async with BrowserPool() as pool:
            env = BrowserEnv(pool, max_steps=10)
            for kind in kinds:
                out[kind] = []
                tasks = resolve_tasks([f"{KINDS[kind]}@train"], "local", urls)
                for task in random.Random(0).sample(tasks, n):  # the same instances of both kinds (one shared space)
                    out[kind].append(await env.reset(task))
                    await env.close()
    return out


def right_answer(obs, kind: str) -> tuple[str, str | None]:
    """(the empty field's env id, the goal's string for it: the quoted string no field holds yet), or on a click
    page (Send's env id, None)."""
    def one(found: list, what: str):
        if len(found) != 1:  # a page this probe cannot grade: say which and why, before any training
            raise SystemExit(f"{obs.task_id}: expected one {what} on its {kind} start page, found {len(found)}")
        return found[0]

    if kind in BUTTON:
        return one([i for i, el in obs.elements.items() if el.role == "button"
                    and (el.name or "").strip() == BUTTON[kind]], f"{BUTTON[kind]} button"), None
    eid = one([i for i, el in obs.elements.items() if " ".join((el.name or "").split()) == FIELD[kind]
               and not (el.value or "").strip()], f"empty {FIELD[kind]} field")
    held = {norm(el.value) for el in obs.elements.values() if el.value}
    value = one([q for q in re.findall(r'"([^"]+)"', obs.goal) if norm(q) not in held], "untyped quoted goal string")
    return eid, norm(value)


def outcome(sample, right: tuple[str, str | None]) -> str:
    from halo.env.actions import Click, Fill

    act = sample.action
    if right[1] is None:  # a click page: Send, or Compose
        if isinstance(act, Click):
            return "right" if act.element == right[0] else "wrong element"
        return "a fill" if isinstance(act, Fill) else "other"
    if not isinstance(act, Fill):
        return "not a fill"
    if act.element != right[0]:
        return "wrong field"
    return "right" if norm(act.value) == right[1] else "wrong value"


def build(cfg: Config, seed: int, model_root: Path):
    """The tiny policy (the ladder's tiny_text interface and explorer) and HALO's learner on ``cfg``'s settings."""
    import torch

    from halo.policy.modes import get_mode, make_policy
    from halo.policy.tiny import build_tiny_model, is_tiny_model
    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.learner import LoRALearner

    md = model_root / (f"tiny-seed{seed}" + (f"-h{cfg.hidden}" if cfg.hidden != 64 else ""))
    if not is_tiny_model(md):
        build_tiny_model(md, seed=seed, hidden=cfg.hidden)
    torch.manual_seed(seed)
    mode = get_mode("tiny_text").with_overrides(
        model=str(md), seed=seed, element_roles="by_action", phrase_words=1, fields=True, fields_layout=cfg.layout,
        element_ids="stable", actions=["click", "fill", "go_back"]).for_training()
    policy = make_policy(mode)
    dec = mode.decoding_config()
    policy.explore_per_reply, policy.explore_values, policy.explore_novel = True, True, True  # the ladder's explorer
    policy.explore_fill = cfg.explore_fill
    lora = LoRASettings(rank=8, alpha=cfg.alpha, target_modules=("q_proj", "k_proj", "v_proj", "o_proj"),
                        modules_to_save=("lm_head", "embed_tokens") if cfg.train == "embed" else ("lm_head",))
    optim = OptimSettings(lr=cfg.lr, entropy_coef=cfg.entropy, max_tokens=dec.max_tokens,
                          objective="ppo" if cfg.objective == "supervised" else cfg.objective)
    learner = LoRALearner(policy, lora, optim, temperature=1.0)
    if cfg.train == "full":
        for p in learner.model.parameters():
            p.requires_grad = True
        learner.params = [p for p in learner.model.parameters() if p.requires_grad]
        learner.optimizer = torch.optim.AdamW(learner.params, lr=cfg.lr, weight_decay=0.0)
    if cfg.loraplus != 1:  # LoRA+ (Hayou et al. 2024): B's rate a multiple of A's (and of the head's)
        b = [p for n, p in learner.model.named_parameters() if p.requires_grad and "lora_B" in n]
        rest = [p for n, p in learner.model.named_parameters() if p.requires_grad and "lora_B" not in n]
        learner.optimizer = torch.optim.AdamW([{"params": rest, "lr": cfg.lr},
                                               {"params": b, "lr": cfg.lr * cfg.loraplus}], lr=cfg.lr, weight_decay=0.0)
    return policy, learner


def run(name: str, cfg: Config, seed: int, pages: dict[str, list], max_updates: int, model_root: Path,
        kinds: tuple[str, str] = ("body", "title")) -> dict:
    """One config on one seed: the lowest kind alone until learned, then the next beside it, and so on, until every
    kind is learned (or ``max_updates``). Past phase 1 an update draws the newest kind and one below it (the one below
    with two kinds; else one of the lower kinds at random): the ladder's frontier and its review."""
    from halo.rl.advantages import group_advantages
    from halo.rl.learner import step_item

    policy, learner = build(cfg, seed, model_root)
    rng = random.Random(seed)
    lo, hi, last = kinds[0], kinds[-1], len(kinds)  # the final phase has every kind open
    prompts = {k: [(policy.build_prompt(o), o, right_answer(o, k)) for o in pages[k]] for k in kinds}
    recent: dict[str, collections.deque] = {k: collections.deque(maxlen=WINDOW) for k in kinds}
    buffer: list[tuple[str, object]] = []  # (kind, a right reply's TrainItem), oldest first
    curve, phase, final_at, done_at, found_at, t0 = [], 1, None, None, None, time.process_time()
    wrong: dict[str, collections.Counter] = {k: collections.Counter() for k in kinds}

    def rate(k: str) -> float:
        return statistics.fmean(recent[k]) if recent[k] else 0.0

    for update in range(1, max_updates + 1):
        if phase == 1:
            drawn_kinds = [lo, lo] * cfg.pages
        else:
            # phase 2 reviews the one kind below without a draw: two-kind runs keep the random stream they were
            # measured with
            drawn_kinds = [k for _ in range(cfg.pages) for k in
                           (kinds[0] if phase == 2 else rng.choice(kinds[:phase - 1]), kinds[phase - 1])]
        items, row, flat = [], {"update": update, "phase": phase}, []
        for k in drawn_kinds:
            prompt, obs, right = rng.choice(prompts[k])
            policy.explore = cfg.explore * (1.0 - rate(k))  # the ladder's explore_adapt: by the kind's failure rate
            samples = asyncio.run(policy.sample_prompt(prompt, obs, cfg.group, 1.0))
            outs = [outcome(s, right) for s in samples]
            rewards = [1.0 if o == "right" else 0.0 for o in outs]
            recent[k].append(statistics.fmean(rewards))
            row[k] = round(statistics.fmean(rewards), 3)
            if phase == last:
                wrong[k].update(outs)
                if k == hi and found_at is None and max(rewards):
                    found_at = update
            for s, r in zip(samples, rewards):
                if r:
                    buffer.append((k, step_item(types.SimpleNamespace(prompt=prompt, sample=s), 1.0, replayed=True)))
            flat.append((prompt, samples, rewards))
        mean = statistics.fmean(r for _, _, rs in flat for r in rs)
        for (prompt, _, _), k in zip(flat, drawn_kinds) if cfg.objective == "supervised" else ():
            known = next((it for kk, it in reversed(buffer) if kk == k), None)  # values by position: right on any page
            if known is not None:
                items.append(dataclasses.replace(known, prompt=prompt, prompt_tokens=None, advantage=cfg.group))
        for prompt, samples, rewards in flat if cfg.objective != "supervised" else ():
            if max(rewards) > min(rewards):
                advs = group_advantages(rewards)
            elif cfg.baseline == "batch" and rewards[0] != mean:
                advs = [r - mean for r in rewards]
            else:
                continue
            items += [step_item(types.SimpleNamespace(prompt=prompt, sample=s), a) for s, a in zip(samples, advs)]
        del buffer[:-1024]
        if cfg.replay and buffer:
            weight = {k: max(1.0 - rate(k), 0.0) for k in kinds}  # self-imitation's: 1 - the kind's recent success
            weights = [weight[k] for k, _ in buffer]
            if cfg.draw == "weight" and any(weights):
                drawn = rng.choices(buffer, weights, k=cfg.replay)
            else:
                drawn = rng.sample(buffer, min(cfg.replay, len(buffer)))
            items += [dataclasses.replace(it, advantage=weight[k]) for k, it in drawn if weight[k] > 0]
        if items:
            learner.update(items, cfg.epochs)
        row.update(lower_recent=round(min(rate(k) for k in kinds[:-1]), 3), upper_recent=round(rate(hi), 3),
                   cpu_s=round(time.process_time() - t0, 1))
        curve.append(row)
        newest = kinds[phase - 1]
        learned = len(recent[newest]) == WINDOW and min(rate(k) for k in kinds[:phase]) >= TARGET
        if learned and phase < last:
            phase += 1
            if phase == last:  # the final phase's start (phase 2 with two kinds)
                final_at = update
            recent[kinds[phase - 1]].clear()
        elif learned:
            done_at = update
            break
        if update % 10 == 0:
            print(f"  [{name}] seed {seed} update {update} phase {phase}: "
                  + " ".join(f"{k} {rate(k):.2f}" for k in kinds) + f" ({row['cpu_s']:.0f} CPU-s)", flush=True)
    return {"name": name, "seed": seed, "kinds": list(kinds), **dataclasses.asdict(cfg),
            "pages": {k: len(pages[k]) for k in kinds},
            "lower_updates": final_at, "upper_updates": done_at - final_at if done_at and final_at else None,
            "upper_first_right": found_at - final_at if found_at and final_at else None,
            "updates": len(curve), "cpu_s": curve[-1]["cpu_s"],
            "phase2_outcomes": {k: dict(v) for k, v in wrong.items()}, "curve": curve}


PLOTTED = ("ladder (split_last, PPO, 2 epochs, lr 3e-3)", "layout empty_ids (ids on the Empty line only)",
           "explorer's fill prior", "replay drawn by weight", "embeddings trained", "CISPO, 4 epochs",
           "supervised (every right reply found, learned by likelihood)")


def padded_upper(r: dict, n: int) -> list[float]:
    """A run's success on its upper kind's pages per update over phase 2's first ``n`` updates; a run that met the
    target and stopped is carried on at its last WINDOW updates' rate."""
    ph = [c[r["kinds"][-1]] for c in r["curve"] if c["phase"] == len(r["kinds"])]
    if not ph:
        return []
    tail = statistics.fmean(ph[-WINDOW:]) if r["upper_updates"] else ph[-1]
    return (ph + [tail] * n)[:n]


def plot(results: list[dict], path: Path, n: int = 150) -> None:
    """Per pair of kinds, each plotted config's success on the upper kind's pages, the mean over its seeds, by update
    since those pages joined."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pairs = list(dict.fromkeys(tuple(r["kinds"]) for r in results))
    fig, axes = plt.subplots(1, len(pairs), figsize=(9 * len(pairs), 5), squeeze=False)
    for ax, kinds in zip(axes[0], pairs):
        lower, hi = kinds[:-1], kinds[-1]
        mine = [r for r in results if tuple(r["kinds"]) == kinds]
        for name in (x for x in PLOTTED if any(r["name"] == x for r in mine)):
            runs = [x for x in (padded_upper(r, n) for r in mine if r["name"] == name and r["lower_updates"]) if x]
            if not runs:
                continue
            mean = [statistics.fmean(x[t] for x in runs) for t in range(n)]
            mean = [statistics.fmean(mean[max(0, t - WINDOW + 1):t + 1]) for t in range(n)]  # the last WINDOW updates
            colour = "black" if name.startswith("supervised") else f"C{PLOTTED.index(name)}"  # one per config
            ax.plot(range(1, n + 1), mean, color=colour,
                    ls="--" if name.startswith("supervised") else "-", label=f"{name} ({len(runs)} seeds)")
        ax.axhline(TARGET, color="gray", ls=":", lw=0.8)
        ax.set_xlabel(f"updates since the {hi} pages joined (one {' or '.join(lower)} + one {hi} page of 8 replies "
                      f"an update)")
        ax.set_ylabel(f"right replies on {hi} pages (mean over seeds, last {WINDOW} updates)")
        ax.set_ylim(0, 1.02)
        short = [KINDS[k].split(".")[-1] for k in kinds]
        ax.set_title(f"{short[-1]}'s first step, learned after {', '.join(short[:-1])}'s (tiny Qwen3-VL, LoRA)",
                     fontsize=10)
        ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--only", default="", help="config names, separated by semicolons")
    ap.add_argument("--max-updates", type=int, default=250, help="per run, both phases")
    ap.add_argument("--pages", type=int, default=8, help="training instances of each kind")
    ap.add_argument("--kinds", default="body,title", help="the kinds learned one after another, lowest first, of "
                    + ", ".join(KINDS) + " (click,body: the choice between Send and a fill; click,compose,body,title: "
                    "the ladder's first four rungs)")
    ap.add_argument("--model-root", default="/tmp/halo-field-probe")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "field_choice_probe.json"))
    ap.add_argument("--merge", default="", help="result files of runs made apart (comma-separated): their results "
                                                "into --out and its plot, nothing run")
    a = ap.parse_args()
    kinds = tuple(a.kinds.split(","))
    if len(kinds) < 2 or len(set(kinds)) != len(kinds) or not set(kinds) <= set(KINDS):
        ap.error(f"--kinds must name two or more different kinds of {', '.join(KINDS)}, got {a.kinds!r}")
    if a.merge:
        parts = [json.loads(Path(f).read_text()) for f in a.merge.split(",")]
        results = [r for part in parts for r in part["results"]]
        write(Path(a.out), {**parts[0], "results": results})
        plot(results, Path(a.out).with_suffix(".png"))
        summary(results)
        return
    names = [n for n in CONFIGS if not a.only or n in a.only.split(";")]
    if not names:
        sys.exit(f"--only: no config named {a.only!r}; known: {'; '.join(CONFIGS)}")
    root = Path(a.model_root)
    root.mkdir(parents=True, exist_ok=True)
    cache = root / f"pages-{a.pages}-{'-'.join(kinds)}.pkl"
    if not cache.is_file():
        cache.write_bytes(pickle.dumps(asyncio.run(open_pages(a.pages, kinds))))
    pages = pickle.loads(cache.read_bytes())
    out = Path(a.out)
    results = json.loads(out.read_text())["results"] if out.is_file() else []  # kept; a rerun replaces its own
    for name in names:
        for seed in (int(s) for s in a.seeds.split(",")):
            results = [r for r in results if (r["name"], r["seed"], tuple(r["kinds"])) != (name, seed, kinds)]
            results.append(run(name, CONFIGS[name], seed, pages, a.max_updates, root, kinds))
            write(out, {"pages": a.pages, "target": TARGET, "window": WINDOW, "results": results})
    plot(results, out.with_suffix(".png"))
    summary(results)


def write(path: Path, data: dict) -> None:
    """The result file, one run a line (each run's curve has a row per update)."""
    head = json.dumps({k: v for k, v in data.items() if k != "results"})[:-1]
    rows = ",\n".join(json.dumps(r, separators=(",", ":")) for r in data["results"])
    path.write_text(f'{head}, "results": [\n{rows}\n]}}\n')


def summary(results: list[dict], n: int = 150) -> None:
    """Per pair of kinds and config: each seed's phase-2 updates to the target (">N": not within the run) and the
    mean success on the upper kind's pages over phase 2's first ``n`` updates."""
    for key in dict.fromkeys((tuple(r["kinds"]), r["name"]) for r in results):
        runs = sorted((r for r in results if (tuple(r["kinds"]), r["name"]) == key), key=lambda r: r["seed"])
        to = [str(r["upper_updates"]) if r["upper_updates"] else
              f">{sum(c['phase'] == len(r['kinds']) for c in r['curve'])}" for r in runs]
        means = [statistics.fmean(x) for x in (padded_upper(r, n) for r in runs) if x]
        print(f"{'/'.join(key[0])} {key[1]:<60} seeds {len(runs)}: to {TARGET} in {', '.join(to)} updates; upper "
              f"success over {n} updates {statistics.fmean(means) if means else float('nan'):.2f}")
        if len(key[0]) > 2:  # a ladder of kinds: the update each kind joined at, and where every kind was learned
            print("    kinds joined at update " + "; ".join(
                "/".join(str(next((c["update"] for c in r["curve"] if c["phase"] == p), "-"))
                         for p in range(2, len(key[0]) + 1))
                + f", all learned {r['lower_updates'] + r['upper_updates'] if r['upper_updates'] else '-'}"
                for r in runs))


if __name__ == "__main__":
    main()
