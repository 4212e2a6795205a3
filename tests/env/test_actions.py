"""The action space as data: coordinate mapping, validation, serialisation, key names (no browser)."""

from __future__ import annotations

import json

import pytest

from halo.env import actions as A
from halo.errors import ActionError

# One valid instance of every action kind (the test below checks none is missing).
EXAMPLES: list[A.Action] = [
    A.LeftClick(500, 320), A.DoubleClick(0, 0), A.RightClick(1000, 1000), A.MiddleClick(10.5, 20.25),
    A.TripleClick(1, 999), A.MouseMove(250, 750), A.LeftClickDrag(600, 700), A.LeftClickDrag(600, 700, 100, 200),
    A.Type("hello world"), A.Key(("ctrl", "a")), A.Scroll(-300), A.Scroll(120, 500, 500), A.HScroll(200),
    A.Wait(0.5), A.Terminate("failure"), A.Answer("42"), A.Click("12"), A.Hover("3"), A.Fill("7", "Jane"),
    A.SelectOption("9", ("Blue", "Red")), A.Press("4", "Enter"), A.Goto("http://127.0.0.1:1/x"), A.GoBack(),
    A.SendMsgToUser("done"),
]


def test_examples_cover_every_action_kind():
    assert {type(a).name for a in EXAMPLES} == set(A.ACTION_TYPES)


@pytest.mark.parametrize("action", EXAMPLES, ids=lambda a: a.describe())
def test_round_trip_through_json(action):
    d = json.loads(json.dumps(action.to_dict()))
    assert d["action"] == action.name
    again = A.action_from_dict(d)
    assert again == action
    assert type(again) is type(action)
    assert again.describe() == action.describe()


@pytest.mark.parametrize("x,y,expect", [
    ((0, 0), None, (0.0, 0.0)),
    ((500, 500), None, (640.0, 360.0)),
    ((1000, 1000), None, (1279.0, 719.0)),  # clamped inside the viewport
    ((250, 100), None, (320.0, 72.0)),
])
def test_to_pixels(x, y, expect):
    assert A.to_pixels(*x, 1280, 720) == pytest.approx(expect)


@pytest.mark.parametrize("px,py", [(0, 0), (640, 360), (1279, 719), (123, 456)])
def test_to_relative_inverts_to_pixels(px, py):
    rx, ry = A.to_relative(px, py, 1280, 720)
    bx, by = A.to_pixels(rx, ry, 1280, 720)
    assert abs(bx - px) <= 1.28 and abs(by - py) <= 0.72  # one relative unit of rounding


def test_qwen_coordinate_form():
    a = A.action_from_dict({"action": "left_click", "coordinate": [300, 400]})
    assert a == A.LeftClick(300, 400)
    d = A.action_from_dict({"action": "left_click_drag", "start_coordinate": [1, 2], "coordinate": [3, 4]})
    assert (d.start_x, d.start_y, d.x, d.y) == (1, 2, 3, 4)


@pytest.mark.parametrize("bad,fragment", [
    ({"action": "left_click", "coordinate": [1001, 5]}, "outside 0..1000"),
    ({"action": "left_click", "coordinate": [-1, 5]}, "outside 0..1000"),
    ({"action": "left_click", "coordinate": ["a", 5]}, "must be a number"),
    ({"action": "left_click", "coordinate": [True, 5]}, "must be a number"),
    ({"action": "left_click", "coordinate": [5]}, "must be [x, y]"),
    ({"action": "left_click"}, "left_click"),
    ({"action": "fly"}, "unknown action"),
    ({"coordinate": [1, 2]}, "unknown action"),
    ("left_click", "JSON object"),
    ({"action": "type", "text": ""}, "must not be empty"),
    ({"action": "type", "text": "x" * 5000}, "at most"),
    ({"action": "key", "keys": []}, "non-empty"),
    ({"action": "key", "keys": ["a", "b", "c", "d", "e", "f"]}, "at most 5"),
    ({"action": "scroll", "pixels": 99999}, "too large"),
    ({"action": "wait", "time": 60}, "0..30"),
    ({"action": "terminate", "status": "maybe"}, "success"),
    ({"action": "click", "element": ""}, "element id"),
    ({"action": "click", "element": 12}, "element id"),
    ({"action": "select_option", "element": "3", "options": []}, "non-empty"),
    ({"action": "left_click", "coordinate": [1, 2], "button": "left"}, "does not take button"),
    ({"action": "left_click_drag", "x": 1, "y": 2, "start_x": 3}, "both start_x and start_y"),
])
def test_invalid_actions_raise_clear_errors(bad, fragment):
    with pytest.raises(ActionError) as e:
        A.action_from_dict(bad)
    assert fragment in str(e.value)


def test_terminal_flags():
    assert {n for n, c in A.ACTION_TYPES.items() if c.terminal} == {"terminate", "answer", "send_msg_to_user"}


def test_key_accepts_string_and_list():
    assert A.Key("ctrl+a").keys == ("ctrl", "a")
    assert A.Key(["Enter"]).keys == ("Enter",)


@pytest.mark.parametrize("keys,chord", [
    (["ctrl", "a"], "Control+a"), ("ctrl+shift+t", "Control+Shift+t"), (["enter"], "Enter"),
    (["Return"], "Enter"), (["esc"], "Escape"), (["pagedown"], "PageDown"), (["up"], "ArrowUp"),
    (["f5"], "F5"), (["space"], " "), (["cmd", "c"], "Meta+c"), (["tab"], "Tab"), (["backspace"], "Backspace"),
])
def test_playwright_key(keys, chord):
    assert A.playwright_key(keys) == chord


# ---------------------------------------------------------------- env helpers that need no browser
def test_offsite_and_internal_urls():
    from halo.env.guard import INTERNAL_PATH, offsite

    o = "http://127.0.0.1:8701"
    for url in ("http://127.0.0.1:8702/", "https://example.com/x", "http://127.0.0.1:87010/", "http://127.0.0.1/"):
        assert offsite(url, o), url
    for url in ("http://127.0.0.1:8701", "http://127.0.0.1:8701/", "http://127.0.0.1:8701/a?b#c",
                "http://127.0.0.1:8701?x=1", "data:text/html,hi", "blob:http://127.0.0.1:8701/1", "about:blank"):
        assert not offsite(url, o), url
    assert INTERNAL_PATH.match(f"{o}/__halo/state_key") and not INTERNAL_PATH.match(f"{o}/a/__halo/x")


def test_parse_finish_html():
    from halo.env.grading import parse_finish_html
    from halo.errors import SiteError

    assert parse_finish_html('{"config": {"task_id": "v2.gomail-1"}}') == {"config": {"task_id": "v2.gomail-1"}}
    with pytest.raises(SiteError, match="JSON inside <pre>"):
        parse_finish_html("<html>not json</html>")
    with pytest.raises(SiteError, match="not a JSON object"):
        parse_finish_html("[1, 2]")
