"""A policy served over the OpenAI chat-completions protocol: vLLM (base model or a LoRA adapter by name),
OpenAI itself (the GPT baseline), or any compatible server.

One request carries the base64 screenshot and asks for ``n`` samples with logprobs. Only named transient
failures are retried (connection refused or reset, timeouts, HTTP 408/429/5xx), with exponential backoff; any
other answer is a ``PolicyError`` carrying the server's own message. Each request has a deadline (``timeout_s``)
and all tries of one call share a budget (``retry_budget_s``): a server that never answers fails the step within
about a minute, with a warning line at each retry, never 5 x 120 s in silence.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from halo.env.types import Observation
from halo.errors import PolicyError
from halo.policy.action_space import page_schema
from halo.policy.base import Completion, DecodingConfig, PolicyBackend
from halo.policy.prompt import Prompt, PromptConfig

log = logging.getLogger(__name__)

TRANSIENT_STATUS = frozenset({408, 429, 500, 502, 503, 504})
TRANSIENT_ERRORS = (httpx.ConnectError, httpx.ConnectTimeout, httpx.ReadTimeout, httpx.WriteTimeout,
                    httpx.PoolTimeout, httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)


@dataclass(frozen=True)
class ServerConfig:
    """Where the policy is served. ``kind`` "vllm" adds vLLM's extras (token ids, top_k, guided decoding)."""

    base_url: str = "http://127.0.0.1:8000/v1"
    model: str = "Qwen/Qwen3-VL-8B-Instruct"  # or a LoRA adapter's served name
    kind: str = "vllm"  # "vllm" | "openai"
    api_key_env: str | None = None  # name of the environment variable holding the key, if the server wants one
    timeout_s: float = 30.0  # one request's deadline
    max_retries: int = 4
    retry_budget_s: float = 60.0  # every try of one call, backoff included, fits in this
    backoff_s: float = 1.0  # first retry delay; doubles each retry
    max_backoff_s: float = 30.0
    guided_style: str = "structured_outputs"  # vLLM >= 0.11; "guided_json" for older servers
    start_hint: str = "halo serve-policy --mode qwen3vl_base"
    adapter: str | None = None  # vLLM: a PEFT adapter directory that ``check()`` loads as ``model`` (runtime LoRA)

    def __post_init__(self) -> None:
        if self.kind not in ("vllm", "openai"):
            raise ValueError(f"server kind must be 'vllm' or 'openai', got {self.kind!r}")
        if self.guided_style not in ("structured_outputs", "guided_json"):
            raise ValueError(f"guided_style must be structured_outputs or guided_json, got {self.guided_style!r}")
        if not self.base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must start with http:// or https://, got {self.base_url!r}")
        for k in ("timeout_s", "retry_budget_s"):
            if not getattr(self, k) > 0:
                raise ValueError(f"server {k} must be > 0, got {getattr(self, k)}")
        if self.max_retries < 0:
            raise ValueError(f"server max_retries must be >= 0, got {self.max_retries}")


class OpenAIPolicy(PolicyBackend):
    name = "openai"

    def __init__(self, server: ServerConfig | None = None, decoding: DecodingConfig | None = None,
                 prompt: PromptConfig | None = None, client: httpx.AsyncClient | None = None):
        super().__init__(decoding, prompt)
        self.server = server or ServerConfig()
        self.url = self.server.base_url.rstrip("/")
        headers = {}
        key = os.environ.get(self.server.api_key_env) if self.server.api_key_env else None
        if key:
            headers["Authorization"] = f"Bearer {key}"
        self._client = client or httpx.AsyncClient(timeout=self._timeout(self.server.timeout_s), headers=headers)
        self.retries = 0  # retried requests so far (for metrics)
        # vLLM with hot-loaded adapters (rl/lora_sync.LoraSync sets itself here): each request acquires its model
        # name, whose adapter version its completions record (``Completion.version``), and releases it when answered
        self.lora_versions: Any = None

    def request_body(self, prompt: Prompt, obs: Observation, n: int, temperature: float) -> dict[str, Any]:
        d, s = self.decoding, self.server
        body: dict[str, Any] = {"model": s.model, "messages": prompt.openai_messages(), "n": n,
                                "temperature": temperature, "max_tokens": d.max_tokens, "logprobs": True}
        if temperature > 0 and d.top_p < 1 and s.kind == "openai":
            body["top_p"] = d.top_p
        if d.seed is not None:
            body["seed"] = d.seed
        schema = None
        if d.constrained:
            schema = page_schema(obs, self.prompt_config)
        if s.kind == "vllm":
            body["return_token_ids"] = True
            body["skip_special_tokens"] = True
            if temperature > 0:  # explicit: a server may otherwise apply the model's generation_config defaults
                body.update(top_p=d.top_p, top_k=d.top_k or -1, repetition_penalty=1.0)
            if schema is not None and s.guided_style == "structured_outputs":
                from halo.policy.grammar import tool_call_ebnf

                body["structured_outputs"] = {"grammar": tool_call_ebnf(schema)}  # the in-process grammar, exactly
            elif schema is not None:
                body["guided_json"] = schema
        elif schema is not None:
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": "tool_call", "schema": schema, "strict": False}}
        return body

    async def complete(self, prompt: Prompt, obs: Observation, n: int, temperature: float) -> list[Completion]:
        body = self.request_body(prompt, obs, n, temperature)
        versions, name = self.lora_versions, body["model"]
        # the name's adapter version, and a hold on the name until the answer is in: a sync does not unload it under
        # this request (taken with no await after reading the name, so no switch comes in between)
        version = versions.acquire(name) if versions is not None else None
        try:
            data = await self.post("/chat/completions", body)
        finally:
            if versions is not None:
                await versions.release(name)
        try:
            out = completions_from_response(data)
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise PolicyError(f"{self.url}/chat/completions answered without usable choices ({e!r}): "
                              f"{json.dumps(data)[:300]}") from None
        if version is not None:
            out = [dataclasses.replace(c, version=version) for c in out]
        if "structured_outputs" in body:
            # vLLM masks the logits with the grammar before it reports logprobs: they are of the distribution
            # actually sampled, and the grammar's key lets a learner replay the same mask (as in-process)
            key = self.grammar_key(obs)
            out = [dataclasses.replace(c, sampler_logprobs=c.logprobs, grammar=key) for c in out]
        return out

    @staticmethod
    def _timeout(seconds: float) -> httpx.Timeout:
        return httpx.Timeout(seconds, connect=min(seconds, 10.0))

    async def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST with retries on transient failures, all within ``retry_budget_s``; a PolicyError names the URL and
        what to do."""
        s = self.server
        url = self.url + path
        last = ""
        t0 = time.monotonic()
        attempts = 0
        for attempt in range(s.max_retries + 1):
            left = s.retry_budget_s - (time.monotonic() - t0)
            if attempt:
                delay = min(s.backoff_s * 2 ** (attempt - 1), s.max_backoff_s)
                if left - delay < 1.0:
                    break  # no time left for another try
                self.retries += 1
                log.warning("policy server %s: %s; retry %d of %d in %.0f s (%.0f s left of the %.0f s retry "
                            "budget)", url, last, attempt, s.max_retries, delay, left - delay, s.retry_budget_s)
                await asyncio.sleep(delay)
                left -= delay
            limit = min(s.timeout_s, left)
            attempts += 1
            try:
                # httpx's timeout is per network operation; wait_for bounds the whole request (a trickling server)
                r = await asyncio.wait_for(self._client.post(url, json=body, timeout=self._timeout(limit)), limit + 1)
            except TimeoutError:
                last = f"no answer within {limit:.0f} s"
                continue
            except TRANSIENT_ERRORS as e:
                last = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
                if isinstance(e, (httpx.ConnectError, httpx.ConnectTimeout)):
                    last = f"cannot connect ({last})"
                elif isinstance(e, httpx.TimeoutException):
                    last = f"no answer within {limit:.0f} s ({last})"
                continue
            except httpx.HTTPError as e:
                raise PolicyError(f"request to {url} failed: {type(e).__name__}: {e}") from None
            if r.status_code in TRANSIENT_STATUS:
                last = f"HTTP {r.status_code}: {r.text[:200]}"
                continue
            if r.status_code >= 400:
                raise PolicyError(f"{url} answered HTTP {r.status_code}: {r.text[:500]}"
                                  + (f" (is model {s.model!r} served there? check {self.url}/models)"
                                     if r.status_code == 404 else ""))
            try:
                return r.json()
            except ValueError:
                raise PolicyError(f"{url} answered HTTP {r.status_code} with non-JSON: {r.text[:200]!r}") from None
        hint = (f"; start a server with `{s.start_hint}` (after `make vllm`) or point --base-url at one"
                if "connect" in last else "")
        if not hint and "no answer" in last:
            hint = (f"; the server accepts connections but does not answer: is it overloaded or stuck? check "
                    f"{self.url}/models, or raise the mode's server.timeout_s / retry_budget_s")
        raise PolicyError(f"policy server at {self.url} failed after {attempts} attempt{'s' * (attempts != 1)} "
                          f"(last: {last}) in {time.monotonic() - t0:.0f} s{hint}")

    async def check(self) -> None:
        """Fail fast before a run: the server answers ``GET /models`` with JSON listing the models it serves, and the
        mode's model (a served adapter's name, for vLLM) is one of them. With an adapter, it is loaded first under
        the model's name (replacing an older version of it), so that name serves exactly it."""
        if self.server.adapter:
            await self.load_lora_adapter(self.server.model, str(Path(self.server.adapter).resolve()), inplace=True)
        try:
            r = await self._client.get(self.url + "/models", timeout=10)
        except httpx.HTTPError as e:
            raise PolicyError(f"cannot reach the policy server at {self.url} ({type(e).__name__}: {e}); start one "
                              f"with `{self.server.start_hint}` (after `make vllm`) or point --base-url at one") from None
        if r.status_code >= 400:
            raise PolicyError(f"{self.url}/models answered HTTP {r.status_code}: {r.text[:200]}")
        fix = (f"is {self.url} an OpenAI-compatible server (vLLM's base URL ends in /v1)? check it with `halo smoke "
               f"--policy-url {self.url}` or start one with `{self.server.start_hint}`")
        try:
            data = r.json()
        except ValueError:
            raise PolicyError(f"{self.url}/models answered HTTP {r.status_code} with non-JSON "
                              f"({r.text[:120]!r}); {fix}") from None
        models = data.get("data") if isinstance(data, dict) else None
        if not isinstance(models, list) or not all(isinstance(m, dict) for m in models):
            raise PolicyError(f"{self.url}/models answered JSON without a list of models ({r.text[:120]!r}); "
                              f"{fix}")
        served = [str(m.get("id")) for m in models if m.get("id") is not None]
        if not served:
            raise PolicyError(f"{self.url} serves no model (GET /models listed none); {fix}")
        if self.server.model not in served:
            shown = ", ".join(served[:10]) + (f" and {len(served) - 10} more" if len(served) > 10 else "")
            raise PolicyError(f"{self.url} does not serve {self.server.model!r} (it serves {shown}); "
                              + ("load the adapter or fix the mode's model" if self.server.kind == "vllm" else
                                 "fix the mode's model (or its server.base_url)"))

    async def load_lora_adapter(self, name: str, path: str, inplace: bool = False) -> None:
        """Ask vLLM (runtime LoRA updating on) to load an adapter served as ``model=name`` (``inplace``: or replace
        the one loaded under that name)."""
        if not os.path.isfile(os.path.join(path, "adapter_config.json")):
            raise PolicyError(f"no PEFT adapter at {path} (adapter_config.json missing): train one first (`halo "
                              "train grpo --run-name grpo ...` feeds mode qwen3vl_grpo) or fix --adapter")
        body: dict[str, Any] = {"lora_name": name, "lora_path": path}
        if inplace:
            body["load_inplace"] = True
        await self._admin("/load_lora_adapter", body)

    async def unload_lora_adapter(self, name: str) -> None:
        await self._admin("/unload_lora_adapter", {"lora_name": name})

    async def _admin(self, path: str, body: dict[str, Any]) -> None:
        try:
            r = await self._client.post(self.url + path, json=body, timeout=self._timeout(self.server.timeout_s))
        except httpx.HTTPError as e:
            raise PolicyError(f"{self.url}{path} failed ({type(e).__name__}: {e}); is the vLLM server at {self.url} "
                              f"still up? (`halo smoke --policy-url {self.url}`)") from None
        if r.status_code >= 400:
            raise PolicyError(f"{self.url}{path} answered HTTP {r.status_code}: {r.text[:300]} (vLLM needs "
                              "--enable-lora and VLLM_ALLOW_RUNTIME_LORA_UPDATING=True)")

    async def aclose(self) -> None:
        await self._client.aclose()


def completions_from_response(data: dict[str, Any]) -> list[Completion]:
    """Choices of a chat-completions response, in index order. Native tool calls become ``<tool_call>`` text."""
    usage = data.get("usage") or {}
    out = []
    for ch in sorted(data["choices"], key=lambda c: c.get("index", 0)):
        msg = ch.get("message") or {}
        text = msg.get("content") or ""
        for call in msg.get("tool_calls") or []:
            fn = call.get("function") or {}
            args = fn.get("arguments")
            try:
                args = json.loads(args) if isinstance(args, str) else args
            except ValueError:
                pass  # leave the string: the parser reports or repairs it
            text += "\n<tool_call>\n" + json.dumps({"name": fn.get("name"), "arguments": args}) + "\n</tool_call>"
        content = ((ch.get("logprobs") or {}).get("content")) or None
        logprobs = tuple(float(t["logprob"]) for t in content) if content else None
        token_ids = ch.get("token_ids")
        if token_ids is None and content and all(str(t.get("token", "")).startswith("token_id:") for t in content):
            token_ids = [int(t["token"].split(":", 1)[1]) for t in content]
        out.append(Completion(text=text, token_ids=tuple(token_ids) if token_ids is not None else None,
                              logprobs=logprobs, finish_reason=ch.get("finish_reason"),
                              prompt_tokens=usage.get("prompt_tokens")))
    if not out:
        raise ValueError("no choices")
    return out
