"""`halo demo`, the main job on the embedded default: REAL-local + the tiny Qwen3-VL, CPU, a few minutes.

Starts REAL-local, builds the tiny model if it is missing, evaluates it on held-out (test-split) and training
instances of a task family, trains it with online GRPO on the family's training instances (curriculum sampler,
constrained page-valid actions), evaluates it again on the same instances, and writes ``runs/<name>/report.html``.
Settings live in configs/demo.yaml; every one can be overridden from the command line.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import field
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from halo.config.files import find_config_file, read_yaml
from halo.config.overrides import Override, apply, flags, select
from halo.config.settings import AtLeast1, Why, build, settings

DEMO_FILE = "configs/demo.yaml"
LADDER_FILE = "configs/ladder.yaml"  # halo demo --ladder: a ladder of families up to a 5+-step one


@settings
class DemoConfig:
    """configs/demo.yaml's schema."""

    tasks: list[str] = field(default_factory=lambda: ["omnizon.department@train"])  # what GRPO trains on
    # what is evaluated before and after, by name: held-out instances, and some of the training ones
    eval_tasks: dict[str, list[str]] = field(default_factory=dict)
    mode: str = "tiny"
    model_dir: str = "models/tiny-qwen3vl"
    run_name: str | None = None
    runs_dir: str = "runs"
    eval_episodes: AtLeast1 = 2  # per task, before and after
    eval_max_steps: AtLeast1 = 4
    parallel: Annotated[AtLeast1, Field(le=64), Why("browser contexts at once, each ~60 MB and a share of the "
                                                   "CPU")] = 4
    grpo: dict[str, Any] = field(default_factory=dict)  # rl_config's grpo keys (GRPOSettings, OptimSettings)
    lora: dict[str, Any] = field(default_factory=dict)  # rl_config's lora keys
    decoding: dict[str, Any] = field(default_factory=dict)  # the mode's: temperature, max_tokens, constrained
    prompt: dict[str, Any] = field(default_factory=dict)  # the mode's: max_pixels, min_pixels

    def overrides(self, model: str) -> tuple[Override, ...]:
        """What the demo sets in rl_config and the mode, as the overrides a job applies over the files."""
        return (*flags("grpo", self.grpo), *flags("lora", self.lora), *flags("mode", {"model": model}),
                *flags("mode", {f"decoding.{k}": v for k, v in self.decoding.items()}),
                *flags("mode", {f"prompt.{k}": v for k, v in self.prompt.items()}))


def load_demo_config(path: str | os.PathLike | None = None, overrides: Iterable[Override] = (),
                     ladder: bool = False) -> DemoConfig:
    """configs/demo.yaml (``ladder``: configs/ladder.yaml; yours over the shipped one; none: the defaults) with
    ``demo.*`` overrides (``--set``, then the command's flags) applied, checked by its schema."""
    f = Path(path) if path else find_config_file(LADDER_FILE if ladder else DEMO_FILE)[0]
    data = read_yaml(f) if f is not None else {}
    where = str(f) if f is not None else "demo settings"
    return build(DemoConfig, apply(data, select(overrides, ["demo"], strip=True), where), where)


async def run_demo(cfg: DemoConfig, *, log: Callable[[str], None] = print, progress: Any = None,
                   overrides: Iterable[Override] = (), log_to: str = "none") -> dict[str, Any]:
    """Run the demo; returns a summary (paths, eval before/after, wall time). ``overrides`` (``--set``) reach the
    rl_config sections and the mode, under demo.yaml's own; ``log_to`` (``--log``) adds a tracker to the training
    run."""
    from halo.jobs.eval import EvalConfig, run_eval
    from halo.jobs.grpo import GRPOJob, setup_grpo, train_grpo
    from halo.report.html import build_report
    from halo.runtime.runs import RunDir
    from halo.tasks.resolve import resolve_tasks
    from real_local.server import SitesServer

    t0 = time.perf_counter()
    from halo.policy.tiny import ensure_tiny_model

    model = ensure_tiny_model(cfg.model_dir, log)
    job = GRPOJob(tasks=cfg.tasks, mode=cfg.mode, sites="local", run_name=cfg.run_name or
                  f"demo-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}", runs_dir=cfg.runs_dir,
                  overrides=(*overrides, *cfg.overrides(str(model))), log=log_to)
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
            eval_sets = {name: resolve_tasks(refs, "local", urls) for name, refs in (cfg.eval_tasks or
                                                                                {"train": cfg.tasks}).items()}

            async def evaluate(phase: str) -> dict[str, Any]:
                out = {}
                for name, ts in eval_sets.items():
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
