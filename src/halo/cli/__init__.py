"""The `halo` command. Each command group lives in its own module with a ``register(app)`` function."""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(name="halo", help="HALO-Agent: online RL for browser agents on REAL.", no_args_is_help=True,
                  add_completion=False, pretty_exceptions_show_locals=False)

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
