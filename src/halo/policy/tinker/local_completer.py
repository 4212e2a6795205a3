"""A local stand-in for Tinker's sampling service: a ``TokenCompleter`` over an in-process Qwen3-VL.

It takes exactly what Tinker's sampler takes (a ``tinker.ModelInput`` of text chunks and JPEG ``ImageChunk``s, and
stop tokens) and returns what it returns (sampled tokens including the stop token, their logprobs, the stop
reason), so tinker-cookbook's own rollout code runs offline against the tiny model. Each image chunk is expanded
to ``expected_tokens`` image-pad tokens, as the service does, after checking that the model's image processor
agrees on that count.
"""

from __future__ import annotations

import asyncio
import copy
import io
import os
import threading
from typing import Any

from tinker_cookbook.completers import StopCondition, TokenCompleter, TokensWithLogprobs

import tinker
from halo.errors import PolicyError


class LocalTokenCompleter(TokenCompleter):
    """Sample from a local Qwen3-VL directory (``halo model tiny DIR`` or a downloaded one) on the CPU.

    ``constrained`` holds replies to HALO's action grammar (xgrammar), so even an untrained model acts."""

    def __init__(self, model_path: str | os.PathLike, max_tokens: int = 64, temperature: float = 1.0,
                 seed: int | None = 0, constrained: bool = False, adapter: str | os.PathLike | None = None):
        from halo.policy.hf_backend import load_model
        from halo.policy.processor import load_processor

        if max_tokens < 1:
            raise PolicyError(f"max_tokens must be >= 1, got {max_tokens}")
        self.model_path = str(model_path)
        try:
            self.processor = load_processor(model_path)
        except OSError as e:
            raise PolicyError(f"cannot load a processor from {model_path!s} ({e}); build the tiny model with "
                              "`halo model tiny DIR`") from None
        self.model = load_model(model_path, adapter)
        self.tokenizer = self.processor.tokenizer
        self.image_pad = self.tokenizer.convert_tokens_to_ids("<|image_pad|>")
        self.max_tokens, self.temperature, self.seed = max_tokens, temperature, seed
        self.constrained = constrained
        self.calls = 0
        self._grammar: Any = None
        self._lock = threading.Lock()

    def with_temperature(self, temperature: float) -> LocalTokenCompleter:
        """The same model sampled at another temperature (shares weights, lock and seed counter)."""
        other = copy.copy(self)
        other.temperature = temperature
        return other

    async def __call__(self, model_input: tinker.ModelInput, stop: StopCondition, *,
                       max_tokens: int | None = None) -> TokensWithLogprobs:
        limit = min(self.max_tokens, max_tokens) if max_tokens is not None else self.max_tokens
        return await asyncio.to_thread(self._sample, model_input, self._stop_ids(stop), limit)

    def _stop_ids(self, stop: StopCondition) -> list[int]:
        ids: list[int] = []
        for s in stop:
            if isinstance(s, int):
                ids.append(s)
                continue
            toks = self.tokenizer.encode(s, add_special_tokens=False)
            if len(toks) != 1:
                raise PolicyError(f"stop string {s!r} is not one token here; give stop token ids")
            ids.append(toks[0])
        if not ids:
            raise PolicyError("no stop condition given: the sampler would never stop before max_tokens")
        return ids

    def encode(self, model_input: tinker.ModelInput) -> dict[str, Any]:
        """Model kwargs (batch 1) for a ModelInput: image chunks become pixel values and image-pad tokens."""
        import torch
        from PIL import Image

        ids: list[int] = []
        pixels, grids = [], []
        ip = self.processor.image_processor
        for chunk in model_input.chunks:
            if isinstance(chunk, tinker.types.EncodedTextChunk):
                ids.extend(chunk.tokens)
            elif isinstance(chunk, tinker.types.ImageChunk):
                img = Image.open(io.BytesIO(chunk.data)).convert("RGB")
                out = ip(images=[img], return_tensors="pt")
                n = int(out["image_grid_thw"][0].prod()) // ip.merge_size ** 2
                if chunk.expected_tokens is not None and n != chunk.expected_tokens:
                    raise PolicyError(f"image of {img.width}x{img.height} is {n} tokens for this model's image "
                                      f"processor but the prompt says {chunk.expected_tokens}; render prompts "
                                      "with the same model's processor")
                ids.extend([self.image_pad] * n)
                pixels.append(out["pixel_values"])
                grids.append(out["image_grid_thw"])
            else:
                raise PolicyError(f"unsupported prompt chunk {type(chunk).__name__} (text and images only)")
        input_ids = torch.tensor([ids], dtype=torch.long)
        enc: dict[str, Any] = {"input_ids": input_ids, "attention_mask": torch.ones_like(input_ids),
                               "mm_token_type_ids": (input_ids == self.image_pad).long()}
        if pixels:
            enc["pixel_values"] = torch.cat(pixels)
            enc["image_grid_thw"] = torch.cat(grids)
        return enc

    def _logits_processors(self) -> list:
        if not self.constrained:
            return []
        import xgrammar as xgr

        from halo.policy.grammar import action_json_schema, compile_tool_call_grammar
        from halo.policy.hf_backend import _GrammarProcessor

        if self._grammar is None:
            vocab = self.model.get_output_embeddings().weight.shape[0]
            self._grammar = compile_tool_call_grammar(self.tokenizer, action_json_schema(include_elements=False),
                                                      vocab_size=vocab)
        return [_GrammarProcessor(xgr.contrib.hf.LogitsProcessor(self._grammar), None)]

    def _sample(self, model_input: tinker.ModelInput, stop_ids: list[int], limit: int) -> TokensWithLogprobs:
        import torch
        from transformers import LogitsProcessorList

        with self._lock, torch.no_grad():
            enc = self.encode(model_input)
            if self.seed is not None:
                torch.manual_seed(self.seed + self.calls)
            self.calls += 1
            greedy = self.temperature <= 0
            kw: dict[str, Any] = {"max_new_tokens": limit, "do_sample": not greedy, "output_logits": True,
                                      "return_dict_in_generate": True, "eos_token_id": stop_ids,
                                      "pad_token_id": self.tokenizer.pad_token_id,
                                      "logits_processor": LogitsProcessorList(self._logits_processors())}
            kw.update(temperature=None, top_p=None, top_k=None) if greedy else \
                kw.update(temperature=self.temperature, top_p=1.0, top_k=None)
            out = self.model.generate(**enc, **kw)
        seq = out.sequences[0, enc["input_ids"].shape[1]:].tolist()
        logits = torch.stack(out.logits, 1)[0].float()
        if not greedy and self.temperature != 1.0:
            logits = logits / self.temperature
        lps = torch.log_softmax(logits, -1).gather(-1, torch.tensor(seq).unsqueeze(-1)).squeeze(-1).tolist()
        end = next((i + 1 for i, t in enumerate(seq) if t in stop_ids), None)
        tokens = seq[:end] if end else seq
        return TokensWithLogprobs(tokens=tokens, maybe_logprobs=lps[:len(tokens)],
                                  stop_reason="stop" if end else "length")
