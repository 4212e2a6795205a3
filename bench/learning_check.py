"""Does online GRPO learn from the tiny model's random initialisation? Task families, 3 seeds, a CPU budget.

For each seed: a fresh tiny Qwen3-VL (random weights, deterministic per seed) in the tiny mode (constrained,
page-valid actions), the random policy's success measured on held-out (test) and train instances first, then GRPO
on the family's training instances (curriculum sampler, zero-variance refills) until the CPU budget is spent
(HALO's process plus its browser processes), then success again on the same held-out and train instances.
Per-iteration curves (train success, mean return, zero-variance share, per-family success) and the before/after
numbers go to bench/results/<out>.json and a plot beside it.

Targets (issue 11): a one-step family from its random rate to >= 80% within 10 CPU-minutes per seed, on 3 of 3
seeds; a 2-4-step family +30 points within 20 CPU-minutes. A ladder (issue 40: ``--curriculum ladder`` over several
families, lowest rung first, ``--mode tiny_text`` for typed text): the top rung (the last family, ``top_family``)
from ~0% to >= 30% sampled success on train instances within 60 CPU-minutes, 3 of 3 seeds; success per family
after training (``per_family_after``) and the share of typed values that are right (``typed``) beside it. Success
is measured as the policy samples (temperature 1, as it trains); greedy success (temperature 0: each step's most
likely reply) is reported beside it, before and after, and is not the target's measure.

Run: .venv/bin/python bench/learning_check.py --family omnizon.department --budget-min 10 \
         --out learning_1step_end_on_success.json
     .venv/bin/python bench/learning_check.py --family gomail.open,gomail.label,gomail.reply,gomail.send \
         --curriculum ladder --mode tiny_text --max-steps 8 --budget-min 60 --out learning_ladder_gomail.json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


_CHILD_CPU: dict[tuple[int, float], float] = {}


def results_path(name: str) -> Path:
    """Where ``--out`` writes: a file name under bench/results/ (``bench/results/x.json`` and an absolute path are
    taken as they are). Checked before anything runs: an hour's run must not end on a path it cannot write."""
    results = ROOT / "bench" / "results"
    p = Path(name)
    path = p if p.is_absolute() else (ROOT / p if p.parts[:2] == ("bench", "results") else results / p)
    if p.suffix != ".json" or not path.parent.is_dir():
        raise SystemExit(f"--out {name}: give a .json file name under bench/results/ (e.g. ladder.json); "
                         f"{path} {'has no .json suffix' if p.suffix != '.json' else 'is in no existing folder'}")
    return path


def sets(items: list[str]) -> tuple:
    """``--set`` items as config overrides (checked at the door: a bad key or value stops before anything runs)."""
    from halo.config.overrides import parse_set

    return tuple(parse_set(i, ("grpo", "mcts", "lora", "optim", "rewards", "episode")) for i in items)


def cpu_seconds() -> float:
    """CPU seconds of this process and of every descendant it has had (Playwright's driver, Chromium's processes).
    A descendant's last reading is kept after it exits (a relaunched browser's processes are reaped by others, and
    their CPU would leave the count): the budget never runs backwards."""
    import psutil

    me = psutil.Process()
    for c in me.children(recursive=True):
        try:
            _CHILD_CPU[(c.pid, c.create_time())] = sum(c.cpu_times()[:2])
        except psutil.Error:
            pass
    return sum(me.cpu_times()[:2]) + sum(_CHILD_CPU.values())


class Budget(Exception):
    """Raised from the iteration callback when the CPU budget is spent."""


def typed_values(step) -> list[str]:
    """What a step's action typed into the page: a field's value, typed text, a select's options (not a click, not
    the final message)."""
    a = step.sample.action
    if a is None or a.name == "send_msg_to_user":
        return []
    return [v for v in (getattr(a, "value", None), getattr(a, "text", None), *(getattr(a, "options", None) or ()))
            if isinstance(v, str) and v]


def typed_right(task, episode) -> tuple[int, int]:
    """(typed values, right ones) of an episode: right when the value is one the instance's solution types
    (``Family.typed``: a subject, a message, a label; case and spacing ignored). A REAL task (``--transfer``) names
    no solution's values: (0, 0)."""
    from halo.tasks.families.base import norm

    if not getattr(task, "family", ""):
        return 0, 0
    want = wanted_values(task.family, task.index)
    vals = [v for st in episode.steps for v in typed_values(st)]
    return len(vals), sum(norm(v) in want for v in vals)


def wanted_values(family: str, index: int) -> set[str]:
    """The values instance ``index`` of ``family`` types in its solution (``Family.typed``), normalised (``norm``)."""
    from halo.tasks.families import get_family
    from halo.tasks.families.base import norm

    fam = get_family(family)
    return {norm(v) for v in fam.typed(fam.instance(index).params)}


async def success_on(sampler, tasks, episodes: int, max_steps: int, run, temperature: float | None = None) -> dict:
    """Success of one evaluation; ``temperature`` None samples as the policy trains (the target's measure), 0 takes
    each step's most likely reply (is the policy's mode right, however unsure it is). ``typed``: how many values the
    episodes typed and how many were right."""
    from halo.jobs.eval import EvalConfig, run_eval

    typed = [0, 0]

    def count(task, ep) -> None:
        n, ok = typed_right(task, ep)
        typed[0] += n
        typed[1] += ok

    res = await run_eval(sampler, tasks, EvalConfig(episodes=episodes, parallel=4, max_steps=max_steps,
                                                    temperature=temperature), run, on_episode=count)
    m = res.metrics()
    return {"success": m["success_rate"], "episodes": m["episodes"], "errored": m["errored"],
            "return": m["mean_dense_return"], "validity": m["action_validity"], "per_task": m["per_task"],
            "typed": {"values": typed[0], "right": typed[1],
                      "share_right": round(typed[1] / typed[0], 4) if typed[0] else None}}


def per_family(per: dict[str, float], tasks) -> dict[str, float]:
    """Mean success of each family among evaluated instances (``per``: task id -> success)."""
    by: dict[str, list[float]] = {}
    for t in tasks:
        if t.id in per:
            by.setdefault(t.family, []).append(per[t.id])
    return {f: round(statistics.fmean(v), 4) for f, v in by.items()}


def expand_families(spec: str) -> str:
    """``families/1`` (every one-step family), ``SITE.*`` or ``families`` to the comma-separated names they cover
    (the result file lists the families trained), read by the task specs' own parser (one instance of each)."""
    from halo.tasks.families import resolve_family_spec

    names = [t.family for part in spec.split(",") if part.strip()
             for t in resolve_family_spec(f"{part.strip()}@all:1")]
    if not names:
        raise SystemExit(f"--family {spec!r} names no family; `halo tasks --families` lists them")
    return ",".join(dict.fromkeys(names))


def multi_family_summary(seeds: list[dict]) -> dict:
    """Issue 44's multi-site bar per seed: mean sampled success over the families >= 80% and every family >= 50%."""
    per_seed = []
    for r in seeds:
        fam = {f: v["success"] for f, v in r.get("per_family_after", {}).items()}
        if not fam:
            continue
        low = min(fam, key=fam.get)
        per_seed.append({"seed": r["seed"], "families": len(fam), "mean": round(statistics.fmean(fam.values()), 4),
                         "min": fam[low], "lowest": low, "below_50": sorted(f for f, v in fam.items() if v < 0.5),
                         "held_out_mean": round(statistics.fmean(
                             v.get("held_out", 0.0) for v in r["per_family_after"].values()), 4),
                         "met": statistics.fmean(fam.values()) >= 0.8 and fam[low] >= 0.5})
    return {"per_seed": per_seed, "seeds_meeting_bar": sum(m["met"] for m in per_seed)}


def first_drawn(curve: list[dict]) -> dict[str, float]:
    """Per family, the training CPU seconds at the end of the first iteration that drew it: how fast a ladder climbs
    (its rungs are drawn only once open, except a ``--ladder-goal`` top rung)."""
    out: dict[str, float] = {}
    for h in curve:
        for f in h.get("family_success", {}):
            out.setdefault(f, h["cpu_s"])
    return out


def frontier_spans(curve: list[dict], rungs: list[str]) -> dict[str, dict]:
    """Per rung below the top, the stretch it led the ladder (from the first iteration that drew it to the first that
    drew the next): CPU seconds, iterations, its mean success over the iterations that drew it, and the share of
    zero-variance groups. Where a ladder stalls is the rung with the longest stretch; its success says whether it was
    failing throughout (nothing found to learn from) or climbing slowly (found, not yet learned). The top rung is left
    out: a goal share draws it before it opens, so its first draw does not date its opening."""
    first = first_drawn(curve)
    rungs = list(dict.fromkeys(rungs))  # the ladder's order, each family once (as the sampler reads the task list)
    opened = [(r, first[r]) for r in rungs[:-1] if r in first]
    out: dict[str, dict] = {}
    for i, (r, t) in enumerate(opened):
        last = i + 1 == len(opened)
        end = curve[-1]["cpu_s"] if last else opened[i + 1][1]
        its = [h for h in curve if t <= h["cpu_s"] and (h["cpu_s"] < end or last)]
        own = [h["family_success"][r] for h in its if r in h.get("family_success", {})]
        zero = [h["frac_reward_zero_std"] for h in its if "frac_reward_zero_std" in h]
        out[r] = {"cpu_s": round(end - t, 1), "iterations": len(its), "led_to_end": last,
                  "success": round(statistics.fmean(own), 3) if own else None,
                  "zero_std": round(statistics.fmean(zero), 3) if zero else None}
    return out


def seen_split(per: dict[str, float], rolled: set[str], names: tuple[str, str] = ("seen", "unseen")) -> dict:
    """Success on the evaluated instances that training rolled out at least once, and on those it never did:
    whether the policy only knows the instances it practised (memorised) or also the rest of the train split."""
    out = {}
    for name, ids in ((names[0], [t for t in per if t in rolled]), (names[1], [t for t in per if t not in rolled])):
        out[name] = {"instances": len(ids),
                     "success": round(statistics.fmean(per[t] for t in ids), 4) if ids else None}
    return out


async def one_seed(a, seed: int, tmp: str) -> dict:
    import torch

    from halo.config.overrides import flags
    from halo.jobs.grpo import GRPOJob, setup_grpo, train_grpo
    from halo.policy.modes import mode_flags
    from halo.policy.tiny import build_tiny_model
    from halo.runtime.runs import RunDir
    from halo.tasks.resolve import resolve_tasks
    from real_local.server import SitesServer

    torch.manual_seed(seed)
    d = Path(tmp) / f"tiny-seed{seed}"
    if not (d / "config.json").is_file():
        build_tiny_model(d, seed=seed)
    families = a.family.split(",")
    top = families[-1]
    job = GRPOJob(tasks=[f"{f}@train" for f in families], mode=a.mode, sites="local",
                  run_name=f"learn-seed{seed}", runs_dir=tmp,
                  overrides=(*mode_flags(model=str(d), seed=seed, element_roles=a.element_roles,
                                         phrase_words=a.phrase_words, fields=a.fields,
                                         fields_layout=a.fields_layout, element_ids=a.element_ids,
                                         alerts=a.alerts,
                                         actions=a.actions.split(",") if a.actions else None),
                             *flags("grpo", {
                                 "iterations": a.max_iterations, "group_size": a.group, "max_steps": a.max_steps,
                                 "tasks_per_iteration": a.tasks_per_iteration, "lr": a.lr,
                                 "checkpoint_every": a.max_iterations, "seed": seed, "save_episodes": "none",
                                 "update_epochs": a.update_epochs, "advantage": a.advantage,
                                 "entropy_coef": a.entropy_coef, "entropy_coef_final": a.entropy_coef_final,
                                 "lr_final": a.lr_final, "refill_zero_variance": a.refills,
                                 "self_imitation": a.self_imitation, "explore": a.explore,
                                 "explore_adapt": a.explore_adapt, "explore_unit": a.explore_unit,
                                 "explore_adapt_own": a.explore_adapt_own,
                                 "explore_per_episode": a.explore_per_episode, "hindsight": a.hindsight,
                                 "explore_stuck": a.explore_stuck, "explore_novel": a.explore_novel,
                                 "explore_fill": a.explore_fill,
                                 "hindsight_per_episode": a.hindsight_per_episode,
                                 "curriculum": a.curriculum, "ladder_unlock": a.ladder_unlock,
                                 "ladder_goal": a.ladder_goal, "ladder_goal_steps": a.ladder_goal_steps,
                                 "ladder_goal_last": a.ladder_goal_last,
                                 "family_steps": a.family_steps, "max_staleness": a.max_staleness}),
                             *flags("lora", {"rank": a.lora_rank, "alpha": 2 * a.lora_rank,
                                             "target_modules": a.lora_targets.split(","),
                                             "modules_to_save": ["lm_head"] if a.train_head else []}),
                             *sets(a.set)))
    setup = await setup_grpo(job)
    hist: list[dict] = []
    out: dict = {"seed": seed}
    rolled: set[str] = set()  # instances training rolled out (``by_practice`` splits the train evaluation by them)
    try:
        with SitesServer() as urls:
            # a ladder is judged on its top rung; its lower rungs' train instances are evaluated after training
            judged = [top] if a.curriculum == "ladder" else families
            test = [t for f in judged for t in resolve_tasks([f"{f}@test:{a.eval_instances}"], "local", urls)]
            train_eval = [t for f in judged for t in resolve_tasks([f"{f}@train:{a.eval_instances}"], "local", urls)]
            rungs = {f: resolve_tasks([f"{f}@train:{a.eval_instances}"], "local", urls) for f in families
                     if f not in judged}
            real = resolve_tasks([a.transfer], "local", urls) if a.transfer else []  # REAL's own tasks of the site

            async def evaluate(when: str) -> None:
                """Held-out and train success sampled (``random_*`` before training, ``after_*`` after), then with
                --greedy at temperature 0 (``greedy_<when>_*``), each run in its own directory."""
                kinds = [({"before": "random", "after": "after"}[when], f"eval_{when}", None)]
                if a.greedy:
                    kinds.append((f"greedy_{when}", f"greedy_{when}", 0.0))
                for key, folder, temperature in kinds:
                    for split, tasks_ in (("test", test), ("train", train_eval)):
                        r = await success_on(setup.sampler, tasks_, 1, a.max_steps,
                                             RunDir(setup.run.path, f"{folder}_{split}"), temperature)
                        per = r.pop("per_task")
                        if len(judged) > 1:  # several families judged: each one's own success beside the mean
                            r["per_family"] = per_family(per, tasks_)
                        if when == "after" and split == "train":
                            r["by_practice"] = seen_split(per, rolled)
                        out[f"{key}_{split}"] = r
                if real:  # transfer: REAL v2's own tasks of the site on REAL-local, sampled (no bar: reported)
                    r = await success_on(setup.sampler, real, 1, a.max_steps, RunDir(setup.run.path, f"real_{when}"))
                    out[f"real_{when}"] = {k: r[k] for k in ("success", "episodes", "errored", "return", "typed")}
                if when == "after":  # every family's success after training, sampled (the lower rungs evaluated now)
                    fam_train = out["after_train"].get("per_family", {})
                    fam_test = out["after_test"].get("per_family", {})
                    out["per_family_after"] = {
                        f: {"success": fam_train.get(f, out["after_train"]["success"]),
                            "held_out": fam_test.get(f, out["after_test"]["success"])} for f in judged}
                    if len(judged) == 1:
                        out["per_family_after"][judged[0]]["typed"] = out["after_train"]["typed"]
                    for f, ts in rungs.items():
                        r = await success_on(setup.sampler, ts, 1, a.max_steps,
                                             RunDir(setup.run.path, f"eval_after_{f}"))
                        out["per_family_after"][f] = {"success": r["success"], "typed": r["typed"]}

            await evaluate("before")
            print(f"seed {seed}: random policy success test {out['random_test']['success']:.2f} "
                  f"train {out['random_train']['success']:.2f}", flush=True)
            c0, w0 = cpu_seconds(), time.perf_counter()

            def on_iteration(res) -> None:
                m = res.metrics
                rolled.update(e.task_id for e in res.episodes)
                m["cpu_s"] = round(cpu_seconds() - c0, 1)
                m["wall_s"] = round(time.perf_counter() - w0, 1)
                hist.append({k: m[k] for k in ("iteration", "success_rate", "mean_reward", "frac_reward_zero_std",
                                               "action_validity", "episodes", "errored", "refills", "cpu_s",
                                               "wall_s", "family_success", "grad_norm", "entropy", "train_items",
                                               "time_rollout",
                                               "time_update", "tokens", "progress", "episode_length")})
                for k in ("self_imitation", "explore", "lr", "entropy_coef", "search"):
                    if k in m:
                        hist[-1][k] = m[k]
                print(f"  it {m['iteration']:3d} cpu {m['cpu_s']:6.0f}s success {m['success_rate']:.2f} "
                      f"return {m['mean_reward']:+.2f} progress {m.get('progress', 0.0):+.2f} len {m['episode_length']:.1f} zero_std {m['frac_reward_zero_std']:.2f} "
                      f"refills {m['refills']} items {m['train_items']} entropy {m['entropy']:.2f}"
                      + (f" replayed {m['self_imitation']['items']}" if "self_imitation" in m else "")
                      + (f" relabelled {m['self_imitation'].get('relabelled')}" if "self_imitation" in m else "")
                      + (f" policy-drawn success {m['explore']['success_policy']} explore {m['explore']['rate']:.2f}"
                         if "explore" in m else "")
                      + (f" search {'solved' if m['search']['solved'] else 'unsolved'} "
                         f"{m['search']['env_steps']} steps" if "search" in m else ""),
                      flush=True)
                if m["cpu_s"] >= a.budget_min * 60:
                    raise Budget()

            tasks = resolve_tasks(job.tasks, "local", urls)
            try:
                # the lr and entropy schedules follow the CPU budget spent (the run stops on it, not on iterations)
                await train_grpo(setup, tasks, on_iteration,
                                 progress=lambda it: (cpu_seconds() - c0) / (a.budget_min * 60))
            except Budget:
                pass
            out["train_cpu_s"] = hist[-1]["cpu_s"] if hist else 0.0
            out["train_wall_s"] = hist[-1]["wall_s"] if hist else 0.0
            if a.keep_runs:  # the trained policy, to evaluate again later (halo eval --adapter DIR)
                out["adapter"] = os.path.join(setup.run.path, "adapter_final")
                await asyncio.to_thread(setup.learner.save_adapter, out["adapter"])
            await evaluate("after")
            if a.greedy:
                print(f"seed {seed}: greedy (temperature 0) success train {out['greedy_before_train']['success']:.2f}"
                      f" -> {out['greedy_after_train']['success']:.2f}, held-out "
                      f"{out['greedy_before_test']['success']:.2f} -> {out['greedy_after_test']['success']:.2f}",
                      flush=True)
    finally:
        await setup.sampler.aclose()
    out["curve"] = hist
    out["top_family"] = top
    out["instances_rolled_out"] = len(rolled)
    k = max(1, len(hist) // 5)
    out["last_fifth_train_success"] = statistics.fmean(h["success_rate"] for h in hist[-k:]) if hist else 0.0
    out["first_cpu_s_at_80"] = next((h["cpu_s"] for h in hist if h["success_rate"] >= 0.8), None)
    out["first_drawn_cpu_s"] = first_drawn(hist)
    if a.curriculum == "ladder":
        out["frontier_spans"] = frontier_spans(hist, a.family.split(","))
    print(f"seed {seed}: train-instance success {out['random_train']['success']:.2f} -> "
          f"{out['after_train']['success']:.2f}, held-out {out['random_test']['success']:.2f} -> "
          f"{out['after_test']['success']:.2f}, {out['train_cpu_s']:.0f} CPU s, {len(hist)} iterations", flush=True)
    bp = out.get("after_train", {}).get("by_practice")
    if bp:
        print(f"seed {seed}: of the train instances evaluated, {bp['seen']['instances']} were rolled out in training "
              f"(success {bp['seen']['success']}), {bp['unseen']['instances']} never (success "
              f"{bp['unseen']['success']}); {len(rolled)} instances rolled out in all", flush=True)
    return out


def plot(result: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ladder = result.get("curriculum") == "ladder"
    fig, ax = plt.subplots(figsize=(10, 4.5) if ladder else (7, 4))
    if ladder:  # one line per rung and seed: the ladder climbed
        families = result["family"].split(",")
        for i, r in enumerate(result["seeds"]):
            for j, f in enumerate(families):
                pts = [(h["cpu_s"] / 60, h["family_success"][f]) for h in r["curve"]
                       if f in h.get("family_success", {})]
                if pts:
                    ax.plot(*zip(*pts), color=f"C{j}", alpha=0.7, ls=("-", "--", ":")[i % 3],
                            label=f"{f} (seed {r['seed']})")
            ax.plot([r["curve"][-1]["cpu_s"] / 60 if r["curve"] else 0], [r["after_train"]["success"]], marker="o",
                    color="k", ms=7, ls="none",
                    label=f"seed {r['seed']} after: {families[-1]} train instances" if i == 0 else None)
        ax.axhline(0.3, ls="--", lw=1, color="red", label=f"target: {families[-1]} 30%")
        ylabel = "success rate (each iteration's episodes of the rung)"
        title = f"A ladder from random init, top rung {families[-1]}"
        where = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0)}  # a line per rung: beside the axes, hiding none
    else:
        for i, r in enumerate(result["seeds"]):
            xs = [h["cpu_s"] / 60 for h in r["curve"]]
            c = f"C{i}"
            ax.plot(xs, [h["success_rate"] for h in r["curve"]], color=c, alpha=0.6,
                    label=f"seed {r['seed']} (train episodes)")
            ax.axhline(r["random_train"]["success"], ls=":", lw=1, color="grey")
            if "after_train" in r and xs:  # the measure: sampled success on train instances after training
                ax.plot([xs[-1]], [r["after_train"]["success"]], marker="o", color=c, ms=8, ls="none",
                        label=f"seed {r['seed']} after, train instances (sampled)")
        if result.get("max_steps", 1) > 1:  # a 2-4-step family: +30 points over the random policy's train success
            rand = statistics.fmean(r["random_train"]["success"] for r in result["seeds"])
            ax.axhline(rand + 0.3, ls="--", lw=1, color="red", label="target: random + 30 points")
        else:
            ax.axhline(0.8, ls="--", lw=1, color="red", label="target 80%")
        fams = result["family"].split(",")
        named = result["family"] if len(fams) <= 2 else f"{len(fams)} families, one policy"
        ylabel, title = "success rate", f"GRPO from random init: {named} (dotted: random policy)"
        where = {"loc": "upper left"}
    ax.set_xlabel("CPU minutes (HALO + browsers)")
    ax.set_ylabel(ylabel)
    ax.set_ylim(-0.02, 1.02)
    ax.set_title(title)
    ax.legend(fontsize=7, **where)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--family", required=True, help="one family or several, comma-separated (omnizon.department)")
    p.add_argument("--seeds", default="0,1,2")
    p.add_argument("--budget-min", type=float, default=10.0, help="CPU minutes of training per seed")
    p.add_argument("--max-iterations", type=int, default=400)
    p.add_argument("--group", type=int, default=8)
    p.add_argument("--tasks-per-iteration", type=int, default=4)
    p.add_argument("--max-steps", type=int, default=1,
                   help="steps per episode (a family episode ends when its checks pass: 1 = one decision)")
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--update-epochs", type=int, default=1)
    p.add_argument("--entropy-coef", type=float, default=0.04,
                   help="entropy bonus on each sampled choice (0.1-0.3 kept the tiny policy uniform)")
    p.add_argument("--entropy-coef-final", type=float, default=None,
                   help="entropy_coef at the end of the budget, reached linearly (negative: a penalty, times the "
                        "policy's recent success); default constant")
    p.add_argument("--lr-final", type=float, default=None,
                   help="lr at the end of the budget (linear); default constant")
    p.add_argument("--lora-rank", type=int, default=8)
    p.add_argument("--lora-targets", default="q_proj,k_proj,v_proj,o_proj",
                   help="the language model's projections the adapter wraps, comma-separated (add gate_proj,up_proj,"
                        "down_proj for the MLPs)")
    p.add_argument("--train-head", action=argparse.BooleanOptionalAction, default=True,
                   help="train lm_head in full beside the adapter (a random head caps the logit gaps LoRA can make)")
    p.add_argument("--advantage", default="step")
    p.add_argument("--refills", type=int, default=2)
    p.add_argument("--self-imitation", type=int, default=0,
                   help="own past successes replayed per update (GRPOSettings.self_imitation; 0: off)")
    p.add_argument("--hindsight", action=argparse.BooleanOptionalAction, default=False,
                   help="failed episodes replayed as successes of the training instances they achieved "
                        "(GRPOSettings.hindsight; needs --self-imitation)")
    p.add_argument("--hindsight-per-episode", type=int, default=1,
                   help="instances one failed episode is relabelled for (GRPOSettings.hindsight_per_episode)")
    p.add_argument("--explore", type=float, default=0.0,
                   help="probability that each choice of a training reply is drawn uniformly among the grammar's "
                        "allowed tokens (GRPOSettings.explore)")
    p.add_argument("--explore-adapt", action=argparse.BooleanOptionalAction, default=False,
                   help="scale --explore by each family's recent failure rate (GRPOSettings.explore_adapt)")
    p.add_argument("--explore-per-episode", action=argparse.BooleanOptionalAction, default=False,
                   help="the per-step rate over the family's mean episode length: about one drawn choice an "
                        "episode (GRPOSettings.explore_per_episode)")
    p.add_argument("--explore-adapt-own", action=argparse.BooleanOptionalAction, default=False,
                   help="--explore-adapt on the failure rate of the policy's own (unexplored) episodes "
                        "(GRPOSettings.explore_adapt_own)")
    p.add_argument("--explore-stuck", type=float, default=0.0,
                   help="explore at least this often on a step where the policy repeats its last action "
                        "(GRPOSettings.explore_stuck)")
    p.add_argument("--explore-novel", action=argparse.BooleanOptionalAction, default=False,
                   help="explored clicks favour buttons not yet acted on, stuck steps other actions than the repeated one "
                        "(GRPOSettings.explore_novel; needs --explore-unit value)")
    p.add_argument("--explore-fill", action=argparse.BooleanOptionalAction, default=False,
                   help="explored steps favour fill while the goal quotes a string no field holds yet and a field is "
                        "empty (GRPOSettings.explore_fill; needs --explore-unit value)")
    p.add_argument("--explore-unit", default="choice", choices=("choice", "reply", "value"),
                   help="draw each choice with --explore's probability, or whole replies, or whole replies with each "
                        "enumerated value drawn uniformly (GRPOSettings.explore_unit)")
    p.add_argument("--eval-instances", type=int, default=24, help="held-out and train instances evaluated")
    p.add_argument("--element-roles", choices=("any", "by_action"), default=None,
                   help="the mode's prompt.element_roles (by_action: fill/press only fields); default the mode's")
    p.add_argument("--actions", default="",
                   help="the mode's prompt.actions, comma-separated (e.g. without send_msg_to_user: a family's "
                        "episode then ends at success or at its step cap); default the mode's")
    p.add_argument("--max-staleness", type=int, default=0,
                   help="asynchronous GRPO: rollouts run up to this many adapter versions ahead of the learner "
                        "(GRPOSettings.max_staleness; 0: in turn)")
    p.add_argument("--fields", action=argparse.BooleanOptionalAction, default=None,
                   help="the mode's prompt.fields (a line with the page's text fields and their values); default "
                        "the mode's")
    p.add_argument("--alerts", action=argparse.BooleanOptionalAction, default=None,
                   help="the mode's prompt.alerts (an 'Alert: ...' line with the page's alert texts, such as a "
                        "form refusing Send); default the mode's")
    p.add_argument("--fields-layout", choices=("inline", "split", "split_last", "empty_ids"), default=None,
                   help="the mode's prompt.fields_layout (split: a line of filled fields, a line of empty ones; "
                        "split_last: the same after the goal, the empty ones last; empty_ids: split_last with "
                        "ids on the Empty line only); default the mode's")
    p.add_argument("--element-ids", choices=("page", "stable"), default=None,
                   help="the mode's prompt.element_ids (stable: each element under an id from its role and name, the "
                        "same on every page; page: the env's counters); default the mode's")
    p.add_argument("--phrase-words", type=int, default=None,
                   help="the mode's prompt.phrase_words (longest goal word span); default the mode's")
    p.add_argument("--mode", default="tiny", help="the policy mode (tiny; tiny_text: typed text among the goal's "
                                                  "phrases)")
    p.add_argument("--curriculum", default="auto", choices=("auto", "on", "off", "ladder"),
                   help="ladder: --family's families are rungs, lowest first; the last is judged (top_family)")
    p.add_argument("--transfer", default="",
                   help="a site name (gomail): its REAL v2 tasks on REAL-local evaluated before and after training "
                        "(success and mean dense return; reported, no bar)")
    p.add_argument("--family-steps", action=argparse.BooleanOptionalAction, default=False,
                   help="a family's training episode takes at most the steps its family needs (1 for a one-step "
                        "family; GRPOSettings.family_steps)")
    p.add_argument("--ladder-unlock", type=float, default=0.5,
                   help="the frontier rung's recent success that opens the next (GRPOSettings.ladder_unlock)")
    p.add_argument("--ladder-goal", type=float, default=0.0,
                   help="the share of draws the top rung takes before it opens (GRPOSettings.ladder_goal)")
    p.add_argument("--ladder-goal-steps", type=int, default=0,
                   help="those draws' episodes end after this many steps (GRPOSettings.ladder_goal_steps; 0: the "
                        "family's own cap)")
    p.add_argument("--ladder-goal-last", type=float, default=0.0,
                   help="the top rung's share, in whole episodes, once the rung below it is the frontier "
                        "(GRPOSettings.ladder_goal_last; 0: --ladder-goal's share, capped)")
    p.add_argument("--greedy", action=argparse.BooleanOptionalAction, default=True,
                   help="also evaluate at temperature 0 before and after (reported beside; the target is sampled)")
    p.add_argument("--out", default="learning_check.json", help="file name under bench/results/")
    p.add_argument("--keep-runs", default=None, metavar="DIR",
                   help="write each seed's run (its evaluated episodes, for bench/ladder_stalls.py, and its trained "
                        "adapter, adapter_final/) under DIR and keep it; default: a temporary directory, removed at "
                        "the end")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a config override after the flags (as halo's --set: grpo.search_every=2, "
                        "mcts.step_budget=60); repeat it")
    p.add_argument("--merge", default="",
                   help="comma-separated result files (under bench/results/) of the same settings, one seed each "
                        "(seeds run as parallel processes): combine them into --out with the plot, run nothing")
    a = p.parse_args()
    from halo.errors import ConfigError

    try:
        sets(a.set)
    except ConfigError as e:
        p.error(str(e))
    a.family = expand_families(a.family)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    out = {"family": a.family, **{k: v for k, v in vars(a).items() if k not in ("family", "out", "merge")},
           "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "cores": os.cpu_count(), "seeds": []}
    path = results_path(a.out)
    if a.merge:
        parts = [json.loads(results_path(f).read_text()) for f in a.merge.split(",")]
        out = {**parts[0], "seeds": [r for part in parts for r in part["seeds"]],
               "seeds_run_in_parallel": len(parts)}
        out["seeds"].sort(key=lambda r: r["seed"])
        for r in out["seeds"]:  # files written before it was recorded
            r.setdefault("first_drawn_cpu_s", first_drawn(r.get("curve", [])))
            if out.get("curriculum") == "ladder":
                r.setdefault("frontier_spans", frontier_spans(r.get("curve", []), out["family"].split(",")))
    else:
        with (contextlib.nullcontext(a.keep_runs) if a.keep_runs else tempfile.TemporaryDirectory()) as tmp:
            if a.keep_runs:
                os.makedirs(a.keep_runs, exist_ok=True)
            for s in (int(x) for x in a.seeds.split(",")):
                out["seeds"].append(asyncio.run(one_seed(a, s, tmp)))
                path.write_text(json.dumps(out, indent=1))
    out["seeds_reaching_80"] = sum(r["after_train"]["success"] >= 0.8 for r in out["seeds"])
    out["seeds_reaching_30"] = sum(r["after_train"]["success"] >= 0.3 for r in out["seeds"])
    out["mean_gain_train_points"] = round(100 * statistics.fmean(
        r["after_train"]["success"] - r["random_train"]["success"] for r in out["seeds"]), 1)
    if len(a.family.split(",")) > 1 and a.curriculum != "ladder":
        out["multi_family"] = multi_family_summary(out["seeds"])
        for r, m in zip(out["seeds"], out["multi_family"]["per_seed"]):
            print(f"seed {r['seed']}: mean over {m['families']} families {m['mean']:.2f}, lowest {m['min']:.2f} "
                  f"({m['lowest']}); below 50%: {', '.join(m['below_50']) or 'none'}", flush=True)
    path.write_text(json.dumps(out, indent=1))
    plot(out, path.with_suffix(".png"))
    print(f"wrote {path} and {path.with_suffix('.png')}")


if __name__ == "__main__":
    sys.exit(main())
