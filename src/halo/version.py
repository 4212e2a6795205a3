"""HALO's version and a run's provenance: what every run's ``config.yaml`` records (HALO's version, the git commit,
the versions of the packages results depend on)."""

from __future__ import annotations

import functools
import importlib.metadata
import platform
import subprocess
from pathlib import Path
from typing import Any

KEY_PACKAGES = ("agisdk", "torch", "transformers", "peft", "xgrammar", "playwright", "vllm", "tinker",
                "tinker-cookbook", "pydantic")


def halo_version() -> str:
    try:
        return importlib.metadata.version("halo-agent")
    except importlib.metadata.PackageNotFoundError:
        from halo import __version__

        return __version__


@functools.lru_cache(maxsize=1)
def git_commit() -> str | None:
    """The checkout's commit (with ``+dirty`` when files differ from it), or None outside a git checkout."""
    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():
        return None
    try:
        sha = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=5).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return (sha + ("+dirty" if dirty else "")) if sha else None


def provenance() -> dict[str, Any]:
    pkgs = {}
    for name in KEY_PACKAGES:
        try:
            pkgs[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return {"halo_version": halo_version(), "git_commit": git_commit(), "python": platform.python_version(),
            "packages": pkgs}
