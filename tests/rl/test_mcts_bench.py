"""bench/mcts_bench.py's rounds mode (issue 41 item 3): its flags stop at the door, and its loop (search -> pairs ->
DPO update -> the sampled policy) on stand-ins with known answers (no browser, no model)."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

_spec = importlib.util.spec_from_file_location(
    "mcts_bench", Path(__file__).resolve().parents[2] / "bench" / "mcts_bench.py")
mb = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("mcts_bench", mb)
_spec.loader.exec_module(mb)


@pytest.mark.parametrize("args,message", [
    (["--rounds", "2"], "--rounds needs --round-cpu-s > 0"),
    (["--rounds", "-1"], "--rounds must be >= 0"),
    (["--rounds", "2", "--round-cpu-s", "30", "--restore-only"], "not with --restore-only"),
    (["--rounds", "2", "--round-cpu-s", "30", "--epochs", "0"], "--rounds needs --epochs >= 1"),
    (["--rounds", "2", "--round-cpu-s", "30", "--budget-cpu-total", "-5"], "--budget-cpu-total must be >= 0"),
    (["--round-cpu-s", "30"], "flags of --rounds"),
    (["--pairs-from", "round"], "flags of --rounds"),
    (["--update", "pg"], "flags of --rounds"),
    (["--rounds", "2", "--round-cpu-s", "30", "--pg-weight", "-1"], "--pg-weight must be >= 0")])
def test_bad_rounds_flags_exit_before_any_run(args, message, capsys):
    with pytest.raises(SystemExit) as e:
        mb.parse_args(args)
    assert e.value.code == 2 and message in capsys.readouterr().err


def test_good_rounds_flags_parse():
    a = mb.parse_args(["--rounds", "3", "--round-cpu-s", "60", "--budget-cpu-total", "1200", "--out", "x.json"])
    assert (a.rounds, a.round_cpu_s, a.budget_cpu_total, a.pairs_from) == (3, 60.0, 1200.0, "all")
    assert mb.parse_args([]).rounds == 0  # one round, as before


class Stand:
    """Stand-ins for one seed's steps on a CPU clock that only they move: a search spends what it is given (plus
    1 s over, as a search's last episode does) and finds 2 pairs, an update 3 s, an evaluation 7 s; the sampled
    success rises 0.25 an update."""

    def __init__(self):
        self.cpu, self.updates, self.trained, self.budgets, self.made = 0.0, 0, [], [], 0

    def clock(self) -> float:
        return self.cpu

    async def search(self, cpu_s: float):
        self.budgets.append(cpu_s)
        self.cpu += cpu_s + 1
        n = len(self.budgets)
        block = {"env_steps": 10, "successes": 1, "episodes": 4, "solved_episodes": n, "restores": 2,
                 "kept_restores": 1, "cpu_s": cpu_s + 1, "restore_s_mean": 0.5, "wall_s": 1.0, "critic": "progress",
                 "solved_per_cpu_hour": 0.0, "per_1k_steps": 100.0}
        return block, [(f"r{n}p{k}", {"margin": 0.5}) for k in range(2)]

    def make_update(self):
        self.made += 1

        async def update(pairs):
            self.cpu += 3
            self.updates += 1
            self.trained.append(list(pairs))
            return [{"epoch": 0, "dpo_loss": round(0.7 - 0.1 * self.updates, 4)}]
        return update

    async def evaluate(self, name: str) -> dict:
        self.cpu += 7
        return {"success": 0.25 * self.updates, "episodes": 4, "errored": 0}


def rounds(stand: Stand, **kw) -> dict:
    a = SimpleNamespace(**{"rounds": 2, "round_cpu_s": 10.0, "budget_cpu_total": 0.0, "pairs_from": "all", **kw})
    return asyncio.run(mb.search_dpo_rounds(a, 0, stand.search, stand.make_update, stand.evaluate, stand.clock))


def test_two_rounds_make_a_curve_of_two_points_on_search_and_update_cpu():
    s = Stand()
    out = rounds(s)
    c = out["rounds_curve"]
    assert [p["round"] for p in c] == [1, 2] and s.made == 1  # one learner for both rounds
    assert [p["cpu_s_total"] for p in c] == [14.0, 28.0]  # (10 + 1) search + 3 update a round; evaluations apart
    assert [p["eval_cpu_s_total"] for p in c] == [14.0, 21.0]  # before, then one evaluation a round
    assert [p["sampled_success"] for p in c] == [0.25, 0.5] and [p["search_success"] for p in c] == [0.25, 0.5]
    assert [(p["pairs_round"], p["pairs_total"]) for p in c] == [(2, 2), (2, 4)]
    assert [len(t) for t in s.trained] == [2, 4]  # --pairs-from all: every pair so far
    assert [p["dpo_loss_last"] for p in c] == [0.6, 0.5]
    assert out["before"]["success"] == 0.0 and out["after"]["success"] == 0.5
    assert out["dpo"] == {"before": 0.0, "after": 0.5, "gain_points": 50.0, "cpu_min": round(28 / 60, 2),
                          "eval_cpu_min": round(21 / 60, 2), "rounds": 2, "stopped": "rounds", "pairs_from": "all",
                          "pairs": "q", "update": "dpo"}
    assert out["search"]["episodes"] == 8 and out["search"]["solved_episodes"] == 3 and out["pairs"] == 4


def test_pairs_from_round_trains_on_the_rounds_own_pairs():
    s = Stand()
    rounds(s, pairs_from="round")
    assert s.trained == [["r1p0", "r1p1"], ["r2p0", "r2p1"]]


def test_the_total_budget_stops_the_rounds_and_caps_the_last_search():
    s = Stand()
    out = rounds(s, rounds=5, budget_cpu_total=20.0)
    # round 1 spends 14 s; round 2's search gets the 6 s left and its update runs past the cap; no round 3
    assert s.budgets == [10.0, 6.0] and out["dpo"]["stopped"] == "budget" and len(out["rounds_curve"]) == 2
    assert out["rounds_curve"][-1]["cpu_s_total"] == 24.0


def test_an_update_steps_over_pairs_and_tree_items_in_batches_of_32_each():
    """``--update both``: each optimizer step takes up to 32 pairs and 32 sibling items with the GRPO loss's weight;
    the longer list sets the steps, so neither is cut (``--update pg``: items only; ``dpo``: pairs only)."""
    calls, nll = [], []

    class Learner:
        def preference_update(self, pairs, *, beta, items, pg_weight, nll_weight=0.0):
            calls.append((len(pairs), len(items), beta, pg_weight))
            nll.append(nll_weight)
            return SimpleNamespace(extra={"dpo_loss": 0.5}, items=len(items), loss=0.1)

    rows = asyncio.run(mb.dpo_update(Learner(), list(range(40)), 2, 0.3, items=list(range(70)), pg_weight=0.5))
    assert calls == [(32, 32, 0.3, 0.5), (8, 32, 0.3, 0.5), (0, 6, 0.3, 0.5)] * 2
    assert [r["epoch"] for r in rows] == [0, 0, 0, 1, 1, 1] and rows[0]["pg_items"] == 32
    calls.clear()
    asyncio.run(mb.dpo_update(Learner(), list(range(33)), 1, 0.1))
    assert calls == [(32, 0, 0.1, 1.0), (1, 0, 0.1, 1.0)]
    a = mb.parse_args(["--rounds", "2", "--round-cpu-s", "30", "--update", "both", "--pg-weight", "0.5"])
    assert (a.update, a.pg_weight, a.train_head) == ("both", 0.5, True)
    assert set(nll) == {0.0}
    asyncio.run(mb.dpo_update(Learner(), list(range(3)), 1, 0.1, nll_weight=1.0))  # RPO's NLL reaches the learner
    assert nll[-1] == 1.0


def test_poisson_bounds_match_the_tables():
    """The exact one-sided 95% bounds (Garwood): none seen still allows 3.0; 1 seen lies in [0.051, 4.74]; 10 seen
    in [5.43, 16.96]."""
    assert mb.poisson_bound(0, upper=True) == pytest.approx(2.996, abs=1e-3)
    assert mb.poisson_bound(0, upper=False) == 0.0
    assert mb.poisson_bound(1, upper=True) == pytest.approx(4.744, abs=1e-3)
    assert mb.poisson_bound(1, upper=False) == pytest.approx(0.0513, abs=1e-3)
    assert mb.poisson_bound(10, upper=True) == pytest.approx(16.96, abs=1e-2)
    assert mb.poisson_bound(10, upper=False) == pytest.approx(5.43, abs=1e-2)


def _seed(search: tuple[int, float], sampling: tuple[int, float]) -> dict:
    return {"search": {"solved_episodes": search[0], "cpu_s": search[1]},
            "sampling": {"solved_episodes": sampling[0], "cpu_s": sampling[1]}}


def test_pooled_ratio_has_a_floor_where_sampling_solved_none():
    """Three seeds at equal CPU, search 7 + 6 + 7 solved, sampling none: no point ratio, but a floor: search's
    lower bound (20 seen: 13.25) over sampling's upper (3.0) in the same CPU, ~4.4x; one sampled success halves
    the floor (upper 4.74)."""
    r = mb.pooled_ratio([_seed((7, 400), (0, 400)), _seed((6, 400), (0, 400)), _seed((7, 400), (0, 400))])
    assert (r["search_solved"], r["sampling_solved"], r["search_cpu_s"]) == (20, 0, 1200)
    assert r["ratio"] is None and r["ratio_low95"] == pytest.approx(13.25 / 2.996, abs=0.02)
    one = mb.pooled_ratio([_seed((20, 1200), (1, 1200))])
    assert one["ratio"] == 20.0 and one["ratio_low95"] == pytest.approx(13.25 / 4.744, abs=0.02)


def test_merge_joins_seed_files_and_refuses_other_settings(tmp_path, capsys):
    import json

    def run(name, seed, budget=400):
        s = {"seed": seed, **_seed((5, 400), (0, 400)), "before": {"success": 0.0}, "after": {"success": 0.0},
             "pairs": 3}
        s["mcts"] = {**s["search"], "per_1k_steps": 1.0, "solved_per_cpu_hour": 45.0}
        s["sampling"].update(per_1k_steps=0.0, solved_per_cpu_hour=0.0)
        (tmp_path / name).write_text(json.dumps({"family": "f", "budget_cpu_s": budget, "rounds": 0,
                                                 "seeds": [s]}))
        return str(tmp_path / name)

    out = mb.merge([run("a.json", 0), run("b.json", 1)], tmp_path / "m.json")
    assert [s["seed"] for s in out["seeds"]] == [0, 1] and out["summary"]["pooled"]["search_solved"] == 10
    assert json.loads((tmp_path / "m.json").read_text())["summary"]["pooled"]["sampling_cpu_s"] == 800
    with pytest.raises(SystemExit, match="other settings"):
        mb.merge([run("a.json", 0), run("c.json", 2, budget=300)], tmp_path / "m2.json")


def test_each_round_searches_the_instances_after_the_last_rounds(monkeypatch, tmp_path):
    """Every round's search used to start again at the first training instance, so ten rounds searched the same
    few instances (the policy, judged on the first 24, levelled at the few it had seen): a round goes on where the
    last one stopped, in an order of the seed's, wrapping round; the summary counts the instances searched and each
    round's evaluation is split into the instances searched so far and the rest."""
    import random

    train = [SimpleNamespace(id=f"gocalendar.otherday-{i}") for i in range(5)]
    starts = []

    async def searching(policy, pool, tasks, budget, settings, critic, cpu_s, search_steps, start=0):
        starts.append(start)
        results = [SimpleNamespace(root=None)] * 3  # three episodes a round
        block = {"env_steps": 9, "successes": 0, "episodes": 3, "solved_episodes": 0, "restores": 0,
                 "kept_restores": 0, "cpu_s": cpu_s, "restore_s_mean": 0.0, "wall_s": 1.0, "critic": "progress",
                 "solved_per_cpu_hour": 0.0, "per_1k_steps": 0.0,
                 "instances": [tasks[(start + k) % len(tasks)].id for k in range(3)]}
        return block, results

    async def dpo_update(learner, pairs, *args):
        return []

    async def success_on(policy, tasks, max_steps, run):  # instance 0 solved, the rest not
        per = {t.id: float(t.id.endswith("-0")) for t in tasks}
        return {"success": sum(per.values()) / len(per), "episodes": len(tasks), "errored": 0, "per_task": per}

    monkeypatch.setattr(mb, "searching", searching)
    monkeypatch.setattr(mb, "make_learner", lambda a, policy, temp: None)
    monkeypatch.setattr(mb, "dpo_update", dpo_update)
    monkeypatch.setattr(mb, "success_on", success_on)
    monkeypatch.setattr("halo.rl.dpo.tree_pairs", lambda root, alpha, margin, solved: [])
    a = SimpleNamespace(rounds=3, round_cpu_s=10.0, budget_cpu_total=0.0, pairs_from="all", budget=0,
                        search_steps=0, pairs="solved", update="dpo", margin=0.1, epochs=1, beta=0.5,
                        pg_weight=1.0, nll_weight=0.0, max_steps=4)
    settings = SimpleNamespace(alpha=0.5)
    out = asyncio.run(mb.seed_rounds(a, 7, None, None, train, train[:2], settings, None, 1.0,
                                     SimpleNamespace(path=tmp_path)))
    order = [t.id for t in train]
    random.Random(7).shuffle(order)
    assert starts == [0, 3, 6]
    assert [p["search"]["instances"] for p in out["rounds_curve"]] == [
        order[0:3], order[3:5] + order[0:1], order[1:4]]
    assert out["search"]["instances_searched"] == 5
    first = out["rounds_curve"][0]["sampled_by_search"]  # the evaluation (instances 0 and 1) after round 1
    searched = set(order[0:3])
    want = {"searched": [i for i in ("gocalendar.otherday-0", "gocalendar.otherday-1") if i in searched],
            "unsearched": [i for i in ("gocalendar.otherday-0", "gocalendar.otherday-1") if i not in searched]}
    for part, ids in want.items():
        assert first[part]["instances"] == len(ids)
        assert first[part]["success"] == (sum(i.endswith("-0") for i in ids) / len(ids) if ids else None)
    assert out["rounds_curve"][-1]["sampled_by_search"]["searched"]["instances"] == 2  # all five searched by then
    assert "per_task" not in out["before"] and "per_task" not in out["after"]


def test_searched_split_counts_each_side():
    split = mb.searched_split({"a": 1.0, "b": 0.0, "c": 1.0}, {"a", "b"})
    assert split == {"searched": {"instances": 2, "success": 0.5}, "unsearched": {"instances": 1, "success": 1.0}}
    assert mb.searched_split({"a": 1.0}, set())["searched"] == {"instances": 0, "success": None}
