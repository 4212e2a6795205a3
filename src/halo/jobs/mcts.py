"""The MCTS job (Agent Q): search episodes with ``MCTSExplorer``, learn step-level DPO from each tree.

Shared by ``halo train mcts`` and ``scripts/train_mcts.py``. Per iteration: one task (the curriculum's draw), one
searched episode on a branchable env, preference pairs from its siblings (saved to ``pairs.jsonl``), the tree
(``trees/it<N>.json`` and its screenshots, drawn by the report), one ``LoRALearner.preference_update``, then the
adapter saved and, with a vLLM mode, hot-loaded, exactly as GRPO does.

With ``--ray`` (``MCTSJob.ray``) the searches run on Ray rollout workers (``halo.runtime.ray``), ``ray_workers`` at a
time: each worker searches with its own Chromium and REAL-local, reaching the policy as GRPO's workers do (a
``PolicyActor`` for hf modes, the vLLM server otherwise), and sends the tree back; the driver learns from the round's
trees in iteration order (one update each, the same files), then pushes the new weights (or hot-loads the last
adapter). The searches of one round sample with the weights of the round's start.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import statistics
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Awaitable, Callable

from halo.config.overrides import Override
from halo.errors import ConfigError, HaloError
from halo.jobs.setup import (
    check_at_the_door,
    check_learner_memory,
    draws_replies,
    make_learning,
    overrides_record,
    run_training,
    training_config,
)
from halo.rl.config import DPOSettings, MCTSSettings, RLConfig
from halo.rl.dpo import sibling_items, tree_pairs
from halo.rl.mcts import MCTSExplorer, SearchResult, sibling_groups, tree_record


@dataclass
class MCTSJob:
    tasks: list[str]
    mode: str | None = None
    sites: str = "local"
    episodes: int = 10  # searched episodes (one LoRA update each)
    run_name: str | None = None
    runs_dir: str = "runs"
    config_path: str | None = None
    learner_model: str | None = None
    device: str = "cpu"
    seed: int = 0
    # --set items, then the command's flags (--critic is mcts.critic), as typed overrides (halo.config)
    overrides: tuple[Override, ...] = ()
    log: str = "none"  # tracker beside metrics.jsonl: none | tensorboard | wandb (halo.runtime.tracking)
    modes_file: str | None = None
    ray: str | None = None  # --ray: None searches here; "local" starts a local Ray cluster; else its address
    ray_workers: int = 2  # Ray rollout workers: searches run at a time (one round), one browser each


def make_critic(name: str, sampler: Any, modes_file: str | None = None) -> Any:
    """``none``: no critic; ``progress``: a task family's own checks; ``same``: the sampling policy critiques itself;
    else a mode's policy does."""
    from halo.rl.critic import PolicyCritic, ProgressCritic

    if name == "none":
        return None
    if name == "progress":
        return ProgressCritic()
    if name == "same":
        return PolicyCritic(sampler)
    from halo.policy.modes import get_mode, make_policy

    return PolicyCritic(make_policy(get_mode(name, modes_file)))


def ray_critic(name: str, modes_file: str | None = None) -> Any:
    """The critic as ``RayRollouts`` takes it (checked at the door): None, ``"same"``, or the critic's mode (an hf
    mode is hosted by its own policy actor, an openai mode's server is called from the workers)."""
    if name in ("none", "same", "progress"):
        return None if name == "none" else name
    from halo.policy.modes import get_mode

    mode = get_mode(name, modes_file)
    if mode.backend not in ("hf", "openai"):
        raise ConfigError(f"--ray: critic mode {name} has backend {mode.backend!r}; with --ray a critic is none, "
                          "same, an in-process (hf) mode (hosted by its own Ray actor) or an openai/vLLM mode")
    if mode.decoding_config().constrained:
        raise ConfigError(f"critic {name}: mode {name} decodes under the action grammar and can only answer with "
                          "actions; use --critic none or a mode that can reply in words (gpt_baseline)")
    return mode


def search_timeout(settings: MCTSSettings, value: float) -> float:
    """The deadline of one search on a Ray worker (past it the worker is killed and the search re-run elsewhere):
    ``mcts.search_timeout_s``, else the time budget plus 10 minutes, else 4 hours."""
    if value:
        return float(value)
    return settings.time_budget_s + 600.0 if settings.time_budget_s else 4 * 3600.0


@dataclass
class MCTSSetup:
    job: MCTSJob
    run: Any
    mode: Any
    cfg: RLConfig
    sampler: Any
    learner: Any
    critic: Any = None
    sync: Any = None
    record: dict[str, Any] = field(default_factory=dict)  # the run's config.yaml
    ray_critic: Any = None  # --ray: the critic as the workers build it (``ray_critic``)
    search_timeout_s: float = 4 * 3600.0  # --ray: one search's deadline on a worker

    @property
    def settings(self) -> MCTSSettings:
        return self.cfg.mcts

    @property
    def dpo(self) -> DPOSettings:
        return self.cfg.dpo

    @property
    def rewards(self) -> Any:
        return self.cfg.rewards

    @property
    def checkpoint_every(self) -> int:
        return self.cfg.mcts_job.checkpoint_every


async def setup_mcts(job: MCTSJob) -> MCTSSetup:
    """Config, checks at the door (before any model, browser or site), the policy with its LoRA learner, the run."""
    from halo.rl.checkpoint import write_run_config
    from halo.runtime.runs import RunDir

    if job.episodes < 1:
        raise ConfigError(f"--episodes must be >= 1, got {job.episodes}")
    cfg, mode = training_config(job.config_path, job.mode, job.modes_file, job.overrides)
    critic_name = cfg.mcts_job.critic
    if critic_name == "same" and mode.decoding_config().constrained:
        raise ConfigError(f"critic 'same': mode {mode.name} decodes under the action grammar and can only answer "
                          f"with actions; use --critic none or a mode that can reply in words (gpt_baseline)")
    if critic_name == "progress":  # the family's own checks: REAL's tasks and plain pages have none
        from halo.tasks.families import is_family_spec

        other = [t for t in job.tasks if t.strip() and not is_family_spec(t.strip())]
        if other:
            raise ConfigError(f"critic 'progress' reads a task family's own checks, and {', '.join(other[:3])} "
                              f"{'is' if len(other) == 1 else 'are'} not a family; use task families "
                              f"(gocalendar.otherday@train) or --critic none / a mode that judges in words")
    if cfg.mcts.explore and (not draws_replies(mode) or job.ray is not None):
        raise ConfigError(f"mcts.explore {cfg.mcts.explore}: candidates are drawn in HALO's own sampler under the "
                          f"action grammar, so it needs an in-process (hf) mode with decoding.constrained (as tiny) "
                          f"and no --ray; mode {mode.name} is {mode.backend}")
    timeout_s = search_timeout(cfg.mcts, cfg.mcts_job.search_timeout_s)
    rcritic = ray_critic(critic_name, job.modes_file) if job.ray is not None else None
    if job.ray is not None and mode.backend not in ("hf", "openai"):
        raise ConfigError(f"--ray reaches the policy as a server (vLLM modes) or in a Ray actor (hf modes); mode "
                          f"{mode.name} has backend {mode.backend!r}")
    await check_at_the_door(job.tasks, job.sites, job.runs_dir, job.log, mode)
    check_learner_memory(mode, cfg, job.learner_model, job.device)
    run = RunDir(job.runs_dir, job.run_name, prefix="mcts")
    learning = make_learning(mode, cfg, run.path, temperature=cfg.mcts.temperature, job="MCTS training",
                             learner_model=job.learner_model, device=job.device)
    # with --ray the workers build the critic (make_critic's, from ray_critic): none in the driver
    critic = make_critic(critic_name, learning.sampler, job.modes_file) if job.ray is None else None
    record = {"command": "train mcts", "tasks": job.tasks, "sites": job.sites, "episodes": job.episodes,
              "mode": mode.model_dump(), "mcts": asdict(cfg.mcts), "dpo": asdict(cfg.dpo), "critic": critic_name,
              "lora": asdict(cfg.lora), "optim": asdict(cfg.optim), "rewards": cfg.raw.get("rewards"),
              "sets": [str(o) for o in job.overrides],
              "ray": ({"address": job.ray, "workers": job.ray_workers, "search_timeout_s": timeout_s}
                      if job.ray is not None else None)}
    write_run_config(run, record, resume=False, overrides=overrides_record(job.overrides))
    return MCTSSetup(job=job, run=run, mode=mode, cfg=cfg, sampler=learning.sampler, learner=learning.learner,
                     critic=critic, sync=learning.sync, record=record, ray_critic=rcritic, search_timeout_s=timeout_s)


def save_tree(run: Any, key: str, result: SearchResult, alpha: float) -> dict[str, Any]:
    """``trees/<key>.json`` and one JPEG per node under ``trees/<key>/`` (the report shows them on click)."""
    from halo.runtime.runs import _jpeg

    d = run.path / "trees" / key
    d.mkdir(parents=True, exist_ok=True)
    shots = {}
    for node in result.root.walk():
        if node.obs.screenshot:
            shots[node.id] = f"{key}/n{node.id:04d}.jpg"
            (d / f"n{node.id:04d}.jpg").write_bytes(_jpeg(node.obs.screenshot, node.obs.image_format))
    rec = tree_record(result, alpha, shots)
    (run.path / "trees" / f"{key}.json").write_text(json.dumps(rec, default=str))
    return rec


def _tracker(setup: MCTSSetup) -> Any:
    from halo.runtime.tracking import open_tracker

    return open_tracker(setup.job.log, setup.run.path, setup.record)


async def learn_from(setup: MCTSSetup, it: int, task: Any, result: SearchResult, tracker: Any, *, errored: int,
                     search_wall_s: float, sync: bool = True, push: Callable[[Any], Awaitable[Any]] | None = None,
                     extra: Callable[[], dict[str, Any]] | None = None) -> dict[str, Any]:
    """What one searched episode gives, the same on both paths: its tree, episode and pairs written, one preference
    update, the adapter saved (and, with ``sync``, hot-loaded into vLLM, or with an in-process mode given to
    ``push``: the Ray policy actor), metrics (with ``extra()``) logged, a checkpoint when due. Returns the
    iteration's metrics."""
    from halo.rl.checkpoint import save_checkpoint

    s, d, run = setup.settings, setup.dpo, setup.run
    key = f"it{it:04d}"
    tree = save_tree(run, key, result, s.alpha)
    run.write_episode(key, result.episode, extra={"iteration": it, "kind": "mcts"})
    pairs = sorted(tree_pairs(result.root, s.alpha, d.margin, solved=d.pairs == "solved"),
                   key=lambda p: -p[1]["margin"])
    pairs = pairs[:d.max_pairs]
    with open(run.path / "pairs.jsonl", "a") as f:
        for _, rec in pairs:
            f.write(json.dumps({"iteration": it, "task_id": task.id, **rec}) + "\n")
    items = sibling_items(result.root, s.alpha, solved=d.pairs == "solved") if d.pg_weight > 0 else []
    t1 = time.perf_counter()
    stats = await asyncio.to_thread(setup.learner.preference_update, [p for p, _ in pairs],
                                    beta=d.beta, items=items, pg_weight=d.pg_weight,
                                    nll_weight=d.nll_weight)
    t_upd = time.perf_counter() - t1
    t_sync = 0.0
    if setup.sync is not None:
        path = str(run.path / "checkpoints" / f"adapter_v{it:06d}")
        await asyncio.to_thread(setup.learner.save_adapter, path)
        if sync:
            t2 = time.perf_counter()
            r = setup.sync(it, path)
            if asyncio.iscoroutine(r):
                await r
            t_sync = time.perf_counter() - t2
    elif sync and push is not None:
        t2 = time.perf_counter()
        await push(setup.learner.model)
        t_sync = time.perf_counter() - t2
    b = result.budget
    groups = [g for _, g in sibling_groups(result.root, s.alpha)]
    m = {"iteration": it, "kind": "mcts", "task": task.id, "success_rate": float(result.success),
         "mean_reward": result.episode.dense_return, "episode_length": len(result.episode.steps),
         "reward_std": 0.0, "action_validity": result.episode.action_validity,
         # nodes whose tried actions all have one Q: no pair, nothing to learn there
         "frac_reward_zero_std": (sum(len({round(e.q(s.alpha), 6) for e in g}) == 1 for g in groups) /
                                  len(groups)) if groups else 0.0,
         "tokens": sum(len(e.sample.token_ids or ()) for n in result.root.walk() for e in n.edges),
         "time_rollout": round(b.elapsed_s, 3), "time_sync": round(t_sync, 3),
         "successes_found": result.successes_found, "simulations": result.simulations,
         "env_steps": b.steps, "restores": b.restores, "kept_restores": b.kept_restores,
         "restore_s": round(b.restore_s, 3),
         "search_s": round(b.elapsed_s, 3), "tree_nodes": len(tree["nodes"]), "pairs": len(pairs),
         "dpo_margin_q": statistics.fmean(r["margin"] for _, r in pairs) if pairs else None,
         "dpo_loss": stats.extra.get("dpo_loss"), "dpo_margin": stats.extra.get("dpo_margin"),
         "dpo_accuracy": stats.extra.get("dpo_accuracy"), "pg_items": stats.items,
         "loss": stats.loss, "grad_norm": stats.grad_norm, "time_update": round(t_upd, 3),
         "wall_s": round(search_wall_s + t_upd + t_sync, 3), "errored": errored, **(extra() if extra else {})}
    run.log_metrics(m)
    tracker.log(m, it)
    if (it + 1) % setup.checkpoint_every == 0 or it == setup.job.episodes - 1:
        save_checkpoint(run.path, it, setup.learner, {"success": result.success})
    return m


def search_failed(setup: MCTSSetup, it: int, task: Any, why: str, errored: int) -> HaloError | None:
    """A broken search (browser, site, policy, a lost Ray worker past its retries) is counted; too many stop the
    run (the error to raise is returned)."""
    setup.run.log_metrics({"searched_episode": it, "kind": "errored", "task": task.id, "error": why})
    if errored > max(2, (it + 1) // 2):
        return HaloError(f"{errored} of {it + 1} searches failed; the last on {task.id}: {why}")
    return None


async def train_mcts(setup: MCTSSetup, tasks: list[Any],
                     on_iteration: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """``job.episodes`` iterations of search, pairs, DPO update; returns the metrics of each."""
    from halo.env.browser import BrowserPool
    from halo.env.env import BrowserEnv
    from halo.rl.curriculum import CurriculumSettings, make_sampler

    s = setup.settings
    sampler = make_sampler(tasks, "auto", CurriculumSettings(), setup.job.seed)
    history: list[dict[str, Any]] = []
    errored = 0
    async with BrowserPool() as pool, contextlib.AsyncExitStack() as stack:
        tracker = stack.enter_context(_tracker(setup))
        env = BrowserEnv(pool, max_steps=s.max_steps, branchable=True)
        try:
            for it in range(setup.job.episodes):
                task = sampler.draw(1, it)[0]
                t0 = time.perf_counter()
                try:
                    result = await MCTSExplorer(env, setup.sampler, task, s, critic=setup.critic,
                                                reward_config=setup.rewards).run()
                except Exception as e:  # a broken search (browser, site, policy) is counted; too many stop the run
                    errored += 1
                    stop = search_failed(setup, it, task, f"{type(e).__name__}: {e}", errored)
                    if stop is not None:
                        raise stop from e
                    continue
                sampler.record(task, [result.success])
                m = await learn_from(setup, it, task, result, tracker, errored=errored,
                                     search_wall_s=time.perf_counter() - t0)
                history.append(m)
                if on_iteration is not None:
                    on_iteration(m)
        finally:
            with contextlib.suppress(Exception):
                await env.close()
    return history


async def train_mcts_ray(setup: MCTSSetup, tasks: list[Any], rollouts: Any,
                         on_iteration: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """The same iterations with the searches on Ray workers: rounds of ``ray_workers`` searches (tasks drawn in
    iteration order), then the round's trees learned from in that order, then the new weights pushed."""
    from halo.rl.curriculum import CurriculumSettings, make_sampler
    from halo.runtime.ray.rollouts import Unit

    s, job = setup.settings, setup.job
    sampler = make_sampler(tasks, "auto", CurriculumSettings(), job.seed)
    history: list[dict[str, Any]] = []
    errored = 0
    with _tracker(setup) as tracker:
        await rollouts.sync_weights(setup.learner.model)  # hf: the actor samples with the learner's adapter
        it = 0
        while it < job.episodes:
            batch = [(i, sampler.draw(1, i)[0]) for i in range(it, min(job.episodes, it + job.ray_workers))]
            outs = await rollouts.run_searches([Unit(task=t, key=i) for i, t in batch], s,
                                               reward_config=setup.rewards, timeout_s=setup.search_timeout_s)
            last_ok = max((i for (i, _), out in zip(batch, outs) if "result" in out), default=None)
            for (i, task), out in zip(batch, outs):
                if "result" not in out:
                    errored += 1
                    stop = search_failed(setup, i, task, out["error"], errored)
                    if stop is not None:
                        raise stop
                    continue
                result, pid = out["result"], out.get("pid")
                sampler.record(task, [result.success])
                # the round's last update reaches the workers: vLLM hot-loads that adapter, or (in-process modes)
                # the policy actor gets the learner's weights
                m = await learn_from(setup, i, task, result, tracker, errored=errored,
                                     search_wall_s=out.get("wall_s", result.budget.elapsed_s), sync=i == last_ok,
                                     push=rollouts.sync_weights,
                                     extra=lambda pid=pid: {"ray": {**rollouts.stats.as_dict(), "worker_pid": pid}})
                history.append(m)
                if on_iteration is not None:
                    on_iteration(m)
            it += len(batch)
    return history


async def run_mcts(job: MCTSJob, *, on_iteration: Callable[[dict[str, Any]], None] | None = None,
                   site_urls: dict[str, str] | None = None, console: Any = None) -> tuple[Any, list[dict[str, Any]]]:
    """Run an MCTS job, its searches here or on Ray workers (one search each at a time); returns the run directory
    and the metrics of each searched episode."""

    def train(setup: MCTSSetup, tasks: list[Any], rollouts: Any) -> Awaitable[list[dict[str, Any]]]:
        if rollouts is None:
            return train_mcts(setup, tasks, on_iteration)
        return train_mcts_ray(setup, tasks, rollouts, on_iteration)

    return await run_training(job, lambda: setup_mcts(job), train, site_urls=site_urls, console=console,
                              rollouts_kw=lambda setup: {"unit_timeout_s": setup.search_timeout_s,
                                                         "critic": setup.ray_critic})
