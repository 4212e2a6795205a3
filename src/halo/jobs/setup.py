"""What every training job (GRPO, MCTS) sets up the same way, written once: the mode it trains, the sampler and the
LoRA learner (with the adapter sync a vLLM mode needs), the checks at the door and the run's record.

Two backends:
- ``hf`` modes (in-process transformers): the sampler and the learner share one model, CPU or GPU;
- ``openai`` modes on a vLLM server: vLLM samples, a local transformers copy of the same base model, starting from
  the mode's adapter, learns, and each saved adapter is hot-loaded into vLLM (``LoraSync``).
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from halo.config.overrides import Override, apply
from halo.errors import ConfigError
from halo.policy.base import PolicyBackend
from halo.policy.modes import ModeConfig, get_mode, make_policy
from halo.rl.config import RLConfig, load_rl_config
from halo.rl.learner import LoRALearner
from halo.rl.lora_sync import LoraSync


def training_config(config_path: str | os.PathLike | None, mode_name: str | None, modes_file: str | None,
                    overrides: Iterable[Override]) -> tuple[RLConfig, ModeConfig]:
    """rl_config.yaml and the mode a job trains (``--mode``, else rl_config's ``policy.mode``, else tiny), each
    with its overrides; the sections' cross-file defaults filled from the mode's decoding; recovery off."""
    overrides = list(overrides)
    cfg = load_rl_config(config_path, overrides)
    mode = get_mode(mode_name or cfg.policy.mode or "tiny", modes_file, overrides).for_training()
    dec = mode.decoding_config()
    return cfg.for_mode(dec.temperature, dec.max_tokens), mode


@dataclass
class Learning:
    """The sampler episodes are drawn from, the learner that updates the LoRA weights, and (vLLM modes) the sync
    that hot-loads each saved adapter into the server."""

    sampler: PolicyBackend
    learner: LoRALearner
    sync: LoraSync | None = None


def make_learning(mode: ModeConfig, cfg: RLConfig, run_path: Path, *, temperature: float, job: str,
                  learner_model: str | None = None, device: str = "cpu") -> Learning:
    """The sampler and its learner for ``mode`` (see the module doc). The learner starts from the mode's adapter
    on both backends, so its updates continue the weights the sampler samples with."""
    dec = mode.decoding_config()
    if mode.backend == "hf":
        sampler = make_policy(mode)
        return Learning(sampler, LoRALearner(sampler, cfg.lora, cfg.optim, temperature=temperature))
    if mode.backend != "openai" or mode.server.kind != "vllm":
        kind = mode.server.kind if mode.backend == "openai" else mode.backend
        raise ConfigError(f"mode {mode.name}: {job} needs an in-process (hf) mode or a vLLM server (server.kind: "
                          f"vllm) that can hot-load adapters; {kind} cannot")
    if dec.jump_forward:
        raise ConfigError(f"mode {mode.name}: jump_forward is in-process decoding only; vLLM samples every token "
                          "the grammar allows")
    from halo.policy.hf_backend import HFPolicy

    sampler = make_policy(mode)
    learner_policy = HFPolicy(learner_model or mode.model, adapter=mode.adapter, decoding=dec,
                              prompt=mode.prompt_config(), device=device)
    learner = LoRALearner(learner_policy, cfg.lora, cfg.optim, temperature=temperature)
    return Learning(sampler, learner, LoraSync(sampler, prefix=f"halo-{run_path.name}"))


async def check_at_the_door(refs: Sequence[str], sites: str, runs_dir: str | os.PathLike, log: str,
                            mode: ModeConfig) -> list[Any]:
    """Before any model, run directory, browser or site: the runs directory is writable, the tracker installed,
    the tasks resolve, the policy server and remote sites answer. Returns the tasks (at REAL-local's default
    URLs)."""
    from halo.jobs.preflight import check_runs_dir, preflight, resolve_task_refs
    from halo.runtime.tracking import check_tracker

    check_runs_dir(runs_dir)
    check_tracker(log)
    tasks = resolve_task_refs(refs, sites)
    await preflight(mode, tasks)
    return tasks


def overrides_record(overrides: Iterable[Override]) -> dict[str, Any]:
    """The overrides (``--set`` and flags) as the nested mapping they set, for a run's records."""
    return apply({}, overrides, "overrides")


async def run_training(job: Any, make_setup: Callable[[], Awaitable[Any]],
                       train: Callable[[Any, list[Any], Any], Awaitable[list[dict[str, Any]]]], *,
                       rollouts_kw: Callable[[Any], dict[str, Any]], site_urls: dict[str, str] | None = None,
                       console: Any = None) -> tuple[Any, list[dict[str, Any]]]:
    """The run every training job shares: a bad ``--ray`` refused before anything starts, the job's set-up, then
    ``train(setup, tasks, rollouts)`` here (REAL-local served for the run, ``rollouts`` None) or on Ray rollout
    workers (each serving REAL-local on its own node; ``rollouts_kw(setup)``: the job's own ``RayRollouts``
    settings); the sampler closed however it ends. Returns the run directory and the iterations' metrics."""
    from halo.tasks.resolve import local_sites, needs_local_sites, resolve_tasks

    if job.ray is not None:
        from halo.runtime.ray.cluster import check_address

        check_address(job.ray, job.ray_workers)
    setup = await make_setup()
    try:
        if job.ray is None:
            with local_sites(needs_local_sites(job.tasks, job.sites), site_urls) as urls:
                return setup.run, await train(setup, resolve_tasks(job.tasks, job.sites, urls), None)
        from halo.runtime.ray.cluster import ray_session
        from halo.runtime.ray.rollouts import RayRollouts, sites_of

        with ray_session(job.ray, job.ray_workers, console):
            tasks = resolve_tasks(job.tasks, job.sites, None)  # default URLs: each worker retargets to its own sites
            rollouts = RayRollouts(setup.mode, setup.sampler, workers=job.ray_workers, sites=sites_of(tasks),
                                   lora=setup.learner.lora if setup.mode.backend == "hf" else None,
                                   **rollouts_kw(setup))
            async with rollouts:
                return setup.run, await train(setup, tasks, rollouts)
    finally:
        await setup.sampler.aclose()
