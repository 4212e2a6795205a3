"""GRPO on the tiny Qwen3-VL while Chromium is SIGKILLed at random moments: the run finishes within its bound with
every iteration's metrics and its checkpoints; and an iteration whose episodes all broke stops the run before the
update, with its reason in metrics.jsonl."""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
from chaos_helpers import killer

from halo.rl.config import GRPOSettings
from halo.rl.grpo import GRPOTrainer
from halo.rl.health import RunUnhealthy
from halo.runtime.runs import RunDir
from halo.tasks.types import page_task

pytestmark = [pytest.mark.ml, pytest.mark.browser]


@pytest.fixture(scope="module")
def tiny_policy(tiny_model):
    torch = pytest.importorskip("torch")
    from halo.policy.base import DecodingConfig
    from halo.policy.hf_backend import HFPolicy
    from halo.policy.prompt import PromptConfig

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield HFPolicy(tiny_model, decoding=DecodingConfig(temperature=1.0, max_tokens=24, seed=0),
                   prompt=PromptConfig(max_pixels=4096 * 4, min_pixels=4096))
    torch.set_num_threads(before)


def _learner(policy):
    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.learner import LoRALearner

    return LoRALearner(policy, LoRASettings(rank=4, alpha=8), OptimSettings(lr=1e-3, max_tokens=24), temperature=1.0)


def _lines(run) -> list[dict]:
    f = run.path / "metrics.jsonl"
    return [json.loads(x) for x in f.read_text().splitlines()] if f.is_file() else []


async def test_training_survives_random_kills_without_losing_metrics_or_checkpoints(tiny_policy, chaos_pool, pages,
                                                                                    tmp_path):
    run = RunDir(tmp_path, "r")
    s = GRPOSettings(iterations=4, group_size=2, max_steps=3, checkpoint_every=1, save_episodes="none",
                     max_error_share=1.0, episode_timeout_s=60)
    trainer = GRPOTrainer(tiny_policy, _learner(tiny_policy), [page_task(f"{pages}/actions.html")], s, run,
                          pool=chaos_pool)
    killed: list[str] = []
    t0 = time.perf_counter()
    kill = asyncio.create_task(killer(chaos_pool, random.Random(11), 3, (1.0, 3.0), killed))
    history = await asyncio.wait_for(trainer.train(), 400)
    await kill
    assert time.perf_counter() - t0 < 400 and len(killed) == 3
    assert [m["iteration"] for m in _lines(run)] == [0, 1, 2, 3] == [m["iteration"] for m in history]
    for m in history:  # errored episodes, if any, are counted by reason
        assert sum(m["errors"].values()) == m["errored"]
    ck = run.path / "checkpoints"
    assert (ck / "latest").resolve().name == "iter_000003"
    assert all((ck / f"iter_{i:06d}" / "adapter_model.safetensors").is_file() for i in range(4))
    assert not list(ck.glob(".tmp-*"))


async def test_an_iteration_whose_episodes_all_broke_stops_the_run_before_the_update(tiny_policy, chaos_pool,
                                                                                     tmp_path):
    import socket

    with socket.socket() as sk:  # a site that is down
        sk.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{sk.getsockname()[1]}/page.html"
    run = RunDir(tmp_path, "r")
    learner = _learner(tiny_policy)
    s = GRPOSettings(iterations=3, group_size=2, max_steps=2, checkpoint_every=1, save_episodes="none")
    trainer = GRPOTrainer(tiny_policy, learner, [page_task(dead)], s, run, pool=chaos_pool)
    t0 = time.perf_counter()
    with pytest.raises(RunUnhealthy) as e:
        await trainer.train()
    assert time.perf_counter() - t0 < 60
    text = str(e.value)
    assert text.startswith("GRPO iteration 0: 2 of 2 episodes errored (100%")
    assert "Most were 'site' (2)" in text and dead in text and "--sites local" in text
    (rec,) = _lines(run)
    assert rec["kind"] == "stopped" and rec["errors"] == {"site": 2}
    assert not (run.path / "checkpoints").exists()  # nothing was trained, nothing saved
