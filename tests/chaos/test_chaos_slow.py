"""The long chaos runs (`-m slow`): real `halo eval` and `halo train grpo` processes whose Chromium processes are
SIGKILLed from outside at random moments (one every 1-4 s), at least 20 kills across the runs (four runs or more, up
to 12 while faster runs leave fewer kills); and the default retry budget against a policy server that never answers.
Each run must end on its own (no hang), exit 0, and keep every episode, metrics line and checkpoint. The numbers are
printed (run with -s) for the issue's closing note."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import psutil
import pytest
from chaos_helpers import BadPolicyServer, chromium_processes, kill_one

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.ml]

ROOT = Path(__file__).resolve().parents[2]
RUN_BOUND_S = 900  # a run that has not ended by then is a hang
MAX_RUNS = 12  # runs of 11-27 s: 8 runs with a kill every 2-6 s gave 13 kills


def _run_under_kills(args: list[str], rng: random.Random, between: tuple[float, float]) -> dict:
    """Run ``halo ARGS``; SIGKILL a random Chromium process of it every ``between`` seconds until it exits."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "halo.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
    kills: list[str] = []
    out: list[str] = []
    reader = threading.Thread(target=lambda: out.extend(proc.stdout), daemon=True)
    reader.start()
    next_kill = time.perf_counter() + rng.uniform(*between)
    hung = False
    while proc.poll() is None:
        if time.perf_counter() - t0 > RUN_BOUND_S:
            hung = True
            for p in psutil.Process(proc.pid).children(recursive=True):
                p.kill()
            proc.kill()
            break
        if time.perf_counter() >= next_kill:
            roots = [p.pid for p in psutil.Process(proc.pid).children(recursive=True)
                     if "--halo-pool=" in " ".join(_cmdline(p))]
            k = kill_one(chromium_processes(roots), rng, rng.choice(("main", "zygote", "gpu-process", "renderer",
                                                                     "utility", "any")))
            if k is not None:
                kills.append(k)
                next_kill = time.perf_counter() + rng.uniform(*between)
        time.sleep(0.1)
    proc.wait()
    reader.join(timeout=10)
    return {"rc": proc.returncode, "kills": kills, "hung": hung, "wall_s": round(time.perf_counter() - t0, 1),
            "output": "".join(out)}


def _cmdline(p: psutil.Process) -> list[str]:
    try:
        return p.cmdline()
    except psutil.Error:
        return []


@pytest.mark.timeout(MAX_RUNS * RUN_BOUND_S)
def test_eval_and_training_survive_20_random_kills(tiny_model, tmp_path):
    rng = random.Random(2024)

    def runs():
        """eval, train, eval, train...: at least four runs, more until 20 kills (a faster run is killed less)."""
        for i in range(MAX_RUNS):
            if i >= 4 and sum(len(r["kills"]) for r in results) >= 20:
                return
            if i % 2 == 0:
                yield "eval", ["eval", "--mode", "tiny", "--model", tiny_model, "--tasks", "v2.gomail-4,v2.omnizon-3",
                               "--episodes", "4", "--parallel", "2", "--max-steps", "5", "--max-error-share", "1",
                               "--runs-dir", str(tmp_path), "--name", f"eval{i}"]
            else:
                yield "train", ["train", "grpo", "--mode", "tiny", "--model", tiny_model, "--tasks", "v2.gomail-4",
                                "--iterations", "5", "--group-size", "2", "--max-steps", "4", "--checkpoint-every",
                                "2", "--max-error-share", "1", "--save-episodes", "none", "--runs-dir",
                                str(tmp_path), "--run-name", f"train{i}"]

    results, failures = [], []
    for i, (kind, args) in enumerate(runs()):
        r = _run_under_kills(args, rng, (1.0, 4.0))
        r["kind"] = kind
        results.append(r)
        name = args[args.index("--name") + 1] if kind == "eval" else args[args.index("--run-name") + 1]
        run = tmp_path / name
        try:
            assert not r["hung"], f"{kind} run {i} hung: {r['output'][-3000:]}"
            assert r["rc"] == 0, f"{kind} run {i} failed: {r['output'][-3000:]}"
            lines = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
            r["errored"] = sum(m.get("errored", 0) for m in lines)
            if kind == "eval":
                assert len(list((run / "episodes").glob("*.jsonl"))) == 8  # every episode written
                assert lines[-1]["episodes"] + lines[-1]["errored"] == 8
            else:
                assert [m["iteration"] for m in lines] == [0, 1, 2, 3, 4]
                assert (run / "checkpoints" / "latest").resolve().name == "iter_000004"
                assert not list((run / "checkpoints").glob(".tmp-*"))
        except AssertionError as e:
            failures.append(str(e))
    kills = [k for r in results for k in r["kills"]]
    ok = [k for r in results if r["rc"] == 0 and not r["hung"] for k in r["kills"]]
    summary = {"runs": len(results), "kills": len(kills), "kills_survived": len(ok), "by_kind": dict(Counter(kills)),
               "hangs": sum(r["hung"] for r in results),
               "per_run": [{k: r.get(k) for k in ("kind", "rc", "wall_s", "errored")} | {"kills": len(r["kills"])}
                           for r in results]}
    print("\nCHAOS SUMMARY " + json.dumps(summary))
    assert not failures, failures
    assert summary["hangs"] == 0 and len(ok) >= 20, summary


async def test_default_budget_fails_a_step_against_a_never_answering_server_in_about_a_minute():
    from halo.errors import PolicyError
    from halo.policy.openai_backend import OpenAIPolicy, ServerConfig

    sys.path.insert(0, str(ROOT / "tests" / "policy"))
    from policy_helpers import make_obs

    server = BadPolicyServer("hang")
    try:
        pol = OpenAIPolicy(ServerConfig(base_url=server.url, model="chaos-model"))
        t0 = time.perf_counter()
        with pytest.raises(PolicyError, match="no answer within"):
            await pol.sample_single(make_obs())
        dt = time.perf_counter() - t0
        print(f"\nNEVER-ANSWERING SERVER: a step failed after {dt:.1f} s ({server.requests} requests)")
        assert 55 <= dt <= 66
        await pol.aclose()
    finally:
        server.close()
