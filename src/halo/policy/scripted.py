"""A policy that follows a script: for tests, oracles and smoke runs. It goes through the same prompt-free path
(parse -> Sample) as a model, so a scripted reply can also be malformed on purpose."""

from __future__ import annotations

from typing import Callable, Sequence

from halo.env.actions import Action
from halo.env.types import Observation
from halo.policy.base import Completion, PolicyBackend
from halo.policy.prompt import Prompt, tool_call_text

Step = Action | str


class ScriptedPolicy(PolicyBackend):
    """Replies from ``script``: a function of the observation, or a list played in order (the last one repeats).
    An ``Action`` is rendered as Qwen's tool call; a string is returned as the model's text verbatim."""

    name = "scripted"

    def __init__(self, script: Callable[[Observation], Step] | Sequence[Step], **kw):
        super().__init__(**kw)
        if not callable(script) and not script:
            raise ValueError("a scripted policy needs at least one step")
        self.script = script

    def build_prompt(self, obs: Observation) -> Prompt:  # nothing to render: the script reads the observation
        return Prompt(system="", user_text=obs.goal, image=b"", image_mime="", image_size=(0, 0))

    def next_step(self, obs: Observation) -> Step:
        if callable(self.script):
            return self.script(obs)
        return self.script[min(obs.step, len(self.script) - 1)]

    async def complete(self, prompt: Prompt, obs: Observation, n: int, temperature: float) -> list[Completion]:
        step = self.next_step(obs)
        text = tool_call_text(step) if isinstance(step, Action) else str(step)
        return [Completion(text=text) for _ in range(n)]
