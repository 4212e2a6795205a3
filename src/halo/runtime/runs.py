"""Run directories (ARCHITECTURE.md): ``runs/<name>/`` with ``config.yaml``, append-only ``metrics.jsonl``,
``episodes/<id>.jsonl`` (one line per step, then one episode summary line) and the steps' screenshots as JPEG.
``halo view`` browses the episodes, ``halo report`` draws the metrics."""

from __future__ import annotations

import io
import json
import re
import time
from pathlib import Path
from typing import Any

import yaml

from halo.errors import ConfigError


def _jpeg(data: bytes, fmt: str) -> bytes:
    if fmt == "jpeg" or data[:3] == b"\xff\xd8\xff":
        return data
    from PIL import Image

    buf = io.BytesIO()
    Image.open(io.BytesIO(data)).convert("RGB").save(buf, format="JPEG", quality=80)
    return buf.getvalue()


def _target(step: Any) -> dict[str, Any] | None:
    """Where the step's action aimed, in screenshot (viewport) pixels: the click point of a coordinate action and
    the box of the element it targeted (by id, or the smallest element under the point), for the viewer."""
    from halo.rl.rewards import target_element

    action = step.sample.action
    if action is None:
        return None
    out: dict[str, Any] = {"viewport": list(step.obs.viewport)}
    x, y = getattr(action, "x", None), getattr(action, "y", None)
    if x is not None and y is not None:
        from halo.env.actions import to_pixels

        out["point"] = [round(v, 1) for v in to_pixels(x, y, *step.obs.viewport)]
    el = target_element(step.obs, action)
    if el is not None:
        out["element"] = {"id": el.id, "role": el.role, "name": el.name[:120]}
        if el.bbox is not None:
            out["box"] = [round(v, 1) for v in el.bbox]
    return out if len(out) > 1 else None


def _rounded(values: Any, limit: int = 512) -> list[float] | None:
    return None if values is None else [round(float(v), 4) for v in list(values)[:limit]]


class RunDir:
    """One job's directory. ``name`` None picks ``<prefix>-<UTC time>``. ``max_episode_mb`` bounds the episodes'
    size: past it episodes are still written, without their screenshots (``skipped_screenshots`` counts them)."""

    def __init__(self, root: str | Path = "runs", name: str | None = None, prefix: str = "run",
                 max_episode_mb: float = 2048.0):
        name = name or f"{prefix}-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}"
        self.path = run_path(root, name)
        self.episodes = self.path / "episodes"
        self.episodes.mkdir(parents=True, exist_ok=True)
        self.max_episode_bytes = int(max_episode_mb * 2**20)
        self.episode_bytes = dir_bytes(self.episodes)
        self.skipped_screenshots = 0

    def write_config(self, config: dict[str, Any]) -> None:
        from halo.version import provenance

        config = {**config, "provenance": config.get("provenance") or provenance()}
        (self.path / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))

    def log_metrics(self, record: dict[str, Any]) -> None:
        with open(self.path / "metrics.jsonl", "a") as f:
            f.write(json.dumps(record, default=str) + "\n")

    def _shot(self, rel: str, data: bytes, fmt: str) -> str | None:
        if self.episode_bytes >= self.max_episode_bytes:
            self.skipped_screenshots += 1
            return None
        data = _jpeg(data, fmt)
        (self.episodes / rel).write_bytes(data)
        self.episode_bytes += len(data)
        return rel

    def write_episode(self, key: str, episode: Any, extra: dict[str, Any] | None = None) -> Path:
        """Steps of a ``halo.rl.rollout.Episode`` to ``episodes/<key>.jsonl``, screenshots to ``episodes/<key>/``.

        Each step line holds what the viewer shows: the raw reply, the parsed action and where it aimed
        (``target``), the reward parts, the sampled tokens' logprobs, and, when a trainer learned from the step,
        its advantage and the logprobs after the update."""
        shots = self.episodes / key
        shots.mkdir(exist_ok=True)
        lines = []
        for step in episode.steps:
            shot = None
            if step.obs.screenshot:
                shot = self._shot(f"{key}/step_{step.index:03d}.jpg", step.obs.screenshot, step.obs.image_format)
            s = step.sample
            lp = s.sampler_logprobs if s.sampler_logprobs is not None else s.logprobs
            new = getattr(step, "new_logprobs", None)
            lines.append({"type": "step", "step": step.index, "url": step.obs.url, "next_url": step.next_url,
                          "text": s.text, "action": s.action.to_dict() if s.action else None,
                          "parse_error": s.error, "repairs": list(s.parsed.repairs), "error": step.error,
                          "finish_reason": getattr(s, "finish_reason", None),
                          "reward": step.reward.total, "reward_parts": step.reward.parts,
                          "tokens": len(s.token_ids) if s.token_ids else None, "screenshot": shot,
                          "target": _target(step), "advantage": getattr(step, "advantage", None),
                          "logprob": round(sum(lp), 4) if lp else None, "logprobs": _rounded(lp),
                          "new_logprob": round(sum(new), 4) if new else None, "new_logprobs": _rounded(new),
                          "timings": {k: round(v, 4) for k, v in step.timings.items()},
                          # asynchronous GRPO: the adapter version that sampled the step
                          **({"version": s.version} if getattr(s, "version", None) is not None else {})})
        final = None
        if episode.final_obs is not None and episode.final_obs.screenshot:
            final = self._shot(f"{key}/final.jpg", episode.final_obs.screenshot, episode.final_obs.image_format)
        lines.append({"type": "episode", "key": key, "id": episode.id, "task_id": episode.task_id,
                      "site": episode.site, "goal": episode.steps[0].obs.goal if episode.steps else "",
                      "success": episode.success, "real_reward": episode.real_reward,
                      "dense_return": episode.dense_return, "steps": len(episode.steps),
                      "action_validity": episode.action_validity, "truncated": episode.truncated,
                      "errored": episode.errored, "error": episode.error, "milestones": list(episode.milestones),
                      "grade": getattr(episode, "grade_details", None),
                      "wall_time": round(episode.wall_time, 3), "final_screenshot": final, **(extra or {})})
        path = self.episodes / f"{key}.jsonl"
        text = "".join(json.dumps(line, default=str) + "\n" for line in lines)
        path.write_text(text)
        self.episode_bytes += len(text)
        return path

    def size_report(self) -> dict[str, Any]:
        """What the saved episodes take: count, MiB, and screenshots left out past the budget."""
        return {"episodes": len(list(self.episodes.glob("*.jsonl"))), "mib": round(self.episode_bytes / 2**20, 2),
                "max_mib": round(self.max_episode_bytes / 2**20), "skipped_screenshots": self.skipped_screenshots}


def run_path(root: str | Path, name: str) -> Path:
    """Where run ``name`` lives under ``root``, its name checked; nothing is created (a ``--resume`` that cannot
    resume leaves no directory behind)."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name):
        raise ConfigError(f"run name {name!r}: use letters, digits, '.', '_' and '-' only")
    return Path(root) / name


def dir_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.is_dir() else 0


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The records of a JSON-lines file of a run (none if it is missing); a line a kill cut short is skipped."""
    out = []
    if not path.is_file():
        return out
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue  # a line cut by a kill
    return out
