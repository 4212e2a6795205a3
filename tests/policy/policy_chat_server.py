"""TEST FIXTURE: a real HTTP server on loopback that speaks OpenAI's /v1/chat/completions (and vLLM's LoRA
endpoints), scripted by the test. Starlette + uvicorn in a background thread; it records every request.

It is a stand-in for vLLM in tests only: replies come from ``FixtureChatServer.replies`` (texts, cycled per
choice), and ``fail_next`` makes the next requests answer with an HTTP error.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route


class FixtureChatServer:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.replies: list[str] = ['<tool_call>\n{"name": "computer_use", "arguments": '
                                   '{"action": "left_click", "coordinate": [500, 300]}}\n</tool_call>']
        self.tool_calls: list[dict[str, Any]] | None = None  # answer with native tool calls instead of content
        self.fail_next: list[int] = []  # HTTP statuses for the next requests, one each
        self.adapters: dict[str, str] = {}
        self.url = ""
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ protocol
    async def _chat(self, request: Request):
        body = await request.json()
        self.requests.append(body)
        if self.fail_next:
            status = self.fail_next.pop(0)
            return PlainTextResponse(f"fixture failure {status}", status_code=status)
        if body.get("model") not in ("fixture-model", *self.adapters):
            return JSONResponse({"error": {"message": f"The model `{body.get('model')}` does not exist."}},
                                status_code=404)
        choices = []
        for i in range(int(body.get("n", 1))):
            text = self.replies[i % len(self.replies)]
            toks = [text[j:j + 4] for j in range(0, len(text), 4)]  # fixture tokens: 4 characters each
            choice: dict[str, Any] = {"index": i, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": text}}
            if self.tool_calls is not None:
                choice["message"] = {"role": "assistant", "content": None, "tool_calls": self.tool_calls}
            if body.get("logprobs"):
                choice["logprobs"] = {"content": [{"token": t, "logprob": -0.1 * (k + 1), "top_logprobs": []}
                                                  for k, t in enumerate(toks)]}
            if body.get("return_token_ids"):
                choice["token_ids"] = list(range(100, 100 + len(toks)))
            choices.append(choice)
        return JSONResponse({"id": "chatcmpl-fixture", "object": "chat.completion", "model": body.get("model"),
                             "choices": choices, "usage": {"prompt_tokens": 1234, "completion_tokens": 10}})

    async def _models(self, request: Request):
        models = ["fixture-model", *self.adapters]
        return JSONResponse({"object": "list", "data": [{"id": m, "object": "model"} for m in models]})

    async def _load_lora(self, request: Request):
        body = await request.json()
        self.adapters[body["lora_name"]] = body["lora_path"]
        return PlainTextResponse("Success")

    async def _unload_lora(self, request: Request):
        body = await request.json()
        if body["lora_name"] not in self.adapters:
            return PlainTextResponse("not loaded", status_code=404)
        del self.adapters[body["lora_name"]]
        return PlainTextResponse("Success")

    # ------------------------------------------------------------ lifecycle
    def start(self) -> str:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        app = Starlette(routes=[Route("/v1/chat/completions", self._chat, methods=["POST"]),
                                Route("/v1/models", self._models, methods=["GET"]),
                                Route("/v1/load_lora_adapter", self._load_lora, methods=["POST"]),
                                Route("/v1/unload_lora_adapter", self._unload_lora, methods=["POST"])])
        self._server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                                     lifespan="off"))
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("fixture chat server did not start")
            time.sleep(0.02)
        self.url = f"http://127.0.0.1:{port}/v1"
        return self.url

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
            self._thread.join(timeout=10)

    def reset(self) -> None:
        self.requests.clear()
        self.fail_next.clear()
        self.tool_calls = None
        self.adapters.clear()
        self.replies = self.replies[:1]
