#!/usr/bin/env python
"""Thin wrapper of `halo train tinker`, with the original project's flags.

    python scripts/train_tinker.py --tasks v2.omnizon-3 --num-envs 8 --loss-fn importance_sampling --lora-rank 32

Every flag of `halo train tinker --help` works here too.
"""

from __future__ import annotations

import sys

import typer

from halo.cli.train_tinker_cmd import register


def main(argv: list[str] | None = None) -> None:
    app = typer.Typer(add_completion=False, pretty_exceptions_show_locals=False)
    register(app)

    @app.callback()
    def _group() -> None:
        """(keeps `tinker` a subcommand)"""

    app(["tinker", *(sys.argv[1:] if argv is None else argv)], prog_name="train_tinker.py")


if __name__ == "__main__":
    main()
