"""One Tinker training run: check the key, serve REAL-local if asked, build the Config, call tinker-cookbook's
``main``, close the browsers."""

from __future__ import annotations

import asyncio
import logging

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


def run_training(run: TinkerRunConfig) -> None:
    """Blocking. Without ``TINKER_API_KEY``, with bad task ids or with the service out of reach it raises
    before any site or browser starts."""
    require_tinker_api_key()
    resolve_task_ids(run.tasks, run.sites)
    check_tinker_reachable(run.base_url)
    from halo.eval import local_sites

    with local_sites(run.sites == "local") as urls:
        cfg = build_train_config(run, urls)
        log.info("tinker run: %s tasks, group %d, loss %s -> %s", len(cfg.dataset_builder.task_ids),
                 run.num_envs, run.loss_fn, run.log_path)
        asyncio.run(_train(cfg))
