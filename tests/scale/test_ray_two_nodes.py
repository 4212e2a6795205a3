"""docs/SCALE_OUT.md's many-machines recipe with two Ray nodes on this machine: a head (`ray start --head`) and a
second node that joins it (`ray start --address`), each its own raylet, started by the `ray` CLI as the docs say;
the driver joins with an address (`connect("127.0.0.1:PORT")`, what `--ray-address` does), the rollout workers are
placed on the second node by a custom resource (`worker_options`), one is killed as its first unit is dispatched,
and the evaluation equals the local path's, episode by episode (greedy, as in `test_ray_rollouts.py`).

Both nodes are stopped at the end, even on failure: each `ray start --block` is signalled (it stops its node's
processes), then anything still carrying this test's marker in its environment is killed by pid. Never `ray stop`:
it would stop every Ray on the machine."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from ray_helpers import episode_steps

pytest.importorskip("ray")
pytest.importorskip("torch")

pytestmark = [pytest.mark.browser, pytest.mark.ml, pytest.mark.timeout(300)]

TASKS = ["v2.gomail-1", "v2.gomail-2"]
MAX_STEPS = 3
MARKER = "HALO_TWO_NODE_TEST"  # in the environment of every process the two nodes start (for the final sweep)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ours(marker: str) -> list[int]:
    """Pids of the processes started by this test's nodes (raylets, workers, their browsers): the marker is in their
    environment."""
    needle = f"{MARKER}={marker}".encode()
    out = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            with contextlib.suppress(OSError):
                if needle in (p / "environ").read_bytes().split(b"\0"):
                    out.append(int(p.name))
    return out


class TwoNodes:
    """A head and a second node, each `ray start --block` in a process group of its own."""

    def __init__(self, root: str):
        self.root = root
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.procs: list[subprocess.Popen] = []
        ray_cli = str(Path(sys.executable).with_name("ray"))
        # Ray >= 2.5x: a head that finds ~/.ray/auth_token enables token auth, a joining node or an explicit-address
        # driver does not (docs/SCALE_OUT.md): token mode on every side, the one token of this machine
        self.env = {**os.environ, "RAY_AUTH_MODE": "token", MARKER: root}
        self.common = [ray_cli, "start", "--block", "--disable-usage-stats",
                       "--object-store-memory", str(100 * 2**20)]

    def _start(self, name: str, args: list[str]) -> subprocess.Popen:
        log = open(os.path.join(self.root, f"{name}.log"), "w")  # noqa: SIM115 - closed with the process
        p = subprocess.Popen([*self.common, *args], stdout=log, stderr=subprocess.STDOUT, env=self.env,
                             start_new_session=True)
        log.close()
        self.procs.append(p)
        return p

    def log(self, name: str) -> str:
        with contextlib.suppress(OSError):
            return Path(self.root, f"{name}.log").read_text()[-3000:]
        return ""

    def start(self, timeout_s: float = 90.0) -> None:
        ray_cli = self.common[0]
        if not Path.home().joinpath(".ray", "auth_token").exists() and not os.environ.get("RAY_AUTH_TOKEN"):
            subprocess.run([ray_cli, "get-auth-token", "--generate"], env=self.env, check=True, timeout=60,
                           capture_output=True)
        head = self._start("head", [
            "--head", "--port", str(self.port), "--include-dashboard", "false", "--num-cpus", "1",
            "--resources", json.dumps({"head": 1}), "--dashboard-agent-listen-port", str(_free_port()),
            "--temp-dir", os.path.join(self.root, "head")])
        deadline = time.monotonic() + timeout_s
        while True:  # the head's GCS answers
            if head.poll() is not None:
                raise RuntimeError(f"ray start --head exited {head.returncode}:\n{self.log('head')}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 1):
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"the head did not answer within {timeout_s:.0f} s:\n{self.log('head')}")
            time.sleep(0.5)
        # the second node: the docs' `ray start --address <head>:PORT` (its own raylet, ports and temp dir)
        self._start("node2", [
            "--address", self.address, "--num-cpus", "2", "--resources", json.dumps({"node2": 2}),
            "--dashboard-agent-listen-port", str(_free_port()), "--temp-dir", os.path.join(self.root, "node2")])

    def wait_joined(self, ray, timeout_s: float = 90.0) -> dict[str, str]:
        """Both nodes alive in the cluster (as the driver sees it): ``{"head": id, "node2": id}``."""
        deadline = time.monotonic() + timeout_s
        while True:
            for p, name in zip(self.procs, ("head", "node2")):
                if p.poll() is not None:
                    raise RuntimeError(f"ray start ({name}) exited {p.returncode}:\n{self.log(name)}")
            ids = {k: n["NodeID"] for n in ray.nodes() if n.get("Alive") for k in ("head", "node2")
                   if k in n.get("Resources", {})}
            if len(ids) == 2:
                return ids
            if time.monotonic() > deadline:
                raise TimeoutError(f"the second node did not join within {timeout_s:.0f} s:\n{self.log('node2')}")
            time.sleep(0.5)

    def stop(self) -> list[int]:
        """Stop both nodes (second node first); returns the pids that had to be killed in the final sweep."""
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)  # `ray start --block` stops its node's processes on SIGTERM
        for p in reversed(self.procs):
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(p.pid, signal.SIGKILL)  # its own group (start_new_session)
                p.wait(10)
        time.sleep(1)
        left = [pid for pid in _ours(self.root) if pid != os.getpid()]
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        return left


@contextlib.contextmanager
def _auth_mode(mode: str):
    """``RAY_AUTH_MODE`` for this process, as if set before it started: Ray reads it into its cached config, which
    ``Config.initialize`` refreshes (what Ray itself does when it turns token auth on for a local cluster)."""
    from ray._raylet import Config

    before = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = mode
    Config.initialize("")
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("RAY_AUTH_MODE", None)
        else:
            os.environ["RAY_AUTH_MODE"] = before
        Config.initialize("")


@pytest.fixture
def two_nodes():
    """A two-node Ray cluster on this machine, the driver (this process) not yet joined; stopped after, always."""
    import ray

    if ray.is_initialized():  # the session's local cluster (conftest): one cluster per process
        ray.shutdown()
    # short: Ray's unix sockets live under it (108 bytes at most)
    root = tempfile.mkdtemp(prefix="halo-2n-", dir="/tmp")
    nodes = TwoNodes(root)
    try:
        with _auth_mode("token"):
            nodes.start()
            yield nodes
    finally:
        from halo.runtime.ray.cluster import shutdown

        shutdown()
        left = nodes.stop()
        if left:
            print(f"killed {len(left)} leftover process(es) of the two nodes: {left}")
        import shutil

        shutil.rmtree(root, ignore_errors=True)
    assert not _ours(root), "a process of the two Ray nodes outlived the test"




async def test_two_ray_nodes_workers_on_the_second_node_survive_a_kill_and_equal_the_local_path(two_nodes, tiny_mode,
                                                                                              tmp_path):
    import ray

    from halo.jobs.eval import EvalConfig, run_eval
    from halo.policy.modes import make_policy
    from halo.runtime.ray.cluster import connect
    from halo.runtime.ray.rollouts import RayRollouts, sites_of
    from halo.runtime.runs import RunDir
    from halo.tasks.resolve import local_sites, resolve_tasks

    t_start = time.perf_counter()
    cfg = EvalConfig(episodes=1, parallel=1, max_steps=MAX_STEPS, temperature=0.0, episode_timeout_s=120)
    with local_sites(True) as urls:  # the local path first (no Ray)
        tasks = resolve_tasks(TASKS, sites="local", site_urls=urls)
        policy = make_policy(tiny_mode)
        try:
            local = await run_eval(policy, tasks, cfg, RunDir(tmp_path, "local"))
        finally:
            await policy.aclose()

    # the driver joins by address, as `--ray-address 127.0.0.1:PORT` does
    info = connect(two_nodes.address, 2, timeout_s=30)
    ids = two_nodes.wait_joined(ray)
    assert info["started"] and info["address"] == two_nodes.address
    assert ray.get_runtime_context().get_node_id() == ids["head"]  # the driver is on the head
    t_cluster = time.perf_counter() - t_start

    killed = []

    def kill_first(wi, worker, unit):  # the first unit sent to worker 0 dies with it, mid-evaluation
        if wi == 0 and not killed:
            killed.append(unit.task.id)
            ray.kill(worker)

    rollouts = RayRollouts(tiny_mode, None, workers=2, sites=sites_of(tasks), per_worker=cfg.parallel, retries=2,
                           env_kwargs={"max_steps": cfg.max_steps, "episode_timeout_s": cfg.episode_timeout_s},
                           unit_timeout_s=240, call_timeout_s=120, start_timeout_s=120,
                           worker_options={"resources": {"node2": 1}}, on_dispatch=kill_first)
    async with rollouts:
        # both workers on the second node, each with its own REAL-local there
        assert [w["node_id"] for w in rollouts.info] == [ids["node2"]] * 2, (rollouts.info, ids)
        assert len({w["pid"] for w in rollouts.info}) == 2
        assert all(set(w["urls"]) == set(sites_of(tasks)) for w in rollouts.info)
        remote = await run_eval(None, tasks, cfg, RunDir(tmp_path, "ray"), rollouts=rollouts)
    print(f"two nodes: cluster up {t_cluster:.1f} s, all {time.perf_counter() - t_start:.1f} s, "
          f"stats {rollouts.stats.as_dict()}")

    # the kill: one worker lost, its unit re-run on the other worker (also on node2), nothing errored
    assert killed and rollouts.stats.workers_lost == 1 and rollouts.stats.retried == 1
    assert rollouts.stats.failed == 0 and rollouts.stats.units == len(TASKS) + 1
    m_local, m_ray = local.metrics(), remote.metrics()
    assert m_ray["errored"] == 0 and m_ray["episodes"] == m_local["episodes"] == len(TASKS) * cfg.episodes
    # the same files, the same episode names, the same replies, actions and rewards step by step
    a, b = tmp_path / "local", tmp_path / "ray"
    assert sorted(p.name for p in a.iterdir()) == sorted(p.name for p in b.iterdir())
    sa, sb = episode_steps(a), episode_steps(b)
    assert len(sa) == len(TASKS) * cfg.episodes and sa == sb
    metrics = [json.loads(x) for x in (b / "metrics.jsonl").read_text().splitlines()]
    assert metrics[-1]["ray"]["workers_lost"] == 1


def test_a_head_that_wants_a_token_is_an_error_that_says_so(monkeypatch):
    """A head started where ~/.ray/auth_token exists turns token auth on; a driver without RAY_AUTH_MODE=token is
    refused with Ray's AuthenticationError as the cause of a ConnectionError (seen with the nodes above)."""
    import ray

    from halo.errors import ConfigError
    from halo.runtime.ray import cluster

    def refused(**kw):
        try:
            raise ray.exceptions.AuthenticationError("RPC error: InvalidAuthToken: Authentication token is missing")
        except ray.exceptions.AuthenticationError as e:
            raise ConnectionError("Failed to connect to Ray cluster at 10.0.0.9:6379") from e

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", refused)
    monkeypatch.setattr(cluster, "_check_reachable", lambda *a: None)
    with pytest.raises(ConfigError, match=r"refused this driver's token .*RAY_AUTH_MODE=token"):
        cluster.connect("10.0.0.9:6379", 2)
    monkeypatch.setattr(ray, "init", lambda **kw: (_ for _ in ()).throw(ConnectionError("no cluster")))
    with pytest.raises(ConfigError, match="cannot join the Ray cluster"):  # any other failure: as before
        cluster.connect("10.0.0.9:6379", 2)
