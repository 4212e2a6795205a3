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


def test_element_ids_are_single_tokens_in_the_tiny_tokenizer(tiny_model):
    """Ids 0-999 are one token each (digit by digit, "11" would repeat the token of "1"): the first choice of a
    click is one sampled token whose credit is its own."""
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(tiny_model)
    lengths = {i: len(tok(str(i), add_special_tokens=False)["input_ids"]) for i in range(1000)}
    assert [i for i, n in lengths.items() if n != 1] == []
    ids = {tok(str(i), add_special_tokens=False)["input_ids"][0] for i in range(1000)}
    assert len(ids) == 1000
    in_reply = tok('"element": "123"}', add_special_tokens=False)["input_ids"]
    assert tok("123", add_special_tokens=False)["input_ids"][0] in in_reply  # the same one token inside a reply
    assert len(tok("1234", add_special_tokens=False)["input_ids"]) == 2  # at most three digits a token


def test_a_tiny_model_of_an_older_format_is_rebuilt_and_others_are_left_alone(tmp_path):
    from halo.policy.tiny import TINY_FORMAT, ensure_tiny_model

    d = tmp_path / "tiny"
    d.mkdir()
    (d / "config.json").write_text("{}")
    (d / "HALO_TINY.json").write_text(json.dumps({"seed": 3, "hidden": 64}))  # format 1: digit-by-digit ids
    logs = []
    ensure_tiny_model(d, logs.append)
    meta = json.loads((d / "HALO_TINY.json").read_text())
    assert meta["format"] == TINY_FORMAT and meta["seed"] == 3 and "rebuilding" in logs[0]
    assert ensure_tiny_model(d, logs.append) == d and len(logs) == 1  # current: kept as it is
    own = tmp_path / "mine"
    own.mkdir()
    (own / "config.json").write_text('{"x": 1}')  # not built by HALO: never touched
    ensure_tiny_model(own, logs.append)
    assert (own / "config.json").read_text() == '{"x": 1}' and not (own / "HALO_TINY.json").exists()


def test_the_tiny_tokenizer_trains_on_reals_records_only():
    """The sites' generated records (hundreds of products, homes, emails, events) stay out of the tokenizer's corpus:
    a seed's tiny model is the same whatever the sites generate around REAL's own data."""
    from halo.policy.tiny import _site_texts
    from real_local.omnizon.catalog import CORE_PRODUCTS, PRODUCTS
    from real_local.zilloft.listings import FIXED, LISTINGS

    texts = set(_site_texts())
    assert len(PRODUCTS) > len(CORE_PRODUCTS) and len(LISTINGS) > len(FIXED)
    assert all(f"{p.title} {p.category} {p.brand}" in texts for p in CORE_PRODUCTS)
    assert not any(f"{p.title} {p.category} {p.brand}" in texts for p in PRODUCTS[len(CORE_PRODUCTS):])
    assert not any(f"{x.street} {x.city} {x.home_type}" in texts for x in LISTINGS[len(FIXED):])
    assert len(_site_texts()) == 56 * 2 + 22 + len(CORE_PRODUCTS) + len(FIXED) + 2
