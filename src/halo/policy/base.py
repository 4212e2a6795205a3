"""One awaitable interface for every policy backend (vLLM/OpenAI server, in-process transformers, scripted).

A backend turns a prompt into raw completions; this base class builds the prompt from the observation, parses
each completion into an action (errors as data) and returns ``Sample``s. Logprobs, where a backend has them, are
of the distribution it sampled from: ``log_softmax(logits / temperature)`` (``temperature`` 1 for greedy).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Annotated

from pydantic import Field

from halo.config.settings import AtLeast1, NonNegative, NonNegativeInt, Why, settings
from halo.env.actions import Action
from halo.env.types import Observation
from halo.policy.element_ids import aliased
from halo.policy.parse import ParseResult, parse_to_env
from halo.policy.prompt import Prompt, PromptConfig, build_prompt


@settings
class DecodingConfig:
    """Sampling settings. ``top_k`` 0 and ``top_p`` 1 sample the full distribution (on-policy RL needs this)."""

    temperature: NonNegative = 0.7
    top_p: float = 1.0  # in (0, 1]
    top_k: NonNegativeInt = 0
    max_tokens: Annotated[AtLeast1, Field(le=8192), Why("tokens of one reply, sampled at every step; a browser "
                                                        "action takes under 300")] = 300
    constrained: bool = False  # hold decoding to the action grammar (grammar.py)
    jump_forward: bool = False  # in-process constrained decoding: text the grammar forces is emitted, not sampled
    seed: int | None = None

    def __post_init__(self) -> None:
        if not 0 < self.top_p <= 1:
            raise ValueError(f"top_p must be in (0, 1], got {self.top_p}")


@dataclass(frozen=True)
class Completion:
    """What a backend returns for one sample, before parsing."""

    text: str
    token_ids: tuple[int, ...] | None = None
    logprobs: tuple[float, ...] | None = None
    finish_reason: str | None = None  # "stop" | "length"
    prompt_tokens: int | None = None
    sampler_logprobs: tuple[float, ...] | None = None  # under constrained decoding: of the masked distribution
    grammar: str | None = None  # constrained decoding: the grammar's key (a trainer replays it to mask its logits)
    explored: bool = False  # drawn uniformly among the grammar's choices, not from the policy (HFPolicy.explore)
    version: int | None = None  # the adapter version that sampled it (asynchronous GRPO; None: not versioned)


@dataclass(frozen=True)
class Sample:
    """One sampled reply: its text, the parsed action or parse error, and token data where available."""

    text: str
    parsed: ParseResult
    token_ids: tuple[int, ...] | None = None
    logprobs: tuple[float, ...] | None = None
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    sampler_logprobs: tuple[float, ...] | None = None  # constrained decoding only (see Completion)
    grammar: str | None = None  # constrained decoding only (see Completion)
    explored: bool = False  # see Completion
    version: int | None = None  # see Completion

    @property
    def action(self) -> Action | None:
        return self.parsed.action

    @property
    def error(self) -> str | None:
        return self.parsed.error


class PolicyBackend(ABC):
    """Observation in, parsed samples out. Subclasses implement ``complete``."""

    name = "policy"

    def __init__(self, decoding: DecodingConfig | None = None, prompt: PromptConfig | None = None):
        self.decoding = decoding or DecodingConfig()
        self.prompt_config = prompt or PromptConfig()

    def view(self, obs: Observation) -> Observation:
        """``obs`` as this policy reads it: under ``prompt.element_ids: stable`` with stable element ids
        (halo.policy.element_ids), else itself. Every method below reads the view, so the prompt, the grammar, the
        explorer and the parse agree, and ``_sample`` maps the chosen element back to the env's id."""
        return aliased(obs, self.prompt_config.element_ids)

    def build_prompt(self, obs: Observation) -> Prompt:
        return build_prompt(self.view(obs), self.prompt_config)

    def grammar_key(self, obs: Observation) -> str:
        """The key of the action grammar a constrained reply to ``obs`` is held to (``Completion.grammar``): the page's
        schema under this prompt config (element ids and goal phrases are the page's and goal's)."""
        import json

        from halo.policy.action_space import page_schema

        return json.dumps(page_schema(self.view(obs), self.prompt_config))

    @abstractmethod
    async def complete(self, prompt: Prompt, obs: Observation, n: int, temperature: float) -> list[Completion]:
        """``n`` completions of ``prompt``; ``temperature`` 0 means greedy."""

    async def sample_actions(self, obs: Observation, n: int = 1, temperature: float | None = None) -> list[Sample]:
        """``n`` independent samples at ``temperature`` (the decoding config's when None)."""
        return await self.sample_prompt(self.build_prompt(obs), obs, n, temperature)

    async def sample_prompt(self, prompt: Prompt, obs: Observation, n: int = 1,
                            temperature: float | None = None) -> list[Sample]:
        """Like ``sample_actions`` for a prompt already built from ``obs`` (rollouts keep the prompt for training)."""
        if n < 1:
            raise ValueError(f"n must be >= 1, got {n}")
        t = self.decoding.temperature if temperature is None else temperature
        obs = self.view(obs)
        return [self._sample(c, obs) for c in await self.complete(prompt, obs, n, t)]

    async def sample_single(self, obs: Observation) -> Sample:
        """The greedy reply (temperature 0)."""
        obs = self.view(obs)
        prompt = self.build_prompt(obs)
        return self._sample((await self.complete(prompt, obs, 1, 0.0))[0], obs)

    def _sample(self, c: Completion, obs: Observation) -> Sample:
        parsed = parse_to_env(c.text, obs, self.prompt_config)  # goal refs resolved, the env's element ids
        return Sample(text=c.text, parsed=parsed, token_ids=c.token_ids, logprobs=c.logprobs,
                      finish_reason=c.finish_reason, prompt_tokens=c.prompt_tokens,
                      sampler_logprobs=c.sampler_logprobs, grammar=c.grammar, explored=c.explored,
                      version=c.version)

    async def aclose(self) -> None:
        """Release connections or models."""

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> None:
        await self.aclose()
