"""Groups, datasets and the dataset builder tinker-cookbook's trainer consumes.

``BrowserGroupBuilder`` makes the N envs of one task (a GRPO group). It holds only plain data (task id, site URLs,
model and renderer names, settings), so it pickles for remote rollout workers; the renderer, the task and the
browser are found or built in ``make_envs``, in the process and event loop that runs the rollouts.
``BrowserRLDataset`` deals tasks into batches: every epoch a fresh permutation from the seed, as many batches as
the run asks for. ``BrowserRLDatasetBuilder`` splits the task list into train and test tasks.
"""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import chz
from tinker_cookbook.rl.types import Env, EnvGroupBuilder, RLDataset, RLDatasetBuilder

from halo.errors import ConfigError
from halo.policy.tinker.models import DEFAULT_MODEL, recommended_renderer
from halo.policy.tinker.render import load_renderer
from halo.rl.rewards import RewardConfig
from halo.rl.tinker.browsers import DEFAULT_MAX_CONCURRENT, browser_slots
from halo.rl.tinker.env import BrowserTinkerEnv, EpisodeSettings


@dataclass(frozen=True)
class EnvSource:
    """Where envs come from: sites, model/renderer names, browser limits. Plain, picklable data."""

    sites: str = "local"  # "local" (REAL-local) | "remote" (REAL's own sites)
    site_urls: tuple[tuple[str, str], ...] = ()  # REAL-local {site: url}, as pairs (hashable)
    model_name: str = DEFAULT_MODEL  # tokenizer and image processor of the sampled model
    renderer_name: str | None = None  # None: the model's recommended renderer
    max_concurrent_browsers: int = DEFAULT_MAX_CONCURRENT
    headless: bool = True
    episode: EpisodeSettings = field(default_factory=EpisodeSettings)
    rewards: RewardConfig = field(default_factory=RewardConfig)

    def __post_init__(self) -> None:
        if self.renderer_name is None:
            object.__setattr__(self, "renderer_name", recommended_renderer(self.model_name))
        if self.sites not in ("local", "remote"):
            raise ConfigError(f"sites must be 'local' or 'remote', got {self.sites!r}")
        if self.max_concurrent_browsers < 1:
            raise ConfigError(f"max_concurrent_browsers must be >= 1, got {self.max_concurrent_browsers}")

    def task(self, task_id: str):
        from halo.tasks.real import get_task

        return get_task(task_id, sites=self.sites, site_urls=dict(self.site_urls) or None)


@dataclass
class BrowserGroupBuilder(EnvGroupBuilder):
    """``group_size`` envs on one task. Cleanup closes every env it made (retries included)."""

    task_id: str
    group_size: int
    source: EnvSource
    _envs: list[BrowserTinkerEnv] = field(default_factory=list, repr=False, compare=False)

    async def make_envs(self) -> Sequence[Env]:
        task = self.source.task(self.task_id)
        renderer = load_renderer(self.source.renderer_name, self.source.model_name)
        slots = await browser_slots(self.source.max_concurrent_browsers, self.source.headless)
        envs = [BrowserTinkerEnv(task, renderer, slots, self.source.episode, self.source.rewards)
                for _ in range(self.group_size)]
        self._envs.extend(envs)
        return envs

    async def cleanup(self) -> None:
        envs, self._envs = list(self._envs), []
        results = await asyncio.gather(*(e.close() for e in envs), return_exceptions=True)
        del results  # cleanup must not raise (do_group_rollout does not catch it)

    def logging_tags(self) -> list[str]:
        site = self.task_id.split(".", 1)[-1].rsplit("-", 1)[0]
        return ["halo", site, self.task_id]

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_envs"] = []  # live envs stay in the process that made them
        return state


class BrowserRLDataset(RLDataset):
    """``num_batches`` batches of ``batch_size`` groups; tasks in a new seeded order every epoch."""

    def __init__(self, task_ids: Sequence[str], batch_size: int, group_size: int, source: EnvSource,
                 num_batches: int | None = None, seed: int = 0, shuffle: bool = True):
        if not task_ids:
            raise ConfigError("the dataset has no tasks; give at least one task id (e.g. v2.omnizon-3)")
        if batch_size < 1 or group_size < 1:
            raise ConfigError(f"batch_size and group_size must be >= 1, got {batch_size} and {group_size}")
        self.task_ids = list(task_ids)
        self.batch_size, self.group_size, self.source = batch_size, group_size, source
        self.seed, self.shuffle = seed, shuffle
        self.num_batches = num_batches if num_batches is not None else math.ceil(len(self.task_ids) / batch_size)
        if self.num_batches < 1:
            raise ConfigError(f"num_batches must be >= 1, got {self.num_batches}")

    def _epoch_order(self, epoch: int) -> list[str]:
        order = list(self.task_ids)
        if self.shuffle:
            random.Random(f"{self.seed}:{epoch}").shuffle(order)
        return order

    def batch_task_ids(self, index: int) -> list[str]:
        if not 0 <= index < self.num_batches:
            raise IndexError(f"batch {index} out of range 0..{self.num_batches - 1}")
        n = len(self.task_ids)
        out = []
        for k in range(index * self.batch_size, (index + 1) * self.batch_size):
            out.append(self._epoch_order(k // n)[k % n])
        return out

    def get_batch(self, index: int) -> Sequence[EnvGroupBuilder]:
        return [BrowserGroupBuilder(t, self.group_size, self.source) for t in self.batch_task_ids(index)]

    def __len__(self) -> int:
        return self.num_batches


def split_tasks(task_ids: Sequence[str], test_fraction: float, seed: int) -> tuple[list[str], list[str]]:
    """Seeded train/test split; the test set is empty when asked for none or when there is a single task."""
    if not 0 <= test_fraction < 1:
        raise ConfigError(f"test_fraction must be in [0, 1), got {test_fraction}")
    ids = sorted(dict.fromkeys(task_ids))
    n_test = round(len(ids) * test_fraction) if len(ids) > 1 else 0
    n_test = min(n_test, len(ids) - 1)
    random.Random(f"split:{seed}").shuffle(ids)
    return sorted(ids[n_test:]), sorted(ids[:n_test])


@chz.chz
class BrowserRLDatasetBuilder(RLDatasetBuilder):
    """Train and test datasets over REAL tasks (tinker-cookbook's ``Config.dataset_builder``)."""

    task_ids: tuple[str, ...]
    batch_size: int  # groups (tasks) per training batch
    group_size: int  # envs per task
    source: EnvSource
    num_batches: int | None = None  # default: one pass over the train tasks
    seed: int = 0
    test_fraction: float = 0.0
    test_group_size: int = 1

    def split(self) -> tuple[list[str], list[str]]:
        return split_tasks(self.task_ids, self.test_fraction, self.seed)

    async def __call__(self) -> tuple[RLDataset, RLDataset | None]:
        train, test = self.split()
        train_ds = BrowserRLDataset(train, self.batch_size, self.group_size, self.source, self.num_batches,
                                    seed=self.seed)
        test_ds = (BrowserRLDataset(test, len(test), self.test_group_size, self.source, 1, shuffle=False)
                   if test else None)
        return train_ds, test_ds
