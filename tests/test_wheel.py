"""The built wheel works outside the checkout: a fresh environment, a working directory with no ``configs/``, and the
commands a new user runs first (``--version``, ``tasks``, ``serve-policy --dry-run``, a one-episode tiny eval).

The fresh environment reuses this one's installed dependencies (a path entry, not the editable HALO) so that nothing
is downloaded; the wheels (HALO's and REAL-local's, which HALO depends on) are built from a copy of the sources with
``--no-build-isolation``. tests/sites/test_real_local_wheel.py installs REAL-local's alone, with only its own
dependencies.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("src", "configs", "pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "CHANGELOG.md",
           "packages")


def _run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 240) -> subprocess.CompletedProcess:
    r = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"{' '.join(args)} -> {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, dict[str, str], Path]:
    """(the fresh environment's bin dir, its env vars, a working directory outside the checkout)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src-copy"
    src.mkdir()
    for name in SOURCES:
        p = ROOT / name
        if p.is_dir():
            shutil.copytree(p, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(p, src / name)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "HALO_"))}
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(tmp / "dist"),
          str(src)], tmp, env)
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(tmp / "dist"),
          str(src / "packages" / "real-local")], tmp, env)  # REAL-local, the distribution HALO depends on
    wheels = [next((tmp / "dist").glob("halo_agent-*.whl")), next((tmp / "dist").glob("real_local-*.whl"))]
    venv = tmp / "venv"
    _run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", "--without-pip", str(venv)], tmp, env)
    py = venv / "bin" / "python"
    site = Path(_run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp, env)
                .stdout.strip())
    # this environment's dependencies, read as a plain path (its editable HALO's .pth is not processed from there)
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps", "--no-index", *map(str, wheels)],
         tmp, env)
    work = tmp / "elsewhere"
    work.mkdir()
    env = {**env, "PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"}
    return venv / "bin", env, work


def test_wheel_has_configs_license_and_types(installed):
    bin_dir, env, work = installed
    code = ("import halo, pathlib, importlib.metadata as m, real_local; "
            "p = pathlib.Path(halo.__file__).parent; print(p); "
            "print(sorted(f.name for f in (p / 'configs').glob('*.yaml'))); print((p / 'py.typed').is_file()); "
            "print(any('LICENSE' in str(f) for f in m.files('halo-agent'))); "
            "print((pathlib.Path(real_local.__file__).parent / 'hosted_tls' / 'cert.pem').is_file())")
    r = _run([str(bin_dir / "python"), "-c", code], work, env)
    where, configs, typed, lic, tls = r.stdout.split("\n")[:5]
    assert tls == "True"  # route_hosted's certificate ships with the sites
    assert str(ROOT) not in where and "site-packages" in where  # the wheel, not the checkout
    assert configs == "['demo.yaml', 'ladder.yaml', 'modes.yaml', 'rl_config.yaml']" and typed == "True" and lic == "True"


def test_version_tasks_and_serve_policy_dry_run(installed):
    bin_dir, env, work = installed
    v = _run([str(bin_dir / "halo"), "--version"], work, env).stdout
    assert v.startswith("halo-agent 0.1.0") and "git" not in v  # no checkout, no commit
    assert _run([str(bin_dir / "python"), "-m", "halo", "--version"], work, env).stdout == v
    assert "121 tasks" in _run([str(bin_dir / "halo"), "tasks"], work, {**env, "COLUMNS": "200"}).stdout
    out = _run([str(bin_dir / "halo"), "serve-policy", "--mode", "qwen3vl_base", "--dry-run"], work, env).stdout
    assert "Qwen/Qwen3-VL-8B-Instruct" in out and "--enable-lora" in out
    # a configs/modes.yaml where the command runs overrides the shipped one; --set overrides both
    (work / "configs").mkdir(exist_ok=True)
    (work / "configs" / "modes.yaml").write_text(
        "modes:\n  mine:\n    backend: openai\n    model: my-org/my-model\n    server: {kind: vllm}\n")
    out = _run([str(bin_dir / "halo"), "serve-policy", "--mode", "mine", "--dry-run", "--set",
                "mode.serve.port=8123"], work, env).stdout
    assert "my-org/my-model" in out and "8123" in out
    shutil.rmtree(work / "configs")


@pytest.mark.browser
def test_one_episode_tiny_eval_from_the_wheel(installed, tiny_model, tmp_path):
    bin_dir, env, work = installed
    runs = tmp_path / "runs"
    r = _run([str(bin_dir / "halo"), "eval", "--mode", "tiny", "--tasks", "omnizon.department-3", "--episodes", "1",
              "--max-steps", "1", "--parallel", "1", "--runs-dir", str(runs), "--run-name", "wheel-eval",
              "--set", f"mode.model={tiny_model}"], work, {**env, "COLUMNS": "200"})
    assert "overall success" in r.stdout
    run = runs / "wheel-eval"
    cfg = yaml.safe_load((run / "config.yaml").read_text())
    assert cfg["provenance"]["halo_version"] == "0.1.0" and cfg["provenance"]["git_commit"] is None
    assert "transformers" in cfg["provenance"]["packages"]
    eps = list((run / "episodes").glob("*.jsonl"))
    assert len(eps) == 1 and json.loads(eps[0].read_text().splitlines()[-1])["type"] == "episode"
    _run([str(bin_dir / "halo"), "report", str(run)], work, env)
    _run([str(bin_dir / "halo"), "view", str(run)], work, env)
    assert (run / "report.html").is_file() and "omnizon.department-3" in (run / "view.html").read_text()
