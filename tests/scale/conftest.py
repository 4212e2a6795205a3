"""One local Ray cluster (two CPUs: two rollout workers) for every test of this directory that asks for it.

It is started on first use and kept for the session; a test that joins another cluster (``test_ray_two_nodes.py``:
one process joins one cluster at a time) disconnects it first, and the next test that asks for ``ray_cluster``
starts a local one again."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def _ray_local_session():
    ray = pytest.importorskip("ray")
    yield ray
    if ray.is_initialized():
        ray.shutdown()


@pytest.fixture
def ray_cluster(_ray_local_session):
    ray = _ray_local_session
    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    return ray


@pytest.fixture(scope="module")
def tiny_mode(tiny_model):
    """The tiny mode on the session's tiny model; max_batch 1: a greedy reply must not depend on which other
    requests share its generate call (left padding)."""
    from halo.policy.modes import get_mode

    return get_mode("tiny").with_overrides(max_batch=1, model=tiny_model)
