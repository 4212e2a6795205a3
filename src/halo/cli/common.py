"""What every command shares: one way to report an error, and the options that read config files or write a run,
spelled the same everywhere.

``--set key.path=value`` (repeatable) overrides any key of the files the command reads (``halo.config.overrides``);
``--log`` adds a tracker beside ``metrics.jsonl`` (``halo.runtime.tracking``); ``--run-name`` (old: ``--name``),
``--runs-dir``, ``--config`` (old: ``--rl-config``) and ``--modes-file`` name the same things in every command.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import typer
from rich.console import Console

from halo.config.overrides import Override, parse_sets
from halo.errors import HaloError
from halo.rl.config import RL_SECTIONS

F = TypeVar("F", bound=Callable[..., Any])
CONFIG_TARGETS = (*RL_SECTIONS, "mode", "modes", "demo")  # what a --set key may start with


def exits_on_error(fn: F) -> F:
    """Every command's error handling: a ``HaloError`` (bad input, a service that is not there, a run stopped as
    unhealthy) is printed in one line on stderr, and the command exits 1 for a run stopped as unhealthy (it
    happened; too many episodes broke), 2 otherwise."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except HaloError as e:
            from halo.rl.health import RunUnhealthy

            Console(stderr=True, soft_wrap=True).print(f"[red]error:[/] {e}", highlight=False)
            raise typer.Exit(1 if isinstance(e, RunUnhealthy) else 2) from None

    return wrapper  # type: ignore[return-value]

SET_HELP = ("override a config key, repeatable: grpo.lr=1e-5, lora.rank=8, mode.decoding.temperature=0.5, "
            "modes.defaults.serve.port=8001, demo.eval_episodes=2 (the value is YAML)")


def set_option() -> Any:
    return typer.Option(None, "--set", help=SET_HELP, show_default=False)


def log_option() -> Any:
    return typer.Option("none", "--log", help="tracker beside metrics.jsonl: none | tensorboard | wandb (offline "
                                              "unless WANDB_MODE says otherwise); needs the `track` extra")


def run_name_option(default_help: str = "run directory name under --runs-dir") -> Any:
    return typer.Option(None, "--run-name", "--name", help=default_help)


def config_option() -> Any:
    return typer.Option(None, "--config", "--rl-config", help="RL config (default: configs/rl_config.yaml here, "
                                                              "else the one shipped with HALO)")


def modes_file_option() -> Any:
    return typer.Option(None, "--modes-file", help="modes YAML (default: configs/modes.yaml here, else the one "
                                                   "shipped with HALO)")


def checked_sets(sets: list[str] | None, allowed: tuple[str, ...], command: str) -> tuple[Override, ...]:
    """The command's ``--set`` items, parsed at the door: each names a config there is and one it reads."""
    return parse_sets(sets or (), CONFIG_TARGETS, allowed, command)


def ray_option():
    return typer.Option(False, "--ray", help="run the rollouts on Ray workers: a local Ray cluster, or the one "
                                             "--ray-address names (docs/SCALE_OUT.md)")


def ray_address_option():
    return typer.Option(None, "--ray-address", metavar="ADDRESS",
                        help="join this Ray cluster (implies --ray): HOST:PORT (the head's GCS port, 6379), "
                             "ray://HOST:10001 or auto")


def ray_target(ray: bool, address: str | None) -> str | None:
    """None: rollouts here; "local": a local Ray cluster; else the cluster's address."""
    return address if address else ("local" if ray else None)


def ray_workers_option():
    return typer.Option(2, "--ray-workers", help="with --ray: rollout workers (Ray actors, one browser each)")
