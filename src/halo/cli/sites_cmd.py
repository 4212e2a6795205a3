"""`halo sites`: serve REAL-local (GoMail, GoCalendar, Omnizon, Zilloft) on loopback, one port per site."""

from __future__ import annotations

import asyncio
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table


def _loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def register(app: typer.Typer) -> None:
    @app.command("sites")
    def sites(
        host: str = typer.Option("127.0.0.1", help="interface to listen on (loopback by default: keep it so)"),
        port: int = typer.Option(8700, help="base port: each site gets port + its offset (gomail +1, topwork +11)"),
        site: Optional[list[str]] = typer.Option(None, "--site", help="serve only this site (repeatable)"),
        log_level: str = typer.Option("warning", help="uvicorn log level"),
    ) -> None:
        """Serve REAL-local until Ctrl-C; tasks reach it with `--sites local`."""
        from halo.sites.ports import PORT_OFFSETS, SITE_NAMES, site_port
        from halo.sites.server import busy_ports, load_spec, serve

        console = Console()
        chosen = list(dict.fromkeys(site or SITE_NAMES))
        unknown = [s for s in chosen if s not in SITE_NAMES]
        if unknown:
            console.print(f"[red]no REAL-local site {', '.join(map(repr, unknown))}[/red]; "
                          f"choose from {', '.join(SITE_NAMES)}")
            raise typer.Exit(2)
        if not 1 <= port <= 65535 - max(PORT_OFFSETS.values()):
            console.print(f"[red]--port {port} is out of range[/red]; pick a base port like 8700")
            raise typer.Exit(2)
        broken = []
        for name in chosen:
            try:
                load_spec(name)
            except Exception as e:  # noqa: BLE001 - a site that does not import must not stop the others
                broken.append(name)
                console.print(f"[yellow]skipping {name}: it does not import ({type(e).__name__}: {e})[/yellow]")
        chosen = [s for s in chosen if s not in broken]
        if not chosen:
            raise typer.Exit(1)
        busy = busy_ports(chosen, host, port)
        if busy:  # one line, before anything is printed as served
            console.print(f"[red]cannot serve REAL-local on {host}:[/red] "
                          + "; ".join(f"port {p} ({name}): {why}" for name, p, why in busy)
                          + f"; pick another base port with --port (e.g. --port {port + 100})", highlight=False)
            raise typer.Exit(1)
        if not _loopback(host):
            console.print(f"[yellow]warning: serving on {host}, not loopback: anyone who can reach this machine can "
                          f"read and change REAL-local's sessions; use --host 127.0.0.1 unless you mean it[/yellow]",
                          highlight=False)
        table = Table("site", "url", title="REAL-local")
        for name in chosen:
            table.add_row(name, f"http://{host}:{site_port(name, port)}")
        console.print(table)
        console.print("Start a task with /config?task_id=v2.<site>-<n>; Ctrl-C stops.")
        try:
            asyncio.run(serve(chosen, host=host, port=port, log_level=log_level))
        except KeyboardInterrupt:
            pass
        except (OSError, RuntimeError, SystemExit) as e:  # a port taken since busy_ports looked
            if isinstance(e, SystemExit) and not e.code:
                raise
            console.print(f"[red]cannot serve on {host} from base port {port} ({e})[/red]: a port is in use; "
                          f"pick another base port with --port")
            raise typer.Exit(1) from None
