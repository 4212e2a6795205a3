"""agisdk's own harness on REAL-local, unchanged: REAL's hosted origins answered by REAL-local, one switch.

    from real_local.hosted import route_hosted
    from real_local.server import SitesServer

    with SitesServer() as urls, route_hosted(urls):
        REAL.harness(...)  # or agisdk's BrowserEnv: https://real-gomail-....vercel.app is served by REAL-local

Every agisdk task names its site by a hosted origin (``https://real-gomail-1glk4rtaf-real-sites.vercel.app``,
``https://amazon-omnizon-...vercel.app``). While the context manager is open, every Playwright browser context this
process makes (sync or async API; agisdk's env uses the sync one) goes through a loopback proxy that answers those
origins from REAL-local's matching port: it accepts the browser's ``CONNECT`` for a hosted host, ends TLS with a
self-signed ``*.vercel.app`` certificate (the context is told to ignore certificate errors) and relays the plain
HTTP to the site. The page keeps its hosted URL, cookies stay per origin as on REAL, and agisdk's ``/config``,
``/finish`` and ``/submit`` reach REAL-local's, which speak the same protocol. The proxy runs on its own thread:
Playwright's own request routing would not do, since the sync API runs route handlers only while the caller is
inside a Playwright call, and agisdk sleeps 0.5 s after each action before it looks (a page then loads half).
Any other host is refused (REAL-local is offline by design). Nothing of agisdk is edited.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import ssl
import threading
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

# real-<site>-<deployment>.vercel.app, real-<site>.vercel.app, and v2 Omnizon's amazon-omnizon-... deployment
HOSTED = re.compile(r"^(?:real-(?P<site>[a-z]+)(?:-[^.]*)?|(?P<omnizon>amazon-omnizon)[^.]*)\.vercel\.app$")
TLS_DIR = Path(__file__).parent / "hosted_tls"  # a self-signed *.vercel.app certificate, for this proxy only
MAX_HEAD = 16 * 1024  # a CONNECT request's head


def hosted_site(url_or_host: str) -> str | None:
    """The REAL site a hosted URL or host belongs to (``gomail``), None for any other."""
    host = urlsplit(url_or_host).hostname if "://" in url_or_host else url_or_host.split(":")[0]
    m = HOSTED.match(host or "")
    if not m:
        return None
    return "omnizon" if m.group("omnizon") else m.group("site")


class HostedProxy:
    """The loopback proxy (see the module doc): ``start()`` serves on its own thread, ``url`` is what a browser
    context is given, ``served`` counts the hosted connections relayed, ``refused`` the others."""

    def __init__(self, urls: Mapping[str, str], host: str = "127.0.0.1"):
        if not urls:
            raise ValueError("route_hosted needs REAL-local's site URLs ({site: 'http://127.0.0.1:PORT'})")
        self.targets = {s: (urlsplit(u).hostname or host, urlsplit(u).port or 80) for s, u in urls.items()}
        self.host, self.port = host, 0
        self.served = self.refused = 0
        self._tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self._tls.load_cert_chain(TLS_DIR / "cert.pem", TLS_DIR / "key.pem")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: Any = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> HostedProxy:
        ready = threading.Event()
        self._loop = asyncio.new_event_loop()

        async def serve() -> None:
            self._server = await asyncio.start_server(self._client, self.host, 0)
            self.port = self._server.sockets[0].getsockname()[1]
            ready.set()

        def run() -> None:
            asyncio.set_event_loop(self._loop)
            self._loop.run_until_complete(serve())
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, name="real-local-hosted-proxy", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("the hosted-origin proxy did not start within 10 s")
        return self

    def stop(self) -> None:
        if self._loop is None:
            return

        async def close() -> None:
            self._server.close()
            for t in [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
                t.cancel()

        asyncio.run_coroutine_threadsafe(close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()
        self._loop = None

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            writer.close()
            return
        line = head.split(b"\r\n", 1)[0].decode("latin-1")
        parts = line.split()
        site = hosted_site(parts[1]) if len(parts) == 3 and parts[0] == "CONNECT" else None
        if site is None or site not in self.targets or len(head) > MAX_HEAD:
            self.refused += 1  # plain-HTTP proxying and other hosts: REAL-local serves REAL's sites only
            writer.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            await _close(writer)
            return
        try:
            up_r, up_w = await asyncio.open_connection(*self.targets[site])
        except OSError:
            writer.write(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            await _close(writer)
            return
        self.served += 1
        writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
        await writer.drain()
        try:
            await writer.start_tls(self._tls)
        except (ssl.SSLError, ConnectionError, OSError):
            await _close(writer)
            await _close(up_w)
            return
        await asyncio.gather(_pipe(reader, up_w), _pipe(up_r, writer))


async def _pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
    try:
        while data := await src.read(65536):
            dst.write(data)
            await dst.drain()
    except (ConnectionError, OSError, ssl.SSLError, asyncio.CancelledError):
        pass
    finally:
        await _close(dst)


async def _close(w: asyncio.StreamWriter) -> None:
    with contextlib.suppress(Exception):
        w.close()
        await w.wait_closed()


@contextlib.contextmanager
def route_hosted(urls: Mapping[str, str]) -> Iterator[HostedProxy]:
    """While open, every new Playwright browser context of this process reaches REAL's hosted sites on REAL-local
    (``urls``: site -> base URL, as ``SitesServer`` yields them). Yields the proxy (``served`` counts connections)."""
    from playwright.async_api import Browser as AsyncBrowser
    from playwright.async_api import BrowserType as AsyncBrowserType
    from playwright.sync_api import Browser as SyncBrowser
    from playwright.sync_api import BrowserType as SyncBrowserType

    proxy = HostedProxy(urls).start()
    settings = {"proxy": {"server": proxy.url}, "ignore_https_errors": True}
    saved = {(cls, name): getattr(cls, name) for cls in (SyncBrowser, AsyncBrowser) for name in ("new_context",)}
    saved.update({(cls, "launch_persistent_context"): cls.launch_persistent_context
                  for cls in (SyncBrowserType, AsyncBrowserType)})

    def wrap(orig: Any) -> Any:
        def made(self: Any, *a: Any, **kw: Any) -> Any:
            return orig(self, *a, **{**kw, **settings})  # the async API's returns its coroutine as it is
        return made

    for (cls, name), orig in saved.items():
        setattr(cls, name, wrap(orig))
    try:
        yield proxy
    finally:
        for (cls, name), orig in saved.items():
            setattr(cls, name, orig)
        proxy.stop()


@contextlib.contextmanager
def offline(sites: Iterable[str] | None = None) -> Iterator[dict[str, str]]:
    """The one switch for agisdk's harness: serve REAL-local (all eleven sites, free loopback ports) and route every
    Playwright context this process opens from REAL's hosted origins to it, until the block ends. Yields
    ``{site: local URL}``.

        with offline():
            REAL.harness(model="gpt-4o", task_version="v2", task_name="v2.gomail-1").run()
    """
    from real_local.ports import SITE_NAMES
    from real_local.server import SitesServer

    with SitesServer(tuple(sites) if sites else SITE_NAMES) as urls, route_hosted(urls):
        yield urls
