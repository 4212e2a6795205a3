"""`halo model tiny DIR` (build the tiny Qwen3-VL) and `halo serve-policy --mode M` (run vLLM for a mode)."""

from __future__ import annotations

import typer
from rich.console import Console

from halo.cli.common import checked_sets, exits_on_error, modes_file_option, set_option
from halo.errors import HaloError


def register(app: typer.Typer) -> None:
    model_app = typer.Typer(help="Models for the in-process path.", no_args_is_help=True)
    app.add_typer(model_app, name="model")

    @model_app.command("tiny")
    @exits_on_error
    def tiny(out_dir: str = typer.Argument(..., help="directory to write the model into"),
             seed: int = typer.Option(0, help="same seed, same files")) -> None:
        """Build the tiny random-weight Qwen3-VL (~1M params, local BPE tokenizer), offline and deterministically."""
        import os
        import time

        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from halo.policy.tiny import build_tiny_model

        t = time.perf_counter()
        try:
            path = build_tiny_model(out_dir, seed=seed)
        except OSError as e:
            raise HaloError(f"cannot write the model to {out_dir}: {e}") from None
        size = sum(f.stat().st_size for f in path.iterdir())
        Console().print(f"tiny Qwen3-VL written to {path} ({size / 1e6:.1f} MB, {time.perf_counter() - t:.1f} s)")

    @app.command("serve-policy")
    @exits_on_error
    def serve_policy(mode: str = typer.Option(..., help="a vLLM-served mode of configs/modes.yaml"),
                     dry_run: bool = typer.Option(False, "--dry-run", help="print the command, do not run it"),
                     port: int = typer.Option(None, help="override the mode's port"),
                     modes_file: str = modes_file_option(), sets: list[str] = set_option()) -> None:
        """Run vLLM for a mode from its own environment (`make vllm`): LoRA and runtime LoRA updating on, context,
        dtype, pixel budget and GPU share from the mode."""
        from halo.config.overrides import flags
        from halo.policy import serve
        from halo.policy.modes import get_mode

        overrides = checked_sets(sets, ("mode", "modes"), "halo serve-policy")
        m = get_mode(mode, modes_file, (*overrides, *flags("mode", {"serve.port": port})))
        cmd = serve.vllm_command(m)
        if dry_run:
            typer.echo(cmd.shell())
            return
        serve.check_model(m)
        raise typer.Exit(serve.run(cmd))
