"""Policies behind tinker-cookbook's ``TokenCompleter``: a Tinker-trained checkpoint sampled through Tinker's
sampling client (``halo eval``), or any local completer (offline tests).

The prompt is rendered exactly as in training (``halo.policy.tinker.render``: HALO's prompt through the model's
renderer, ``qwen3_5`` for Qwen3.5/3.6, ``qwen3_vl_instruct`` for Qwen3-VL), so a checkpoint is evaluated on the inputs it was trained on. Selected by a mode
with ``backend: tinker``: ``model`` is the base model (its tokenizer and image processor), ``adapter`` the
``tinker://.../sampler_weights/...`` path of the checkpoint (none: the base model on Tinker).
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from halo.env.types import Observation
from halo.errors import PolicyError
from halo.policy.base import Completion, DecodingConfig, PolicyBackend
from halo.policy.prompt import Prompt, PromptConfig


class TokenCompleterPolicy(PolicyBackend):
    """A ``TokenCompleter`` as a HALO policy backend. ``n`` samples are ``n`` calls (Tinker's completer samples
    one sequence per call)."""

    name = "tinker"

    def __init__(self, completer: Any, renderer: Any, decoding: DecodingConfig | None = None,
                 prompt: PromptConfig | None = None):
        super().__init__(decoding, prompt)
        self.completer = completer
        self.renderer = renderer

    def _at_temperature(self, temperature: float) -> Any:
        c = self.completer
        if getattr(c, "temperature", temperature) == temperature:
            return c
        if dataclasses.is_dataclass(c):  # TinkerTokenCompleter
            return dataclasses.replace(c, temperature=temperature)
        if hasattr(c, "with_temperature"):
            return c.with_temperature(temperature)
        return c

    async def complete(self, prompt: Prompt, obs: Observation, n: int, temperature: float) -> list[Completion]:
        from halo.policy.tinker.render import decode_action, render_prompt

        model_input = render_prompt(self.renderer, prompt)
        completer = self._at_temperature(temperature)
        stop = self.renderer.get_stop_sequences()
        out = []
        for _ in range(n):
            try:
                res = await completer(model_input, stop, max_tokens=self.decoding.max_tokens)
            except PolicyError:
                raise
            except Exception as e:
                raise PolicyError(f"sampling failed ({type(e).__name__}: {e})") from e
            text, ended = decode_action(self.renderer, res.tokens)
            out.append(Completion(text=text, token_ids=tuple(res.tokens), logprobs=tuple(res.maybe_logprobs or ())
                                  or None, finish_reason="stop" if ended else "length",
                                  prompt_tokens=model_input.length))
        return out


def _check_checkpoint(model_path: str | None) -> None:
    from halo.policy.tinker.preflight import require_tinker_api_key

    require_tinker_api_key()
    if model_path and not model_path.startswith("tinker://"):
        raise PolicyError(f"adapter {model_path!r} is not a Tinker path (tinker://<run>/sampler_weights/<name>); "
                          "for a downloaded adapter use a vLLM or hf mode instead (docs/TINKER.md)")


def tinker_sampling_client(base_model: str, model_path: str | None = None, base_url: str | None = None) -> Any:
    """Tinker's sampling client for a checkpoint (``tinker://...``) or the base model. Needs TINKER_API_KEY."""
    _check_checkpoint(model_path)
    import tinker

    try:
        service = tinker.ServiceClient(base_url=base_url)
        return service.create_sampling_client(model_path=model_path or None,
                                              base_model=None if model_path else base_model).result()
    except Exception as e:
        raise PolicyError(f"cannot open a Tinker sampling client for {model_path or base_model} "
                          f"({type(e).__name__}: {e}); check TINKER_API_KEY, the path and the network") from e


def make_tinker_policy(base_model: str, model_path: str | None = None, renderer_name: str | None = None,
                       decoding: DecodingConfig | None = None, prompt: PromptConfig | None = None,
                       base_url: str | None = None) -> TokenCompleterPolicy:
    """The policy of a Tinker checkpoint, sampled on Tinker."""
    from tinker_cookbook.completers import TinkerTokenCompleter

    from halo.policy.tinker.models import check_renderer, recommended_renderer
    from halo.policy.tinker.render import load_renderer

    decoding = decoding or DecodingConfig()
    _check_checkpoint(model_path)  # key and path first: the renderer may download the tokenizer
    renderer_name = renderer_name or recommended_renderer(base_model)
    check_renderer(base_model, renderer_name)
    from halo.policy.tinker.preflight import check_tinker_reachable, preflight

    check_tinker_reachable(base_url)
    if not model_path:  # a checkpoint is the server's own business; the base model must be one it samples
        preflight(base_model, None, base_url, training=False)
    renderer = load_renderer(renderer_name, base_model)
    client = tinker_sampling_client(base_model, model_path, base_url)
    completer = TinkerTokenCompleter(client, max_tokens=decoding.max_tokens, temperature=decoding.temperature)
    return TokenCompleterPolicy(completer, renderer, decoding, prompt)


def from_mode(mode: Any) -> TokenCompleterPolicy:
    """``make_policy`` for a ``backend: tinker`` mode (``halo.policy.modes.ModeConfig``)."""
    base_url = os.environ.get("TINKER_BASE_URL") or None
    return make_tinker_policy(mode.model, mode.adapter, None, mode.decoding_config(), mode.prompt_config(),
                              base_url)
