"""`halo train mcts` and scripts/train_mcts.py: bad input stops at the door (before any model, browser or site), the
original flags map onto the command, and the config's mcts block is read (unknown keys refused)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from halo.cli import app
from halo.config.overrides import Override
from halo.errors import ConfigError
from halo.rl.config import build_rl_config, load_rl_config

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("args,message", [(["--episodes", "0"], "--episodes must be >= 1"),
                                          (["--simulations", "0"], "mcts.simulations must be >= 1, got 0"),
                                          (["--alpha", "2"], "mcts.alpha must be <= 1, got 2"),
                                          (["--restore", "teleport"],
                                           "mcts.restore must be 'auto', 'fork' or 'replay'"),
                                          (["--critic", "same"], "can only answer with actions"),
                                          (["--critic", "progress", "--tasks", "v2.gomail-1"],
                                           "critic 'progress' reads a task family's own checks"),
                                          (["--set", "mcts.explore=2"], "mcts.explore must be < 1, got 2"),
                                          (["--set", "mcts.explore=0.3", "--mode", "qwen3vl_base"],
                                           "mcts.explore 0.3: candidates are drawn in HALO's own sampler")])
def test_bad_input_exits_before_any_run(args, message, tmp_path):
    res = CliRunner().invoke(app, ["train", "mcts", "--runs-dir", str(tmp_path), *args])
    assert res.exit_code == 2 and message in " ".join(res.output.split()), res.output
    assert not list(tmp_path.iterdir())  # no run directory was made


def test_the_config_block_is_read_and_unknown_keys_refused():
    cfg = load_rl_config(None, [Override(("mcts", "simulations"), 7)]).for_mode(0.7, 300)
    s, d, job = cfg.mcts, cfg.dpo, cfg.mcts_job
    assert (s.simulations, s.ucb_c, s.children, s.max_steps) == (7, 1.414, 5, 70) and d.beta > 0
    assert job.critic == "none"
    with pytest.raises(ConfigError, match="mcts: unknown key 'simulatons'"):
        build_rl_config({"mcts": {"simulatons": 3}}, "f")


def test_script_keeps_the_original_flags():
    sys.path.insert(0, str(ROOT / "scripts"))
    from train_mcts import translate

    out = translate(["--policy_url", "http://h:8000/v1", "--domain", "omnizon", "--simulations", "12",
                     "--ucb_c", "2.0", "--episodes", "4", "--run-name", "mcts"])
    assert out[:2] == ["train", "mcts"] and out[out.index("--tasks") + 1] == "omnizon"
    assert out[out.index("--simulations") + 1] == "12" and out[out.index("--ucb-c") + 1] == "2.0"
    assert out[out.index("--episodes") + 1] == "4" and out[out.index("--base-url") + 1] == "http://h:8000/v1"
    assert out[out.index("--mode") + 1] == "qwen3vl_base" and out[-2:] == ["--run-name", "mcts"]
