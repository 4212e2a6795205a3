"""Rollouts on a local Ray cluster (two workers, the tiny model in a policy actor): the Ray path runs the same
rollout code as the local one, survives a killed worker, and writes the same run directory.

Greedy decoding is used for the equality check: a sampled run's draws depend on the order in which the concurrent
episodes' requests reach the one model (``seed + calls`` and the batch's composition), which no two schedulers
share, while a greedy action depends on the observation alone."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from ray_helpers import episode_steps

pytest.importorskip("ray")
pytest.importorskip("torch")

pytestmark = [pytest.mark.browser, pytest.mark.ml, pytest.mark.timeout(300)]

TASKS = ["v2.gomail-1", "v2.gomail-2"]
MAX_STEPS = 3




async def _eval(mode, tasks, run, cfg, rollouts=None):
    from halo.jobs.eval import run_eval
    from halo.policy.modes import make_policy

    policy = None if rollouts is not None else make_policy(mode)
    try:
        return await run_eval(policy, tasks, cfg, run, rollouts=rollouts)
    finally:
        if policy is not None:
            await policy.aclose()


async def test_eval_via_ray_equals_local_greedy_survives_a_killed_worker_not_a_lost_policy(ray_cluster, tiny_mode,
                                                                                            tmp_path):
    from halo.jobs.eval import EvalConfig
    from halo.runtime.ray.actors import PolicyLost
    from halo.runtime.ray.rollouts import RayRollouts, sites_of
    from halo.runtime.runs import RunDir
    from halo.tasks.resolve import local_sites, resolve_tasks

    cfg = EvalConfig(episodes=1, parallel=1, max_steps=MAX_STEPS, temperature=0.0, episode_timeout_s=120)
    with local_sites(True) as urls:
        tasks = resolve_tasks(TASKS, sites="local", site_urls=urls)
        t0 = time.perf_counter()
        local = await _eval(tiny_mode, tasks, RunDir(tmp_path, "local"), cfg)
        t_local = time.perf_counter() - t0
    killed = []

    def kill_first(wi, worker, unit):  # the first unit sent to worker 0 dies with it, mid-group
        if wi == 0 and not killed:
            killed.append(unit.task.id)
            ray_cluster.kill(worker)

    rollouts = RayRollouts(tiny_mode, None, workers=2, sites=sites_of(tasks), per_worker=cfg.parallel, retries=2,
                           env_kwargs={"max_steps": cfg.max_steps, "episode_timeout_s": cfg.episode_timeout_s},
                           unit_timeout_s=240, call_timeout_s=120, on_dispatch=kill_first)
    async with rollouts:
        t0 = time.perf_counter()
        remote = await _eval(tiny_mode, tasks, RunDir(tmp_path, "ray"), cfg, rollouts)
        t_ray = time.perf_counter() - t0
        # then the policy actor dies: the next evaluation stops with a clear error, no hang
        ray_cluster.kill(rollouts.actor)
        with pytest.raises(PolicyLost, match="policy actor died"):
            await asyncio.wait_for(_eval(tiny_mode, tasks, RunDir(tmp_path, "lost"), cfg, rollouts), 120)
    print(f"local {t_local:.1f} s, ray {t_ray:.1f} s, stats {rollouts.stats.as_dict()}")
    assert killed and rollouts.stats.workers_lost == 1 and rollouts.stats.retried == 1
    assert rollouts.stats.respawned == 1  # replaced before the second evaluation
    m_local, m_ray = local.metrics(), remote.metrics()
    assert m_ray["errored"] == 0 and m_ray["episodes"] == m_local["episodes"] == len(TASKS) * cfg.episodes
    # same files, same episode names, same replies step by step
    a, b = tmp_path / "local", tmp_path / "ray"
    assert sorted(p.name for p in a.iterdir()) == sorted(p.name for p in b.iterdir())
    sa, sb = episode_steps(a), episode_steps(b)
    assert len(sa) == len(TASKS) * cfg.episodes and sa == sb
    metrics = [json.loads(x) for x in (b / "metrics.jsonl").read_text().splitlines()]
    assert metrics[-1]["ray"]["workers_lost"] == 1


async def test_grpo_via_ray_trains_and_pushes_weights(ray_cluster, tiny_model, tmp_path):
    from halo.config.overrides import flags
    from halo.jobs.grpo import GRPOJob, run_grpo
    from halo.policy.modes import mode_flags

    job = GRPOJob(tasks=["v2.gomail-1", "v2.gomail-2"], mode="tiny", runs_dir=str(tmp_path), run_name="g",
                  ray="local", ray_workers=2,
                  overrides=(*mode_flags(model=tiny_model),
                             *flags("grpo", {"iterations": 1, "group_size": 2, "tasks_per_iteration": 2, "max_steps": 2,
                                             "save_episodes": "all", "checkpoint_every": 1})))
    run, history = await run_grpo(job)
    assert len(history) == 1 and all(m["errored"] == 0 and m["episodes"] == 4 for m in history)
    # the learner's weights reached the policy actor at the start and after the update
    assert history[-1]["ray"]["units"] == 2 and history[-1]["ray"]["weight_syncs"] == 2
    assert len(list((run.path / "episodes").glob("*.jsonl"))) == 4
    assert (run.path / "checkpoints" / "latest").exists()


def test_unreachable_address_is_an_error_before_anything_starts():
    from halo.errors import ConfigError
    from halo.runtime.ray.cluster import check_address

    with pytest.raises(ConfigError, match="not reachable"):
        check_address("127.0.0.1:1", 2)
    with pytest.raises(ConfigError, match="HOST:PORT"):
        check_address("nowhere", 2)
    with pytest.raises(ConfigError, match=">= 1"):
        check_address(None, 0)


def test_a_ray_client_address_without_the_client_extra_is_refused_at_once(monkeypatch):
    """``ray://`` needs Ray's client extra (gRPC); without it ``ray.init`` would fail deep inside Ray, so the address
    is refused before anything starts, saying what to install."""
    import importlib.util

    from halo.errors import ConfigError
    from halo.runtime.ray.cluster import check_address

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "grpc" else real(name, *a))
    with pytest.raises(ConfigError, match=r"ray\[client\]"):
        check_address("ray://127.0.0.1:10001", 2)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object() if name == "grpc" else real(name, *a))
    check_address("ray://127.0.0.1:10001", 2)  # with it installed: left to Ray's own connect


@pytest.mark.parametrize("argv", [["eval", "--mode", "tiny", "--tasks", "v2.gomail-1"],
                                  ["train", "grpo", "--tasks", "v2.gomail-1", "--iterations", "1"]])
def test_cli_refuses_an_unreachable_ray_address_with_exit_2(argv, tmp_path):
    from typer.testing import CliRunner

    from halo.cli import app

    r = CliRunner().invoke(app, [*argv, "--ray-address", "127.0.0.1:1", "--runs-dir", str(tmp_path)])
    assert r.exit_code == 2, r.output
    assert "Ray head is not reachable" in r.output and not list(tmp_path.iterdir())  # no run dir, no browser
