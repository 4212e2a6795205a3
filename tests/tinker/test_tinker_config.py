"""The Tinker run's settings, the tinker-cookbook Config built from them (field by field), the dataset it trains
on, and the command line (no key: a clear error before any site or browser starts)."""

from __future__ import annotations

import json
import pickle

import pytest
import typer
from typer.testing import CliRunner

from halo.errors import ConfigError
from halo.jobs.tinker import TinkerRunConfig, build_train_config
from halo.policy.tinker.preflight import MissingApiKeyError, require_tinker_api_key

URLS = {"gomail": "http://127.0.0.1:9101", "omnizon": "http://127.0.0.1:9102"}


def run_config(**kw) -> TinkerRunConfig:
    base = dict(tasks="v2.omnizon-9,v2.omnizon-3,gomail-1,v2.gomail-2", log_path="/tmp/halo-tinker-test",
                num_envs=4, groups_per_batch=2, loss_fn="ppo", lora_rank=16, learning_rate=4e-5, max_steps=5,
                max_turns=12, max_tokens=200, temperature=1.0, max_concurrent_browsers=3, seed=7,
                test_fraction=0.25, max_pixels=64 * 32 * 32, min_pixels=64 * 32 * 32)
    base.update(kw)
    return TinkerRunConfig.create(**base)


def test_rl_config_supplies_the_defaults():
    run = TinkerRunConfig.create(tasks=["v2.omnizon-1"], log_path="runs/x")
    # the learning rate is mode qwen3vl_tinker's train.lr (configs/modes.yaml), not rl_config's tiny-model 1e-6
    assert (run.num_envs, run.learning_rate, run.lora_rank) == (8, 2e-5, 32)
    assert (run.temperature, run.max_tokens, run.max_turns, run.history) == (0.7, 300, 70, 5)
    from halo.rl.config import load_rl_config

    shaping = load_rl_config().raw["rewards"]["shaping"]
    assert (run.rewards.shaping.loop, run.rewards.shaping.new_state) == (shaping["loop"], shaping["new_state"])
    assert run.rewards.milestones["gomail"][0].name == "compose_opened"
    assert run.loss_fn == "importance_sampling" and run.max_concurrent_browsers == 8
    assert TinkerRunConfig.create(tasks=["a"], log_path="x", num_envs=3).num_envs == 3  # flags win


async def test_config_field_by_field():
    from tinker_cookbook.rl.rollout_strategy import RetryOnFailure
    from tinker_cookbook.rl.train import Config
    from tinker_cookbook.utils.ml_log import dump_config

    cfg = build_train_config(run_config(), URLS)
    assert isinstance(cfg, Config)
    assert cfg.learning_rate == 4e-5
    assert cfg.model_name == "Qwen/Qwen3.6-35B-A3B"  # a model hosted Tinker serves (Qwen3-VL-30B-A3B is retired)
    assert cfg.renderer_name == "qwen3_5"
    assert cfg.recipe_name == "halo_browser_rl"
    assert cfg.max_tokens == 200
    assert cfg.log_path == "/tmp/halo-tinker-test"
    assert cfg.loss_fn == "ppo"
    assert cfg.lora_rank == 16
    assert cfg.temperature == 1.0
    assert cfg.max_steps == 5
    assert cfg.eval_every == 0 and cfg.save_every == 10
    assert cfg.remove_constant_reward_groups is False
    assert cfg.kl_penalty_coef == 0.0 and cfg.load_checkpoint_path is None and cfg.base_url is None
    assert cfg.rollout_error_tolerance == RetryOnFailure(max_retries=3)
    assert cfg.effective_rollout_strategy() == RetryOnFailure(max_retries=3)

    db = cfg.dataset_builder
    assert set(db.task_ids) == {"v2.omnizon-9", "v2.omnizon-3", "v2.gomail-1", "v2.gomail-2"}
    assert (db.batch_size, db.group_size, db.num_batches, db.seed, db.test_fraction) == (2, 4, 5, 7, 0.25)
    src = db.source
    assert dict(src.site_urls) == URLS and src.sites == "local" and src.max_concurrent_browsers == 3
    assert src.model_name == cfg.model_name and src.renderer_name == cfg.renderer_name
    assert src.episode.max_turns == 12 and src.episode.stop_on_parse_error
    assert (src.episode.prompt.max_pixels, src.episode.prompt.history) == (64 * 32 * 32, 5)
    json.dumps(dump_config(cfg))  # tinker-cookbook logs the config as JSON at start

    train, test = await db()
    assert len(train) == 5 and len(test) == 1
    train_ids, test_ids = db.split()
    assert len(test_ids) == 1 and not set(train_ids) & set(test_ids)
    assert [b.task_id for b in test.get_batch(0)] == test_ids and test.get_batch(0)[0].group_size == 1
    batches = [[b.task_id for b in train.get_batch(i)] for i in range(len(train))]
    assert all(len(b) == 2 for b in batches)
    flat = [t for b in batches for t in b]
    assert sorted(flat[:3]) == sorted(train_ids) and sorted(flat[3:6]) == sorted(train_ids)  # every epoch whole
    g = train.get_batch(0)[0]
    assert g.group_size == 4 and g.source is src
    assert pickle.loads(pickle.dumps(g)).task_id == g.task_id
    assert g.logging_tags()[:2] == ["halo", g.task_id.split(".")[1].rsplit("-", 1)[0]]
    with pytest.raises(IndexError):
        train.get_batch(5)


async def test_shuffling_is_seeded():
    a, _ = await build_train_config(run_config(test_fraction=0.0, seed=1), URLS).dataset_builder()
    b, _ = await build_train_config(run_config(test_fraction=0.0, seed=1), URLS).dataset_builder()
    orders = []
    for seed in range(2, 8):
        c, _ = await build_train_config(run_config(test_fraction=0.0, seed=seed), URLS).dataset_builder()
        orders.append([c.batch_task_ids(i) for i in range(len(c))])
    same = [a.batch_task_ids(i) for i in range(len(a))]
    assert same == [b.batch_task_ids(i) for i in range(len(b))]
    assert any(o != same for o in orders), "other seeds give other orders"


@pytest.mark.parametrize("bad, message", [
    (dict(loss_fn="reinforce"), "--loss-fn must be one of"),
    (dict(num_envs=0), "--num-envs must be >= 1"),
    (dict(sites="cloud"), "--sites must be 'local' or 'remote'"),
    (dict(learning_rate=-1.0), "--learning-rate must be > 0"),
    (dict(min_pixels=10), "pixel budget"),
    (dict(tasks=""), "no tasks"),
])
def test_bad_settings_say_what_to_fix(bad, message):
    with pytest.raises(ConfigError, match=message):
        run_config(**bad)


def test_unknown_task_is_a_clear_error():
    from halo.errors import TaskNotFoundError

    # agisdk 0.3.5's v2 has no omnizon-1 (the original project's example): the error says where to look
    with pytest.raises(TaskNotFoundError, match="unknown task 'v2.omnizon-1'; list them with `halo tasks`"):
        build_train_config(run_config(tasks="v2.omnizon-1"), URLS)


def test_api_key_check():
    with pytest.raises(MissingApiKeyError, match="TINKER_API_KEY is not set"):
        require_tinker_api_key({})
    with pytest.raises(MissingApiKeyError):
        require_tinker_api_key({"TINKER_API_KEY": "  "})
    assert require_tinker_api_key({"TINKER_API_KEY": "tml-abc"}) == "tml-abc"


def cli() -> typer.Typer:
    """`halo train tinker` mounted on a local app (the `train` group is another module's)."""
    from halo.cli.train_tinker_cmd import register

    app, train_app = typer.Typer(), typer.Typer()
    register(train_app)
    app.add_typer(train_app, name="train")
    return app


def test_cli_without_key_fails_before_sites_or_browsers(monkeypatch, tmp_path):
    from halo.env.browser import BrowserPool
    from real_local.server import SitesServer

    started = []
    monkeypatch.setattr(SitesServer, "start", lambda self: started.append("sites"))
    monkeypatch.setattr(BrowserPool, "start", lambda self: started.append("browser"))
    monkeypatch.delenv("TINKER_API_KEY", raising=False)
    res = CliRunner().invoke(cli(), ["train", "tinker", "--tasks", "v2.omnizon-1", "--num-envs", "8", "--loss-fn",
                                     "importance_sampling", "--lora-rank", "32", "--log-path", str(tmp_path)])
    assert res.exit_code == 2, res.output
    assert "TINKER_API_KEY is not set" in " ".join(res.output.split())
    assert started == [] and list(tmp_path.iterdir()) == []


def test_cli_rejects_bad_flags_with_exit_2(monkeypatch):
    monkeypatch.setenv("TINKER_API_KEY", "tml-test")
    res = CliRunner().invoke(cli(), ["train", "tinker", "--tasks", "v2.omnizon-1", "--loss-fn", "reinforce"])
    assert res.exit_code == 2 and "--loss-fn must be one of" in " ".join(res.output.split())


def test_script_wrapper_accepts_original_flags():
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "scripts" / "train_tinker.py"
    env = {**os.environ, "COLUMNS": "200"}
    out = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120,
                         env=env)
    assert out.returncode == 0, out.stderr
    for flag in ("--tasks", "--num-envs", "--loss-fn", "--lora-rank", "--learning-rate", "--max-steps",
                 "--log-path", "--sites", "--max-concurrent-browsers"):
        assert flag in out.stdout


def test_unreachable_service_fails_before_sites_or_browsers(monkeypatch, tmp_path):
    import socket

    from halo.env.browser import BrowserPool
    from real_local.server import SitesServer

    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = []
    monkeypatch.setattr(SitesServer, "start", lambda self: started.append("sites"))
    monkeypatch.setattr(BrowserPool, "start", lambda self: started.append("browser"))
    monkeypatch.setenv("TINKER_API_KEY", "tml-test")
    res = CliRunner().invoke(cli(), ["train", "tinker", "--tasks", "v2.gomail-14", "--log-path", str(tmp_path),
                                     "--base-url", f"http://127.0.0.1:{port}"])
    assert res.exit_code == 2, res.output
    assert f"cannot reach Tinker at http://127.0.0.1:{port}" in " ".join(res.output.split())
    assert started == [] and list(tmp_path.iterdir()) == []


def test_reachable_service_passes_the_check():
    import http.server
    import threading

    from halo.policy.tinker.preflight import check_tinker_reachable

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        assert check_tinker_reachable(url + "/") == url  # any HTTP answer (here 501) means reachable
    finally:
        server.shutdown()
