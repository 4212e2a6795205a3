"""configs/rl_config.yaml: the one place training hyperparameters live; the CLI overrides single values.

Sections: ``policy`` (mode, decoding), ``episode``, ``grpo``, ``lora``, ``rewards``, ``mcts``. This module turns them
into the library's dataclasses; unknown keys are errors so that a typo never silently falls back to a default.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

import yaml

from halo.errors import ConfigError

CONFIG_FILE = "configs/rl_config.yaml"


def find_config(path: str | os.PathLike | None = None) -> Path:
    """``path``, else ``$HALO_RL_CONFIG``, else configs/rl_config.yaml here or in the source checkout."""
    from halo.config_files import find_config_file

    found, tried = find_config_file(CONFIG_FILE, path, "HALO_RL_CONFIG")
    if found is None:
        raise ConfigError(f"no RL config at {', '.join(map(str, tried))}; pass --config or set HALO_RL_CONFIG")
    return found


def load_rl_config(path: str | os.PathLike | None = None) -> dict[str, Any]:
    from halo.validate import load_yaml

    f = find_config(path)
    try:
        data = load_yaml(f.read_text()) or {}
    except yaml.YAMLError as e:
        raise ConfigError(f"{f} is not valid YAML: {e}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{f} must be a mapping of sections")
    return data


def build(cls: type, values: dict[str, Any], where: str, **overrides: Any) -> Any:
    """``cls(**values)`` with non-None ``overrides`` on top; unknown keys raise ``ConfigError`` naming them."""
    names = {f.name for f in dataclasses.fields(cls)}
    merged = {**{k: v for k, v in (values or {}).items() if k in names},
              **{k: v for k, v in overrides.items() if v is not None}}
    unknown = set(values or {}) - names
    if unknown:
        raise ConfigError(f"{where}: unknown keys {sorted(unknown)}; known: {sorted(names)}")
    from halo.validate import check_types

    check_types(cls, merged, where)  # `lr: fast` fails here, not inside the optimizer
    for k, v in merged.items():
        if isinstance(v, list):
            merged[k] = tuple(v)
    try:
        return cls(**merged)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"{where}: {e}") from None
