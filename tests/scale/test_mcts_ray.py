"""`halo train mcts --ray`: whole MCTS searches on Ray rollout workers (local two-worker cluster, the tiny model in a
policy actor), the DPO update in the driver, the same run directory as the local path.

With the same seed the Ray path's search equals the local one node for node: one search at a time samples from one
model whose generator is seeded per call (``seed + calls``), so the actor sees the same calls in the same order as
the local sampler. The worker killed here dies as its search is dispatched (before any policy call); a worker killed
after some of its policy calls would leave the actor's call counter ahead, and the re-run search would sample other
actions (it still runs, on the other worker). URLs and timings differ (each worker serves REAL-local on its own
ports)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("ray")
pytest.importorskip("torch")

pytestmark = [pytest.mark.browser, pytest.mark.ml, pytest.mark.timeout(300)]

TASKS = ["omnizon.department@train"]
# small enough for 2 busy cores, big enough for siblings (margin 0: every sibling pair with different tokens)
SEARCH = {"simulations": 3, "children": 3, "depth": 1, "max_steps": 2, "margin": 0.0}
DETERMINISTIC = ("task", "success_rate", "mean_reward", "episode_length", "action_validity", "frac_reward_zero_std",
                 "tokens", "successes_found", "simulations", "env_steps", "restores", "tree_nodes", "pairs",
                 "pg_items", "errored")


def _job(tmp_path, tiny_model, name, mode_over=None, mcts_over=None, **kw):
    from halo.config.overrides import flags
    from halo.jobs.mcts import MCTSJob
    from halo.policy.modes import mode_flags

    over = (*mode_flags(**(mode_over or {"model": tiny_model, "seed": 0})), *flags("mcts", mcts_over or SEARCH))
    return MCTSJob(**{"tasks": TASKS, "mode": "tiny", "episodes": 1, "run_name": name, "runs_dir": str(tmp_path),
                      "seed": 0, "overrides": over, **kw})


def _tree(path) -> dict:
    t = json.loads(path.read_text())
    for n in t["nodes"]:
        n.pop("url")
    return {k: v for k, v in t.items() if k not in ("wall_s", "restore_s")}


def _lines(path, drop=()) -> list[dict]:
    return [{k: v for k, v in json.loads(x).items() if k not in drop} for x in path.read_text().splitlines()]


def _files(root) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if "checkpoints" not in p.parts)


async def test_mcts_via_ray_equals_local_survives_a_killed_worker_and_writes_the_run_dir(ray_cluster, tiny_model,
                                                                                        tmp_path, monkeypatch):
    import halo.runtime.ray.rollouts
    from halo.jobs.mcts import run_mcts

    run_local, h_local = await run_mcts(_job(tmp_path, tiny_model, "local"))

    killed = []

    class KillFirst(halo.runtime.ray.rollouts.RayRollouts):  # the first search sent to worker 0 dies with it
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw, on_dispatch=self.kill_first)

        def kill_first(self, wi, worker, unit):
            if wi == 0 and not killed:
                killed.append(unit.task.id)
                ray_cluster.kill(worker)

    monkeypatch.setattr(halo.runtime.ray.rollouts, "RayRollouts", KillFirst)
    run_ray, h_ray = await run_mcts(_job(tmp_path, tiny_model, "ray", ray="local", ray_workers=2))

    a, b = run_local.path, run_ray.path
    assert len(h_local) == len(h_ray) == 1 and killed
    ray_m = h_ray[0]["ray"]
    # the killed worker's search ran again on the other worker; the weights reached the actor at the start and
    # after the update
    assert (ray_m["units"], ray_m["retried"], ray_m["workers_lost"], ray_m["failed"]) == (2, 1, 1, 0)
    assert ray_m["weight_syncs"] == 2
    # the same run directory: tree, its screenshots, the episode, pairs, metrics, config, checkpoint
    assert _files(a) == _files(b) and "trees/it0000.json" in _files(b) and "pairs.jsonl" in _files(b)
    assert (b / "checkpoints" / "latest").exists() and (b / "checkpoints" / "iter_000000").exists()
    # the same search: nodes, actions, visits, Q values, rewards, pairs, the episode's replies and logprobs
    tree = _tree(b / "trees" / "it0000.json")
    assert tree == _tree(a / "trees" / "it0000.json") and len(tree["nodes"]) >= 3
    pairs = _lines(b / "pairs.jsonl", drop=("url",))
    assert pairs and pairs == _lines(a / "pairs.jsonl", drop=("url",))
    step_keys = ("url", "next_url", "timings", "wall_time", "id")  # id: the explorer object's
    assert _lines(b / "episodes" / "it0000.jsonl", step_keys) == _lines(a / "episodes" / "it0000.jsonl", step_keys)
    ml, mr = h_local[0], h_ray[0]
    assert {k: mr[k] for k in DETERMINISTIC} == {k: ml[k] for k in DETERMINISTIC}
    assert mr["dpo_loss"] == pytest.approx(ml["dpo_loss"], rel=1e-4) and mr["pairs"] > 0
    logged = _lines(b / "metrics.jsonl")
    assert logged[-1]["ray"]["workers_lost"] == 1 and "ray" not in _lines(a / "metrics.jsonl")[-1]
    cfg = (b / "config.yaml").read_text()
    assert "workers: 2" in cfg and "address: local" in cfg


async def test_a_search_past_its_deadline_is_errored_with_the_reason_not_waited_for(ray_cluster):
    from halo.policy.modes import get_mode
    from halo.rl.config import MCTSSettings
    from halo.runtime.ray.rollouts import RayRollouts, Unit, sites_of
    from halo.tasks.resolve import resolve_tasks

    # one worker, a deadline no search meets: killed at 1 s, no worker left for the retry -> errored, no hang (a
    # server mode: nothing to load; the search never gets past the unanswered policy server anyway)
    (task,) = resolve_tasks(TASKS, "local", None)[:1]
    rollouts = RayRollouts(get_mode("tiny_vllm"), None, workers=1, sites=sites_of([task]), unit_timeout_s=600,
                           call_timeout_s=30)
    async with rollouts:
        (out,) = await rollouts.run_searches([Unit(task=task)], MCTSSettings(simulations=2, children=2, max_steps=2),
                                             timeout_s=1)
    assert out["error"].startswith("rollout worker lost") and "no rollout worker left" in out["error"]
    assert "missed the unit's 1 s deadline" in out["error"]
    assert (rollouts.stats.units, rollouts.stats.workers_lost, rollouts.stats.retried) == (1, 1, 1)


async def test_errored_searches_are_logged_and_too_many_stop_the_run(tmp_path):
    from types import SimpleNamespace

    from halo.errors import HaloError
    from halo.jobs.mcts import MCTSJob, MCTSSetup, train_mcts_ray
    from halo.rl.config import build_rl_config
    from halo.runtime.runs import RunDir
    from halo.tasks.resolve import resolve_tasks

    class Lost:  # every search comes back as a worker lost past its retries
        def __init__(self):
            self.rounds = []

        async def sync_weights(self, model):
            pass

        async def run_searches(self, units, settings, **kw):
            self.rounds.append([u.key for u in units])
            return [{"error": "rollout worker lost: worker 0 died (RayActorError); 2 retries spent"} for _ in units]

    job = MCTSJob(tasks=TASKS, episodes=5, ray="local", ray_workers=2)
    cfg = build_rl_config({"mcts": {"max_steps": 2}}, "rl_config")
    setup = MCTSSetup(job=job, run=RunDir(tmp_path, "lost"), mode=None, cfg=cfg, sampler=None,
                      learner=SimpleNamespace(model=None))
    rollouts = Lost()
    with pytest.raises(HaloError, match="3 of 3 searches failed.*rollout worker lost"):
        await train_mcts_ray(setup, resolve_tasks(TASKS, "local", None), rollouts)
    assert rollouts.rounds == [[0, 1], [2, 3]]  # rounds of --ray-workers searches, stopped in the second
    logged = _lines(setup.run.path / "metrics.jsonl")
    assert [m["searched_episode"] for m in logged] == [0, 1, 2] and all(m["kind"] == "errored" for m in logged)


def _fixture_server(replies, on_request=None):
    """The loopback vLLM-API fixture of tests/policy; ``on_request(body)`` sees each chat request first."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "policy"))
    from policy_chat_server import FixtureChatServer

    class Server(FixtureChatServer):
        async def _chat(self, request):
            if on_request is not None:
                on_request(await request.json())
            return await super()._chat(request)

    server = Server()
    server.replies = list(replies)
    server.start()
    return server


def _reply(text: str) -> str:
    return ('<tool_call>\n{"name": "browser", "arguments": {"action": "send_msg_to_user", "text": "' + text +
            '"}}\n</tool_call>')


async def test_mcts_via_ray_on_a_vllm_server_survives_a_worker_killed_mid_search_and_hot_loads_adapters(
        ray_cluster, tiny_model, tmp_path, monkeypatch):
    """The vLLM path (a loopback server speaking vLLM's API stands in; its replies do not depend on the call, so a
    re-run search is the same search): two workers search, the driver's learner (the tiny model) learns, each round's
    last adapter is hot-loaded and the next round's searches ask for it; the critic (another server's mode) is asked
    from the workers. Worker 0 is killed while its search waits for a policy reply: the search is re-run on worker
    1, and worker 0 is replaced before the next round."""
    import halo.runtime.ray.rollouts
    from halo.jobs.mcts import run_mcts
    from halo.policy import modes

    target = {}  # the goal of worker 0's first search, and worker 0

    def kill_on_its_first_request(body):
        if target.get("goal") and target["goal"] in json.dumps(body, ensure_ascii=False):
            del target["goal"]
            ray_cluster.kill(target.pop("worker"))

    class Watch(halo.runtime.ray.rollouts.RayRollouts):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw, on_dispatch=self.watch)

        def watch(self, wi, worker, unit):
            if wi == 0 and "done" not in target:
                target.update(goal=unit.task.goal, worker=worker, done=True)

    policy = _fixture_server([_reply("Electronics"), _reply("a portable Bluetooth speaker")],
                             on_request=kill_on_its_first_request)
    critic = _fixture_server(["Progress: 0.7"])
    get_mode = modes.get_mode

    def fixture_modes(name, *a, **kw):  # gpt_baseline, the critic, on the second server
        mode = get_mode(name, *a, **kw)
        return mode.with_overrides(base_url=critic.url, model="fixture-model") if name == "gpt_baseline" else mode

    monkeypatch.setattr(modes, "get_mode", fixture_modes)
    monkeypatch.setattr(halo.runtime.ray.rollouts, "RayRollouts", Watch)
    try:
        run, history = await run_mcts(_job(tmp_path, tiny_model, "vllm", mode="tiny_vllm", episodes=3, ray="local",
                                           ray_workers=2, learner_model=tiny_model,
                                           mode_over={"base_url": policy.url, "model": "fixture-model"},
                                           mcts_over={**SEARCH, "simulations": 2, "children": 2,
                                                      "critic": "gpt_baseline"}))
    finally:
        policy.stop()
        critic.stop()
    assert target == {"done": True}  # worker 0 was killed mid-search
    assert len(history) == 3 and all(m["pairs"] > 0 and m["errored"] == 0 for m in history)
    ray_m = history[-1]["ray"]
    assert (ray_m["workers_lost"], ray_m["retried"], ray_m["failed"], ray_m["respawned"]) == (1, 1, 0, 1)
    assert ray_m["units"] == 4 and ray_m["weight_syncs"] == 0  # no policy actor here
    # round 1 (iterations 0 and 1) sampled the base model; the adapter of its last update was hot-loaded and round
    # 2 asked for it; every iteration's adapter is saved, round 2's is the one loaded at the end
    asked = [r["model"] for r in policy.requests]
    assert list(dict.fromkeys(asked)) == ["fixture-model", f"halo-{run.path.name}-v000001"]
    assert f"halo-{run.path.name}-v000002" in policy.adapters
    assert [m["time_sync"] > 0 for m in history] == [False, True, True]
    assert all((run.path / "checkpoints" / f"adapter_v{i:06d}").exists() for i in range(3))
    assert critic.requests  # the critic was asked from the workers; its 0.7 is in the trees
    tree = json.loads((run.path / "trees" / "it0000.json").read_text())
    assert 0.7 in {n["critic"] for n in tree["nodes"]}


@pytest.mark.parametrize("args,message", [(["--ray-address", "127.0.0.1:1"], "Ray head is not reachable"),
                                          (["--ray", "--ray-workers", "0"], "--ray-workers must be >= 1"),
                                          (["--ray", "--critic", "same"], "can only answer with actions")])
def test_cli_refuses_bad_ray_flags_before_anything_starts(args, message, tmp_path):
    from typer.testing import CliRunner

    from halo.cli import app

    r = CliRunner().invoke(app, ["train", "mcts", "--mode", "tiny", "--tasks", "omnizon.department@train",
                                 "--episodes", "1", "--runs-dir", str(tmp_path), *args])
    assert r.exit_code == 2, r.output
    assert message in " ".join(r.output.split()) and not list(tmp_path.iterdir())  # no run dir, no browser


def test_critics_the_workers_can_build():
    from halo.errors import ConfigError
    from halo.jobs.mcts import ray_critic

    assert ray_critic("none") is None and ray_critic("same") == "same"
    assert ray_critic("gpt_baseline").backend == "openai"  # its server is called from the workers
    with pytest.raises(ConfigError, match="only answer with actions"):
        ray_critic("tiny")
