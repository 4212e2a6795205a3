"""``report.html`` for a run directory: curves people would rather look at than read, and episode filmstrips.

Reads only what the run directory holds (``config.yaml``, ``metrics.jsonl``, ``episodes/*.jsonl`` and their JPEGs),
so a report can be rebuilt for any run, finished, running or killed (``halo report RUN_DIR``). Curves are inline SVG
whose points link to their iteration's episodes in the viewer (``view.html``, written beside the report); an
evaluation's success per site and per task links to its episodes too. Screenshots are linked relative to the run
directory, so the page stays small.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from jinja2 import Environment, PackageLoader, select_autoescape

from halo.config.files import load_yaml
from halo.report.trees import render_trees
from halo.runtime.runs import dir_bytes, read_jsonl

# (title, series: metric key -> label, band key, y range): one chart each when the run logged any of its keys
CURVES = (
    ("mean dense return", {"mean_reward": "mean"}, "reward_std", None),
    ("success rate", {"success_rate": "success"}, None, (0.0, 1.0)),
    ("zero-variance groups", {"frac_reward_zero_std": "share"}, None, (0.0, 1.0)),
    ("action validity", {"action_validity": "valid"}, None, (0.0, 1.0)),
    ("loss", {"loss": "loss"}, None, None),
    ("grad norm (before clipping)", {"grad_norm": "grad norm"}, None, None),
    ("clip fraction", {"clip_frac": "clipped"}, None, None),
    ("KL to the base", {"kl": "k3 KL"}, None, None),
    ("sampled tokens", {"tokens": "tokens"}, None, None),
    ("seconds per iteration", {"time_rollout": "rollout", "time_update": "update", "time_save": "save",
                               "time_sync": "sync"}, None, None),
    ("DPO implicit reward margin (MCTS)", {"dpo_margin": "margin"}, None, None),
    ("pairs' mean Q margin (MCTS)", {"dpo_margin_q": "Q margin"}, None, None),
)


@dataclass
class EpisodeView:
    key: str
    summary: dict[str, Any]
    steps: list[dict[str, Any]] = field(default_factory=list)


def load_episodes(run_path: Path, subdir: str = "episodes") -> list[EpisodeView]:
    eps = []
    for f in sorted((run_path / subdir).glob("*.jsonl")):
        lines = read_jsonl(f)
        summary = next((ln for ln in lines if ln.get("type") == "episode"), None)
        if summary is None:
            continue
        eps.append(EpisodeView(key=f.stem, summary=summary, steps=[ln for ln in lines if ln.get("type") == "step"]))
    return eps


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def curves(records: list[dict[str, Any]], link: Any = None) -> list[tuple[str, str]]:
    """(title, inline SVG) per chart of ``CURVES`` the records have, then success per task family."""
    from halo.report.svg import line_chart

    out = []
    for title, keys, band, yr in CURVES:
        series = {label: [(r["iteration"], float(r[k])) for r in records if _num(r.get(k))]
                  for k, label in keys.items()}
        series = {k: v for k, v in series.items() if v}
        if not series or all(y == 0 for v in series.values() for _, y in v) and title.startswith("seconds"):
            continue
        bands = [(r["iteration"], r[k0] - (r.get(band) or 0.0), r[k0] + (r.get(band) or 0.0)) for r in records
                 for k0 in keys if _num(r.get(k0))] if band else []
        out.append((title, line_chart(title, series, link, bands, yr)))
    for key, title in (("family_success", "success per task family"), ("site_success", "success per site")):
        names = sorted({f for r in records for f in (r.get(key) or {})})
        if key == "site_success" and len(names) < 2:
            continue  # one site: the success curve above already is its curve
        if names:
            series = {f: [(r["iteration"], r[key][f]) for r in records if f in (r.get(key) or {})] for f in names}
            out.append((title, line_chart(title, series, link, y_range=(0.0, 1.0))))
    return out


def eval_tables(run_path: Path) -> list[dict[str, Any]]:
    """Per evaluation in the run (the run itself, or the evaluations nested in it): success per site and per task,
    counted from the saved episodes (errored ones apart), each row linking to its episodes in the viewer."""
    from halo.report.view import load_run

    rv = load_run(run_path, "", embed_limit_mb=0)
    out = []
    parts = sorted(dict.fromkeys(e["part"] for e in rv.episodes if e["part"] != "train"),
                   key=lambda n: (n.split("_")[2:], "after" in n))  # each set's before, then its after
    for part in parts:
        eps = [e for e in rv.episodes if e["part"] == part]
        rows: dict[str, dict[str, dict[str, Any]]] = {"site": {}, "task": {}}
        for e in eps:
            for kind, key in (("site", e["site"]), ("task", e["task_id"])):
                r = rows[kind].setdefault(key, {"episodes": 0, "successes": 0, "errored": 0, "ret": 0.0,
                                                "steps": 0, "site": e["site"]})
                if e["errored"]:
                    r["errored"] += 1
                    continue
                r["episodes"] += 1
                r["successes"] += int(e["success"])
                r["ret"] += e["ret"] or 0.0
                r["steps"] += e["steps"] or 0
        for kind in rows:
            for r in rows[kind].values():
                n = r["episodes"]
                r.update(rate=r["successes"] / n if n else 0.0, mean_ret=r["ret"] / n if n else 0.0,
                         mean_steps=r["steps"] / n if n else 0.0)
        ok = [e for e in eps if not e["errored"]]
        out.append({"part": part, "episodes": len(ok), "errored": len(eps) - len(ok),
                    "rate": sum(e["success"] for e in ok) / len(ok) if ok else 0.0,
                    "sites": dict(sorted(rows["site"].items())), "tasks": dict(sorted(rows["task"].items()))})
    return out


def _eval_summary(run_path: Path, name: str) -> dict[str, Any] | None:
    recs = read_jsonl(run_path / name / "metrics.jsonl")
    return recs[-1] if recs else None


def build_report(run_path: str | Path, title: str | None = None, extra: dict[str, Any] | None = None) -> Path:
    """Write ``<run>/report.html`` and the episode viewer beside it (``view.html``, which its links open)."""
    from urllib.parse import quote

    from halo.report.view import write_view

    run_path = Path(run_path)
    cfg_file = run_path / "config.yaml"
    config = load_yaml(cfg_file.read_text()) if cfg_file.is_file() else {}  # a run's, bounded as every config
    metrics = [m for m in read_jsonl(run_path / "metrics.jsonl") if isinstance(m.get("iteration"), int)
               and m.get("kind") not in ("eval", "stopped", "errored")]
    plots = curves(metrics, lambda x: f"view.html#part=train&it={int(x)}")
    episodes = [e for e in load_episodes(run_path) if not e.summary.get("errored")]
    best = max(episodes, key=lambda e: (e.summary.get("dense_return", 0), e.summary.get("success", False)),
               default=None)
    worst = min(episodes, key=lambda e: e.summary.get("dense_return", 0), default=None)
    names = sorted((d.name for d in run_path.glob("eval_*") if d.is_dir()),
                   key=lambda n: (n.split("_")[2:], "after" in n))  # each set's before, then its after
    evals = {n: s for n in names if (s := _eval_summary(run_path, n))}
    view = write_view([run_path])
    sizes = {"saved episodes": sum(1 for _ in run_path.rglob("episodes/*.jsonl")),
             "episodes on disk": f"{dir_bytes(run_path) / 2**20:.1f} MiB"}
    env = Environment(loader=PackageLoader("halo.report", "templates"), autoescape=select_autoescape())
    html = env.get_template("report.html").render(
        title=title or f"HALO run {run_path.name}", run=run_path.name, config=config, metrics=metrics,
        last=metrics[-1] if metrics else {}, plots=plots, best=best, worst=worst if worst is not best else None,
        evals=evals, eval_tables=eval_tables(run_path), extra={**sizes, **(extra or {})},
        n_episodes=len(episodes), trees_html=render_trees(run_path), view=view.name, quote=quote,
        provenance=config.get("provenance") or {}, config_text=yaml.safe_dump(config, sort_keys=False)[:6000])
    out = run_path / "report.html"
    out.write_text(html)
    return out
