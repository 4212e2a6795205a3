"""`halo tasks`: REAL's tasks by site and version, the task families to train on (``--families``), and REAL's graders
known to pass loosely, be strict, contradict their goal or fail on the hosted site (``--known-issues``)."""

from __future__ import annotations

from collections import Counter

import typer
from rich.console import Console
from rich.table import Table


def register(app: typer.Typer) -> None:
    @app.command("tasks")
    def tasks(
        version: str = typer.Option("v2", help="task version: v1, v2, or 'all'"),
        site: str = typer.Option(None, help="only this site (gomail, omnizon, ...)"),
        local: bool = typer.Option(False, "--local", help="only tasks REAL-local serves"),
        goals: bool = typer.Option(False, "--goals", help="list every task with its goal"),
        families: bool = typer.Option(False, "--families", help="list the task families (training tasks on "
                                      "REAL-local; select them with specs like gomail.open@train)"),
        known_issues: bool = typer.Option(False, "--known-issues", help="one line per task whose REAL grader is "
                                          "loose, strict, contradicts its goal, is empty, hard-codes a date or "
                                          "met a hosted-site bug (v1 and v2; --site filters; "
                                          "packages/real-local/src/real_local/known_issues.yaml has the details)"),
    ) -> None:
        """List REAL tasks (default: v2), counted by site, or one per line with --goals; --families lists the task
        families instead (with --goals, a sample goal of each); --known-issues REAL's graders with known problems."""
        from halo.tasks.real import list_tasks
        from halo.tasks.types import UNGRADABLE

        if known_issues:
            _known_issues(site)
            return
        console = Console()
        if families:
            _families(console, site, goals)
            return
        if version not in ("v1", "v2", "all"):
            Console(stderr=True).print(f"[red]error:[/red] --version must be v1, v2 or all, got {version!r}",
                                       highlight=False)
            raise typer.Exit(2)
        found = list_tasks(None if version == "all" else version, site, sites="local" if local else "remote")
        if site and not found:  # an unknown site is a typo, not an empty list
            known = sorted({t.site for t in list_tasks(None if version == "all" else version, None,
                                                       sites="local" if local else "remote")})
            Console(stderr=True).print(f"[red]error:[/red] no {version} tasks on site {site!r}"
                                       f"{' on REAL-local' if local else ''}; sites: {', '.join(known)}",
                                       highlight=False)
            raise typer.Exit(2)
        never = [task.id for task in found if not task.rewardable]
        note = (f"{', '.join(never)}: never graded SUCCESS ({'; '.join(UNGRADABLE[i] for i in never)}); left out of "
                f"the task sets (--tasks local, --tasks SITE), run by id only") if never else None
        if goals:
            t = Table("task", "goal", title=f"{len(found)} tasks", caption=note)
            for task in found:
                t.add_row(task.id + ("" if task.rewardable else " *"), task.goal)
        else:
            counts = Counter((task.version, task.site) for task in found)
            t = Table("version", "site", "tasks", title=f"{len(found)} tasks", caption=note)
            for (v, s), n in sorted(counts.items()):
                t.add_row(v, s, str(n))
        console.print(t)


def _known_issues(site: str | None) -> None:
    """``v2.staynb-13  strict  <what the script checks>``: plain lines (``real-local tasks --known-issues``)."""
    from real_local.cli import known_issue_lines

    try:
        lines = known_issue_lines(site)
    except ValueError as e:  # a bad entry (KnownIssuesError) or a site with no known issue
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None
    for line in lines:
        typer.echo(line)


def _families(console: Console, site: str | None, goals: bool) -> None:
    from halo.tasks.families import all_families

    fams = all_families(site)
    if site and not fams:
        known = sorted({f.site for f in all_families()})
        Console(stderr=True).print(f"[red]error:[/red] no task families on site {site!r}; sites: {', '.join(known)}",
                                   highlight=False)
        raise typer.Exit(2)
    t = Table("family", "steps", "instances", "train", "test", "sample goal" if goals else "what",
              title=f"{len(fams)} task families (specs: FAMILY@train|test|all[:N], SITE.*@train, families@train, "
                    "FAMILY-N)")
    for f in fams:
        test = len(f.instances("test"))
        t.add_row(f.name, f.steps, str(f.size), str(f.size - test), str(test),
                  f.instance(0).goal if goals else f.description)
    console.print(t)
