"""The bounds an episode keeps whatever it is given (issue 45), in real browser episodes: a milestone regex runs on
the event loop's thread at every step, and a catastrophic one must not block the loop (and with it every deadline on
it); a GRPO group larger than ``grpo.parallel`` runs in waves over that many browser contexts, never all at once."""

from __future__ import annotations

import asyncio
import time

from halo.env.actions import Scroll, Terminate
from halo.policy.scripted import ScriptedPolicy
from halo.rl.health import error_reason
from halo.rl.rewards import Milestone, RewardConfig
from halo.rl.rollout import run_episode, run_group
from halo.tasks.types import page_task


async def test_a_catastrophic_milestone_regex_errors_the_episode_without_blocking_the_loop(make_env, tmp_path):
    """``(a|aa)+$`` on the tree text ``StaticText "a...a"`` (36 a's) backtracks exponentially: with ``re`` it held
    the loop for 10-20 s per step (and a longer run of a's, for ever: the episode's deadline never fired). Now the
    search stops within its bound and the episode is errored with the key to fix."""
    page = tmp_path / "a.html"
    page.write_text("<!doctype html><title>t</title><p>" + "a" * 36 + "</p>")
    task = page_task(page.as_uri(), goal="scroll")
    # built directly, as a config that slipped past the start-up check would be
    cfg = RewardConfig(milestones={"page": (Milestone(name="m", weight=1.0, text="(a|aa)+$"),)})
    gaps: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:  # how long the loop goes without running anything else
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(0.02)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    tick = asyncio.create_task(ticker())
    env = make_env(max_steps=3, episode_timeout_s=60)
    t0 = time.perf_counter()
    ep = await run_episode(env, ScriptedPolicy([Scroll(-100)] * 3), task,
                           reward_config=cfg)
    done.set()
    await tick
    assert ep.errored and len(ep.steps) == 0, ep
    assert "milestone m.text: the regex '(a|aa)+$' ran over 1 CPU-s" in ep.error and "simplify it" in ep.error
    assert error_reason(ep.error) == "config"
    assert max(gaps) < 8.0, max(gaps)  # the search's bound (1 CPU-s) and a shared machine's slack
    assert time.perf_counter() - t0 < 30


async def test_run_group_runs_a_group_larger_than_its_parallelism_in_waves():
    """Before: every episode of a group started at once (--group-size 100000: 150 s of silence and 3 GB)."""
    active = peak = 0
    order: list[int] = []

    class Env:
        max_steps = 1

        async def reset(self, task):
            nonlocal active, peak
            active += 1
            peak = max(peak, active)
            order.append(id(self))
            await asyncio.sleep(0.02)
            active -= 1
            raise RuntimeError("the episode ends here")

    envs = [Env() for _ in range(4)]
    task = type("T", (), {"id": "t", "site": "s"})()
    eps = await run_group(envs, ScriptedPolicy([Terminate("success")]), task, n=9, parallel=3)
    assert len(eps) == 9 and all(e.errored for e in eps)
    assert peak == 3 and len(set(order)) == 3  # three lanes, the fourth env never used
    assert len(await run_group(envs[:2], ScriptedPolicy([Terminate("success")]), task)) == 2  # one per env


async def test_grpo_runs_a_large_group_in_waves_over_parallel_browser_contexts(pool, tmp_path, monkeypatch):
    from types import SimpleNamespace

    from halo.env import env as env_module
    from halo.rl.config import GRPOSettings
    from halo.rl.grpo import GRPOTrainer
    from halo.runtime.runs import RunDir

    made = []
    init = env_module.BrowserEnv.__init__

    def counting_init(self, *a, **kw):
        made.append(self)
        init(self, *a, **kw)

    monkeypatch.setattr(env_module.BrowserEnv, "__init__", counting_init)

    page = tmp_path / "p.html"
    page.write_text("<!doctype html><title>p</title><p>hello</p>")
    s = GRPOSettings(iterations=1, group_size=7, parallel=2, max_steps=2, save_episodes="none",
                     episode_timeout_s=60)
    trainer = GRPOTrainer(ScriptedPolicy([Terminate("success")]), _StubLearner(), [page_task(page.as_uri(), goal="g")],
                          s, RunDir(tmp_path, "r"), pool=pool)
    (m,) = await trainer.train()
    assert len(made) == 2  # browser envs: min(group_size, parallel)
    assert m["episodes"] == 7 and m["errored"] == 0, m
    assert SimpleNamespace(**m).episode_length == 1.0


class _StubLearner:  # nothing to learn from a scripted policy: the update and the checkpoint are stubs
    def update(self, items, epochs=1):
        from halo.rl.learner import UpdateStats

        return UpdateStats()

    def save_adapter(self, path):
        __import__("os").makedirs(path, exist_ok=True)

    def state_dict(self):
        return {}


async def test_an_errored_episode_is_never_without_its_reason(pool, tmp_path):
    """Before: an episode errored by an exception with no message was counted as 'other', and its error was
    nowhere: not on the console, not in metrics.jsonl, not in the episode files (only the best and worst of the
    episodes that did not error were saved)."""
    import json

    from halo.cli.train_cmd import metrics_line
    from halo.rl.config import GRPOSettings
    from halo.rl.grpo import GRPOTrainer
    from halo.runtime.runs import RunDir

    calls = 0

    def script(obs):
        nonlocal calls
        calls += 1
        if calls == 1:
            raise TimeoutError()  # no message
        return Terminate("success")

    page = tmp_path / "p.html"
    page.write_text("<!doctype html><title>p</title><p>hello</p>")
    s = GRPOSettings(iterations=1, group_size=2, max_steps=2, max_error_share=1.0, episode_timeout_s=60)
    run = RunDir(tmp_path, "r")
    trainer = GRPOTrainer(ScriptedPolicy(script), _StubLearner(), [page_task(page.as_uri(), goal="g")], s, run,
                          pool=pool)
    (m,) = await trainer.train()
    assert m["errored"] == 1 and m["errors"] == {"TimeoutError": 1}, m
    (example,) = m["error_examples"].values()
    assert example.startswith("page: TimeoutError (no message) at test_episode_bounds.py:") and "in script" in example
    assert json.loads((run.path / "metrics.jsonl").read_text())["error_examples"] == m["error_examples"]
    assert "TimeoutError: page: TimeoutError (no message) at" in metrics_line(m)
    saved = [json.loads(f.read_text().splitlines()[-1]) for f in run.episodes.glob("*.jsonl")]
    assert [e["error"] for e in saved if e["errored"]] == [example.split(": ", 1)[1]]
