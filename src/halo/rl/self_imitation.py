"""Self-imitation (Oh et al., 2018, "Self-Imitation Learning"): replay the policy's own past successes.

On a one-step family a random policy finds the right element about once in 36 tries, and GRPO learns from that
success in one update only, through one group's advantage; most groups come back all-failed and teach nothing. The
buffer keeps the steps of each task's latest successful episode (the agent's own experience, never a demonstration)
and every update adds ``per_update`` of them to the batch with advantage ``max(0, 1 - V)``, ``V`` the recent success
rate of the task's family (of all tasks without one): the log-likelihood of actions that succeeded, weighted by how
far the policy still is from succeeding, so the replay fades as the family is learned. Replayed items learn on the
current policy's distribution (ratio 1: no stale sampler logprobs, no clipping). Measured on omnizon.department's
decision (``bench/decision_probe_family.py``): P(right) after 960 samples 0.05 without, 0.3-0.5 with.

``draw: weight`` (``grpo.self_imitation_draw``) draws the replayed episodes in proportion to that weight, among
those whose weight is above 0, instead of uniformly over the buffer: on a ladder the buffer fills with the learned
rungs' successes (weight near 0, replayed for nothing), and a uniform draw of 48 from ~130 replays a new rung's few
successes in about one update of three. Measured on the ladder (issue 40, stop 70, three seeds to ~1,150 CPU-s):
no sooner; the rungs above send_body came later by iteration (the learned rungs are held by that replay too).
"""

from __future__ import annotations

import dataclasses
import random
import re
import statistics
from collections import OrderedDict, defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from halo.errors import ConfigError
from halo.rl.learner import TrainItem, step_item


@dataclass(frozen=True)
class ReplayStats:
    items: int  # replayed step items added to the update
    episodes: int  # successful episodes they came from
    buffer: int  # successful episodes held (their tasks)
    weight: float  # mean advantage given to the replayed items


FAMILY_INSTANCE = re.compile(r"([a-z][a-z_]*\.[a-z][a-z_]*)-\d+")  # Instance.id: "<site>.<verb>-<index>"


def success_key(task_id: str) -> str:
    """The family of a family instance (``omnizon.department-17`` -> ``omnizon.department``), else ``*`` (REAL's
    ``v2.gomail-4``, a page's URL)."""
    m = FAMILY_INSTANCE.fullmatch(task_id)
    return m.group(1) if m else "*"


def episode_items(episode: Any) -> list[TrainItem]:
    """One replay item per step the policy sampled (unparsed or token-less steps have nothing to learn)."""
    return [step_item(st, 1.0, replayed=True) for st in episode.steps if st.prompt is not None and st.sample.token_ids]


def check_settings(per_update: int, capacity: int) -> None:
    """GRPOSettings checks these before anything runs; the buffer checks them again when built directly."""
    if per_update < 0:
        raise ConfigError(f"self_imitation must be >= 0 (successful episodes replayed per update), got {per_update}")
    if capacity < 1:
        raise ConfigError(f"self_imitation_capacity must be >= 1, got {capacity}")


class SelfImitation:
    """The replay buffer: one entry per task (its latest success), at most ``capacity`` steps in all (each holds its
    screenshot: oldest tasks out first, the newest always kept)."""

    def __init__(self, per_update: int, capacity: int = 1024, window: int = 32, seed: int = 0,
                 draw: str = "uniform"):
        check_settings(per_update, capacity)
        if draw not in ("uniform", "weight"):
            raise ConfigError(f"self_imitation_draw must be uniform or weight, got {draw!r}")
        self.per_update, self.capacity, self.draw = per_update, capacity, draw
        self.buffer: OrderedDict[str, tuple[str, list[TrainItem]]] = OrderedDict()  # task id -> (key, items)
        self.recent: dict[str, deque[float]] = defaultdict(lambda: deque(maxlen=window))
        self.rng = random.Random(seed)
        self.relabelled = 0

    def success_rate(self, key: str) -> float:
        r = self.recent.get(key)
        return statistics.fmean(r) if r else 0.0

    def replay(self) -> tuple[list[TrainItem], ReplayStats]:
        """``per_update`` buffered successes (fewer while the buffer is smaller) as items for this update."""
        chosen = self._draw()
        items, weights = [], []
        for key, its in chosen:
            w = self._weight(key)
            if w <= 0:
                continue
            weights.append(w)
            items += [dataclasses.replace(i, advantage=w) for i in its]
        return items, ReplayStats(items=len(items), episodes=len(weights), buffer=len(self.buffer),
                                  weight=round(statistics.fmean(weights), 4) if weights else 0.0)

    def _weight(self, key: str) -> float:
        return max(0.0, 1.0 - self.success_rate(key))

    def _draw(self) -> list[tuple[str, list[TrainItem]]]:
        """Uniform: ``per_update`` entries of the buffer. Weight: as many among those with a weight above 0, drawn
        without replacement in proportion to it (Efraimidis and Spirakis: the largest ``u ** (1 / w)``)."""
        entries = list(self.buffer.values())
        if self.draw == "uniform":
            return self.rng.sample(entries, min(self.per_update, len(entries)))
        live = [(self.rng.random() ** (1.0 / w), e) for e in entries if (w := self._weight(e[0])) > 0]
        live.sort(key=lambda t: t[0], reverse=True)
        return [e for _, e in live[:self.per_update]]

    def record(self, groups: Sequence[Sequence[Any]], hindsight: Any = None) -> None:
        """Count every finished episode toward its family's success rate; keep the successful ones' steps, and with
        ``hindsight`` (``rl.hindsight.Hindsight``) a failed one's as the successes it is for other instances."""
        self.relabelled = 0
        for e in (e for g in groups for e in g if not e.errored):
            key = success_key(e.task_id)
            self.recent[key].append(float(e.success))
            if e.success:
                self._keep(e, key)
            elif hindsight is not None:
                for r in hindsight(e):
                    self.relabelled += self._keep(r, key)

    def keep(self, episode: Any) -> bool:
        """Buffer a success found elsewhere (a search's path, ``grpo.search_every``) without counting it toward its
        family's success rate, which stays the policy's own."""
        return self._keep(episode, success_key(episode.task_id))

    def _keep(self, e: Any, key: str) -> bool:
        items = episode_items(e)
        if not items:
            return False
        self.buffer.pop(e.task_id, None)
        self.buffer[e.task_id] = (key, items)
        while len(self.buffer) > 1 and self.steps_held > self.capacity:
            self.buffer.popitem(last=False)
        return True

    @property
    def steps_held(self) -> int:
        return sum(len(items) for _, items in self.buffer.values())
