"""bench/logprob_moves.py: how far an update moved the tokens it should have, from saved training episodes."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

_BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(_BENCH))
_spec = importlib.util.spec_from_file_location("logprob_moves", _BENCH / "logprob_moves.py")
lm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lm)


def _episode(folder: Path, key: str, iteration: int, steps: list[tuple[float, list[float], list[float]]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"type": "step", "step": i, "advantage": a, "logprobs": json.dumps(before),
                         "new_logprobs": json.dumps(after)}) for i, (a, before, after) in enumerate(steps)]
    lines.append(json.dumps({"type": "episode", "key": key, "task_id": "gomail.send_body-1", "iteration": iteration}))
    (folder / f"{key}.jsonl").write_text("\n".join(lines) + "\n")


def test_moves_counts_the_unlikely_tokens_of_credited_steps_by_side_and_span(tmp_path):
    eps = tmp_path / "learn-seed0" / "episodes"
    # forced tokens (0.0) and likely ones (-0.5) are left out; -10 -> -9.5 raised, -4 -> -4.5 lowered
    _episode(eps, "it0001-a", 1, [(0.5, [0.0, -10.0, -0.5], [0.0, -9.5, -0.4]),
                                  (-0.5, [0.0, -4.0], [0.0, -4.5]),
                                  (0.1, [-12.0], [-1.0])])  # advantage too small: neither side
    _episode(eps, "it0050-b", 50, [(1.0, [-6.0], [-5.0])])
    files = lm.episode_files([tmp_path])
    all_ = lm.moves(files)
    assert all_["raised"] == {"tokens": 2, "median": 0.75, "mean": 0.75}
    assert all_["lowered"] == {"tokens": 1, "median": -0.5, "mean": -0.5}
    early = lm.moves(files, iterations=(0, 10))
    assert early["raised"] == {"tokens": 1, "median": 0.5, "mean": 0.5}
    strict = lm.moves(files, below=-8.0)
    assert strict["raised"]["tokens"] == 1 and strict["lowered"]["tokens"] == 0
