"""The action parser: accepted formats, repairs (each recorded), validation against the observation, and fuzzing
(it never raises, whatever the string)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from policy_helpers import make_obs

from halo.env import actions as A
from halo.policy.parse import parse_action
from halo.policy.prompt import tool_call_text

OBS = make_obs()
CLICK = A.LeftClick(x=500, y=300)


@pytest.mark.parametrize("text, expected, repairs", [
    ('<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [500, 300]}}\n'
     '</tool_call>', CLICK, ()),
    ('I see the button. <tool_call>{"name": "computer_use", "arguments": {"action": "left_click", '
     '"coordinate": [500, 300]}}</tool_call> done', CLICK, ()),
    ('```json\n{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [500, 300]}}\n```',
     CLICK, ()),
    ('Thought: click it.\n{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [500, 300]}}',
     CLICK, ()),
    ('{"action": "left_click", "x": 500, "y": 300}', CLICK, ()),
    ('{"action": "click", "x": 500, "y": 300, "reason": "the sign-in button"}', CLICK,
     ("dropped_commentary", "click_with_coordinates")),
    ('{"action": "click", "element": "12"}', A.Click(element="12"), ()),
    ('{"action": "click", "bid": 12}', A.Click(element="12"), ("element_key_alias", "element_id_as_number")),
    ('<tool_call>\n{"name": "browser", "arguments": {"action": "fill", "element": "13", "value": "jane"}}\n'
     '</tool_call>', A.Fill(element="13", value="jane"), ()),
    ('<tool_call>{"name": "send_msg_to_user", "arguments": {"text": "Done."}}</tool_call>',
     A.SendMsgToUser(text="Done."), ()),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "key", "keys": ["ctrl", "a"]}}</tool_call>',
     A.Key(keys=("ctrl", "a")), ()),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "scroll", "pixels": -300}}</tool_call>',
     A.Scroll(pixels=-300), ()),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "terminate", "status": "success"}}</tool_call>',
     A.Terminate(status="success"), ()),
    # repairs
    ("<tool_call>{'name': 'computer_use', 'arguments': {'action': 'left_click', 'coordinate': [500, 300]}}"
     "</tool_call>", CLICK, ("single_quotes",)),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [500, 300],},}'
     '</tool_call>', CLICK, ("trailing_comma",)),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [500, 300]',
     CLICK, ("unclosed_tool_call", "unclosed_braces")),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": ["500", "300"]}}'
     '</tool_call>', CLICK, ("numbers_as_strings",)),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": "500, 300"}}'
     '</tool_call>', CLICK, ("coordinate_as_string",)),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [500, 300]}}'
     '</tool_call>\n<tool_call>{"name": "send_msg_to_user", "arguments": {"text": "hi"}}</tool_call>',
     CLICK, ("several_calls_took_first",)),
    ('<tool_call>{"name": "computer_use", "arguments": "{\\"action\\": \\"left_click\\", \\"coordinate\\": '
     '[500, 300]}"}</tool_call>', CLICK, ("arguments_as_string",)),
    ('{"type": "function", "function": {"name": "computer_use", "arguments": {"action": "left_click", '
     '"coordinate": [500, 300]}}}', CLICK, ("openai_tool_call_shape",)),
    ('<tool_call>{"name": "left_click", "arguments": {"coordinate": [500, 300]}}</tool_call>', CLICK,
     ("action_as_tool_name",)),
    ('{"action": "left_click", "coordinate": [450, 280, 550, 320]}', CLICK, ("box_to_centre",)),
    ("{'action': 'terminate', 'status': 'success', 'done': True}", None, ("single_quotes", "python_literals")),
    ('{"action": "scroll", "direction": "down", "amount": 500}', A.Scroll(pixels=-500), ("scroll_direction",)),
    ('{"action": "type", "element": "13", "text": "jane"}', A.Fill(element="13", value="jane"),
     ("type_with_element_is_fill",)),
    ('{"action": "press", "key": "Enter"}', A.Key(keys=("Enter",)), ("press_without_element_is_key",)),
    ("The next step is left_click(500, 300)", CLICK, ("call_syntax",)),
    ("click('12')", A.Click(element="12"), ("call_syntax",)),
    ('<tool_call>{"name": "send_msg_to_user", "arguments": {"message": "Done"}}</tool_call>',
     A.SendMsgToUser(text="Done"), ("text_alias",)),
])
def test_accepted_formats_and_recorded_repairs(text, expected, repairs):
    r = parse_action(text, OBS)
    if expected is None:  # the 'done' key is not a field of terminate: an error, but the repairs still show
        assert r.action is None and "does not take done" in r.error
    else:
        assert r.error is None, r.error
        assert r.action == expected
    for rep in repairs:
        assert rep in r.repairs, (rep, r.repairs)
    if not repairs:
        assert r.repairs == (), r.repairs


@pytest.mark.parametrize("text, reason", [
    ("", "empty reply"),
    ("I think I should click the button.", "no tool call"),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [1500, 300]}}'
     '</tool_call>', "outside 0..1000"),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "fly", "coordinate": [5, 3]}}</tool_call>',
     "unknown action 'fly'"),
    ('<tool_call>{"name": "shell", "arguments": {"cmd": "ls"}}</tool_call>', "unknown tool 'shell'"),
    ('<tool_call>{"name": "browser", "arguments": {"action": "click", "element": "99"}}</tool_call>',
     "element '99' is not on the page (ids: 12, 13)"),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "left_click"}}</tool_call>', "left_click:"),
    ('<tool_call>{"name": "computer_use", "arguments": {"action": "type", "text": ""}}</tool_call>',
     "must not be empty"),
    ('{"foo": 1}', 'neither "name"'),
    ("[1, 2, 3]", "no tool call"),
    ('{"action": "wait", "time": 100}', "wait time must be 0..30"),
])
def test_errors_are_data_with_a_reason(text, reason):
    r = parse_action(text, OBS)
    assert r.action is None and not r.ok
    assert reason in r.error, r.error


def test_element_ids_are_checked_only_against_a_given_observation():
    text = '{"action": "click", "element": "99"}'
    assert parse_action(text).action == A.Click(element="99")
    assert parse_action(text, OBS).action is None


def test_non_string_input_is_an_error_not_an_exception():
    for bad in (None, 12, b"bytes", ["x"]):
        r = parse_action(bad)
        assert r.action is None and "expected the model's reply as text" in r.error


def test_deep_nesting_and_huge_replies_do_not_raise():
    assert parse_action("{" * 50_000).action is None
    assert parse_action("[" * 5000 + "]" * 5000).action is None
    r = parse_action("x" * 30_000 + '{"action": "go_back"}')
    assert r.action is None and "reply_truncated" in r.repairs


# ---------------------------------------------------------------- fuzz
FUZZ = {"examples": 0}
_PIECES = ["<tool_call>", "</tool_call>", "```json", "```", "{", "}", "[", "]", '"', "'", ",", ":", "\\", "True",
           "None", '"name"', '"computer_use"', '"arguments"', '"action"', '"left_click"', '"coordinate"', "500",
           "-3", "1e9", "NaN", " ", "\n", '"element"', '"12"', "left_click(", ")", "+7", "\x00", "é", "🙂"]


@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(st.text(max_size=300), st.lists(st.sampled_from(_PIECES), max_size=60).map("".join)))
def test_fuzz_parse_never_raises(text):
    FUZZ["examples"] += 1
    r = parse_action(text, OBS)
    assert (r.action is None) != (r.error is None)
    assert isinstance(r.repairs, tuple)
    assert "the parser failed" not in (r.error or ""), r.error  # the catch-all must never be needed


def test_fuzz_ran_and_reports_its_count():
    # runs after the fuzz test in file order; the count goes to the test log for the report
    assert FUZZ["examples"] >= 2000, FUZZ
    print(f"\nparser fuzz examples: {FUZZ['examples']}")


_coord = st.integers(0, 1000)
_text = st.text(min_size=1, max_size=40)
ACTIONS = st.one_of(
    st.builds(A.LeftClick, x=_coord, y=_coord), st.builds(A.DoubleClick, x=_coord, y=_coord),
    st.builds(A.RightClick, x=_coord, y=_coord), st.builds(A.TripleClick, x=_coord, y=_coord),
    st.builds(A.MouseMove, x=_coord, y=_coord),
    st.builds(A.LeftClickDrag, x=_coord, y=_coord, start_x=_coord, start_y=_coord),
    st.builds(A.Type, text=_text),
    st.builds(A.Key, keys=st.sampled_from([("ctrl", "a"), ("Enter",), ("shift", "Tab")])),
    st.builds(A.Scroll, pixels=st.integers(-2000, 2000)),
    st.builds(A.Scroll, pixels=st.integers(-2000, 2000), x=_coord, y=_coord),
    st.builds(A.Wait, time=st.integers(0, 30)), st.builds(A.Terminate, status=st.sampled_from(["success", "failure"])),
    st.builds(A.Answer, text=_text), st.builds(A.Click, element=st.sampled_from(["12", "13"])),
    st.builds(A.Fill, element=st.just("13"), value=st.text(max_size=30)),
    st.builds(A.SelectOption, element=st.just("13"), options=st.lists(_text, min_size=1, max_size=3).map(tuple)),
    st.builds(A.Press, element=st.just("12"), key=st.sampled_from(["Enter", "Tab"])),
    st.builds(A.Goto, url=st.just("http://127.0.0.1/x")), st.just(A.GoBack()),
    st.builds(A.SendMsgToUser, text=st.text(max_size=40)),
)


@settings(max_examples=400, deadline=None)
@given(ACTIONS)
def test_round_trip_every_action(action):
    r = parse_action(tool_call_text(action), OBS)
    assert r.error is None, (tool_call_text(action), r.error)
    assert r.action == action
    assert r.repairs == ()


@settings(max_examples=300, deadline=None)
@given(ACTIONS, st.sampled_from(["cut", "single", "trailing"]))
def test_near_misses_of_valid_calls_are_repaired(action, damage):
    text = tool_call_text(action)
    body = text.removeprefix("<tool_call>\n").removesuffix("\n</tool_call>")
    if damage == "cut":  # the closing braces and tag are lost (max_tokens hit just before the end)
        damaged = "<tool_call>\n" + body.rstrip("}")
    elif damage == "single":
        if "'" in body or '\\"' in body:
            return
        damaged = "<tool_call>" + body.replace('"', "'") + "</tool_call>"
    else:
        damaged = "<tool_call>" + body[:-2] + ",}}" + "</tool_call>"
    r = parse_action(damaged, OBS)
    assert r.action == action, (damaged, r.error)
    assert r.repairs, damaged


def test_parse_result_call_is_the_interpreted_json():
    r = parse_action('{"action": "left_click", "coordinate": [1, 2]}')
    assert r.call == {"action": "left_click", "coordinate": [1, 2]}
    assert json.dumps(r.call)
