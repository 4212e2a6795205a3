"""`halo train grpo` (online GRPO, in-process or with vLLM) and `halo train tinker` (the Tinker API)."""

from __future__ import annotations

import asyncio

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from halo.cli.common import (
    checked_sets,
    config_option,
    exits_on_error,
    log_option,
    modes_file_option,
    ray_address_option,
    ray_option,
    ray_target,
    ray_workers_option,
    run_name_option,
    set_option,
)
from halo.rl.config import RL_SECTIONS

train_app = typer.Typer(help="Train a policy online: local GRPO, MCTS + DPO, or the Tinker API.",
                        no_args_is_help=True)

METRIC_COLUMNS = ("mean_reward", "reward_std", "frac_reward_zero_std", "success_rate", "action_validity",
                  "episode_length", "tokens", "loss", "time_rollout", "time_update", "time_sync")


def metrics_line(m: dict) -> str:
    parts = []
    for k in METRIC_COLUMNS:
        v = m.get(k)
        if v is None:
            continue
        parts.append(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}")
    errors = m.get("errors") or {}
    parts.append(f"errored={m.get('errored', 0)}" + (" (" + ", ".join(f"{r} {n}" for r, n in errors.items()) + ")"
                                                      if errors else ""))
    line = f"iter {m['iteration']}: " + " ".join(parts)
    examples = m.get("error_examples") or {}
    if examples:  # what broke, not only how often: the first error of each reason
        line += "".join(f"\n  {r}: {x[:200]}" for r, x in examples.items())
    return line


def print_history(console: Console, history: list[dict]) -> None:
    t = Table("iter", "mean_reward", "reward_std", "zero_std", "success", "validity", "ep_len", "loss",
              "rollout s", "update s", title="GRPO")
    for m in history:
        t.add_row(str(m["iteration"]), f"{m['mean_reward']:.3f}", f"{m['reward_std']:.3f}",
                  f"{m['frac_reward_zero_std']:.2f}", f"{m['success_rate']:.2f}", f"{m['action_validity']:.2f}",
                  f"{m['episode_length']:.1f}", f"{m['loss']:.4f}", f"{m['time_rollout']:.1f}",
                  f"{m['time_update']:.1f}")
    console.print(t)


def grpo_command(
    tasks: str = typer.Option("v2.gomail-4", help="comma list: task ids, site names, or 'local' (all REAL-local)"),
    mode: str = typer.Option(None, help="policy mode (configs/modes.yaml): hf modes train in-process, vLLM modes "
                                        "hot-load adapters (default: rl_config policy.mode, tiny)"),
    sites: str = typer.Option("local", help="local (REAL-local, served in this process) or remote (REAL)"),
    iterations: int = typer.Option(None, help="GRPO iterations"),
    group_size: int = typer.Option(None, "--group-size", "--num-generations", help="episodes per task per group"),
    parallel: int = typer.Option(None, help="episodes of a group run at once, each in its own browser context; a "
                                            "larger group runs in waves (rl_config grpo.parallel: 8)"),
    tasks_per_iteration: int = typer.Option(None, help="tasks (groups) per iteration"),
    max_steps: int = typer.Option(None, help="max browser steps per episode"),
    lr: float = typer.Option(None, help="learning rate"),
    loss_type: str = typer.Option(None, help="dr_grpo | grpo | token_mean"),
    clip_eps: float = typer.Option(None, help="importance-ratio clip"),
    kl_coef: float = typer.Option(None, help="KL to the base model (0 = off)"),
    entropy_coef: float = typer.Option(None, help="entropy bonus on each sampled choice (0 = off)"),
    advantage: str = typer.Option(None, help="episode (return) or step (discounted return-to-go)"),
    discount: float = typer.Option(None, help="discount for --advantage step"),
    skip_zero_std: bool = typer.Option(None, "--skip-zero-std/--keep-zero-std", help="skip zero-variance groups"),
    update_epochs: int = typer.Option(None, help="optimizer steps per iteration on its samples (GRPO's mu)"),
    max_staleness: int = typer.Option(None, help="asynchronous GRPO: the next iterations' rollouts run during the "
                                                 "update, each step at most this many adapter versions behind "
                                                 "(rl_config: 0, in turn; hf or vLLM modes, no --ray)"),
    max_error_share: float = typer.Option(None, help="an iteration with more errored episodes than this share "
                                                     "stops the run (default 0.5; 1 never stops)"),
    episode_timeout: float = typer.Option(None, "--episode-timeout", help="wall-clock seconds per episode "
                                                                          "(rl_config episode.episode_timeout_s)"),
    allow_group_size_one: bool = typer.Option(False, "--allow-group-size-one",
                                              help="run groups of 1 (no advantage: nothing is learned)"),
    lora_rank: int = typer.Option(None, help="LoRA rank"),
    lora_alpha: int = typer.Option(None, help="LoRA alpha"),
    temperature: float = typer.Option(None, help="sampling temperature"),
    max_tokens: int = typer.Option(None, help="max tokens per action"),
    constrained: bool = typer.Option(None, "--constrained/--free", help="grammar-constrained actions"),
    model: str = typer.Option(None, help="override the mode's model (path or hub id)"),
    adapter: str = typer.Option(None, help="start from this LoRA adapter"),
    base_url: str = typer.Option(None, help="override the mode's server URL (vLLM)"),
    learner_model: str = typer.Option(None, help="vLLM backend: base model for the local learner"),
    device: str = typer.Option("cpu", help="learner device (cpu, cuda)"),
    checkpoint_every: int = typer.Option(None, help="checkpoint every K iterations"),
    seed: int = typer.Option(None, help="task order and sampling seed"),
    save_episodes: str = typer.Option(None, help="sample (best + worst per group, whole groups every "
                                                 "save_group_every iterations) | all | best_worst | none"),
    run_name: str = run_name_option(),
    runs_dir: str = typer.Option("runs", help="where run directories go"),
    resume: bool = typer.Option(False, help="continue --run-name from its last checkpoint"),
    config: str = config_option(),
    modes_file: str = modes_file_option(),
    sets: list[str] = set_option(),
    log: str = log_option(),
    ray: bool = ray_option(),
    ray_address: str = ray_address_option(),
    ray_workers: int = ray_workers_option(),
) -> None:
    """Online GRPO: groups of parallel episodes per task, Dr. GRPO advantages, LoRA updates."""
    from halo.config.overrides import flags
    from halo.jobs.grpo import GRPOJob, run_grpo
    from halo.policy.modes import mode_flags

    console = Console()
    sets = checked_sets(sets, (*RL_SECTIONS, "mode", "modes"), "halo train grpo")
    grpo = flags("grpo", dict(
        iterations=iterations, group_size=group_size, parallel=parallel, tasks_per_iteration=tasks_per_iteration,
        max_steps=max_steps, lr=lr, loss_type=loss_type, clip_eps=clip_eps, kl_coef=kl_coef, entropy_coef=entropy_coef,
        advantage=advantage, discount=discount, skip_zero_std_groups=skip_zero_std, checkpoint_every=checkpoint_every,
        seed=seed, save_episodes=save_episodes, update_epochs=update_epochs, max_error_share=max_error_share,
        episode_timeout_s=episode_timeout, max_staleness=max_staleness))
    mode_over = mode_flags(model=model, adapter=adapter, base_url=base_url, temperature=temperature,
                           max_tokens=max_tokens, constrained=constrained, seed=seed)
    job = GRPOJob(tasks=[t for t in tasks.split(",") if t.strip()], mode=mode, sites=sites, run_name=run_name,
                  runs_dir=runs_dir, resume=resume, config_path=config, learner_model=learner_model, device=device,
                  overrides=(*sets, *grpo, *flags("lora", dict(rank=lora_rank, alpha=lora_alpha)), *mode_over),
                  allow_group_size_one=allow_group_size_one, modes_file=modes_file, log=log,
                  ray=ray_target(ray, ray_address), ray_workers=ray_workers)
    with Progress(TextColumn("[bold]GRPO"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.description}"), console=console, transient=False) as progress:
        bar = progress.add_task("starting", total=None)

        def on_iteration(res) -> None:
            progress.update(bar, advance=1, description=f"mean_reward={res.metrics['mean_reward']:.3f}")
            progress.console.print(metrics_line(res.metrics))

        run, history = asyncio.run(run_grpo(job, console=progress.console, on_iteration=on_iteration))
    if history:
        print_history(console, history)
    console.print(f"run directory: {run.path} (metrics.jsonl, checkpoints/latest)")


def register(app: typer.Typer) -> None:
    from halo.cli import train_mcts_cmd, train_tinker_cmd

    train_app.command("grpo")(exits_on_error(grpo_command))
    train_tinker_cmd.register(train_app)
    train_mcts_cmd.register(train_app)
    app.add_typer(train_app, name="train")
