"""Which Qwen model a Tinker run trains, which renderer it needs, and what its screenshots cost.

Hosted Tinker retires models: Qwen3-VL-30B-A3B-Instruct, the model this path was first built for, was retired on
2026-06-12 (Tinker's model-deprecations page). The default is now a vision model the hosted service serves,
with the renderer tinker-cookbook's ``model_info`` recommends for it. Any other model is one ``--model`` away;
whether a server really offers it is asked of the server at start-up (``halo.policy.tinker.preflight``), so the
lineup below is documentation and a hint in error messages, never the gate.

Image token accounting comes from the model's own processor config (patch size, spatial merge, pixel bounds),
read through the same image processor the renderer counts tokens with.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from typing import Any

from halo.errors import ConfigError

# tinker-cookbook's VLM default on the hosted service (its recipes' tests and skills docs use it), a MoE with
# 3B active parameters: the cheapest served vision model of its tier.
DEFAULT_MODEL = "Qwen/Qwen3.6-35B-A3B"
# what tinker_cookbook.model_info.get_recommended_renderer_name(DEFAULT_MODEL) answers (pinned by a test)
DEFAULT_RENDERER = "qwen3_5"

# The hosted lineup's Qwen vision models as tinker-cookbook lists them (skills/research/references/models.md,
# commit 9dfcc3a of 2026-08-19). Checked against the live service by the preflight, not by this list.
LINEUP_DATE = "2026-08-19"
HOSTED_VISION_MODELS = (
    "Qwen/Qwen3.8-27B",
    "Qwen/Qwen3.6-35B-A3B",
    "Qwen/Qwen3.6-27B",
    "Qwen/Qwen3.5-397B-A17B",
    "Qwen/Qwen3.5-9B",
    "Qwen/Qwen3.5-4B",
)
# model -> the date hosted Tinker retired it (Tinker's model-deprecations page)
RETIRED = {"Qwen/Qwen3-VL-30B-A3B-Instruct": "2026-06-12"}
# the model HALO's own learners (vLLM sampler + local learner) train, and what a self-hosted Tinker API can load
LOCAL_MODEL = "Qwen/Qwen3-VL-8B-Instruct"

# a local model directory's config.json model_type -> the renderer of its chat template
RENDERER_BY_MODEL_TYPE = {
    "qwen3_vl": "qwen3_vl_instruct",
    "qwen3_vl_moe": "qwen3_vl_instruct",
    "qwen3_5": DEFAULT_RENDERER,
    "qwen3_5_moe": DEFAULT_RENDERER,
}
# Qwen3-VL hub ids tinker-cookbook's model_info does not list (8B, 4B, 2B, 32B ...): same chat template
_QWEN3_VL_PREFIX = "Qwen/Qwen3-VL-"


def retirement_note(model_name: str) -> str | None:
    """One line saying the hosted service retired this model, or None."""
    date = RETIRED.get(model_name)
    if date is None:
        return None
    return (f"{model_name} was retired from hosted Tinker on {date}: it trains only on a self-hosted Tinker API "
            f"that loads it (--tinker-url, docs/TINKER.md); hosted Tinker serves {', '.join(HOSTED_VISION_MODELS)} "
            f"(lineup of {LINEUP_DATE})")


def _local_model_type(path: str) -> str | None:
    f = os.path.join(path, "config.json")
    try:
        with open(f) as fh:
            return json.load(fh).get("model_type")
    except (OSError, ValueError):
        return None


def recommended_renderer(model_name: str) -> str:
    """The renderer for ``model_name``: tinker-cookbook's recommendation for a hub id, the chat template's family
    for a local directory. ``ConfigError`` when neither knows the model (then pass ``--renderer``)."""
    if os.path.isdir(model_name):
        mtype = _local_model_type(model_name)
        if mtype in RENDERER_BY_MODEL_TYPE:
            return RENDERER_BY_MODEL_TYPE[mtype]
        raise ConfigError(f"no renderer known for the local model {model_name} (model_type {mtype!r}); pass "
                          f"--renderer (one of {', '.join(sorted(set(RENDERER_BY_MODEL_TYPE.values())))})")
    from tinker_cookbook import model_info

    try:
        return model_info.get_recommended_renderer_name(model_name)
    except Exception:  # noqa: BLE001 - model_info raises its own ConfigurationError for unknown models
        if model_name.startswith(_QWEN3_VL_PREFIX):
            return "qwen3_vl_instruct"
        raise ConfigError(f"tinker-cookbook knows no renderer for {model_name!r}; pass --renderer (e.g. "
                          f"{DEFAULT_RENDERER} for Qwen3.5/3.6, qwen3_vl_instruct for Qwen3-VL)") from None


def is_vision_renderer(renderer_name: str) -> bool:
    return renderer_name.startswith(("qwen3_vl", "qwen3_5", "qwen3_8"))


def check_renderer(model_name: str, renderer_name: str) -> None:
    """A renderer HALO's screenshots can go through (a vision one); ``ConfigError`` otherwise."""
    if not is_vision_renderer(renderer_name):
        raise ConfigError(f"renderer {renderer_name!r} takes no images; HALO's prompts hold a screenshot: use "
                          f"{recommended_renderer_or(model_name, DEFAULT_RENDERER)} for {model_name}")


def recommended_renderer_or(model_name: str, default: str) -> str:
    try:
        return recommended_renderer(model_name)
    except ConfigError:
        return default


@dataclass(frozen=True)
class ImageGeometry:
    """How a model's image processor turns pixels into visual tokens (its processor config)."""

    patch_size: int
    merge_size: int
    temporal_patch_size: int
    min_pixels: int
    max_pixels: int

    @property
    def factor(self) -> int:
        """Pixels per side of one visual token (patch x merge): image sides snap to multiples of it."""
        return self.patch_size * self.merge_size

    def tokens(self, width: int, height: int) -> int:
        """Visual tokens of an image already sized on this model's grid (what the processor keeps)."""
        f = self.factor
        if width % f or height % f:
            raise ValueError(f"{width}x{height} is not on this model's {f}-pixel grid")
        return (width // f) * (height // f)

    @classmethod
    def from_processor(cls, ip: Any) -> ImageGeometry:
        size = getattr(ip, "size", None) or {}
        min_px = size.get("shortest_edge", getattr(ip, "min_pixels", None))
        max_px = size.get("longest_edge", getattr(ip, "max_pixels", None))
        missing = [k for k, v in (("patch_size", getattr(ip, "patch_size", None)),
                                  ("merge_size", getattr(ip, "merge_size", None)),
                                  ("size.shortest_edge", min_px), ("size.longest_edge", max_px)) if v is None]
        if missing:
            raise ConfigError(f"the image processor config lacks {', '.join(missing)}: not a Qwen-VL processor")
        return cls(int(ip.patch_size), int(ip.merge_size), int(getattr(ip, "temporal_patch_size", 2) or 2),
                   int(min_px), int(max_px))


@functools.lru_cache(maxsize=8)
def load_image_processor(model_name: str) -> Any:
    """The model's Qwen-VL image processor (the PIL one: no torchvision needed), for counting visual tokens."""
    from transformers import Qwen2VLImageProcessorPil

    try:
        return Qwen2VLImageProcessorPil.from_pretrained(model_name)
    except OSError as e:
        raise ConfigError(f"cannot load the image processor of {model_name} ({str(e).splitlines()[0]}); give a "
                          "Qwen3-VL hub id (downloaded once, then cached) or a local model directory") from None


def image_geometry(model_name: str) -> ImageGeometry:
    """The geometry in ``model_name``'s processor config (hub id, cached after the first download, or a
    directory)."""
    return ImageGeometry.from_processor(load_image_processor(model_name))


def screenshot_tokens(model_name: str, max_pixels: int, min_pixels: int, viewport: tuple[int, int] = (1280, 720),
                      ) -> tuple[tuple[int, int], int, ImageGeometry]:
    """``((w, h), tokens, geometry)`` of a viewport screenshot in a Tinker prompt: HALO sizes it to the pixel
    budget, the model's processor (its own patch, merge and pixel bounds) counts the tokens, as the renderer
    does. Loads only the processor config, so it runs at start-up before anything heavy."""
    from halo.policy.prompt import smart_resize
    ip = load_image_processor(model_name)
    g = ImageGeometry.from_processor(ip)
    w, h = smart_resize(*viewport, min_pixels, max_pixels)
    n = int(ip.get_number_of_image_patches(h, w, images_kwargs={})) // g.merge_size ** 2
    return (w, h), n, g


def describe_screenshots(model_name: str, max_pixels: int, min_pixels: int) -> str:
    """One line for the start-up log: what a screenshot costs this model, and whether its processor rescales it."""
    (w, h), n, g = screenshot_tokens(model_name, max_pixels, min_pixels)
    line = (f"screenshots {w}x{h} -> {n} visual tokens for {model_name} (patch {g.patch_size} x merge "
            f"{g.merge_size}, pixels {g.min_pixels}..{g.max_pixels}, from its processor config)")
    if w * h < g.min_pixels:
        line += f"; below its {g.min_pixels}-pixel floor, the processor scales the image up: raise --max-pixels"
    elif w % g.factor or h % g.factor:
        line += f"; not on its {g.factor}-pixel grid, the processor resizes the image again"
    return line


THINKING_MIN_TOKENS = 1024


def thinks(renderer_name: str) -> bool:
    """Whether the renderer's generation prompt opens a reasoning block the model fills before answering."""
    return renderer_name.startswith(("qwen3_5", "qwen3_8")) and not renderer_name.endswith("disable_thinking")


def thinking_note(renderer_name: str, max_tokens: int) -> str | None:
    """A note when a thinking renderer has too few tokens to reason and still answer, else None."""
    if not thinks(renderer_name) or max_tokens >= THINKING_MIN_TOKENS:
        return None
    return (f"renderer {renderer_name} reasons before it answers and --max-tokens {max_tokens} may cut replies off "
            f"(reply_cut, parse_error): pass --max-tokens {THINKING_MIN_TOKENS} or more, or --renderer "
            f"{'qwen3_8' if renderer_name.startswith('qwen3_8') else 'qwen3_5'}_disable_thinking")
