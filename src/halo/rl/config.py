"""configs/rl_config.yaml: the one place training hyperparameters live; ``--set section.key=value`` and the
trainers' flags override single values.

Sections: ``policy`` (the default mode; Tinker's sampling), ``episode``, ``grpo``, ``lora``, ``rewards``, ``mcts``.
``RLConfigFile`` is the file's schema, built from the settings classes that use each section (``GRPOSettings`` and
``OptimSettings`` for ``grpo``, ``LoRASettings`` for ``lora``, ``RewardConfig`` for ``rewards``); ``mcts`` is
checked by ``halo.train_mcts.mcts_settings`` against ``MCTSSettings`` and ``DPOSettings``. Unknown keys are
errors naming the file and the key, so that a typo never silently falls back to a default.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from pathlib import Path
from typing import Any, Optional, Sequence

from halo.errors import ConfigError

CONFIG_FILE = "configs/rl_config.yaml"


def find_config(path: str | os.PathLike | None = None) -> Path:
    """``path``, else ``$HALO_RL_CONFIG``, else configs/rl_config.yaml here, in the package or in the checkout."""
    from halo.config_files import find_config_file

    found, tried = find_config_file(CONFIG_FILE, path, "HALO_RL_CONFIG")
    if found is None:
        raise ConfigError(f"no RL config at {', '.join(map(str, tried))}; pass --config or set HALO_RL_CONFIG")
    return found


@functools.lru_cache(maxsize=1)
def rl_config_schema() -> Any:
    """The pydantic model of rl_config.yaml (built on first use: the settings classes import torch)."""
    from pydantic import BaseModel, ConfigDict, StrictFloat, StrictInt, StrictStr

    from halo.config_files import schema_from
    from halo.rl.grpo import GRPOSettings
    from halo.rl.learner import LoRASettings, OptimSettings

    class _Section(BaseModel):
        model_config = ConfigDict(extra="forbid")

    class Policy(_Section):
        mode: Optional[StrictStr] = None  # the mode `halo train grpo|mcts` run without --mode
        temperature: Optional[StrictFloat] = None  # Tinker's sampling (modes carry their own decoding)
        max_tokens: Optional[StrictInt] = None

    class Episode(_Section):
        max_steps: Optional[StrictInt] = None
        episode_timeout_s: Optional[StrictFloat] = None
        history: Optional[StrictInt] = None  # Tinker's prompt (modes carry their own prompt settings)

    class RLConfigFile(_Section):
        policy: Optional[Policy] = None
        episode: Optional[Episode] = None
        grpo: Optional[schema_from("GRPOSection", GRPOSettings, OptimSettings)] = None  # type: ignore[valid-type]
        lora: Optional[schema_from("LoRASection", LoRASettings)] = None  # type: ignore[valid-type]
        rewards: Optional[dict[str, Any]] = None  # RewardConfig.from_dict checks it (regexes, weights)
        mcts: Optional[dict[str, Any]] = None  # train_mcts.mcts_settings checks it

    return RLConfigFile


def check_rl_file(data: dict[str, Any], where: str) -> dict[str, Any]:
    """``data`` (an rl_config mapping) against the schema and the reward config; ``ConfigError`` naming ``where``
    and the keys otherwise. Returns ``data`` with only the keys it had (numbers as the settings take them)."""
    from pydantic import ValidationError

    from halo.config_files import describe_errors
    from halo.rl.rewards import RewardConfig

    try:
        model = rl_config_schema()(**data)
    except ValidationError as e:
        raise ConfigError(describe_errors(e, where)) from None
    except TypeError as e:
        raise ConfigError(f"{where}: {e}") from None
    out = model.model_dump(exclude_unset=True)
    for k in ("grpo", "lora"):
        if isinstance(out.get(k), dict):
            out[k] = {kk: list(v) if isinstance(v, tuple) else v for kk, v in out[k].items()}
    try:
        RewardConfig.from_dict(out.get("rewards") or {})
    except ConfigError as e:
        raise ConfigError(f"{where}: {e}") from None
    return out


def load_rl_config(path: str | os.PathLike | None = None, sets: Sequence[str] = ()) -> dict[str, Any]:
    """rl_config.yaml as a checked mapping of sections, with ``--set`` items for its sections applied."""
    from halo.config_files import RL_SECTIONS, apply_sets, read_yaml, sets_for

    f = find_config(path)
    data = apply_sets(read_yaml(f), sets_for(sets, RL_SECTIONS), str(f))
    return check_rl_file(data, str(f))


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
