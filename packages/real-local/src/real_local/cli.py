"""``real-local``: serve the sites (``serve``) and list REAL's v2 tasks they answer (``tasks``, ``--known-issues``).

Plain argparse and print, so the package needs nothing beyond its web server. ``halo sites`` and ``halo tasks
--known-issues`` call the same functions (``serve_sites``, ``known_issue_lines``)."""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

from real_local.ports import DEFAULT_HOST, DEFAULT_PORT, PORT_OFFSETS, SITE_NAMES, site_port


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _err(msg: str) -> None:
    print(f"error: {msg}", file=sys.stderr, flush=True)


def serve_sites(sites: Sequence[str] | None = None, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
                log_level: str = "warning") -> int:
    """Serve ``sites`` (all by default) on ``host`` until Ctrl-C: GoMail on ``port`` + 1, then the others in
    ``real_local.ports``'s order. Every check (names, port range, busy ports) runs before anything is served;
    returns the exit code (0 after Ctrl-C, 2 bad input, 1 a site or port that cannot serve)."""
    from real_local.server import busy_ports, load_spec, serve

    chosen = list(dict.fromkeys(sites or SITE_NAMES))
    unknown = [s for s in chosen if s not in SITE_NAMES]
    if unknown:
        _err(f"no REAL-local site {', '.join(map(repr, unknown))}; choose from {', '.join(SITE_NAMES)}")
        return 2
    if not 1 <= port <= 65535 - max(PORT_OFFSETS.values()):
        _err(f"--port {port} is out of range; pick a base port like {DEFAULT_PORT}")
        return 2
    broken = []
    for name in chosen:
        try:
            load_spec(name)
        except Exception as e:  # noqa: BLE001 - a site that does not import must not stop the others
            broken.append(name)
            print(f"skipping {name}: it does not import ({type(e).__name__}: {e})", file=sys.stderr)
    chosen = [s for s in chosen if s not in broken]
    if not chosen:
        return 1
    busy = busy_ports(chosen, host, port)
    if busy:  # one line, before anything is printed as served
        _err(f"cannot serve REAL-local on {host}: " + "; ".join(f"port {p} ({name}): {why}" for name, p, why in busy)
             + f"; pick another base port with --port (e.g. --port {port + 100})")
        return 1
    if not _loopback(host):
        print(f"warning: serving on {host}, not loopback: anyone who can reach this machine can read and change "
              f"REAL-local's sessions; use --host 127.0.0.1 unless you mean it", file=sys.stderr)
    width = max(len(n) for n in chosen)
    print("REAL-local")
    for name in chosen:
        print(f"  {name:<{width}}  http://{host}:{site_port(name, port)}")
    print("Start a task with /config?task_id=v2.<site>-<n>; Ctrl-C stops.", flush=True)
    try:
        asyncio.run(serve(chosen, host=host, port=port, log_level=log_level))
    except KeyboardInterrupt:
        pass
    except (OSError, RuntimeError, SystemExit) as e:  # a port taken since busy_ports looked
        if isinstance(e, SystemExit) and not e.code:
            raise
        _err(f"cannot serve on {host} from base port {port} ({e}): a port is in use; pick another base port with "
             f"--port")
        return 1
    return 0


def known_issue_lines(site: str | None = None) -> list[str]:
    """``v2.staynb-13  strict  <what the script checks>``: one plain line per task whose REAL grader has a known
    problem (``known_issues.yaml``), for people and for grep/awk alike. ``ValueError`` for a site with none."""
    from real_local.known_issues import load

    issues = load()
    if site:
        issues = [i for i in issues if i.task.rsplit("-", 1)[0] == site]
        if not issues:
            raise ValueError(f"no known grader issues on site {site!r}")
    wid = max(len(i.id) for i in issues)
    wkind = max(len("+".join(i.kinds)) for i in issues)
    return [f"{i.id:<{wid}}  {'+'.join(i.kinds):<{wkind}}  {i.short}" for i in issues]


def task_lines(site: str | None = None) -> list[str]:
    """One line per v2 task REAL-local serves: id, site, goal."""
    from real_local.tasks import v2_tasks

    tasks = [t for t in v2_tasks() if site is None or t.site == site]
    if not tasks:
        raise ValueError(f"no v2 tasks on site {site!r}; sites: {', '.join(SITE_NAMES)}")
    wid = max(len(t.id) for t in tasks)
    return [f"{t.id:<{wid}}  {t.goal}" for t in tasks]


def _version() -> str:
    try:
        return version("real-local")
    except PackageNotFoundError:  # run from a source tree that is not installed
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="real-local", description="REAL-local: offline clones of REAL's eleven sites, "
                                "graded by agisdk's own scripts over /finish.")
    p.add_argument("--version", action="version", version=f"real-local {_version()}")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("serve", help="serve the sites on loopback, one port per site, until Ctrl-C")
    s.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"base port: GoMail on PORT+1, then {', '.join(SITE_NAMES[1:])} (default {DEFAULT_PORT})")
    s.add_argument("--sites", default="", help="comma-separated sites to serve (default: all eleven)")
    s.add_argument("--host", default=DEFAULT_HOST, help="interface (loopback by default: keep it so)")
    s.add_argument("--log-level", default="warning", help="uvicorn's log level")
    t = sub.add_parser("tasks", help="REAL's v2 tasks REAL-local serves (id and goal), or their known grader issues")
    t.add_argument("--site", default=None, help="only this site's tasks")
    t.add_argument("--known-issues", action="store_true",
                   help="one line per task whose REAL grader passes loosely, is strict, contradicts its goal, ...")
    a = p.parse_args(argv)
    if a.command == "serve":
        return serve_sites([x.strip() for x in a.sites.split(",") if x.strip()] or None, a.host, a.port,
                           a.log_level)
    try:
        lines = known_issue_lines(a.site) if a.known_issues else task_lines(a.site)
    except ValueError as e:  # KnownIssuesError is a ValueError too
        _err(str(e))
        return 2
    try:
        print("\n".join(lines))
    except BrokenPipeError:  # `real-local tasks | head`
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
