"""Tinker as it is today: a default model the hosted service serves, with the renderer tinker-cookbook recommends;
a preflight that asks the server (the SDK's capability call) which models and losses it offers before anything
starts; ``parse_response`` read correctly under its old ``(Message, bool)`` and new
``(Message, ParseTermination)`` returns; a self-hosted Tinker API through ``--tinker-url``."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
import typer
from fake_tinker_server import fake_tinker_server
from typer.testing import CliRunner

from halo.errors import ConfigError
from halo.jobs.tinker import TinkerRunConfig
from halo.policy.tinker.models import (
    DEFAULT_MODEL,
    DEFAULT_RENDERER,
    HOSTED_VISION_MODELS,
    RETIRED,
    ImageGeometry,
    image_geometry,
    recommended_renderer,
    retirement_note,
)
from halo.policy.tinker.preflight import (
    SELF_HOSTED_LOSS_FNS,
    Capabilities,
    ServerModel,
    capabilities_from_response,
    check_capabilities,
    fetch_capabilities,
    hosted_loss_fns,
    preflight,
)
from halo.policy.tinker.render import Termination, decode_action, termination_of

HOSTED = "https://tinker.thinkingmachines.dev/services/tinker-prod"
SELF_HOSTED = "http://gpu-box.internal:8000"
VL30 = "Qwen/Qwen3-VL-30B-A3B-Instruct"
VL8 = "Qwen/Qwen3-VL-8B-Instruct"


def hosted_answer(*names: str, **flags) -> SimpleNamespace:
    """A capability answer shaped like the SDK's ``GetServerCapabilitiesResponse``."""
    return SimpleNamespace(supported_models=[SimpleNamespace(model_name=n, trainable=flags.get("trainable", True),
                                                             sampleable=True) for n in names])


def run(**kw) -> TinkerRunConfig:
    return TinkerRunConfig.create(**{"tasks": "v2.gomail-14", "log_path": "/tmp/halo-tinker-test", **kw})


# --- the default model and its renderer --------------------------------------------------------------------------

def test_default_is_a_served_vision_model_with_cookbooks_renderer():
    from tinker_cookbook import model_info

    assert DEFAULT_MODEL == "Qwen/Qwen3.6-35B-A3B" and DEFAULT_MODEL in HOSTED_VISION_MODELS
    assert DEFAULT_MODEL not in RETIRED
    attrs = model_info.get_model_attributes(DEFAULT_MODEL)
    assert attrs.is_vl and attrs.is_chat
    assert DEFAULT_RENDERER == model_info.get_recommended_renderer_name(DEFAULT_MODEL) == "qwen3_5"
    r = run()
    assert (r.model_name, r.renderer_name) == (DEFAULT_MODEL, "qwen3_5")


def test_mode_qwen3vl_tinker_defaults_to_the_served_model():
    from halo.policy.modes import load_modes

    mode = load_modes()["qwen3vl_tinker"]
    assert mode.backend == "tinker" and mode.model == DEFAULT_MODEL
    assert "retired 2026-06-12" in mode.description


def test_other_models_get_their_own_renderer_and_a_retirement_note(tiny_dir):
    assert run(model_name=VL30).renderer_name == "qwen3_vl_instruct"
    assert run(model_name=VL8).renderer_name == "qwen3_vl_instruct"  # not in model_info: Qwen3-VL's template
    assert run(model_name="Qwen/Qwen3.5-4B").renderer_name == "qwen3_5"
    assert run(model_name=tiny_dir).renderer_name == "qwen3_vl_instruct"  # a local dir: its config's model_type
    assert run(model_name=VL30, renderer_name="qwen3_vl").renderer_name == "qwen3_vl"  # --renderer wins
    note = retirement_note(VL30)
    assert note is not None and "retired from hosted Tinker on 2026-06-12" in note and "--tinker-url" in note
    assert retirement_note(DEFAULT_MODEL) is None


@pytest.mark.parametrize("kw, message", [
    ({"model_name": "acme/TextOnly-7B"}, "knows no renderer for 'acme/TextOnly-7B'; pass --renderer"),
    ({"renderer_name": "qwen3"}, "renderer 'qwen3' takes no images"),
    ({"model_name": " "}, "--model is empty"),
    ({"base_url": "gpu-box:8000"}, "--tinker-url must start with http:// or https://"),
])
def test_bad_model_choices_are_one_line_errors(kw, message):
    with pytest.raises(ConfigError, match=message) as e:
        run(**kw)
    assert "\n" not in str(e.value)


def test_unknown_local_model_type_names_the_choices(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "llama"}))
    with pytest.raises(ConfigError, match="model_type 'llama'.*pass --renderer"):
        recommended_renderer(str(tmp_path))


# --- image token accounting from the model's processor config ---------------------------------------------------

def processor_dir(tmp_path, patch: int, merge: int, min_px: int = 65536, max_px: int = 1 << 24):
    cfg = {"image_processor_type": "Qwen2VLImageProcessor", "patch_size": patch, "merge_size": merge,
           "temporal_patch_size": 2, "size": {"shortest_edge": min_px, "longest_edge": max_px},
           "image_mean": [0.5] * 3, "image_std": [0.5] * 3}
    (tmp_path / "preprocessor_config.json").write_text(json.dumps(cfg))
    return str(tmp_path)


def test_image_geometry_comes_from_the_processor_config(tiny_dir, tmp_path):
    g = image_geometry(tiny_dir)
    assert (g.patch_size, g.merge_size, g.factor, g.min_pixels) == (16, 2, 32, 65536)
    assert g.tokens(416, 224) == 13 * 7
    g14 = image_geometry(processor_dir(tmp_path, patch=14, merge=2, min_px=3136))
    assert (g14.factor, g14.min_pixels) == (28, 3136) and g14.tokens(420, 224) == 15 * 8
    with pytest.raises(ValueError, match="28-pixel grid"):
        g14.tokens(416, 224)
    # what the processor itself counts agrees with the geometry (patches / merge^2)
    from halo.policy.tinker.models import load_image_processor

    ip = load_image_processor(str(tmp_path))
    assert ip.get_number_of_image_patches(224, 420, images_kwargs={}) // g14.merge_size ** 2 == g14.tokens(420, 224)
    with pytest.raises(ConfigError, match="lacks patch_size"):
        ImageGeometry.from_processor(SimpleNamespace(size={"shortest_edge": 1, "longest_edge": 2}, merge_size=2))


def test_renderer_image_tokens_match_the_geometry(tiny_dir):
    from policy_like import make_obs
    from tinker_helpers import FAST_PROMPT

    import tinker
    from halo.policy.tinker.render import load_renderer, render_observation

    for name in ("qwen3_vl_instruct", "qwen3_5"):
        mi, prompt = render_observation(load_renderer(name, tiny_dir), make_obs(), FAST_PROMPT)
        (img,) = [c for c in mi.chunks if isinstance(c, tinker.types.ImageChunk)]
        assert img.expected_tokens == image_geometry(tiny_dir).tokens(*prompt.image_size)


# --- the qwen3_5 renderer as HALO uses it ------------------------------------------------------------------------

def test_qwen3_5_prompt_follows_the_chat_template(tiny_dir):
    """Qwen3.5/3.6's chat template for a system turn and a user turn (image, then text) with the generation prompt
    and thinking on: ``<|im_start|>system\\nS<|im_end|>\\n<|im_start|>user\\n<|vision_start|><|image_pad|>...
    <|vision_end|>T<|im_end|>\\n<|im_start|>assistant\\n<think>\\n``."""
    from policy_like import make_obs
    from tinker_helpers import FAST_PROMPT

    import tinker
    from halo.policy.tinker.render import load_renderer, render_observation

    r = load_renderer("qwen3_5", tiny_dir)
    mi, prompt = render_observation(r, make_obs(), FAST_PROMPT)
    parts = []
    for c in mi.chunks:
        if isinstance(c, tinker.types.EncodedTextChunk):
            parts.append(r.tokenizer.decode(c.tokens))
        else:
            parts.append("<|image_pad|>" * c.expected_tokens)
    text = "".join(parts)
    n = image_geometry(tiny_dir).tokens(*prompt.image_size)
    expected = (f"<|im_start|>system\n{prompt.system}<|im_end|>\n<|im_start|>user\n<|vision_start|>"
                f"{'<|image_pad|>' * n}<|vision_end|>{prompt.user_text}<|im_end|>\n<|im_start|>assistant\n<think>\n")
    assert text == expected
    # the no-thinking variant closes the think block in the prompt instead
    r2 = load_renderer("qwen3_5_disable_thinking", tiny_dir)
    mi2, _ = render_observation(r2, make_obs(), FAST_PROMPT)
    assert r2.tokenizer.decode(mi2.chunks[-1].tokens).endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")


def test_qwen3_5_reply_is_read_after_its_reasoning(tiny_dir):
    from halo.env.actions import Click
    from halo.policy.parse import parse_action
    from halo.policy.prompt import tool_call_text
    from halo.policy.tinker.render import load_renderer

    r = load_renderer("qwen3_5", tiny_dir)
    call = tool_call_text(Click("12"))
    # what the sampler returns after the prompt's "<think>\n": reasoning, </think>, the answer, <|im_end|>
    reply = r.tokenizer.encode(f"The sign-in button is [12].\n</think>\n\n{call}", add_special_tokens=False)
    stop = r.get_stop_sequences()
    text, ended = decode_action(r, reply + stop)
    assert text == call.strip() and ended
    from policy_like import make_obs

    assert parse_action(text, make_obs()).action == Click("12")
    text, ended = decode_action(r, reply)  # cut off at max_tokens: no stop token
    assert text == call.strip() and not ended
    _, ended = decode_action(r, reply + stop + stop)  # two stop tokens: the renderer refuses it, not a crash
    assert not ended


# --- parse_response's old and new returns ------------------------------------------------------------------------

class DriftRenderer:
    """A renderer whose ``parse_response`` answers in one API or the other (tinker-cookbook before / after #688)."""

    def __init__(self, tokenizer, api: str):
        self.tokenizer, self.api = tokenizer, api

    def get_stop_sequences(self):
        return [self.tokenizer.convert_tokens_to_ids("<|im_end|>")]

    def parse_response(self, tokens):
        from tinker_cookbook.renderers import ParseTermination

        ended = bool(tokens) and tokens[-1] in self.get_stop_sequences()
        msg = {"role": "assistant", "content": "..."}
        if self.api == "old":
            return msg, ended
        return msg, ParseTermination.STOP_SEQUENCE if ended else ParseTermination.MALFORMED


@pytest.mark.parametrize("api", ["old", "new"])
def test_parse_response_both_returns(api, tiny_dir):
    from halo.policy.tinker.render import load_renderer

    tok = load_renderer("qwen3_vl_instruct", tiny_dir).tokenizer
    r = DriftRenderer(tok, api)
    body = tok.encode('<tool_call>\n{"name": "browser"}\n</tool_call>', add_special_tokens=False)
    assert decode_action(r, body + r.get_stop_sequences()) == ('<tool_call>\n{"name": "browser"}\n</tool_call>', True)
    assert decode_action(r, body)[1] is False  # cut off: under the new API MALFORMED is truthy, still not "ended"


def test_termination_of_reads_each_form():
    from tinker_cookbook.renderers import ParseTermination

    assert bool(ParseTermination.MALFORMED)  # why `if not ok:` silently never fires under the new API
    assert termination_of(ParseTermination.MALFORMED) == Termination(False, False)
    assert termination_of(ParseTermination.STOP_SEQUENCE) == Termination(True, True)
    assert termination_of(ParseTermination.EOS) == Termination(True, False)
    assert termination_of(True) == Termination(True, True) and termination_of(False) == Termination(False, False)
    assert termination_of("malformed") == Termination(False, False)
    with pytest.raises(TypeError, match="expected a bool"):
        termination_of(None)


def test_installed_renderers_use_the_new_return(tiny_dir):
    """The pinned tinker-cookbook already returns ParseTermination: HALO's reading of it is what runs."""
    from tinker_cookbook.renderers import ParseTermination

    from halo.policy.tinker.render import load_renderer

    r = load_renderer("qwen3_vl_instruct", tiny_dir)
    _, term = r.parse_response(r.tokenizer.encode("hi", add_special_tokens=False))
    assert isinstance(term, ParseTermination) and term == ParseTermination.MALFORMED


# --- the preflight -----------------------------------------------------------------------------------------------

def test_hosted_refuses_a_retired_model_listing_what_it_serves():
    caps = capabilities_from_response(hosted_answer(*HOSTED_VISION_MODELS), HOSTED)
    assert caps.hosted and caps.loss_source == "hosted" and "ppo" in caps.loss_fns
    with pytest.raises(ConfigError) as e:
        check_capabilities(caps, VL30, "importance_sampling")
    msg = str(e.value)
    assert "\n" not in msg
    assert msg.startswith(f"hosted Tinker does not offer {VL30} (retired from hosted Tinker on 2026-06-12")
    assert "models it can train: " + ", ".join(HOSTED_VISION_MODELS) in msg and "nothing was started" in msg
    check_capabilities(caps, DEFAULT_MODEL, "ppo")  # the default passes


def test_listed_but_not_trainable_is_refused_for_training_only():
    caps = capabilities_from_response(hosted_answer(DEFAULT_MODEL, trainable=False), HOSTED)
    with pytest.raises(ConfigError, match=f"lists but cannot train {DEFAULT_MODEL}.*models it can train: none"):
        check_capabilities(caps, DEFAULT_MODEL, "importance_sampling")
    check_capabilities(caps, DEFAULT_MODEL, None, training=False)  # sampling it (halo eval) is fine


def test_self_hosted_losses():
    caps = capabilities_from_response(hosted_answer(VL8), SELF_HOSTED)
    assert not caps.hosted and caps.loss_fns == SELF_HOSTED_LOSS_FNS == ("cross_entropy", "importance_sampling")
    check_capabilities(caps, VL8, "importance_sampling")
    with pytest.raises(ConfigError, match=r"does not support --loss-fn ppo \(self-hosted losses: cross_entropy, "
                                          r"importance_sampling\)"):
        check_capabilities(caps, VL8, "ppo")
    told = capabilities_from_response(hosted_answer(VL8), SELF_HOSTED, loss_fns=["importance_sampling", "ppo"])
    assert told.loss_source == "--server-loss-fns"
    check_capabilities(told, VL8, "ppo")
    listed = SimpleNamespace(**vars(hosted_answer(VL8)), supported_loss_fns=["cispo"])  # a server that says
    assert capabilities_from_response(listed, SELF_HOSTED, loss_fns=["ppo"]).loss_fns == ("cispo",)
    assert set(hosted_loss_fns()) >= {"importance_sampling", "ppo", "cispo", "dro", "cross_entropy"}


def test_preflight_uses_the_resolved_url(monkeypatch):
    seen = []

    def fetch(url):
        seen.append(url)
        return Capabilities(url, (ServerModel(VL8),), SELF_HOSTED_LOSS_FNS, "self-hosted")

    monkeypatch.setenv("TINKER_BASE_URL", SELF_HOSTED + "/")
    preflight(VL8, "importance_sampling", fetch=fetch)
    preflight(VL8, "importance_sampling", "http://other:9/", fetch=fetch)
    assert seen == [SELF_HOSTED, "http://other:9"]


def test_sdk_capability_call_against_a_scripted_server(monkeypatch):
    """The SDK's own RestClient call, answered by a loopback server scripting a self-hosted lineup."""
    monkeypatch.setenv("TINKER_API_KEY", "tml-test")
    with fake_tinker_server([{"model_name": VL8, "trainable": True, "sampleable": True},
                             {"model_name": "Qwen/Qwen3-VL-4B-Instruct", "trainable": False}]) as (url, reqs):
        caps = fetch_capabilities(url, timeout_s=60)
    assert "GET /api/v1/get_server_capabilities" in reqs
    assert caps.models == (ServerModel(VL8, True, True), ServerModel("Qwen/Qwen3-VL-4B-Instruct", False, True))
    assert caps.loss_source == "self-hosted"


def test_capability_call_failure_is_one_line(monkeypatch):
    monkeypatch.setenv("TINKER_API_KEY", "tml-test")
    with fake_tinker_server([]) as (url, _), pytest.raises(
            ConfigError, match=f"the Tinker server at {url}/nowhere did not answer its capability call .NotFoundError"):
        fetch_capabilities(url + "/nowhere", timeout_s=60)


# --- the command line --------------------------------------------------------------------------------------------

def cli() -> typer.Typer:
    from halo.cli.train_tinker_cmd import register

    app, train_app = typer.Typer(), typer.Typer()
    register(train_app)
    app.add_typer(train_app, name="train")
    return app


@pytest.fixture
def nothing_starts(monkeypatch):
    from halo.env.browser import BrowserPool
    from real_local.server import SitesServer

    started = []
    monkeypatch.setattr(SitesServer, "start", lambda self: started.append("sites"))
    monkeypatch.setattr(BrowserPool, "start", lambda self: started.append("browser"))
    monkeypatch.setattr("halo.jobs.tinker._run", lambda run: started.append("training"))
    monkeypatch.setenv("TINKER_API_KEY", "tml-test")
    monkeypatch.delenv("TINKER_BASE_URL", raising=False)
    return started


def invoke(*args: str):
    res = CliRunner().invoke(cli(), ["train", "tinker", "--tasks", "v2.gomail-14", *args])
    return res, " ".join(res.output.split())


def test_cli_self_hosted_refuses_an_unsupported_loss_before_anything(nothing_starts, tmp_path):
    with fake_tinker_server([{"model_name": VL8, "trainable": True}]) as (url, _):
        res, out = invoke("--tinker-url", url, "--model", VL8, "--loss-fn", "ppo", "--log-path", str(tmp_path))
    assert res.exit_code == 2, res.output
    assert f"the Tinker API at {url} does not support --loss-fn ppo" in out
    assert nothing_starts == [] and list(tmp_path.iterdir()) == []


def test_cli_self_hosted_refuses_a_model_it_does_not_load(nothing_starts, tmp_path, monkeypatch):
    with fake_tinker_server([{"model_name": VL8, "trainable": True}]) as (url, _):
        monkeypatch.setenv("TINKER_BASE_URL", url)  # the env var instead of the flag
        res, out = invoke("--log-path", str(tmp_path))
    assert res.exit_code == 2, res.output
    assert f"the Tinker API at {url} does not offer {DEFAULT_MODEL} (pass another --model); models it can train: " \
           f"{VL8}" in out
    assert nothing_starts == []


def test_cli_self_hosted_qwen3_vl_8b_passes_the_preflight(nothing_starts, tmp_path, tiny_dir, monkeypatch, caplog):
    import logging

    from halo.policy.tinker import models, render

    with fake_tinker_server([{"model_name": VL8, "trainable": True}]) as (url, _):
        # offline, the hub id's tokenizer and processor config cannot be fetched: a clear line before anything
        res, out = invoke("--tinker-url", url, "--model", VL8, "--log-path", str(tmp_path))
        assert res.exit_code == 2 and f"cannot load the tokenizer of {VL8}" in out
        assert nothing_starts == []
        # with them (Qwen3-VL-8B's processor has the tiny model's patch 16 x merge 2), the run goes on to training
        tiny_ip = models.load_image_processor(tiny_dir)
        tiny_renderer = render.load_renderer("qwen3_vl_instruct", tiny_dir)
        monkeypatch.setattr(models, "load_image_processor", lambda name: tiny_ip)
        monkeypatch.setattr(render, "load_renderer", lambda renderer, model: tiny_renderer)
        with caplog.at_level(logging.INFO, logger="halo.jobs.tinker"):
            res, out = invoke("--tinker-url", url, "--model", VL8, "--log-path", str(tmp_path))
    assert res.exit_code == 0, res.output
    assert f"model={VL8} renderer=qwen3_vl_instruct" in out
    assert nothing_starts == ["training"]  # _run (sites, browsers, tinker-cookbook) comes only after the preflight
    assert f"screenshots 1280x704 -> 880 visual tokens for {VL8} (patch 16 x merge 2" in caplog.text


def test_screenshot_cost_is_the_processors(tiny_dir, tmp_path):
    from halo.policy.tinker.models import describe_screenshots, screenshot_tokens

    assert screenshot_tokens(tiny_dir, 1280 * 720, 64 * 32 * 32)[:2] == ((1280, 704), 880)
    p14 = processor_dir(tmp_path, patch=14, merge=2, min_px=3136)
    (w, h), n, g = screenshot_tokens(p14, 1280 * 720, 64 * 32 * 32)
    assert (w, h) == (1280, 704) and g.factor == 28 and n != 880  # the processor re-grids it at 28: its count
    assert "not on its 28-pixel grid" in describe_screenshots(p14, 1280 * 720, 64 * 32 * 32)
    assert "below its 65536-pixel floor" in describe_screenshots(tiny_dir, 48 * 32 * 32, 32 * 32 * 32)


def test_cli_notes_a_retired_model(nothing_starts, tmp_path, monkeypatch):
    res, out = invoke("--model", VL30, "--log-path", str(tmp_path), "--tinker-url", "ftp://x")
    assert res.exit_code == 2 and "--tinker-url must start with http:// or https://" in out

    def offline(url=None):
        raise ConfigError("cannot reach Tinker (offline test)")

    monkeypatch.setattr("halo.jobs.tinker.check_tinker_reachable", offline)
    res, out = invoke("--model", VL30, "--log-path", str(tmp_path))
    assert res.exit_code == 2 and "cannot reach Tinker (offline test)" in out
    assert "note: Qwen/Qwen3-VL-30B-A3B-Instruct was retired from hosted Tinker on 2026-06-12" in out
    assert nothing_starts == []


def test_thinking_renderers_get_a_token_note():
    from halo.policy.tinker.models import thinking_note, thinks

    assert thinks("qwen3_5") and thinks("qwen3_8_low_reasoning") and not thinks("qwen3_5_disable_thinking")
    assert not thinks("qwen3_vl_instruct")
    note = thinking_note("qwen3_5", 300)
    assert note is not None and "--max-tokens 1024 or more, or --renderer qwen3_5_disable_thinking" in note
    assert "--renderer qwen3_8_disable_thinking" in thinking_note("qwen3_8_xhigh_reasoning", 300)
    assert thinking_note("qwen3_5", 1024) is None and thinking_note("qwen3_5_disable_thinking", 300) is None


def test_cli_prints_the_thinking_note(nothing_starts, tmp_path, monkeypatch):
    def offline(url=None):
        raise ConfigError("cannot reach Tinker (offline test)")

    monkeypatch.setattr("halo.jobs.tinker.check_tinker_reachable", offline)
    res, out = invoke("--log-path", str(tmp_path), "--max-tokens", "300")
    assert res.exit_code == 2 and "note: renderer qwen3_5 reasons before it answers" in out
    res, out = invoke("--log-path", str(tmp_path), "--max-tokens", "1500")
    assert "reasons before it answers" not in out


def test_eval_policy_preflight_refuses_a_base_model_the_server_does_not_sample(monkeypatch):
    """`halo eval --mode qwen3vl_tinker` against a self-hosted server that loaded another model: one line, before
    the tokenizer or the sampling client."""
    from halo.policy.tinker import render
    from halo.policy.tinker.backend import make_tinker_policy

    loaded = []
    monkeypatch.setattr(render, "load_renderer", lambda *a: loaded.append(a))
    monkeypatch.setenv("TINKER_API_KEY", "tml-test")
    with fake_tinker_server([{"model_name": VL8, "sampleable": True},
                             {"model_name": VL30, "sampleable": False}]) as (url, _):
        with pytest.raises(ConfigError, match=f"does not offer {DEFAULT_MODEL} .*models it can sample: {VL8}; nothing"):
            make_tinker_policy(DEFAULT_MODEL, base_url=url)
        with pytest.raises(ConfigError, match=f"lists but cannot sample {VL30}"):
            make_tinker_policy(VL30, base_url=url)
    assert loaded == []
