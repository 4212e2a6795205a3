"""Validation at the door (the settings classes, halo.jobs.preflight, RewardConfig.from_dict, the CLI): every bad
value fails in seconds, naming the key and the fix, before any model, browser or site starts."""

from __future__ import annotations

import socket
import time

import pytest
from typer.testing import CliRunner

from halo.cli import app
from halo.config.files import load_yaml
from halo.config.overrides import flags
from halo.config.settings import build
from halo.errors import ConfigError, HaloError, PolicyError, SiteError
from halo.jobs.grpo import GRPOJob, check_grpo
from halo.jobs.preflight import check_policy_server, check_runs_dir, check_sites_reachable, resolve_task_refs
from halo.policy.modes import get_mode
from halo.rl.config import GRPOSettings, LoRASettings, OptimSettings, build_rl_config, load_rl_config
from halo.rl.rewards import RewardConfig


def _free_port() -> int:
    with socket.socket() as s:  # nobody listens on it once closed
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_yaml_reads_exponent_numbers_as_numbers():
    d = load_yaml("a: 1e-5\nb: 1.0e-6\nc: 3E+2\nd: 10\ne: fast\nf: '1e-5'\ng: 1.5\n")
    assert d == {"a": 1e-5, "b": 1e-6, "c": 300.0, "d": 10, "e": "fast", "f": "1e-5", "g": 1.5}


@pytest.mark.parametrize("cls, values, match", [
    (OptimSettings, {"lr": "fast"}, r"x\.lr must be a number, got 'fast' \(str\)"),
    (OptimSettings, {"lr": "1e-5"}, r"x\.lr must be a number"),
    (OptimSettings, {"lr": float("nan")}, r"x\.lr must be a finite number"),
    (OptimSettings, {"betas": [0.9]}, r"x\.betas must be a list of 2 values"),
    (LoRASettings, {"rank": [1, 2]}, r"x\.rank must be an integer, got \[1, 2\] \(list\)"),
    (LoRASettings, {"rank": 8.0}, r"x\.rank must be an integer"),
    (LoRASettings, {"target_modules": ["q_proj", 3]}, r"x\.target_modules\[1\] must be a string"),
    (GRPOSettings, {"skip_zero_std_groups": "yes"}, r"must be true or false"),
    (GRPOSettings, {"group_size": True}, r"must be an integer, got True"),
])
def test_types_are_checked_per_key(cls, values, match):
    with pytest.raises(ConfigError, match=match):
        build(cls, values, prefix="x.")


def test_good_types_pass():
    assert build(OptimSettings, {"lr": 1, "betas": [0.9, 0.99], "loss_type": "grpo"}, "x").betas == (0.9, 0.99)
    assert build(LoRASettings, {"rank": 8, "target_modules": ("q_proj",)}, "x").rank == 8


def test_rl_config_sections_and_episode_section():
    cfg = build_rl_config(load_yaml("episode: {max_steps: 5, episode_timeout_s: 60}\ngrpo: {lr: 1e-5}"), "f.yaml")
    assert cfg.episode.max_steps == 5 and cfg.optim.lr == 1e-5
    assert cfg.for_mode(0.5, 64).grpo.max_steps == 5  # the loop's steps from episode, when grpo says none
    with pytest.raises(ConfigError, match="f.yaml: unknown section 'gropo'"):
        build_rl_config({"gropo": {}}, "f.yaml")
    with pytest.raises(ConfigError, match=r"episode\.episode_timeout_s must be > 0, got -1"):
        build_rl_config({"episode": {"episode_timeout_s": -1}}, "f.yaml")
    with pytest.raises(ConfigError, match=r"episode: unknown key 'max_stpes'"):
        build_rl_config({"episode": {"max_stpes": 3}}, "f.yaml")


def test_ranges_are_checked_where_each_setting_is_declared():
    """Type and range live on the field: any builder (a file, a flag, code) gets the same refusal."""
    with pytest.raises(ConfigError, match=r"lr must be > 0, got -1"):
        OptimSettings(lr=-1)
    with pytest.raises(ConfigError, match="loss_type must be 'dr_grpo', 'grpo' or 'token_mean', got 'bogus'"):
        OptimSettings(loss_type="bogus")
    with pytest.raises(ConfigError, match="rank must be >= 1, got 0"):
        LoRASettings(rank=0)
    with pytest.raises(ConfigError, match="group_size must be >= 1, got 0"):
        GRPOSettings(group_size=0)
    with pytest.raises(ConfigError, match=r"configs/x.yaml: grpo\.lr must be > 0, got 0"):
        build(OptimSettings, {"lr": 0}, "configs/x.yaml", "grpo.")


@pytest.mark.parametrize("section, values, match", [
    ("grpo", {"group_size": 100_000}, r"grpo\.group_size must be <= 256, got 100000 \(a group's episodes"),
    ("grpo", {"parallel": 65}, r"grpo\.parallel must be <= 64, got 65 \(each episode at once is a browser context"),
    ("grpo", {"tasks_per_iteration": 100, "group_size": 16},
     r"grpo: \(tasks_per_iteration \+ refill_zero_variance\) x group_size must be <= 1024, got \(100 \+ 0\) x 16 = 1600"),
    ("grpo", {"max_tokens": 10**6}, r"grpo\.max_tokens must be <= 8192, got 1000000 \(tokens of one reply"),
    ("grpo", {"pack_rows": 10**5}, r"grpo\.pack_rows must be <= 1024, got 100000 \(rows of one training forward"),
    ("episode", {"max_steps": 10**6}, r"episode\.max_steps must be <= 500, got 1000000 \(an episode keeps every step"),
    ("policy", {"max_tokens": 10**6}, r"policy\.max_tokens must be <= 8192"),
    ("mcts", {"children": 1000}, r"mcts\.children must be <= 64, got 1000 \(candidate actions"),
    ("mcts", {"simulations": 10**6}, r"mcts\.simulations must be <= 10000"),
    ("mcts", {"max_pairs": 10**7}, r"mcts\.max_pairs must be <= 65536"),
])
def test_every_size_has_an_upper_bound_with_its_reason(section, values, match):
    """Before: --group-size 100000 was accepted (150 s of silence and 3 GB, the whole group launched at once)."""
    with pytest.raises(ConfigError, match=r"rl_config\.yaml: " + match):
        load_rl_config(overrides=flags(section, values))


def test_eval_and_mode_sizes_are_bounded_too():
    from halo.jobs.eval import EvalConfig

    with pytest.raises(ConfigError, match=r"parallel must be <= 64, got 1000 \(each is a browser context"):
        EvalConfig(parallel=1000)
    with pytest.raises(ConfigError, match=r"episodes must be <= 1000, got 5000 \(episodes of each task"):
        EvalConfig(episodes=5000)
    with pytest.raises(ConfigError, match=r"modes\.tiny\.decoding\.max_tokens must be <= 8192, got 100000 "
                                          r"\(tokens of one reply"):
        get_mode("tiny", None, flags("mode", {"decoding.max_tokens": 100_000})).decoding_config()
    with pytest.raises(ConfigError, match=r"modes\.tiny\.max_batch must be <= 256, got 1000 \(rows of one generate"):
        get_mode("tiny", None, flags("mode", {"max_batch": 1000}))
    r = CliRunner().invoke(app, ["eval", "--mode", "tiny", "--tasks", "v2.gomail-1", "--parallel", "1000"],
                           env={"COLUMNS": "300"})
    assert r.exit_code == 2 and "parallel must be <= 64, got 1000" in r.output, r.output


def test_a_group_of_one_is_refused_unless_asked_for():
    cfg, mode = load_rl_config(), get_mode("tiny")
    one = build_rl_config({"grpo": {"group_size": 1}}, "f")
    check_grpo(GRPOJob(tasks=[]), cfg, mode)
    with pytest.raises(ConfigError, match="a group of 1 learns nothing.*--allow-group-size-one"):
        check_grpo(GRPOJob(tasks=[]), one, mode)
    check_grpo(GRPOJob(tasks=[], allow_group_size_one=True), one, mode)


def test_search_in_grpo_is_refused_unbounded_on_ray_or_without_a_constrained_sampler():
    """``grpo.search_every``: each search must end (a step or time budget), it runs here (no --ray), and drawn
    candidates (``mcts.explore``) need HALO's own constrained sampler."""
    mode = get_mode("tiny")
    ok = build_rl_config({"grpo": {"search_every": 2, "self_imitation": 8}, "mcts": {"step_budget": 60}}, "f")
    check_grpo(GRPOJob(tasks=[]), ok, mode)
    unbounded = build_rl_config({"grpo": {"search_every": 2, "self_imitation": 8}}, "f")
    with pytest.raises(ConfigError, match="each search must end; set mcts.step_budget"):
        check_grpo(GRPOJob(tasks=[]), unbounded, mode)
    with pytest.raises(ConfigError, match="with --ray the browsers are the workers'"):
        check_grpo(GRPOJob(tasks=[], ray="local"), ok, mode)
    drawn = build_rl_config({"grpo": {"search_every": 2, "self_imitation": 8},
                             "mcts": {"step_budget": 60, "explore": 0.9}}, "f")
    check_grpo(GRPOJob(tasks=[]), drawn, mode)
    with pytest.raises(ConfigError, match="drawn candidates need an in-process"):
        check_grpo(GRPOJob(tasks=[]), drawn, get_mode("qwen3vl_base"))
    with pytest.raises(ConfigError, match="set self_imitation > 0"):
        build_rl_config({"grpo": {"search_every": 2}}, "f")


def test_runs_dir_must_be_writable(tmp_path):
    assert check_runs_dir(tmp_path / "new" / "runs").is_dir()
    (tmp_path / "a-file").write_text("")
    with pytest.raises(ConfigError, match="runs directory .*a-file/runs is not writable.*--runs-dir"):
        check_runs_dir(tmp_path / "a-file" / "runs")


def test_unknown_task_fails_before_anything_starts():
    with pytest.raises(HaloError, match="gomial"):
        resolve_task_refs(["gomial"], "local")
    with pytest.raises(ConfigError, match="--sites must be"):
        resolve_task_refs(["v2.gomail-1"], "lcoal")
    assert [t.id for t in resolve_task_refs(["v2.gomail-4"], "local")] == ["v2.gomail-4"]


async def test_unreachable_sites_fail_in_seconds_with_the_url(tmp_path):
    from halo.tasks.types import page_task

    url = f"http://127.0.0.1:{_free_port()}"
    t0 = time.perf_counter()
    with pytest.raises(SiteError, match=rf"cannot reach 1 of the 1 sites.*{url}.*--sites local"):
        await check_sites_reachable([page_task(f"{url}/page.html")])
    assert time.perf_counter() - t0 < 6
    with pytest.raises(ConfigError, match="does not exist"):
        await check_sites_reachable([page_task((tmp_path / "missing.html").as_uri())])
    (tmp_path / "p.html").write_text("<p>hi</p>")
    await check_sites_reachable([page_task((tmp_path / "p.html").as_uri())])


async def test_dead_policy_server_fails_the_preflight_with_url_and_fix():
    url = f"http://127.0.0.1:{_free_port()}/v1"
    mode = get_mode("qwen3vl_base").with_overrides(base_url=url)
    t0 = time.perf_counter()
    with pytest.raises(PolicyError, match=rf"cannot reach the policy server at {url}.*halo serve-policy"):
        await check_policy_server(mode)
    assert time.perf_counter() - t0 < 10
    await check_policy_server(get_mode("tiny"))  # in-process: nothing to check


class _ModelsServer:
    """A real loopback HTTP server whose ``GET /v1/models`` answers 200 with ``body``."""

    def __init__(self, body: bytes, ctype: str = "application/json"):
        import http.server
        import threading

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's name
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("body, match", [
    (b"<html>It works!</html>", r"/models answered HTTP 200 with non-JSON \('<html>It works!</html>'\); is .* an "
                                r"OpenAI-compatible server"),
    (b'{"object": "list", "data": []}', r"serves no model \(GET /models listed none\)"),
    (b'{"status": "ok"}', r"/models answered JSON without a list of models"),
    (b'[1, 2]', r"/models answered JSON without a list of models"),
    (b'{"data": [{"id": "other-model"}]}', r"does not serve 'Qwen/Qwen3-VL-8B-Instruct' \(it serves other-model\)"),
])
async def test_the_policy_preflight_wants_json_naming_the_modes_model(body, match):
    """Before: a /models answering 200 with non-JSON or an empty list passed, browsers started, and the run failed
    24 s later; now the preflight fails in well under 3 s."""
    srv = _ModelsServer(body)
    try:
        mode = get_mode("qwen3vl_base").with_overrides(base_url=srv.url)
        t0 = time.perf_counter()
        with pytest.raises(PolicyError, match=match):
            await check_policy_server(mode)
        assert time.perf_counter() - t0 < 3
        gpt = get_mode("gpt_baseline").with_overrides(base_url=srv.url)  # kind openai: the same check
        with pytest.raises(PolicyError):
            await check_policy_server(gpt)
    finally:
        srv.close()
    ok = _ModelsServer(b'{"data": [{"id": "Qwen/Qwen3-VL-8B-Instruct"}]}')
    try:
        await check_policy_server(get_mode("qwen3vl_base").with_overrides(base_url=ok.url))
    finally:
        ok.close()


@pytest.mark.parametrize("rewards, match", [
    ({"shaping": {"success": "yes"}}, r"rewards\.shaping\.success must be a number, got 'yes'"),
    ({"shaping": {"loop_repeats": 0}}, r"loop_repeats must be >= 1"),
    ({"shaping": {"sucess": 1.0}}, r"unknown key 'sucess'"),
    ({"milestones": {"gomail": [{"name": "x", "weight": 1, "url": "a("}]}},
     r"milestones\.gomail\[0\] \(x\)\.url: invalid regex 'a\('"),
    ({"milestones": {"gomail": [{"name": "x", "weight": 1, "element": {"role": "[", "name": "y"}}]}},
     r"\(x\)\.element\.role: invalid regex"),
    ({"milestones": {"gomail": [{"name": "x", "weight": "big", "url": "a"}]}}, r"\(x\)\.weight must be a number"),
    ({"milestones": {"gomail": [{"name": "x", "weight": 1}]}}, r"has no condition"),
    ({"milestones": {"gomail": [{"name": "x", "weight": 1, "url": "a"}, {"name": "x", "weight": 1, "url": "b"}]}},
     r"two milestones are named 'x'"),
    ({"milestones": {"gomail": {"name": "x"}}}, r"must be a list of milestones"),
    # catastrophic backtracking, refused at start-up with the key (issue 45: it used to hang the run's event loop)
    ({"milestones": {"gomail": [{"name": "x", "weight": 1, "text": "(a|aa)+$"}]}},
     r"\(x\)\.text: the regex '\(a\|aa\)\+\$' backtracks catastrophically: it ran over 0\.25 CPU-s .* simplify it"),
    ({"milestones": {"gomail": [{"name": "x", "weight": 1, "element": {"name": r"(\d|\d\d)+z"}}]}},
     r"\(x\)\.element\.name: the regex .* backtracks catastrophically"),
    ({"milestones": {"gomail": [{"name": "x", "weight": 1, "url": [[1, 2]] * 1000}]}},
     r"\(x\)\.url must be a regex \(a string\), got \[\[1, 2\], .*\.\.\.\] \(list\)$"),  # a short message
])
def test_bad_reward_config_is_refused_at_start_up(rewards, match):
    with pytest.raises(ConfigError, match=match):
        RewardConfig.from_dict(rewards)


def test_a_milestone_search_is_bounded_whatever_the_pattern():
    """The issue's pattern: with ``re`` a 27-character tree text takes ~10 s and a page's takes for ever; on the
    ``regex`` library it is linear, and any search is cut at MATCH_TIMEOUT_S (PatternTimeout, naming the key)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "policy"))
    from policy_helpers import make_obs

    from halo.env.actions import LeftClick
    from halo.rl.rewards import DenseRewardCalculator, Milestone, PatternTimeout, pattern_matches

    cfg = RewardConfig.from_dict({"milestones": {"gomail": [{"name": "m", "weight": 1,
                                                              "text": r"(?:[\s\S]+)+QQQZZZ"}]}})
    task = type("T", (), {"site": "gomail", "family": ""})()
    calc = DenseRewardCalculator(cfg)
    t0 = time.perf_counter()
    for text in ("x" * 27, "StaticText 'QQQ x'\n" * 3000):
        r = calc.compute_reward(make_obs(), LeftClick(1, 1), make_obs(axtree=text), task, False, False)
        assert "milestone/m" not in r.parts
    assert time.perf_counter() - t0 < 2
    t0 = time.perf_counter()
    with pytest.raises(PatternTimeout, match=r"^rewards\.milestones\.g\[0\] \(m\)\.text: the regex .* ran over 1 "
                                             r"CPU-s on a 5,001-character text"):
        pattern_matches(r"(a|aa)+$", "a" * 5000 + "!", where="rewards.milestones.g[0] (m).text")
    assert time.perf_counter() - t0 < 10  # 1 CPU-s; wall time is more where the machine is shared
    assert Milestone(name="m", weight=1, url="x", where="k") == Milestone(name="m", weight=1, url="x")


def test_shipped_reward_config_loads():
    cfg = load_rl_config().rewards
    assert set(cfg.milestones) == {"gomail", "gocalendar", "omnizon", "zilloft", "dashdish", "opendining", "udriver",
                                   "staynb", "marrisuite", "networkin", "topwork"}


# ---------------------------------------------------------------- the CLI: fails fast, writes nothing
def _train(tmp_path, *args: str, config: str | None = None):
    argv = ["train", "grpo", "--tasks", "v2.gomail-4", "--runs-dir", str(tmp_path / "runs"), *args]
    if config:
        (tmp_path / "rl.yaml").write_text(config)
        argv += ["--config", str(tmp_path / "rl.yaml")]
    t0 = time.perf_counter()
    r = CliRunner().invoke(app, argv, env={"COLUMNS": "300"})
    return r, time.perf_counter() - t0


@pytest.mark.parametrize("args, config, match", [
    (["--lr", "-1"], None, r"rl_config\.yaml: grpo\.lr must be > 0, got -1"),
    (["--group-size", "0"], None, r"grpo\.group_size must be >= 1, got 0"),
    (["--loss-type", "bogus"], None, "grpo.loss_type must be 'dr_grpo', 'grpo' or 'token_mean', got 'bogus'"),
    (["--group-size", "1"], None, "a group of 1 learns nothing"),
    (["--tasks", "gomial"], None, "gomial"),
    # no run directory (before: an empty episodes/ was left), and before the model loads
    (["--resume", "--run-name", "r1"], None, r"--resume: no checkpoint in .*r1/checkpoints; start without --resume"),
    (["--group-size", "100000"], None, r"grpo\.group_size must be <= 256, got 100000 \(a group's episodes"),
    (["--parallel", "1000"], None, r"grpo\.parallel must be <= 64, got 1000 \(each episode at once is a browser"),
    (["--max-steps", "100000"], None, r"grpo\.max_steps must be <= 500, got 100000 \(an episode keeps every step"),
    (["--max-tokens", "100000"], None, r"decoding\.max_tokens must be <= 8192, got 100000 \(tokens of one reply"),
    (["--tasks", "gomail.open@test:0"], None, r"gomail\.open@test:0': the count must be >= 1"),
    (["--tasks", "gomail.open@validation"], None, r"unknown split 'validation'"),
    ([], "grpo: {lr: fast}", r"grpo\.lr must be a number, got 'fast'"),
    ([], "lora: {rank: [1, 2]}", r"lora\.rank must be an integer"),
    ([], "rewards: {shaping: {success: 'yes'}}", r"rewards\.shaping\.success must be a number"),
    ([], "rewards: {milestones: {gomail: [{name: m, weight: 1, text: '('}]}}", "invalid regex"),
    ([], "rewards: {milestones: {gomail: [{name: m, weight: 1, text: '(a|aa)+$'}]}}",
     r"rewards\.milestones\.gomail\[0\] \(m\)\.text: the regex '\(a\|aa\)\+\$' backtracks catastrophically"),
    (["--mode", "qwen3vl_grpo"], "lora: {modules_to_save: [lm_head]}",
     r"a vLLM server hot-loads LoRA adapters only"),
    (["--mode", "qwen3vl_grpo"], "grpo: {explore: 0.3}", r"grpo\.explore 0\.3: .* needs an in-process \(hf\) mode"),
    (["--mode", "qwen3vl_grpo"], "grpo: {explore_stuck: 0.5}",
     r"grpo\.explore_stuck 0\.5: .* needs an in-process \(hf\) mode"),
    ([], "grpo: {explore: 1.5}", r"explore must be in \[0, 1\)"),
    ([], "grpo: {hindsight: true}", r"hindsight relabels episodes into self-imitation's buffer"),
    ([], "grpo: {hindsight: true, self_imitation: 8, hindsight_per_episode: 0}",
     r"hindsight_per_episode must be >= 1"),
])
def test_train_refuses_bad_input_before_any_model_or_run_dir(tmp_path, args, config, match):
    r, dt = _train(tmp_path, *args, config=config)
    assert r.exit_code == 2, r.output
    assert __import__("re").search(match, " ".join(r.output.split())), r.output
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())  # no run dir written
    assert dt < 30


def test_tasks_with_an_unknown_site_fails():
    r = CliRunner().invoke(app, ["tasks", "--site", "nosuch"], env={"COLUMNS": "300"})
    assert r.exit_code == 2 and "no v2 tasks on site 'nosuch'" in r.output and "gomail" in r.output


def test_sites_on_a_busy_port_is_one_line_and_no_table():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        busy = s.getsockname()[1]
        r = CliRunner().invoke(app, ["sites", "--port", str(busy - 2), "--site", "gocalendar"],
                               env={"COLUMNS": "300"})
    assert r.exit_code == 1, r.output
    assert f"port {busy} (gocalendar)" in r.output and "--port" in r.output
    assert "REAL-local" in r.output and "http://" not in r.output  # nothing printed as served
