"""`halo sites`: serve REAL-local (the `real-local` package: its eleven sites) on loopback, one port per site. The
same command as `real-local serve` (real_local.cli.serve_sites), with halo's option names."""

from __future__ import annotations

from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("sites")
    def sites(
        host: str = typer.Option("127.0.0.1", help="interface to listen on (loopback by default: keep it so)"),
        port: int = typer.Option(8700, help="base port: each site gets port + its offset (gomail +1, topwork +11)"),
        site: Optional[list[str]] = typer.Option(None, "--site", help="serve only this site (repeatable)"),
        log_level: str = typer.Option("warning", help="uvicorn log level"),
    ) -> None:
        """Serve REAL-local until Ctrl-C; tasks reach it with `--sites local`."""
        from real_local.cli import serve_sites

        code = serve_sites(site, host=host, port=port, log_level=log_level)
        if code:
            raise typer.Exit(code)
