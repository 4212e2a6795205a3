"""Where HALO's YAML config files are found: an explicit path, else an environment variable, else ``configs/``
in the working directory, else ``configs/`` of the source checkout."""

from __future__ import annotations

import os
from pathlib import Path

SOURCE_ROOT = Path(__file__).resolve().parents[2]


def config_candidates(relpath: str, path: str | os.PathLike | None = None, env_var: str | None = None) -> list[Path]:
    if path:
        return [Path(path)]
    if env_var and os.environ.get(env_var):
        return [Path(os.environ[env_var])]
    return [Path.cwd() / relpath, SOURCE_ROOT / relpath]


def find_config_file(relpath: str, path: str | os.PathLike | None = None,
                     env_var: str | None = None) -> tuple[Path | None, list[Path]]:
    """The first existing candidate (or None) and the candidates tried, for the error message."""
    cands = config_candidates(relpath, path, env_var)
    return next((c for c in cands if c.is_file()), None), cands
