"""Asynchronous GRPO (grpo.max_staleness k >= 1) with Ray rollout workers (--ray): each step a worker samples records
the adapter version that drew it, so the learner's staleness accounting (rl/pipeline.py) holds for Ray as in process.

- the policy actor records the version of the weights last pushed to it on each completion, and a push that lands
  while an episode is in flight takes effect at its next step (a fake two-step env pushes between the steps);
- a vLLM unit holds its adapter name until it is back, and its steps record that name's version (fake workers and
  a fake sampler: no server, no cluster);
- a whole run on a local Ray cluster (the tiny model in the policy actor, REAL-local in the workers) with a learner
  slowed on purpose: the rollouts run ahead, no step is more than k versions behind, every step records its
  version, and the run finishes its iterations with their metrics. Versions left unrecorded (None) or never
  advanced (all 0) fail it: unversioned steps are counted, and an iteration-2 step at version 0 is 2 behind."""

from __future__ import annotations

import json
import time
from types import SimpleNamespace

import pytest

pytest.importorskip("ray")


# ------------------------------------------------------------------ the policy actor's versions
class TwoStepEnv:
    """No browser: steps on policy_helpers' page, never done. Before each step's sampling the rollout reads the
    state key (``state_keys``); before the second, ``between()`` runs there: the test pushes new weights, with the
    episode in flight (whether or not the first reply parsed)."""

    max_steps = 2
    episode_timeout_s = None

    def __init__(self, between):
        self.between, self.keys = between, 0

    async def reset(self, task):
        from policy_helpers import make_obs

        return make_obs(step=0, last_actions=())

    async def state_key(self):
        self.keys += 1
        if self.keys == 2:
            await self.between()
        return f"s{self.keys}"

    async def step(self, action):
        from policy_helpers import make_obs

        from halo.env.types import StepInfo, StepResult

        return StepResult(observation=make_obs(step=1), reward=0.0, done=False, truncated=False, info=StepInfo())


@pytest.mark.ml
@pytest.mark.timeout(400)
async def test_policy_actor_records_the_pushed_version_and_a_push_lands_between_steps(ray_cluster, tiny_mode):
    """Before any push, or after a push without a version to record (in-turn GRPO, MCTS: as the in-process
    sampler), the actor's completions carry no version; pushed as version 3 to record, they carry 3; a push of
    version 4 while an episode is in flight (between its two steps) gives its first step 3 and its second 4."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "policy"))
    from halo.rl.rollout import run_episode
    from halo.runtime.ray.actors import PolicyActor, PolicySpec, RemotePolicy

    actor = PolicyActor().remote(tiny_mode)
    try:
        await actor.ping.remote()  # the model loaded (minutes on a busy machine) before any call has a deadline
        spec = PolicySpec(decoding=tiny_mode.decoding_config(), prompt=tiny_mode.prompt_config(), actor=actor,
                          call_timeout_s=120)
        policy = RemotePolicy(spec)
        pushes: list[int] = []

        async def push():
            pushes.append(await actor.sync_weights.remote({}, 4, True))

        task = SimpleNamespace(id="test.page", site="test")
        e0 = await run_episode(TwoStepEnv(push), policy, task, max_steps=1, temperature=0.0, state_keys=True)
        assert not e0.errored, e0.error
        assert [st.sample.version for st in e0.steps] == [None]  # never pushed: unversioned, not a made-up 0
        assert await actor.sync_weights.remote({}, 1) == 1  # in turn: nothing to record
        e0 = await run_episode(TwoStepEnv(push), policy, task, max_steps=1, temperature=0.0, state_keys=True)
        assert [st.sample.version for st in e0.steps] == [None]
        assert await actor.sync_weights.remote({}, 3, True) == 3  # the adapter's weights (none here) as version 3
        e1 = await run_episode(TwoStepEnv(push), policy, task, max_steps=2, temperature=0.0, state_keys=True)
        assert not e1.errored, e1.error
        assert pushes == [4]  # between the two steps
        assert [st.sample.version for st in e1.steps] == [3, 4]
    finally:
        ray_cluster.kill(actor)


# ------------------------------------------------------------------ a vLLM unit's name and version
class FakeSampler:
    """TEST FAKE of the driver's OpenAIPolicy as LoraSync drives it: a server config and the adapter endpoints (no
    server); ``served``: the names loaded now."""

    def __init__(self):
        from halo.policy.openai_backend import ServerConfig

        self.server = ServerConfig(base_url="http://fake-vllm/v1", model="fake-base", kind="vllm")
        self.served = {"fake-base"}
        self.lora_versions = None

    async def load_lora_adapter(self, name, path):
        self.served.add(name)

    async def unload_lora_adapter(self, name):
        self.served.discard(name)


async def test_a_vllm_unit_holds_its_name_and_records_its_version(tmp_path):
    """A unit goes out on version 1's name; a sync switches the sampler to version 2 while it runs: the name it uses
    stays loaded until it is back, then goes; its steps record version 1 (a step that carries its own keeps it)."""
    from halo.policy.base import Sample
    from halo.policy.modes import get_mode
    from halo.rl.lora_sync import LoraSync
    from halo.rl.rollout import Episode, Step
    from halo.runtime.ray.actors import stamp_version
    from halo.runtime.ray.rollouts import RayRollouts

    sampler = FakeSampler()
    sync = LoraSync(sampler, prefix="halo-t")
    await sync(0, str(tmp_path))  # version 1
    rollouts = RayRollouts(get_mode("qwen3vl_base"), sampler, workers=1)
    assert rollouts.records_versions
    seen = []

    class Worker:
        class run:  # a Ray actor method's shape: run.remote(...)
            @staticmethod
            async def remote(task, n, spec, kw):
                seen.append((spec.server.model, spec.version))
                await sync(1, str(tmp_path))  # version 2, with this unit out on version 1's name
                seen.append((sync.current, spec.server.model in sampler.served))
                steps = [Step(index=i, obs=None, prompt=None, sample=Sample(text="", parsed=None, version=v),
                              reward=None, next_url="", error=None) for i, v in enumerate([None, 7])]
                return {"episodes": stamp_version([Episode(id="e", task_id=task.id, site="t", steps=steps)],
                                                  spec.version), "wall_s": 0.0}

    rollouts.workers, rollouts.alive = [Worker()], [True]
    (eps,) = await rollouts.run_groups([SimpleNamespace(id="t.1", site="t")], 1, {})
    assert seen == [("halo-t-v000000", 1), ("halo-t-v000001", True)]  # held while the unit ran
    assert [st.sample.version for st in eps[0].steps] == [1, 7]
    assert "halo-t-v000000" not in sampler.served and sync.unloaded == ["halo-t-v000000"] and not sync.in_use
    unversioned = RayRollouts(get_mode("qwen3vl_base"), SimpleNamespace(server=sampler.server), workers=1)
    assert not unversioned.records_versions and unversioned.spec().version is None


def test_async_with_ray_is_refused_only_where_samples_carry_no_version():
    from halo.errors import ConfigError
    from halo.rl.pipeline import check_async

    learner = SimpleNamespace(update_versioned=None)
    with pytest.raises(ConfigError, match="record none"):
        check_async(SimpleNamespace(weights_version=None), learner, SimpleNamespace(records_versions=False), None)
    check_async(SimpleNamespace(weights_version=None), learner, SimpleNamespace(records_versions=True), None)


# ------------------------------------------------------------------ a whole run on Ray
SLOW_S = 4.0  # the slowed learner's extra time per update: longer than an iteration's rollouts on Ray (~2-3 s)


@pytest.mark.browser
@pytest.mark.ml
@pytest.mark.timeout(300)
async def test_async_grpo_via_ray_keeps_staleness_within_k_and_records_versions(ray_cluster, tiny_model, tmp_path,
                                                                                monkeypatch):
    """k = 1, three iterations, each update 4 s slower than it is. Iteration 1's rollouts run while iteration 0's
    update does, on version 0 (staleness 1: the overlap); iteration 2's wait for version 1 (the bound); no group is
    dropped and no step is unversioned; each saved step says which version drew it, between the iteration's k
    versions; the actor got the starting weights and one push per update."""
    from halo.config.overrides import flags
    from halo.jobs.grpo import GRPOJob, run_grpo
    from halo.policy.modes import mode_flags
    from halo.rl.learner import LoRALearner

    versioned = LoRALearner.update_versioned

    def slow(self, items, epochs, version):
        time.sleep(SLOW_S)
        return versioned(self, items, epochs, version)

    monkeypatch.setattr(LoRALearner, "update_versioned", slow)
    k, iterations = 1, 3
    job = GRPOJob(tasks=["v2.gomail-1"], mode="tiny", runs_dir=str(tmp_path), run_name="a", ray="local",
                  ray_workers=2,
                  overrides=(*mode_flags(model=tiny_model),
                             *flags("grpo", {"iterations": iterations, "group_size": 2, "max_steps": 2,
                                             "max_staleness": k, "save_episodes": "all", "checkpoint_every": 10})))
    t0 = time.perf_counter()
    run, history = await run_grpo(job)
    wall = time.perf_counter() - t0
    assert [m["iteration"] for m in history] == list(range(iterations))
    lags_seen = set()
    for m in history:
        a = m["async"]
        assert a["version"] == m["iteration"] and a["max_staleness"] == k
        assert a["dropped_groups"] == 0 and "unversioned_steps" not in a, a
        lags = {int(v) for v in a["staleness"]}
        assert lags and max(lags) <= k, a
        lags_seen |= lags
        assert m["errored"] == 0 and m["episodes"] == 2 and "loss" in m
    assert 1 in history[1]["async"]["staleness"] or "1" in history[1]["async"]["staleness"]  # ran ahead
    assert lags_seen == {0, 1}
    assert history[-1]["ray"]["weight_syncs"] == 1 + iterations
    # the decoupled loss weighs each trained token by the workers' sampler logprobs (capped at tis_cap 2)
    assert all(0 < m["async"]["is_weight_mean"] <= 2 for m in history if m["train_items"])
    # every saved step carries the version that drew it, within k of its iteration's update
    by_it: dict[int, list[list[int]]] = {}
    for f in sorted((run.path / "episodes").glob("*.jsonl")):
        steps = [json.loads(x) for x in f.read_text().splitlines()]
        vs = [s.get("version") for s in steps if s["type"] == "step"]
        it = int(f.stem[2:6])
        assert vs and all(v is not None and it - k <= v <= it for v in vs), (f.stem, vs)
        by_it.setdefault(it, []).append(vs)
    assert sorted(by_it) == list(range(iterations))
    assert {v for eps in by_it.values() for vs in eps for v in vs} >= {0, 1}  # versions advanced
    spanning = sum(len(set(vs)) > 1 for eps in by_it.values() for vs in eps)
    print(f"wall {wall:.1f} s; trained items {[m['train_items'] for m in history]}; staleness per iteration {[m['async']['staleness'] for m in history]}; "
          f"waits {[m['async']['time_wait'] for m in history]}; episodes spanning a push: {spanning}")
