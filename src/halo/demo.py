"""`halo demo`, the main job on the embedded default: REAL-local + the tiny Qwen3-VL, CPU, a few minutes.

Starts REAL-local, builds the tiny model if it is missing, evaluates it on held-out (test-split) and training
instances of a task family, trains it with online GRPO on the family's training instances (curriculum sampler,
constrained page-valid actions), evaluates it again on the same instances, and writes ``runs/<name>/report.html``.
Settings live in configs/demo.yaml; every one can be overridden from the command line.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from halo.errors import ConfigError

DEMO_FILE = "configs/demo.yaml"


@dataclass
class DemoConfig:
    tasks: list[str] = field(default_factory=lambda: ["omnizon.department@train"])  # what GRPO trains on
    # what is evaluated before and after, by name: held-out instances, and some of the training ones
    eval_tasks: dict[str, list[str]] = field(default_factory=dict)
    mode: str = "tiny"
    model_dir: str = "models/tiny-qwen3vl"
    run_name: str | None = None
    runs_dir: str = "runs"
    eval_episodes: int = 2  # per task, before and after
    eval_max_steps: int = 4
    parallel: int = 4
    grpo: dict[str, Any] = field(default_factory=dict)  # GRPOSettings / OptimSettings fields
    lora: dict[str, Any] = field(default_factory=dict)
    decoding: dict[str, Any] = field(default_factory=dict)  # temperature, max_tokens, constrained
    prompt: dict[str, Any] = field(default_factory=dict)  # max_pixels, min_pixels

    @classmethod
    def load(cls, path: str | Path | None = None, sets: Sequence[str] = ()) -> "DemoConfig":
        """configs/demo.yaml (yours over the shipped one) with ``--set demo.<key>=value`` applied, checked by its
        schema (unknown keys and wrong types name the file and the key)."""
        from pydantic import ValidationError

        from halo.config_files import apply_sets, describe_errors, read_yaml, schema_from, sets_for

        f = Path(path) if path else _find_demo_file()
        data = read_yaml(f) if f is not None else {}
        where = str(f) if f is not None else "demo settings"
        data = apply_sets(data, sets_for(sets, ["demo"], strip=True), where)
        try:
            checked = schema_from("DemoFile", cls)(**data).model_dump(exclude_unset=True)
        except ValidationError as e:
            raise ConfigError(describe_errors(e, where)) from None
        return cls(**checked)


def _find_demo_file() -> Path | None:
    from halo.config_files import find_config_file

    return find_config_file(DEMO_FILE)[0]


def ensure_tiny_model(model_dir: str | Path, log: Callable[[str], None] = print) -> Path:
    """The tiny model at ``model_dir``, built (deterministically, offline) if it is not there yet."""
    from halo.policy.tiny import ensure_tiny_model as ensure

    return ensure(model_dir, log)


async def run_demo(cfg: DemoConfig, *, log: Callable[[str], None] = print, progress: Any = None,
                   sets: Sequence[str] = (), log_to: str = "none") -> dict[str, Any]:
    """Run the demo; returns a summary (paths, eval before/after, wall time). ``sets`` (``--set``) reach the
    rl_config sections and the mode; ``log_to`` (``--log``) adds a tracker to the training run."""
    from halo.eval import EvalConfig, resolve_tasks, run_eval
    from halo.report.html import build_report
    from halo.runs import RunDir
    from halo.sites.server import SitesServer
    from halo.train import GRPOJob, setup_grpo, train_grpo

    t0 = time.perf_counter()
    model = ensure_tiny_model(cfg.model_dir, log)
    job = GRPOJob(tasks=cfg.tasks, mode=cfg.mode, sites="local", run_name=cfg.run_name or
                  f"demo-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}", runs_dir=cfg.runs_dir,
                  mode_overrides={"model": str(model), **cfg.decoding, **cfg.prompt},
                  grpo_overrides=dict(cfg.grpo), lora_overrides=dict(cfg.lora), sets=tuple(sets), log=log_to)
    setup = await setup_grpo(job)
    s = setup.settings
    ev = EvalConfig(episodes=cfg.eval_episodes, parallel=cfg.parallel, max_steps=cfg.eval_max_steps,
                    temperature=s.temperature)
    bars = {}

    def bar(name: str, total: int):
        if progress is not None:
            bars[name] = progress.add_task(name, total=total)

    def advance(name: str, desc: str | None = None):
        if progress is not None and name in bars:
            progress.update(bars[name], advance=1, **({"description": desc} if desc else {}))

    try:
        with SitesServer() as urls:
            tasks = resolve_tasks(cfg.tasks, "local", urls)
            sets = {name: resolve_tasks(refs, "local", urls) for name, refs in (cfg.eval_tasks or
                                                                                {"train": cfg.tasks}).items()}

            async def evaluate(phase: str) -> dict[str, Any]:
                out = {}
                for name, ts in sets.items():
                    label = f"eval {phase} ({name})"
                    bar(label, len(ts) * cfg.eval_episodes)
                    res = await run_eval(setup.sampler, ts, ev, RunDir(setup.run.path, f"eval_{phase}_{name}"),
                                         on_episode=lambda t, e, label=label: advance(label))
                    out[name] = res.metrics()
                    log(f"{phase} training, {name}: success {out[name]['success_rate']:.0%} on "
                        f"{out[name]['episodes']} episodes, mean dense return {out[name]['mean_dense_return']:+.3f}")
                return out

            before = await evaluate("before")
            bar("GRPO iterations", s.iterations)

            def on_iteration(res) -> None:
                m = res.metrics
                advance("GRPO iterations", f"GRPO iterations (return {m['mean_reward']:+.2f})")
                log(f"iter {m['iteration']}: mean_reward={m['mean_reward']:+.3f} std={m['reward_std']:.3f} "
                    f"zero_std={m['frac_reward_zero_std']:.2f} success={m['success_rate']:.2f} "
                    f"validity={m['action_validity']:.2f} rollout={m['time_rollout']:.0f}s "
                    f"update={m['time_update']:.0f}s")

            history = await train_grpo(setup, tasks, on_iteration)
            after = await evaluate("after")
    finally:
        await setup.sampler.aclose()
    wall = time.perf_counter() - t0
    report = build_report(setup.run.path, title="HALO demo: online GRPO on REAL-local with the tiny Qwen3-VL",
                          extra={"wall time": f"{wall:.0f} s", "tasks": len(cfg.tasks)})
    return {"run": str(setup.run.path), "report": str(report), "wall_time": wall, "iterations": len(history),
            "before": before, "after": after, "history": history}
