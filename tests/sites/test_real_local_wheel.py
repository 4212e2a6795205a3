"""REAL-local installs alone: its wheel, built from ``packages/real-local``, goes into a fresh venv with only its own
dependencies (resolved by pip from the package index, as a user's ``pip install real-local`` would), and the
``real-local`` command there lists the tasks and serves pages, with no torch, transformers, peft, HALO or agisdk in
that environment."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "packages" / "real-local"
ML_STACK = ("torch", "transformers", "peft", "vllm", "tinker", "halo", "agisdk", "playwright")


def _run(args: list, cwd: Path, env: dict, timeout: float = 300) -> subprocess.CompletedProcess:
    r = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                       check=False)
    assert r.returncode == 0, f"{' '.join(map(str, args))} -> {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> tuple[Path, dict, Path]:
    """(the fresh venv's bin dir, its environment, a working directory outside the checkout)."""
    tmp = tmp_path_factory.mktemp("real-local-wheel")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "HALO_"))}
    src = tmp / "src-copy"
    shutil.copytree(PKG, src, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", tmp / "dist", src],
         tmp, env)
    wheel = next((tmp / "dist").glob("real_local-*.whl"))
    venv = tmp / "venv"
    _run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", venv], tmp, env)
    _run([venv / "bin" / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check", wheel], tmp, env)
    work = tmp / "elsewhere"
    work.mkdir()
    return venv / "bin", {**env, "PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"}, work


def test_the_fresh_venv_has_its_dependencies_and_no_ml_stack(fresh):
    bin_dir, env, work = fresh
    code = ("import importlib.util as u, real_local, pathlib; "
            f"print([m for m in {ML_STACK!r} if u.find_spec(m)]); print(pathlib.Path(real_local.__file__))")
    r = _run([bin_dir / "python", "-c", code], work, env)
    found, where = r.stdout.split("\n")[:2]
    assert found == "[]", f"the ML stack or HALO reached REAL-local's venv: {found}"
    assert "site-packages" in where and str(ROOT) not in where  # the wheel, not the checkout
    _run([bin_dir / "python", "-m", "pip", "check"], work, env)
    assert _run([bin_dir / "real-local", "--version"], work, env).stdout.strip() == "real-local 0.1.0"


def test_tasks_and_known_issues_from_the_wheel(fresh):
    bin_dir, env, work = fresh
    lines = _run([bin_dir / "real-local", "tasks"], work, env).stdout.splitlines()
    assert len(lines) == 121 and lines[0].split()[0].startswith("v2.") and "v2.gomail-1" in {ln.split()[0] for ln in lines}
    ki = _run([bin_dir / "real-local", "tasks", "--known-issues"], work, env).stdout.splitlines()
    ids = [ln.split()[0] for ln in ki]
    assert "v2.gocalendar-11" in ids and "v1.staynb-5" in ids and len(ids) == len(set(ids)) >= 40
    bad = subprocess.run([bin_dir / "real-local", "serve", "--sites", "gmail"], cwd=work, env=env,
                         capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2 and "no REAL-local site 'gmail'" in bad.stderr


def _free_base() -> int:
    for base in range(21000, 60000, 37):
        try:
            for k in range(1, 12):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", base + k))
            return base
        except OSError:
            continue
    raise RuntimeError("no free port range")


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as r:
        assert r.status == 200
        return r.read().decode("utf-8", "replace")


def test_serve_from_the_wheel_puts_gomail_on_port_plus_one(fresh):
    bin_dir, env, work = fresh
    base = _free_base()
    proc = subprocess.Popen([bin_dir / "real-local", "serve", "--port", str(base), "--sites", "gomail,omnizon"],
                            cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline, page = time.time() + 60, ""
        while time.time() < deadline and not page:
            try:
                page = _get(f"http://127.0.0.1:{base + 1}/")
            except OSError:
                assert proc.poll() is None, proc.communicate()[0]
                time.sleep(0.3)
        assert "GoMail" in page or "gomail" in page.lower(), page[:500]
        assert "Omnizon" in _get(f"http://127.0.0.1:{base + 3}/")  # omnizon keeps its offset (+3)
        assert "differences" in json.loads(_get(f"http://127.0.0.1:{base + 1}/finish.json"))  # what agisdk grades
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    assert f"http://127.0.0.1:{base + 1}" in out and "omnizon" in out
