"""The critic of MCTS (Agent Q's AI self-critique): a progress estimate in [0, 1] for a state, asked of any policy
backend (the same model, or ``gpt_baseline``) with the goal, the screenshot and the candidate actions; or, on task
families, the site's own progress (``ProgressCritic``).

A reply without a number in [0, 1] (or a percentage) is no estimate: ``value`` returns None and the search uses its
own Q alone for that state. A random-weight model answers with actions, not numbers: run it with ``critic: none``.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Protocol, Sequence

from halo.env.types import Observation

CRITIC_SYSTEM = ("You judge a web agent's progress. Given the goal, the current screenshot and the actions the "
                 "agent could take next, reply with one number between 0 and 1: how close the current state is to "
                 "the goal being done (0 = not started, 1 = done). Reply with the number only.")
_NUMBER = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(%?)")


class Critic(Protocol):
    async def value(self, obs: Observation, candidates: Sequence[str]) -> float | None:
        """Progress of the state in [0, 1], or None when there is no estimate."""


def parse_progress(text: str) -> float | None:
    """The first number of a reply as progress: ``0.7``, ``70%``, ``progress: 1``; None outside [0, 1]."""
    m = _NUMBER.search(text or "")
    if not m:
        return None
    v = float(m.group(1)) / (100.0 if m.group(2) else 1.0)
    return v if 0.0 <= v <= 1.0 else None


class ProgressCritic:
    """The site's own judgement as the critic (``mcts.critic: progress``): a task family's progress potential at the
    state (the share of its checks and subgoals that pass, which the dense reward already reads after every step),
    so it costs no model call and no page read. The tiny model cannot critique in words; this can. It reads the
    family's grader, so search with it at run time is an upper bound, never a score: judge the policy by its own
    sampled success. REAL's own tasks have no such checks (``value_at`` gives None: the search's own Q alone)."""

    name = "progress"

    def __init__(self) -> None:
        self.asked = 0
        self.answered = 0

    def value_at(self, task: Any, progress: float) -> float | None:
        self.asked += 1
        if not getattr(task, "family", ""):
            return None
        self.answered += 1
        return float(progress)


class PolicyCritic:
    """Self-critique through a policy backend: one greedy completion of a critique prompt per state."""

    def __init__(self, backend: Any):
        if getattr(getattr(backend, "decoding", None), "constrained", False):
            from halo.errors import ConfigError

            raise ConfigError(f"critic: policy {getattr(backend, 'name', backend)!r} decodes under the action "
                              f"grammar, so it can only answer with actions, never a number; use another mode "
                              f"for the critic (--critic-mode) or none (mcts.critic: none)")
        self.backend = backend
        self.asked = 0
        self.answered = 0

    def prompt(self, obs: Observation, candidates: Sequence[str]) -> Any:
        base = self.backend.build_prompt(obs)  # the backend's own image handling (size budget, format)
        lines = "\n".join(f"- {c}" for c in candidates) or "- (none)"
        text = f"Goal: {obs.goal}\nURL: {obs.url}\nPossible next actions:\n{lines}\nProgress (0 to 1):"
        return dataclasses.replace(base, system=CRITIC_SYSTEM, user_text=text)

    async def value(self, obs: Observation, candidates: Sequence[str]) -> float | None:
        self.asked += 1
        out = await self.backend.complete(self.prompt(obs, candidates), obs, 1, 0.0)
        v = parse_progress(out[0].text if out else "")
        self.answered += v is not None
        return v
