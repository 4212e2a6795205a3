"""One Tinker training run: check the key, serve REAL-local if asked, build the Config, call tinker-cookbook's
``main``, close the browsers."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from halo.jobs.tinker_config import (
    TinkerRunConfig,
    build_train_config,
    check_tinker_reachable,
    require_tinker_api_key,
    resolve_task_ids,
)

log = logging.getLogger(__name__)


async def _train(cfg) -> None:
    from tinker_cookbook.rl.train import main

    from halo.rl.tinker.browsers import close_browser_slots

    try:
        await main(cfg)
    finally:
        await close_browser_slots()


def run_training(run: TinkerRunConfig, log_to: str = "none") -> None:
    """Blocking. Without ``TINKER_API_KEY``, with bad task ids, with the service out of reach or with a model
    or loss the server does not offer (its capability call) it raises before any site or browser starts. ``log_to`` (``--log``): ``wandb`` goes through tinker-cookbook's own W&B
    logger (offline unless ``WANDB_MODE`` says otherwise); ``tensorboard`` replays its ``metrics.jsonl`` into
    event files when the run ends, however it ends."""
    import dataclasses
    import os

    import yaml

    from halo.runtime.tracking import check_tracker
    from halo.version import provenance

    check_tracker(log_to)
    require_tinker_api_key()
    resolve_task_ids(run.tasks, run.sites)
    check_tinker_reachable(run.base_url)
    preflight_run(run)
    image_preflight(run)
    if log_to == "wandb":
        os.environ.setdefault("WANDB_MODE", "offline")
        run = dataclasses.replace(run, wandb_project=run.wandb_project or "halo-agent")
    Path(run.log_path).mkdir(parents=True, exist_ok=True)
    (Path(run.log_path) / "halo_run.yaml").write_text(yaml.safe_dump(
        {"command": "train tinker", "tasks": list(run.tasks), "log": log_to, "provenance": provenance()},
        sort_keys=False))
    try:
        _run(run)
    finally:
        if log_to == "tensorboard":
            replay_metrics(Path(run.log_path))


def preflight_run(run: TinkerRunConfig, fetch=None):
    """The server's capabilities checked against the run's model and loss (one clear line when it cannot serve
    them); a note when hosted Tinker has retired the model. Before any site or browser starts."""
    from halo.policy.tinker.models import retirement_note
    from halo.policy.tinker.preflight import preflight

    caps = preflight(run.model_name, run.loss_fn, run.base_url, loss_fns=run.server_loss_fns, fetch=fetch)
    note = retirement_note(run.model_name)
    if note and caps.hosted:
        log.warning(note)
    log.info("tinker server %s: %s can be trained; losses (%s): %s", caps.url, run.model_name, caps.loss_source,
             ", ".join(caps.loss_fns))
    return caps


def image_preflight(run: TinkerRunConfig) -> str:
    """The model's tokenizer, processor config and renderer loaded (cached for the run's envs; a clear error if
    one cannot be) and what a screenshot costs the model."""
    from halo.tinker import render

    from halo.policy.tinker.models import describe_screenshots

    render.load_renderer(run.renderer_name, run.model_name)
    line = describe_screenshots(run.model_name, run.max_pixels, run.min_pixels)
    log.info(line)
    return line


def replay_metrics(log_path: Path) -> int:
    """tinker-cookbook's ``metrics.jsonl`` (one record per step, ``step`` key) into TensorBoard event files under
    ``log_path/tensorboard``; returns the records written."""
    import json

    from halo.runtime.tracking import open_tracker

    f = log_path / "metrics.jsonl"
    if not f.is_file():
        return 0
    n = 0
    with open_tracker("tensorboard", log_path) as t:
        for i, line in enumerate(f.read_text().splitlines()):
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            t.log(rec, int(rec.get("step", i)))
            n += 1
    return n


def _run(run: TinkerRunConfig) -> None:
    from halo.tasks.resolve import local_sites

    with local_sites(run.sites == "local") as urls:
        cfg = build_train_config(run, urls)
        log.info("tinker run: %s tasks, group %d, loss %s -> %s", len(cfg.dataset_builder.task_ids),
                 run.num_envs, run.loss_fn, run.log_path)
        asyncio.run(_train(cfg))
