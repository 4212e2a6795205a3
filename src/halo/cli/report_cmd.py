"""`halo report RUN_DIR`: (re)build report.html for any run directory, finished, running or killed."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    @app.command("report")
    def report(run_dir: Path = typer.Argument(..., help="a run directory (runs/<name>)"),
               title: str = typer.Option(None, help="page title")) -> None:
        """Write RUN_DIR/report.html: curves, iterations, eval before/after, best and worst episode filmstrips."""
        from halo.report.html import build_report

        if not run_dir.is_dir():
            typer.echo(f"error: {run_dir} is not a directory; runs live under runs/<name>", err=True)
            raise typer.Exit(2)
        if not (run_dir / "metrics.jsonl").is_file() and not (run_dir / "episodes").is_dir():
            typer.echo(f"error: {run_dir} has no metrics.jsonl or episodes/: not a HALO run directory", err=True)
            raise typer.Exit(2)
        typer.echo(f"wrote {build_report(run_dir, title)}")
