"""Experiment trackers beside ``metrics.jsonl`` (``--log wandb|tensorboard|none``) and a run's provenance.

Every job that writes metrics (eval, GRPO, MCTS, Tinker) opens one ``Tracker`` with ``open_tracker`` and calls
``log(record, step)`` with the record it appends to ``metrics.jsonl``; numbers (nested dicts flattened to
``a/b``) go to the tracker, everything else is left to the JSON. Both trackers work offline: TensorBoard writes
event files under ``<run>/tensorboard``; wandb runs in offline mode unless ``WANDB_MODE`` says otherwise, under
``<run>/wandb`` (``wandb sync`` uploads it later).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any, Mapping

from halo.errors import ConfigError

TRACKERS = ("none", "tensorboard", "wandb")
def flatten(record: Mapping[str, Any], prefix: str = "") -> dict[str, float]:
    """The finite numbers of a metrics record, nested keys joined with '/' (``family_success/gomail.folder``)."""
    out: dict[str, float] = {}
    for k, v in record.items():
        key = f"{prefix}{k}"
        if isinstance(v, Mapping):
            out.update(flatten(v, key + "/"))
        elif isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
            out[key] = float(v)
        elif isinstance(v, bool):
            out[key] = float(v)
    return out


class Tracker:
    """``--log none``: metrics.jsonl only."""

    kind = "none"

    def log(self, record: Mapping[str, Any], step: int) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> "Tracker":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class TensorBoardTracker(Tracker):
    kind = "tensorboard"

    def __init__(self, run_path: Path, config: Mapping[str, Any] | None = None):
        try:
            from tensorboardX import SummaryWriter
        except ImportError:
            raise ConfigError("--log tensorboard needs tensorboardX: pip install 'halo-agent[track]'") from None
        self.dir = run_path / "tensorboard"
        self.writer = SummaryWriter(logdir=str(self.dir))
        if config:
            import yaml

            self.writer.add_text("config", "```\n" + yaml.safe_dump(dict(config), sort_keys=False) + "```", 0)

    def log(self, record: Mapping[str, Any], step: int) -> None:
        for k, v in flatten(record).items():
            self.writer.add_scalar(k, v, step)
        self.writer.flush()

    def close(self) -> None:
        self.writer.close()


class WandbTracker(Tracker):
    kind = "wandb"

    def __init__(self, run_path: Path, config: Mapping[str, Any] | None = None, project: str | None = None):
        try:
            import wandb
        except ImportError:
            raise ConfigError("--log wandb needs wandb: pip install 'halo-agent[track]'") from None
        mode = os.environ.get("WANDB_MODE", "offline")  # no network unless asked for
        self.run = wandb.init(project=project or os.environ.get("WANDB_PROJECT", "halo-agent"),
                              name=run_path.name, dir=str(run_path), mode=mode, config=dict(config or {}),
                              reinit="finish_previous")

    def log(self, record: Mapping[str, Any], step: int) -> None:
        self.run.log(flatten(record), step=step)

    def close(self) -> None:
        self.run.finish()


def check_tracker(kind: str) -> str:
    """A valid ``--log`` value whose library is installed, checked at the door (before any model or browser)."""
    if kind not in TRACKERS:
        raise ConfigError(f"--log must be one of {', '.join(TRACKERS)}, got {kind!r}")
    mod = {"tensorboard": "tensorboardX", "wandb": "wandb"}.get(kind)
    if mod is not None:
        import importlib.util

        if importlib.util.find_spec(mod) is None:
            raise ConfigError(f"--log {kind} needs {mod}: pip install 'halo-agent[track]'")
    return kind


def open_tracker(kind: str, run_path: str | os.PathLike, config: Mapping[str, Any] | None = None,
                 project: str | None = None) -> Tracker:
    """The tracker ``--log`` names, writing under the run directory. MCTS, eval, GRPO and Tinker call this:
    ``with open_tracker(kind, run.path, config) as t: ... t.log(metrics, step)``."""
    check_tracker(kind)
    path = Path(run_path)
    if kind == "tensorboard":
        return TensorBoardTracker(path, config)
    if kind == "wandb":
        return WandbTracker(path, config, project)
    return Tracker()
