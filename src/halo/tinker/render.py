"""Observations as Tinker ``ModelInput``s, through tinker-cookbook's ``qwen3_vl_instruct`` renderer.

The prompt is HALO's own (``halo.policy.prompt``: the Qwen3-VL computer-use system prompt, the screenshot resized
to the pixel budget, the goal and the last 5 actions), rebuilt from each observation, so the token count of a
step stays bounded however long the episode runs. The renderer turns it into text chunks plus one ``ImageChunk``
(JPEG bytes with the number of visual tokens the model's image processor gives it), the shape Tinker's sampler
and trainer take.
"""

from __future__ import annotations

import functools
import os
from typing import Any

from halo.env.types import Observation
from halo.errors import ConfigError
from halo.policy.prompt import Prompt, PromptConfig, build_prompt

DEFAULT_RENDERER = "qwen3_vl_instruct"
DEFAULT_MODEL = "Qwen/Qwen3-VL-30B-A3B-Instruct"


@functools.lru_cache(maxsize=8)
def load_image_processor(model_name: str) -> Any:
    """The model's Qwen-VL image processor (the PIL one: no torchvision needed), for counting visual tokens."""
    from transformers import Qwen2VLImageProcessorPil

    try:
        return Qwen2VLImageProcessorPil.from_pretrained(model_name)
    except OSError as e:
        raise ConfigError(f"cannot load the image processor of {model_name} ({str(e).splitlines()[0]}); give a "
                          "Qwen3-VL hub id (downloaded once, then cached) or a local model directory") from None


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
        raise ConfigError(f"unknown renderer {renderer_name!r} ({e}); Qwen3-VL uses {DEFAULT_RENDERER}") from None


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
    prompt = build_prompt(obs, cfg)
    return render_prompt(renderer, prompt), prompt


def decode_action(renderer: Any, tokens: list[int]) -> tuple[str, bool]:
    """The reply's text without the stop token, and whether the reply ended on it (else it was cut off)."""
    stops = set(renderer.get_stop_sequences())
    ended = bool(tokens) and tokens[-1] in stops
    body = tokens[:-1] if ended else tokens
    return renderer.tokenizer.decode(body, skip_special_tokens=True), ended


def is_local_model(model_name: str) -> bool:
    return os.path.isdir(model_name)
