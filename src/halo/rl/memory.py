"""What a LoRA update needs of a GPU, from the model's shape alone (its ``config.json``), before anything loads.

Fitted on ``bench/results/learner_scale_cuda.json`` (Qwen3-VL-8B's architecture in bf16 on an H100, rank-32 LoRA,
gradient checkpointing): the update peaked at 27.36 GiB with ``pack_tokens`` 16384 and 40.67 GiB with 65536, the
weights being 16.34 GiB. Two terms reproduce both within 1%:

- ``FIXED`` x the weights: the weights, the LoRA's gradients and Adam state, one layer's recomputed activations and
  the allocator's slack (6.5 GiB over the weights at both sizes);
- per token of one training forward (``pack_tokens``), every layer's input kept for the backward pass: layers x
  hidden x the dtype's bytes (288 KiB a token for the 8B; the fit's slope is 284). Without checkpointing a layer
  keeps ~16 times that (34.2 GiB measured at 4096 tokens, 40.9 estimated: on the safe side).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXED = 1.4
NO_CHECKPOINTING = 16
GIB = 2 ** 30
DTYPE_BYTES = {"float32": 4, "bfloat16": 2, "float16": 2}


def model_shape(model: str) -> dict[str, Any] | None:
    """The model's ``config.json``: a local directory's, else the Hugging Face cache's (offline); None if neither."""
    local = Path(model) / "config.json"
    path: Any = local if local.is_file() else None
    if path is None and "/" in model and not model.startswith((".", "/")):
        try:
            from huggingface_hub import try_to_load_from_cache

            hit = try_to_load_from_cache(model, "config.json")
            path = Path(hit) if isinstance(hit, str) else None
        except Exception:  # noqa: BLE001 - no hub library or a broken cache: no estimate
            path = None
    if path is None:
        return None
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None


def parameter_count(cfg: dict[str, Any]) -> int:
    """Parameters of a Qwen3-VL-style model (a text decoder, a vision tower and its mergers) from its config: 8.76B
    for Qwen3-VL-8B's shape (measured: 8.767B)."""
    t = cfg.get("text_config") or cfg
    h, layers, inter, vocab = t["hidden_size"], t["num_hidden_layers"], t["intermediate_size"], t["vocab_size"]
    heads = t.get("num_attention_heads", 1)
    hd = t.get("head_dim") or h // heads
    kv = t.get("num_key_value_heads", heads)
    attn = 2 * h * heads * hd + 2 * h * kv * hd  # q, o; k, v
    tied = cfg.get("tie_word_embeddings", t.get("tie_word_embeddings", False))
    n = layers * (attn + 3 * h * inter) + vocab * h * (1 if tied else 2)
    v = cfg.get("vision_config")
    if v:
        vh, vi = v["hidden_size"], v["intermediate_size"]
        merged = vh * v.get("spatial_merge_size", 2) ** 2
        mergers = 1 + len(v.get("deepstack_visual_indexes") or ())
        n += v["depth"] * (4 * vh * vh + 2 * vh * vi) + mergers * (merged * merged + merged * v.get("out_hidden_size",
                                                                                                    h))
    return int(n)


def update_bytes(cfg: dict[str, Any], pack_tokens: int, checkpointing: bool, dtype: str) -> int:
    """The peak GPU memory of one update (see the module doc)."""
    b = DTYPE_BYTES.get(dtype, 4)
    t = cfg.get("text_config") or cfg
    per_token = t["num_hidden_layers"] * t["hidden_size"] * b * (1 if checkpointing else NO_CHECKPOINTING)
    return int(FIXED * parameter_count(cfg) * b + pack_tokens * per_token)
