"""Run REAL-local: every site in one process, each on its own loopback port (its own origin, as on REAL).

``serve()`` is what ``halo sites`` runs; ``SitesServer`` starts the same servers in a background thread for tests
and for jobs that need sites for their own lifetime (``with SitesServer() as urls: ...``).
"""

from __future__ import annotations

import asyncio
import importlib
import socket
import threading
from typing import Iterable

import uvicorn

from real_local.core import SiteSpec, build_app
from real_local.ports import DEFAULT_HOST, SITE_NAMES, site_port


def load_spec(name: str) -> SiteSpec:
    """Import ``real_local.<name>`` and return its ``SPEC``."""
    if name not in SITE_NAMES:
        raise KeyError(f"REAL-local has no site {name!r}; it serves {', '.join(SITE_NAMES)}")
    return importlib.import_module(f"real_local.{name}").SPEC


def _listen_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (0: a free port), as uvicorn binds (SO_REUSEADDR). The server is handed the
    socket itself: a port probed and released before uvicorn binds it can be taken meanwhile, by another run's
    server or by any client's outgoing connection (ephemeral source ports share the range), as three learning
    checks started at once showed."""
    s = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((host, port))
        s.listen(2048)  # listening at once: only then does the port refuse another SO_REUSEADDR bind (Linux)
    except OSError:
        s.close()
        raise
    return s


def _servers(sites: Iterable[str | SiteSpec], host: str, port: int | None,
             log_level: str) -> dict[str, tuple[uvicorn.Server, socket.socket]]:
    """A uvicorn server per site with its bound socket; every socket is bound before any server starts, and all are
    closed again if one cannot be bound (a fixed port in use)."""
    specs = [site if isinstance(site, SiteSpec) else load_spec(site) for site in sites]
    out: dict[str, tuple[uvicorn.Server, socket.socket]] = {}
    try:
        for spec in specs:
            want = site_port(spec.name, port) if port is not None else 0
            try:
                sock = _listen_socket(host, want)
            except OSError as e:
                raise RuntimeError(f"REAL-local cannot listen on {host}:{want} ({spec.name}): "
                                   f"{e.strerror or e}; pick another base port (`halo sites --port`)") from e
            # keep-alive well past the browsers' idle reuse: a socket the server closes as a request reuses it is an
            # ECONNRESET for that request (uvicorn's default is 5 s)
            cfg = uvicorn.Config(build_app(spec), host=host, port=sock.getsockname()[1], log_level=log_level,
                                 access_log=False, lifespan="off", timeout_keep_alive=75)
            out[spec.name] = (uvicorn.Server(cfg), sock)
    except BaseException:
        for _, sock in out.values():
            sock.close()
        raise
    return out


def busy_ports(sites: Iterable[str], host: str, port: int) -> list[tuple[str, int, str]]:
    """``(site, port, why)`` for each site whose fixed port cannot be listened on at ``host`` now (tried as the server
    will: ``_listen_socket``, with SO_REUSEADDR, so a port in TIME_WAIT is not busy)."""
    out = []
    for name in sites:
        p = site_port(name, port)
        try:
            _listen_socket(host, p).close()
        except OSError as e:
            out.append((name, p, e.strerror or str(e)))
    return out


async def serve(sites: Iterable[str] = SITE_NAMES, host: str = DEFAULT_HOST, port: int | None = None,
                log_level: str = "warning") -> None:
    """Serve the given sites until cancelled (``halo sites``)."""
    servers = _servers(sites, host, port, log_level)
    await asyncio.gather(*(s.serve(sockets=[sock]) for s, sock in servers.values()))


class SitesServer:
    """REAL-local in a background thread. ``port=None`` picks free ports (tests); a base port uses the fixed
    layout of ``real_local.ports``. ``sites`` are names or ``SiteSpec`` objects. Entering yields ``{site: url}``."""

    def __init__(self, sites: Iterable[str | SiteSpec] = SITE_NAMES, host: str = DEFAULT_HOST, port: int | None = None,
                 log_level: str = "warning"):
        self.sites = tuple(sites)
        self.host = host
        self.port = port
        self.log_level = log_level
        self._servers: dict[str, tuple[uvicorn.Server, socket.socket]] = {}
        self._thread: threading.Thread | None = None
        self.urls: dict[str, str] = {}

    def start(self) -> dict[str, str]:
        self._servers = _servers(self.sites, self.host, self.port, self.log_level)
        for s, _ in self._servers.values():
            s.install_signal_handlers = lambda: None  # type: ignore[method-assign]  # not the main thread
        self.urls = {n: f"http://{self.host}:{s.config.port}" for n, (s, _) in self._servers.items()}

        async def main() -> None:
            await asyncio.gather(*(s.serve(sockets=[sock]) for s, sock in self._servers.values()))

        def run() -> None:
            asyncio.run(main())

        self._thread = threading.Thread(target=run, name="halo-sites", daemon=True)
        self._thread.start()
        deadline = 200
        while deadline and not all(s.started for s, _ in self._servers.values()):
            if not self._thread.is_alive():
                raise RuntimeError(f"REAL-local failed to start on {self.host} ({list(self.urls.values())})")
            threading.Event().wait(0.05)
            deadline -= 1
        if not deadline:
            raise RuntimeError("REAL-local did not start within 10 s")
        return self.urls

    def stop(self) -> None:
        for s, _ in self._servers.values():
            s.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)

    def app(self, site: str):
        return self._servers[site][0].config.app

    def __enter__(self) -> dict[str, str]:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
