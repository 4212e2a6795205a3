"""One Tinker training run: check the key, serve REAL-local if asked, build the Config, call tinker-cookbook's
``main``, close the browsers."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from halo.tinker.config import (
    TinkerRunConfig,
    build_train_config,
    check_tinker_reachable,
    require_tinker_api_key,
    resolve_task_ids,
)

log = logging.getLogger(__name__)


async def _train(cfg) -> None:
    from tinker_cookbook.rl.train import main

    from halo.tinker.browsers import close_browser_slots

    try:
        await main(cfg)
    finally:
        await close_browser_slots()


def run_training(run: TinkerRunConfig, log_to: str = "none") -> None:
    """Blocking. Without ``TINKER_API_KEY``, with bad task ids or with the service out of reach it raises
    before any site or browser starts. ``log_to`` (``--log``): ``wandb`` goes through tinker-cookbook's own W&B
    logger (offline unless ``WANDB_MODE`` says otherwise); ``tensorboard`` replays its ``metrics.jsonl`` into
    event files when the run ends, however it ends."""
    import dataclasses
    import os

    import yaml

    from halo.tracking import check_tracker, provenance

    check_tracker(log_to)
    require_tinker_api_key()
    resolve_task_ids(run.tasks, run.sites)
    check_tinker_reachable(run.base_url)
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


def replay_metrics(log_path: Path) -> int:
    """tinker-cookbook's ``metrics.jsonl`` (one record per step, ``step`` key) into TensorBoard event files under
    ``log_path/tensorboard``; returns the records written."""
    import json

    from halo.tracking import open_tracker

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
    from halo.eval import local_sites

    with local_sites(run.sites == "local") as urls:
        cfg = build_train_config(run, urls)
        log.info("tinker run: %s tasks, group %d, loss %s -> %s", len(cfg.dataset_builder.task_ids),
                 run.num_envs, run.loss_fn, run.log_path)
        asyncio.run(_train(cfg))
