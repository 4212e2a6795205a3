"""How far one update moves the tokens it should: read from a run's saved training episodes (issue 40).

GRPO's saved training episodes (``--set grpo.save_episodes=best_worst`` with ``--keep-runs``) hold, per step, the
sampled tokens' logprobs when sampled (``logprobs``) and after that iteration's update (``new_logprobs``, as
``halo view`` shows them). A token sampled at a low logprob (below ``--below``: an explored value, a rare own
choice) in a step whose advantage is above ``--advantage`` is one the update should raise: how much it did says how
many updates a new action needs before the policy picks it itself. The same for advantages below minus that (the
tokens it should lower). Per directory: count, median and mean change in nats. Tokens the grammar forced (logprob 0
before and after) are left out by the threshold.

Run: .venv/bin/python bench/logprob_moves.py RUN_DIR [RUN_DIR ...] [--iterations LO-HI] [--below -3]
     [--advantage 0.2] [--out logprob_moves.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from ladder_stalls import episode_files, in_span, iteration_span, read_episode  # noqa: E402


def _floats(v) -> list[float]:
    return json.loads(v) if isinstance(v, str) else list(v)


def moves(files: list[Path], iterations: tuple[int, int] | None = None, below: float = -3.0,
          advantage: float = 0.2) -> dict:
    """``{"raised": {...}, "lowered": {...}}``: the change (after - before) of each token sampled below ``below``,
    in steps with advantage > ``advantage`` (raised) or < -``advantage`` (lowered), summarised."""
    up: list[float] = []
    down: list[float] = []
    for f in files:
        steps, ep = read_episode(f)
        if not in_span(ep, iterations):
            continue
        for st in steps:
            if st.get("logprobs") is None or st.get("new_logprobs") is None:
                continue
            a = st.get("advantage") or 0.0
            side = up if a > advantage else down if a < -advantage else None
            if side is None:
                continue
            side += [y - x for x, y in zip(_floats(st["logprobs"]), _floats(st["new_logprobs"])) if x < below]

    def summary(v: list[float]) -> dict:
        return {"tokens": len(v), "median": round(statistics.median(v), 3) if v else None,
                "mean": round(statistics.fmean(v), 3) if v else None}
    return {"raised": summary(up), "lowered": summary(down)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dirs", nargs="+", type=Path, help="run directories holding episodes/*.jsonl (each summarised)")
    p.add_argument("--iterations", default="", metavar="LO-HI")
    p.add_argument("--below", type=float, default=-3.0, help="tokens sampled below this logprob")
    p.add_argument("--advantage", type=float, default=0.2, help="steps with |advantage| above this")
    p.add_argument("--out", default="logprob_moves.json")
    a = p.parse_args()
    span = iteration_span(a.iterations) if a.iterations else None
    out = {"iterations": a.iterations or "all", "below": a.below, "advantage": a.advantage, "runs": {}}
    for d in a.dirs:
        out["runs"][str(d)] = r = moves(episode_files([d]), span, a.below, a.advantage)
        print(f"{d}: raised {r['raised']}, lowered {r['lowered']}")
    path = ROOT / "bench" / "results" / a.out
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
