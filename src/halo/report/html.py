"""``report.html`` for a run directory: curves people would rather look at than read, and episode filmstrips.

Reads only what the run directory holds (``config.yaml``, ``metrics.jsonl``, ``episodes/*.jsonl`` and their JPEGs),
so a report can be rebuilt for any run, finished, running or killed (``halo report RUN_DIR``). Plots are PNGs
inlined as data URLs; screenshots are linked relative to the run directory, so the page stays small.
"""

from __future__ import annotations

import base64
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from jinja2 import Environment, PackageLoader, select_autoescape

from halo.report.trees import render_trees

CURVES = (("mean_reward", "mean dense return", "reward_std"), ("success_rate", "success rate", None),
          ("frac_reward_zero_std", "frac_reward_zero_std", None), ("action_validity", "action validity", None),
          ("dpo_margin", "DPO implicit reward margin (MCTS)", None), ("dpo_margin_q", "pairs' mean Q margin (MCTS)", None))


@dataclass
class EpisodeView:
    key: str
    summary: dict[str, Any]
    steps: list[dict[str, Any]] = field(default_factory=list)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    out = []
    if not path.is_file():
        return out
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue  # a line cut by a kill
    return out


def load_episodes(run_path: Path, subdir: str = "episodes") -> list[EpisodeView]:
    eps = []
    for f in sorted((run_path / subdir).glob("*.jsonl")):
        lines = read_jsonl(f)
        summary = next((ln for ln in lines if ln.get("type") == "episode"), None)
        if summary is None:
            continue
        eps.append(EpisodeView(key=f.stem, summary=summary, steps=[ln for ln in lines if ln.get("type") == "step"]))
    return eps


def _plot(records: list[dict[str, Any]], key: str, title: str, band: str | None) -> str | None:
    xs = [r["iteration"] for r in records if isinstance(r.get(key), (int, float))]
    ys = [r[key] for r in records if isinstance(r.get(key), (int, float))]
    if not xs:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4.2, 2.6), dpi=110)
    ax.plot(xs, ys, marker="o", ms=3, lw=1.5, color="#1a73e8")
    if band:
        sd = [r.get(band, 0.0) or 0.0 for r in records if isinstance(r.get(key), (int, float))]
        ax.fill_between(xs, [y - s for y, s in zip(ys, sd)], [y + s for y, s in zip(ys, sd)], alpha=0.15,
                        color="#1a73e8")
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("iteration", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _family_plot(records: list[dict[str, Any]]) -> str | None:
    """Training success per task family over iterations (the curriculum's view), one line per family."""
    fams = sorted({f for r in records for f in (r.get("family_success") or {})})
    if not fams:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4.2, 2.6), dpi=110)
    for f in fams:
        pts = [(r["iteration"], r["family_success"][f]) for r in records if f in (r.get("family_success") or {})]
        ax.plot([x for x, _ in pts], [y for _, y in pts], marker="o", ms=3, lw=1.2, label=f)
    ax.set_title("success per task family", fontsize=10)
    ax.set_xlabel("iteration", fontsize=8)
    ax.set_ylim(-0.03, 1.03)
    ax.tick_params(labelsize=7)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _eval_summary(run_path: Path, name: str) -> dict[str, Any] | None:
    recs = read_jsonl(run_path / name / "metrics.jsonl")
    return recs[-1] if recs else None


def build_report(run_path: str | Path, title: str | None = None, extra: dict[str, Any] | None = None) -> Path:
    """Write ``<run>/report.html``; returns its path."""
    run_path = Path(run_path)
    cfg_file = run_path / "config.yaml"
    config = yaml.safe_load(cfg_file.read_text()) if cfg_file.is_file() else {}
    metrics = [m for m in read_jsonl(run_path / "metrics.jsonl") if isinstance(m.get("iteration"), int)
               and m.get("kind") not in ("eval", "stopped")]
    plots = [(t, p) for k, t, b in CURVES if (p := _plot(metrics, k, t, b))]
    episodes = [e for e in load_episodes(run_path) if not e.summary.get("errored")]
    best = max(episodes, key=lambda e: (e.summary.get("dense_return", 0), e.summary.get("success", False)),
               default=None)
    worst = min(episodes, key=lambda e: e.summary.get("dense_return", 0), default=None)
    names = sorted((d.name for d in run_path.glob("eval_*") if d.is_dir()),
                   key=lambda n: (n.split("_")[2:], "after" in n))  # each set's before, then its after
    evals = {n: s for n in names if (s := _eval_summary(run_path, n))}
    if (fam := _family_plot(metrics)) is not None:
        plots.append(("success per task family", fam))
    env = Environment(loader=PackageLoader("halo.report", "templates"), autoescape=select_autoescape())
    html = env.get_template("report.html").render(
        title=title or f"HALO run {run_path.name}", run=run_path.name, config=config, metrics=metrics,
        last=metrics[-1] if metrics else {}, plots=plots, best=best, worst=worst if worst is not best else None,
        evals=evals, extra=extra or {}, n_episodes=len(episodes), trees_html=render_trees(run_path),
        config_text=yaml.safe_dump(config, sort_keys=False)[:6000])
    out = run_path / "report.html"
    out.write_text(html)
    return out
