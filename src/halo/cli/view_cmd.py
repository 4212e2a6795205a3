"""`halo view RUN_DIR [RUN_DIR2]`: browse every saved episode of a run (or two side by side)."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    @app.command("view")
    def view(run_dirs: list[Path] = typer.Argument(..., help="one run directory, or two to compare"),
             out: Path = typer.Option(None, help="where to write the page (default RUN_DIR/view.html)"),
             serve: bool = typer.Option(False, "--serve", help="serve the page on loopback instead of writing it"),
             port: int = typer.Option(8765, help="--serve: the port on 127.0.0.1"),
             title: str = typer.Option(None, help="page title")) -> None:
        """Episodes of RUN_DIR: filters, full-size screenshots with the action drawn, replies, rewards, advantages,
        logprobs, GRPO groups side by side; a second RUN_DIR compares the same tasks."""
        from halo.report.view import serve_view, write_view

        if len(run_dirs) > 2:
            typer.echo("error: give one run directory, or two to compare", err=True)
            raise typer.Exit(2)
        for d in run_dirs:
            if not d.is_dir() or not (any(d.glob("episodes")) or any(d.glob("*/episodes"))):
                typer.echo(f"error: {d} has no episodes/: not a HALO run directory (runs/<name>)", err=True)
                raise typer.Exit(2)
        if serve:
            typer.echo(f"serving {', '.join(map(str, run_dirs))} on http://127.0.0.1:{port}/ (Ctrl-C stops)")
            serve_view(run_dirs, port=port, title=title)
            return
        typer.echo(f"wrote {write_view(run_dirs, out, title)}")
