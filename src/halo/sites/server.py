"""Run REAL-local: every site in one process, each on its own loopback port (its own origin, as on REAL).

``serve()`` is what ``halo sites`` runs; ``SitesServer`` starts the same servers in a background thread for tests
and for jobs that need sites for their own lifetime (``with SitesServer() as urls: ...``).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import socket
import threading
from typing import Iterable

import uvicorn

from halo.sites.core import SiteSpec, build_app
from halo.sites.ports import DEFAULT_HOST, SITE_NAMES, site_port


def load_spec(name: str) -> SiteSpec:
    """Import ``halo.sites.<name>`` and return its ``SPEC``."""
    if name not in SITE_NAMES:
        raise KeyError(f"REAL-local has no site {name!r}; it serves {', '.join(SITE_NAMES)}")
    return importlib.import_module(f"halo.sites.{name}").SPEC


def _free_ports(host: str, n: int) -> list[int]:
    """``n`` distinct free ports: every probe socket stays bound until all are picked (one released at once could be
    handed out again: two sites on one port, seen in CI)."""
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET))
                 for _ in range(n)]
        for s in socks:
            s.bind((host, 0))
        return [s.getsockname()[1] for s in socks]


def _servers(sites: Iterable[str | SiteSpec], host: str, port: int | None, log_level: str) -> dict[str, uvicorn.Server]:
    out = {}
    specs = [site if isinstance(site, SiteSpec) else load_spec(site) for site in sites]
    free = _free_ports(host, len(specs)) if port is None else []
    for i, spec in enumerate(specs):
        p = site_port(spec.name, port) if port is not None else free[i]
        # keep-alive well past the browsers' idle reuse: a socket the server closes as a request reuses it is an
        # ECONNRESET for that request (uvicorn's default is 5 s)
        cfg = uvicorn.Config(build_app(spec), host=host, port=p, log_level=log_level, access_log=False,
                             lifespan="off", timeout_keep_alive=75)
        out[spec.name] = uvicorn.Server(cfg)
    return out


def busy_ports(sites: Iterable[str], host: str, port: int) -> list[tuple[str, int, str]]:
    """``(site, port, why)`` for each site whose fixed port cannot be bound on ``host`` now (bound as uvicorn binds,
    with SO_REUSEADDR, so a port in TIME_WAIT is not busy)."""
    out = []
    for name in sites:
        p = site_port(name, port)
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind((host, p))
            except OSError as e:
                out.append((name, p, e.strerror or str(e)))
    return out


async def serve(sites: Iterable[str] = SITE_NAMES, host: str = DEFAULT_HOST, port: int | None = None,
                log_level: str = "warning") -> None:
    """Serve the given sites until cancelled (``halo sites``)."""
    servers = _servers(sites, host, port, log_level)
    await asyncio.gather(*(s.serve() for s in servers.values()))


class SitesServer:
    """REAL-local in a background thread. ``port=None`` picks free ports (tests); a base port uses the fixed
    layout of ``halo.sites.ports``. ``sites`` are names or ``SiteSpec`` objects. Entering yields ``{site: url}``."""

    def __init__(self, sites: Iterable[str | SiteSpec] = SITE_NAMES, host: str = DEFAULT_HOST, port: int | None = None,
                 log_level: str = "warning"):
        self.sites = tuple(sites)
        self.host = host
        self.port = port
        self.log_level = log_level
        self._servers: dict[str, uvicorn.Server] = {}
        self._thread: threading.Thread | None = None
        self.urls: dict[str, str] = {}

    def start(self) -> dict[str, str]:
        self._servers = _servers(self.sites, self.host, self.port, self.log_level)
        for s in self._servers.values():
            s.install_signal_handlers = lambda: None  # type: ignore[method-assign]  # not the main thread
        self.urls = {n: f"http://{self.host}:{s.config.port}" for n, s in self._servers.items()}

        async def main() -> None:
            await asyncio.gather(*(s.serve() for s in self._servers.values()))

        def run() -> None:
            asyncio.run(main())

        self._thread = threading.Thread(target=run, name="halo-sites", daemon=True)
        self._thread.start()
        deadline = 200
        while deadline and not all(s.started for s in self._servers.values()):
            if not self._thread.is_alive():
                raise RuntimeError(f"REAL-local failed to start on {self.host} (ports {list(self.urls.values())} "
                                   f"in use?); pick another base port (`halo sites --port`)")
            threading.Event().wait(0.05)
            deadline -= 1
        if not deadline:
            raise RuntimeError("REAL-local did not start within 10 s")
        return self.urls

    def stop(self) -> None:
        for s in self._servers.values():
            s.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)

    def app(self, site: str):
        return self._servers[site].config.app

    def __enter__(self) -> dict[str, str]:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
