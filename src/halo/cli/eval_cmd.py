"""`halo eval --mode M --tasks ... --episodes K`: evaluate a policy mode on REAL(-local) tasks."""

from __future__ import annotations

import asyncio
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from halo.cli.common import (
    checked_sets,
    exits_on_error,
    log_option,
    modes_file_option,
    ray_address_option,
    ray_option,
    ray_target,
    ray_workers_option,
    run_name_option,
    set_option,
)
from halo.rl.health import RunUnhealthy


def _split(values: list[str]) -> list[str]:
    return [v.strip() for item in values for v in item.split(",") if v.strip()]


def print_results(console: Console, result, title: str) -> None:
    for label, rows in (("task", result.tasks), ("site", result.by_site())):
        t = Table(label, "success", "rate", "errored", "mean steps", "valid actions", "as written",
                  title=f"{title} by {label}")
        for key, r in sorted(rows.items()):
            n = r.episodes
            t.add_row(key, f"{r.successes}/{n}", f"{r.success_rate:.0%}", str(r.errored),
                      f"{r.steps / n:.1f}" if n else "-", f"{r.valid_actions / n:.0%}" if n else "-",
                      f"{r.clean_actions / n:.0%}" if n else "-")
        console.print(t)
    m = result.metrics()
    if result.errors:
        reasons = ", ".join(f"{r} {n}" for r, n in m["errors"].items())
        console.print(f"[yellow]{len(result.errors)} episode(s) broke[/yellow] ({reasons}; left out of the rates); "
                      f"first: {result.errors[0]}", highlight=False)
    console.print("valid actions: replies that became an action, repaired or cut off at the token limit included; "
                  "as written: neither", style="dim", highlight=False)
    console.print(f"overall success {m['success_rate']:.1%} over {m['episodes']} episodes "
                  f"({m['errored']} errored) in {m['wall_time']:.0f} s")


def register(app: typer.Typer) -> None:
    @app.command("eval")
    @exits_on_error
    def eval_(
        mode: str = typer.Option(..., help="policy mode from configs/modes.yaml (tiny, qwen3vl_base, ...)"),
        tasks: list[str] = typer.Option(..., help="task ids, site names, 'local', or page URLs; comma-separated "
                                                  "or repeated"),
        episodes: int = typer.Option(1, help="episodes per task"),
        parallel: int = typer.Option(2, help="browser envs in parallel"),
        sites: str = typer.Option("local", help="'local' (REAL-local, served here) or 'remote' (REAL's sites)"),
        max_steps: int = typer.Option(25, help="steps per episode"),
        greedy: bool = typer.Option(False, "--greedy", help="greedy decoding (temperature 0)"),
        temperature: float = typer.Option(None, help="sampling temperature (default: the mode's)"),
        recovery: bool = typer.Option(None, "--recovery/--no-recovery", help="evaluation recovery (default: mode's)"),
        model: str = typer.Option(None, help="override the mode's model"),
        adapter: str = typer.Option(None, help="override the mode's LoRA adapter"),
        base_url: str = typer.Option(None, help="override the mode's server URL"),
        goal: str = typer.Option(None, help="goal for page-URL tasks"),
        name: str = run_name_option("run directory name under --runs-dir (default eval-<mode>-<time>)"),
        runs_dir: Path = typer.Option(Path("runs"), help="where run directories go"),
        modes_file: str = modes_file_option(),
        sets: list[str] = set_option(),
        log: str = log_option(),
        episode_timeout: float = typer.Option(900.0, "--episode-timeout", help="wall-clock seconds per episode"),
        max_error_share: float = typer.Option(0.5, help="more errored episodes than this share fails the eval "
                                                        "(exit 1; 1 never does)"),
        ray: bool = ray_option(),
        ray_address: str = ray_address_option(),
        ray_workers: int = ray_workers_option(),
    ) -> None:
        """Run K episodes per task with parallel browsers; writes runs/<name>/ and prints success by task and site."""
        from halo.jobs.eval import EvalConfig, EvalJob
        from halo.policy.modes import mode_flags
        from halo.report.html import build_report

        console = Console()
        job = EvalJob(mode=mode, tasks=_split(tasks), sites=sites, goal=goal, recovery=recovery, run_name=name,
                      runs_dir=runs_dir, modes_file=modes_file, log=log, ray=ray_target(ray, ray_address),
                      ray_workers=ray_workers,
                      overrides=(*checked_sets(sets, ("mode", "modes"), "halo eval"),
                                 *mode_flags(model=model, adapter=adapter, base_url=base_url)),
                      cfg=EvalConfig(episodes=episodes, parallel=parallel, max_steps=max_steps,
                                     temperature=0.0 if greedy else temperature, episode_timeout_s=episode_timeout,
                                     max_error_share=max_error_share))
        try:
            result, run = _run_with_progress(job, console)
        except RunUnhealthy as e:  # the run happened, but too many episodes broke: results, then why
            if e.result is not None:
                print_results(console, e.result, f"{mode}")
            raise
        print_results(console, result, f"{mode}")
        size = run.size_report()
        console.print(f"run directory: {run.path} ({size['episodes']} episodes, {size['mib']} MiB); report: "
                      f"{build_report(run.path)}; browse the episodes with `halo view {run.path}`")


def _run_with_progress(job, console: Console):
    from halo.jobs.eval import run_eval_job

    counts = {"ok": 0, "steps": 0}
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("success {task.fields[ok]} · steps {task.fields[steps]}"), TimeElapsedColumn(),
                  console=console) as progress:
        bar = progress.add_task("episodes", total=None, ok=0, steps=0)

        def on_step(_step) -> None:
            counts["steps"] += 1
            progress.update(bar, steps=counts["steps"])

        def on_episode(_task, ep) -> None:
            counts["ok"] += int(ep.success)
            progress.update(bar, advance=1, ok=counts["ok"])

        return asyncio.run(run_eval_job(job, log=progress.console.print,
                                        on_start=lambda total: progress.update(bar, total=total),
                                        on_episode=on_episode, on_step=on_step))
