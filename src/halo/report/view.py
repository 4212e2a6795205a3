"""``halo view RUN_DIR [RUN_DIR2]``: every saved episode of one or two runs, browsable in a browser.

The page lists the episodes (filter by run, part, task, site, iteration, success, return) and opens one as full-size
screenshots with the action drawn on them (the click point, the target element's box), the raw reply, the parsed
action, the reward parts and milestones, REAL's grade, and per step the advantage and the sampled tokens' logprob
before and after the update. A GRPO group's saved episodes open side by side, and so do the episodes of one task in
two runs. The page is static (``view.html``, screenshots linked relatively) or served on loopback (``--serve``).

Episodes are read from ``<run>/episodes`` and from the episodes of evaluations nested in the run
(``<run>/eval_*/episodes``, as ``halo demo`` writes them).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from halo.runtime.runs import dir_bytes, read_jsonl

EMBED_LIMIT_MB = 16.0  # step lines (JSON) embedded in a static page up to this size; past it, --serve loads them lazily
_GROUP_KEY = re.compile(r"^it(\d+)-g(\d+)-")


@dataclass
class RunView:
    path: Path
    prefix: str  # the run directory as the page reaches it (relative path, or a served mount)
    config: dict[str, Any] = field(default_factory=dict)
    episodes: list[dict[str, Any]] = field(default_factory=list)
    steps: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # "part/key" -> step lines
    mib: float = 0.0


def episode_dirs(run_path: Path) -> list[tuple[str, Path]]:
    """(part, episodes dir): the run's own episodes ("train" for a trainer, "eval" for an evaluation) and those of
    evaluations nested in it."""
    from halo.config.files import load_yaml

    cfg = run_path / "config.yaml"
    command = (load_yaml(cfg.read_text()) or {}).get("command", "") if cfg.is_file() else ""
    own = "eval" if command == "eval" else "train"
    out = [(own, run_path / "episodes")] if (run_path / "episodes").is_dir() else []
    for d in sorted(run_path.iterdir()) if run_path.is_dir() else []:
        if d.is_dir() and (d / "episodes").is_dir():
            out.append((d.name, d / "episodes"))
    return out


def load_run(run_path: str | Path, prefix: str, embed_limit_mb: float = EMBED_LIMIT_MB) -> RunView:
    from halo.config.files import load_yaml

    run_path = Path(run_path)
    cfg_file = run_path / "config.yaml"
    rv = RunView(path=run_path, prefix=prefix.rstrip("/") + "/" if prefix else "",
                 config=(load_yaml(cfg_file.read_text()) or {}) if cfg_file.is_file() else {})
    total = text = 0
    for part, d in episode_dirs(run_path):
        total += dir_bytes(d)
        rel = d.relative_to(run_path).as_posix()
        for f in sorted(d.glob("*.jsonl")):
            text += f.stat().st_size
            lines = read_jsonl(f)
            summary = next((ln for ln in lines if ln.get("type") == "episode"), None)
            if summary is None:
                continue
            key = f.stem
            m = _GROUP_KEY.match(key)
            it = summary.get("iteration", int(m.group(1)) if m else None)
            group = summary.get("group", int(m.group(2)) if m else None)
            steps = [ln for ln in lines if ln.get("type") == "step"]
            rv.episodes.append({
                "part": part, "key": key, "dir": f"{rv.prefix}{rel}/", "task_id": summary.get("task_id", ""),
                "site": summary.get("site", ""), "goal": summary.get("goal") or "", "iteration": it, "group": group,
                "success": bool(summary.get("success")), "ret": summary.get("dense_return", 0.0),
                "steps": summary.get("steps", len(steps)), "errored": bool(summary.get("errored")),
                "error": summary.get("error"), "milestones": summary.get("milestones") or [],
                "grade": summary.get("grade"), "final": summary.get("final_screenshot"),
                "truncated": bool(summary.get("truncated")), "validity": summary.get("action_validity"),
                "kind": summary.get("kind", ""), "wall": summary.get("wall_time")})
            rv.steps[f"{part}/{key}"] = steps
    rv.mib = round(total / 2**20, 2)
    if text > embed_limit_mb * 2**20:
        rv.steps = {}  # too large to embed: the served page loads each episode's steps when it is opened
    return rv


def render_view(runs: list[RunView], title: str | None = None) -> str:
    env = Environment(loader=PackageLoader("halo.report", "templates"), autoescape=select_autoescape())
    data = {"runs": [{"name": r.path.name, "prefix": r.prefix, "command": r.config.get("command", ""),
                      "mib": r.mib, "embedded": bool(r.steps) or not r.episodes,
                      "provenance": r.config.get("provenance") or {}} for r in runs],
            "episodes": [{**e, "r": i} for i, r in enumerate(runs) for e in r.episodes],
            "steps": {f"{i}:{k}": v for i, r in enumerate(runs) for k, v in r.steps.items()}}
    names = " vs ".join(r.path.name for r in runs)
    return env.get_template("view.html").render(title=title or f"HALO episodes: {names}",
                                                data=json.dumps(data, default=str).replace("</", "<\\/"))


def write_view(run_dirs: list[str | Path], out: str | Path | None = None, title: str | None = None) -> Path:
    """Write the static page (default ``<first run>/view.html``); screenshots are linked relative to it."""
    run_dirs = [Path(d) for d in run_dirs]
    out = Path(out) if out else run_dirs[0] / "view.html"
    out.parent.mkdir(parents=True, exist_ok=True)
    runs = [load_run(d, os.path.relpath(d, out.parent)) for d in run_dirs]
    for r in runs:
        if r.prefix == "./":
            r.prefix = ""
            for e in r.episodes:
                e["dir"] = e["dir"].removeprefix("./")
    out.write_text(render_view(runs, title))
    return out


def make_app(run_dirs: list[str | Path], title: str | None = None) -> Any:
    """A starlette app: the page at ``/``, run ``i`` mounted at ``/run{i}/`` (screenshots and episode files)."""
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    run_dirs = [Path(d) for d in run_dirs]

    async def page(_request: Any) -> HTMLResponse:  # read anew on each load: a running job's new episodes show
        return HTMLResponse(render_view([load_run(d, f"run{i}", embed_limit_mb=0)
                                         for i, d in enumerate(run_dirs)], title))

    routes = [Route("/", page)] + [Mount(f"/run{i}", StaticFiles(directory=str(d)), name=f"run{i}")
                                   for i, d in enumerate(run_dirs)]
    return Starlette(routes=routes)


def serve_view(run_dirs: list[str | Path], host: str = "127.0.0.1", port: int = 8765,
               title: str | None = None) -> None:
    import uvicorn

    uvicorn.run(make_app(run_dirs, title), host=host, port=port, log_level="warning")
