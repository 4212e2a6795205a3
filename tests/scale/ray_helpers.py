"""What the Ray tests of this directory share beside their fixtures (conftest.py)."""

from __future__ import annotations

import json


def episode_steps(run_path) -> dict[str, list[tuple]]:
    """Episode key -> (reply, action, reward) of each step, from the run directory alone (URLs differ: each
    worker serves REAL-local on its own ports)."""
    out = {}
    for f in sorted((run_path / "episodes").glob("*.jsonl")):
        lines = [json.loads(x) for x in f.read_text().splitlines()]
        out[f.stem] = [(s["text"], json.dumps(s["action"], sort_keys=True), s["reward"]) for s in lines
                       if s["type"] == "step"]
    return out
