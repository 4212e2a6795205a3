"""The Tinker job (``halo train tinker``): the flat settings of a run, validated in one place, the
``tinker_cookbook.rl.train.Config`` built from them, and the run itself (check the key and the service, serve
REAL-local if asked, call tinker-cookbook's ``main``, close the browsers).

Defaults come from ``configs/rl_config.yaml`` (group size, learning rate, LoRA rank, temperature, max tokens,
episode length, rewards); every one is overridable from the command line. The service key is checked before
anything starts: no key, no sites, no browsers.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from halo.config.overrides import Override
from halo.errors import ConfigError
from halo.policy.prompt import PromptConfig
from halo.policy.tinker.models import DEFAULT_MODEL, check_renderer, recommended_renderer
from halo.policy.tinker.preflight import check_tinker_reachable, require_tinker_api_key
from halo.rl.rewards import RewardConfig
from halo.rl.tinker.browsers import DEFAULT_MAX_CONCURRENT

LOSS_FNS = ("importance_sampling", "ppo", "cispo", "dro", "gspo", "stable_reinforce")
RECIPE_NAME = "halo_browser_rl"


def rl_defaults(path: str | os.PathLike | None = None, overrides: Iterable[Override] = ()) -> dict[str, Any]:
    """The values of rl_config.yaml (with its overrides) this trainer uses, under ``TinkerRunConfig``'s names:
    ``path`` must exist; without one, the default rl_config.yaml if there is one, else nothing."""
    from halo.rl.config import find_config, load_rl_config

    overrides = list(overrides)
    try:
        f = find_config(path)
    except ConfigError:
        if path:
            raise ConfigError(f"no RL config at {path}; pass an existing --config file") from None
        return {}
    c = load_rl_config(f, overrides)
    lr = c.optim.lr if any(o.path[:2] == ("grpo", "lr") for o in overrides) else (mode_lr() or c.optim.lr)
    return {"temperature": c.policy.temperature, "max_tokens": c.policy.max_tokens, "max_turns": c.episode.max_steps,
            "history": c.episode.history, "num_envs": c.grpo.group_size, "learning_rate": lr,
            "save_every": c.grpo.checkpoint_every, "remove_constant_reward_groups": c.grpo.skip_zero_std_groups,
            "lora_rank": c.lora.rank, "rewards": c.rewards}


TINKER_MODE = "qwen3vl_tinker"
LORA_RL_LR = 2e-5  # TINKER_MODE's train.lr in configs/modes.yaml (the reason is there), where no modes file is found


def mode_lr() -> float | None:
    """The learning rate the Tinker mode's ``train.lr`` gives (configs/modes.yaml), None without a modes file."""
    from halo.policy.modes import get_mode

    try:
        return get_mode(TINKER_MODE).train.lr
    except ConfigError:
        return None


@dataclass(frozen=True)
class TinkerRunConfig:
    """Everything ``halo train tinker`` takes. ``max_steps`` counts training iterations (batches);
    ``max_turns`` counts browser steps in one episode."""

    tasks: tuple[str, ...]
    log_path: str
    sites: str = "local"
    num_envs: int = 8  # group size: envs per task per batch
    groups_per_batch: int = 1
    loss_fn: str = "importance_sampling"
    lora_rank: int = 32
    learning_rate: float = LORA_RL_LR
    max_steps: int = 100
    model_name: str = DEFAULT_MODEL
    renderer_name: str | None = None  # None: the model's recommended renderer (halo.policy.tinker.models)
    max_tokens: int = 300
    temperature: float = 0.7
    max_turns: int = 70
    history: int = 5
    max_pixels: int = 1280 * 720
    min_pixels: int = 64 * 32 * 32
    max_concurrent_browsers: int = DEFAULT_MAX_CONCURRENT
    stop_on_parse_error: bool = True
    remove_constant_reward_groups: bool = False
    retries: int = 3  # broken episodes (browser or site failures) re-run per group; 0 = fail the run
    seed: int = 0
    test_fraction: float = 0.0
    eval_every: int = 0
    save_every: int = 10
    load_checkpoint_path: str | None = None
    base_url: str | None = None  # --tinker-url: a self-hosted Tinker API; None: $TINKER_BASE_URL, else hosted
    server_loss_fns: tuple[str, ...] | None = None  # what a server without a loss list supports (preflight)
    wandb_project: str | None = None
    wandb_name: str | None = None
    headless: bool = True
    rewards: RewardConfig = field(default_factory=RewardConfig)

    def __post_init__(self) -> None:
        problems = []
        if not self.model_name or not self.model_name.strip():
            problems.append("--model is empty")
        elif self.renderer_name is None:
            object.__setattr__(self, "renderer_name", recommended_renderer(self.model_name))
        if self.renderer_name is not None:
            check_renderer(self.model_name, self.renderer_name)
        if self.base_url is not None and not self.base_url.startswith(("http://", "https://")):
            problems.append(f"--tinker-url must start with http:// or https://, got {self.base_url!r}")
        if self.server_loss_fns is not None:
            object.__setattr__(self, "server_loss_fns", _split(self.server_loss_fns))
        if not self.tasks:
            problems.append("no tasks: pass --tasks v2.omnizon-3 (ids, site names or 'local')")
        if self.sites not in ("local", "remote"):
            problems.append(f"--sites must be 'local' or 'remote', got {self.sites!r}")
        if self.loss_fn not in LOSS_FNS:
            problems.append(f"--loss-fn must be one of {', '.join(LOSS_FNS)}, got {self.loss_fn!r}")
        for name in ("num_envs", "groups_per_batch", "lora_rank", "max_steps", "max_tokens", "max_turns",
                     "max_concurrent_browsers"):
            if getattr(self, name) < 1:
                problems.append(f"--{name.replace('_', '-')} must be >= 1, got {getattr(self, name)}")
        if not self.learning_rate > 0:
            problems.append(f"--learning-rate must be > 0, got {self.learning_rate}")
        if self.temperature < 0:
            problems.append(f"--temperature must be >= 0, got {self.temperature}")
        if self.retries < 0:
            problems.append(f"--retries must be >= 0, got {self.retries}")
        if not self.log_path:
            problems.append("--log-path is empty")
        if problems:
            raise ConfigError("; ".join(problems))
        try:
            self.prompt_config()
        except ValueError as e:
            raise ConfigError(f"pixel budget: {e}") from None

    @classmethod
    def create(cls, rl_config: str | os.PathLike | None = None, overrides: Iterable[Override] = (),
               **kw: Any) -> TinkerRunConfig:
        """rl_config.yaml defaults under the given values (None means "not given")."""
        names = {f.name for f in fields(cls)}
        unknown = set(kw) - names
        if unknown:
            raise ConfigError(f"unknown settings {sorted(unknown)}")
        given = {k: v for k, v in kw.items() if v is not None}
        if isinstance(given.get("tasks"), (list, str)):
            given["tasks"] = _split(given["tasks"])
        return cls(**{**rl_defaults(rl_config, overrides), **given})

    def prompt_config(self) -> PromptConfig:
        return PromptConfig(max_pixels=self.max_pixels, min_pixels=self.min_pixels, history=self.history)


def _split(values: str | Sequence[str]) -> tuple[str, ...]:
    items = [values] if isinstance(values, str) else list(values)
    return tuple(v.strip() for item in items for v in item.split(",") if v.strip())


def resolve_task_ids(refs: Sequence[str], sites: str) -> list[str]:
    """Task ids from ids, site names or 'local' (see ``halo.tasks.resolve.resolve_tasks``); page URLs are refused."""
    from halo.tasks.resolve import resolve_tasks

    urls = [r for r in refs if r.startswith(("http://", "https://", "file://"))]
    if urls:
        raise ConfigError(f"training needs REAL tasks (graded), not page URLs: {', '.join(urls)}")
    return list(dict.fromkeys(t.id for t in resolve_tasks(list(refs), sites=sites)))


def build_dataset_builder(run: TinkerRunConfig, site_urls: dict[str, str] | None = None):
    from halo.rl.tinker.dataset import BrowserRLDatasetBuilder, EnvSource
    from halo.rl.tinker.env import EpisodeSettings

    source = EnvSource(sites=run.sites, site_urls=tuple(sorted((site_urls or {}).items())),
                       model_name=run.model_name, renderer_name=run.renderer_name,
                       max_concurrent_browsers=run.max_concurrent_browsers, headless=run.headless,
                       episode=EpisodeSettings(max_turns=run.max_turns, stop_on_parse_error=run.stop_on_parse_error,
                                               prompt=run.prompt_config()),
                       rewards=run.rewards)
    return BrowserRLDatasetBuilder(task_ids=tuple(resolve_task_ids(run.tasks, run.sites)),
                                   batch_size=run.groups_per_batch, group_size=run.num_envs, source=source,
                                   num_batches=run.max_steps, seed=run.seed, test_fraction=run.test_fraction)


def build_train_config(run: TinkerRunConfig, site_urls: dict[str, str] | None = None):
    """``tinker_cookbook.rl.train.Config`` for this run (no network: the service is reached only by ``main``)."""
    from tinker_cookbook.rl.rollout_strategy import FailFast, RetryOnFailure
    from tinker_cookbook.rl.train import Config

    return Config(
        learning_rate=run.learning_rate,
        dataset_builder=build_dataset_builder(run, site_urls),
        model_name=run.model_name,
        recipe_name=RECIPE_NAME,
        max_tokens=run.max_tokens,
        log_path=run.log_path,
        renderer_name=run.renderer_name,
        loss_fn=run.loss_fn,
        lora_rank=run.lora_rank,
        temperature=run.temperature,
        max_steps=run.max_steps,
        eval_every=run.eval_every,
        save_every=run.save_every,
        remove_constant_reward_groups=run.remove_constant_reward_groups,
        rollout_error_tolerance=RetryOnFailure(max_retries=run.retries) if run.retries else FailFast(),
        load_checkpoint_path=run.load_checkpoint_path,
        base_url=run.base_url,
        wandb_project=run.wandb_project,
        wandb_name=run.wandb_name,
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
    from halo.policy.tinker import render
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
