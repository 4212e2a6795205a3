"""A discrete-event model of HALO's GRPO pipeline (issue 42): browsers, the sampler and the learner, sync vs async.

What it mirrors (src/halo/rl/grpo.py, rl/pipeline.py, rl/rollout.py, policy/hf_backend.py):
- An iteration's rollouts (``GRPOTrainer.roll``): locally its groups run one after another, each group's
  ``group_size`` episodes over min(group_size, browsers) envs in waves (``run_group``: a free env takes the next
  episode); with Ray all pending groups go out at once, one group per worker of min(group_size, parallel) envs, refills
  as a second batch. An episode is a reset, then per step one decision (the sampler) and one env step.
- The sampler batches the requests that arrive together (``batch_wait_s``, up to ``max_batch`` rows a generate call).
  In-process (``hf``) every generate call holds the sampler's lock; vLLM is a separate server (no shared lock), whose
  new adapter is saved and hot-loaded after each update (``save_s``, ``sync_s``).
- Sync (k = 0): rollouts, then the update (``update_s``: all its epochs), save/hot-load, the per-iteration overhead
  (items, episodes saved, metrics, checkpoints), in turn.
- Async (``grpo.max_staleness`` k >= 1): one producer rolls iterations in order into a queue of k + 1; iteration j's
  rollouts start once iteration j - k - 1 is finished (updated, logged, checkpointed) and never past a checkpoint not
  yet written (``last_startable``); the learner holds the sampler's lock through all its epochs (``update_versioned``):
  in hf mode a decision asked during an update waits for it, while the browsers' own work goes on.
CPU (``cores``, ``update_cpu``, ``rollout_cpu``): on a small machine the browsers and the learner share the cores
(processor sharing, ``Sharing``); each episode's reset and step seconds are drawn from the measured ones
(``episode_samples``), since a group lasts as long as its slowest episode.

Run: .venv/bin/python bench/pipeline_model.py --inputs comps.json     (or flags: --step-s 0.3 --update-s 5 ...)
     .venv/bin/python bench/pipeline_model.py --measure --iterations 12   (real runs: sync and k=1, then the model)
     .venv/bin/python bench/pipeline_model.py --predict-gpu               (H100 numbers from bench/results/)
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import random
import statistics
from collections import deque
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Inputs:
    browsers: int = 8  # envs at once (grpo.parallel locally; nodes x browsers with Ray)
    group_size: int = 8
    groups: float | list[float] = 2.0  # groups an iteration, refills included (a mean, or one value per iteration)
    steps_per_episode: float = 1.0
    reset_s: float = 0.3  # env work of an episode outside its steps (reset, the family's progress reads)
    # measured (reset, step) seconds of single episodes: each simulated episode draws one pair (seeded) instead of
    # the means, since a group lasts as long as its slowest episode, not its average one
    episode_samples: list = field(default_factory=list)
    step_s: float = 0.3  # one env step (page action, settle, observation)
    decision_s: float = 0.1  # one generate call of one row
    decision_row_s: float = 0.0  # each further row of a call
    max_batch: int = 16
    batch_wait_s: float = 0.01
    update_s: float = 2.0  # the update with all its epochs
    save_s: float = 0.0  # vLLM: adapter save
    sync_s: float = 0.0  # vLLM: hot-load
    overhead_s: float = 0.0  # the rest of an iteration on the learner's side (items, saved episodes, metrics)
    sampler: str = "hf"  # hf: the sampler shares the learner's lock; vllm: a separate server
    rollouts: str = "local"  # local: groups in turn; ray: groups at once over workers
    worker_envs: int = 0  # ray: envs per worker (0: min(group_size, browsers))
    tasks_per_iteration: int = 0  # ray: groups sent out first (the rest are refills); 0: all at once
    checkpoint_every: int = 0  # 0: no checkpoint bound
    checkpoint_s: float = 0.0
    # CPU shared by the learner and the rollouts (processor sharing): 0 = they never contend (the learner on a GPU);
    # else the machine's cores, with the cores the update keeps busy and the cores the rollouts keep busy on average
    # while they run (both measured alone, in the sync run). Overlapping, each goes at min(1, cores / (sum)).
    cores: float = 0.0
    update_cpu: float = 1.0
    rollout_cpu: float = 1.0


@dataclass
class Outputs:
    k: int
    iteration_s: float
    episodes_per_hour: float
    browser_util: float  # share of browser-time holding an episode (its env work and its waits for decisions)
    env_util: float  # share of browser-time doing env work
    sampler_util: float
    learner_util: float  # share of time in the update's epochs
    rollout_s: float  # mean time from an iteration's first episode to its last


class Event:
    def __init__(self, sim: Sim):
        self.sim, self.done, self.cbs = sim, False, []

    def fire(self) -> None:
        self.done = True
        for cb in self.cbs:
            self.sim.at(0.0, cb)
        self.cbs = []


class Sim:
    """A plain event loop; processes are generators that yield a delay (seconds) or an Event to wait for."""

    def __init__(self):
        self.t, self.q, self.n = 0.0, [], 0

    def at(self, dt: float, fn) -> None:
        heapq.heappush(self.q, (self.t + dt, self.n, fn))
        self.n += 1

    def event(self) -> Event:
        return Event(self)

    def spawn(self, gen) -> Event:
        end = self.event()

        def step(_=None):
            try:
                y = next(gen)
            except StopIteration:
                end.fire()
                return
            if isinstance(y, Event):
                (self.at(0.0, step) if y.done else y.cbs.append(step))
            else:
                self.at(float(y), step)
        self.at(0.0, step)
        return end

    def run(self) -> None:
        while self.q:
            self.t, _, fn = heapq.heappop(self.q)
            fn()


class Lock:
    def __init__(self, sim: Sim):
        self.sim, self.held, self.waiters = sim, False, deque()

    def acquire(self) -> Event:
        ev = self.sim.event()
        if self.held:
            self.waiters.append(ev)
        else:
            self.held = True
            ev.fire()
        return ev

    def release(self) -> None:
        if self.waiters:
            self.waiters.popleft().fire()
        else:
            self.held = False


class Sharing:
    """Processor sharing between two kinds of work, ``roll`` (env steps, generate calls) and ``learn`` (the update):
    alone each runs at its measured speed; while both run, each is slowed to min(1, cores / (rollout_cpu +
    update_cpu)). With ``cores`` 0 nothing is shared."""

    def __init__(self, sim: Sim, p: Inputs):
        self.sim, self.p = sim, p
        self.jobs: dict[int, list] = {}  # id -> [remaining seconds at full speed, kind, Event]
        self.t, self.ver, self.n = 0.0, 0, 0

    def rate(self) -> float:
        kinds = {j[1] for j in self.jobs.values()}
        if self.p.cores <= 0 or kinds != {"roll", "learn"}:
            return 1.0
        return min(1.0, self.p.cores / (self.p.rollout_cpu + self.p.update_cpu))

    def _advance(self) -> None:
        r, dt = self.rate(), self.sim.t - self.t
        for j in self.jobs.values():
            j[0] -= dt * r
        self.t = self.sim.t

    def _schedule(self) -> None:
        self.ver += 1
        if self.jobs:
            v, r = self.ver, self.rate()
            self.sim.at(max(0.0, min(j[0] for j in self.jobs.values()) / r), lambda: self._tick(v))

    def _tick(self, v: int) -> None:
        if v != self.ver:
            return
        self._advance()
        for i in [i for i, j in self.jobs.items() if j[0] <= 1e-9]:
            self.jobs.pop(i)[2].fire()
        self._schedule()

    def run(self, kind: str, dt: float):
        if self.p.cores <= 0 or dt <= 0:
            yield dt
            return
        ev = self.sim.event()
        self._advance()
        self.n += 1
        self.jobs[self.n] = [dt, kind, ev]
        self._schedule()
        yield ev


def spread(x: float | list[float], i: int) -> int:
    """The i-th of a sequence of integers whose mean is x (a list: its i-th value, cycled)."""
    if isinstance(x, (list, tuple)):
        return round(x[i % len(x)])
    return int((i + 1) * x + 1e-9) - int(i * x + 1e-9)


def simulate(p: Inputs, k: int, iterations: int = 40, warmup: int = 5) -> Outputs:
    sim = Sim()
    lock = Lock(sim)
    cpu = Sharing(sim, p)
    rng = random.Random(0)
    pending: list[Event] = []
    wake = [sim.event()]
    busy = {"env": 0.0, "held": 0.0, "sampler": 0.0, "update": 0.0}
    counter = {"ep": 0}
    ends: list[float] = []
    roll_spans: list[float] = []

    def sampler():
        while True:
            if not pending:
                wake[0] = sim.event()
                yield wake[0]
            yield p.batch_wait_s
            while pending:
                batch = pending[:p.max_batch]
                del pending[:len(batch)]
                if p.sampler == "hf":
                    yield lock.acquire()
                dt = p.decision_s + p.decision_row_s * (len(batch) - 1)
                t0 = sim.t
                yield from cpu.run("roll", dt)
                busy["sampler"] += sim.t - t0
                if p.sampler == "hf":
                    lock.release()
                for ev in batch:
                    ev.fire()

    def decide():
        ev = sim.event()
        pending.append(ev)
        if not wake[0].done:
            wake[0].fire()
        yield ev

    def env_work(dt: float):
        t0 = sim.t
        yield from cpu.run("roll", dt)
        busy["env"] += sim.t - t0

    def episode():
        t0 = sim.t
        n = max(1, spread(p.steps_per_episode, counter["ep"]))
        counter["ep"] += 1
        reset, step_s = rng.choice(p.episode_samples) if p.episode_samples else (p.reset_s, p.step_s)
        yield from env_work(reset)
        for _ in range(n):
            yield from decide()
            yield from env_work(step_s)
        busy["held"] += sim.t - t0

    def lanes(n_eps: int, width: int):
        left = [n_eps]

        def lane():
            while left[0] > 0:
                left[0] -= 1
                yield from episode()
        yield from [sim.spawn(lane()) for _ in range(min(width, n_eps))]

    def roll(j: int):
        t0 = sim.t
        g = spread(p.groups, j)
        if p.rollouts == "ray":  # the pending groups at once (one a worker), then the refills at once
            width = p.worker_envs or min(p.group_size, p.browsers)
            workers = max(1, p.browsers // width)
            base = min(g, p.tasks_per_iteration or g)
            for batch in (base, g - base):
                todo = [batch]

                def worker(todo=todo):
                    while todo[0] > 0:
                        todo[0] -= 1
                        yield from lanes(p.group_size, width)
                yield from [sim.spawn(worker()) for _ in range(min(workers, batch))]
        else:
            for _ in range(g):
                yield from lanes(p.group_size, min(p.group_size, p.browsers))
        roll_spans.append(sim.t - t0)

    def checkpoints_at(i: int) -> bool:
        return bool(p.checkpoint_every) and ((i + 1) % p.checkpoint_every == 0 or i == iterations - 1)

    def learn(i: int):
        if k and p.sampler == "hf":
            yield lock.acquire()
        t0 = sim.t
        yield from cpu.run("learn", p.update_s)
        busy["update"] += sim.t - t0
        if k and p.sampler == "hf":
            lock.release()
        yield p.save_s + p.sync_s + p.overhead_s + (p.checkpoint_s if checkpoints_at(i) else 0.0)
        ends.append(sim.t)

    def sync_run():
        for i in range(iterations):
            yield from roll(i)
            yield from learn(i)

    def last_startable(done: int) -> int:
        bound = done + 1 + k
        for c in range(done + 1, min(bound, iterations - 1) + 1):
            if checkpoints_at(c):
                return c
        return bound

    state = {"allowed": last_startable(-1), "moved": sim.event()}
    ready: dict[int, Event] = {}
    queue_room = [k + 1]
    room_ev = [sim.event()]

    def producer():
        for j in range(iterations):
            while j > state["allowed"]:
                yield state["moved"]
            while queue_room[0] <= 0:
                room_ev[0] = sim.event()
                yield room_ev[0]
            yield from roll(j)
            queue_room[0] -= 1
            ready.setdefault(j, sim.event()).fire()

    def consumer():
        for i in range(iterations):
            yield ready.setdefault(i, sim.event())
            queue_room[0] += 1
            room_ev[0].fire()
            yield from learn(i)
            state["allowed"] = last_startable(i)
            old, state["moved"] = state["moved"], sim.event()
            old.fire()

    sim.spawn(sampler())
    if k == 0:
        sim.spawn(sync_run())
    else:
        sim.spawn(producer())
        sim.spawn(consumer())
    sim.run()
    span = ends[-1] - ends[warmup - 1]
    it_s = span / (iterations - warmup)
    eps = sum(spread(p.groups, j) for j in range(warmup, iterations)) * p.group_size
    total = ends[-1]
    return Outputs(k=k, iteration_s=round(it_s, 4), episodes_per_hour=round(3600 * eps / span, 1),
                   browser_util=round(min(1.0, busy["held"] / (p.browsers * total)), 4),
                   env_util=round(min(1.0, busy["env"] / (p.browsers * total)), 4),
                   sampler_util=round(min(1.0, busy["sampler"] / total), 4),
                   learner_util=round(min(1.0, busy["update"] / total), 4),
                   rollout_s=round(statistics.fmean(roll_spans), 4))


def predict(p: Inputs, ks=(0, 1, 2), iterations: int = 40, warmup: int = 5) -> dict[str, dict]:
    return {("sync" if k == 0 else f"k={k}"): asdict(simulate(p, k, iterations, warmup)) for k in ks}


# ---------------------------------------------------------------- measuring: real GRPO runs on this machine
def run_setting(k: int, iterations: int, tmp: str) -> dict:
    """``iterations`` of configs/demo.yaml's GRPO (tiny model, omnizon.department) at max_staleness k: per iteration
    its finish time and metrics, every generate call's (rows, seconds), every episode's timings."""
    import asyncio
    import time

    from halo.config.overrides import flags
    from halo.jobs.demo import load_demo_config
    from halo.jobs.grpo import GRPOJob, setup_grpo, train_grpo
    from halo.policy.tiny import ensure_tiny_model
    from halo.tasks.resolve import resolve_tasks
    from real_local.server import SitesServer

    cfg = load_demo_config(ROOT / "configs" / "demo.yaml")
    model = ensure_tiny_model(ROOT / cfg.model_dir, lambda *_: None)
    job = GRPOJob(tasks=cfg.tasks, mode=cfg.mode, sites="local", run_name=f"pipeline-k{k}", runs_dir=tmp,
                  overrides=(*cfg.overrides(str(model)),
                             *flags("grpo", {"iterations": iterations, "max_staleness": k,
                                             "checkpoint_every": iterations})))
    out: dict = {"k": k, "iterations": [], "calls": [], "episodes": [], "updates": []}
    from learning_check import cpu_seconds as cpu_now  # this process's CPU and its browsers' (bench/ is on the path)

    async def go() -> None:
        setup = await setup_grpo(job)
        pol = setup.sampler
        inner = pol._complete_batch_sync

        def timed(reqs, t):
            t0 = time.perf_counter()
            r = inner(reqs, t)
            out["calls"].append((sum(n for *_, n in reqs), time.perf_counter() - t0))
            return r
        pol._complete_batch_sync = timed
        learner = setup.learner
        for name in ("update", "update_versioned"):  # the update's own CPU (the main process's threads)
            inner_u = getattr(learner, name, None)
            if inner_u is not None:
                def timed_update(*a, _f=inner_u, **kw):
                    c0, t0 = time.process_time(), time.perf_counter()
                    try:
                        return _f(*a, **kw)
                    finally:
                        out["updates"].append((time.process_time() - c0, time.perf_counter() - t0))
                setattr(learner, name, timed_update)
        s = setup.settings
        out.update(browsers=min(s.group_size, s.parallel), group_size=s.group_size, max_batch=pol.max_batch,
                   batch_wait_s=pol.batch_wait_s, update_epochs=s.update_epochs)
        try:
            with SitesServer() as urls:
                tasks = resolve_tasks(job.tasks, "local", urls)
                t0 = time.perf_counter()

                def on_iteration(res) -> None:
                    m = res.metrics
                    out["iterations"].append({"t": time.perf_counter() - t0, "cpu": cpu_now(),
                                              "groups": len(m["tasks"]),
                                              **{x: m[x] for x in ("time_rollout", "time_update", "time_save",
                                                                   "time_sync", "episodes", "episode_length")},
                                              "time_wait": m.get("async", {}).get("time_wait")})
                    for e in res.episodes:
                        pol_s = sum(st.timings.get("policy", 0.0) for st in e.steps)
                        env_s = sum(st.timings.get("total", 0.0) for st in e.steps)
                        out["episodes"].append({"it": m["iteration"], "wall": e.wall_time, "policy": pol_s,
                                                "step": env_s, "steps": len(e.steps)})
                    print(f"  k={k} it {m['iteration']} t {out['iterations'][-1]['t']:.1f}s rollout "
                          f"{m['time_rollout']:.2f}s update {m['time_update']:.2f}s", flush=True)
                await train_grpo(setup, tasks, on_iteration)
        finally:
            await setup.sampler.aclose()
    asyncio.run(go())
    return out


def components(run: dict, warmup: int) -> Inputs:
    """The model's inputs from one run's records (iterations after ``warmup``)."""
    its = run["iterations"][warmup:] or run["iterations"]
    eps = [e for e in run["episodes"] if e["it"] >= its[0]["iteration_index"]] or run["episodes"]
    steps = sum(e["steps"] for e in eps) or 1
    calls = run["calls"]
    rows = [r for r, _ in calls]
    secs = [s for _, s in calls]
    if len(set(rows)) > 1:  # seconds = a + b (rows - 1), least squares
        slope, icpt = statistics.linear_regression([r - 1 for r in rows], secs)
    else:
        slope, icpt = 0.0, statistics.fmean(secs) if secs else 0.0
    walls = [its[0]["t"] - (run["iterations"][warmup - 1]["t"] if warmup else 0.0)] if its else []
    walls = [b["t"] - a["t"] for a, b in zip(run["iterations"][max(0, warmup - 1):], run["iterations"][warmup:])] \
        or walls
    ov = [w - i["time_rollout"] - i["time_update"] - i["time_save"] - i["time_sync"] for w, i in zip(walls, its)]
    # cores each side keeps busy when alone (read from a sync run: nothing overlaps there): the update's own CPU over
    # its wall time; the rest of an iteration's CPU (browsers, sites, sampler, the loop) over the rest of its time
    ups = run.get("updates") or []
    upd_cpu = sum(c for c, _ in ups) / max(1e-9, sum(w for _, w in ups)) if ups else 1.0
    cpus = [b["cpu"] - a["cpu"] for a, b in zip(run["iterations"][max(0, warmup - 1):], run["iterations"][warmup:])]
    roll_cpu = [(c - upd_cpu * i["time_update"]) / max(1e-9, w - i["time_update"])
                for c, w, i in zip(cpus, walls, its)]
    return Inputs(browsers=run["browsers"], group_size=run["group_size"], groups=[i["groups"] for i in its],
                  steps_per_episode=steps / len(eps),
                  reset_s=max(0.0, statistics.fmean(e["wall"] - e["policy"] - e["step"] for e in eps)),
                  episode_samples=[(max(0.0, e["wall"] - e["policy"] - e["step"]), e["step"] / max(1, e["steps"]))
                                   for e in eps],
                  step_s=sum(e["step"] for e in eps) / steps, decision_s=max(0.0, icpt),
                  decision_row_s=max(0.0, slope), max_batch=run["max_batch"], batch_wait_s=run["batch_wait_s"],
                  update_s=statistics.fmean(i["time_update"] for i in its),
                  save_s=statistics.fmean(i["time_save"] for i in its),
                  sync_s=statistics.fmean(i["time_sync"] for i in its),
                  overhead_s=max(0.0, statistics.fmean(ov)) if ov else 0.0,
                  cores=float(os.cpu_count() or 1), update_cpu=round(upd_cpu, 3),
                  rollout_cpu=round(statistics.fmean(roll_cpu), 3) if roll_cpu else 1.0)


def measure(iterations: int, warmup: int) -> dict:
    import os
    import tempfile

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    warmup = min(warmup, iterations - 1)
    runs = {}
    with tempfile.TemporaryDirectory() as tmp:
        for k in (0, 1):
            runs[k] = run_setting(k, iterations, tmp)
            for j, it in enumerate(runs[k]["iterations"]):
                it["iteration_index"] = j
    base = components(runs[0], warmup)  # the sync run: nothing overlaps, the lock is never contended
    out: dict = {"iterations": iterations, "warmup": warmup, "components_from": "the sync run (max_staleness 0)",
                 "components": {k: v for k, v in asdict(base).items() if k not in ("groups", "episode_samples")},
                 "episode_samples": {"episodes": len(base.episode_samples), "reset_s_quantiles": [
                     round(q, 3) for q in statistics.quantiles([r for r, _ in base.episode_samples], n=10)]}
                 if len(base.episode_samples) > 1 else {}, "settings": {}}
    for k, run in runs.items():
        its = run["iterations"]
        measured = (its[-1]["t"] - its[warmup - 1]["t"]) / (len(its) - warmup) if warmup else its[-1]["t"] / len(its)
        own = components(run, warmup)
        groups = [i["groups"] for i in its]  # iteration by iteration, warm-up included (the model runs them too)
        p = Inputs(**{**asdict(base), "groups": groups, "steps_per_episode": own.steps_per_episode})
        pred = simulate(p, k, iterations=len(its), warmup=max(1, warmup))
        name = "sync" if k == 0 else f"k={k}"
        out["settings"][name] = {
            "measured_s": round(measured, 3), "predicted_s": pred.iteration_s,
            "relative_error": round((pred.iteration_s - measured) / measured, 4), "prediction": asdict(pred),
            "groups_per_iteration": groups, "steps_per_episode": round(own.steps_per_episode, 3),
            "components_this_run": {x: round(v, 4) for x, v in asdict(own).items()
                                    if isinstance(v, float) and x != "steps_per_episode"},
            "time_wait": [i["time_wait"] for i in its], "generate_calls": len(run["calls"])}
    return out


# ---------------------------------------------------------------- predicting: the H100 numbers in bench/results
def gpu_predictions(decision_s: float | None = None, nodes=(1, 2, 4, 8)) -> dict:
    res = ROOT / "bench" / "results"
    load = lambda f: json.loads((res / f).read_text())
    ls, es, rt, vp = (load(f) for f in ("learner_scale_cuda.json", "env_step.json", "rollout_throughput.json",
                                        "vllm_path.json"))
    upd = ls["updates"][0]  # gradient checkpointing, pack_tokens 16384: the default
    roll = rt["runs"]["stop39_final"]["levels"]["1"]["halo"]
    c1 = next(r for r in es["results"] if r["concurrency"] == 1)["env"]
    steps = roll["steps"] / roll["episodes"]
    src = {
        "update_s_per_item": (upd["s_per_item"], ("learner_scale_cuda.json updates[0].s_per_item (H100, 8B "
                              "architecture, bf16, LoRA r32, gradient checkpointing, pack 16384: 14.34 s / 32 replies)")),
        "decision_s": (decision_s or ls["sample_s"], ("learner_scale_cuda.json sample_s: one HF generate call of 32 "
                       "rows (4 prompts x 8, 2,225-token prompts) on the H100; no vLLM-on-GPU timing is in "
                       "bench/results") if decision_s is None else "--gpu-decision-s (given)"),
        "max_batch": (len(ls["reply_tokens"]), "learner_scale_cuda.json: rows of that call"),
        "step_s": (c1["mean_ms"] / 1000, "env_step.json results[concurrency 1].env.mean_ms (a core a browser)"),
        "reset_s": (roll["reset_p50_ms"] / 1000, "rollout_throughput.json runs.stop39_final.levels.1.halo.reset_p50_ms"),
        "steps_per_episode": (steps, "rollout_throughput.json stop39_final 1 env: steps / episodes (REAL oracle episodes)"),
        "save_s": (vp["median_after_first"]["adapter_save_s"], ("vllm_path.json median_after_first.adapter_save_s "
                   "(tiny adapter on the CPU; an 8B rank-32 adapter is larger)")),
        "sync_s": (vp["median_after_first"]["hot_load_s"], "vllm_path.json median_after_first.hot_load_s (tiny)"),
    }
    v = {k: x for k, (x, _) in src.items()}

    def inputs(browsers: int, groups: int, **kw) -> Inputs:
        items = groups * 16 * v["steps_per_episode"]  # one train item a step (step advantages)
        return Inputs(browsers=browsers, group_size=16, groups=float(groups), steps_per_episode=v["steps_per_episode"],
                      reset_s=v["reset_s"], step_s=v["step_s"], decision_s=v["decision_s"], decision_row_s=0.0,
                      max_batch=int(v["max_batch"]), update_s=v["update_s_per_item"] * items, **kw)

    out = {"sources": {k: {"value": round(x, 4), "from": f} for k, (x, f) in src.items()}, "scenarios": {}}
    out["scenarios"]["1xH100_16cores_local_hf"] = {
        "setup": "one H100 (sampler and learner in one process: the sampler's lock), 16 browsers, 2 groups of 16 an "
                 "iteration in turn (32 episodes), 1 epoch", **predict(inputs(16, 2))}
    out["scenarios"]["1xH100_16cores_local_vllm"] = {
        "setup": "one H100 serving vLLM beside the learner (no shared lock; the adapter saved and hot-loaded each "
                 "update), 16 browsers, 2 groups of 16 an iteration in turn (32 episodes): what max_staleness k >= 1 "
                 "with a vLLM mode runs today",
        **predict(inputs(16, 2, sampler="vllm", save_s=v["save_s"], sync_s=v["sync_s"]))}
    for n in nodes:
        out["scenarios"][f"ray_{n}_nodes_vllm"] = {
            "setup": f"{n} Ray rollout node(s) x 16 browsers, one group of 16 a node at once ({16 * n} episodes an "
                     f"iteration), a vLLM sampler on the H100 (no shared lock; adapter saved and hot-loaded each "
                     f"update); k >= 1 is what-if: asynchronous GRPO runs with vLLM but still refuses --ray",
            **predict(inputs(16 * n, n, sampler="vllm", rollouts="ray", worker_envs=16, tasks_per_iteration=n,
                             save_s=v["save_s"], sync_s=v["sync_s"]))}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inputs", help="a JSON of Inputs' fields (flags override it)")
    for f in fields(Inputs):
        if f.name != "groups":
            ap.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=None)
    ap.add_argument("--groups", type=float, default=None)
    ap.add_argument("--measure", action="store_true", help="real GRPO runs (sync and k=1), then the model")
    ap.add_argument("--iterations", type=int, default=12)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--predict-gpu", action="store_true", help="H100 predictions from bench/results/")
    ap.add_argument("--gpu-decision-s", type=float, default=None, help="a generate call's seconds on the GPU")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "pipeline_model.json"))
    a = ap.parse_args()
    if not (a.measure or a.predict_gpu):
        base = json.loads(Path(a.inputs).read_text()) if a.inputs else {}
        given = {f.name: getattr(a, f.name) for f in fields(Inputs) if getattr(a, f.name) is not None}
        print(json.dumps(predict(Inputs(**{**base, **given})), indent=1))
        return
    path = Path(a.out)
    result = json.loads(path.read_text()) if path.is_file() else {}
    if a.measure:
        result["measured"] = measure(a.iterations, a.warmup)
        for name, s in result["measured"]["settings"].items():
            print(f"{name}: measured {s['measured_s']:.2f} s an iteration, predicted {s['predicted_s']:.2f} s "
                  f"({100 * s['relative_error']:+.1f}%)")
    if a.predict_gpu:
        result["gpu_predictions"] = gpu_predictions(a.gpu_decision_s)
        print(f"{'scenario':34s} {'setting':6s} {'iter s':>8s} {'eps/h':>8s} {'learner':>8s} {'browser':>8s}")
        for sc, d in result["gpu_predictions"]["scenarios"].items():
            for name in ("sync", "k=1", "k=2"):
                r = d[name]
                print(f"{sc:34s} {name:6s} {r['iteration_s']:8.1f} {r['episodes_per_hour']:8.0f} "
                      f"{r['learner_util']:8.2f} {r['browser_util']:8.2f}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=1))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
