"""Image features of recent screenshots, kept by content so the vision tower runs once per screenshot.

The in-process model sees each screenshot many times: the ``n`` rows of one sampling call carry the same image, and a
learner scores each step's prompt again in every epoch of every update that replays it. While no weight of the vision
tower can change (none requires grad: LoRA on the language model only, the default), its output for a given image is
fixed, and on the CPU it was a third of the tiny model's training forward. ``VisionFeatureCache`` takes the place of
``Qwen3VLModel.get_image_features`` on one model instance: each image of a call is keyed by a hash of its patches and
grid, the missing ones go through the tower together, and the call returns what the tower would (per-image embeddings,
deepstack features concatenated in the call's order). The moment a vision weight requires grad it steps aside.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any

VISION_BYTES_KEPT = 256 << 20


class VisionFeatureCache:
    def __init__(self, inner: Any, max_bytes: int = VISION_BYTES_KEPT):
        self.inner = inner  # the Qwen3VLModel whose get_image_features this replaces
        self.compute = inner.get_image_features  # the bound original
        self.max_bytes = max_bytes
        self.entries: OrderedDict[bytes, tuple[Any, list[Any], int]] = OrderedDict()
        self.bytes = 0
        self.hits = self.misses = 0

    @classmethod
    def install(cls, model: Any, max_bytes: int = VISION_BYTES_KEPT) -> VisionFeatureCache | None:
        """Put a cache in front of the vision tower of ``model`` (any wrapper of a Qwen3-VL model); None where it has
        none."""
        inner = next((m for m in model.modules() if hasattr(m, "visual") and hasattr(m, "get_image_features")), None)
        if inner is None:
            return None
        cache = cls(inner, max_bytes)
        inner.get_image_features = cache
        return cache

    def frozen(self) -> bool:
        return not any(p.requires_grad for p in self.inner.visual.parameters())

    def __call__(self, pixel_values: Any, image_grid_thw: Any = None, **kw: Any) -> Any:
        if image_grid_thw is None or not self.frozen() or self.max_bytes <= 0:
            return self.compute(pixel_values, image_grid_thw, **kw)
        import torch
        from transformers.models.qwen3_vl.modeling_qwen3_vl import BaseModelOutputWithDeepstackFeatures

        grids = image_grid_thw.tolist()
        patches = pixel_values.split([t * h * w for t, h, w in grids])
        keys = [self._key(p, g) for p, g in zip(patches, grids)]
        got = {k: self.entries[k] for k in dict.fromkeys(keys) if k in self.entries}
        for k in got:
            self.entries.move_to_end(k)
        todo = [i for i, k in enumerate(keys) if k not in got and keys.index(k) == i]  # each new image once
        self.hits += len(keys) - len(todo)
        self.misses += len(todo)
        if todo:
            out = self.compute(torch.cat([patches[i] for i in todo]), image_grid_thw[todo], return_dict=True)
            merged = [len(e) for e in out.pooler_output]
            deep = [d.split(merged) for d in (out.deepstack_features or [])]
            for j, i in enumerate(todo):
                emb, ds = out.pooler_output[j].detach(), [d[j].detach() for d in deep]
                size = sum(t.numel() * t.element_size() for t in (emb, *ds))
                got[keys[i]] = (emb, ds, size)
                self._keep(keys[i], (emb, ds, size))
        first = got[keys[0]]
        deepstack = [torch.cat([got[k][1][layer] for k in keys]) for layer in range(len(first[1]))]
        return BaseModelOutputWithDeepstackFeatures(pooler_output=tuple(got[k][0] for k in keys),
                                                    deepstack_features=deepstack or None)

    @staticmethod
    def _key(patches: Any, grid: list[int]) -> bytes:
        h = hashlib.blake2b(str(grid).encode(), digest_size=16)
        h.update(str(patches.dtype).encode())
        h.update(patches.detach().contiguous().cpu().numpy().tobytes())
        return h.digest()

    def _keep(self, key: bytes, entry: tuple[Any, list[Any], int]) -> None:
        self.entries[key] = entry
        self.bytes += entry[2]
        while self.bytes > self.max_bytes and len(self.entries) > 1:
            _, (_, _, old) = self.entries.popitem(last=False)
            self.bytes -= old
