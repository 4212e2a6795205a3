"""`halo smoke`: is this machine ready? A table of checks, each failure with its fix."""

from __future__ import annotations

import asyncio
import importlib.metadata as md
import time
from dataclasses import dataclass
from typing import Callable

import typer
from rich.console import Console
from rich.table import Table


@dataclass
class Check:
    name: str
    ok: bool | None  # None = skipped
    detail: str
    fix: str = ""


def _guard(name: str, fn: Callable[[], Check], fix: str) -> Check:
    try:
        return fn()
    except Exception as e:  # a check that crashes is a failed check, with what broke
        return Check(name, False, f"{type(e).__name__}: {e}"[:300], fix)


def check_agisdk() -> Check:
    import agisdk  # noqa: F401

    v = md.version("agisdk")
    return Check("agisdk", v == "0.3.5", f"agisdk {v}", "pip install agisdk==0.3.5 (make setup)")


def check_tasks() -> Check:
    from halo.tasks.real import list_tasks
    from halo.tasks.types import LOCAL_SITES

    tasks = list_tasks("v2")
    local = [t for t in tasks if t.site in LOCAL_SITES]
    return Check("REAL v2 tasks", len(tasks) > 0,
                 f"{len(tasks)} v2 tasks, {len(local)} on the {len(LOCAL_SITES)} REAL-local sites",
                 "reinstall agisdk==0.3.5")


async def _browser_check() -> Check:
    from halo.env.browser import BrowserPool, find_chromium

    path, desc = find_chromium()
    t0 = time.perf_counter()
    async with BrowserPool(executable=path) as pool:
        ctx = await pool.new_context()
        page = await ctx.new_page()
        await page.set_content("<button>ok</button>")
        shot = await page.screenshot(type="jpeg", quality=80)
        vp = page.viewport_size
        await ctx.close()
    dt = time.perf_counter() - t0
    return Check("browser", True, f"{desc}: launched, {vp['width']}x{vp['height']}, screenshot {len(shot)} B "
                                  f"in {dt:.1f}s", "")


def check_browser() -> Check:
    return asyncio.run(_browser_check())


def check_url(name: str, url: str, path: str, fix: str) -> Check:
    import httpx

    r = httpx.get(url.rstrip("/") + path, timeout=5.0)
    return Check(name, r.status_code < 400, f"GET {url.rstrip('/')}{path} -> {r.status_code}", fix)


def check_local_sites() -> Check:
    import httpx

    from halo.tasks.types import LOCAL_SITES
    from real_local.server import SitesServer

    ok = []
    with SitesServer(LOCAL_SITES) as urls:
        for site, url in urls.items():
            with httpx.Client(base_url=url, timeout=5.0) as c:
                c.get("/config", params={"run_id": "0", "task_id": f"v2.{site}-1", "latency": 0}).raise_for_status()
                r = c.get("/finish")
                r.raise_for_status()
                ok.append(site if "initialfinaldiff" in r.text else f"{site}(no diff)")
    return Check("REAL-local", all("(" not in s for s in ok), "served and answered /config + /finish: " + ", ".join(ok),
                 "see the error; `halo sites` serves them standalone")


def check_ml() -> Check:
    vs = []
    for pkg in ("torch", "transformers", "peft"):
        try:
            vs.append(f"{pkg} {md.version(pkg)}")
        except md.PackageNotFoundError:
            return Check("ML stack", False, f"{pkg} not installed", "pip install -e '.[train]' (make setup)")
    return Check("ML stack", True, ", ".join(vs))


def register(app: typer.Typer) -> None:
    @app.command("smoke")
    def smoke(
        policy_url: str = typer.Option(None, help="an OpenAI-compatible policy server to check (GET /v1/models)"),
        site_url: str = typer.Option(None, help="a REAL site (remote or local) to check"),
        local_sites: bool = typer.Option(True, "--local-sites/--no-local-sites", help="start and check REAL-local"),
        browser: bool = typer.Option(True, "--browser/--no-browser", help="launch Chromium"),
    ) -> None:
        """Check the install: agisdk, tasks, browser, ML stack, REAL-local, and optionally a policy server or site."""
        checks = [
            _guard("agisdk", check_agisdk, "pip install agisdk==0.3.5 (make setup)"),
            _guard("REAL v2 tasks", check_tasks, "reinstall agisdk==0.3.5"),
            _guard("ML stack", check_ml, "make setup"),
        ]
        if browser:
            checks.append(_guard("browser", check_browser,
                                 "run `make browser`, or set HALO_CHROMIUM=/path/to/chromium"))
        if local_sites:
            checks.append(_guard("REAL-local", check_local_sites, "check the error; is a port in use?"))
        if policy_url:
            checks.append(_guard("policy server", lambda: check_url(
                "policy server", policy_url, "/models" if policy_url.rstrip("/").endswith("/v1") else "/v1/models",
                "start one: `halo serve-policy --mode qwen3vl_base` (GPU box)"),
                f"is a server running at {policy_url}? start one with `halo serve-policy --mode qwen3vl_base`"))
        if site_url:
            checks.append(_guard("site", lambda: check_url("site", site_url, "/", "check the url"),
                                 f"{site_url} is unreachable; REAL's remote sites need internet, REAL-local needs "
                                 f"`halo sites` running"))
        table = Table("check", "status", "detail", "fix", title="halo smoke")
        for c in checks:
            status = "[green]ok[/]" if c.ok else ("[yellow]skip[/]" if c.ok is None else "[red]FAIL[/]")
            table.add_row(c.name, status, c.detail, "" if c.ok else c.fix)
        Console().print(table)
        if any(c.ok is False for c in checks):
            raise typer.Exit(1)
