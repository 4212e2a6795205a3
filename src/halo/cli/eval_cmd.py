"""`halo eval --mode M --tasks ... --episodes K`: evaluate a policy mode on REAL(-local) tasks."""

from __future__ import annotations

import asyncio
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from halo.cli.common import (
    checked_sets,
    log_option,
    modes_file_option,
    ray_address_option,
    ray_option,
    ray_target,
    ray_workers_option,
    run_name_option,
    set_option,
)
from halo.errors import HaloError
from halo.rl.health import RunUnhealthy


def _split(values: list[str]) -> list[str]:
    return [v.strip() for item in values for v in item.split(",") if v.strip()]


def print_results(console: Console, result, title: str) -> None:
    for label, rows in (("task", result.tasks), ("site", result.by_site())):
        t = Table(label, "success", "rate", "errored", "mean steps", "valid actions", "as written",
                  title=f"{title} by {label}")
        for key, r in sorted(rows.items()):
            n = r.episodes
            t.add_row(key, f"{r.successes}/{n}", f"{r.success_rate:.0%}", str(r.errored),
                      f"{r.steps / n:.1f}" if n else "-", f"{r.valid_actions / n:.0%}" if n else "-",
                      f"{r.clean_actions / n:.0%}" if n else "-")
        console.print(t)
    m = result.metrics()
    if result.errors:
        reasons = ", ".join(f"{r} {n}" for r, n in m["errors"].items())
        console.print(f"[yellow]{len(result.errors)} episode(s) broke[/yellow] ({reasons}; left out of the rates); "
                      f"first: {result.errors[0]}", highlight=False)
    console.print("valid actions: replies that became an action, repaired or cut off at the token limit included; "
                  "as written: neither", style="dim", highlight=False)
    console.print(f"overall success {m['success_rate']:.1%} over {m['episodes']} episodes "
                  f"({m['errored']} errored) in {m['wall_time']:.0f} s")


def register(app: typer.Typer) -> None:
    @app.command("eval")
    def eval_(
        mode: str = typer.Option(..., help="policy mode from configs/modes.yaml (tiny, qwen3vl_base, ...)"),
        tasks: list[str] = typer.Option(..., help="task ids, site names, 'local', or page URLs; comma-separated "
                                                  "or repeated"),
        episodes: int = typer.Option(1, help="episodes per task"),
        parallel: int = typer.Option(2, help="browser envs in parallel"),
        sites: str = typer.Option("local", help="'local' (REAL-local, served here) or 'remote' (REAL's sites)"),
        max_steps: int = typer.Option(25, help="steps per episode"),
        greedy: bool = typer.Option(False, "--greedy", help="greedy decoding (temperature 0)"),
        temperature: float = typer.Option(None, help="sampling temperature (default: the mode's)"),
        recovery: bool = typer.Option(None, "--recovery/--no-recovery", help="evaluation recovery (default: mode's)"),
        model: str = typer.Option(None, help="override the mode's model"),
        adapter: str = typer.Option(None, help="override the mode's LoRA adapter"),
        base_url: str = typer.Option(None, help="override the mode's server URL"),
        goal: str = typer.Option(None, help="goal for page-URL tasks"),
        name: str = run_name_option("run directory name under --runs-dir (default eval-<mode>-<time>)"),
        runs_dir: Path = typer.Option(Path("runs"), help="where run directories go"),
        modes_file: str = modes_file_option(),
        sets: list[str] = set_option(),
        log: str = log_option(),
        episode_timeout: float = typer.Option(900.0, "--episode-timeout", help="wall-clock seconds per episode"),
        max_error_share: float = typer.Option(0.5, help="more errored episodes than this share fails the eval "
                                                        "(exit 1; 1 never does)"),
        ray: bool = ray_option(),
        ray_address: str = ray_address_option(),
        ray_workers: int = ray_workers_option(),
    ) -> None:
        """Run K episodes per task with parallel browsers; writes runs/<name>/ and prints success by task and site."""
        from halo.eval import EvalConfig, config_record, local_sites, needs_local_sites, resolve_tasks
        from halo.policy.modes import get_mode, make_policy
        from halo.policy.recovery import RecoveringPolicy
        from halo.runs import RunDir
        from halo.validate import check_runs_dir, preflight, resolve_task_refs

        console = Console()
        refs = _split(tasks)
        ray = ray_target(ray, ray_address)
        try:
            if sites not in ("local", "remote"):
                raise HaloError(f"--sites must be 'local' or 'remote', got {sites!r}")
            from halo.tracking import check_tracker, open_tracker

            check_tracker(log)
            sets = checked_sets(sets, ("mode", "modes"), "halo eval")
            m = get_mode(mode, modes_file, sets).with_overrides(model=model, adapter=adapter, base_url=base_url)
            cfg = EvalConfig(episodes=episodes, parallel=parallel, max_steps=max_steps,
                             temperature=0.0 if greedy else temperature, episode_timeout_s=episode_timeout,
                             max_error_share=max_error_share)
            if ray is not None:
                from halo.scale import check_address

                check_address(ray, ray_workers)
            # at the door: tasks, runs dir, the policy server and remote sites, before any site or browser starts
            asyncio.run(preflight(m, resolve_task_refs(refs, sites, goal)))
            check_runs_dir(runs_dir)
            _ensure_tiny(m, console)
            use_recovery = m.recovery if recovery is None else recovery
            if ray is not None:
                result, run = _eval_on_ray(ray, ray_workers, m, mode, refs, sites, goal, cfg, use_recovery, name,
                                           runs_dir, sets, log, console)
            else:
                with local_sites(needs_local_sites(refs, sites)) as urls:
                    task_list = resolve_tasks(refs, sites=sites, site_urls=urls, goal=goal)
                    policy = make_policy(m)
                    if use_recovery:
                        policy = RecoveringPolicy(policy)
                    run = RunDir(runs_dir, name, prefix=f"eval-{mode}")
                    record = {**config_record(cfg, m, task_list, sites, use_recovery, urls), "sets": list(sets)}
                    run.write_config(record)
                    console.print(f"[bold]eval[/bold] mode={mode} tasks={len(task_list)} episodes={episodes} "
                                  f"parallel={parallel} -> {run.path}")
                    with open_tracker(log, run.path, record) as tracker:
                        result = asyncio.run(_run_with_progress(policy, task_list, cfg, run, console))
                        tracker.log(result.metrics(), 0)
        except RunUnhealthy as e:  # the run happened, but too many episodes broke: results, then why
            if e.result is not None:
                print_results(console, e.result, f"{mode}")
            Console(stderr=True, soft_wrap=True).print(f"[red]error:[/red] {e}", highlight=False)
            raise typer.Exit(1) from None
        except HaloError as e:
            Console(stderr=True, soft_wrap=True).print(f"[red]error:[/red] {e}", highlight=False)
            raise typer.Exit(2) from None
        print_results(console, result, f"{mode}")
        from halo.report.html import build_report

        size = run.size_report()
        console.print(f"run directory: {run.path} ({size['episodes']} episodes, {size['mib']} MiB); report: "
                      f"{build_report(run.path)}; browse the episodes with `halo view {run.path}`")


def _eval_on_ray(address, workers, m, mode, refs, sites, goal, cfg, use_recovery, name, runs_dir, sets, log,
                 console: Console):
    """``halo eval --ray``: the same evaluation, its episodes on Ray rollout workers (each serving REAL-local on its
    own node); the run directory is written here, as on the local path."""
    from halo.eval import config_record, resolve_tasks
    from halo.policy.modes import make_policy
    from halo.policy.recovery import RecoveringPolicy
    from halo.runs import RunDir
    from halo.scale import RayRollouts, connect, shutdown, sites_of
    from halo.tracking import open_tracker

    info = connect(address, workers)  # a bad address is an error here, before any site or browser starts
    try:
        task_list = resolve_tasks(refs, sites=sites, site_urls=None, goal=goal)  # each worker uses its own sites
        policy = make_policy(m) if m.backend != "hf" else None  # an hf model is loaded in the policy actor
        if use_recovery and policy is not None:
            policy = RecoveringPolicy(policy)
        rollouts = RayRollouts(m, policy, workers=workers, sites=sites_of(task_list), per_worker=cfg.parallel,
                               headless=cfg.headless,
                               env_kwargs={"max_steps": cfg.max_steps, "episode_timeout_s": cfg.episode_timeout_s},
                               unit_timeout_s=cfg.episode_timeout_s + 120)
        rollouts.recovery = use_recovery
        run = RunDir(runs_dir, name, prefix=f"eval-{mode}")
        record = {**config_record(cfg, m, task_list, sites, use_recovery, None), "sets": list(sets),
                  "ray": {"address": address, "workers": workers, "nodes": info["nodes"], "cpus": info["cpus"]}}
        run.write_config(record)
        console.print(f"[bold]eval[/bold] mode={mode} tasks={len(task_list)} episodes={cfg.episodes} "
                      f"on Ray ({info['address']}: {info['nodes']} node(s), {info['cpus']} CPUs) with {workers} "
                      f"workers x {cfg.parallel} envs -> {run.path}")

        async def go():
            async with rollouts:
                return await _run_with_progress(policy, task_list, cfg, run, console, rollouts)

        with open_tracker(log, run.path, record) as tracker:
            result = asyncio.run(go())
            tracker.log(result.metrics(), 0)
        return result, run
    finally:
        if info["started"]:
            shutdown()


def _ensure_tiny(mode, console: Console) -> None:
    """The tiny mode builds its model on first use (seconds, offline)."""
    if mode.backend == "hf" and mode.name == "tiny":
        from halo.policy.tiny import ensure_tiny_model

        ensure_tiny_model(mode.model, console.print)


async def _run_with_progress(policy, task_list, cfg, run, console: Console, rollouts=None):
    from halo.eval import run_eval

    total = len(task_list) * cfg.episodes
    counts = {"ok": 0, "done": 0, "steps": 0}
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("success {task.fields[ok]} · steps {task.fields[steps]}"), TimeElapsedColumn(),
                  console=console) as progress:
        bar = progress.add_task("episodes", total=total, ok=0, steps=0)

        def on_step(_step) -> None:
            counts["steps"] += 1
            progress.update(bar, steps=counts["steps"])

        def on_episode(_task, ep) -> None:
            counts["ok"] += int(ep.success)
            progress.update(bar, advance=1, ok=counts["ok"])

        try:
            check = getattr(policy, "check", None)
            if check is not None:
                await check()
            return await run_eval(policy, task_list, cfg, run, on_episode=on_episode, on_step=on_step,
                                  rollouts=rollouts)
        finally:
            close = getattr(policy, "aclose", None)
            if close is not None:
                await close()
