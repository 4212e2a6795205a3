"""Checkpoint hygiene: temp dirs of killed writes are removed on start and resume, and a resume keeps the run's first
config.yaml and records its own overrides beside it."""

from __future__ import annotations

import os
import subprocess
import sys

import yaml

from halo.rl.checkpoint import RESUMES, clean_stale, write_run_config
from halo.runtime.runs import RunDir


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_stale_temp_dirs_go_and_live_writers_keep_theirs(tmp_path):
    ck = tmp_path / "checkpoints"
    dead = _dead_pid()
    (ck / f".tmp-iter_000003-{dead}").mkdir(parents=True)
    (ck / f".tmp-iter_000003-{dead}" / "adapter_model.safetensors").write_bytes(b"x" * 10)
    os.symlink("iter_000002", ck / f".latest-{dead}")
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        (ck / f".tmp-iter_000004-{live.pid}").mkdir()
        (ck / "iter_000002").mkdir()
        removed = clean_stale(tmp_path)
        assert sorted(removed) == sorted([f".tmp-iter_000003-{dead}", f".latest-{dead}"])
        assert sorted(p.name for p in ck.iterdir()) == sorted(["iter_000002", f".tmp-iter_000004-{live.pid}"])
    finally:
        live.kill()
        live.wait()
    assert clean_stale(tmp_path) == [f".tmp-iter_000004-{live.pid}"]
    assert clean_stale(tmp_path / "no-such-run") == []


def test_resume_keeps_the_first_config_and_records_each_resume(tmp_path):
    run = RunDir(tmp_path, "r")
    first = {"command": "train grpo", "grpo": {"lr": 0.001, "iterations": 5}, "resumed_at_iteration": None}
    write_run_config(run, first, resume=False, overrides={"grpo": {"lr": 0.001}})
    written = yaml.safe_load((run.path / "config.yaml").read_text())
    assert written.pop("provenance")["halo_version"] and written == first  # every run records HALO's version
    second = {"command": "train grpo", "grpo": {"lr": 0.002, "iterations": 5}, "resumed_at_iteration": 3}
    write_run_config(run, second, resume=True, overrides={"grpo": {"lr": 0.002, "seed": None}, "mode": {"x": None}})
    write_run_config(run, {**second, "resumed_at_iteration": 4}, resume=True, overrides={})
    assert {k: v for k, v in yaml.safe_load((run.path / "config.yaml").read_text()).items()
            if k != "provenance"} == first  # never overwritten
    resumes = yaml.safe_load((run.path / RESUMES).read_text())
    assert [r["resumed_at_iteration"] for r in resumes] == [3, 4]
    assert resumes[0]["overrides"] == {"grpo": {"lr": 0.002}}
    assert resumes[0]["changed"] == {"grpo": {"was": first["grpo"], "now": second["grpo"]}}
    assert resumes[1]["overrides"] == {}


def test_a_resume_names_only_what_changed_even_where_the_record_holds_tuples(tmp_path):
    """Before: resumes.yaml listed `lora` as changed on every resume (its target_modules tuple read back as a list)
    and a changed --lr was said nowhere on the console; now settings compare as the file holds them, and each
    changed value is one line (setup_grpo prints them)."""
    from halo.rl.checkpoint import changed_leaves, config_changes
    from halo.rl.config import GRPOSettings, LoRASettings, OptimSettings
    from halo.rl.grpo import settings_record

    run = RunDir(tmp_path, "r")
    first = {"command": "train grpo", **settings_record(GRPOSettings(), LoRASettings(), OptimSettings(lr=1e-6)),
             "sets": ["grpo.lr=1e-06"], "resumed_at_iteration": None}
    assert isinstance(first["lora"]["target_modules"], tuple)
    write_run_config(run, first, resume=False, overrides={})
    same = {**first, "resumed_at_iteration": 3}
    assert config_changes(run, same) == {}
    write_run_config(run, same, resume=True, overrides={})
    assert yaml.safe_load((run.path / RESUMES).read_text())[0]["changed"] == {}
    lr = {**same, **settings_record(GRPOSettings(), LoRASettings(), OptimSettings(lr=1e-5)), "sets": ["grpo.lr=1e-05"]}
    changed = config_changes(run, lr)
    assert set(changed) == {"optim", "sets"}  # not lora, not grpo
    assert changed_leaves(changed) == ["optim.lr: 1e-06 -> 1e-05"]
