"""Observations as Tinker ``ModelInput``s, through the model's tinker-cookbook renderer (``qwen3_5`` for the
default Qwen3.6-35B-A3B, ``qwen3_vl_instruct`` for Qwen3-VL: ``halo.policy.tinker.models``).

The prompt is HALO's own (``halo.policy.prompt``: the Qwen3-VL computer-use system prompt, the screenshot resized
to the pixel budget, the goal and the last 5 actions), rebuilt from each observation, so the token count of a
step stays bounded however long the episode runs. The renderer turns it into text chunks plus one ``ImageChunk``
(JPEG bytes with the number of visual tokens the model's image processor gives it), the shape Tinker's sampler
and trainer take.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from halo.env.types import Observation
from halo.errors import ConfigError
from halo.policy.element_ids import aliased
from halo.policy.prompt import Prompt, PromptConfig, build_prompt
from halo.policy.tinker.models import DEFAULT_RENDERER, load_image_processor, recommended_renderer_or


@functools.lru_cache(maxsize=8)
def load_renderer(renderer_name: str, model_name: str) -> Any:
    """tinker-cookbook's renderer for ``model_name`` (cached per process: envs of every group share it)."""
    from tinker_cookbook.renderers import get_renderer
    from tinker_cookbook.tokenizer_utils import get_tokenizer

    try:
        tokenizer = get_tokenizer(model_name)
    except OSError as e:
        raise ConfigError(f"cannot load the tokenizer of {model_name} ({str(e).splitlines()[0]}); give a hub id "
                          "reachable from here or a local model directory") from None
    try:
        return get_renderer(renderer_name, tokenizer, load_image_processor(model_name))
    except (ValueError, KeyError) as e:
        raise ConfigError(f"unknown renderer {renderer_name!r} ({e}); {model_name} uses "
                          f"{recommended_renderer_or(model_name, DEFAULT_RENDERER)}") from None


def prompt_messages(prompt: Prompt) -> list[dict[str, Any]]:
    """HALO's prompt as tinker-cookbook messages: the system prompt, then the screenshot and the step text."""
    system = [{"role": "system", "content": prompt.system}] if prompt.system else []
    image = {"type": "image", "image": prompt.pil_image()}
    return system + [{"role": "user", "content": [image, {"type": "text", "text": prompt.user_text}]}]


def render_prompt(renderer: Any, prompt: Prompt):
    """``tinker.ModelInput`` for sampling the next action."""
    return renderer.build_generation_prompt(prompt_messages(prompt))


def render_observation(renderer: Any, obs: Observation, cfg: PromptConfig):
    """``(ModelInput, Prompt)`` for one observation; the prompt is kept for logs and for local scoring."""
    prompt = build_prompt(aliased(obs, cfg.element_ids), cfg)
    return render_prompt(renderer, prompt), prompt


@dataclass(frozen=True)
class Termination:
    """How a reply ended, whatever ``Renderer.parse_response`` returned: ``clean`` (a stop token or EOS ended
    it) and ``stop_sequence`` (the renderer's own stop token did)."""

    clean: bool
    stop_sequence: bool


def termination_of(value: Any) -> Termination:
    """The second item of ``parse_response``'s return, old or new API.

    tinker-cookbook <= 0.5.x before #688 returned ``(Message, bool)``; since #688 it returns
    ``(Message, ParseTermination)``, a ``StrEnum`` that is truthy in every state (``MALFORMED`` included), so
    ``bool(value)`` would call every reply clean. Read its ``is_clean`` / ``is_stop_sequence`` instead."""
    if isinstance(value, bool):  # old API: True = the stop token was found
        return Termination(clean=value, stop_sequence=value)
    if hasattr(value, "is_clean"):
        return Termination(clean=bool(value.is_clean), stop_sequence=bool(getattr(value, "is_stop_sequence",
                                                                                   value.is_clean)))
    if isinstance(value, str) and value in _TERMINATIONS:  # a plain string of ParseTermination's values
        return _TERMINATIONS[value]
    raise TypeError(f"parse_response returned {value!r} ({type(value).__name__}) as its termination; expected a "
                    "bool (old tinker-cookbook) or a ParseTermination")


_TERMINATIONS = {"stop_sequence": Termination(True, True), "eos": Termination(True, False),
                 "malformed": Termination(False, False)}


def parse_reply(renderer: Any, tokens: list[int]) -> tuple[Any, Termination]:
    """``renderer.parse_response(tokens)`` as ``(message, Termination)`` under either API. A reply the renderer
    refuses (e.g. two stop tokens) is a malformed one, not a crash of the rollout."""
    try:
        message, value = renderer.parse_response(list(tokens))
    except Exception as e:  # noqa: BLE001 - RendererError, or a renderer's own parse failure
        return {"role": "assistant", "content": f"(unparseable by the renderer: {e})"}, Termination(False, False)
    return message, termination_of(value)


def strip_thinking(text: str) -> str:
    """The reply after its reasoning: thinking renderers (``qwen3_5``) prefill ``<think>\n``, so a sampled reply
    is ``reasoning</think>\n\nanswer``; HALO parses the answer only."""
    if "</think>" in text:
        text = text.rsplit("</think>", 1)[1]
    return text.replace("<think>", "").strip()


def _single_token(tokenizer: Any, text: str) -> int | None:
    try:
        ids = tokenizer.encode(text, add_special_tokens=False)
    except Exception:  # noqa: BLE001
        return None
    return ids[0] if len(ids) == 1 else None


def decode_action(renderer: Any, tokens: list[int]) -> tuple[str, bool]:
    """The reply's text (its reasoning and stop token removed) and whether it ended cleanly (on the renderer's
    stop token or EOS; else it was cut off at max_tokens). The ending is the renderer's ``parse_response``
    verdict, read through ``termination_of`` so that both renderer APIs give the same answer."""
    stops = set(renderer.get_stop_sequences())
    _, term = parse_reply(renderer, tokens)
    body = list(tokens)
    while body and body[-1] in stops:
        body.pop()
    end_think = _single_token(renderer.tokenizer, "</think>")
    if end_think is not None and end_think in body:  # special or not, the answer follows the last </think>
        body = body[len(body) - body[::-1].index(end_think):]
    text = renderer.tokenizer.decode(body, skip_special_tokens=True)
    return strip_thinking(text), term.clean
