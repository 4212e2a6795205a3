"""One config system: --set on every command that reads a file, errors naming the file and the key, trackers and
provenance recorded with every run."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from halo.cli import app
from halo.cli.common import CONFIG_TARGETS
from halo.config.overrides import Override, apply, flags, parse_set
from halo.errors import ConfigError


def _out(r) -> str:
    return " ".join(r.output.split())


def test_set_parses_yaml_values_and_refuses_unknown_targets():
    assert parse_set("grpo.lr=1e-5", CONFIG_TARGETS) == Override(("grpo", "lr"), 1e-5)
    assert parse_set("lora.target_modules=[q_proj, v_proj]", CONFIG_TARGETS).value == ["q_proj", "v_proj"]
    assert apply({"a": {"b": 1}}, [Override(("a", "c", "d"), True)], "f") == {"a": {"b": 1, "c": {"d": True}}}
    with pytest.raises(ConfigError, match="'gropo' is not a config; the first key is one of policy"):
        parse_set("gropo.lr=1", CONFIG_TARGETS)
    with pytest.raises(ConfigError, match="write key.path=value"):
        parse_set("grpo.lr", CONFIG_TARGETS)


def test_flags_and_set_take_one_path_and_flags_win():
    """A flag is an override like --set, applied after it: the same keys, the same checks, the same messages."""
    from halo.rl.config import load_rl_config

    sets = [parse_set("grpo.lr=1e-5", CONFIG_TARGETS), parse_set("grpo.group_size=4", CONFIG_TARGETS)]
    cfg = load_rl_config(overrides=[*sets, *flags("grpo", {"lr": 3e-4, "seed": None})])
    assert cfg.optim.lr == 3e-4 and cfg.grpo.group_size == 4 and cfg.grpo.seed == 0  # None: a flag not given
    with pytest.raises(ConfigError, match=r"rl_config\.yaml: grpo\.lr must be a number, got 'fast' \(str\)"):
        load_rl_config(overrides=flags("grpo", {"lr": "fast"}))


@pytest.mark.parametrize("argv, match", [
    (["train", "grpo", "--set", "grpo.lr=fast"], r"rl_config\.yaml: grpo\.lr must be a number, got 'fast' \(str\)"),
    (["train", "grpo", "--set", "grpo.lrr=1"], r"rl_config\.yaml: grpo: unknown key 'lrr'"),
    (["train", "grpo", "--set", "mode.decoding.temperature=hot"],
     r"modes\.yaml: modes\.tiny\.decoding\.temperature must be a number, got 'hot'"),
    (["train", "grpo", "--set", "demo.eval_episodes=1"], r"`halo train grpo` does not read 'demo'"),
    (["train", "mcts", "--set", "lora.rank=[1, 2]"], r"lora\.rank must be an integer, got \[1, 2\]"),
    (["eval", "--mode", "tiny", "--tasks", "v2.gomail-4", "--set", "grpo.lr=1"], "`halo eval` does not read 'grpo'"),
    (["eval", "--mode", "tiny", "--tasks", "v2.gomail-4", "--set", "mode.max_batch=many"],
     r"modes\.tiny\.max_batch must be an integer"),
    (["serve-policy", "--mode", "qwen3vl_base", "--dry-run", "--set", "mode.serve.port=eighty"],
     r"modes\.qwen3vl_base\.serve\.port must be an integer"),
    (["demo", "--set", "demo.parallel=two"], r"demo\.yaml: parallel must be an integer, got 'two'"),
    (["train", "tinker", "--tasks", "v2.gomail-4", "--set", "episode.max_steps=0.5"],
     r"episode\.max_steps must be an integer"),
    (["eval", "--mode", "tiny", "--tasks", "v2.gomail-4", "--log", "mlflow"], "--log must be one of none"),
])
def test_every_command_takes_set_and_names_file_and_key(tmp_path, argv, match):
    r = CliRunner().invoke(app, [*argv, *(["--runs-dir", str(tmp_path)] if argv[0] in ("eval",) else [])],
                           env={"COLUMNS": "300"})
    assert r.exit_code == 2, r.output
    assert re.search(match, _out(r)), r.output
    assert not any(tmp_path.iterdir())  # stopped at the door


def test_set_reaches_the_job(tmp_path):
    from halo.policy.modes import get_mode
    from halo.rl.config import load_rl_config

    def sets(*items):
        return [parse_set(i, CONFIG_TARGETS) for i in items]

    assert load_rl_config(overrides=sets("grpo.lr=1e-5", "lora.rank=4")).lora.rank == 4
    optim = load_rl_config(overrides=sets("grpo.objective=cispo", "grpo.clip_eps_high=0.28")).optim
    assert (optim.objective, optim.clip_eps_high) == ("cispo", 0.28)
    with pytest.raises(ConfigError, match="objective"):
        load_rl_config(overrides=sets("grpo.objective=trpo"))
    m = get_mode("tiny", overrides=sets("mode.decoding.temperature=0.25", "modes.defaults.serve.port=8100"))
    assert m.decoding_config().temperature == 0.25 and m.serve.port == 8100


def test_old_flag_names_stay_aliases():
    for argv, flag in ((["eval", "--help"], "--name"), (["train", "grpo", "--help"], "--rl-config"),
                       (["train", "tinker", "--help"], "--rl-config"), (["train", "mcts", "--help"], "--run-name")):
        r = CliRunner().invoke(app, argv, env={"COLUMNS": "300"})
        assert flag in r.output, (argv, r.output)


def test_shipped_configs_have_no_key_that_nothing_reads():
    from halo.config.files import SOURCE_ROOT, read_yaml
    from halo.rl.config import build_rl_config

    data = read_yaml(SOURCE_ROOT / "configs" / "rl_config.yaml")
    assert build_rl_config(data, "rl_config") and "viewport" not in data["episode"] and "top_p" not in data["policy"]


@pytest.mark.parametrize("kind", ["tensorboard", "wandb"])
def test_trackers_write_offline_under_the_run(tmp_path, kind, monkeypatch):
    pytest.importorskip({"tensorboard": "tensorboardX", "wandb": "wandb"}[kind])
    monkeypatch.delenv("WANDB_MODE", raising=False)
    from halo.runtime.tracking import flatten, open_tracker

    assert flatten({"loss": 0.5, "ok": True, "family_success": {"a.b": 1}, "name": "x", "nan": float("nan")}) == \
        {"loss": 0.5, "ok": 1.0, "family_success/a.b": 1.0}
    with open_tracker(kind, tmp_path, {"command": "test"}) as t:
        t.log({"loss": 0.5, "grad_norm": 2.0}, 0)
        t.log({"loss": 0.25}, 1)
    if kind == "tensorboard":
        (events,) = (tmp_path / "tensorboard").glob("events.out.tfevents.*")
        data = events.read_bytes()
        assert b"loss" in data and b"grad_norm" in data
    else:
        (run,) = (tmp_path / "wandb").glob("offline-run-*")
        assert list(run.glob("*.wandb"))


def test_provenance_names_version_commit_and_packages():
    from halo.version import provenance

    p = provenance()
    assert p["halo_version"] == "0.1.0" and p["packages"]["pydantic"]
    assert p["git_commit"] is None or re.fullmatch(r"[0-9a-f]{40}(\+dirty)?", p["git_commit"])


# ---------------------------------------------------------------- what a config text may hold (issue 45, item 1)
def _laughs(levels: int = 8) -> str:
    """A "billion laughs" of a few hundred bytes: ``levels`` anchors, each ten uses of the one before (10**levels
    values expanded), the last used as a value under rewards.milestones."""
    lines = ["lora:", "  target_modules:", "    - &l0 [a, a, a, a, a, a, a, a, a, a]"]
    lines += [f"    - &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, levels)]
    lines += ["rewards:", "  milestones:", "    gomail:", f"      - {{name: x, weight: 1, url: *l{levels - 1}}}"]
    return "\n".join(lines) + "\n"


def test_an_alias_bomb_is_refused_in_milliseconds_by_every_reader(tmp_path):
    """Before: the 8-level bomb took 71 s and 3.8 GB (an error message holding 10**8 values); now every file HALO
    reads, and --set, refuse it before building anything."""
    import time

    from halo.config.files import load_yaml
    from halo.jobs.demo import load_demo_config
    from halo.policy.modes import load_modes
    from halo.rl.config import load_rl_config

    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(_laughs())
    assert len(bomb.read_bytes()) < 600
    for load in (load_rl_config, load_modes, load_demo_config):
        t0 = time.perf_counter()
        with pytest.raises(ConfigError, match=rf"^{re.escape(str(bomb))}: its aliases expand to more than 100,000 "
                                              r"values .*billion laughs"):
            load(bomb)
        assert time.perf_counter() - t0 < 1.0
    with pytest.raises(ConfigError, match=r"^--set 'rewards\.milestones=.*': its aliases expand to more than"):
        parse_set("rewards.milestones={" + ", ".join(
            [f"l{i}: &l{i} [" + ", ".join(["x" if i == 0 else f"*l{i - 1}"] * 10) + "]" for i in range(7)]) + "}",
            CONFIG_TARGETS)
    assert load_yaml("a: &a [1, 2]\nb: [*a, *a]") == {"a": [1, 2], "b": [[1, 2], [1, 2]]}  # aliases as such: fine
    assert load_modes()["tiny"]  # the shipped modes.yaml uses an anchor and a merge key


@pytest.mark.parametrize("text, match", [
    ("a: &a [*a]", r"an alias inside its own anchor \(line 1\)"),
    ("a: " + "[" * 200 + "]" * 200, r"nested deeper than 64 levels \(line 1\)"),
    ("\n".join([f"k{i}: &k{i} [*k{i - 1}]" if i else "k0: &k0 [1]" for i in range(100)]),
     r"nested deeper than 64 levels once its aliases are expanded"),
])
def test_recursive_or_deep_yaml_is_one_clear_error(tmp_path, text, match):
    from halo.config.files import read_yaml

    f = tmp_path / "c.yaml"
    f.write_text(text)
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(f))}: {match}"):
        read_yaml(f)


def test_a_config_file_is_read_up_to_its_bound_whatever_it_is(tmp_path):
    from halo.config.files import MAX_CONFIG_BYTES, read_yaml

    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * MAX_CONFIG_BYTES + "\n")
    with pytest.raises(ConfigError, match=r"big\.yaml: over 1,048,576 bytes"):
        read_yaml(big)
    with pytest.raises(ConfigError, match=r"^/dev/zero: over 1,048,576 bytes"):  # endless: never read whole
        read_yaml(__import__("pathlib").Path("/dev/zero"))
    (tmp_path / "bin.yaml").write_bytes(b"a: \xff\xfe\n")
    with pytest.raises(ConfigError, match=r"bin\.yaml is not UTF-8 text"):
        read_yaml(tmp_path / "bin.yaml")


def test_the_cli_refuses_a_bomb_in_one_line_before_any_run_dir(tmp_path):
    (tmp_path / "bomb.yaml").write_text(_laughs())
    r = CliRunner().invoke(app, ["train", "grpo", "--tasks", "gomail.open@train", "--config",
                                 str(tmp_path / "bomb.yaml"), "--runs-dir", str(tmp_path / "runs")],
                           env={"COLUMNS": "300"})
    assert r.exit_code == 2 and "its aliases expand to more than 100,000 values" in r.output, r.output
    assert len(r.output) < 400 and not (tmp_path / "runs").exists()
