"""The original project's GRPO flags map onto `halo train grpo`."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_original_grpo_flags_translate():
    t = _load("train_online_grpo").translate
    out = t(["--policy_url", "http://gpu:8000/v1", "--domain", "omnizon", "--num_generations", "4",
             "--episodes", "40", "--lr", "1e-5", "--loss_type", "dr_grpo", "--run-name", "x"])
    assert out[:2] == ["train", "grpo"]
    kv = dict(zip(out[2::2], out[3::2]))
    assert kv["--tasks"] == "omnizon" and kv["--mode"] == "qwen3vl_base" and kv["--base-url"] == "http://gpu:8000/v1"
    assert kv["--group-size"] == "4" and kv["--iterations"] == "10" and kv["--lr"] == "1e-05"
    assert kv["--run-name"] == "x"
    assert dict(zip(t([])[2::2], t([])[3::2]))["--mode"] == "tiny"


def test_train_grpo_command_accepts_the_translated_flags():
    from typer.testing import CliRunner

    from halo.cli import app

    r = CliRunner().invoke(app, _load("train_online_grpo").translate(["--domain", "gomail"]) + ["--help"])
    assert r.exit_code == 0 and "--group-size" in r.output
