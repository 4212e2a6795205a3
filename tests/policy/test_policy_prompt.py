"""Prompt builder: snapshot of the rendered prompt, the pixel budget, history bound, and the tool schemas."""

from __future__ import annotations

import base64
import dataclasses
import io
import json
import os
from pathlib import Path

import pytest
from PIL import Image
from policy_helpers import make_obs, screenshot

from halo.policy.grammar import action_json_schema, tool_schemas
from halo.policy.prompt import PromptConfig, build_prompt, smart_resize, tool_call_text

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("HALO_UPDATE_SNAPSHOTS") == "1"


def _check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if UPDATE or not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
        if not UPDATE:
            pytest.fail(f"snapshot {name} was missing and has been written; review it and rerun")
    assert text == path.read_text(), f"prompt changed; if intended, rerun with HALO_UPDATE_SNAPSHOTS=1 ({path})"


def render(prompt) -> str:
    return f"=== system ===\n{prompt.system}\n=== user [image {prompt.image_size[0]}x{prompt.image_size[1]}, " \
           f"{prompt.visual_tokens} visual tokens] ===\n{prompt.user_text}\n"


def test_snapshot_default_prompt():
    _check_snapshot("prompt_default.txt", render(build_prompt(make_obs())))


def test_snapshot_prompt_with_axtree_and_error():
    obs = make_obs(last_action_error="element 99 not found", step=7,
                   last_actions=tuple(f"left_click({i}, {i})" for i in range(9)))
    _check_snapshot("prompt_axtree.txt", render(build_prompt(obs, PromptConfig(include_axtree=True))))


def test_history_is_bounded_to_the_last_five_actions():
    obs = make_obs(last_actions=tuple(f"left_click({i}, {i})" for i in range(9)))
    text = build_prompt(obs).user_text
    assert "left_click(3, 3)" not in text and "left_click(4, 4)" in text and "left_click(8, 8)" in text


@pytest.mark.parametrize("size, budget, expected", [
    ((1280, 720), 1280 * 720, (1280, 704)),  # REFERENCE §2: 880 visual tokens
    ((1280, 720), 256 * 32 * 32, (672, 384)),
    ((1280, 720), 64 * 32 * 32, (320, 192)),
    ((100, 50), 1280 * 720, (256, 128)),  # below min_pixels: scaled up
])
def test_pixel_budget(size, budget, expected):
    cfg = PromptConfig(max_pixels=budget, min_pixels=min(budget, 32 * 32 * 32))
    assert smart_resize(*size, cfg.min_pixels, cfg.max_pixels) == expected
    p = build_prompt(make_obs(screenshot=screenshot(*size)), cfg)
    assert p.image_size == expected
    assert Image.open(io.BytesIO(p.image)).size == expected
    assert p.visual_tokens == (expected[0] // 32) * (expected[1] // 32)
    assert p.visual_tokens * 32 * 32 <= budget


def test_openai_messages_carry_a_base64_image():
    p = build_prompt(make_obs())
    msgs = p.openai_messages()
    assert msgs[0] == {"role": "system", "content": p.system}
    url = msgs[1]["content"][0]["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    assert Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).size == (1280, 704)
    assert msgs[1]["content"][1] == {"type": "text", "text": p.user_text}


def test_unreadable_screenshot_is_a_clear_error():
    with pytest.raises(ValueError, match="not a readable image"):
        build_prompt(make_obs(screenshot=b"not an image"))


def test_system_prompt_lists_the_tools_in_nous_format():
    system = build_prompt(make_obs()).system
    assert system.startswith("You are a helpful assistant.\n\n# Tools\n")
    tools = system.split("<tools>\n", 1)[1].split("\n</tools>", 1)[0].splitlines()
    names = [json.loads(t)["function"]["name"] for t in tools]
    assert names == ["computer_use", "browser", "send_msg_to_user"]
    assert '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>' in system


def test_tool_calls_validate_against_the_action_schema():
    jsonschema = pytest.importorskip("jsonschema")
    from halo.env import actions as A

    schema = action_json_schema(element_ids=["12", "13"])
    for a in (A.LeftClick(x=1, y=2), A.Click(element="12"), A.SendMsgToUser(text="ok"), A.Scroll(pixels=-5),
              A.Key(keys=("ctrl", "a")), A.LeftClickDrag(x=1, y=2, start_x=3, start_y=4), A.GoBack()):
        call = json.loads(tool_call_text(a).split("\n")[1])
        jsonschema.validate(call, schema)
    bad = {"name": "browser", "arguments": {"action": "click", "element": "99"}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [1001, 0]}},
                            schema)


def test_element_tool_only_with_the_accessibility_tree():
    without = {a for a in tool_schemas(False)[1]["function"]["parameters"]["properties"]["action"]["enum"]}
    with_ = {a for a in tool_schemas(True)[1]["function"]["parameters"]["properties"]["action"]["enum"]}
    assert without == {"goto", "go_back"} and {"click", "fill", "select_option"} <= with_


def test_system_none_sends_no_system_turn():
    p = build_prompt(make_obs(), PromptConfig(system="none"))
    assert p.system == ""
    assert [m["role"] for m in p.openai_messages()] == ["user"]
    assert [m["role"] for m in p.hf_messages()] == ["user"]
    assert [m["role"] for m in build_prompt(make_obs(), PromptConfig(system="brief")).openai_messages()] == [
        "system", "user"]
    with pytest.raises(ValueError, match="system must be 'full', 'brief' or 'none'"):
        PromptConfig(system="short")


def test_compact_user_turn_is_history_then_goal():
    cfg = PromptConfig(system="none", user="compact")
    p = build_prompt(make_obs(last_action_error="no element 99"), cfg)
    assert p.user_text == ("Done: left_click(500, 300); type('jane@example.com')\nFailed: no element 99\n"
                           "Goal: Sign in with jane@example.com")
    assert build_prompt(make_obs(last_actions=(), step=0), cfg).user_text == "Goal: Sign in with jane@example.com"
    with_tree = build_prompt(make_obs(last_actions=()), PromptConfig(user="compact", include_axtree=True,
                                                                     tree="controls", elements="all"))
    assert with_tree.user_text.startswith("Elements:\n") and with_tree.user_text.endswith(
        "Goal: Sign in with jane@example.com")
    assert "[12]" in with_tree.user_text
    full = build_prompt(make_obs(), PromptConfig())
    assert "Current URL:" in full.user_text and len(p.user_text) <= len(full.user_text) / 2
    with pytest.raises(ValueError, match="user must be 'full' or 'compact'"):
        PromptConfig(user="short")


def test_compact_user_turn_can_show_what_each_field_holds():
    """``fields``: a line with the text fields the policy may type into and their values (cut), before the goal; a
    half-written form and a whole one then differ in the prompt, not only in the screenshot."""
    from halo.env.types import Element

    els = {"12": Element("12", "button", "Send", (500, 300, 80, 30)),
           "13": Element("13", "textbox", "Subject", (500, 200, 280, 40), value="Weekend plans"),
           "14": Element("14", "textbox", "Message   Body", (500, 250, 280, 90), value="Want to go\nhiking on Saturday?")}
    cfg = PromptConfig(system="none", user="compact", fields=True, elements="visible", fields_value_chars=16)
    text = build_prompt(make_obs(elements=els, last_actions=()), cfg).user_text
    assert text == ("Fields: [13] Subject: 'Weekend plans'; [14] Message Body: 'Want to go hikin'\n"
                    "Goal: Sign in with jane@example.com")
    empty = {**els, "14": Element("14", "textbox", "Message Body", (500, 250, 280, 90), value="")}
    assert "[14] Message Body: ''" in build_prompt(make_obs(elements=empty), cfg).user_text
    no_fields = {"12": els["12"]}
    assert build_prompt(make_obs(elements=no_fields, last_actions=()), cfg).user_text == (
        "Goal: Sign in with jane@example.com")
    assert "Fields" not in build_prompt(make_obs(elements=els), PromptConfig(user="compact")).user_text


def test_fields_show_a_chip_input_by_its_chips_and_split_filled_from_empty():
    """A recipient picked from suggestions leaves To's input empty and a ``Remove <name>`` chip before it: the field
    shows the chip (an addressed message and an unaddressed one differ in the prompt); ``fields_layout: split`` puts
    what is left to type on a line of its own (``Empty: none`` once everything is filled)."""
    from halo.env.types import Element

    def page(to_chip: bool, subject: str) -> dict:
        els = {"5": Element("5", "textbox", "Search mail", (10, 10, 200, 30), value="")}
        if to_chip:
            els["179"] = Element("179", "button", "Remove Peter Green", (500, 150, 20, 20))
        els["180"] = Element("180", "textbox", "To recipients", (500, 150, 280, 30), value="")
        els["181"] = Element("181", "button", "Add Cc recipients", (800, 150, 40, 30))
        els["183"] = Element("183", "textbox", "Subject", (500, 200, 280, 40), value=subject)
        return els

    inline = PromptConfig(system="none", user="compact", fields=True, elements="visible")
    text = build_prompt(make_obs(elements=page(True, ""), last_actions=()), inline).user_text
    assert text.splitlines()[0] == "Fields: [5] Search mail: ''; [180] To recipients: 'Peter Green'; [183] Subject: ''"
    assert "[180] To recipients: ''" in build_prompt(make_obs(elements=page(False, "")), inline).user_text
    split = dataclasses.replace(inline, fields_layout="split")
    lines = build_prompt(make_obs(elements=page(True, ""), last_actions=()), split).user_text.splitlines()
    assert lines == ["Filled: [180] To recipients: 'Peter Green'", "Empty: [5] Search mail; [183] Subject",
                     "Goal: Sign in with jane@example.com"]
    whole = {k: v for k, v in page(True, "Hi").items() if k != "5"}
    assert build_prompt(make_obs(elements=whole, last_actions=()), split).user_text.splitlines()[:2] == [
        "Filled: [180] To recipients: 'Peter Green'; [183] Subject: 'Hi'", "Empty: none"]
    unaddressed = build_prompt(make_obs(elements=page(False, "Hi"), last_actions=()), split).user_text
    assert "Empty: [5] Search mail; [180] To recipients" in unaddressed
    last = dataclasses.replace(inline, fields_layout="split_last")
    obs = make_obs(elements=page(True, ""), last_actions=("click [4]",))
    assert build_prompt(obs, last).user_text.splitlines() == [
        "Done: click [4]", "Goal: Sign in with jane@example.com", "Filled: [180] To recipients: 'Peter Green'",
        "Empty: [5] Search mail; [183] Subject"]
    assert build_prompt(make_obs(elements=whole, last_actions=()), last).user_text.splitlines()[-1] == "Empty: none"
    # empty_ids: split_last's lines with ids on the Empty line only (a filled field's id is not in the prompt)
    ids = dataclasses.replace(inline, fields_layout="empty_ids")
    assert build_prompt(obs, ids).user_text.splitlines() == [
        "Done: click [4]", "Goal: Sign in with jane@example.com", "Filled: To recipients: 'Peter Green'",
        "Empty: [5] Search mail; [183] Subject"]
    assert build_prompt(make_obs(elements=whole, last_actions=()), ids).user_text.splitlines()[-2:] == [
        "Filled: To recipients: 'Peter Green'; Subject: 'Hi'", "Empty: none"]
    with pytest.raises(ValueError):
        PromptConfig(fields_layout="table")


def test_alerts_put_the_pages_refusal_in_the_prompt():
    """``alerts``: the text of the page's alerts as an ``Alert:`` line after a failed action's error (a controls-only
    tree drops it); off, or on a page without alerts, there is no such line."""
    tree = '[185] button "Send"\n[187] alert\n  StaticText "Please specify at least one recipient."'
    obs = make_obs(axtree=tree, last_action_error="no element 99")
    on = PromptConfig(system="none", user="compact", alerts=True)
    assert build_prompt(obs, on).user_text == (
        "Done: left_click(500, 300); type('jane@example.com')\nFailed: no element 99\n"
        "Alert: Please specify at least one recipient.\nGoal: Sign in with jane@example.com")
    assert "Alert:" not in build_prompt(obs, PromptConfig(system="none", user="compact")).user_text
    assert "Alert:" not in build_prompt(make_obs(), on).user_text
    full = build_prompt(obs, PromptConfig(alerts=True)).user_text.splitlines()
    assert full[full.index("Last action failed: no element 99") + 1] == (
        "Alert: Please specify at least one recipient.")
