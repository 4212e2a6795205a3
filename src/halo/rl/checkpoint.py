"""Checkpoints a killed run can resume from: written whole or not at all.

``checkpoints/iter_000010/`` holds the LoRA adapter in PEFT format (``adapter_config.json`` +
``adapter_model.safetensors``, loadable by peft and vLLM) plus ``trainer_state.pt`` (optimizer, RNG) and
``trainer_state.json`` (iteration, metrics summary). It is written in a temp directory and renamed into place;
``checkpoints/latest`` is a symlink swapped atomically. Resuming truncates ``metrics.jsonl`` to the checkpoint's
iteration, so the resumed run's records follow on without gaps or repeats. Temp dirs a killed write left behind are
removed when a run starts or resumes (``clean_stale``); a resumed run keeps its first ``config.yaml`` and records
each resume beside it (``resumes.yaml``).
"""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path
from typing import Any

LATEST = "latest"


def checkpoint_dir(run_path: Path, iteration: int) -> Path:
    return run_path / "checkpoints" / f"iter_{iteration:06d}"


def save_checkpoint(run_path: Path, iteration: int, learner: Any, summary: dict[str, Any] | None = None) -> Path:
    """Write the checkpoint of a finished ``iteration`` and point ``latest`` at it."""
    import numpy as np
    import torch

    root = run_path / "checkpoints"
    root.mkdir(parents=True, exist_ok=True)
    final = checkpoint_dir(run_path, iteration)
    tmp = root / f".tmp-{final.name}-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    learner.save_adapter(str(tmp))
    torch.save({**learner.state_dict(), "torch_rng": torch.get_rng_state(), "numpy_rng": np.random.get_state(),
                "python_rng": random.getstate()}, tmp / "trainer_state.pt")
    (tmp / "trainer_state.json").write_text(json.dumps({"iteration": iteration, **(summary or {})}, indent=2))
    if final.exists():
        shutil.rmtree(final)
    os.replace(tmp, final)
    link_tmp = root / f".{LATEST}-{os.getpid()}"
    if link_tmp.is_symlink() or link_tmp.exists():
        link_tmp.unlink()
    link_tmp.symlink_to(final.name)
    os.replace(link_tmp, root / LATEST)
    return final


def latest_checkpoint(run_path: Path) -> Path | None:
    """The newest complete checkpoint (``latest``, else the highest ``iter_*`` holding a trainer_state.json)."""
    root = run_path / "checkpoints"
    link = root / LATEST
    if link.exists() and (link / "trainer_state.json").is_file():
        return link.resolve()
    done = sorted(p for p in root.glob("iter_*") if (p / "trainer_state.json").is_file()) if root.is_dir() else []
    return done[-1] if done else None


def load_checkpoint(path: Path, learner: Any) -> int:
    """Restore adapter, optimizer and RNG from ``path``; return the iteration it finished."""
    import numpy as np
    import torch

    state = torch.load(path / "trainer_state.pt", weights_only=False)
    learner.load_state(str(path), state)
    torch.set_rng_state(state["torch_rng"])
    np.random.set_state(state["numpy_rng"])
    random.setstate(state["python_rng"])
    return int(json.loads((path / "trainer_state.json").read_text())["iteration"])


def truncate_metrics(metrics_file: Path, last_iteration: int) -> int:
    """Keep only records of iterations <= ``last_iteration`` (and non-iteration records); return lines dropped."""
    if not metrics_file.is_file():
        return 0
    keep, dropped = [], 0
    for line in metrics_file.read_text().splitlines():
        if not line.strip():
            continue
        try:
            it = json.loads(line).get("iteration")
        except ValueError:  # a line cut by the kill: drop it
            dropped += 1
            continue
        if isinstance(it, int) and it > last_iteration:
            dropped += 1
        else:
            keep.append(line)
    tmp = metrics_file.with_suffix(".jsonl.tmp")
    tmp.write_text("".join(k + "\n" for k in keep))
    os.replace(tmp, metrics_file)
    return dropped


def clean_stale(run_path: Path) -> list[str]:
    """Remove what killed checkpoint writes left behind (``checkpoints/.tmp-*`` dirs, ``.latest-*`` links) unless
    the process that wrote it is still alive; the names removed."""
    root = Path(run_path) / "checkpoints"
    if not root.is_dir():
        return []
    removed = []
    for p in sorted(root.iterdir()):
        if not p.name.startswith((".tmp-", f".{LATEST}-")):
            continue
        pid = p.name.rsplit("-", 1)[-1]
        if pid.isdigit() and int(pid) != os.getpid() and _alive(int(pid)):
            continue  # another process is writing it now
        if p.is_symlink() or p.is_file():
            p.unlink(missing_ok=True)
        else:
            shutil.rmtree(p, ignore_errors=True)
        removed.append(p.name)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


RESUMES = "resumes.yaml"


def write_run_config(run: Any, config: dict[str, Any], *, resume: bool, overrides: dict[str, Any]) -> Path:
    """A new run writes ``config.yaml``. A resumed one keeps the first ``config.yaml`` (what the run was started
    with) and appends to ``resumes.yaml`` beside it: when, from which iteration, the command line's overrides, and
    every top-level setting that differs from the first config."""
    import time

    import yaml

    from halo.config.files import load_yaml
    from halo.version import provenance

    path = run.path / "config.yaml"
    if not resume or not path.is_file():
        run.write_config(config)
        return path
    changed = config_changes(run, config)
    entry = {"resumed_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
             "resumed_at_iteration": config.get("resumed_at_iteration"),
             "overrides": _given(overrides), "changed": changed, "provenance": provenance()}
    log = run.path / RESUMES
    entries = (load_yaml(log.read_text()) or []) if log.is_file() else []
    entries.append(entry)
    tmp = log.with_suffix(".yaml.tmp")
    tmp.write_text(yaml.safe_dump(entries, sort_keys=False))
    os.replace(tmp, log)
    return log


def config_changes(run: Any, config: dict[str, Any]) -> dict[str, Any]:
    """The top-level settings of ``config`` that differ from the run's first ``config.yaml``, each as ``{"was",
    "now"}``: compared as the file holds them (tuples written as lists are the same value)."""
    import yaml

    from halo.config.files import load_yaml

    path = run.path / "config.yaml"
    first = (load_yaml(path.read_text()) or {}) if path.is_file() else {}
    now = load_yaml(yaml.safe_dump(config, sort_keys=False)) or {}
    return {k: {"was": first.get(k), "now": v} for k, v in now.items()
            if k not in ("resumed_at_iteration", "started_utc") and first.get(k) != v}


def changed_leaves(changed: dict[str, Any], skip: tuple[str, ...] = ("sets",)) -> list[str]:
    """``config_changes`` as one line per changed value: ``optim.lr: 1e-06 -> 1e-05``."""
    out: list[str] = []

    def walk(key: str, was: Any, now: Any) -> None:
        if isinstance(was, dict) and isinstance(now, dict):
            for k in dict.fromkeys([*was, *now]):
                walk(f"{key}.{k}", was.get(k), now.get(k))
        elif was != now:
            out.append(f"{key}: {was!r} -> {now!r}")

    for k, d in changed.items():
        if k not in skip:
            walk(k, d["was"], d["now"])
    return out


def _given(d: dict[str, Any]) -> dict[str, Any]:
    """``d`` without None values and the empty sections they leave."""
    out = {}
    for k, v in d.items():
        v = _given(v) if isinstance(v, dict) else v
        if v not in (None, {}, []):
            out[k] = v
    return out
