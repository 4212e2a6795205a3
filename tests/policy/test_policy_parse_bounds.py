"""The parser's bounds: linear time up to its cap, numbers that are finite and of sane size, and errors that quote at
most ~200 characters of the model's text (they go into the next prompt)."""

from __future__ import annotations

import re
import time

import pytest

from halo.policy.parse import MAX_REPLY_CHARS, QUOTE_CHARS, parse_action

ADVERSARIAL = {
    "nested calls": "a(" * (MAX_REPLY_CHARS // 2),
    "nested action calls": "left_click(" * (MAX_REPLY_CHARS // 11),
    "open braces": "{" * MAX_REPLY_CHARS,
    "open brackets": "[" * MAX_REPLY_CHARS,
    "tool_call tags": "<tool_call>" * (MAX_REPLY_CHARS // 11),
    "fences": "```" * (MAX_REPLY_CHARS // 3),
    "single quotes": "{'a': '" * (MAX_REPLY_CHARS // 7),
    "double quotes": '{"a": "' * (MAX_REPLY_CHARS // 7),
    "keys": '{"a":' * (MAX_REPLY_CHARS // 5),
    "commas": "{," * (MAX_REPLY_CHARS // 2),
    "lines": "x(1)\n" * (MAX_REPLY_CHARS // 5),
}


def _best_of(text: str, n: int = 3) -> float:
    """Best CPU time of this process over n parses (CPU, not wall: other processes on the machine do not count)."""
    best = float("inf")
    for _ in range(n):
        t0 = time.process_time()
        parse_action(text)
        best = min(best, time.process_time() - t0)
    return best


def test_nested_call_reply_is_fast():
    """0.84 s on an idle machine before (a lazy regex retried from every `name(`); now a fraction of a millisecond."""
    assert _best_of(ADVERSARIAL["nested calls"]) < 0.05
    assert _best_of(ADVERSARIAL["nested action calls"]) < 0.05


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_every_adversarial_reply_at_the_cap_parses_in_bounded_time(name):
    assert _best_of(ADVERSARIAL[name]) < 0.5, name


def test_time_grows_linearly():
    """Four times the text, at most ~8 times the time (quadratic would be 16)."""
    for name in ("single quotes", "commas", "nested calls"):
        unit = ADVERSARIAL[name]
        small, big = unit[:MAX_REPLY_CHARS // 4], unit
        ts, tb = _best_of(small, 5), _best_of(big, 5)
        assert tb < max(8 * ts, 0.005), (name, ts, tb)


@pytest.mark.parametrize("reply, what", [
    ('{"action": "scroll", "pixels": NaN}', '"pixels" is NaN'),
    ('{"action": "scroll", "pixels": -Infinity}', '"pixels" is infinite'),
    ('{"action": "left_click", "x": 1e999, "y": 3}', '"x" is infinite'),
    ('{"action": "left_click", "coordinate": [' + "9" * 300 + ", 1]}", '"coordinate" has 300 digits'),
    ('{"action": "click", "element": ' + "7" * 300 + "}", '"element" has 300 digits'),
    ('{"name": "computer_use", "arguments": {"action": "wait", "time": 1e12}}', '"time" is 1e+12, too large'),
    ('<tool_call>{"name": "computer_use", "arguments": "{\\"action\\": \\"scroll\\", \\"pixels\\": NaN}"}'
     "</tool_call>", '"pixels" is NaN'),
    ('{"action": "scroll", "direction": "down", "amount": "nan"}', '"amount" is \'nan\''),
])
def test_bad_numbers_are_named_parse_errors(reply, what):
    r = parse_action(reply)
    assert r.action is None and r.error.startswith("invalid number") and what in r.error, r.error


def test_sane_numbers_still_parse():
    assert parse_action('{"action": "scroll", "pixels": -300}').action is not None
    assert parse_action('{"action": "scroll", "direction": "down", "amount": "200"}').action.pixels == -200
    assert parse_action("left_click(500, 320)").action is not None


@pytest.mark.parametrize("reply", [
    '{"action": "' + "x" * 3000 + '"}',
    '{"name": "' + "y" * 3000 + '", "arguments": {}}',
    '{"action": "left_click", "coordinate": "' + "1" * 3000 + ', 5"}',
    '{"action": "click", "element": "' + "e" * 3000 + '"}',
])
def test_errors_quote_at_most_about_200_chars_of_the_reply(reply):
    from halo.env.types import Observation

    obs = Observation(screenshot=b"", image_format="jpeg", axtree="", elements={}, url="", goal="", step=0,
                      last_actions=(), last_action_error=None, viewport=(1280, 720), task_id="t")
    r = parse_action(reply, obs)
    assert r.action is None and r.error
    assert "chars)" in r.error and len(r.error) <= 650, r.error
    assert max(len(m.group(0)) for m in re.finditer(r"([xye1])\1+", r.error)) <= QUOTE_CHARS + 1
