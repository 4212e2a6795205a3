"""The GRPO job: a run assembled from configs/rl_config.yaml, a policy mode and the command line, then trained.

Shared by ``halo train grpo``, ``scripts/train_online_grpo.py`` and ``halo demo``. The mode, the sampler and the
learner are set up as every training job sets them up (``halo.jobs.setup``); the iterations are
``halo.rl.grpo.GRPOTrainer``'s, with rollouts here or on Ray workers (``--ray``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from halo.config.overrides import Override
from halo.errors import ConfigError
from halo.jobs.setup import (
    check_at_the_door,
    check_learner_memory,
    draws_replies,
    make_learning,
    overrides_record,
    run_training,
    training_config,
)
from halo.policy.modes import ModeConfig
from halo.rl.config import RLConfig
from halo.rl.grpo import GRPOTrainer, IterationResult, settings_record


@dataclass
class GRPOJob:
    tasks: list[str]
    mode: str | None = None  # None: rl_config's policy.mode
    sites: str = "local"
    run_name: str | None = None
    runs_dir: str = "runs"
    resume: bool = False
    config_path: str | None = None
    learner_model: str | None = None  # vLLM backend: the base model the local learner loads (default: the mode's)
    device: str = "cpu"
    # --set items, then the command's flags, as typed overrides of rl_config sections and mode.* (halo.config)
    overrides: tuple[Override, ...] = ()
    allow_group_size_one: bool = False  # a group of 1 has no advantage to learn from: refused unless asked for
    log: str = "none"  # tracker beside metrics.jsonl: none | tensorboard | wandb (halo.runtime.tracking)
    modes_file: str | None = None
    ray: str | None = None  # --ray: None runs rollouts here; "local" starts a local Ray cluster; else its address
    ray_workers: int = 2  # rollout workers (Ray actors), each one browser pool of min(group_size, parallel) envs


def check_grpo(job: GRPOJob, cfg: RLConfig, mode: ModeConfig) -> None:
    """What GRPO asks of its settings beyond their own ranges."""
    if cfg.grpo.group_size < 2 and not job.allow_group_size_one:
        raise ConfigError(f"group_size {cfg.grpo.group_size}: GRPO's advantage is an episode's return minus its "
                          f"group's mean, so a group of 1 learns nothing; use --group-size 2 or more (or pass "
                          f"--allow-group-size-one to run it anyway)")
    if cfg.lora.modules_to_save and mode.backend != "hf":
        raise ConfigError(f"lora.modules_to_save {list(cfg.lora.modules_to_save)}: a vLLM server hot-loads LoRA "
                          f"adapters only, not fully trained modules; train them with an in-process (hf) mode such "
                          f"as tiny, or leave lora.modules_to_save empty for mode {mode.name}")
    vllm = mode.backend == "openai" and mode.server.kind == "vllm"
    if cfg.grpo.max_staleness and mode.backend != "hf" and not vllm:
        raise ConfigError(f"grpo.max_staleness {cfg.grpo.max_staleness}: asynchronous GRPO needs a sampler that "
                          f"records each completion's adapter version: an in-process (hf) mode or a vLLM server "
                          f"(server.kind vllm); mode {mode.name} is {mode.backend}"
                          f"{f' ({mode.server.kind})' if mode.backend == 'openai' else ''}; set grpo.max_staleness=0")
    if cfg.grpo.search_every:
        check_search(job, cfg, mode)
    explore = cfg.grpo.explore or cfg.grpo.explore_stuck
    if explore and (not draws_replies(mode) or job.ray is not None):
        named = " and ".join(f"grpo.{k} {v}" for k, v in (("explore", cfg.grpo.explore),
                                                              ("explore_stuck", cfg.grpo.explore_stuck)) if v)
        raise ConfigError(f"{named}: exploration draws replies in HALO's own sampler under the "
                          f"action grammar, so it needs an in-process (hf) mode with decoding.constrained (as tiny) "
                          f"and no --ray; mode {mode.name} is {mode.backend}"
                          f"{'' if mode.decoding_config().constrained else ', unconstrained'}")


def check_search(job: GRPOJob, cfg: RLConfig, mode: ModeConfig) -> None:
    """``grpo.search_every`` (MCTS inside GRPO, rl/search_replay.py): a bounded search, here, that can sample."""
    every, m = cfg.grpo.search_every, cfg.mcts
    if job.ray is not None:
        raise ConfigError(f"grpo.search_every {every}: the search runs in this process on a branchable browser env; "
                          "with --ray the browsers are the workers' (set grpo.search_every=0 or drop --ray)")
    if not (m.step_budget or m.time_budget_s):
        raise ConfigError(f"grpo.search_every {every}: each search must end; set mcts.step_budget (env steps a "
                          "search, e.g. 150) or mcts.time_budget_s")
    if m.explore and not draws_replies(mode):
        raise ConfigError(f"grpo.search_every with mcts.explore {m.explore}: drawn candidates need an in-process (hf) "
                          f"mode with decoding.constrained (as tiny); mode {mode.name} is {mode.backend}")


@dataclass
class GRPOSetup:
    """Everything a GRPO run needs, built once (the demo evaluates with the same sampler before and after)."""

    job: GRPOJob
    run: Any
    mode: ModeConfig
    cfg: RLConfig
    sampler: Any
    learner: Any
    sync: Any = None
    start: int = 0
    record: dict[str, Any] = field(default_factory=dict)  # the run's config.yaml

    @property
    def settings(self) -> Any:
        return self.cfg.grpo


async def setup_grpo(job: GRPOJob, console: Any = None) -> GRPOSetup:
    """Config, mode and overrides; checks at the door; the policy wrapped with LoRA; resume if asked."""
    from halo.rl.checkpoint import (
        changed_leaves,
        clean_stale,
        config_changes,
        latest_checkpoint,
        load_checkpoint,
        truncate_metrics,
        write_run_config,
    )
    from halo.runtime.runs import RunDir, run_path

    if job.resume and not job.run_name:
        raise ConfigError("--resume needs --run-name (the run directory to continue)")
    cfg, mode = training_config(job.config_path, job.mode, job.modes_file, job.overrides)
    check_grpo(job, cfg, mode)
    await check_at_the_door(job.tasks, job.sites, job.runs_dir, job.log, mode)
    check_learner_memory(mode, cfg, job.learner_model, job.device)
    ck = None
    if job.resume:  # before the run directory and the model: a resume that cannot resume leaves nothing behind
        path = run_path(job.runs_dir, job.run_name)
        ck = latest_checkpoint(path)
        if ck is None:
            raise ConfigError(f"--resume: no checkpoint in {path / 'checkpoints'}; start without --resume")
    run = RunDir(job.runs_dir, job.run_name, prefix="grpo")
    clean_stale(run.path)  # temp dirs of checkpoint writes a kill cut short
    learning = make_learning(mode, cfg, run.path, temperature=cfg.grpo.temperature, job="GRPO",
                             learner_model=job.learner_model, device=job.device)
    start = 0
    if ck is not None:
        last = load_checkpoint(ck, learning.learner)
        dropped = truncate_metrics(run.path / "metrics.jsonl", last)
        start = last + 1
        if console is not None:
            console.print(f"resuming {run.path} after iteration {last} ({ck.name}); "
                          f"dropped {dropped} metrics lines written after it")
        if learning.sync is not None:
            await learning.sync(last, str(ck))
    record = {"command": "train grpo", "tasks": job.tasks, "sites": job.sites, "mode": mode.model_dump(),
              **settings_record(cfg.grpo, cfg.lora, cfg.optim), "rewards": cfg.raw.get("rewards"),
              "resumed_at_iteration": start if job.resume else None, "sets": [str(o) for o in job.overrides],
              "ray": {"address": job.ray, "workers": job.ray_workers} if job.ray is not None else None}
    if job.resume and console is not None:  # what differs from the run's first settings, said before it goes on
        changes = changed_leaves(config_changes(run, record))
        console.print("changed since the run started (recorded in resumes.yaml): " + "; ".join(changes)
                      if changes else "no setting changed since the run started")
    # a resume keeps the first config.yaml, and adds to resumes.yaml
    write_run_config(run, record, resume=job.resume, overrides=overrides_record(job.overrides))
    return GRPOSetup(job=job, run=run, mode=mode, cfg=cfg, sampler=learning.sampler, learner=learning.learner,
                     sync=learning.sync, start=start, record=record)


async def train_grpo(setup: GRPOSetup, tasks: list[Any],
                     on_iteration: Callable[[IterationResult], None] | None = None,
                     progress: Callable[[int], float] | None = None, rollouts: Any = None) -> list[dict[str, Any]]:
    """``progress`` (iteration -> 0..1) replaces iterations done as the progress the lr and entropy schedules
    follow (a driver that stops on another budget); ``rollouts``: Ray rollout workers."""
    from halo.runtime.tracking import open_tracker

    with open_tracker(setup.job.log, setup.run.path, setup.record) as tracker:
        trainer = GRPOTrainer(setup.sampler, setup.learner, tasks, setup.cfg.grpo, setup.run,
                              reward_config=setup.cfg.rewards, sync=setup.sync, tracker=tracker, rollouts=rollouts,
                              search=setup.cfg.mcts)
        trainer.progress_fn = progress
        return await trainer.train(start_iteration=setup.start, on_iteration=on_iteration)


async def run_grpo(job: GRPOJob, *, console: Any = None,
                   on_iteration: Callable[[IterationResult], None] | None = None,
                   site_urls: dict[str, str] | None = None) -> tuple[Any, list[dict[str, Any]]]:
    """Run (or resume) a GRPO job, its rollouts here or on Ray workers; returns the run directory and the metrics of
    the iterations run now."""

    def ray_kw(setup: GRPOSetup) -> dict[str, Any]:
        s = setup.cfg.grpo
        waves = -(-s.group_size // s.parallel)  # a group larger than grpo.parallel runs in waves on its worker
        return {"env_kwargs": {"max_steps": s.max_steps, "episode_timeout_s": s.episode_timeout_s},
                "unit_timeout_s": waves * s.episode_timeout_s + 120}

    return await run_training(job, lambda: setup_grpo(job, console),
                              lambda setup, tasks, rollouts: train_grpo(setup, tasks, on_iteration, rollouts=rollouts),
                              rollouts_kw=ray_kw, site_urls=site_urls, console=console)
