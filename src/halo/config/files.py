"""Where HALO's config files are and how they are read: one way for all three (``rl_config.yaml``,
``modes.yaml``, ``demo.yaml``).

- **Where**: an explicit path (``--config``, ``--modes-file``), else an environment variable, else ``configs/`` in
  the working directory (your own files), else the copies shipped inside the package (``halo/configs/``, package
  data of the wheel), else ``configs/`` of the source checkout.
- **Read**: YAML where ``1e-5`` is a number (PyYAML's YAML 1.1 reads it as the string "1e-5"); a file must be a
  mapping. Each file's schema lives beside what reads it (``halo.rl.config``, ``halo.policy.modes``,
  ``halo.jobs.demo``) and is checked by ``halo.config.settings``; overrides come from ``halo.config.overrides``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml

from halo.errors import ConfigError

SOURCE_ROOT = Path(__file__).resolve().parents[3]
PACKAGE_CONFIGS = Path(__file__).resolve().parents[1] / "configs"  # in a wheel: the shipped defaults


class _Loader(yaml.SafeLoader):
    """SafeLoader that reads ``1e-5`` and ``3E+2`` as floats, as YAML 1.2 and every user do."""


_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
                    |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
                    |\.[0-9_]+(?:[eE][-+]?[0-9]+)?
                    |[-+]?\.(?:inf|Inf|INF)
                    |\.(?:nan|NaN|NAN))$""", re.X),
    list("-+0123456789."))


def load_yaml(text: str) -> Any:
    return yaml.load(text, Loader=_Loader)


def config_candidates(relpath: str, path: str | os.PathLike | None = None, env_var: str | None = None) -> list[Path]:
    if path:
        return [Path(path)]
    if env_var and os.environ.get(env_var):
        return [Path(os.environ[env_var])]
    return [Path.cwd() / relpath, PACKAGE_CONFIGS / Path(relpath).name, SOURCE_ROOT / relpath]


def find_config_file(relpath: str, path: str | os.PathLike | None = None,
                     env_var: str | None = None) -> tuple[Path | None, list[Path]]:
    """The first existing candidate (or None) and the candidates tried, for the error message."""
    cands = config_candidates(relpath, path, env_var)
    return next((c for c in cands if c.is_file()), None), cands


def require_config_file(relpath: str, path: str | os.PathLike | None, env_var: str, flag: str, what: str) -> Path:
    """The file a command reads, or ``ConfigError`` naming where it looked and how to point at one."""
    found, tried = find_config_file(relpath, path, env_var)
    if found is None:
        raise ConfigError(f"no {what} at {', '.join(map(str, tried))}; pass {flag} or set {env_var}")
    return found


def read_yaml(f: Path) -> dict[str, Any]:
    try:
        data = load_yaml(f.read_text()) or {}
    except yaml.YAMLError as e:
        raise ConfigError(f"{f} is not valid YAML: {e}") from None
    except OSError as e:
        raise ConfigError(f"cannot read {f}: {e.strerror or e}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{f} must be a mapping of keys, got {type(data).__name__}")
    return data
