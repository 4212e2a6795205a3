"""`halo demo`: the main job (REAL-local + tiny model, CPU, a few minutes), ending in runs/<name>/report.html."""

from __future__ import annotations

import asyncio

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from halo.cli.common import checked_sets, exits_on_error, log_option, run_name_option, set_option
from halo.rl.config import RL_SECTIONS


def register(app: typer.Typer) -> None:
    @app.command("demo")
    @exits_on_error
    def demo(
        config: str = typer.Option(None, help="demo settings (default configs/demo.yaml; with --ladder "
                                              "configs/ladder.yaml)"),
        ladder: bool = typer.Option(False, "--ladder", help="climb a ladder of GoMail's families up to sending an "
                                                            "email (5+ steps, typed text) instead of the one-step demo"),
        tasks: str = typer.Option(None, help="what GRPO trains on: task-family specs or REAL-local task ids, comma "
                                  "list (evaluated on the same, unless configs/demo.yaml names eval_tasks)"),
        iterations: int = typer.Option(None, help="GRPO iterations"),
        group_size: int = typer.Option(None, help="episodes per task per group"),
        eval_episodes: int = typer.Option(None, help="evaluation episodes per task, before and after"),
        model_dir: str = typer.Option(None, help="where the tiny model is (built there if missing)"),
        run_name: str = run_name_option(),
        runs_dir: str = typer.Option(None, help="where run directories go"),
        seed: int = typer.Option(None, help="seed (task order, sampling)"),
        sets: list[str] = set_option(),
        log: str = log_option(),
    ) -> None:
        """Train the tiny Qwen3-VL with online GRPO on REAL-local, evaluate before and after, write a report."""
        from halo.config.overrides import flags
        from halo.jobs.demo import load_demo_config, run_demo

        sets = checked_sets(sets, ("demo", *RL_SECTIONS, "mode", "modes"), "halo demo")
        demo_flags = flags("demo", {"model_dir": model_dir, "run_name": run_name, "runs_dir": runs_dir,
                                    "eval_episodes": eval_episodes, "grpo.iterations": iterations,
                                    "grpo.group_size": group_size, "grpo.seed": seed, "decoding.seed": seed})
        if tasks:
            demo_flags += flags("demo", {"tasks": [t for t in tasks.split(",") if t.strip()], "eval_tasks": {}})
        cfg = load_demo_config(config, (*sets, *demo_flags), ladder=ladder)
        console = Console()
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console) as progress:
            out = asyncio.run(run_demo(cfg, log=progress.console.print, progress=progress, overrides=sets,
                                       log_to=log))
        console.print(f"[bold]demo done in {out['wall_time']:.0f} s[/]")
        for name, b in out["before"].items():
            a = out["after"][name]
            console.print(f"  {name}: success {b['success_rate']:.0%} -> {a['success_rate']:.0%}, mean dense return "
                          f"{b['mean_dense_return']:+.3f} -> {a['mean_dense_return']:+.3f}")
        console.print(f"report: {out['report']}")
