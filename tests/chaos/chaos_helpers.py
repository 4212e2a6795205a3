"""Chaos test helpers: real loopback servers that misbehave (a policy server that hangs, answers 500 or garbage; a
REAL-protocol site whose page or /finish hangs) and SIGKILLs of real Chromium processes at random moments."""

from __future__ import annotations

import asyncio
import functools
import http.server
import os
import random
import signal
import socket
import threading
import time
from pathlib import Path
from typing import Any

import psutil

PAGES = Path(__file__).resolve().parents[1] / "env" / "pages"


# ---------------------------------------------------------------- plain pages
class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def serve_pages(directory: Path = PAGES) -> tuple[str, http.server.ThreadingHTTPServer]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(directory)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="chaos-pages", daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server


# ---------------------------------------------------------------- a policy server that misbehaves
class BadPolicyServer:
    """A real HTTP server on loopback. ``mode``: "hang" (accepts, reads, never answers), "500" (every request),
    "garbage" (200 with a non-JSON body), "nochoices" (200 with JSON that has no choices). ``GET /v1/models``
    answers normally unless the mode is "hang", so a preflight passes and the failure hits the steps."""

    def __init__(self, mode: str, models_ok: bool = True):
        self.mode = mode
        self.models_ok = models_ok
        self.requests = 0
        self._sock = socket.socket()
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(64)
        self.url = f"http://127.0.0.1:{self._sock.getsockname()[1]}/v1"
        self._conns: list[socket.socket] = []
        self._stop = False
        threading.Thread(target=self._serve, name=f"bad-policy-{mode}", daemon=True).start()

    def _serve(self) -> None:
        while not self._stop:
            try:
                c, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._handle, args=(c,), daemon=True).start()

    def _handle(self, c: socket.socket) -> None:
        self._conns.append(c)
        try:
            while not self._stop:
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = c.recv(65536)
                    if not chunk:
                        return
                    data += chunk
                head, _, rest = data.partition(b"\r\n\r\n")
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), 0)
                while len(rest) < length:
                    chunk = c.recv(65536)
                    if not chunk:
                        return
                    rest += chunk
                self.requests += 1
                models = head.startswith(b"GET") and b"/models" in head.split(b"\r\n")[0]
                if models and self.models_ok and self.mode != "hang":
                    self._answer(c, 200, b'{"object": "list", "data": [{"id": "chaos-model"}]}')
                elif self.mode == "hang":
                    while not self._stop:
                        time.sleep(0.2)
                    return
                elif self.mode == "500":
                    self._answer(c, 500, b"chaos: internal error")
                elif self.mode == "garbage":
                    self._answer(c, 200, b"\x00\xffnot json at all<html>", "text/html")
                else:
                    self._answer(c, 200, b'{"id": "x", "object": "chat.completion", "choices": []}')
        except OSError:
            return
        finally:
            c.close()

    @staticmethod
    def _answer(c: socket.socket, status: int, body: bytes, ctype: str = "application/json") -> None:
        c.sendall(f"HTTP/1.1 {status} X\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n\r\n".encode()
                  + body)

    def close(self) -> None:
        self._stop = True
        self._sock.close()
        for c in self._conns:
            try:
                c.close()
            except OSError:
                pass


# ---------------------------------------------------------------- a REAL-protocol site that hangs
PAGE = """<!doctype html><html><head><title>Chaos mail</title></head><body><h1>Chaos mail</h1>
<button style="width:200px;height:60px" onclick="document.getElementById('n').textContent = 'clicked'">Click</button>
<p id="n">not clicked</p><a href="/hang">A page that never loads</a></body></html>"""


class ChaosSite:
    """A tiny site speaking REAL's protocol (``real_local.core.build_app``) on loopback. ``hang_paths``: request
    path prefixes that never get an answer (until the site stops), switchable at any time (e.g. {"/finish"})."""

    def __init__(self) -> None:
        import uvicorn
        from starlette.responses import HTMLResponse
        from starlette.routing import Route

        from real_local.core import SiteSpec, build_app

        def seed(task_id):
            return {"clicks": 0}

        async def home(request):
            return HTMLResponse(PAGE)

        spec = SiteSpec(name="gomail", seed=seed, differences=lambda a, b: {}, routes=[Route("/", home)])
        inner = build_app(spec)
        self.hang_paths: set[str] = {"/hang"}
        self.hung = 0
        self._stopping = False

        async def app(scope, receive, send):
            if scope["type"] == "http" and any(scope["path"].startswith(p) for p in self.hang_paths):
                self.hung += 1
                while not self._stopping:
                    await asyncio.sleep(0.1)
                return
            await inner(scope, receive, send)

        cfg = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error", access_log=False, lifespan="off",
                             timeout_graceful_shutdown=1)
        self._server = uvicorn.Server(cfg)
        self._server.install_signal_handlers = lambda: None
        self._thread = threading.Thread(target=lambda: asyncio.run(self._server.serve()), name="chaos-site",
                                        daemon=True)
        self._thread.start()
        for _ in range(200):
            if self._server.started:
                break
            time.sleep(0.05)
        assert self._server.started, "chaos site did not start"
        self.url = f"http://127.0.0.1:{self._server.servers[0].sockets[0].getsockname()[1]}"

    def task(self, task_id: str = "v2.gomail-1") -> Any:
        """A protocol task on this site (REAL-local style: /config, /finish read at reset and at the end)."""
        from halo.tasks.types import Task

        return Task(id=task_id, version="v2", name=task_id.split(".")[-1], site="gomail", goal="Click the button.",
                    base_url=self.url, remote_url=self.url, local=True, points=1.0, eval_scripts=(), protocol=True)

    def close(self) -> None:
        self._stopping = True
        self._server.should_exit = True
        self._thread.join(timeout=5)


# ---------------------------------------------------------------- killing Chromium
KINDS = ("main", "zygote", "gpu-process", "renderer", "utility", "any")


def chromium_processes(root_pids: list[int]) -> list[tuple[int, str]]:
    """``(pid, kind)`` of every Chromium process among ``root_pids`` and their descendants (kind: main, zygote,
    renderer, gpu-process, utility)."""
    out = []
    seen = set()
    for root in root_pids:
        try:
            procs = [psutil.Process(root), *psutil.Process(root).children(recursive=True)]
        except psutil.Error:
            continue
        for p in procs:
            try:
                cmd = p.cmdline()
            except psutil.Error:
                continue
            if p.pid in seen or not cmd or "chrom" not in os.path.basename(cmd[0]):
                continue
            seen.add(p.pid)
            kind = next((a.split("=", 1)[1] for a in cmd if a.startswith("--type=")), "main")
            out.append((p.pid, kind))
    return out


def kill_one(procs: list[tuple[int, str]], rng: random.Random, kind: str = "any") -> str | None:
    """SIGKILL one Chromium process of ``kind`` (any: a random one, main included); what was killed, or None."""
    pool = [p for p in procs if kind == "any" or p[1] == kind]
    if not pool:
        return None
    pid, k = rng.choice(pool)
    if k == "zygote":  # Chromium runs two; kill both, as a crash of the zygote host would
        victims = [p for p, kk in procs if kk == "zygote"]
    else:
        victims = [pid]
    for v in victims:
        try:
            os.kill(v, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return k


async def killer(pool: Any, rng: random.Random, kills: int, between: tuple[float, float],
                 log: list[str]) -> None:
    """Kill a random part of ``pool``'s browser ``kills`` times, at random moments ``between`` seconds apart."""
    for _ in range(kills):
        await asyncio.sleep(rng.uniform(*between))
        kind = rng.choice(KINDS)
        for _ in range(100):  # the browser may be relaunching: try again until something is killed
            k = kill_one(chromium_processes(pool.browser_pids()[:1]), rng, kind)
            if k is not None:
                log.append(k)
                break
            await asyncio.sleep(0.1)
