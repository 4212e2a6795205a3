"""The tiny model's directory is a standard Qwen3-VL one: vLLM's loader (AutoProcessor) finds what it expects, and
the in-process backend still loads its image-only processor from the same files (tests/vllm serves it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.ml


def test_tiny_model_directory_has_the_files_vllm_reads(tiny_model):
    from halo.policy.processor import ImageOnlyQwen3VLProcessor, load_processor

    d = Path(tiny_model)
    for name in ("processor_config.json", "tokenizer_config.json"):
        assert json.loads((d / name).read_text())["processor_class"] == "Qwen3VLProcessor", name
    video = json.loads((d / "video_preprocessor_config.json").read_text())
    images = json.loads((d / "processor_config.json").read_text())["image_processor"]
    assert video["video_processor_type"] == "Qwen3VLVideoProcessor"
    for k in ("patch_size", "temporal_patch_size", "merge_size", "image_mean", "image_std"):
        assert video[k] == images[k], k
    assert isinstance(load_processor(d), ImageOnlyQwen3VLProcessor)  # in-process: no torchvision needed
