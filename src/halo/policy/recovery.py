"""Evaluation-only recovery: break action loops and close dialogs that block the page.

It hides mistakes, so training never uses it (ARCHITECTURE.md); modes enable it for evaluation only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from halo.env.actions import Action, Click, Key, Scroll
from halo.env.types import Observation

_DIALOG = re.compile(r"^\s*\[(?P<id>[^\]]+)\]\s+(?:dialog|alertdialog)\b", re.M)
_CLOSE_NAMES = ("close", "dismiss", "no thanks", "not now", "cancel", "got it", "×", "x")


@dataclass(frozen=True)
class Recovery:
    """``loop_window`` identical actions in a row count as a loop."""

    loop_window: int = 3
    close_dialogs: bool = True

    def apply(self, obs: Observation, action: Action | None) -> tuple[Action | None, str | None]:
        """The action to take instead, and why (``None`` when nothing is changed)."""
        if self.close_dialogs and _DIALOG.search(obs.axtree or ""):
            close = _close_button(obs)
            if close is not None and not (isinstance(action, Click) and action.element == close):
                return Click(element=close), f"closed an obstructing dialog (element {close})"
        if action is not None and self.loop_window > 1:
            recent = list(obs.last_actions)[-(self.loop_window - 1):]
            if len(recent) == self.loop_window - 1 and all(a == action.describe() for a in recent):
                alt: Action = Key(keys=("Escape",)) if isinstance(action, Scroll) else Scroll(pixels=-400)
                if any(a == alt.describe() for a in recent):
                    alt = Key(keys=("Escape",))
                return alt, f"broke a loop of {self.loop_window} x {action.describe()}"
        return action, None


def _close_button(obs: Observation) -> str | None:
    for el in obs.elements.values():
        if el.role == "button" and el.name.strip().lower() in _CLOSE_NAMES:
            return el.id
    return None


class RecoveringPolicy:
    """Wraps a policy for evaluation: each sampled action passes through ``Recovery``; a replaced action is
    recorded in the sample's repairs as ``recovery: <why>``. Never use it in training."""

    def __init__(self, inner, recovery: Recovery | None = None):
        self.inner = inner
        self.recovery = recovery or Recovery()
        self.interventions = 0

    def __getattr__(self, name):  # build_prompt, decoding, prompt_config, aclose, ... of the wrapped policy
        return getattr(self.inner, name)

    def _fix(self, obs: Observation, sample):
        import dataclasses

        action, why = self.recovery.apply(obs, sample.action)
        if why is None:
            return sample
        self.interventions += 1
        parsed = dataclasses.replace(sample.parsed, action=action, error=None,
                                     repairs=(*sample.parsed.repairs, f"recovery: {why}"))
        return dataclasses.replace(sample, parsed=parsed)

    async def sample_actions(self, obs: Observation, n: int = 1, temperature: float | None = None):
        return [self._fix(obs, s) for s in await self.inner.sample_actions(obs, n, temperature)]

    async def sample_prompt(self, prompt, obs: Observation, n: int = 1, temperature: float | None = None):
        return [self._fix(obs, s) for s in await self.inner.sample_prompt(prompt, obs, n, temperature)]

    async def sample_single(self, obs: Observation):
        return self._fix(obs, await self.inner.sample_single(obs))
