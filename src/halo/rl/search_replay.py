"""Search that feeds GRPO (issue 41's hybrid, ``grpo.search_every``): MCTS finds, self-imitation learns.

Every ``search_every`` iterations, one of the iteration's tasks whose group the policy failed throughout is searched
by ``MCTSExplorer`` (the ``mcts:`` settings, the current policy's candidates, the family's own progress as critic,
``ProgressCritic``); a search that solves it hands its path, as one successful episode, to GRPO's self-imitation
buffer (``SelfImitation.keep``), where it is replayed like the policy's own successes (weighted by how far the
family still is from solved). The searched episode is not counted as the policy's success (the curriculum and the
replay's weights see the policy's own episodes only). Why: on a multi-step family a random-init policy's groups
rarely hold a success, and a group without one teaches nothing; a search with the site's progress as critic solves
about half of gocalendar.otherday's instances in ~60-150 env steps (bench/results/README.md, issue 41), where 64
sampled episodes solve none. Its cost is the search's browser steps and the candidates' sampling, counted in the
run's CPU like any rollout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from halo.rl.config import MCTSSettings
from halo.rl.critic import ProgressCritic
from halo.rl.mcts import MCTSExplorer


@dataclass
class Searched:
    """One search's outcome: the episode it made (its chosen path) and what it cost."""

    task_id: str
    episode: Any
    env_steps: int
    simulations: int

    @property
    def solved(self) -> bool:
        return bool(self.episode.success) and not self.episode.errored

    def metrics(self) -> dict[str, Any]:
        return {"task": self.task_id, "solved": self.solved, "env_steps": self.env_steps,
                "simulations": self.simulations, "steps": len(self.episode.steps)}


def unsolved_task(groups: Sequence[Sequence[Any]], tasks: dict[str, Any]) -> Any | None:
    """The first of the iteration's tasks whose group holds no success (errored episodes aside), or None."""
    for g in groups:
        ok = [e for e in g if not e.errored]
        if ok and not any(e.success for e in ok) and g[0].task_id in tasks:
            return tasks[g[0].task_id]
    return None


class SearchReplay:
    """``every`` iterations, one search of an unsolved task among ``tasks`` in ``env`` (a branchable
    ``BrowserEnv``)."""

    def __init__(self, settings: MCTSSettings, every: int, tasks: Sequence[Any], env: Any = None,
                 reward_config: Any = None):
        self.s, self.every, self.env, self.reward_config = settings, every, env, reward_config
        self.tasks = {t.id: t for t in tasks}  # a group's task id -> the task to search
        self.critic = ProgressCritic()

    def due(self, it: int) -> bool:
        return self.every > 0 and it % self.every == 0 and self.env is not None

    async def search(self, it: int, policy: Any, groups: Sequence[Sequence[Any]]) -> Searched | None:
        """The iteration's search (None when not due or every group held a success)."""
        if not self.due(it):
            return None
        task = unsolved_task(groups, self.tasks)
        if task is None:
            return None
        critic = self.critic if getattr(task, "family", "") else None  # REAL tasks: the search's own Q alone
        r = await MCTSExplorer(self.env, policy, task, self.s, critic=critic, reward_config=self.reward_config).run()
        return Searched(task_id=task.id, episode=r.episode, env_steps=r.budget.steps, simulations=r.simulations)
