"""Helpers of the Tinker tests: env sources for fast runs and a scripted TokenCompleter."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tinker_cookbook.completers import TokenCompleter, TokensWithLogprobs

import tinker
from halo.policy.prompt import PromptConfig
from halo.rl.tinker.dataset import EnvSource
from halo.rl.tinker.env import EpisodeSettings

# 1280x720 -> 416x224 = 91 visual tokens: small, and above Qwen-VL processors' 65536-pixel floor (no upscaling)
FAST_PROMPT = PromptConfig(max_pixels=96 * 32 * 32, min_pixels=64 * 32 * 32)


def fast_source(model: str, site_urls: dict[str, str], max_turns: int = 2, stop_on_parse_error: bool = True,
                max_concurrent: int = 8, include_axtree: bool = False) -> EnvSource:
    prompt = PromptConfig(max_pixels=FAST_PROMPT.max_pixels, min_pixels=FAST_PROMPT.min_pixels,
                          include_axtree=include_axtree)
    return EnvSource(sites="local", site_urls=tuple(sorted(site_urls.items())), model_name=model,
                     max_concurrent_browsers=max_concurrent,
                     episode=EpisodeSettings(max_turns=max_turns, stop_on_parse_error=stop_on_parse_error,
                                             prompt=prompt))


def prompt_text(tokenizer, model_input: tinker.ModelInput) -> str:
    return "".join(tokenizer.decode(c.tokens) for c in model_input.chunks
                   if isinstance(c, tinker.types.EncodedTextChunk))


@dataclass
class ScriptedCompleter(TokenCompleter):
    """Replies from a script, reading element ids from the prompt's accessibility tree (a test fixture standing
    in for a policy that knows the task; never training data). Each entry: ``(role, name)`` to click the element
    with that exact role and name, or a plain string to send to the user."""

    renderer: object
    script: list[tuple[str, str] | str]

    async def __call__(self, model_input, stop, *, max_tokens=None) -> TokensWithLogprobs:
        from halo.env.actions import Click, SendMsgToUser
        from halo.policy.prompt import tool_call_text

        text = prompt_text(self.renderer.tokenizer, model_input)
        step = int(re.search(r"^Step: (\d+)$", text, re.MULTILINE).group(1))
        entry = self.script[min(step, len(self.script) - 1)]
        if isinstance(entry, str):
            action = SendMsgToUser(entry)
        else:
            role, name = entry
            m = re.search(rf'^\s*\[(\w+)\] {role} "{re.escape(name)}"', text, re.MULTILINE)
            assert m, f"no {role} {name!r} in the prompt's accessibility tree"
            action = Click(m.group(1))
        tokens = self.renderer.tokenizer.encode(tool_call_text(action), add_special_tokens=False)
        tokens += list(stop)
        return TokensWithLogprobs(tokens=tokens, maybe_logprobs=[0.0] * len(tokens), stop_reason="stop")
