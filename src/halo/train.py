"""Training jobs: assembling a GRPO run from configs/rl_config.yaml, a policy mode and command-line overrides, and running it.

Shared by ``halo train grpo``, ``scripts/train_online_grpo.py`` and ``halo demo``. Two backends:
- ``hf`` modes (in-process transformers): the sampler and the learner share one model, CPU or GPU;
- ``openai`` modes on a vLLM server: vLLM samples, a local transformers copy of the same base model learns, and
  each new adapter is hot-loaded into vLLM (``LoraSync``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from halo.errors import ConfigError
from halo.rl.config import build, load_rl_config
from halo.rl.grpo import GRPOSettings, GRPOTrainer, IterationResult, settings_record
from halo.rl.learner import LoRALearner, LoRASettings, OptimSettings
from halo.rl.rewards import RewardConfig
from halo.validate import validate_grpo_job

OPTIM_KEYS = {f.name for f in dataclasses.fields(OptimSettings)}
GRPO_KEYS = {f.name for f in dataclasses.fields(GRPOSettings)}


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
    mode_overrides: dict[str, Any] = field(default_factory=dict)  # model, adapter, temperature, max_tokens, ...
    grpo_overrides: dict[str, Any] = field(default_factory=dict)  # any GRPOSettings or OptimSettings field
    lora_overrides: dict[str, Any] = field(default_factory=dict)
    allow_group_size_one: bool = False  # a group of 1 has no advantage to learn from: refused unless asked for
    log: str = "none"  # tracker beside metrics.jsonl: none | tensorboard | wandb (halo.tracking)
    sets: tuple[str, ...] = ()  # --set key.path=value: rl_config sections and mode.* (halo.config_files)
    modes_file: str | None = None
    ray: str | None = None  # --ray: None runs rollouts here; "local" starts a local Ray cluster; else its address
    ray_workers: int = 2  # rollout workers (Ray actors), each one browser pool of group_size envs


def settings_from_config(cfg: dict[str, Any], grpo_over: dict[str, Any], lora_over: dict[str, Any],
                         temperature: float | None = None, max_tokens: int | None = None
                         ) -> tuple[GRPOSettings, OptimSettings, LoRASettings, RewardConfig]:
    """rl_config.yaml's ``grpo`` section holds both the loop's settings and the optimizer's; split them."""
    g = dict(cfg.get("grpo") or {})
    unknown = set(g) - GRPO_KEYS - OPTIM_KEYS
    if unknown:
        raise ConfigError(f"rl_config grpo: unknown keys {sorted(unknown)}; known: {sorted(GRPO_KEYS | OPTIM_KEYS)}")
    bad = set(grpo_over) - GRPO_KEYS - OPTIM_KEYS
    if bad:
        raise ConfigError(f"unknown GRPO overrides {sorted(bad)}")
    pol, ep = cfg.get("policy") or {}, cfg.get("episode") or {}
    loop_vals = {k: v for k, v in g.items() if k in GRPO_KEYS}
    loop_vals.setdefault("max_steps", ep.get("max_steps", 70))
    loop_vals.setdefault("episode_timeout_s", ep.get("episode_timeout_s", 900.0))
    loop_vals.setdefault("temperature", pol.get("temperature", 0.7))
    if temperature is not None:
        loop_vals["temperature"] = temperature
    settings = build(GRPOSettings, loop_vals, "rl_config grpo",
                     **{k: v for k, v in grpo_over.items() if k in GRPO_KEYS})
    optim_vals = {k: v for k, v in g.items() if k in OPTIM_KEYS}
    optim_vals.setdefault("max_tokens", max_tokens or pol.get("max_tokens", 300))
    optim = build(OptimSettings, optim_vals, "rl_config grpo", **{k: v for k, v in grpo_over.items()
                                                                   if k in OPTIM_KEYS})
    lora = build(LoRASettings, cfg.get("lora") or {}, "rl_config lora", **lora_over)
    rewards = RewardConfig.from_dict(cfg.get("rewards") or {})
    return settings, optim, lora, rewards


def resolve_mode(job: GRPOJob, cfg: dict[str, Any]):
    from halo.policy.modes import get_mode

    # decoding comes from the mode (modes.yaml) and the command line; rl_config's ``policy`` section is for
    # trainers without a mode (Tinker) and names the default mode
    name = job.mode or (cfg.get("policy") or {}).get("mode") or "tiny"
    return get_mode(name, job.modes_file, job.sets).with_overrides(**job.mode_overrides).for_training()


@dataclass
class GRPOSetup:
    """Everything a GRPO run needs, built once (the demo evaluates with the same sampler before and after)."""

    job: GRPOJob
    run: Any
    mode: Any
    sampler: Any
    learner: LoRALearner
    settings: GRPOSettings
    rewards: RewardConfig
    sync: Any = None
    start: int = 0
    record: dict[str, Any] = field(default_factory=dict)  # the run's config.yaml


async def setup_grpo(job: GRPOJob, console: Any = None) -> GRPOSetup:
    """Resolve config, mode and overrides; load the policy; wrap it with LoRA; resume if asked."""
    from halo.policy.modes import make_policy
    from halo.rl.checkpoint import clean_stale, latest_checkpoint, load_checkpoint, truncate_metrics, write_run_config
    from halo.runs import RunDir

    cfg = load_rl_config(job.config_path, job.sets)
    mode = resolve_mode(job, cfg)
    dec = mode.decoding_config()
    settings, optim, lora, rewards = settings_from_config(cfg, job.grpo_overrides, job.lora_overrides,
                                                          temperature=dec.temperature, max_tokens=dec.max_tokens)
    if job.resume and not job.run_name:
        raise ConfigError("--resume needs --run-name (the run directory to continue)")
    from halo.tracking import check_tracker

    check_tracker(job.log)
    await validate_grpo_job(job, cfg, mode, settings, optim, lora)  # before any model, run dir, browser or site
    run = RunDir(job.runs_dir, job.run_name, prefix="grpo")
    clean_stale(run.path)  # temp dirs of checkpoint writes a kill cut short
    sync = None
    if mode.backend == "hf":
        sampler = make_policy(mode)
        learner_policy = sampler
    else:
        if mode.server.kind != "vllm":
            raise ConfigError(f"mode {mode.name}: GRPO needs an in-process (hf) mode or a vLLM server "
                              f"(server.kind: vllm) that can hot-load adapters; {mode.server.kind} cannot")
        from halo.policy.hf_backend import HFPolicy
        from halo.rl.lora_sync import LoraSync

        sampler = make_policy(mode)
        if dec.jump_forward:
            raise ConfigError(f"mode {mode.name}: jump_forward is in-process decoding only; vLLM samples every token "
                              "the grammar allows")
        learner_policy = HFPolicy(job.learner_model or mode.model, adapter=mode.adapter, decoding=dec,
                                  prompt=mode.prompt_config(), device=job.device)
        sync = LoraSync(sampler, prefix=f"halo-{run.path.name}")
    learner = LoRALearner(learner_policy, lora, optim, temperature=settings.temperature)
    start = 0
    if job.resume:
        ck = latest_checkpoint(run.path)
        if ck is None:
            raise ConfigError(f"--resume: no checkpoint in {run.path / 'checkpoints'}; start without --resume")
        last = load_checkpoint(ck, learner)
        dropped = truncate_metrics(run.path / "metrics.jsonl", last)
        start = last + 1
        if console is not None:
            console.print(f"resuming {run.path} after iteration {last} ({ck.name}); "
                          f"dropped {dropped} metrics lines written after it")
        if sync is not None:
            await sync(last, str(ck))
    record = {"command": "train grpo", "tasks": job.tasks, "sites": job.sites, "mode": mode.model_dump(),
              **settings_record(settings, lora, optim), "rewards": cfg.get("rewards"),
              "resumed_at_iteration": start if job.resume else None, "sets": list(job.sets),
              "ray": {"address": job.ray, "workers": job.ray_workers} if job.ray is not None else None}
    write_run_config(run, record, resume=job.resume,  # a resume keeps the first config.yaml, adds to resumes.yaml
                     overrides={"mode": job.mode_overrides, "grpo": job.grpo_overrides, "lora": job.lora_overrides})
    return GRPOSetup(job=job, run=run, mode=mode, sampler=sampler, learner=learner, settings=settings,
                     rewards=rewards, sync=sync, start=start, record=record)


async def train_grpo(setup: GRPOSetup, tasks: list[Any],
                     on_iteration: Callable[[IterationResult], None] | None = None,
                     progress: Callable[[int], float] | None = None) -> list[dict[str, Any]]:
    """``progress`` (iteration -> 0..1) replaces iterations done as the progress the lr and entropy schedules
    follow (a driver that stops on another budget)."""
    from halo.tracking import open_tracker

    with open_tracker(setup.job.log, setup.run.path, setup.record) as tracker:
        trainer = GRPOTrainer(setup.sampler, setup.learner, tasks, setup.settings, setup.run,
                              reward_config=setup.rewards, sync=setup.sync, tracker=tracker)
        trainer.progress_fn = progress
        return await trainer.train(start_iteration=setup.start, on_iteration=on_iteration)


async def run_grpo(job: GRPOJob, *, console: Any = None,
                   on_iteration: Callable[[IterationResult], None] | None = None,
                   site_urls: dict[str, str] | None = None) -> tuple[Any, list[dict[str, Any]]]:
    """Run (or resume) a GRPO job; returns the run directory and the metrics of the iterations run now."""
    from halo.eval import local_sites, needs_local_sites, resolve_tasks

    if job.ray is not None:
        from halo.scale import check_address

        check_address(job.ray, job.ray_workers)  # a bad --ray is an error before any model, site or browser
    setup = await setup_grpo(job, console)
    try:
        if job.ray is not None:
            return setup.run, await _run_grpo_ray(job, setup, console, on_iteration)
        with local_sites(needs_local_sites(job.tasks, job.sites), site_urls) as urls:
            tasks = resolve_tasks(job.tasks, job.sites, urls)
            history = await train_grpo(setup, tasks, on_iteration)
    finally:
        await setup.sampler.aclose()
    return setup.run, history


async def _run_grpo_ray(job: GRPOJob, setup: GRPOSetup, console: Any,
                        on_iteration: Callable[[IterationResult], None] | None) -> list[dict[str, Any]]:
    """GRPO whose groups run on Ray rollout workers (each serving REAL-local on its own node when local)."""
    from halo.eval import resolve_tasks
    from halo.scale import RayRollouts, connect, sites_of
    from halo.tracking import open_tracker

    info = connect(job.ray, job.ray_workers)
    tasks = resolve_tasks(job.tasks, job.sites, None)  # default URLs: each worker retargets to its own sites
    s = setup.settings
    rollouts = RayRollouts(setup.mode, setup.sampler, workers=job.ray_workers, sites=sites_of(tasks),
                           env_kwargs={"max_steps": s.max_steps, "episode_timeout_s": s.episode_timeout_s},
                           unit_timeout_s=s.episode_timeout_s + 120,
                           lora=setup.learner.lora if setup.mode.backend == "hf" else None)
    if console is not None:
        console.print(f"Ray: {info['address']} ({info['nodes']} node(s), {info['cpus']} CPUs), "
                      f"{job.ray_workers} rollout workers")
    try:
        async with rollouts:
            with open_tracker(job.log, setup.run.path, setup.record) as tracker:
                trainer = GRPOTrainer(setup.sampler, setup.learner, tasks, setup.settings, setup.run,
                                      reward_config=setup.rewards, sync=setup.sync, tracker=tracker,
                                      rollouts=rollouts)
                return await trainer.train(start_iteration=setup.start, on_iteration=on_iteration)
    finally:
        if info["started"]:
            from halo.scale import shutdown

            shutdown()


def latest_adapter(run_path: str | Path) -> Path | None:
    from halo.rl.checkpoint import latest_checkpoint

    return latest_checkpoint(Path(run_path))
