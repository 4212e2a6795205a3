"""The OpenAI-compatible client against a real loopback HTTP server (the chat-completions test fixture):
request shape, samples with token ids and logprobs, retries on 5xx, errors that say what to do."""

from __future__ import annotations

import base64
import io
import json
import socket

import pytest
from PIL import Image
from policy_helpers import make_obs

from halo.env import actions as A
from halo.errors import PolicyError
from halo.policy.base import DecodingConfig
from halo.policy.openai_backend import OpenAIPolicy, ServerConfig
from halo.policy.prompt import PromptConfig


def client(url: str, **kw) -> OpenAIPolicy:
    decoding = kw.pop("decoding", DecodingConfig(temperature=0.7, max_tokens=300))
    prompt = kw.pop("prompt", PromptConfig())
    server = ServerConfig(base_url=url, model=kw.pop("model", "fixture-model"), backoff_s=0.01,
                          max_retries=kw.pop("max_retries", 3), **kw)
    return OpenAIPolicy(server, decoding=decoding, prompt=prompt)


async def test_n_samples_in_one_request_with_image_logprobs_and_token_ids(chat_server):
    chat_server.replies = [
        '<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [500, 300]}}\n'
        '</tool_call>', "I am not sure what to do."]
    async with client(chat_server.url) as pol:
        samples = await pol.sample_actions(make_obs(), n=3)
    assert len(chat_server.requests) == 1
    req = chat_server.requests[0]
    assert req["n"] == 3 and req["model"] == "fixture-model" and req["logprobs"] is True
    assert req["temperature"] == 0.7 and req["max_tokens"] == 300 and req["return_token_ids"] is True
    image_part = req["messages"][1]["content"][0]
    png = base64.b64decode(image_part["image_url"]["url"].split(",", 1)[1])
    assert Image.open(io.BytesIO(png)).size == (1280, 704)
    assert req["messages"][0]["role"] == "system" and "<tools>" in req["messages"][0]["content"]
    assert [s.action for s in samples] == [A.LeftClick(x=500, y=300), None, A.LeftClick(x=500, y=300)]
    assert "no tool call" in samples[1].error
    for s in samples:
        assert len(s.token_ids) == len(s.logprobs) > 0 and s.prompt_tokens == 1234
        assert s.logprobs[0] == pytest.approx(-0.1)


async def test_greedy_single_sample(chat_server):
    async with client(chat_server.url) as pol:
        s = await pol.sample_single(make_obs())
    assert chat_server.requests[0]["temperature"] == 0 and chat_server.requests[0]["n"] == 1
    assert s.action == A.LeftClick(x=500, y=300)


async def test_server_errors_are_retried_with_backoff(chat_server):
    chat_server.fail_next = [500, 503, 429]
    async with client(chat_server.url, max_retries=3) as pol:
        s = await pol.sample_single(make_obs())
        assert pol.retries == 3
    assert s.action == A.LeftClick(x=500, y=300)
    assert len(chat_server.requests) == 4


async def test_persistent_server_errors_end_in_a_policy_error(chat_server):
    chat_server.fail_next = [500] * 10
    async with client(chat_server.url, max_retries=2) as pol:
        with pytest.raises(PolicyError, match=r"failed after 3 attempts \(last: HTTP 500: fixture failure 500\)"):
            await pol.sample_single(make_obs())
    assert len(chat_server.requests) == 3


async def test_client_errors_are_not_retried(chat_server):
    chat_server.fail_next = [400]
    async with client(chat_server.url) as pol:
        with pytest.raises(PolicyError, match="answered HTTP 400"):
            await pol.sample_single(make_obs())
    assert len(chat_server.requests) == 1


async def test_unknown_model_names_the_models_endpoint(chat_server):
    async with client(chat_server.url, model="no-such-adapter") as pol:
        with pytest.raises(PolicyError, match=r"HTTP 404.*is model 'no-such-adapter' served there"):
            await pol.sample_single(make_obs())


async def test_unreachable_server_names_the_url_and_how_to_start_one():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    async with client(url, max_retries=1) as pol:
        with pytest.raises(PolicyError) as e:
            await pol.sample_single(make_obs())
    msg = str(e.value)
    assert url in msg and "cannot connect" in msg and "halo serve-policy --mode qwen3vl_base" in msg


async def test_native_tool_calls_are_parsed(chat_server):
    chat_server.tool_calls = [{"id": "c1", "type": "function", "function": {
        "name": "browser", "arguments": '{"action": "click", "element": "12"}'}}]
    async with client(chat_server.url) as pol:
        s = await pol.sample_single(make_obs())
    assert s.action == A.Click(element="12")


async def test_constrained_decoding_goes_into_the_request(chat_server):
    dec = DecodingConfig(constrained=True)
    async with client(chat_server.url, decoding=dec, prompt=PromptConfig(include_axtree=True)) as pol:
        s = await pol.sample_single(make_obs())
    # the in-process grammar itself (tool-call tags, compact JSON), as EBNF; the sample names it for the learner
    ebnf = chat_server.requests[0]["structured_outputs"]["grammar"]
    assert '"<tool_call>\\n"' in ebnf and '"\\n</tool_call>"' in ebnf and '(("\\"12\\"") | ("\\"13\\""))' in ebnf
    schema = json.loads(s.grammar)
    element_enums = [c["properties"]["arguments"]["properties"]["element"]["enum"] for c in schema["anyOf"]
                     if "element" in c["properties"]["arguments"]["properties"]]
    assert element_enums and all(e == ["12", "13"] for e in element_enums)
    assert s.sampler_logprobs == s.logprobs
    chat_server.requests.clear()
    async with client(chat_server.url, decoding=dec, guided_style="guided_json") as pol:
        await pol.sample_single(make_obs())
    assert "anyOf" in chat_server.requests[0]["guided_json"]
    chat_server.requests.clear()
    async with client(chat_server.url, decoding=dec, kind="openai") as pol:
        await pol.sample_single(make_obs())
    req = chat_server.requests[0]
    assert req["response_format"]["type"] == "json_schema" and "return_token_ids" not in req


async def test_runtime_lora_adapters(chat_server, tmp_path):
    async with client(chat_server.url, model="grpo-v2") as pol:
        with pytest.raises(PolicyError, match="no PEFT adapter at .*adapter_config.json missing"):
            await pol.load_lora_adapter("grpo-v2", str(tmp_path))  # refused here, before the server is asked
        (tmp_path / "adapter_config.json").write_text("{}")
        await pol.load_lora_adapter("grpo-v2", str(tmp_path))
        assert chat_server.adapters == {"grpo-v2": str(tmp_path)}
        s = await pol.sample_single(make_obs())
        assert chat_server.requests[-1]["model"] == "grpo-v2" and s.action is not None
        await pol.unload_lora_adapter("grpo-v2")
        with pytest.raises(PolicyError, match="enable-lora"):
            await pol.unload_lora_adapter("grpo-v2")


def test_bad_server_settings_are_refused():
    with pytest.raises(ValueError, match="base_url"):
        ServerConfig(base_url="localhost:8000")
    with pytest.raises(ValueError, match="kind"):
        ServerConfig(kind="tgi")


async def test_preflight_check_names_missing_models_and_dead_servers(chat_server):
    async with client(chat_server.url) as pol:
        await pol.check()
    async with client(chat_server.url, model="grpo-v9") as pol:
        with pytest.raises(PolicyError, match=r"does not serve 'grpo-v9' \(it serves fixture-model\)"):
            await pol.check()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    async with client(f"http://127.0.0.1:{port}/v1") as pol:
        with pytest.raises(PolicyError, match=rf"cannot reach the policy server at http://127.0.0.1:{port}/v1"):
            await pol.check()
