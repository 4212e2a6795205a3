"""What every training job (GRPO, MCTS) sets up the same way, written once: the mode it trains, the sampler and the
LoRA learner (with the adapter sync a vLLM mode needs), the checks at the door and the run's record.

Two backends:
- ``hf`` modes (in-process transformers): the sampler and the learner share one model, CPU or GPU;
- ``openai`` modes on a vLLM server: vLLM samples, a local transformers copy of the same base model, starting from
  the mode's adapter, learns, and each saved adapter is hot-loaded into vLLM (``LoraSync``).
"""

from __future__ import annotations

import os
import sys
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
    with its overrides; the sections' cross-file defaults filled from the mode's decoding, the learning rate from
    the mode's ``train.lr`` unless ``--lr`` or ``--set grpo.lr`` gave one; recovery off."""
    overrides = list(overrides)
    cfg = load_rl_config(config_path, overrides)
    mode = get_mode(mode_name or cfg.policy.mode or "tiny", modes_file, overrides).for_training()
    dec = mode.decoding_config()
    lr_given = any(o.path[:2] == ("grpo", "lr") for o in overrides)
    return cfg.for_mode(dec.temperature, dec.max_tokens, None if lr_given else mode.train.lr), mode


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
        from halo.policy.tiny import ensure_mode_model

        ensure_mode_model(mode, lambda m: print(m, file=sys.stderr, flush=True))  # a tiny mode's, on first use
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
                              prompt=mode.prompt_config(), device=device, dtype=learner_dtype(device))
    learner = LoRALearner(learner_policy, cfg.lora, cfg.optim, temperature=temperature)
    return Learning(sampler, learner, LoraSync(sampler, prefix=f"halo-{run_path.name}"))


def draws_replies(mode: ModeConfig) -> bool:
    """Whether the mode's sampler can draw replies uniformly under the action grammar (``grpo.explore``,
    ``mcts.explore``): HALO's own in-process (hf) sampler, decoding constrained."""
    return mode.backend == "hf" and mode.decoding_config().constrained


def learner_dtype(device: str) -> str:
    """The vLLM modes' learner weights: bf16 on a GPU (what vLLM serves, and the learner whose update
    bench/results/learner_scale_cuda.json measured), fp32 on the CPU. peft keeps the LoRA's own weights in fp32."""
    return "bfloat16" if str(device).startswith("cuda") else "float32"


def check_learner_memory(mode: ModeConfig, cfg: RLConfig, learner_model: str | None, device: str) -> None:
    """``--device cuda``: the free GPU memory (``torch.cuda.mem_get_info``, what the vLLM server beside it left)
    must hold the learner's update, estimated from the model's shape (``halo.rl.memory``): refused before any model
    loads. A model whose config.json is not here (nothing cached yet) or a machine without CUDA is left to loading."""
    if not str(device).startswith("cuda") or mode.backend != "openai":  # hf modes sample and learn on the CPU
        return
    from halo.rl.learner import CHECKPOINT_AUTO_PARAMS
    from halo.rl.memory import GIB, model_shape, parameter_count, update_bytes

    model = learner_model or mode.model
    shape = model_shape(model)
    if shape is None:
        return
    import torch

    try:
        free, total = torch.cuda.mem_get_info(torch.device(device))
    except (RuntimeError, AssertionError, ValueError):
        return
    n = parameter_count(shape)
    ckpt = cfg.lora.gradient_checkpointing
    ckpt = n > CHECKPOINT_AUTO_PARAMS if ckpt == "auto" else bool(ckpt)
    dtype = learner_dtype(device)
    need = update_bytes(shape, cfg.optim.pack_tokens, ckpt, dtype)
    if need > free:
        raise ConfigError(
            f"--device {device}: the learner's update of {model} needs about {need / GIB:.1f} GiB of GPU memory "
            f"({n / 1e9:.2f}B parameters in {dtype}, grpo.pack_tokens {cfg.optim.pack_tokens}, gradient checkpointing "
            f"{'on' if ckpt else 'off'}) and {free / GIB:.1f} of {total / GIB:.1f} GiB are free: serve vLLM with a "
            f"smaller share (the mode's serve.gpu_memory_utilization: 0.55 for qwen3vl_base on an 80 GB card), lower "
            f"grpo.pack_tokens, or give the learner a GPU of its own (--device cuda:1)")


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
