"""A scripted Tinker API on loopback: enough of the REST surface for the SDK's capability call
(``RestClient().get_server_capabilities()``), answering what the test scripts. Not a Tinker implementation."""

from __future__ import annotations

import contextlib
import http.server
import json
import threading
from collections.abc import Iterator


def _handler(capabilities: dict, requests: list[str]):
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # quiet
            pass

        def _json(self, body: dict, status: int = 200) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            requests.append(f"GET {self.path}")
            if self.path == "/api/v1/get_server_capabilities":
                self._json(capabilities)
            else:
                self._json({"detail": "not found"}, 404)

        def do_POST(self) -> None:
            requests.append(f"POST {self.path}")
            if self.path == "/api/v1/client/config":
                self._json({})  # the SDK's defaults
            else:
                self._json({"detail": "not found"}, 404)

    return Handler


@contextlib.contextmanager
def fake_tinker_server(models: list[dict]) -> Iterator[tuple[str, list[str]]]:
    """``(url, requests)`` of a server whose capability answer lists ``models``."""
    requests: list[str] = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler({"supported_models": models}, requests))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", requests
    finally:
        server.shutdown()
        server.server_close()
