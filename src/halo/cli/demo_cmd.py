"""`halo demo`: the main job (REAL-local + tiny model, CPU, a few minutes), ending in runs/<name>/report.html."""

from __future__ import annotations

import asyncio

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from halo.cli.common import checked_sets, log_option, run_name_option, set_option


def register(app: typer.Typer) -> None:
    @app.command("demo")
    def demo(
        config: str = typer.Option(None, help="demo settings (default configs/demo.yaml)"),
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
        from halo.config_files import RL_SECTIONS
        from halo.demo import DemoConfig, run_demo
        from halo.errors import HaloError

        try:
            sets = checked_sets(sets, ("demo", *RL_SECTIONS, "mode", "modes"), "halo demo")
            cfg = DemoConfig.load(config, sets)
        except HaloError as e:
            Console().print(f"[red]error:[/] {e}", highlight=False)
            raise typer.Exit(2) from None
        if tasks:
            cfg.tasks = [t for t in tasks.split(",") if t.strip()]
            cfg.eval_tasks = {}
        for k, v in (("model_dir", model_dir), ("run_name", run_name), ("runs_dir", runs_dir),
                     ("eval_episodes", eval_episodes)):
            if v is not None:
                setattr(cfg, k, v)
        for k, v in (("iterations", iterations), ("group_size", group_size), ("seed", seed)):
            if v is not None:
                cfg.grpo[k] = v
        if seed is not None:
            cfg.decoding["seed"] = seed
        console = Console()
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console) as progress:
            try:
                out = asyncio.run(run_demo(cfg, log=progress.console.print, progress=progress, sets=sets,
                                           log_to=log))
            except HaloError as e:
                progress.stop()
                console.print(f"[red]error:[/] {e}")
                raise typer.Exit(2) from None
        console.print(f"[bold]demo done in {out['wall_time']:.0f} s[/]")
        for name, b in out["before"].items():
            a = out["after"][name]
            console.print(f"  {name}: success {b['success_rate']:.0%} -> {a['success_rate']:.0%}, mean dense return "
                          f"{b['mean_dense_return']:+.3f} -> {a['mean_dense_return']:+.3f}")
        console.print(f"report: {out['report']}")
