"""The `halo` command. Each command group lives in its own module with a ``register(app)`` function."""

from __future__ import annotations

import importlib
import os

import typer

# transformers' and the hub's progress bars ("Loading weights: 100%|...") on every model load clutter each command
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

app = typer.Typer(name="halo", help="HALO-Agent: online RL for browser agents on REAL.", no_args_is_help=True,
                  add_completion=False, pretty_exceptions_show_locals=False)


def _version(value: bool) -> None:
    if value:
        from halo.version import git_commit, halo_version

        commit = git_commit()
        typer.echo(f"halo-agent {halo_version()}" + (f" (git {commit[:12]})" if commit else ""))
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="print HALO's version (and the git commit of a checkout) and exit")) -> None:
    """HALO-Agent: online RL for browser agents on REAL."""

# One line per command module; a module is listed only once its commands work.
COMMAND_MODULES = [
    "halo.cli.tasks_cmd",
    "halo.cli.smoke_cmd",
    "halo.cli.policy_cmd",
    "halo.cli.eval_cmd",
    "halo.cli.sites_cmd",
    "halo.cli.train_cmd",
    "halo.cli.demo_cmd",
    "halo.cli.report_cmd",
    "halo.cli.view_cmd",
]

for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)
