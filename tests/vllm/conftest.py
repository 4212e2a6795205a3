"""The real-vLLM lane (`make test-vllm`): one vLLM server on loopback, from vLLM's own environment (`make vllm`),
serving the tiny Qwen3-VL that the in-process backend also loads.

Without that environment these tests skip, except under `make test-vllm` (HALO_REQUIRE_VLLM=1), where they fail.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "policy"))

pytestmark = pytest.mark.vllm


@pytest.fixture(scope="session")
def vllm_python() -> str:
    from halo.policy.serve import INSTALL_HINT, vllm_python

    py = vllm_python()
    if py is None or not py.is_file():
        msg = f"no vLLM environment: {INSTALL_HINT}"
        if os.environ.get("HALO_REQUIRE_VLLM") == "1":
            pytest.fail(msg)
        pytest.skip(msg)
    return str(py)


@pytest.fixture(scope="session")
def modes_file(tmp_path_factory) -> Path:
    """configs/modes.yaml with tiny_vllm's server waits cut to seconds: a killed server fails a step quickly."""
    data = yaml.safe_load((ROOT / "configs" / "modes.yaml").read_text())
    data["modes"]["tiny_vllm"]["server"].update(timeout_s=10, retry_budget_s=15, max_retries=2)
    f = tmp_path_factory.mktemp("modes") / "modes.yaml"
    f.write_text(yaml.safe_dump(data))
    return f


@pytest.fixture(scope="session")
def vllm_mode(tiny_model, modes_file):
    from halo.policy.modes import get_mode

    return get_mode("tiny_vllm", modes_file).with_overrides(model=tiny_model)


@pytest.fixture(scope="module")
def vllm_server(vllm_python, vllm_mode, tmp_path_factory):
    """A real vLLM server for the tiny model; its log is printed when a test fails to start it."""
    from halo.policy.vllm_server import VLLMServer

    log = tmp_path_factory.mktemp("vllm") / "vllm.log"
    srv = VLLMServer(vllm_mode, log, python=vllm_python, startup_timeout_s=240)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory) -> str:
    """`halo model tiny`'s model, at least 128 wide: vLLM's CPU attention refuses head_dim (hidden / 4) under 32."""
    from halo.policy.tiny import HIDDEN, build_tiny_model

    return str(build_tiny_model(tmp_path_factory.mktemp("vllm-tiny") / "tiny-qwen3vl", hidden=max(HIDDEN, 128)))
