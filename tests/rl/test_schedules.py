"""The learning rate's and the entropy coefficient's linear schedules: the values along the run's progress, the
optimizer's rate, the trainer's progress (iterations, or a driver's own budget) and the settings' checks."""

from __future__ import annotations

import asyncio
import statistics
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from halo.errors import ConfigError
from halo.rl.config import GRPOSettings
from halo.rl.grpo import GRPOTrainer
from halo.rl.learner import scheduled

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "policy"))


def test_a_schedule_runs_on_the_line_from_its_value_to_its_final_one():
    assert scheduled(0.01, None, 0.7) == 0.01  # no final value: constant
    assert scheduled(3e-3, 3e-4, 0.0) == pytest.approx(3e-3)
    assert scheduled(3e-3, 3e-4, 0.5) == pytest.approx(1.65e-3)
    assert scheduled(3e-3, 3e-4, 1.0) == pytest.approx(3e-4)
    assert scheduled(0.01, -0.1, 0.25) == pytest.approx(-0.0175)  # through zero into a penalty


def test_the_trainer_reports_iterations_done_or_its_drivers_progress(tmp_path):
    from halo.runtime.runs import RunDir

    tasks = [SimpleNamespace(id="t", family=None)]
    t = GRPOTrainer(SimpleNamespace(), None, tasks, GRPOSettings(iterations=5), RunDir(tmp_path, "r"))
    assert [t.progress(i) for i in range(5)] == [0.0, 0.25, 0.5, 0.75, 1.0]
    one = GRPOTrainer(SimpleNamespace(), None, tasks, GRPOSettings(iterations=1), RunDir(tmp_path, "r1"))
    assert one.progress(0) == 0.0
    t.progress_fn = lambda it: it / 2  # a driver's budget, clamped to [0, 1]
    assert [t.progress(i) for i in (0, 1, 3)] == [0.0, 0.5, 1.0]


def test_the_penalty_gate_counts_the_policys_own_recent_episodes(tmp_path, monkeypatch):
    """``recent_success`` (what scales an entropy penalty) counts the policy's own episodes of the last
    ``curriculum_window``: not errored ones, not those with a drawn (explored) reply; 0 before any."""
    from halo.rl import grpo
    from halo.runtime.runs import RunDir

    def ep(success: bool, explored: bool = False, errored: bool = False):
        st = SimpleNamespace(sample=SimpleNamespace(explored=explored))
        return SimpleNamespace(success=success, errored=errored, steps=[st, st], task_id="t", dense_return=0.0)

    class Stop(Exception):
        pass

    class Learner:
        def set_progress(self, progress, success=1.0):
            self.seen = (progress, success)
            raise Stop  # the update is not under test

    groups = [[ep(True), ep(False), ep(True, explored=True), ep(True, errored=True)],
              [ep(True, explored=True), ep(True, explored=True)]]

    async def one_group(envs, policy, task, on_step=None, **kw):
        return groups.pop(0)

    monkeypatch.setattr(grpo, "run_group", one_group)
    monkeypatch.setattr(grpo, "check_iteration", lambda *a: None)
    tasks = [SimpleNamespace(id="t", family=None)]
    learner = Learner()
    t = GRPOTrainer(SimpleNamespace(), learner, tasks, GRPOSettings(iterations=3, curriculum_window=3,
                                                                    tasks_per_iteration=2), RunDir(tmp_path, "r"))
    assert t.recent_success() == 0.0
    with pytest.raises(Stop):
        asyncio.run(t.iterate(1, [None] * 8))
    assert learner.seen == (0.5, pytest.approx(0.5))  # the own episodes: True, False (explored, errored left out)


def test_a_frontier_gate_counts_the_ladders_frontier_rung_alone(tmp_path, monkeypatch):
    """``entropy_gate: frontier``: the penalty's success is the policy's own on the ladder's highest open rung, not
    over every rung: a learned low rung (all successes) leaves it at the frontier's 0 until the frontier succeeds,
    then it is the frontier's own window. ``recent`` stays the default; a frontier gate off a ladder is refused."""
    from halo.rl import grpo
    from halo.runtime.runs import RunDir

    def ep(success: bool):
        st = SimpleNamespace(sample=SimpleNamespace(explored=False))
        return SimpleNamespace(success=success, errored=False, steps=[st], task_id="t", dense_return=float(success))

    class Stop(Exception):
        pass

    class Learner:
        def set_progress(self, progress, success=1.0):
            self.seen = success
            raise Stop

    tasks = [SimpleNamespace(id="low", family="low"), SimpleNamespace(id="top", family="top")]
    outcome = {"low": [True] * 4, "top": [False] * 4}

    async def one_group(envs, policy, task, on_step=None, **kw):
        return [ep(x) for x in outcome[task.family]]

    monkeypatch.setattr(grpo, "run_group", one_group)
    monkeypatch.setattr(grpo, "check_iteration", lambda *a: None)
    learner = Learner()
    t = GRPOTrainer(SimpleNamespace(), learner, tasks,
                    GRPOSettings(iterations=9, curriculum="ladder", curriculum_window=4, tasks_per_iteration=2,
                                 group_size=4, ladder_unlock=0.5, entropy_gate="frontier"), RunDir(tmp_path, "r"))
    with pytest.raises(Stop):  # the first rung alone, all successes: its window full, the top rung opens ...
        asyncio.run(t.iterate(0, [None] * 4))
    assert t.sampler.frontier == "top" and statistics.fmean(t._own["low"]) == 1.0
    assert learner.seen == 0.0  # ... and the update's gate is the new frontier's: no own episode yet
    while "top" not in t._own:  # drawn beside reviews of the first rung (which stay all successes)
        with pytest.raises(Stop):
            asyncio.run(t.iterate(1, [None] * 4))
    assert learner.seen == 0.0 and statistics.fmean(t._own["low"]) == 1.0
    outcome["top"] = [True, True, False, False]
    while learner.seen == 0.0:
        with pytest.raises(Stop):
            asyncio.run(t.iterate(2, [None] * 4))
    assert learner.seen == pytest.approx(0.5)  # the frontier's own window (4): 2 of 4
    assert GRPOSettings(curriculum="ladder").entropy_gate == "recent"
    with pytest.raises(ConfigError, match="ladder"):
        GRPOSettings(entropy_gate="frontier")


@pytest.mark.ml
def test_the_learner_moves_its_rate_and_entropy_coefficient_with_progress(tiny_model):
    torch = pytest.importorskip("torch")
    from policy_helpers import constrained_tiny_policy, make_obs

    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.learner import LoRALearner, TrainItem

    torch.manual_seed(0)
    p = constrained_tiny_policy(tiny_model)
    learner = LoRALearner(p, LoRASettings(rank=4, alpha=8),
                          OptimSettings(lr=1e-2, lr_final=1e-3, entropy_coef=0.1, entropy_coef_final=-0.5),
                          temperature=1.0)
    assert (learner.lr, learner.entropy_coef) == (1e-2, 0.1)
    learner.set_progress(0.5)
    assert learner.lr == pytest.approx(5.5e-3) and learner.entropy_coef == pytest.approx(-0.2)
    groups = learner.optimizer.param_groups
    assert [g["lr"] for g in groups] == pytest.approx([5.5e-3] * len(groups))
    learner.set_progress(3.0)  # clamped: the end of the line, not past it
    assert learner.lr == pytest.approx(1e-3) and learner.entropy_coef == pytest.approx(-0.5)
    assert learner.progress == 1.0
    # a penalty is scaled by the policy's recent success (none yet: no penalty); a bonus is not
    learner.set_progress(1.0, success=0.0)
    assert learner.entropy_coef == 0.0 and learner.lr == pytest.approx(1e-3)
    learner.set_progress(1.0, success=0.5)
    assert learner.entropy_coef == pytest.approx(-0.25)
    learner.set_progress(0.0, success=0.0)
    assert learner.entropy_coef == pytest.approx(0.1)
    learner.set_progress(1.0)

    # the coefficient the update uses is the scheduled one: with advantage 0 only the entropy term moves the
    # weights, and past zero it sharpens the sampled positions' distributions instead of spreading them
    obs = make_obs()
    prompt = p.build_prompt(obs)
    samples = asyncio.run(p.sample_prompt(prompt, obs, 4, 1.0))
    items = [TrainItem(prompt, s.token_ids, s.sampler_logprobs, 0.0, grammar=s.grammar) for s in samples]

    def entropy() -> float:
        with torch.no_grad():
            (_, ent), _, mask = learner._logprobs(prompt, [it.token_ids for it in items],
                                                  [it.grammar for it in items], entropy=True)
        return float((ent * mask).sum())

    e0 = entropy()
    for _ in range(3):
        learner.update(items)
    e_late = entropy()
    learner.set_progress(0.0)
    for _ in range(6):
        learner.update(items)
    assert e_late < e0 and entropy() > e_late


def test_schedule_settings_are_checked():
    from halo.rl.config import OptimSettings

    OptimSettings(lr=1e-3, lr_final=0.0, entropy_coef_final=-0.1)
    with pytest.raises(ConfigError, match="lr_final"):
        OptimSettings(lr=1e-3, lr_final=-1e-4)
