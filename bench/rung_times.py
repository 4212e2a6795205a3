"""Where a ladder rung's time goes: finding its first success, or learning it once found (issue 40).

A rung's time at the frontier splits at its first successful training episode: before it, the policy and the
explorer have not yet reached the rung's new step (``find_s``, exploration's part); after it, the update has a
success to learn from. That part splits again where an iteration's episodes of the rung first succeed at
``--own`` or more (0.25: 2 of 8, more than the explored episodes alone bring; ``own_s``, the policy taking the new
step itself), and from there the rung waits until its recent success opens the next one (``rest_s``). Read from the result files
of ``bench/learning_check.py --curriculum ladder``: ``first_drawn_cpu_s`` gives when each rung was first drawn, the
curve's ``family_success`` when one of a rung's training episodes first succeeded. Two ways to climb faster need
different levers, and this says which one a run lacked. Each time is also given as the training iteration it fell in
(``iterations``): the same work costs more CPU-seconds on a loaded machine (stop 70's replicate of stop 66 took ~25%
more CPU an iteration beside a test suite and reached every rung at the same iterations), so runs that did not share
a machine's load compare by iteration.

Run: .venv/bin/python bench/rung_times.py RESULT.json [RESULT.json ...] [--own 0.25] [--family RUNGS]
     [--out rung_times.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _first(curve: list[dict], fam: str, after: float | None, least: float) -> float | None:
    if after is None:
        return None
    return next((p["cpu_s"] for p in curve
                 if p["cpu_s"] >= after and ((p.get("family_success") or {}).get(fam) or 0) >= least), None)


def _iteration(curve: list[dict], cpu_s: float | None) -> int | None:
    """The iteration of the curve's first point at or past ``cpu_s`` (when that CPU time was reached)."""
    if cpu_s is None:
        return None
    return next((p["iteration"] for p in curve if p["cpu_s"] >= cpu_s), None)


def _gap(a: float | None, b: float | None) -> float | None:
    return round(b - a, 1) if a is not None and b is not None else None


def rung_times(seed: dict, families: list[str], own: float = 0.25) -> dict[str, dict]:
    """Per rung that opened (the ladder's rungs in order, the top one aside): ``opened``, ``first_success``,
    ``own_success`` (an iteration at ``own`` or more) and ``next_opened`` (CPU-s; None if it never happened), and
    the gaps between them: ``find_s``, ``own_s``, ``rest_s``; ``learn_s`` = own_s + rest_s; ``iterations``: the
    four times as training iterations."""
    drawn = seed.get("first_drawn_cpu_s") or {}
    curve = seed.get("curve") or []
    out: dict[str, dict] = {}
    rungs = families[:-1]  # the top rung is drawn from the start (ladder_goal) and ends the climb
    for i, fam in enumerate(rungs):
        opened = drawn.get(fam)
        if opened is None:
            continue
        first = _first(curve, fam, opened, 1e-9)
        mine = _first(curve, fam, first, own)
        nxt = drawn.get(rungs[i + 1]) if i + 1 < len(rungs) else None
        if mine is not None and nxt is not None and mine > nxt:
            mine = None  # the next rung opened first: the window's success got there without such an iteration
        out[fam] = {"opened": opened, "first_success": first, "own_success": mine, "next_opened": nxt,
                    "find_s": _gap(opened, first), "own_s": _gap(first, mine), "rest_s": _gap(mine, nxt),
                    "learn_s": _gap(first, nxt),
                    "iterations": {k: _iteration(curve, t) for k, t in (("opened", opened), ("first_success", first),
                                                                         ("own_success", mine), ("next_opened", nxt))}}
    return out


def summarise(files: list[Path], own: float = 0.25, family: str | None = None) -> dict:
    """Per file and seed, each rung's times; pooled over everything read, the total CPU-s spent finding and
    learning on the rungs that opened their successor (both parts known), and the share spent finding. A file
    may hold its seeds as a list (``bench/learning_check.py``'s) or by seed (a stopped run's curves, kept by hand);
    ``family`` (the ladder's rungs in order, comma-separated) serves a file that names none."""
    runs, find, learn = {}, 0.0, 0.0
    for f in files:
        data = json.loads(f.read_text())
        rungs = data.get("family") or family
        if not rungs:
            raise SystemExit(f"{f} names no ladder (its 'family'): give --family RUNG,RUNG,...")
        families = rungs.split(",") if isinstance(rungs, str) else list(rungs)
        seeds = data["seeds"].items() if isinstance(data["seeds"], dict) else ((s["seed"], s) for s in data["seeds"])
        for seed, s in seeds:
            times = rung_times(s, families, own)
            runs[f"{f.name}:{seed}"] = times
            for t in times.values():
                if t["find_s"] is not None and t["learn_s"] is not None:
                    find, learn = find + t["find_s"], learn + t["learn_s"]
    return {"runs": runs, "pooled": {"find_s": round(find, 1), "learn_s": round(learn, 1),
                                     "find_share": round(find / (find + learn), 3) if find + learn else None}}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("results", nargs="+", type=Path)
    p.add_argument("--own", type=float, default=0.25, help="an iteration's success on the rung that marks the "
                   "policy taking its new step itself")
    p.add_argument("--family", default=None, help="the ladder's rungs in order, comma-separated, for a result "
                   "file that names none")
    p.add_argument("--out", default=None, help="a .json file under bench/results/ (default: print only)")
    a = p.parse_args()
    missing = [str(f) for f in a.results if not f.is_file()]
    if missing:
        raise SystemExit(f"no such result file: {', '.join(missing)}")
    out = summarise(a.results, a.own, a.family)
    for run, times in out["runs"].items():
        cells = [f"{k.split('.')[-1]} {v['find_s']}/{v['own_s']}/{v['rest_s']}" for k, v in times.items()]
        print(run, "find/own/rest CPU-s:", ", ".join(cells))
        print(" " * len(run), "opened at iteration:",
              ", ".join(f"{k.split('.')[-1]} {v['iterations']['opened']}" for k, v in times.items()))
    finds = [v["find_s"] for t in out["runs"].values() for v in t.values() if v["find_s"] is not None]
    if finds:
        print("median find", statistics.median(finds), "CPU-s;", "pooled", out["pooled"])
    if a.out:
        path = ROOT / "bench" / "results" / a.out
        path.write_text(json.dumps(out, indent=1) + "\n")
        print("wrote", path)


if __name__ == "__main__":
    main()
