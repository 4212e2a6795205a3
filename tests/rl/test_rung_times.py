"""bench/rung_times.py: a ladder rung's CPU time split into finding its first success and learning it."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

_BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(_BENCH))
_spec = importlib.util.spec_from_file_location("rung_times", _BENCH / "rung_times.py")
rt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rt)

FAMS = ["f.a", "f.b", "f.c", "f.top"]


def _seed() -> dict:
    curve = [{"cpu_s": 10.0, "family_success": {"f.a": 0.0}},
             {"cpu_s": 20.0, "family_success": {"f.a": 0.125}},   # a's first success
             {"cpu_s": 30.0, "family_success": {"f.a": 0.5}},     # a's policy takes it (>= 0.25)
             {"cpu_s": 40.0, "family_success": {"f.b": 0.0, "f.top": 0.125}},  # b opened at 35
             {"cpu_s": 60.0, "family_success": {"f.b": 0.0625}},
             {"cpu_s": 90.0, "family_success": {"f.b": 0.125}}]  # c opened at 80, before b's own iteration
    for i, p in enumerate(curve):
        p["iteration"] = i
    return {"seed": 0, "first_drawn_cpu_s": {"f.a": 5.0, "f.top": 5.0, "f.b": 35.0, "f.c": 80.0}, "curve": curve}


def test_each_rung_splits_into_find_own_and_rest():
    t = rt.rung_times(_seed(), FAMS)
    assert t["f.a"] == {"opened": 5.0, "first_success": 20.0, "own_success": 30.0, "next_opened": 35.0,
                        "find_s": 15.0, "own_s": 10.0, "rest_s": 5.0, "learn_s": 15.0,
                        "iterations": {"opened": 0, "first_success": 1, "own_success": 2, "next_opened": 3}}
    assert t["f.b"]["iterations"] == {"opened": 3, "first_success": 4, "own_success": None, "next_opened": 5}
    # b: its successes never reached 0.25 in one iteration before c opened; c never succeeded; the top is no rung
    assert (t["f.b"]["find_s"], t["f.b"]["own_s"], t["f.b"]["learn_s"]) == (25.0, None, 20.0)
    assert t["f.c"]["first_success"] is None and t["f.c"]["learn_s"] is None
    assert "f.top" not in t
    assert rt.rung_times(_seed(), FAMS, own=0.1)["f.a"]["own_success"] == 20.0


def test_summary_pools_rungs_with_both_parts_and_the_cli_refuses_missing_files(tmp_path, monkeypatch):
    f = tmp_path / "run.json"
    f.write_text(json.dumps({"family": ",".join(FAMS), "seeds": [_seed()]}))
    out = rt.summarise([f])
    assert out["pooled"] == {"find_s": 40.0, "learn_s": 35.0, "find_share": round(40 / 75, 3)}
    assert set(out["runs"]["run.json:0"]) == {"f.a", "f.b", "f.c"}
    by_seed = tmp_path / "stopped.json"  # a stopped run's curves, kept by seed, naming no ladder
    by_seed.write_text(json.dumps({"seeds": {"0": _seed()}}))
    with pytest.raises(SystemExit, match="--family"):
        rt.summarise([by_seed])
    assert rt.summarise([by_seed], family=",".join(FAMS))["runs"]["stopped.json:0"] == out["runs"]["run.json:0"]
    monkeypatch.setattr(sys, "argv", ["rung_times.py", str(tmp_path / "nope.json")])
    with pytest.raises(SystemExit, match="no such result file"):
        rt.main()
