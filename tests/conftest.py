"""Fixtures shared across test directories."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory) -> str:
    """The tiny Qwen3-VL (deterministic, offline), built once per test session for every directory that needs it."""
    pytest.importorskip("torch")
    from halo.policy.tiny import build_tiny_model

    return str(build_tiny_model(tmp_path_factory.mktemp("shared-tiny") / "tiny-qwen3vl"))
