"""MCTS + step-level DPO on REAL-local (issue 13): restore cost, search vs sampling, DPO before/after. CPU only.

1. ``restore``: an oracle of one family per site is played with a snapshot before each step; every snapshot is then
   restored by fork reopening its page (the site's copy of the state, the page reopened, actions on it replayed;
   a state's first restore), by fork from a kept page (the copy the first restore asked for, made in the
   background: a tab taken over; halo.env.keep) and by replay (reset and every action again). Seconds per restore
   by depth, their medians, and kept / replay per depth (issue 41's bar: <= 0.5 at depths 1-5). Then MCTS end to
   end without and with kept pages (``kept_search_ab``: wall, CPU and restore time per search).
2. ``search``: per seed, a fresh tiny Qwen3-VL (random weights) in the tiny mode on the family's training instances;
   MCTS (``MCTSExplorer``) and GRPO-style sampling of whole episodes (4 concurrent envs) each get the same budget of
   env steps, or with ``--budget-cpu-s`` the same CPU seconds (issue 41: restores and the critic's work included);
   successes found (terminal successes anywhere in the search) per 1,000 env steps, and solved episodes (a searched
   episode's chosen path, a sampled episode) per CPU-hour. ``--critic progress`` values states by the family's own
   checks (an upper bound at run time: it reads the grader). The summary pools the seeds (``pooled``): solved
   episodes and CPU-s per method, their ratio, and its floor at 95% (``ratio_low95``, exact Poisson bounds: where
   sampling solves none there is no ratio, but there is a floor). ``--merge a.json,b.json`` joins runs of a seed
   each into ``--out``.
3. ``dpo``: the seed's MCTS preference pairs train its LoRA by DPO (``LoRALearner.preference_update``); success of
   the sampled policy on train instances before and after.
4. ``--rounds R`` (issue 41 item 3) instead of 2-3: per seed, R rounds of search with the current policy
   (``--round-cpu-s`` CPU seconds each), the round's step-level pairs (or all pairs so far), a DPO update of one
   adapter kept across rounds, and the sampled policy's success after each (``rounds_curve``: beside it the search's
   own success, the tree at run time). CPU of search and updates is the budget (``--budget-cpu-total``); the
   evaluations' CPU is reported apart. ``--update pg`` trains on the trees' siblings under GRPO's loss instead
   (advantage Q minus the siblings' mean), ``both`` on both (the hybrid of item 3). The adapter's lm_head is
   trained in full (``--train-head``, as in the learning checks; before stop 55 it was not).

Run: .venv/bin/python bench/mcts_bench.py --family omnizon.department --seeds 0,1,2 --budget 200
     .venv/bin/python bench/mcts_bench.py --restore-only --out mcts_restore.json
     .venv/bin/python bench/mcts_bench.py --family gocalendar.otherday --skip-restore --budget-cpu-s 300 \
         --critic progress --max-steps 4 --out mcts_otherday_cpu.json
     .venv/bin/python bench/mcts_bench.py --family gocalendar.otherday --skip-restore --no-sampling --rounds 8 \
         --round-cpu-s 120 --budget-cpu-total 1200 --critic progress --depth 0 --max-steps 4 --out mcts_rounds.json
Writes bench/results/mcts.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "sites"), str(ROOT / "tests" / "families"), str(ROOT / "bench")]
RESTORE_CASES = ("gomail.send", "gocalendar.create", "omnizon.buy", "zilloft.tour")


# steps played before a family's oracle where it is shorter than the table's depth 5: there and back, twice
DETOURS = {"gocalendar.create": [("link", "Next week"), ("link", "Previous week")] * 2,
           "omnizon.buy": [("link", "Today's Deals"), ("link", "Omnizon home")]}


def browser_uss_mb(pool) -> float:
    """Memory of the pool's browser processes (unique set size, MB): what kept pages cost."""
    import psutil

    total = 0
    for pid in pool.browser_pids():
        try:
            total += psutil.Process(pid).memory_full_info().uss
        except (psutil.Error, OSError):
            pass
    return round(total / 2**20, 1)


async def restore_bench(pool, urls, keep_pages: int = 8) -> dict:
    """Per snapshot of an oracle's episode, with nothing else running in the browser: restore by fork from a kept
    page (``fork_s``, the env's default: the state was restored before, so a copy was kept), by fork reopening the
    page (``fork_load_s``: a state's first restore) and by replay (``replay_s``); ``prepare_s``: the making of the
    kept page taken, done in the background between a state's restores."""
    from learning_check import cpu_seconds
    from test_branch import CASES, Recorder

    from halo.env.env import BrowserEnv
    from halo.tasks.families import family_task, get_family

    out = {}
    for name in RESTORE_CASES:
        inst = get_family(name).instance(2)
        task = family_task(inst, urls)
        a = BrowserEnv(pool, max_steps=40, branchable=True, end_on_success=False, keep_pages=keep_pages)
        b = BrowserEnv(pool, max_steps=40, end_on_success=False)
        try:
            d = Recorder(a, await a.reset(task))
            for role, label in DETOURS.get(name, []):
                await d.click(role, label, exact=True)
            await CASES[name][name](d, inst.params)
            assert (await d.finish("Done.")).info.grade.success, f"{name}: the oracle must solve the instance"
            uss0 = browser_uss_mb(pool)
            rows = []
            for snap in d.snaps:
                row = {"depth": snap.step, "since_nav": len(snap.since_nav), "history": len(snap.history_urls),
                       "snapshot_s": round(snap.timings["snapshot"], 4)}
                for col, method, kept in (("fork_load", "fork", False), ("fork", "fork", True),
                                          ("replay", "replay", True)):
                    c0 = cpu_seconds()
                    await a._kept.settled()  # the copy the last restore asked for is made: nothing runs beside
                    if col == "fork":  # the copy the first restore asked for: the work the kept restore moved
                        row["prepare_cpu_s"] = round(cpu_seconds() - c0, 4)
                    c0, t0 = cpu_seconds(), time.perf_counter()
                    await b.restore(snap, method=method, kept=kept)
                    row[f"{col}_s"] = round(time.perf_counter() - t0, 4)
                    row[f"{col}_cpu_s"] = round(cpu_seconds() - c0, 4)
                    assert b.restore_timings.get("kept", False) == (col == "fork"), (name, col, b.restore_timings)
                row["prepare_s"] = round(a._kept.prepare_s[-2], 4)  # the copy the kept restore took
                row["ratio"] = round(row["fork_s"] / row["replay_s"], 3)
                rows.append(row)
            await a._kept.settled()
            kept, uss1 = len(a._kept) + len(a._kept.shells), browser_uss_mb(pool)  # contexts held: copies, shells
            await a._kept.close()
            await asyncio.sleep(1.0)
            uss2 = browser_uss_mb(pool)
            med = {k: statistics.median(r[k] for r in rows) for k in (
                "fork_s", "fork_load_s", "replay_s", "prepare_s", "fork_cpu_s", "fork_load_cpu_s", "replay_cpu_s",
                "prepare_cpu_s")}
            out[name] = {"rows": rows, "fork_median_s": med["fork_s"], "fork_load_median_s": med["fork_load_s"],
                         "replay_median_s": med["replay_s"], "prepare_median_s": med["prepare_s"],
                         "cpu_median_s": {k[:-6]: v for k, v in med.items() if k.endswith("_cpu_s")},
                         "bar_depths_1_5": all(r["ratio"] <= 0.5 for r in rows if 1 <= r["depth"] <= 5),
                         "kept_pages": kept, "browser_uss_mb": {"before": uss0, "kept": uss1, "freed": uss2},
                         "uss_mb_per_kept_page": round((uss1 - uss2) / kept, 1) if kept else None,
                         "deepest": rows[-1]}
            print(f"restore {name}: fork (kept page) {med['fork_s']:.3f}s, fork (page load) "
                  f"{med['fork_load_s']:.3f}s, replay {med['replay_s']:.3f}s (medians over depths "
                  f"0..{rows[-1]['depth']}); kept page made in {med['prepare_s']:.3f}s; "
                  f"{out[name]['uss_mb_per_kept_page']} MB a kept page; CPU s (median) "
                  f"{out[name]['cpu_median_s']}", flush=True)
            for r in rows:
                print(f"  depth {r['depth']}: kept {r['fork_s']:.3f} load {r['fork_load_s']:.3f} "
                      f"replay {r['replay_s']:.3f} ratio {r['ratio']:.2f}", flush=True)
        finally:
            await a.close()
            await b.close()
    return out


async def kept_search_ab(pool, urls, keep_pages: int, rounds: int = 2) -> list[dict]:
    """MCTS end to end without and with kept pages, alternated: tests/families/test_mcts_oracle.py's search (the
    oracle's next action among distractors, a scripted judge), whose policy answers at once, so nothing hides the
    making of a copy: wall time, CPU (this process and its browser) and restore time per search."""
    from learning_check import cpu_seconds
    from test_branch import play
    from test_mcts_oracle import MAIL, SHOP, OracleCandidates, OracleJudge

    from halo.env.env import BrowserEnv
    from halo.rl.config import MCTSSettings
    from halo.rl.critic import PolicyCritic
    from halo.rl.mcts import MCTSExplorer
    from halo.tasks.families import family_task, get_family

    out = []
    for name, oracles, index in (("omnizon.add", SHOP, 2), ("gomail.trash", MAIL, 3)):
        inst = get_family(name).instance(index)
        task = family_task(inst, urls)
        a = BrowserEnv(pool, max_steps=30, end_on_success=False)
        try:
            d, _ = await play(a, task, oracles[name], inst.params)
        finally:
            await a.close()
        for keep in (0, keep_pages) * rounds:
            env = BrowserEnv(pool, max_steps=30, branchable=True, end_on_success=False)
            s = MCTSSettings(simulations=8, children=3, depth=len(d.actions) + 1, max_steps=len(d.actions) + 3,
                             alpha=0.5, keep_pages=keep)
            c0, t0 = cpu_seconds(), time.perf_counter()
            try:
                r = await MCTSExplorer(env, OracleCandidates(d.actions, k=3, seed=index), task, s,
                                       critic=PolicyCritic(OracleJudge(d.actions))).run()
            finally:
                await env.close()
            row = {"family": name, "keep_pages": keep, "success": r.success,
                   "wall_s": round(time.perf_counter() - t0, 2), "cpu_s": round(cpu_seconds() - c0, 2),
                   "env_steps": r.budget.steps, "restores": r.budget.restores,
                   "kept_restores": r.budget.kept_restores, "restore_s": round(r.budget.restore_s, 2)}
            print(f"search {row}", flush=True)
            out.append(row)
    return out


def spent(steps: int, budget: int, c0: float, cpu_budget: float) -> bool:
    """The method's budget: env steps, or with ``--budget-cpu-s`` CPU seconds (this process and its browsers,
    restores and the critic's work included)."""
    from learning_check import cpu_seconds

    return cpu_seconds() - c0 >= cpu_budget if cpu_budget else steps >= budget


def poisson_bound(k: int, upper: bool, conf: float = 0.95) -> float:
    """One-sided ``conf`` bound on a Poisson mean with ``k`` events seen (upper with k = 0: -ln(0.05) = 3.0): a
    sampler that solved nothing in its budget may still solve that many, so search's ratio to it has a floor."""
    if not upper and k == 0:
        return 0.0

    def tail(mu: float) -> float:  # P(X <= k) for the upper bound, P(X >= k) for the lower
        term = total = math.exp(-mu)
        for i in range(1, k + 1):
            term *= mu / i
            total += term
        return total if upper else 1.0 - total + term

    lo, hi = 0.0, 10.0 + 5.0 * k
    for _ in range(100):  # tail(mu) falls (upper) or rises (lower) with mu: bisect to 1 - conf
        mid = (lo + hi) / 2
        if (tail(mid) > 1 - conf) == upper:
            lo = mid
        else:
            hi = mid
    return round((lo + hi) / 2, 4)


def pooled_ratio(seeds: list[dict]) -> dict:
    """Search vs sampling over every seed's equal-CPU blocks: solved episodes and CPU-s summed, the ratio of the
    pooled rates and its floor at 95% (search's lower bound over sampling's upper: sampling often solves none)."""
    solved = {m: sum(r[m]["solved_episodes"] for r in seeds) for m in ("search", "sampling")}
    cpu = {m: round(sum(r[m]["cpu_s"] for r in seeds), 1) for m in ("search", "sampling")}
    rate = {m: per_cpu_hour(solved[m], cpu[m]) for m in solved}
    low = per_cpu_hour(1, cpu["search"]) * poisson_bound(solved["search"], upper=False)
    high = per_cpu_hour(1, cpu["sampling"]) * poisson_bound(solved["sampling"], upper=True)
    return {"search_solved": solved["search"], "search_cpu_s": cpu["search"],
            "sampling_solved": solved["sampling"], "sampling_cpu_s": cpu["sampling"],
            "ratio": round(rate["search"] / rate["sampling"], 2) if rate["sampling"] else None,
            "ratio_low95": round(low / high, 2)}


def summarize(out: dict) -> None:
    """The run's ``summary`` from its seeds (a run, or the seeds of several merged)."""
    S = out["seeds"]
    out["summary"] = {
        "mcts_successes_per_1k_steps": [r["mcts"]["per_1k_steps"] for r in S],
        "search_solved_per_cpu_hour": [r["mcts"].get("solved_per_cpu_hour") for r in S],
        "sampling_solved_per_cpu_hour": [r["sampling"].get("solved_per_cpu_hour") for r in S],
        "solved_per_cpu_hour_ratio": [r.get("solved_per_cpu_hour_ratio") for r in S],
        "sampling_successes_per_1k_steps": [r["sampling"]["per_1k_steps"] for r in S],
        "success_before_dpo": [r["before"]["success"] for r in S],
        "success_after_dpo": [r["after"]["success"] for r in S], "pairs": [r["pairs"] for r in S]}
    if out.get("rounds"):  # issue 41 item 3's bar: the sampled policy >= +30 points within 20 CPU-minutes a seed
        out["summary"].update(
            gain_points=[r["dpo"]["gain_points"] for r in S], cpu_min=[r["dpo"]["cpu_min"] for r in S],
            sampled_success_curves=[[p["sampled_success"] for p in r["rounds_curve"]] for r in S],
            search_success_curves=[[p["search_success"] for p in r["rounds_curve"]] for r in S])
    elif all(not r["sampling"].get("skipped") for r in S):  # issue 41 item 2: search vs sampling at equal CPU
        out["summary"]["pooled"] = pooled_ratio(S)


def per_cpu_hour(n: int, cpu_s: float) -> float:
    return round(3600 * n / cpu_s, 1) if cpu_s else 0.0


async def sampling(policy, pool, tasks, budget: int, max_steps: int, temperature: float,
                   cpu_budget: float = 0.0) -> dict:
    from learning_check import cpu_seconds

    from halo.env.env import BrowserEnv
    from halo.rl.rollout import run_episode

    envs = [BrowserEnv(pool, max_steps=max_steps) for _ in range(4)]
    steps = succ = eps = errored = 0
    t0, c0 = time.perf_counter(), cpu_seconds()
    i = 0
    try:
        while not spent(steps, budget, c0, cpu_budget):
            group = await asyncio.gather(*(run_episode(e, policy, tasks[(i + k) % len(tasks)],
                                                       temperature=temperature, max_steps=max_steps)
                                           for k, e in enumerate(envs)))
            i += len(envs)
            for ep in group:
                steps += len(ep.steps)
                eps += 1
                errored += ep.errored
                succ += ep.success and not ep.errored
    finally:
        for e in envs:
            await e.close()
    cpu_s = round(cpu_seconds() - c0, 1)
    return {"env_steps": steps, "successes": succ, "episodes": eps, "solved_episodes": succ, "errored": errored,
            "per_1k_steps": round(1000 * succ / max(1, steps), 1), "cpu_s": cpu_s,
            "solved_per_cpu_hour": per_cpu_hour(succ, cpu_s), "wall_s": round(time.perf_counter() - t0, 1)}


async def searching(policy, pool, tasks, budget: int, settings, critic=None, cpu_budget: float = 0.0,
                    search_steps: int = 0, start: int = 0) -> tuple[dict, list]:
    """Searched episodes until the budget: each ``MCTSExplorer.run`` is one episode (its chosen path is what counts
    as solved; successes found anywhere in the tree are reported beside), on ``tasks`` in turn from ``start``
    (``instances``: the ids searched, in order)."""
    import dataclasses

    from learning_check import cpu_seconds

    from halo.env.env import BrowserEnv
    from halo.rl.mcts import MCTSExplorer

    env = BrowserEnv(pool, max_steps=settings.max_steps, branchable=True)
    results = []
    steps = i = 0
    t0, c0 = time.perf_counter(), cpu_seconds()
    try:
        while not spent(steps, budget, c0, cpu_budget):
            cap = search_steps if cpu_budget else budget - steps
            s = dataclasses.replace(settings, step_budget=cap)
            r = await MCTSExplorer(env, policy, tasks[(start + i) % len(tasks)], s, critic=critic).run()
            i += 1
            steps += r.budget.steps
            results.append(r)
    finally:
        await env.close()
    n = sum(r.successes_found for r in results)
    cpu_s = round(cpu_seconds() - c0, 1)
    solved = sum(r.success for r in results)
    return ({"env_steps": steps, "successes": n, "episodes": len(results),
             "solved_episodes": solved, "cpu_s": cpu_s, "solved_per_cpu_hour": per_cpu_hour(solved, cpu_s),
             "critic": getattr(critic, "name", None) if critic is not None else "none",
             "per_1k_steps": round(1000 * n / max(1, steps), 1), "restores": sum(r.budget.restores for r in results),
             "kept_restores": sum(r.budget.kept_restores for r in results),
             "restore_s_mean": round(sum(r.budget.restore_s for r in results) /
                                     max(1, sum(r.budget.restores for r in results)), 3),
             "wall_s": round(time.perf_counter() - t0, 1),
             "instances": [tasks[(start + k) % len(tasks)].id for k in range(len(results))]}, results)


async def success_on(policy, tasks, max_steps: int, run) -> dict:
    from halo.jobs.eval import EvalConfig, run_eval

    res = await run_eval(policy, tasks, EvalConfig(episodes=1, parallel=4, max_steps=max_steps), run)
    m = res.metrics()
    return {"success": m["success_rate"], "episodes": m["episodes"], "errored": m["errored"],
            "per_task": m["per_task"]}


def searched_split(per_task: dict[str, float], searched: set[str]) -> dict:
    """The evaluation's success on the instances search has been run on so far and on the rest: what the policy
    learned for the instances its trees came from, and what it carries to the ones it never searched."""
    from learning_check import seen_split

    return seen_split(per_task, searched, ("searched", "unsearched"))


async def dpo_update(learner, pairs, epochs: int, beta: float, items=(), pg_weight: float = 1.0,
                     nll_weight: float = 0.0) -> list[dict]:
    """``epochs`` passes over ``pairs`` (DPO, with ``nll_weight`` times the chosen reply's NLL: RPO) and ``items``
    (the trees' siblings under GRPO's loss, advantage Q minus the siblings' mean: ``halo.rl.dpo.sibling_items``) in
    batches of 32 of each, one optimizer step a batch (the policy-gradient loss times ``pg_weight`` beside pairs); a
    row per step."""
    curve = []
    items = list(items)
    for epoch in range(epochs):
        for k in range(0, max(len(pairs), len(items)), 32):
            st = await asyncio.to_thread(learner.preference_update, pairs[k:k + 32], beta=beta,
                                         items=items[k:k + 32], pg_weight=pg_weight, nll_weight=nll_weight)
            curve.append({"epoch": epoch, "dpo_loss": round(st.extra.get("dpo_loss", 0.0), 4),
                          "chosen_nll": round(st.extra.get("chosen_nll", 0.0), 4),
                          "dpo_margin": round(st.extra.get("dpo_margin", 0.0), 4),
                          "dpo_accuracy": round(st.extra.get("dpo_accuracy", 0.0), 3),
                          "pg_items": st.items, "loss": round(st.loss, 4)})
    return curve


def rounds_total(blocks: list[dict]) -> dict:
    """The rounds' search blocks summed into one of ``searching``'s shape (what a one-round seed writes as
    ``search``), so readers of that block work; each round's own block is in ``rounds_curve``."""
    keys = ("env_steps", "successes", "episodes", "solved_episodes", "restores", "kept_restores")
    out: dict = {k: sum(b[k] for b in blocks) for k in keys}
    cpu_s = round(sum(b["cpu_s"] for b in blocks), 1)
    restore_s = sum(b["restore_s_mean"] * b["restores"] for b in blocks)
    out.update(cpu_s=cpu_s, solved_per_cpu_hour=per_cpu_hour(out["solved_episodes"], cpu_s),
               critic=blocks[0]["critic"] if blocks else None,
               per_1k_steps=round(1000 * out["successes"] / max(1, out["env_steps"]), 1),
               restore_s_mean=round(restore_s / max(1, out["restores"]), 3),
               wall_s=round(sum(b["wall_s"] for b in blocks), 1), rounds=len(blocks), aggregated="all rounds",
               instances_searched=len({i for b in blocks for i in b.get("instances", ())}))
    return out


async def search_dpo_rounds(a, seed: int, search, make_update, evaluate, clock) -> dict:
    """Issue 41 item 3's loop: search with the current policy -> step-level pairs -> DPO update -> the sampled policy
    alone on the eval instances, ``a.rounds`` times or until ``a.budget_cpu_total`` is spent. The steps come as
    callables (``search(cpu_s) -> (block, pairs)``, ``make_update() -> update(pairs) -> DPO rows``, ``evaluate(name)
    -> success``, ``clock() -> CPU s``) so the loop is tested without a browser or a model.

    ``cpu_s_total`` counts the learner's making, every round's search and every DPO update: what the method costs.
    The evaluations' CPU is left out of it (they measure the method, they are not part of it) and reported apart
    (``eval_cpu_s_total``); ``wall_s``: a round's search and update. With a cap, a round's search gets what is left
    of it; the last update may run past it."""
    c0 = clock()
    before = await evaluate("eval_before")
    before.pop("per_task", None)
    eval_s = clock() - c0
    print(f"seed {seed} before: sampled success {before['success']:.2f} ({before['episodes']} episodes)",
          flush=True)
    c0 = clock()
    update = make_update()  # one learner, one adapter: each round's update starts where the last one ended
    spent_s = clock() - c0
    points, blocks, every, dpo_rows, after, stopped = [], [], [], [], before, "rounds"
    for r in range(1, a.rounds + 1):
        left = a.budget_cpu_total - spent_s if a.budget_cpu_total else a.round_cpu_s
        if left <= 0:
            stopped = "budget"
            break
        t0, c0 = time.perf_counter(), clock()
        block, pairs = await search(min(a.round_cpu_s, left))
        c1 = clock()
        every += pairs
        rows = await update([p for p, _ in (every if a.pairs_from == "all" else pairs)])
        c2, wall_s = clock(), time.perf_counter() - t0
        spent_s += c2 - c0
        after = await evaluate(f"eval_round{r}")
        eval_s += clock() - c2
        blocks.append(block)
        searched = {i for b in blocks for i in b.get("instances", ())}
        split = searched_split(after.pop("per_task"), searched) if "per_task" in after else None
        dpo_rows += [{"round": r, **row} for row in rows]
        eps = block["episodes"]
        points.append({"round": r, "cpu_s_total": round(spent_s, 1), "search_cpu_s": round(c1 - c0, 1),
                       "dpo_cpu_s": round(c2 - c1, 1), "search_solved_episodes": block["solved_episodes"],
                       "search_episodes": eps, "search_success": round(block["solved_episodes"] / eps, 3) if eps
                       else None, "pairs_round": len(pairs), "pairs_total": len(every),
                       "sampled_success": after["success"], "dpo_loss_last": rows[-1]["dpo_loss"] if rows else None,
                       "eval_cpu_s_total": round(eval_s, 1), "wall_s": round(wall_s, 1),
                       "sampled_by_search": split, "search": block})
        p = points[-1]
        print(f"seed {seed} round {r}: search solved {p['search_solved_episodes']}/{eps} "
              f"({p['search_success']}); pairs {len(pairs)} (all {len(every)}), DPO loss {p['dpo_loss_last']}; "
              f"sampled success {before['success']:.2f} -> {after['success']:.2f}; CPU s {p['cpu_s_total']} "
              f"(search {p['search_cpu_s']}, DPO {p['dpo_cpu_s']}; evaluations apart: {p['eval_cpu_s_total']})",
              flush=True)
    return {"before": before, "after": after, "rounds_curve": points, "search": rounds_total(blocks),
            "pairs": len(every), "dpo_curve": dpo_rows,
            "pair_margin_mean": round(statistics.fmean(m["margin"] for _, m in every), 3) if every else None,
            "dpo": {"before": before["success"], "after": after["success"],
                    "gain_points": round(100 * (after["success"] - before["success"]), 1),
                    "cpu_min": round(spent_s / 60, 2), "eval_cpu_min": round(eval_s / 60, 2),
                    "rounds": len(points), "stopped": stopped, "pairs_from": a.pairs_from,
                    "pairs": getattr(a, "pairs", "q"),
                    "update": getattr(a, "update", "dpo")}}


def make_learner(a, policy, temp: float):
    """The adapter every update of a seed trains (rank 8 on the attention projections), with ``--train-head`` the
    lm_head in full beside it, as the learning checks train it (a random head caps the logit gaps LoRA can make)."""
    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.learner import LoRALearner

    lora = LoRASettings(rank=8, alpha=16, modules_to_save=("lm_head",) if a.train_head else ())
    return LoRALearner(policy, lora, OptimSettings(lr=a.lr), temperature=temp)


async def seed_rounds(a, seed: int, policy, pool, train, evals, settings, critic, temp: float, run) -> dict:
    """``--rounds``: ``search_dpo_rounds`` with this file's search (the seed's MCTS settings, the policy as it is
    now), pairs (``tree_pairs``), learner (``LoRALearner``, made once) and evaluation (``success_on``)."""
    from learning_check import cpu_seconds

    from halo.rl.dpo import sibling_items, tree_pairs
    from halo.runtime.runs import RunDir

    items_round: list = []  # the last round's trees as GRPO items (--update pg|both), and every round's
    items_all: list = []
    cursor = [0]  # the next training instance to search: each round goes on where the last one stopped
    # in an order of the seed's (the evaluation takes the first instances of the split: searched in the split's
    # order, they would be the first searched, and the evaluation would measure the searched ones alone)
    order = list(train)
    random.Random(seed).shuffle(order)

    async def search(cpu_s: float):
        # Before stop 60 every round started again at the first instance, so 10 rounds searched the same ~5 of the
        # ~160 (the sampled policy, judged on the first 24, levelled at 21-29%: the few it had seen)
        block, results = await searching(policy, pool, order, a.budget, settings, critic, cpu_s, a.search_steps,
                                         start=cursor[0])
        cursor[0] += len(results)
        solved = a.pairs == "solved"
        items_round[:] = ([it for r in results for it in sibling_items(r.root, settings.alpha, solved)]
                          if a.update != "dpo" else [])  # --update dpo trains on the pairs alone
        items_all.extend(items_round)
        block["pg_items"] = len(items_round)
        return block, [p for r in results for p in tree_pairs(r.root, settings.alpha, a.margin, solved)]

    def make_update():
        learner = make_learner(a, policy, temp)

        async def update(pairs):
            items = (items_all if a.pairs_from == "all" else items_round) if a.update != "dpo" else []
            return await dpo_update(learner, [] if a.update == "pg" else pairs, a.epochs, a.beta, items,
                                    a.pg_weight, a.nll_weight)
        return update

    async def evaluate(name: str) -> dict:
        return await success_on(policy, evals, a.max_steps, RunDir(run.path, name))

    return await search_dpo_rounds(a, seed, search, make_update, evaluate, cpu_seconds)


async def one_seed(a, seed: int, tmp: str, pool, urls) -> dict:
    import torch

    from halo.policy.modes import get_mode, make_policy
    from halo.policy.tiny import build_tiny_model
    from halo.rl.config import MCTSSettings
    from halo.rl.critic import ProgressCritic
    from halo.rl.dpo import tree_pairs
    from halo.runtime.runs import RunDir
    from halo.tasks.resolve import resolve_tasks

    torch.manual_seed(seed)
    d = Path(tmp) / f"tiny-seed{seed}"
    if not (d / "config.json").is_file():
        build_tiny_model(d, seed=seed)
    mode = get_mode("tiny").with_overrides(model=str(d), seed=seed).for_training()
    policy = make_policy(mode)
    temp = mode.decoding_config().temperature
    train = resolve_tasks([f"{a.family}@train"], "local", urls)
    evals = resolve_tasks([f"{a.family}@train:{a.eval_instances}"], "local", urls)
    out: dict = {"seed": seed}
    try:
        out["sampling"] = (await sampling(policy, pool, train, a.budget, a.max_steps, temp, a.budget_cpu_s)
                           if a.sampling else {"skipped": True, "solved_per_cpu_hour": None, "per_1k_steps": None})
        print(f"seed {seed} sampling: {out['sampling']}", flush=True)
        critic = ProgressCritic() if a.critic == "progress" else None
        s = MCTSSettings(simulations=a.simulations, children=a.children, depth=a.depth, max_steps=a.max_steps,
                         alpha=a.alpha if critic is not None else 1.0, temperature=temp, explore=a.explore,
                         explore_unit=a.explore_unit, keep_pages=a.keep_pages, first_play=a.first_play,
                         stop_at_success=a.stop_at_success)
        if a.rounds:  # "search" and "mcts": the rounds' search blocks summed; no ratio to a sampling block
            run = RunDir(tmp, f"seed{seed}")
            out.update(await seed_rounds(a, seed, policy, pool, train, evals, s, critic, temp, run))
            out["mcts"] = out["search"]
            return out
        out["mcts"], results = await searching(policy, pool, train, a.budget, s, critic, a.budget_cpu_s,
                                               a.search_steps)
        out["search"] = out["mcts"]  # issue 41's name for the block
        ratio = (out["mcts"]["solved_per_cpu_hour"] / out["sampling"]["solved_per_cpu_hour"]
                 if out["sampling"]["solved_per_cpu_hour"] else None)
        out["solved_per_cpu_hour_ratio"] = round(ratio, 2) if ratio is not None else None
        if not out["sampling"].get("skipped"):
            out["solved_per_cpu_hour_ratio_low95"] = pooled_ratio([out])["ratio_low95"]
        print(f"seed {seed} mcts: {out['mcts']}; solved per CPU-hour, search / sampling: {ratio}", flush=True)
        pairs = [p for r in results for p in tree_pairs(r.root, s.alpha, a.margin)]
        out["pairs"] = len(pairs)
        out["pair_margin_mean"] = round(statistics.fmean(r["margin"] for _, r in pairs), 3) if pairs else None
        run = RunDir(tmp, f"seed{seed}")
        out["before"] = await success_on(policy, evals, a.max_steps, RunDir(run.path, "eval_before"))
        learner = make_learner(a, policy, temp)
        curve = await dpo_update(learner, [p for p, _ in pairs], a.epochs, a.beta, nll_weight=a.nll_weight)
        out["dpo_curve"] = curve
        out["after"] = await success_on(policy, evals, a.max_steps, RunDir(run.path, "eval_after"))
        searched = set(out["mcts"].get("instances", ()))
        out["after"]["by_search"] = searched_split(out["after"].pop("per_task"), searched)
        out["before"].pop("per_task")
        print(f"seed {seed}: {len(pairs)} pairs; success {out['before']['success']:.2f} -> "
              f"{out['after']['success']:.2f}; last DPO {curve[-1] if curve else None}", flush=True)
    finally:
        await policy.aclose()
    return out


async def main_async(a) -> dict:
    from halo.env.browser import BrowserPool
    from real_local.server import SitesServer

    out = {k: v for k, v in vars(a).items() if k not in ("out", "path")}
    out.update(when=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), cores=os.cpu_count(), seeds=[])
    path = a.path
    with SitesServer() as urls, tempfile.TemporaryDirectory() as tmp:
        async with BrowserPool() as pool:
            if not a.skip_restore:
                out["restore"] = await restore_bench(pool, urls, a.keep_pages)
                path.write_text(json.dumps(out, indent=1))
                out["kept_search_ab"] = await kept_search_ab(pool, urls, a.keep_pages)
                path.write_text(json.dumps(out, indent=1))
            for seed in (int(x) for x in a.seeds.split(",") if x and not a.restore_only):
                out["seeds"].append(await one_seed(a, seed, tmp, pool, urls))
                path.write_text(json.dumps(out, indent=1))
    if out["seeds"]:
        summarize(out)
    path.write_text(json.dumps(out, indent=1))
    print(f"wrote {path}")
    return out


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The flags, checked before any site, browser or model starts: an hour's run must not stop on a flag."""
    p = argparse.ArgumentParser()
    p.add_argument("--family", default="omnizon.department")
    p.add_argument("--seeds", default="0,1,2")
    p.add_argument("--budget", type=int, default=200, help="env steps per method and seed")
    p.add_argument("--max-steps", type=int, default=3)
    p.add_argument("--simulations", type=int, default=8)
    p.add_argument("--children", type=int, default=4)
    p.add_argument("--depth", type=int, default=2)
    p.add_argument("--margin", type=float, default=0.1)
    p.add_argument("--beta", type=float, default=0.5)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--eval-instances", type=int, default=24)
    p.add_argument("--skip-restore", action="store_true")
    p.add_argument("--restore-only", action="store_true", help="the restore table only (no seeds)")
    p.add_argument("--keep-pages", type=int, default=8,
                   help="kept pages of the restore table's env and of the search (mcts.keep_pages; halo.env.keep)")
    p.add_argument("--budget-cpu-s", type=float, default=0.0,
                   help="CPU seconds per method and seed instead of --budget env steps (issue 41: equal CPU)")
    p.add_argument("--search-steps", type=int, default=0,
                   help="with --budget-cpu-s: env steps one searched episode may take (0: no cap)")
    p.add_argument("--critic", choices=("none", "progress"), default="none",
                   help="MCTS's critic: progress values a state by the family's own checks (rl/critic.py)")
    p.add_argument("--alpha", type=float, default=0.5, help="composite Q weight of the search's own Q with a critic")
    p.add_argument("--explore", type=float, default=0.0,
                   help="mcts.explore: each choice of a node's candidates drawn uniformly with this probability")
    p.add_argument("--first-play", choices=("untried", "progress"), default="untried",
                   help="mcts.first_play: progress follows a state the critic values above its parent's first")
    p.add_argument("--stop-at-success", action="store_true",
                   help="mcts.stop_at_success: the first success a simulation meets ends the search along its path")
    p.add_argument("--sampling", action=argparse.BooleanOptionalAction, default=True,
                   help="--no-sampling: the search alone (a search setting tried against a sampling number "
                        "measured before on the same seed and budget)")
    p.add_argument("--explore-unit", choices=("choice", "reply", "value"), default="choice",
                   help="mcts.explore_unit: value draws a drawn reply's action, element and text each whole")
    p.add_argument("--rounds", type=int, default=0,
                   help="rounds of search -> pairs -> DPO update -> search with the updated policy (issue 41 item 3; "
                        "0: one search and one update, sections 2-3)")
    p.add_argument("--round-cpu-s", type=float, default=0.0, help="with --rounds: CPU seconds of search a round")
    p.add_argument("--budget-cpu-total", type=float, default=0.0,
                   help="with --rounds: CPU seconds of search and DPO updates a seed (evaluations apart; 0: no cap)")
    p.add_argument("--pairs-from", choices=("all", "round"), default="all",
                   help="with --rounds: a round's update trains on every pair so far (all) or on the round's own")
    p.add_argument("--update", choices=("dpo", "pg", "both"), default="dpo",
                   help="with --rounds: what a round trains on: the trees' pairs (DPO), their siblings under GRPO's "
                        "loss (advantage Q minus the siblings' mean), or both (the GRPO loss times --pg-weight)")
    p.add_argument("--pg-weight", type=float, default=1.0, help="with --update both: the GRPO loss's weight")
    p.add_argument("--nll-weight", type=float, default=0.0,
                   help="RPO: this times the chosen reply's mean token NLL beside each DPO pair (DPOSettings.nll_weight)")
    p.add_argument("--pairs", choices=("q", "solved"), default="q",
                   help="pairs of siblings whose Q differ by --margin (q), or only a solved path's edge over its "
                        "siblings that solve nothing, the GRPO items by solving (solved: halo.rl.dpo, dpo.pairs)")
    p.add_argument("--train-head", action=argparse.BooleanOptionalAction, default=True,
                   help="train lm_head in full beside the adapter (as bench/learning_check.py does)")
    p.add_argument("--out", default="mcts.json", help="file name under bench/results/")
    p.add_argument("--merge", default="", help="runs' result files (comma-separated, a seed a file) merged into "
                                               "--out with the summary over all their seeds; nothing runs")
    a = p.parse_args(argv)
    if a.rounds < 0:
        p.error(f"--rounds must be >= 0, got {a.rounds}")
    if a.rounds and a.round_cpu_s <= 0:
        p.error("--rounds needs --round-cpu-s > 0 (CPU seconds of search a round)")
    if a.rounds and a.restore_only:
        p.error("--rounds runs seeds: not with --restore-only")
    if a.rounds and a.epochs < 1:
        p.error(f"--rounds needs --epochs >= 1 (passes over the pairs a round), got {a.epochs}")
    if a.budget_cpu_total < 0:
        p.error(f"--budget-cpu-total must be >= 0, got {a.budget_cpu_total}")
    if not a.rounds and (a.round_cpu_s or a.budget_cpu_total or a.pairs_from != "all" or a.update != "dpo"):
        p.error("--round-cpu-s, --budget-cpu-total, --pairs-from round and --update are flags of --rounds: give "
                "--rounds")
    if a.pg_weight < 0:
        p.error(f"--pg-weight must be >= 0, got {a.pg_weight}")
    if a.nll_weight < 0:
        p.error(f"--nll-weight must be >= 0, got {a.nll_weight}")
    if a.nll_weight and a.update == "pg":
        p.error("--nll-weight weighs the chosen reply of DPO's pairs: not with --update pg (no pairs)")
    from learning_check import results_path

    a.path = results_path(a.out)  # before anything runs
    return a


def merge(parts: list[str], out_path: Path) -> dict:
    """One result from several runs' files (a seed a file): their seeds in order, the summary over all of them;
    the runs' settings must agree (the first file's are kept)."""
    from learning_check import results_path

    runs = [json.loads(results_path(f).read_text()) for f in parts]
    same = ("family", "budget_cpu_s", "critic", "depth", "max_steps", "children", "simulations", "rounds")
    for f, r in zip(parts[1:], runs[1:]):
        if any(r.get(k) != runs[0].get(k) for k in same):
            raise SystemExit(f"--merge: {f} was run with other settings than {parts[0]} ({', '.join(same)})")
    out = {**runs[0], "seeds": [s for r in runs for s in r["seeds"]], "merged": parts}
    summarize(out)
    out_path.write_text(json.dumps(out, indent=1))
    print(f"wrote {out_path}: {json.dumps(out['summary'].get('pooled') or out['summary'])}")
    return out


def main() -> None:
    a = parse_args()
    if a.merge:
        merge(a.merge.split(","), a.path)
        return
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    asyncio.run(main_async(a))


if __name__ == "__main__":
    sys.exit(main())
