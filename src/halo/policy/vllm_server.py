"""A vLLM server for a mode, run as a child process on loopback: started, waited for (bounded), stopped or killed.

Jobs and tests that need a real server start one here (``halo serve-policy`` runs the same command in the
foreground). The server runs in its own process group, so stopping it also stops vLLM's engine processes.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import IO, Self

import httpx

from halo.errors import PolicyError
from halo.policy.modes import ModeConfig
from halo.policy.serve import ServeCommand, check_installed, check_model, vllm_command


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class VLLMServer:
    """``with VLLMServer(mode, log_path=...) as srv:`` serves ``mode`` on ``srv.base_url`` (a free port unless the
    mode's is asked for). ``start`` returns once ``GET /v1/models`` answers, or raises ``PolicyError`` with the
    end of the server's log within ``startup_timeout_s``."""

    def __init__(self, mode: ModeConfig, log_path: str | os.PathLike, port: int | None = None,
                 startup_timeout_s: float = 300.0, python: str | None = None):
        self.port = port or free_port()
        self.mode = mode.model_copy(update={"serve": mode.serve.model_copy(update={"port": self.port})})
        self.cmd: ServeCommand = vllm_command(self.mode, python)
        self.log_path = Path(log_path)
        self.startup_timeout_s = startup_timeout_s
        self.proc: subprocess.Popen | None = None
        self._log: IO[bytes] | None = None
        self.startup_s = 0.0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> Self:
        check_installed(self.cmd)
        check_model(self.mode)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - held open for the server's lifetime
        t0 = time.monotonic()
        self.proc = subprocess.Popen(self.cmd.argv, env={**os.environ, **self.cmd.env}, stdout=self._log,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        while True:
            if self.proc.poll() is not None:
                self._close_log()
                raise PolicyError(f"the vLLM server exited with code {self.proc.returncode} while starting; the end "
                                  f"of its log ({self.log_path}):\n{self.log_tail()}")
            try:
                if httpx.get(f"{self.base_url}/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() - t0 > self.startup_timeout_s:
                self.stop()
                raise PolicyError(f"the vLLM server did not answer within {self.startup_timeout_s:.0f} s; the end "
                                  f"of its log ({self.log_path}):\n{self.log_tail()}")
            time.sleep(1.0)
        self._warm_up(t0)
        self.startup_s = time.monotonic() - t0
        return self

    def _warm_up(self, t0: float) -> None:
        """One image chat of one token before anyone else asks: a CPU server's first multimodal request builds
        its caches and can take tens of seconds on a busy machine, past a client's per-request timeout."""
        import base64
        import io

        from PIL import Image

        buf = io.BytesIO()
        Image.new("RGB", (64, 64), (200, 200, 200)).save(buf, format="PNG")
        url = "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()
        left = max(60.0, self.startup_timeout_s - (time.monotonic() - t0))
        try:
            model = httpx.get(f"{self.base_url}/models", timeout=10).json()["data"][0]["id"]
            body = {"model": model, "max_tokens": 1, "messages": [{"role": "user", "content": [
                {"type": "image_url", "image_url": {"url": url}}, {"type": "text", "text": "warm up"}]}]}
            httpx.post(f"{self.base_url}/chat/completions", json=body, timeout=left).raise_for_status()
        except (httpx.HTTPError, KeyError, IndexError, ValueError) as e:
            self.stop()
            raise PolicyError(f"the vLLM server started but its first request failed ({type(e).__name__}: {e}); "
                              f"the end of its log ({self.log_path}):\n{self.log_tail()}") from None

    def log_tail(self, lines: int = 25) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def kill(self) -> None:
        """SIGKILL the server and its engine processes at once (what a crash looks like to its clients)."""
        self._signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(timeout=30)
        self._close_log()

    def stop(self, grace_s: float = 20.0) -> None:
        if self.proc is None or self.proc.poll() is not None:
            self._signal(signal.SIGKILL)  # engine processes a dead server left behind
            self._close_log()
            return
        self._signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            pass
        self._signal(signal.SIGKILL)
        self.proc.wait(timeout=30)
        self._close_log()

    def _signal(self, sig: int) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, sig)  # the group this server leads (start_new_session)
        except (ProcessLookupError, PermissionError):
            pass

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
