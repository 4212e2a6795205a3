"""`halo train tinker`: online RL of a Qwen vision model on Tinker (hosted, or a self-hosted Tinker API such as
SkyRL's): remote sampling and LoRA updates, browsers here."""

from __future__ import annotations

import typer
from rich.console import Console

from halo.cli.common import checked_sets, config_option, exits_on_error, log_option, set_option
from halo.rl.config import RL_SECTIONS

LOSS_HELP = "importance_sampling | ppo | cispo | dro (also gspo, stable_reinforce)"


def register(train_app: typer.Typer) -> None:
    @train_app.command("tinker")
    @exits_on_error
    def tinker(
        tasks: list[str] = typer.Option(..., help="task ids (v2.omnizon-3), site names or 'local'; comma-separated "
                                                  "or repeated"),
        num_envs: int = typer.Option(None, help="envs per task per batch (GRPO group size; rl_config: 8)"),
        groups_per_batch: int = typer.Option(None, help="tasks per training batch (default 1)"),
        loss_fn: str = typer.Option(None, help=LOSS_HELP),
        lora_rank: int = typer.Option(None, help="LoRA rank (rl_config: 32)"),
        learning_rate: float = typer.Option(None, "--learning-rate", "--lr", help="Adam learning rate (default 2e-5: "
                                                                               "mode qwen3vl_tinker's train.lr)"),
        max_steps: int = typer.Option(None, help="training iterations (batches)"),
        log_path: str = typer.Option(None, help="checkpoints, metrics and logs (default runs/tinker)"),
        sites: str = typer.Option("local", help="'local' (REAL-local, served here) or 'remote' (REAL's sites)"),
        model: str = typer.Option(None, help="Tinker base model (default Qwen/Qwen3.6-35B-A3B; any model the "
                                             "server offers, e.g. Qwen/Qwen3-VL-8B-Instruct on a self-hosted one)"),
        renderer: str = typer.Option(None, help="tinker-cookbook renderer (default: the model's recommended one, "
                                                "qwen3_5 for Qwen3.5/3.6, qwen3_vl_instruct for Qwen3-VL)"),
        max_turns: int = typer.Option(None, help="browser steps per episode (rl_config: 70)"),
        max_tokens: int = typer.Option(None, help="tokens per reply (rl_config: 300)"),
        temperature: float = typer.Option(None, help="sampling temperature (rl_config: 0.7)"),
        max_concurrent_browsers: int = typer.Option(None, help="browser contexts open at once (default 8)"),
        max_pixels: int = typer.Option(None, help="screenshot pixel budget (default 1280*720 -> 880 tokens)"),
        stop_on_parse_error: bool = typer.Option(None, "--stop-on-parse-error/--continue-on-parse-error",
                                                 help="an unparseable reply ends the episode (default) or is "
                                                      "penalised and the episode goes on"),
        retries: int = typer.Option(None, help="broken episodes re-run per group (default 3; 0 = fail fast)"),
        seed: int = typer.Option(None, help="task order and train/test split"),
        test_fraction: float = typer.Option(None, help="share of tasks held out for evaluation"),
        eval_every: int = typer.Option(None, help="evaluate the held-out tasks every N iterations (0 = never)"),
        save_every: int = typer.Option(None, help="checkpoint every N iterations"),
        load_checkpoint: str = typer.Option(None, help="start from these Tinker weights (tinker://...)"),
        base_url: str = typer.Option(None, "--tinker-url", "--base-url", envvar="TINKER_BASE_URL",
                                     help="a Tinker-API-compatible server (self-hosted, e.g. SkyRL's); default: "
                                          "hosted Tinker"),
        server_loss_fns: str = typer.Option(None, help="losses a server that does not list them supports, "
                                                       "comma-separated (self-hosted default: cross_entropy,"
                                                       "importance_sampling)"),
        wandb_project: str = typer.Option(None, help="log to this W&B project (implies --log wandb)"),
        rl_config: str = config_option(),
        sets: list[str] = set_option(),
        log: str = log_option(),
    ) -> None:
        """Train on Tinker: the model samples and takes LoRA steps on the Tinker server (hosted, or --tinker-url),
        browsers and REAL grading here.

        Needs TINKER_API_KEY; without it, or with a model or loss the server does not offer, nothing starts."""
        from halo.jobs.tinker import TinkerRunConfig, run_training

        console = Console()
        run = TinkerRunConfig.create(
            rl_config, checked_sets(sets, RL_SECTIONS, "halo train tinker"),
            tasks=tasks, num_envs=num_envs, groups_per_batch=groups_per_batch, loss_fn=loss_fn,
            lora_rank=lora_rank, learning_rate=learning_rate, max_steps=max_steps,
            log_path=log_path or "runs/tinker", sites=sites, model_name=model, renderer_name=renderer,
            max_turns=max_turns, max_tokens=max_tokens, temperature=temperature,
            max_concurrent_browsers=max_concurrent_browsers, max_pixels=max_pixels,
            stop_on_parse_error=stop_on_parse_error, retries=retries, seed=seed, test_fraction=test_fraction,
            eval_every=eval_every, save_every=save_every, load_checkpoint_path=load_checkpoint,
            base_url=base_url, server_loss_fns=server_loss_fns, wandb_project=wandb_project)
        from halo.policy.tinker.models import retirement_note, thinking_note

        notes = [retirement_note(run.model_name) if not base_url else None,
                 thinking_note(run.renderer_name, run.max_tokens)]
        for note in filter(None, notes):
            Console(stderr=True).print(f"[yellow]note:[/yellow] {note}", highlight=False)
        console.print(f"[bold]tinker[/bold] model={run.model_name} renderer={run.renderer_name} "
                      f"tasks={','.join(run.tasks)} "
                      f"group={run.num_envs} loss={run.loss_fn} lora_rank={run.lora_rank} "
                      f"lr={run.learning_rate:g} steps={run.max_steps} -> {run.log_path}")
        run_training(run, "wandb" if wandb_project and log == "none" else log)
        console.print(f"done: checkpoints in {run.log_path}/checkpoints.jsonl")
