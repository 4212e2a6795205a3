"""The Ray cluster a job runs on: start a local one or join one (bounded, a bad address refused at the door), and
shut it down after if this process started it."""

from __future__ import annotations

import contextlib
import os
from typing import Any, Iterator

from halo.errors import ConfigError


def _ray():
    try:
        import ray
    except ImportError as e:  # pragma: no cover - ray is a dependency
        raise ConfigError(f"--ray needs the ray package ({e}); pip install 'ray>=2.9'") from None
    return ray


def connect(address: str | None, workers: int, *, num_cpus: int | None = None, timeout_s: float = 60.0) -> dict:
    """Start a local Ray cluster (``address`` None or "local") or join one (``ray://host:10001`` or
    ``host:6379``/``auto``), bounded by ``timeout_s``; a bad address is a ``ConfigError`` before anything else
    starts. Returns ``{address, nodes, cpus}``. Idempotent when Ray is already initialised in this process."""
    ray = _ray()
    if workers < 1:
        raise ConfigError(f"--ray-workers must be >= 1, got {workers}")
    started = not ray.is_initialized()
    if started:
        kw: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
        if address in (None, "", "local"):
            kw["num_cpus"] = num_cpus if num_cpus is not None else max(workers, os.cpu_count() or 1)
            # a source checkout that is not installed: the workers import halo from the same tree
            kw["runtime_env"] = {"env_vars": {"PYTHONPATH": os.pathsep.join(
                p for p in (_src_root(), os.environ.get("PYTHONPATH")) if p)}}
            target = None
        else:  # a cluster's nodes have HALO installed (docs/SCALE_OUT.md)
            target = address
            if not address.startswith("ray://") and address != "auto":
                _check_reachable(address, timeout_s)
        try:
            ray.init(address=target, **kw)
        except Exception as e:  # noqa: BLE001 - ConnectionError, RuntimeError, ValueError: no cluster there
            if _auth_refused(e):
                raise ConfigError(f"--ray-address {address}: the Ray head refused this driver's token ({e}); a head "
                                  "started where ~/.ray/auth_token exists requires token auth: set RAY_AUTH_MODE=token "
                                  "and the head's token (~/.ray/auth_token or RAY_AUTH_TOKEN) on this machine and on "
                                  "every node (docs/SCALE_OUT.md)") from None
            raise ConfigError(f"--ray-address {address}: cannot join the Ray cluster ({type(e).__name__}: {e}); "
                              "start it with `ray start --head` (docs/SCALE_OUT.md), or use --ray alone for a "
                              "local one") from None
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    return {"address": address or "local", "nodes": len(nodes), "started": started,
            "cpus": int(ray.cluster_resources().get("CPU", 0))}


def _auth_refused(e: BaseException | None) -> bool:
    """``ray.init`` failed because the head wants a token this driver did not send (Ray's token auth): the
    ``ConnectionError`` it raises carries the ``AuthenticationError`` as its cause."""
    seen = 0
    while e is not None and seen < 8:
        if type(e).__name__ == "AuthenticationError" or "InvalidAuthToken" in str(e):
            return True
        e, seen = e.__cause__ or e.__context__, seen + 1
    return False


def check_address(address: str | None, workers: int, timeout_s: float = 5.0) -> None:
    """What ``connect`` checks before ``ray.init``: the worker count and, for ``HOST:PORT``, that the head answers."""
    if workers < 1:
        raise ConfigError(f"--ray-workers must be >= 1, got {workers}")
    if address and address.startswith("ray://"):
        import importlib.util

        if importlib.util.find_spec("grpc") is None:  # Ray Client rides on gRPC: ray's `client` extra
            raise ConfigError(f"--ray-address {address}: Ray Client (ray://) needs Ray's client extra: "
                              "pip install 'ray[client]' (or join the cluster by its GCS address, HOST:6379, from a "
                              "machine inside it)")
    elif address not in (None, "", "local", "auto"):
        _check_reachable(address, timeout_s)


def _src_root() -> str:
    import halo

    return os.path.dirname(os.path.dirname(os.path.abspath(halo.__file__)))


def _check_reachable(address: str, timeout_s: float) -> None:
    """A TCP connect to the head's GCS port first: ``ray.init`` on a dead address retries for minutes."""
    import socket

    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ConfigError(f"--ray-address {address}: give HOST:PORT (the head's GCS port, 6379 by default), ray://HOST:10001, "
                          "auto, or no address for a local cluster")
    try:
        with socket.create_connection((host, int(port)), timeout=min(timeout_s, 5.0)):
            pass
    except OSError as e:
        raise ConfigError(f"--ray-address {address}: the Ray head is not reachable ({e.strerror or e}); start it with "
                          "`ray start --head --port " + port + "` (docs/SCALE_OUT.md)") from None


@contextlib.contextmanager
def ray_session(address: str | None, workers: int, console: Any = None) -> Iterator[dict]:
    """A job's time on Ray: ``connect`` (said on ``console``), and the cluster shut down after if this started it."""
    info = connect(address, workers)
    if console is not None:
        console.print(f"Ray: {info['address']} ({info['nodes']} node(s), {info['cpus']} CPUs), {workers} rollout "
                      "workers")
    try:
        yield info
    finally:
        if info["started"]:
            shutdown()


def shutdown() -> None:
    ray = _ray()
    if ray.is_initialized():
        ray.shutdown()
