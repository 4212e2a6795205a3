"""Where a ladder stalls, read from its evaluations' saved episodes: per task family, how far the episodes got (the
family's progress potential, paid step by step as ``reward_parts.progress``) and what the policy did at the step it
stopped advancing: a click (on what), a fill (into which field, a value the instance types or not), the end of the
episode. Issue 40 asks, when the ladder misses its bar, which rung, which step, and whether a typed value or a click
was wrong: this answers the last two from the episodes a learning check evaluated after training.

Input: evaluation run directories (``episodes/*.jsonl``, as ``halo eval`` and ``bench/learning_check.py`` write
them), or a directory holding several (``eval_after_test``, ``eval_after_<family>`` ...). Only task-family episodes
are profiled (REAL's own tasks name no instance's values). Training episodes too, where the run saved them
(``--set grpo.save_episodes=best_worst`` with ``--keep-runs``: each group's best and worst, so a biased sample) and
``--iterations LO-HI`` picks a span of them (a rung's stall, read while it happened, not only after training).

Run: .venv/bin/python bench/ladder_stalls.py RUN_DIR [RUN_DIR ...] [--iterations LO-HI] [--out ladder_stalls.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))


def episode_files(dirs: list[Path]) -> list[Path]:
    """Every saved episode under the given directories (an evaluation's ``episodes/`` or folders holding them)."""
    files = sorted({f for d in dirs for f in d.rglob("episodes/*.jsonl")})
    if not files:
        raise SystemExit(f"no episodes/*.jsonl under {', '.join(map(str, dirs))}")
    return files


def read_episode(path: Path) -> tuple[list[dict], dict]:
    """(step records, the episode record) of one saved episode."""
    steps, ep = [], {}
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        if rec.get("type") == "step":
            steps.append(rec)
        elif rec.get("type") == "episode":
            ep = rec
    return steps, ep


def family_of(task_id: str) -> tuple[str, int] | None:
    """``gomail.send-12`` -> (``gomail.send``, 12) where that is a registered family; None for REAL's tasks."""
    from halo.tasks.families import get_family

    name, _, index = task_id.rpartition("-")
    try:
        get_family(name)
        return name, int(index)
    except (KeyError, ValueError):
        return None


def target_name(step: dict) -> str:
    """The acted-on element's accessible name as the step record saved it (its id where it has none)."""
    target = (step.get("target") or {}).get("element") or {}
    return " ".join(str(target.get("name") or (step.get("action") or {}).get("element") or "?").split())


def describe(step: dict | None, want: set[str]) -> str:
    """The action a stalled episode took, in a few words: ``fill Subject: right value``, ``click Send``."""
    from halo.tasks.families.base import norm

    if step is None:
        return "no step (the episode ended)"
    a = step.get("action") or {}
    if not a:
        return "unparsed reply"
    name = target_name(step)[:32]
    kind = a.get("action", "?")
    if kind in ("fill", "type", "select_option", "press"):
        value = a.get("value") or a.get("text") or ""
        return f"{kind} {name}: {'right' if norm(value) in want else 'wrong'} value"
    if kind == "click":
        return f"click {name}" + (" (error)" if step.get("error") else "")
    return kind


def iteration_span(text: str) -> tuple[int, int]:
    """``120-240`` -> (120, 240), both ends kept; a clear error for anything else."""
    lo, sep, hi = text.partition("-")
    try:
        span = (int(lo), int(hi)) if sep else (int(lo), int(lo))
    except ValueError:
        raise SystemExit(f"--iterations {text!r}: give LO-HI (training iterations, e.g. 120-240)") from None
    if span[0] > span[1] or span[0] < 0:
        raise SystemExit(f"--iterations {text!r}: LO must be >= 0 and <= HI")
    return span


def in_span(ep: dict, iterations: tuple[int, int] | None) -> bool:
    """Whether an episode record is in ``iterations`` (a training episode of that span, both ends kept; any
    episode where no span is given)."""
    return iterations is None or (isinstance(ep.get("iteration"), int)
                                  and iterations[0] <= ep["iteration"] <= iterations[1])


def profile(files: list[Path], iterations: tuple[int, int] | None = None) -> dict:
    """Per family: episodes, successes, the progress reached (a histogram of each failed episode's best), and the
    action at the step a failed episode stopped advancing (the step after its last progress), most common first,
    also with the fields it had typed right by then (``stalled_after``: a Send clicked with which fields still
    missing); beside it every fill's value right or wrong and where it went, and the order in which each episode
    first typed its right values into fields (``fill_orders``: the orders the policy takes, which a curriculum's
    start states should cover). ``iterations``: only training episodes of that span (both ends kept)."""
    from learning_check import wanted_values

    from halo.tasks.families.base import norm

    fams: dict[str, dict] = {}
    for path in files:
        steps, ep = read_episode(path)
        if not in_span(ep, iterations):
            continue
        fi = family_of(ep.get("task_id", ""))
        if fi is None:
            continue
        name, index = fi
        want = wanted_values(name, index)
        f = fams.setdefault(name, {"episodes": 0, "successes": 0, "reached": Counter(), "stalled_at": Counter(),
                                   "stall_step": Counter(), "fills": Counter(), "stalled_after": Counter(),
                                   "fill_orders": Counter()})
        f["episodes"] += 1
        typed_right: list[tuple[int, str]] = []  # (step, field) of each field's first right value
        for i, s in enumerate(steps):
            a = s.get("action") or {}
            if a.get("action") == "fill":
                ok = norm(a.get("value") or "") in want
                field = target_name(s)[:24]
                f["fills"][f"{field}: {'right' if ok else 'wrong'}"] += 1
                if ok and field not in {t for _, t in typed_right}:
                    typed_right.append((i, field))
        f["fill_orders"][" > ".join(t for _, t in typed_right) or "(none)"] += 1
        if ep.get("success"):
            f["successes"] += 1
            continue
        progress, best, last = 0.0, 0.0, -1
        for i, s in enumerate(steps):
            d = float((s.get("reward_parts") or {}).get("progress", 0.0))
            progress += d
            if d > 0:
                last = i
            best = max(best, progress)
        f["reached"][f"{best:.2f}"] += 1
        k = last + 1
        f["stall_step"][k] += 1
        what = describe(steps[k] if k < len(steps) else None, want)
        f["stalled_at"][what] += 1
        before = sorted(t for i, t in typed_right if i < k)
        f["stalled_after"][f"{what} | typed right before: {', '.join(before) or 'none'}"] += 1
    out = {}
    for name, f in sorted(fams.items()):
        fails = f["episodes"] - f["successes"]
        out[name] = {"episodes": f["episodes"], "success": round(f["successes"] / f["episodes"], 4),
                     "failed": fails,
                     "progress_reached": dict(sorted(f["reached"].items())),
                     "stall_step": {str(k): v for k, v in sorted(f["stall_step"].items())},
                     "stalled_at": dict(f["stalled_at"].most_common(8)),
                     "stalled_after": dict(f["stalled_after"].most_common(12)),
                     "fills": dict(f["fills"].most_common(10)),
                     "fill_orders": dict(f["fill_orders"].most_common(10))}
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dirs", nargs="+", type=Path, help="evaluation run directories, or folders holding them")
    p.add_argument("--iterations", default="", metavar="LO-HI",
                   help="only training episodes of these iterations (saved with grpo.save_episodes)")
    p.add_argument("--out", default="", help="a file name under bench/results/ (none: print only)")
    a = p.parse_args()
    span = iteration_span(a.iterations) if a.iterations else None
    path = None
    if a.out:
        from learning_check import results_path

        path = results_path(a.out)
    missing = [str(d) for d in a.dirs if not d.is_dir()]
    if missing:
        raise SystemExit(f"not a directory: {', '.join(missing)}")
    res = profile(episode_files(a.dirs), span)
    if not res:
        raise SystemExit("no task-family episodes found (REAL's own tasks are not profiled)"
                         + (f" in training iterations {a.iterations}" if span else ""))
    for name, f in res.items():
        print(f"{name}: {f['episodes']} episodes, success {f['success']:.2f}; failed episodes' best progress "
              f"{f['progress_reached']}; stalled at step {f['stall_step']}")
        for what, n in f["stalled_at"].items():
            print(f"    {n:3d}  {what}")
    if path is not None:
        path.write_text(json.dumps({"dirs": [str(d) for d in a.dirs], "iterations": a.iterations or None,
                                    "families": res}, indent=1) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
