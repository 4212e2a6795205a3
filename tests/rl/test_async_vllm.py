"""Asynchronous GRPO with a vLLM sampler (rl/lora_sync.py, rl/pipeline.py), without a server: HALO's real
``OpenAIPolicy`` and ``LoraSync`` talk to ``FakeVLLMTransport``, a TEST FAKE of vLLM's chat and LoRA endpoints
(in-process, an httpx transport) that records which adapter name each request used and fails any request on a name
that is not loaded or unloaded under it. The learner is a stub slowed on purpose (no model: the real one runs in
the vLLM lane, tests/vllm), so that syncs happen while episodes are in flight. The real-server test of the same is
``test_async_grpo_on_vllm_hot_loads_while_rollouts_run`` in tests/vllm/test_vllm_lane.py."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest

from halo.errors import ConfigError, PolicyError

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "policy"))

BASE = "fake-base"
REPLY = ('<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [500, 300]}}\n'
         '</tool_call>')
LOGPROBS = [-0.5, -0.25, -0.125]


class FakeVLLMTransport(httpx.AsyncBaseTransport):
    """TEST FAKE of a vLLM server with runtime LoRA updating (not vLLM: replies are scripted). Each chat request takes
    ``latency_s``; its first token id is 1000 + the index of the model name it was sent with in ``names`` (the base
    first, then each loaded adapter), so a test can tell from a sample which name drew it. Anything vLLM would
    refuse or that would mix weights is recorded in ``violations``: a request on a name that is not loaded, a name
    unloaded while a request on it is in flight."""

    def __init__(self, latency_s: float = 0.05):
        self.latency_s = latency_s
        self.names = [BASE]
        self.served = {BASE}
        self.in_flight: Counter[str] = Counter()
        self.events: list[tuple[str, str, int]] = []  # (load | unload, name, requests in flight on any name)
        self.violations: list[str] = []
        self.requests: Counter[str] = Counter()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        path = request.url.path
        if path.endswith("/load_lora_adapter"):
            name = body["lora_name"]
            assert (Path(body["lora_path"]) / "adapter_config.json").is_file()
            self.served.add(name)
            self.names.append(name)
            self.events.append(("load", name, sum(self.in_flight.values())))
            return httpx.Response(200, text="ok")
        if path.endswith("/unload_lora_adapter"):
            name = body["lora_name"]
            if self.in_flight[name]:
                self.violations.append(f"{name} unloaded with {self.in_flight[name]} requests in flight on it")
            self.served.discard(name)
            self.events.append(("unload", name, sum(self.in_flight.values())))
            return httpx.Response(200, text="ok")
        name = body["model"]
        if name not in self.served:
            self.violations.append(f"request on {name}, which is not loaded")
            return httpx.Response(404, json={"error": {"message": f"The model `{name}` does not exist."}})
        self.requests[name] += 1
        self.in_flight[name] += 1
        try:
            await asyncio.sleep(self.latency_s)
        finally:
            self.in_flight[name] -= 1
        if name not in self.served:
            self.violations.append(f"{name} was unloaded while a request on it ran")
        tid = 1000 + self.names.index(name)
        choices = [{"index": i, "finish_reason": "stop", "message": {"role": "assistant", "content": REPLY},
                    "token_ids": [tid, 101, 102],
                    "logprobs": {"content": [{"token": f"t{k}", "logprob": lp} for k, lp in enumerate(LOGPROBS)]}}
                   for i in range(int(body.get("n", 1)))]
        return httpx.Response(200, json={"id": "fake", "object": "chat.completion", "model": name,
                                         "choices": choices, "usage": {"prompt_tokens": 50}})

    def name_of(self, sample) -> str:
        return self.names[sample.token_ids[0] - 1000]


def _sampler(transport: FakeVLLMTransport, constrained: bool = False):
    from halo.policy.base import DecodingConfig
    from halo.policy.openai_backend import OpenAIPolicy, ServerConfig

    return OpenAIPolicy(ServerConfig(base_url="http://fake-vllm/v1", model=BASE, kind="vllm"),
                        decoding=DecodingConfig(temperature=1.0, max_tokens=32, constrained=constrained),
                        client=httpx.AsyncClient(transport=transport))


def _adapter(tmp_path: Path, name: str) -> str:
    d = tmp_path / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "adapter_config.json").write_text("{}")
    return str(d)


def _version_of(name: str, prefix: str) -> int:
    """The version the pipeline gives a name: the starting one 0, ``<prefix>-v<i>`` (after iteration i) i + 1."""
    return 0 if name == BASE else int(name.removeprefix(prefix + "-v")) + 1


# ------------------------------------------------------------------ the sync alone
async def test_a_name_is_unloaded_only_after_its_last_request(tmp_path):
    """A request sent on version 0's name is in flight across two syncs: each sync switches the sampler at once, and
    the names are unloaded only when no request holds them (the base model, not the sync's, never); each
    completion records the version of the name it was sent with."""
    from policy_helpers import make_obs

    from halo.rl.lora_sync import LoraSync

    fake = FakeVLLMTransport(latency_s=0.3)
    pol = _sampler(fake)
    sync = LoraSync(pol, prefix="halo-t")
    assert pol.lora_versions is sync and sync.version == 0
    obs = make_obs()
    slow = asyncio.create_task(pol.sample_actions(obs))  # on the base model, version 0
    await asyncio.sleep(0.05)
    await sync(0, _adapter(tmp_path, "a0"))  # version 1
    assert pol.server.model == "halo-t-v000000" and sync.version == 1
    mid = asyncio.create_task(pol.sample_actions(obs))  # on version 1's name
    await asyncio.sleep(0.05)
    await sync(1, _adapter(tmp_path, "a1"))  # version 2: version 1's name is held by ``mid``
    assert "halo-t-v000000" in fake.served and sync.unloaded == []
    (s0,), (s1,) = await slow, await mid
    assert (s0.version, fake.name_of(s0)) == (0, BASE)
    assert (s1.version, fake.name_of(s1)) == (1, "halo-t-v000000")
    assert sync.unloaded == ["halo-t-v000000"] and fake.served == {BASE, "halo-t-v000001"}
    (s2,) = await pol.sample_actions(obs)
    assert (s2.version, fake.name_of(s2)) == (2, "halo-t-v000001")
    assert fake.violations == [] and not sync.in_use
    # in turn (nothing in flight at the sync): the previous name goes at the switch, as before
    await sync(2, _adapter(tmp_path, "a2"))
    assert sync.unloaded == ["halo-t-v000000", "halo-t-v000001"] and sync.loaded == ["halo-t-v000002"]
    # a failed request lets its name go too
    fake.served.discard("halo-t-v000002")
    with pytest.raises(PolicyError, match="HTTP 404"):
        await pol.sample_actions(obs)
    assert not sync.in_use
    await pol.aclose()


def test_check_async_accepts_vllm_with_its_sync_and_refuses_unversioned_samplers():
    from halo.jobs.grpo import GRPOJob, check_grpo
    from halo.policy.modes import get_mode
    from halo.rl.config import GRPOSettings, load_rl_config
    from halo.rl.lora_sync import LoraSync
    from halo.rl.pipeline import check_async

    learner = SimpleNamespace(update_versioned=None)
    pol = _sampler(FakeVLLMTransport())
    sync = LoraSync(pol)
    check_async(pol, learner, None, sync)
    with pytest.raises(ConfigError, match="--ray"):  # Ray rollouts that record no version
        check_async(pol, learner, object(), sync)
    check_async(pol, learner, SimpleNamespace(records_versions=True), sync)  # RayRollouts on this sampler
    with pytest.raises(ConfigError, match="record none"):  # a sync that records no version
        check_async(pol, learner, None, lambda *a: None)
    with pytest.raises(ConfigError, match="record none"):  # a sampler that is not the sync's
        check_async(_sampler(FakeVLLMTransport()), learner, None, sync)
    with pytest.raises(ConfigError, match="versioned update"):
        check_async(pol, SimpleNamespace(), None, sync)
    cfg = load_rl_config(None, [])
    cfg = cfg.__class__(**{**cfg.__dict__, "grpo": GRPOSettings(max_staleness=1)})
    check_grpo(GRPOJob(tasks=["x"]), cfg, get_mode("tiny_vllm"))
    check_grpo(GRPOJob(tasks=["x"]), cfg, get_mode("qwen3vl_base"))
    check_grpo(GRPOJob(tasks=["x"], ray="local"), cfg, get_mode("tiny_vllm"))  # units record their name's version
    with pytest.raises(ConfigError, match="adapter version"):
        check_grpo(GRPOJob(tasks=["x"]), cfg, get_mode("gpt_baseline"))


# ------------------------------------------------------------------ a GRPO run on the fake server
class WalkEnv:
    """No browser: three steps on policy_helpers' page, done at the third; it succeeds on env ``wins`` and fails on
    the other, so each group (one episode on each) has variance and every step trains."""

    max_steps = 3
    episode_timeout_s = None

    def __init__(self, wins: bool):
        self.wins, self.t = wins, 0

    async def reset(self, task):
        from policy_helpers import make_obs

        self.t = 0
        return make_obs(step=0, last_actions=())

    async def step(self, action):
        from policy_helpers import make_obs

        from halo.env.types import StepInfo, StepResult
        from halo.tasks.types import Grade

        self.t += 1
        done = self.t == 3
        grade = Grade(success=self.wins, reward=float(self.wins)) if done else None
        return StepResult(observation=make_obs(step=self.t), reward=float(done and self.wins), done=done,
                          truncated=False, info=StepInfo(grade=grade))


class SlowStubLearner:
    """A stub of ``LoRALearner`` (no model) whose versioned update takes ``delay_s``, in the trainer's worker thread
    as the real one's: it records the items and the version of each update, and saves an empty adapter."""

    def __init__(self, delay_s: float):
        self.delay_s = delay_s
        self.policy = SimpleNamespace(weights_version=None)
        self.updates: list[tuple[int, list]] = []

    def update_versioned(self, items, epochs, version):
        from halo.rl.learner import UpdateStats

        time.sleep(self.delay_s)
        self.updates.append((version, list(items)))
        self.policy.weights_version = version
        return UpdateStats(items=len(items), extra={"is_weight_mean": 1.0, "is_truncated_frac": 0.0})

    def save_adapter(self, path: str) -> None:
        _adapter(Path(path).parent, Path(path).name)

    def state_dict(self) -> dict:
        return {}


@pytest.mark.parametrize("k", [1, 2])
def test_async_grpo_on_a_fake_vllm_records_the_version_of_each_step(tmp_path, k):
    """Iterations' rollouts (three steps an episode, 0.05 s a request) outlast the slowed update (0.1 s), so each sync
    lands while the next iterations' episodes are in flight: no name is unloaded under a request or used once
    unloaded; every step records the version of the name it was sent with, some episode spans a sync, no step is
    more than k versions behind its update; the update's items carry vLLM's logprobs as their sampler logprobs; all
    names but the last are unloaded at the end."""
    from halo.rl.config import GRPOSettings
    from halo.rl.grpo import GRPOTrainer
    from halo.rl.lora_sync import LoraSync
    from halo.runtime.runs import RunDir

    fake = FakeVLLMTransport(latency_s=0.05)
    pol = _sampler(fake)
    sync = LoraSync(pol, prefix="halo-r")
    learner = SlowStubLearner(0.1)
    settings = GRPOSettings(iterations=5, group_size=2, parallel=2, max_steps=3, temperature=1.0,
                            save_episodes="none", checkpoint_every=100, max_staleness=k, refill_zero_variance=0)
    task = SimpleNamespace(id="test.walk", site="test")
    run = RunDir(tmp_path, "r")
    trainer = GRPOTrainer(pol, learner, [task], settings, run, sync=sync, envs=[WalkEnv(True), WalkEnv(False)])
    results = []
    history = asyncio.run(trainer.train(on_iteration=results.append))
    assert [m["iteration"] for m in history] == list(range(5))
    assert fake.violations == [], fake.violations
    spanning = 0
    for res in results:
        it, a = res.iteration, res.metrics["async"]
        assert a["version"] == it and a["dropped_groups"] == 0 and "unversioned_steps" not in a
        assert max(int(v) for v in a["staleness"]) <= k
        for e in res.episodes:
            assert not e.errored and len(e.steps) == 3
            versions = [st.sample.version for st in e.steps]
            assert versions == [_version_of(fake.name_of(st.sample), "halo-r") for st in e.steps]
            assert versions == sorted(versions) and it - k <= versions[0] and versions[-1] <= it
            spanning += len(set(versions)) > 1
    assert spanning, "no episode spanned a sync: the test did not exercise the overlap"
    assert any(what == "load" and busy for what, _, busy in fake.events)  # syncs with requests in flight
    # the update's items: the steps' tokens with vLLM's own logprobs as the behaviour (sampler) logprobs
    assert [v for v, _ in learner.updates] == [1, 2, 3, 4, 5]
    items = [i for _, its in learner.updates for i in its]
    assert items and all(i.sampler_logprobs == tuple(LOGPROBS) and i.token_ids[1:] == (101, 102) for i in items)
    assert sync.version == 5 and fake.served == {BASE, "halo-r-v000004"}
    assert sync.unloaded == [f"halo-r-v{i:06d}" for i in range(4)] and not sync.in_use
    assert (tmp_path / "r" / "checkpoints" / "iter_000004").is_dir()
    asyncio.run(pol.aclose())


def test_constrained_vllm_samples_train_on_the_masked_logprobs_with_their_version(tmp_path):
    """Under the grammar, vLLM's logprobs are of the masked distribution: the item carries them as sampler logprobs
    with the grammar's key (the learner replays the mask), as the in-process sampler's; the sample its version."""
    from policy_helpers import make_obs

    from halo.rl.learner import step_item
    from halo.rl.lora_sync import LoraSync

    async def go():
        pol = _sampler(FakeVLLMTransport(), constrained=True)
        sync = LoraSync(pol, prefix="halo-c")
        await sync(6, _adapter(tmp_path, "a6"))
        try:
            return await pol.sample_actions(make_obs())
        finally:
            await pol.aclose()

    (s,) = asyncio.run(go())
    assert s.version == 7 and s.grammar is not None and s.sampler_logprobs == tuple(LOGPROBS)
    item = step_item(SimpleNamespace(sample=s, prompt=object()), 1.0)
    assert item.sampler_logprobs == tuple(LOGPROBS) and item.grammar == s.grammar
