"""bench/pipeline_model.py's event model on cases with known answers (no browser, no model)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "pipeline_model", Path(__file__).resolve().parents[2] / "bench" / "pipeline_model.py")
pm = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("pipeline_model", pm)  # dataclasses look their module up
_spec.loader.exec_module(pm)


def plain(**kw) -> pm.Inputs:
    """No sampler cost, no batching wait: an episode is its reset and its env steps."""
    base = {"browsers": 8, "group_size": 8, "groups": 2, "steps_per_episode": 1, "reset_s": 0.5, "step_s": 0.5, "decision_s": 0.0,
                "batch_wait_s": 0.0, "update_s": 1.0}
    return pm.Inputs(**{**base, **kw})


def test_sync_is_rollout_plus_update():
    # 2 groups in turn, each one wave of 8 episodes of 1 s: rollout 2 s; update 3 s, overhead 0.25 s
    out = pm.simulate(plain(update_s=3.0, overhead_s=0.25), 0)
    assert out.iteration_s == pytest.approx(2.0 + 3.0 + 0.25)
    assert out.rollout_s == pytest.approx(2.0)
    assert out.learner_util == pytest.approx(3.0 / 5.25, abs=0.01)


def test_sync_waves_and_sampler_calls():
    # 8 episodes of a group over 4 browsers: 2 waves; each step's decision is one batched call of 0.1 s
    out = pm.simulate(plain(browsers=4, groups=1, update_s=1.0, decision_s=0.1), 0)
    assert out.iteration_s == pytest.approx(2 * (0.5 + 0.1 + 0.5) + 1.0)


@pytest.mark.parametrize("k", [1, 2])
def test_async_tends_to_rollout_when_rollout_dominates(k):
    p = plain(reset_s=5.0, step_s=5.0, update_s=0.5, sampler="vllm")
    sync, asy = pm.simulate(p, 0), pm.simulate(p, k)
    assert sync.iteration_s == pytest.approx(20.5)
    assert asy.iteration_s == pytest.approx(20.0, rel=1e-3)  # the update hidden behind the rollouts


def test_async_capped_by_the_slower_side():
    # a learner slowed on purpose: the gain stops at the update's time, k=2 adds nothing over k=1
    p = plain(update_s=6.0, sampler="vllm")
    sync, k1, k2 = (pm.simulate(p, k) for k in (0, 1, 2))
    assert sync.iteration_s == pytest.approx(8.0)
    assert k1.iteration_s == pytest.approx(6.0, rel=1e-3)
    assert k2.iteration_s == pytest.approx(6.0, rel=1e-3)
    assert k1.learner_util > 0.95 and sync.learner_util < 0.8


def test_hf_lock_blocks_decisions_during_the_update():
    # in process, a decision asked during the update waits for it: async gains less than with a separate sampler
    p = {"update_s": 3.0, "decision_s": 0.01}
    hf, vllm = pm.simulate(plain(**p), 1), pm.simulate(plain(**p, sampler="vllm"), 1)
    assert vllm.iteration_s == pytest.approx(3.0, rel=1e-2)
    assert hf.iteration_s > vllm.iteration_s + 0.5


def test_checkpoint_bound_serialises_the_iteration_after_it():
    p = plain(update_s=3.0, sampler="vllm", checkpoint_every=2)
    bound, free = pm.simulate(p, 1), pm.simulate(pm.Inputs(**{**p.__dict__, "checkpoint_every": 0}), 1)
    assert free.iteration_s < bound.iteration_s < 5.0


@pytest.mark.parametrize("k", [0, 1, 2])
@pytest.mark.parametrize("sampler", ["hf", "vllm"])
def test_utilisations_in_unit_interval(k, sampler):
    p = plain(browsers=3, groups=[2, 3, 2], steps_per_episode=2.5, decision_s=0.2, decision_row_s=0.05,
              max_batch=2, update_s=2.0, sampler=sampler, cores=2, rollout_cpu=1.5,
              update_cpu=1.0)
    out = pm.simulate(p, k)
    for u in (out.browser_util, out.env_util, out.sampler_util, out.learner_util):
        assert 0.0 <= u <= 1.0
    assert out.env_util <= out.browser_util
    assert out.episodes_per_hour > 0


def test_ray_runs_groups_at_once():
    p = plain(browsers=16, groups=2, tasks_per_iteration=2, rollouts="ray", worker_envs=8, update_s=1.0)
    assert pm.simulate(p, 0).iteration_s == pytest.approx(1.0 + 1.0)


def test_a_saturated_cpu_gives_async_nothing_and_spare_cores_give_it_all():
    """Processor sharing (``cores``): when the rollouts and the update each keep the machine's cores busy, running
    them side by side only slows both (k=1 = sync: this 2-core machine); with cores to spare, k=1 hides the update."""
    base = {"reset_s": 1.0, "step_s": 1.0, "update_s": 2.0, "sampler": "vllm", "groups": 1}
    sync = pm.simulate(plain(**base, cores=2, rollout_cpu=2, update_cpu=2), 0)
    full = pm.simulate(plain(**base, cores=2, rollout_cpu=2, update_cpu=2), 1)
    spare = pm.simulate(plain(**base, cores=8, rollout_cpu=2, update_cpu=2), 1)
    assert sync.iteration_s == pytest.approx(4.0)  # nothing overlaps in turn: sharing never applies
    assert full.iteration_s == pytest.approx(4.0, rel=0.03)  # 2 s of rollout and 2 s of update at half speed
    assert spare.iteration_s == pytest.approx(2.0, rel=1e-3)
    half = pm.simulate(plain(**base, cores=3, rollout_cpu=2, update_cpu=2), 1)
    assert spare.iteration_s < half.iteration_s < full.iteration_s


def test_a_group_lasts_as_long_as_its_slowest_episode():
    """With measured per-episode times (``episode_samples``) a group of 8 parallel episodes takes its slowest one's
    time, not the mean's: the means alone under-predict a rollout."""
    mean = plain(groups=1, reset_s=2.0, step_s=0.0, update_s=0.0)
    drawn = plain(groups=1, reset_s=2.0, step_s=0.0, update_s=0.0, episode_samples=[(1.0, 0.0), (3.0, 0.0)])
    assert pm.simulate(mean, 0).rollout_s == pytest.approx(2.0)
    assert pm.simulate(drawn, 0).rollout_s == pytest.approx(3.0)  # 8 draws of two values: a 3 s one each time
