"""Modes from configs/modes.yaml, the vllm serve command, evaluation-only recovery, and the CLI commands."""

from __future__ import annotations

import json
import shlex

import pytest
from policy_helpers import make_obs
from typer.testing import CliRunner

from halo.cli import app
from halo.env import actions as A
from halo.env.types import Element
from halo.errors import ConfigError
from halo.policy.modes import get_mode, load_modes, make_policy
from halo.policy.openai_backend import OpenAIPolicy
from halo.policy.recovery import Recovery
from halo.policy.serve import vllm_command


def test_the_four_modes_and_their_settings():
    modes = load_modes()
    assert {"gpt_baseline", "qwen3vl_base", "qwen3vl_grpo", "qwen3vl_mcts"} <= set(modes)
    grpo = modes["qwen3vl_grpo"]
    assert grpo.backend == "openai" and grpo.adapter and grpo.served_model() == "grpo"
    assert grpo.decoding_config().temperature == 0.7 and grpo.decoding_config().max_tokens == 300
    assert modes["gpt_baseline"].decoding_config().temperature == 0.0
    assert modes["gpt_baseline"].server.kind == "openai" and modes["gpt_baseline"].prompt_config().include_axtree
    assert modes["qwen3vl_base"].prompt_config().max_pixels == 1280 * 720
    assert modes["tiny"].backend == "hf" and modes["tiny"].decoding_config().constrained


def test_training_never_uses_recovery():
    base = get_mode("qwen3vl_base")
    assert base.recovery and not base.for_training().recovery


def test_overrides_and_their_errors():
    m = get_mode("qwen3vl_base").with_overrides(temperature=1.0, base_url="http://10.0.0.5:8000/v1", model=None)
    assert m.decoding_config().temperature == 1.0 and m.server.base_url == "http://10.0.0.5:8000/v1"
    assert m.model == "Qwen/Qwen3-VL-8B-Instruct"
    with pytest.raises(ConfigError, match="unknown mode overrides: colour"):
        m.with_overrides(colour="red")
    with pytest.raises(ConfigError, match="temperature must be >= 0"):
        m.with_overrides(temperature=-1).decoding_config()


def test_make_policy_for_a_served_mode():
    pol = make_policy(get_mode("qwen3vl_grpo"))
    assert isinstance(pol, OpenAIPolicy) and pol.server.model == "grpo"
    assert "halo serve-policy --mode qwen3vl_grpo" == pol.server.start_hint


def test_bad_modes_files_say_what_is_wrong(tmp_path):
    f = tmp_path / "modes.yaml"
    f.write_text("modes:\n  x:\n    backend: carrier-pigeon\n    model: m\n")
    with pytest.raises(ConfigError, match=rf"{f}: modes\.x\.backend must be 'openai', 'hf' or 'tinker'"):
        load_modes(f)
    f.write_text("modes:\n  x:\n    backend: hf\n    model: m\n    decoding: {temprature: 1}\n")
    with pytest.raises(ConfigError, match=rf"{f}: modes\.x\.decoding: unknown key 'temprature'"):
        load_modes(f)
    f.write_text("modes:\n  x:\n    backend: hf\n    model: m\n    prompt: {max_pixels: big}\n")
    with pytest.raises(ConfigError, match=r"modes\.x\.prompt\.max_pixels must be an integer, got 'big'"):
        load_modes(f)
    f.write_text("modes: [\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_modes(f)
    with pytest.raises(ConfigError, match="unknown mode 'nope'"):
        get_mode("nope")
    f.write_text("modes:\n  t:\n    backend: hf\n    model: ./missing-tiny\n")
    with pytest.raises(ConfigError, match="does not exist.*halo model tiny"):
        make_policy(get_mode("t", f))


def test_vllm_command_runs_vllm_from_its_own_environment_with_runtime_lora(tmp_path, monkeypatch):
    monkeypatch.setenv("HALO_VLLM_PYTHON", "/opt/vllm-env/bin/python")
    cmd = vllm_command(get_mode("qwen3vl_grpo"))
    argv = cmd.argv
    assert argv[:5] == ["/opt/vllm-env/bin/python", "-m", "vllm.entrypoints.openai.api_server", "--model",
                        "Qwen/Qwen3-VL-8B-Instruct"]
    assert "--enable-lora" in argv and argv[argv.index("--max-model-len") + 1] == "16384"
    assert argv[argv.index("--gpu-memory-utilization") + 1] == "0.85"
    assert argv[argv.index("--logprobs-mode") + 1] == "processed_logprobs"
    assert argv[argv.index("--generation-config") + 1] == "vllm"
    assert json.loads(argv[argv.index("--limit-mm-per-prompt") + 1]) == {"image": 1, "video": 0}
    assert json.loads(argv[argv.index("--mm-processor-kwargs") + 1]) == {
        "size": {"shortest_edge": 65536, "longest_edge": 921600}}  # the mode's pixel budget
    assert "--lora-modules" not in argv  # no adapter there yet: `halo eval` loads it at run time
    assert cmd.env == {"VLLM_ALLOW_RUNTIME_LORA_UPDATING": "True", "VLLM_NO_USAGE_STATS": "1", "VLLM_DO_NOT_TRACK": "1"}
    adapter = tmp_path / "latest"
    adapter.mkdir()
    argv = vllm_command(get_mode("qwen3vl_grpo").with_overrides(adapter=str(adapter))).argv
    assert argv[argv.index("--lora-modules") + 1] == f"grpo={adapter.resolve()}"
    tiny = vllm_command(get_mode("tiny_vllm"))
    assert tiny.argv[tiny.argv.index("--dtype") + 1] == "float32" and tiny.env["VLLM_CPU_KVCACHE_SPACE"] == "1"
    assert tiny.argv[tiny.argv.index("--served-model-name") + 1] == "models/tiny-qwen3vl"
    with pytest.raises(ConfigError, match="not served by vLLM"):
        vllm_command(get_mode("gpt_baseline"))


def test_a_model_vllm_cannot_serve_stops_before_the_server_starts(tmp_path):
    from halo.errors import PolicyError
    from halo.policy.serve import check_model

    (tmp_path / "config.json").write_text(json.dumps({"text_config": {"head_dim": 16}}))
    with pytest.raises(PolicyError, match="head_dim 16; vLLM's CPU attention needs at least 32"):
        check_model(get_mode("tiny_vllm").with_overrides(model=str(tmp_path)))


def test_cli_serve_policy_dry_run_and_a_missing_vllm_environment(monkeypatch, tmp_path):
    r = CliRunner().invoke(app, ["serve-policy", "--mode", "qwen3vl_base", "--dry-run", "--port", "8123"])
    assert r.exit_code == 0, r.output
    words = shlex.split(r.output)
    assert words[0] == "VLLM_ALLOW_RUNTIME_LORA_UPDATING=True" and words[1:3] == ["VLLM_NO_USAGE_STATS=1",
                                                                                 "VLLM_DO_NOT_TRACK=1"]
    assert words[3].endswith("/bin/python") and words[4:6] == ["-m", "vllm.entrypoints.openai.api_server"]
    assert words[words.index("--port") + 1] == "8123" and "--lora-modules" not in words
    monkeypatch.setenv("HALO_VLLM_PYTHON", str(tmp_path / "nowhere" / "python"))
    r = CliRunner().invoke(app, ["serve-policy", "--mode", "qwen3vl_base"])
    assert r.exit_code == 2 and "make vllm" in r.output
    r = CliRunner().invoke(app, ["serve-policy", "--mode", "nope", "--dry-run"])
    assert r.exit_code == 2 and "unknown mode 'nope'" in r.output


def test_recovery_breaks_loops_and_closes_dialogs():
    rec = Recovery()
    click = A.LeftClick(x=10, y=10)
    looping = make_obs(last_actions=("left_click(10, 10)", "left_click(10, 10)"))
    action, why = rec.apply(looping, click)
    assert action != click and "loop" in why
    fine = make_obs(last_actions=("left_click(10, 10)", "left_click(20, 20)"))
    assert rec.apply(fine, click) == (click, None)
    dialog = make_obs(axtree='[5] dialog "Subscribe"\n[6] button "Close"',
                      elements={"5": Element("5", "dialog", "Subscribe"), "6": Element("6", "button", "Close")})
    action, why = rec.apply(dialog, click)
    assert action == A.Click(element="6") and "dialog" in why
