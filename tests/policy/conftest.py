"""Fixtures of the policy tests: observations, the loopback chat-completions fixture server, the tiny model
(built once per session with the real `halo model tiny` command)."""

from __future__ import annotations

import os

import pytest
from policy_helpers import make_obs

from halo.env.types import Observation

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture
def obs() -> Observation:
    return make_obs()


@pytest.fixture(scope="session")
def chat_server_fixture():
    from policy_chat_server import FixtureChatServer

    server = FixtureChatServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def chat_server(chat_server_fixture):
    chat_server_fixture.reset()
    return chat_server_fixture


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory):
    """The tiny Qwen3-VL, built once per session through the CLI (`halo model tiny DIR`)."""
    pytest.importorskip("torch")
    from typer.testing import CliRunner

    from halo.cli import app

    out = tmp_path_factory.mktemp("tiny") / "tiny-qwen3vl"
    result = CliRunner().invoke(app, ["model", "tiny", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def one_torch_thread():
    """Tiny-model work on one torch thread (2 threads next to busy browsers were 7x slower here); restored after."""
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
