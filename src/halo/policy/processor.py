"""Qwen3-VL's processor for images only, so the in-process path needs no torchvision.

``Qwen3VLProcessor`` insists on a video processor, and Qwen3-VL's video processor imports torchvision (whose
wheels here are CUDA-linked and do not load next to CPU torch). Screenshots are images: this subclass drops the
video slot, and ``load_processor`` builds it from any Qwen3-VL directory (hub snapshot or the tiny model) with
the PIL image processor.
"""

from __future__ import annotations

import os

from transformers import AutoTokenizer, Qwen2VLImageProcessorPil, Qwen3VLProcessor


class ImageOnlyQwen3VLProcessor(Qwen3VLProcessor):
    """``Qwen3VLProcessor`` without the video processor (videos are refused)."""

    def __init__(self, image_processor=None, tokenizer=None, chat_template=None, **kwargs):
        super().__init__(image_processor, tokenizer, None, chat_template=chat_template, **kwargs)

    def __call__(self, images=None, text=None, videos=None, **kwargs):
        if videos is not None:
            raise ValueError("this processor handles images only (Qwen3-VL's video processor needs torchvision)")
        return super().__call__(images=images, text=text, **kwargs)


def load_processor(path: str | os.PathLike) -> ImageOnlyQwen3VLProcessor:
    """Image processor + tokenizer + chat template from a model directory or (cached) hub id."""
    tokenizer = AutoTokenizer.from_pretrained(path)
    images = Qwen2VLImageProcessorPil.from_pretrained(path)
    template = getattr(tokenizer, "chat_template", None)
    return ImageOnlyQwen3VLProcessor(image_processor=images, tokenizer=tokenizer, chat_template=template)
