"""`halo train mcts`: Agent Q's MCTS over branchable browser states, and step-level DPO from the trees."""

from __future__ import annotations

import asyncio

import typer
from rich.console import Console

from halo.cli.common import (
    checked_sets,
    config_option,
    exits_on_error,
    log_option,
    modes_file_option,
    ray_address_option,
    ray_option,
    ray_target,
    run_name_option,
    set_option,
)
from halo.rl.config import RL_SECTIONS


def mcts_line(m: dict) -> str:
    keys = ("task", "success_rate", "successes_found", "env_steps", "restores", "restore_s", "search_s",
            "tree_nodes", "pairs", "dpo_loss", "dpo_margin", "dpo_accuracy")
    parts = [f"{k}={m[k]:.3f}" if isinstance(m.get(k), float) else f"{k}={m.get(k)}" for k in keys]
    return f"episode {m['iteration']}: " + " ".join(parts)


def register(train_app: typer.Typer) -> None:
    @train_app.command("mcts")
    @exits_on_error
    def mcts(
        tasks: str = typer.Option("omnizon.department@train", help="comma list: family specs, task ids, site names"),
        mode: str = typer.Option(None, help="policy mode: hf modes train in-process, vLLM modes hot-load adapters "
                                            "(default: rl_config policy.mode, tiny)"),
        sites: str = typer.Option("local", help="local (REAL-local: restore by fork) or remote (restore by replay)"),
        episodes: int = typer.Option(10, help="searched episodes (one DPO update each)"),
        simulations: int = typer.Option(None, help="simulations per decision (rl_config mcts: 50)"),
        ucb_c: float = typer.Option(None, "--ucb-c", help="UCB1 exploration constant (1.414)"),
        children: int = typer.Option(None, help="candidate actions per expanded node (5)"),
        alpha: float = typer.Option(None, help="composite Q = alpha * Q_mcts + (1 - alpha) * Q_critic (0.5)"),
        critic: str = typer.Option(None, help="none | progress (a task family's own checks) | same | a mode name (gpt_baseline) (rl_config mcts.critic)"),
        depth: int = typer.Option(None, help="simulation steps past a new node (10; 0: no rollout, a progress "
                                                 "critic values the new state)"),
        max_steps: int = typer.Option(None, help="steps per episode (rl_config episode.max_steps)"),
        step_budget: int = typer.Option(None, help="env steps per searched episode, simulations included (0: none)"),
        time_budget: float = typer.Option(None, "--time-budget", help="wall seconds per searched episode (0: none)"),
        restore: str = typer.Option(None, help="auto | fork | replay"),
        beta: float = typer.Option(None, help="DPO beta (0.1)"),
        margin: float = typer.Option(None, help="least sibling Q difference for a pair (0.1)"),
        pg_weight: float = typer.Option(None, help="weight of the sibling-GRPO loss mixed with DPO (0)"),
        nll_weight: float = typer.Option(None, help="RPO: weight of the chosen reply's NLL beside DPO (0)"),
        lr: float = typer.Option(None, help="learning rate"),
        lora_rank: int = typer.Option(None, help="LoRA rank"),
        temperature: float = typer.Option(None, help="sampling temperature"),
        model: str = typer.Option(None, help="override the mode's model (path or hub id)"),
        adapter: str = typer.Option(None, help="start from this LoRA adapter"),
        base_url: str = typer.Option(None, help="override the mode's server URL (vLLM)"),
        learner_model: str = typer.Option(None, help="vLLM backend: base model for the local learner"),
        device: str = typer.Option("cpu", help="learner device (cpu, cuda)"),
        seed: int = typer.Option(0, help="task order and sampling seed"),
        run_name: str = run_name_option("run directory name under --runs-dir (mode qwen3vl_mcts reads "
                                        "runs/mcts/checkpoints/latest)"),
        runs_dir: str = typer.Option("runs", help="where run directories go"),
        config: str = config_option(),
        modes_file: str = modes_file_option(),
        sets: list[str] = set_option(),
        log: str = log_option(),
        ray: bool = ray_option(),
        ray_address: str = ray_address_option(),
        ray_workers: int = typer.Option(2, "--ray-workers", help="with --ray: rollout workers (Ray actors, one "
                                                                 "browser each), each running whole searches; "
                                                                 "this many searches per round"),
    ) -> None:
        """MCTS (Agent Q) on branchable envs, step-level DPO on the LoRA, adapters as GRPO saves them."""
        from halo.config.overrides import flags
        from halo.jobs.mcts import MCTSJob, run_mcts
        from halo.policy.modes import mode_flags

        console = Console()
        sets = checked_sets(sets, (*RL_SECTIONS, "mode", "modes"), "halo train mcts")
        mcts_over = flags("mcts", dict(
            simulations=simulations, ucb_c=ucb_c, children=children, alpha=alpha, depth=depth, max_steps=max_steps,
            step_budget=step_budget, time_budget_s=time_budget, restore=restore, beta=beta, margin=margin,
            pg_weight=pg_weight, nll_weight=nll_weight, temperature=temperature, critic=critic))
        mode_over = mode_flags(model=model, adapter=adapter, base_url=base_url, temperature=temperature, seed=seed)
        job = MCTSJob(tasks=[t for t in tasks.split(",") if t.strip()], mode=mode, sites=sites, episodes=episodes,
                      run_name=run_name, runs_dir=runs_dir, config_path=config, learner_model=learner_model,
                      device=device, seed=seed,
                      overrides=(*sets, *mcts_over, *flags("grpo", dict(lr=lr)), *flags("lora", dict(rank=lora_rank)),
                                 *mode_over),
                      modes_file=modes_file, log=log, ray=ray_target(ray, ray_address), ray_workers=ray_workers)
        run, history = asyncio.run(run_mcts(job, on_iteration=lambda m: console.print(mcts_line(m)),
                                            console=console))
        from halo.report.html import build_report

        report = build_report(run.path, title=f"HALO MCTS run {run.path.name}")
        pairs = sum(m["pairs"] for m in history)
        console.print(f"run directory: {run.path} (trees/, pairs.jsonl, checkpoints/latest); report: {report}")
        if not history or not pairs:
            console.print("[red]nothing was learned:[/] " + ("no search finished" if not history else
                          "no sibling actions differed by the margin in any tree (lower --margin, raise "
                          "--simulations or --children)"), highlight=False)
            raise typer.Exit(1)
