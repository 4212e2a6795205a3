"""The GRPO learner and trainer on the tiny Qwen3-VL: the update's sign, on-policy ratios, item building,
checkpoint/resume of a killed run (vLLM hot-loading runs against a real vLLM: tests/vllm)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from halo.rl.advantages import group_advantages
from halo.rl.config import GRPOSettings
from halo.rl.forward import score
from halo.rl.grpo import build_items
from halo.rl.rewards import RewardBreakdown
from halo.rl.rollout import Episode, Step

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "policy"))


@pytest.fixture(scope="module")
def policy(tiny_model):
    torch = pytest.importorskip("torch")
    from halo.policy.base import DecodingConfig
    from halo.policy.hf_backend import HFPolicy
    from halo.policy.prompt import PromptConfig

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    p = HFPolicy(tiny_model, decoding=DecodingConfig(temperature=1.0, max_tokens=24, seed=0),
                 prompt=PromptConfig(max_pixels=4096 * 4, min_pixels=4096))
    yield p
    torch.set_num_threads(before)


def _obs():
    from policy_helpers import make_obs

    return make_obs()


@pytest.mark.ml
def test_update_raises_positive_and_lowers_negative_advantage_samples(policy):
    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.learner import LoRALearner, TrainItem

    obs = _obs()
    prompt = policy.build_prompt(obs)
    samples = asyncio.run(policy.sample_actions(obs, 2, 1.0))
    learner = LoRALearner(policy, LoRASettings(rank=8, alpha=16), OptimSettings(lr=2e-2, max_tokens=24),
                          temperature=1.0)
    items = [TrainItem(prompt, s.token_ids, s.logprobs, adv) for s, adv in zip(samples, (1.0, -1.0))]
    before = [sum(score(policy, prompt, [s.token_ids])[0]) for s in samples]
    stats = learner.update(items)
    # first update is on-policy: the trainer's logprobs equal the sampler's, so the ratio is 1 and nothing clips
    assert stats.ratio_mean == pytest.approx(1.0, abs=1e-4) and stats.clip_frac == 0.0
    after = [sum(score(policy, prompt, [s.token_ids])[0]) for s in samples]
    assert after[0] > before[0] and after[1] < before[1], (before, after)
    # a zero advantage gives no gradient (Adam's momentum still carries the last step: build_items drops such items)
    stats = learner.update([TrainItem(prompt, samples[0].token_ids, samples[0].logprobs, 0.0)])
    assert stats.grad_norm == 0.0 and stats.items == 1


@pytest.mark.ml
def test_an_item_with_a_non_finite_logprob_is_dropped_and_a_non_finite_step_skipped(tiny_model):
    """One reply whose logprob is not finite (-inf: a token its replayed grammar forbids) made a ladder run's loss
    and then every weight NaN at once: such an item is dropped and counted, the rest still train; a gradient that
    is not finite anyway skips the optimizer step, leaving the weights as they were."""
    import math

    torch = pytest.importorskip("torch")
    from policy_helpers import learner_on_two_replies

    from halo.rl.learner import TrainItem

    pol, prompt, a, b, learner = learner_on_two_replies(tiny_model, seed=3, lr=2e-2, max_tokens=24)
    broken = TrainItem(prompt, b.token_ids, (-math.inf, *b.logprobs[1:]), -1.0)
    before = sum(score(pol, prompt, [a.token_ids])[0])
    stats = learner.update([TrainItem(prompt, a.token_ids, a.logprobs, 1.0), broken])
    assert stats.extra["nonfinite_items"] == 1 and "skipped_steps" not in stats.extra
    assert math.isfinite(stats.loss) and stats.grad_norm > 0
    assert sum(score(pol, prompt, [a.token_ids])[0]) > before  # the good item still trained
    assert learner.nonfinite[-1]["reply"] and learner.nonfinite[-1]["replayed"] is False
    weights = [p.detach().clone() for p in learner.params]
    stats = learner.update([TrainItem(prompt, a.token_ids, a.logprobs, math.inf)])  # a gradient of inf / NaN
    assert stats.extra["skipped_steps"] == 1.0 and not math.isfinite(stats.grad_norm)
    assert all(torch.equal(w, p.detach()) for w, p in zip(weights, learner.params))
    assert all(bool(torch.isfinite(p).all()) for p in learner.params)
    # over several epochs (grpo.update_epochs) every skipped step is counted: the trainer stops on a whole update's
    stats = learner.update([TrainItem(prompt, a.token_ids, a.logprobs, math.inf)], epochs=2)
    assert stats.extra["skipped_steps"] == 2.0


def test_updates_skipped_in_a_row_stop_the_run(tmp_path):
    """MAX_SKIPPED_UPDATES updates in a row with every step skipped (a non-finite gradient) stop the run with a
    ``stopped`` record; a partly skipped or clean update in between resets the count."""
    from types import SimpleNamespace

    from halo.rl.grpo import MAX_SKIPPED_UPDATES, GRPOTrainer
    from halo.rl.health import RunUnhealthy
    from halo.runtime.runs import RunDir

    tasks = [SimpleNamespace(id="t-0", family="a.one")]
    run = RunDir(tmp_path, "r")
    trainer = GRPOTrainer(SimpleNamespace(explore=0.0), None, tasks, GRPOSettings(update_epochs=2), run)
    for it in range(MAX_SKIPPED_UPDATES - 1):
        trainer._check_skipped(it, 2.0, 2)
    trainer._check_skipped(5, 1.0, 2)  # one of two steps taken: the weights moved
    for it in range(MAX_SKIPPED_UPDATES - 1):
        trainer._check_skipped(10 + it, 2.0, 2)
    with pytest.raises(RunUnhealthy, match="non-finite gradient"):
        trainer._check_skipped(20, 2.0, 2)
    rows = [json.loads(x) for x in (run.path / "metrics.jsonl").read_text().splitlines()]
    assert rows[-1]["kind"] == "stopped" and "skipped" in rows[-1]["reason"]


def _episode(ret: float, n_steps: int = 2, errored: bool = False) -> Episode:
    from policy_helpers import make_obs

    from halo.policy.parse import parse_action

    ep = Episode(id=f"e{ret}", task_id="v2.gomail-4", site="gomail", errored=errored)
    for i in range(n_steps):
        from halo.policy.base import Sample

        smp = Sample(text="x", parsed=parse_action("left_click(1, 1)"), token_ids=(1, 2), logprobs=(-0.1, -0.2))
        ep.steps.append(Step(index=i, obs=make_obs(), prompt=object(), sample=smp,
                             reward=RewardBreakdown(ret / n_steps, {}), next_url="", error=None))
    return ep


def test_build_items_uses_group_relative_advantages_and_counts_zero_variance():
    s = GRPOSettings(group_size=3)
    groups = [[_episode(1.0), _episode(0.0), _episode(2.0)], [_episode(0.5), _episode(0.5)],
              [_episode(3.0), _episode(9.0, errored=True)]]
    items, zero = build_items(groups, s)
    assert zero == 2  # the equal pair, and the group left with one episode after dropping the errored one
    assert sorted({it.advantage for it in items}) == sorted(set(group_advantages([1.0, 0.0, 2.0])) - {0.0})
    assert len(items) == 4  # the mean episode (advantage 0) and zero-variance groups add nothing
    items, zero = build_items(groups, GRPOSettings(group_size=3, skip_zero_std_groups=True))
    assert zero == 2 and len(items) == 4
    # per step (discount 1): returns-to-go [1, .5], [0, 0], [2, 1] minus the per-step means [1, .5]
    step_items, _ = build_items(groups[:1], GRPOSettings(group_size=3, advantage="step"))
    assert sorted(it.advantage for it in step_items) == pytest.approx([-1.0, -0.5, 0.5, 1.0])


@pytest.mark.ml
def _metrics(run: Path) -> list[int]:
    f = run / "metrics.jsonl"
    return [json.loads(line)["iteration"] for line in f.read_text().splitlines()] if f.is_file() else []


@pytest.mark.ml
@pytest.mark.browser
def test_killed_run_resumes_without_gaps_or_repeats(tiny_model, tmp_path):
    """Kill `halo train grpo` (SIGKILL) after its second checkpoint, resume it, and read metrics.jsonl. The learning
    rate's schedule (1e-3 to 0 over the 5 iterations) follows the iteration, resumed or not."""
    page = ROOT / "tests" / "env" / "pages"
    target = next(p for p in sorted(page.glob("*.html")) if p.name != "hang.html")
    args = [sys.executable, "-m", "halo.cli", "train", "grpo", "--tasks", target.as_uri(), "--sites", "remote",
            "--model", str(tiny_model), "--iterations", "5", "--group-size", "2", "--max-steps", "2",
            "--checkpoint-every", "1", "--lora-rank", "4", "--lr", "1e-3", "--max-tokens", "128",
            "--runs-dir", str(tmp_path), "--run-name", "r", "--save-episodes", "none",
            "--set", "grpo.lr_final=0"]
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    run = tmp_path / "r"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        if (run / "checkpoints" / "iter_000001" / "trainer_state.json").is_file():
            break
        time.sleep(0.2)
    assert proc.poll() is None, f"the run ended before it could be killed: {proc.stderr.read().decode()[-2000:]}"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done = _metrics(run)
    assert done[:2] == [0, 1]
    r = subprocess.run(args + ["--resume"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=400)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "resuming" in r.stdout and "no setting changed since the run started" in r.stdout
    assert yaml.safe_load((run / "resumes.yaml").read_text())[0]["changed"] == {}  # was: lora, always
    assert _metrics(run) == [0, 1, 2, 3, 4]
    lrs = [json.loads(line)["lr"] for line in (run / "metrics.jsonl").read_text().splitlines()]
    assert lrs == pytest.approx([1e-3, 7.5e-4, 5e-4, 2.5e-4, 0.0])
    assert (run / "checkpoints" / "latest").resolve().name == "iter_000004"
    assert (run / "checkpoints" / "latest" / "adapter_model.safetensors").is_file()


@pytest.mark.ml
def test_vision_placeholders_are_never_sampled_and_never_trained_on(policy):
    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.learner import LoRALearner, TrainItem

    assert len(policy.vision_ids) == 4
    obs = _obs()
    samples = asyncio.run(policy.sample_actions(obs, 8, 1.0))
    assert not any(policy.vision_ids.intersection(s.token_ids) for s in samples)
    learner = LoRALearner(policy, LoRASettings(rank=4, alpha=8), OptimSettings(lr=1e-3), temperature=1.0)
    bad = (*samples[0].token_ids[:2], next(iter(policy.vision_ids)))
    stats = learner.update([TrainItem(policy.build_prompt(obs), bad, (-1.0,) * len(bad), 1.0)])
    assert stats.items == 0 and stats.extra["dropped_items"] == 1.0


@pytest.mark.ml
def test_constrained_samples_train_on_the_distribution_actually_sampled(tiny_model):
    """Under grammar-constrained decoding the learner replays the grammar: its logprobs equal the sampler's masked
    ones (on-policy ratio 1), and grammar-forced tokens (logprob 0) carry no gradient."""
    import torch

    from halo.rl.forward import token_logprobs, training_batch

    p = _constrained_tiny_policy(tiny_model)
    obs = _obs()
    prompt = p.build_prompt(obs)
    (s,) = asyncio.run(p.sample_prompt(prompt, obs, 1, 1.0))
    assert s.action is not None and s.grammar and s.sampler_logprobs is not None
    mask = p.grammar_mask(s.grammar, s.token_ids)
    with torch.no_grad():
        batch = training_batch(p.encode(prompt), [s.token_ids], p.pad_id)
        lp = token_logprobs(p.model, batch, 1.0, mask)[0, batch.prompt_len - 1:batch.prompt_len - 1 + len(s.token_ids)]
    assert max(abs(a - b) for a, b in zip(lp.tolist(), s.sampler_logprobs)) <= 1e-4
    forced = sum(1 for x in s.sampler_logprobs if x > -1e-6)
    assert forced >= 3  # "<tool_call>\n{" at least: syntax the grammar forces, probability 1
    items, _ = build_items([[_constrained_episode(s, 1.0), _constrained_episode(s, 0.0)]], GRPOSettings())
    assert [it.grammar for it in items] == [s.grammar] * 2
    assert all(it.sampler_logprobs == s.sampler_logprobs for it in items)


@pytest.mark.ml
def test_explored_replies_are_drawn_uniformly_and_train_on_the_policys_own_logprobs(tiny_model):
    """``explore``: a choice drawn by exploration is uniform among the grammar's allowed tokens, so a peaked policy
    still tries the rest, while ``sampler_logprobs`` stay the policy's masked ones: the learner's ratio is 1 (not
    policy / uniform)."""
    import torch

    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.forward import token_logprobs, training_batch
    from halo.rl.learner import LoRALearner

    p = _constrained_tiny_policy(tiny_model)
    obs = _obs()
    prompt = p.build_prompt(obs)
    T = 0.05  # a peaked policy: nearly every sample of its own is its mode (at 0.1 the tiny model's first choice is
    # ~70/30, and 12 samples gave 3 replies on 2 of 8 seeds)
    own = asyncio.run(p.sample_prompt(prompt, obs, 12, T))
    assert not any(s.explored for s in own) and len({s.text for s in own}) <= 2
    p.explore = 1.0
    drawn = asyncio.run(p.sample_prompt(prompt, obs, 12, T))
    assert all(s.explored and s.action is not None for s in drawn)
    assert len({s.text for s in drawn}) >= 4  # uniform choices: not the policy's mode
    assert not asyncio.run(p.sample_single(obs)).explored  # greedy (temperature 0): never
    with torch.no_grad():
        for s in drawn:
            batch = training_batch(p.encode(prompt), [s.token_ids], p.pad_id)
            lp = token_logprobs(p.model, batch, T, p.grammar_mask(s.grammar, s.token_ids))
            lp = lp[0, batch.prompt_len - 1:batch.prompt_len - 1 + len(s.token_ids)]
            assert max(abs(a - b) for a, b in zip(lp.tolist(), s.sampler_logprobs)) <= 1e-3
    assert min(sum(s.sampler_logprobs) for s in drawn) < -5  # an unlikely reply carries its own small logprob
    items, _ = build_items([[_constrained_episode(s, float(i % 2), prompt) for i, s in enumerate(drawn)]],
                           GRPOSettings())
    learner = LoRALearner(p, LoRASettings(rank=4, alpha=8), OptimSettings(lr=1e-3), temperature=T)
    stats = learner.update(items)
    assert stats.ratio_mean == pytest.approx(1.0, abs=1e-3) and stats.clip_frac == 0.0
    p.explore = 0.2  # per choice: some replies have a drawn choice, some none
    some = asyncio.run(p.sample_prompt(prompt, obs, 16, T))
    assert 0 < sum(s.explored for s in some) < 16


@pytest.mark.ml
def test_explore_per_reply_draws_every_choice_of_a_drawn_reply_and_none_of_the_others():
    """``_Explore(per_reply=True)``: whether a reply is drawn is decided once, so its every choice is uniform and the
    other replies are wholly the policy's; per choice, a reply mixes both."""
    import torch

    from halo.policy.hf_backend import _Explore

    def run(per_reply: bool):
        ex = _Explore(0.5, 1.0, torch.Generator().manual_seed(0), stop_ids=[0], per_reply=per_reply)
        scores = torch.zeros(64, 8)
        scores[:, 5:] = float("-inf")  # 4 allowed tokens (0 the stop) at each step
        scores[:, 1] = 5.0  # the policy's favourite
        for _ in range(6):
            out = ex(None, scores.clone())
        return torch.stack(ex.drawn, 1), out

    drawn, out = run(True)
    assert 10 < int(drawn[:, 0].sum()) < 54
    assert bool((drawn == drawn[:, :1]).all())  # each row: all steps drawn or none
    assert torch.isinf(out[:, 5:]).all() and bool((out[drawn[:, -1], :5] == 0).all())  # uniform over the allowed
    assert bool((out[~drawn[:, -1], 1] == 5.0).all())  # the others: the policy's own scores
    mixed, _ = run(False)
    assert not bool((mixed == mixed[:, :1]).all())


def test_explore_is_refused_where_replies_are_not_drawn_here(tmp_path):
    from halo.errors import ConfigError
    from halo.rl.grpo import check_explore

    with pytest.raises(ConfigError, match="explore"):
        GRPOSettings(explore=1.0)

    class Server:
        name = "openai"
        decoding = None

    with pytest.raises(ConfigError, match="in-process sampler"):
        check_explore(Server(), None)
    with pytest.raises(ConfigError, match="--ray"):
        check_explore(Server(), object())
    # explore_stuck alone draws replies the same way: the trainer refuses it on such a sampler before anything runs
    from types import SimpleNamespace

    from halo.rl.grpo import GRPOTrainer
    from halo.runtime.runs import RunDir

    tasks = [SimpleNamespace(id="a.one-0", family="a.one")]
    with pytest.raises(ConfigError, match="in-process sampler"):
        GRPOTrainer(Server(), None, tasks, GRPOSettings(explore_stuck=0.5), RunDir(tmp_path, "r"))


def test_adaptive_explore_follows_each_familys_failure_rate(tmp_path):
    """``explore_adapt``: a family that fails explores at the full rate, one the policy now solves 4 times in 5 at a
    fifth of it, one not yet tried at the full rate; without it every family gets ``explore``."""
    from types import SimpleNamespace

    from halo.errors import ConfigError
    from halo.rl.grpo import GRPOTrainer
    from halo.runtime.runs import RunDir

    policy = SimpleNamespace(explore=0.0, decoding=SimpleNamespace(constrained=True))
    tasks = [SimpleNamespace(id=f"{f}-{i}", family=f) for f in ("a.one", "b.two", "c.three") for i in range(3)]
    run = RunDir(tmp_path, "r")
    adapt = GRPOTrainer(policy, None, tasks, GRPOSettings(explore=0.3, explore_adapt=True), run)
    plain = GRPOTrainer(policy, None, tasks, GRPOSettings(explore=0.3), run)
    for t in (adapt, plain):
        t.sampler.record(tasks[0], [False] * 8)
        t.sampler.record(tasks[3], [True, True, True, True, False] * 2)
    assert adapt.explore_for(tasks[0]) == pytest.approx(0.3)
    assert adapt.explore_for(tasks[4]) == pytest.approx(0.06)
    assert adapt.explore_for(tasks[6]) == pytest.approx(0.3)
    assert {plain.explore_for(t) for t in tasks} == {0.3}
    with pytest.raises(ConfigError, match="explore_adapt"):
        GRPOSettings(explore_adapt=True)
    with pytest.raises(ConfigError, match="explore_unit"):
        GRPOSettings(explore=0.3, explore_unit="token")


def test_adaptive_explore_can_follow_the_policys_own_episodes(tmp_path):
    """``explore_adapt_own``: the failure rate is that of the family's episodes with no drawn choice (a drawn
    two-step reply nearly always fails, and counting it kept exploration high); the family's until it has any."""
    from types import SimpleNamespace

    from halo.errors import ConfigError
    from halo.rl.grpo import GRPOTrainer
    from halo.runtime.runs import RunDir

    def episode(success: bool, explored: bool, errored: bool = False):
        step = SimpleNamespace(sample=SimpleNamespace(explored=explored))
        return SimpleNamespace(success=success, errored=errored, steps=[step, step])

    policy = SimpleNamespace(explore=0.0, decoding=SimpleNamespace(constrained=True))
    tasks = [SimpleNamespace(id=f"{f}-{i}", family=f) for f in ("a.one", "b.two") for i in range(3)]
    run = RunDir(tmp_path, "r")
    own = GRPOTrainer(policy, None, tasks, GRPOSettings(explore=0.3, explore_adapt=True, explore_adapt_own=True), run)
    fam = GRPOTrainer(policy, None, tasks, GRPOSettings(explore=0.3, explore_adapt=True), run)
    group = [episode(True, False)] * 3 + [episode(False, False)] + [episode(False, True)] * 4 + \
        [episode(True, False, errored=True)]
    for t in (own, fam):
        t.sampler.record(tasks[0], [e.success for e in group if not e.errored])
        t.sampler.record(tasks[3], [True, False])
    own._record_own(tasks[0], group)
    assert own.explore_for(tasks[0]) == pytest.approx(0.3 * (1 - 3 / 4))  # 3 of the policy's 4 own episodes
    assert fam.explore_for(tasks[0]) == pytest.approx(0.3 * (1 - 3 / 8))  # 3 of all 8
    assert own.explore_for(tasks[3]) == pytest.approx(0.15)  # no own episode recorded yet: the family's rate
    with pytest.raises(ConfigError, match="explore_adapt_own"):
        GRPOSettings(explore=0.3, explore_adapt_own=True)
    # explore_per_episode: the rate over the family's mean episode length (two steps here), its own window
    spread = GRPOTrainer(policy, None, tasks, GRPOSettings(explore=0.3, explore_adapt=True, explore_adapt_own=True,
                                                           explore_per_episode=True), run)
    spread.sampler.record(tasks[0], [e.success for e in group if not e.errored])
    spread._record_own(tasks[0], group)
    assert spread.explore_for(tasks[0]) == pytest.approx(0.3 * (1 - 3 / 4))  # no length recorded yet: as before
    spread._record_lengths(tasks[0], group)
    assert spread.explore_for(tasks[0]) == pytest.approx(0.3 * (1 - 3 / 4) / 2)
    assert spread.explore_for(tasks[3]) == pytest.approx(0.3)  # another family: its own lengths (none yet)
    with pytest.raises(ConfigError, match="explore_per_episode"):
        GRPOSettings(explore_per_episode=True)
    # explore_stuck: the same failure rate, not spread over the episode (it acts where the policy repeats itself)
    stuck = GRPOTrainer(policy, None, tasks, GRPOSettings(explore=0.3, explore_adapt=True, explore_adapt_own=True,
                                                          explore_per_episode=True, explore_stuck=0.5), run)
    stuck.sampler.record(tasks[0], [e.success for e in group if not e.errored])
    stuck._record_own(tasks[0], group)
    stuck._record_lengths(tasks[0], group)
    assert stuck.stuck_for(tasks[0]) == pytest.approx(0.5 * (1 - 3 / 4))
    assert stuck.explore_for(tasks[0]) == pytest.approx(0.3 * (1 - 3 / 4) / 2)  # unchanged by it
    assert spread.stuck_for(tasks[0]) == 0.0
    with pytest.raises(ConfigError, match="explore_unit: value"):
        GRPOSettings(explore=0.3, explore_novel=True)
    with pytest.raises(ConfigError, match="explore_fill is a prior"):
        GRPOSettings(explore=0.3, explore_fill=True)
    with pytest.raises(ConfigError, match="explore_stuck"):
        GRPOSettings(explore=0.3, explore_stuck=1.0)


def test_the_trainer_ends_a_ladders_early_goal_episodes_after_ladder_goal_steps(tmp_path):
    """``ladder_goal_steps``: the top rung's groups drawn before it opens are rolled out with that step cap, the
    lower rung's with the run's ``max_steps``; once the top rung opens its episodes get the whole cap."""
    from types import SimpleNamespace

    from policy_helpers import make_obs

    from halo.env.actions import LeftClick
    from halo.env.types import StepInfo, StepResult
    from halo.errors import ConfigError
    from halo.policy.scripted import ScriptedPolicy
    from halo.rl.grpo import GRPOTrainer
    from halo.runtime.runs import RunDir

    class Env:
        max_steps = 20

        async def reset(self, task):
            return make_obs()

        async def step(self, action):
            return StepResult(observation=make_obs(), reward=0.0, done=False, truncated=False, info=StepInfo())

    tasks = [SimpleNamespace(id=f"{f}-{i}", family=f, site="s") for f in ("l.one", "l.top") for i in range(3)]
    settings = GRPOSettings(curriculum="ladder", ladder_goal=0.5, ladder_goal_steps=2, max_steps=5, group_size=2,
                            tasks_per_iteration=8, curriculum_window=4)
    trainer = GRPOTrainer(ScriptedPolicy([LeftClick(1, 1)]), None, tasks, settings, RunDir(tmp_path, "r"))
    envs = [Env(), Env()]

    def lengths(it: int) -> dict[str, set[int]]:
        out: dict[str, set[int]] = {}
        for g in asyncio.run(trainer.roll(it, envs)).groups:
            for e in g:
                assert not e.errored, e.error
            out.setdefault(g[0].task_id.split("-")[0], set()).update(len(e.steps) for e in g)
        return out

    assert lengths(0) == {"l.one": {5}, "l.top": {2}}
    trainer.sampler.record(tasks[0], [True] * 4)  # the first rung learned: the top one opens
    assert trainer.sampler.open == 2
    assert lengths(1).get("l.top") == {5}
    with pytest.raises(ConfigError, match="ladder_goal_steps"):
        GRPOSettings(curriculum="ladder", ladder_goal_steps=2)
    with pytest.raises(ConfigError, match="ladder_goal_steps"):
        GRPOSettings(ladder_goal=0.1, ladder_goal_steps=2)
    last = GRPOTrainer(ScriptedPolicy([LeftClick(1, 1)]), None, tasks,
                       dataclasses.replace(settings, ladder_goal_last=0.4), RunDir(tmp_path, "r2"))
    assert last.sampler.step_cap(tasks[3]) is None  # l.one, below the goal, leads: the goal's draws run whole
    with pytest.raises(ConfigError, match="ladder_goal_last"):
        GRPOSettings(ladder_goal_last=0.2)


@pytest.mark.ml
def test_explore_shares_may_differ_per_row():
    """``_Explore`` with one share per row (``HFPolicy.explore_stuck``): a row at 0 is never drawn, one at 1 always."""
    import torch

    from halo.policy.hf_backend import _Explore

    ex = _Explore([0.0, 1.0] * 16, 1.0, torch.Generator().manual_seed(0), stop_ids=[0], per_reply=True)
    scores = torch.zeros(32, 8)
    scores[:, 5:] = float("-inf")
    ex(None, scores.clone())
    assert ex.drawn[0].tolist() == [False, True] * 16


def _constrained_tiny_policy(tiny_model):
    from policy_helpers import constrained_tiny_policy

    return constrained_tiny_policy(tiny_model)


def _constrained_episode(sample, ret: float, prompt=None) -> Episode:
    from policy_helpers import make_obs

    ep = Episode(id=f"c{ret}", task_id="t", site="gomail")
    ep.steps.append(Step(index=0, obs=make_obs(), prompt=prompt if prompt is not None else object(), sample=sample,
                         reward=RewardBreakdown(ret, {}), next_url="", error=None))
    return ep


@pytest.mark.ml
def test_zero_advantage_steps_are_kept_for_an_entropy_bonus(tiny_model):
    """A group whose episodes all got the same return trains nothing, unless an entropy bonus is on: then its steps
    are items (advantage 0) and the bonus still applies to them."""
    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.learner import LoRALearner

    p = _constrained_tiny_policy(tiny_model)
    obs = _obs()
    prompt = p.build_prompt(obs)
    (s,) = asyncio.run(p.sample_prompt(prompt, obs, 1, 1.0))
    group = [[_constrained_episode(s, 0.5, prompt), _constrained_episode(s, 0.5, prompt)]]
    assert build_items(group, GRPOSettings()) == ([], 1)
    items, zero = build_items(group, GRPOSettings(), keep_zero_advantage=True)
    assert zero == 1 and len(items) == 2 and all(it.advantage == 0.0 for it in items)
    learner = LoRALearner(p, LoRASettings(rank=4, alpha=8), OptimSettings(lr=1e-3, entropy_coef=0.1), temperature=1.0)
    stats = learner.update(items)
    assert stats.items == 2 and stats.entropy > 0 and stats.grad_norm > 0
    plain = LoRALearner(p, LoRASettings(rank=4, alpha=8), OptimSettings(lr=1e-3), temperature=1.0).update(items)
    assert plain.grad_norm == 0  # the same items without the bonus: nothing to learn
