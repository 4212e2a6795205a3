"""Asynchronous GRPO (grpo.max_staleness, rl/pipeline.py): the staleness bound with a learner slowed on purpose, the
drop rule, the decoupled loss's importance weight on a toy, and a killed async run resumed equal to an uninterrupted
one. The tiny Qwen3-VL samples in process on an env without a browser (one click pays)."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from halo.errors import ConfigError
from halo.rl.config import GRPOSettings
from halo.rl.pipeline import last_startable, staleness

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "policy"))


# ------------------------------------------------------------------ the loss's correction on a toy
def _toy_grad(logits, behaviour, adv, action: int, corrected: bool, cap: float = 2.0):
    """The gradient wrt ``logits`` of the loss of one sampled ``action`` (one token), the proximal policy being the
    learner's current one (the update's first step)."""
    import torch

    from halo.rl.loss import policy_loss

    th = logits.clone().requires_grad_(True)
    lp = torch.log_softmax(th, -1)[action].view(1, 1)
    old = lp.detach() if corrected else behaviour[action].view(1, 1)  # today's loss: the sampler's as the old policy
    out = policy_loss(lp, old, torch.tensor([adv[action]]), torch.ones(1, 1), loss_type="token_mean",
                      behaviour_logprobs_BT=behaviour[action].view(1, 1) if corrected else None, tis_cap=cap)
    out.loss.backward()
    return th.grad, out


def test_importance_weight_is_one_when_sampler_and_learner_agree():
    """Behaviour logprobs equal to the proximal ones: weight 1 on every token, the same loss as without them."""
    import torch

    from halo.rl.loss import policy_loss

    torch.manual_seed(0)
    lp = torch.randn(3, 5) - 2
    adv, mask = torch.tensor([1.0, -0.5, 2.0]), torch.ones(3, 5)
    plain = policy_loss(lp, lp, adv, mask)
    dec = policy_loss(lp, lp, adv, mask, behaviour_logprobs_BT=lp.clone())
    assert float(dec.loss) == pytest.approx(float(plain.loss), abs=1e-7)
    assert dec.is_weight_mean == pytest.approx(1.0) and dec.is_truncated_frac == 0.0


def test_decoupled_loss_corrects_a_known_lag_on_a_toy():
    """Two actions; the learner is at pi = (0.8, 0.2), the stale sampler drew from mu = (0.5, 0.5); advantages +1, -1.
    The expected gradient over mu's samples with weights min(pi / mu, 2) (1.6 and 0.4) is exactly the on-policy
    gradient under pi; today's loss (mu as the old policy, the ratio clipped at 1.2) is not; a cap of 1.2 truncates
    the first weight and says so."""
    import torch

    pi, mu = torch.tensor([0.8, 0.2]), torch.tensor([0.5, 0.5])
    logits, behaviour, adv = pi.log(), mu.log(), [1.0, -1.0]
    on_policy = sum(pi[a] * _toy_grad(logits, logits.log_softmax(-1), adv, a, True)[0] for a in range(2))
    corrected = sum(mu[a] * _toy_grad(logits, behaviour, adv, a, True)[0] for a in range(2))
    uncorrected = sum(mu[a] * _toy_grad(logits, behaviour, adv, a, False)[0] for a in range(2))
    assert torch.allclose(corrected, on_policy, atol=1e-6)
    assert not torch.allclose(uncorrected, on_policy, atol=1e-2)
    _, out = _toy_grad(logits, behaviour, adv, 0, True, cap=1.2)
    assert out.is_weight_mean == pytest.approx(1.2) and out.is_truncated_frac == 1.0
    _, out = _toy_grad(logits, behaviour, adv, 1, True, cap=1.2)
    assert out.is_weight_mean == pytest.approx(0.4) and out.is_truncated_frac == 0.0


# ------------------------------------------------------------------ bound and drop rule
def _group(*versions):
    steps = [SimpleNamespace(sample=SimpleNamespace(version=v)) for v in versions]
    return [SimpleNamespace(steps=steps)]


def test_a_group_older_than_k_versions_is_dropped_and_counted():
    """At learner version 5 with k = 1: steps of versions 4 and 5 train (staleness 1 and 0), a group with one step
    of version 3 (an episode that spanned two updates) is dropped whole; unversioned steps are counted."""
    groups = [_group(5, 5), _group(4, 5), _group(3, 4, 5), _group(None, 5)]
    kept, dropped, hist, unversioned = staleness(groups, 5, 1)
    assert len(kept) == 3 and dropped == 1
    assert dict(hist) == {0: 4, 1: 1} and unversioned == 1
    assert staleness(groups, 5, 2)[1] == 0


def test_rollouts_start_at_most_k_ahead_and_never_past_a_checkpoint():
    every3 = lambda it: (it + 1) % 3 == 0 or it == 9
    assert last_startable(-1, 1, every3, 9) == 1  # before any update: iterations 0 and 1 (version 0)
    assert last_startable(0, 1, every3, 9) == 2
    assert last_startable(1, 1, every3, 9) == 2  # 3 waits for the checkpoint of 2
    assert last_startable(2, 2, every3, 9) == 5
    assert last_startable(3, 2, every3, 9) == 5
    assert last_startable(7, 4, every3, 9) == 8


def test_async_is_refused_where_samples_carry_no_version(tiny_model):
    from halo.jobs.grpo import GRPOJob, check_grpo
    from halo.policy.modes import get_mode
    from halo.rl.config import load_rl_config
    from halo.rl.pipeline import check_async

    cfg = load_rl_config(None, [])
    cfg = cfg.__class__(**{**cfg.__dict__, "grpo": GRPOSettings(max_staleness=1)})
    with pytest.raises(ConfigError, match="max_staleness"):  # an OpenAI server: no adapter versions
        check_grpo(GRPOJob(tasks=["x"]), cfg, get_mode("gpt_baseline"))
    check_grpo(GRPOJob(tasks=["x"]), cfg, get_mode("qwen3vl_base"))  # vLLM: versions through LoraSync
    check_grpo(GRPOJob(tasks=["x"], ray="local"), cfg, get_mode("tiny"))  # Ray: the policy actor records them
    check_grpo(GRPOJob(tasks=["x"], ray="local"), cfg, get_mode("qwen3vl_base"))  # Ray on vLLM: through LoraSync
    with pytest.raises(ConfigError, match="max_staleness"):
        check_grpo(GRPOJob(tasks=["x"], ray="local"), cfg, get_mode("gpt_baseline"))
    check_grpo(GRPOJob(tasks=["x"]), cfg, get_mode("tiny"))
    with pytest.raises(ConfigError, match="max_staleness"):
        check_async(SimpleNamespace(), SimpleNamespace(update_versioned=None), None, lambda *a: None)
    with pytest.raises(ConfigError, match="max_staleness must be"):
        GRPOSettings(max_staleness=5)


# ------------------------------------------------------------------ runs on the tiny model
SLOW_S = 1.5  # the slowed learner's extra time per update: far longer than two iterations' rollouts (~0.3 s each)

class ClickEnv:
    """No browser: the page of policy_helpers.make_obs; clicking "Sign in" (element 12) succeeds (one step)."""

    max_steps = 1
    episode_timeout_s = None

    async def reset(self, task):
        from policy_helpers import make_obs

        return make_obs(step=0, last_actions=())

    async def step(self, action):
        from policy_helpers import make_obs

        from halo.env.types import StepInfo, StepResult
        from halo.tasks.types import Grade

        ok = getattr(action, "element", None) == "12"
        grade = Grade(success=ok, reward=float(ok)) if ok else None
        return StepResult(observation=make_obs(step=1), reward=float(ok), done=ok, truncated=False,
                          info=StepInfo(grade=grade))


def _learner_class(delay_s: float):
    from halo.rl.learner import LoRALearner

    class Slow(LoRALearner):
        """A learner whose update takes ``delay_s`` longer (before it takes the sampler's lock)."""

        def update_versioned(self, items, epochs, version):
            time.sleep(delay_s)
            return super().update_versioned(items, epochs, version)

    return Slow


def _trainer(tiny_model, run, delay_s: float, **kw):
    import torch
    from policy_helpers import constrained_tiny_policy

    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.grpo import GRPOTrainer

    torch.manual_seed(0)
    policy = constrained_tiny_policy(tiny_model, seed=None)
    learner = _learner_class(delay_s)(policy, LoRASettings(rank=4, alpha=8), OptimSettings(lr=3e-3),
                                      temperature=1.0)
    settings = GRPOSettings(**{"iterations": 4, "group_size": 2, "parallel": 1, "max_steps": 1, "temperature": 1.0,
                               "save_episodes": "none", "checkpoint_every": 100, **kw})
    task = SimpleNamespace(id="test.login", site="test")
    return GRPOTrainer(policy, learner, [task], settings, run, envs=[ClickEnv()])


def _records(run_path: Path) -> list[dict]:
    return [json.loads(line) for line in (run_path / "metrics.jsonl").read_text().splitlines()]


@pytest.mark.ml
@pytest.mark.parametrize("k", [1, 2])
def test_staleness_never_exceeds_k_with_a_slow_learner(tiny_model, tmp_path, k):
    """Each update sleeps 1.5 s (an iteration's rollouts take ~0.3 s): the rollouts run ahead as far as k allows, and no trained step is more than k
    versions behind the learner; none is dropped. Versions are published by the update: iteration i trains at
    version i."""
    from halo.runtime.runs import RunDir

    run = RunDir(tmp_path, "r")
    trainer = _trainer(tiny_model, run, SLOW_S, iterations=5, max_staleness=k)
    history = asyncio.run(trainer.train())
    assert [m["iteration"] for m in history] == [0, 1, 2, 3, 4]
    seen = set()
    for m in history:
        a = m["async"]
        assert a["version"] == m["iteration"] and a["dropped_groups"] == 0 and "unversioned_steps" not in a
        lags = {int(v) for v in a["staleness"]}
        assert lags and max(lags) <= k
        seen |= lags
    weights = [m["async"]["is_weight_mean"] for m in history if m["train_items"]]  # no items, no weights
    assert weights and all(0 < w <= 2 for w in weights)
    assert max(seen) == k  # the rollouts did run ahead of the slowed learner
    assert trainer.policy.weights_version == 5
    assert (tmp_path / "r" / "checkpoints" / "iter_000004").is_dir()


@pytest.mark.ml
def test_a_killed_async_run_resumes_equal_to_the_uninterrupted_one(tiny_model, tmp_path):
    """k = 1, a checkpoint every 2 iterations. One run goes through 4 iterations; another is killed (an error out
    of the loop) after iteration 2 with iteration 3's rollouts in flight, then resumed from the checkpoint of
    iteration 1 (a new sampler and learner): iteration 2 is re-run, and the metrics of all four iterations equal the
    uninterrupted run's, timings aside."""
    from halo.rl.checkpoint import latest_checkpoint, load_checkpoint, truncate_metrics
    from halo.runtime.runs import RunDir

    kw = {"max_staleness": 1, "checkpoint_every": 2}
    whole = RunDir(tmp_path, "whole")
    asyncio.run(_trainer(tiny_model, whole, SLOW_S, **kw).train())

    class Killed(Exception):
        pass

    def kill(res):
        if res.iteration == 2:
            raise Killed

    killed = RunDir(tmp_path, "killed")
    with pytest.raises(Killed):
        asyncio.run(_trainer(tiny_model, killed, SLOW_S, **kw).train(on_iteration=kill))
    assert [r["iteration"] for r in _records(killed.path)] == [0, 1, 2]
    resumed = _trainer(tiny_model, RunDir(tmp_path, "killed"), SLOW_S, **kw)
    ck = latest_checkpoint(killed.path)
    last = load_checkpoint(ck, resumed.learner)
    assert last == 1 and truncate_metrics(killed.path / "metrics.jsonl", last) == 1
    asyncio.run(resumed.train(start_iteration=last + 1))

    def timeless(r):
        return {k: ({kk: vv for kk, vv in v.items() if not kk.startswith("time")} if k == "async" else v)
                for k, v in r.items() if not k.startswith("time")}

    a, b = _records(whole.path), _records(killed.path)
    assert [r["iteration"] for r in b] == [0, 1, 2, 3]
    assert [timeless(r) for r in b] == [timeless(r) for r in a]
    assert any(int(v) == 1 for r in a for v in r["async"]["staleness"])  # it did run one version ahead
