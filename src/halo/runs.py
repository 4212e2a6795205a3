"""Run directories (ARCHITECTURE.md): ``runs/<name>/`` with ``config.yaml``, append-only ``metrics.jsonl``,
``episodes/<id>.jsonl`` (one line per step, then one episode summary line) and the steps' screenshots as JPEG."""

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


class RunDir:
    """One job's directory. ``name`` None picks ``<prefix>-<UTC time>``."""

    def __init__(self, root: str | Path = "runs", name: str | None = None, prefix: str = "run"):
        name = name or f"{prefix}-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}"
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name):
            raise ConfigError(f"run name {name!r}: use letters, digits, '.', '_' and '-' only")
        self.path = Path(root) / name
        self.episodes = self.path / "episodes"
        self.episodes.mkdir(parents=True, exist_ok=True)

    def write_config(self, config: dict[str, Any]) -> None:
        (self.path / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))

    def log_metrics(self, record: dict[str, Any]) -> None:
        with open(self.path / "metrics.jsonl", "a") as f:
            f.write(json.dumps(record, default=str) + "\n")

    def write_episode(self, key: str, episode: Any, extra: dict[str, Any] | None = None) -> Path:
        """Steps of a ``halo.rl.rollout.Episode`` to ``episodes/<key>.jsonl``, screenshots to ``episodes/<key>/``."""
        shots = self.episodes / key
        shots.mkdir(exist_ok=True)
        lines = []
        for step in episode.steps:
            shot = None
            if step.obs.screenshot:
                shot = f"{key}/step_{step.index:03d}.jpg"
                (self.episodes / shot).write_bytes(_jpeg(step.obs.screenshot, step.obs.image_format))
            s = step.sample
            lines.append({"type": "step", "step": step.index, "url": step.obs.url, "next_url": step.next_url,
                          "text": s.text, "action": s.action.to_dict() if s.action else None,
                          "parse_error": s.error, "repairs": list(s.parsed.repairs), "error": step.error,
                          "reward": step.reward.total, "reward_parts": step.reward.parts,
                          "tokens": len(s.token_ids) if s.token_ids else None, "screenshot": shot,
                          "timings": {k: round(v, 4) for k, v in step.timings.items()}})
        final = None
        if episode.final_obs is not None and episode.final_obs.screenshot:
            final = f"{key}/final.jpg"
            (self.episodes / final).write_bytes(_jpeg(episode.final_obs.screenshot, episode.final_obs.image_format))
        lines.append({"type": "episode", "key": key, "id": episode.id, "task_id": episode.task_id,
                      "site": episode.site, "success": episode.success, "real_reward": episode.real_reward,
                      "dense_return": episode.dense_return, "steps": len(episode.steps),
                      "action_validity": episode.action_validity, "truncated": episode.truncated,
                      "errored": episode.errored, "error": episode.error, "milestones": list(episode.milestones),
                      "wall_time": round(episode.wall_time, 3), "final_screenshot": final, **(extra or {})})
        path = self.episodes / f"{key}.jsonl"
        path.write_text("".join(json.dumps(line, default=str) + "\n" for line in lines))
        return path
