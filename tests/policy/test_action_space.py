"""The action interface a random-init model learns through: every constrained reply valid on the page and within
max_tokens; a first-action distribution where the final message does not dominate."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from halo.env.types import Element, Observation
from halo.errors import ConfigError
from halo.policy.action_space import allowed_elements, check_fits, goal_phrases, max_reply_bytes, page_schema
from halo.policy.base import DecodingConfig
from halo.policy.prompt import PromptConfig

TINY = PromptConfig(max_pixels=16384, min_pixels=4096, include_axtree=True, axtree_max_chars=2000,
                    actions=("click", "fill", "go_back", "send_msg_to_user"), elements="visible", text="goal",
                    text_max_chars=24, single_tool=True)


def _obs(goal: str = 'Open the email from "Lisa Wong" about the budget') -> Observation:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (1280, 720), (250, 250, 250)).save(buf, format="PNG")
    els = {"1": Element("1", "link", "Inbox", (0, 10, 100, 30)),
           "2": Element("2", "button", "Compose", (0, 50, 100, 30)),
           "3": Element("3", "heading", "Mail", (200, 10, 100, 30)),  # not a control
           "4": Element("4", "link", "Far below", (0, 5000, 100, 30)),  # outside the viewport
           "5": Element("5", "textbox", "Search", (300, 10, 300, 30))}
    tree = "\n".join(f"[{e.id}] {e.role} \"{e.name}\"" for e in els.values())
    return Observation(screenshot=buf.getvalue(), image_format="png", axtree=tree, elements=els,
                       url="http://127.0.0.1/", goal=goal, step=0)


def test_visible_controls_only():
    obs = _obs()
    assert allowed_elements(obs, "visible") == ["1", "2", "5"]
    assert allowed_elements(obs, "interactive") == ["1", "2", "4", "5"]
    assert allowed_elements(obs, "all") == ["1", "2", "3", "4", "5"]


def test_goal_phrases_quote_first_and_bounded():
    ph = goal_phrases('Send "Lisa Wong" the report', 24)
    assert ph[0] == "Lisa Wong" and "report" in ph and all(len(p) <= 24 for p in ph)


def test_bound_refuses_a_mode_that_could_be_cut_off():
    assert check_fits(TINY, 128) <= 128
    with pytest.raises(ValueError, match="raise max_tokens"):
        check_fits(TINY, 64)
    with pytest.raises(ValueError):
        check_fits(PromptConfig(), 300)  # free text of 2000 chars cannot fit


def test_mode_override_checked_at_the_door():
    from halo.policy.modes import get_mode

    with pytest.raises(ConfigError, match="max_tokens"):
        get_mode("tiny").with_overrides(max_tokens=32)


@pytest.mark.ml
def test_constrained_replies_all_valid_never_truncated_and_terminal_share(tiny_model_dir):
    """64 samples from the random-init tiny model on one page: 100% parse to an allowed action on an allowed
    element, none hits max_tokens, and the final message is a minority of first actions (measured ~30%)."""
    from halo.policy.hf_backend import HFPolicy

    obs = _obs()
    pol = HFPolicy(tiny_model_dir, decoding=DecodingConfig(temperature=1.0, max_tokens=128, constrained=True, seed=0),
                   prompt=TINY)
    bound = max_reply_bytes(page_schema(obs, TINY))
    samples = asyncio.run(pol.sample_actions(obs, 64))
    assert all(s.action is not None for s in samples), [s.error for s in samples if s.action is None]
    assert all(len(s.token_ids) < 128 and len(s.text.encode()) <= bound + 16 for s in samples)
    names = Counter(s.action.name for s in samples)
    assert set(names) <= {"click", "fill", "go_back", "send_msg_to_user"}
    assert all(getattr(s.action, "element", "1") in {"1", "2", "5"} for s in samples)
    fills = [s.action.value for s in samples if s.action.name == "fill"]
    assert all(v in goal_phrases(obs.goal, 24) for v in fills)
    assert names["send_msg_to_user"] / 64 < 0.45, names


def test_go_back_is_offered_only_where_it_can_go_back():
    """On the episode's first page go_back can only fail (an action error the policy learns to avoid by ending the
    episode instead): the page's grammar leaves it out; everywhere else it stays."""
    import dataclasses
    import json

    obs = _obs()
    first = dataclasses.replace(obs, can_go_back=False)
    assert '"go_back"' in json.dumps(page_schema(obs, TINY))
    schema = json.dumps(page_schema(first, TINY))
    assert '"go_back"' not in schema and '"click"' in schema and '"send_msg_to_user"' in schema
    only_back = dataclasses.replace(TINY, actions=("go_back",))
    assert '"go_back"' in json.dumps(page_schema(first, only_back))  # never an empty action space


def test_typed_text_is_a_choice_among_the_goals_phrases_and_the_pages_controls():
    """``text: goal+page``: a value is a phrase of the goal (quoted strings first) or the name of a visible control;
    a select takes one such option; a key to press is Enter, Tab or Escape (not text to spell)."""
    import dataclasses
    import json

    from halo.policy.action_space import text_choices

    obs = _obs('Send Lisa an email with the subject "Budget" saying "See you at 3 PM."')
    assert text_choices(obs, "goal", 24)[:2] == ["Budget", "See you at 3 PM."]
    page = text_choices(obs, "goal+page", 24)
    assert {"Inbox", "Compose", "Search"} <= set(page) and "Mail" not in page and "Far below" not in page
    cfg = dataclasses.replace(TINY, text="goal+page", actions=("fill", "select_option", "press"))
    schema = page_schema(obs, cfg)
    by_action = {c["properties"]["arguments"]["properties"]["action"]["const"]: c["properties"]["arguments"]
                 for c in schema["anyOf"]}
    assert by_action["fill"]["properties"]["value"]["enum"] == page
    assert by_action["select_option"]["properties"]["options"]["maxItems"] == 1
    assert by_action["press"]["properties"]["key"] == {"type": "string", "enum": ["Enter", "Tab", "Escape"]}
    free = page_schema(obs, dataclasses.replace(cfg, text="free"))
    assert '"enum": ["Enter"' not in json.dumps(free)  # free text keeps a free key


def test_the_typed_text_mode_fits_its_longest_reply():
    from halo.policy.modes import get_mode

    m = get_mode("tiny_text")
    pr = m.prompt_config()
    assert {"fill", "select_option", "press"} <= set(pr.actions) and pr.text_max_chars >= 43  # gomail.send's bodies
    assert check_fits(pr, m.decoding_config().max_tokens) <= m.decoding_config().max_tokens


def test_goal_refs_name_the_goals_phrases_by_position_and_the_action_holds_the_phrase():
    import dataclasses

    from halo.env import actions as A
    from halo.policy.action_space import goal_phrases, resolve_refs

    obs = _obs('Send Lisa an email with the subject "Budget" saying "See you at 3 PM."')
    cfg = dataclasses.replace(TINY, text="goal_refs", actions=("fill", "send_msg_to_user"))
    fill = next(c for c in page_schema(obs, cfg)["anyOf"]
                if c["properties"]["arguments"]["properties"]["action"].get("const") == "fill")
    n = len(goal_phrases(obs.goal, cfg.text_max_chars))
    assert fill["properties"]["arguments"]["properties"]["value"]["enum"] == [f"#{i}" for i in range(1, n + 1)]
    assert resolve_refs(A.Fill("5", "#1"), obs, 24) == A.Fill("5", "Budget")
    assert resolve_refs(A.Fill("5", "#2"), obs, 24).value == "See you at 3 PM."
    assert resolve_refs(A.SendMsgToUser("#1"), obs, 24).text == "Budget"
    assert resolve_refs(A.Click("2"), obs, 24) == A.Click("2")


@pytest.mark.ml
def test_the_typed_text_modes_samples_type_the_goals_phrases(tiny_model_dir):
    """tiny_text (goal_refs) on the random-init model: every reply parses, and every typed value the env receives
    is one of the goal's phrases (the reference is resolved before the action reaches the page)."""
    from halo.policy.hf_backend import HFPolicy
    from halo.policy.modes import get_mode

    mode = get_mode("tiny_text")
    obs = _obs('Send Lisa an email with the subject "Budget" saying "See you at 3 PM."')
    pol = HFPolicy(tiny_model_dir, decoding=mode.decoding_config(), prompt=mode.prompt_config())
    samples = asyncio.run(pol.sample_actions(obs, 48))
    assert all(s.action is not None for s in samples), [s.error for s in samples if s.action is None]
    phrases = set(goal_phrases(obs.goal, 48))
    typed = [s.action.value for s in samples if s.action.name == "fill"]
    assert typed and all(v in phrases for v in typed), typed
    assert all('"#' in s.text for s in samples if s.action.name == "fill")  # the reply named a position


def test_by_action_roles_put_a_fill_on_a_field_and_a_click_anywhere():
    """``element_roles: by_action``: fill and press choose among the page's fields only (the one textbox here), a
    click among every visible control; a page without a field leaves fill out rather than admit nothing."""
    import dataclasses

    obs = _obs()
    cfg = dataclasses.replace(TINY, actions=("click", "fill", "press", "send_msg_to_user"), element_roles="by_action")

    def ids(schema):
        out = {}
        for c in schema["anyOf"]:
            args = c["properties"]["arguments"]["properties"]
            if "element" in args:
                out[args["action"]["const"]] = args["element"]["enum"]
        return out

    assert ids(page_schema(obs, cfg)) == {"click": ["1", "2", "5"], "fill": ["5"], "press": ["5"]}
    assert ids(page_schema(obs, TINY))["fill"] == ["1", "2", "5"]  # any: the default, as before
    no_field = dataclasses.replace(obs, elements={k: v for k, v in obs.elements.items() if k != "5"})
    assert ids(page_schema(no_field, cfg)) == {"click": ["1", "2"]}
    with pytest.raises(ValueError, match="element_roles"):
        PromptConfig(element_roles="fields")


def test_phrase_words_bounds_the_goals_word_spans():
    goal = 'Send Lisa Wong an email with the subject "Budget"'
    one = goal_phrases(goal, 48, max_words=1)
    assert one[0] == "Budget" and "Lisa" in one and "Lisa Wong" not in one and len(one) < len(goal_phrases(goal, 48))
    with pytest.raises(ValueError, match="phrase_words"):
        PromptConfig(phrase_words=5)


def test_the_goals_names_follow_its_quoted_strings_so_a_recipient_is_one_position_in_every_wording():
    """gomail.send's three wordings put the recipient's first name at #4, #4 and #7 when word spans came before
    names; with names right after the quoted strings it is #3 in all of them (the subject and message #1 and #2)."""
    import random

    from halo.tasks.families import get_family

    fam = get_family("gomail.send")
    p = fam.space()[0]
    goals = {fam.goal(p, random.Random(seed)) for seed in range(40)}
    assert len(goals) == 3  # every wording drawn
    first = p["name"].split()[0]
    for goal in goals:
        phrases = goal_phrases(goal, 48, max_words=1)
        assert phrases[:4] == [p["subject"], p["body"], first, p["name"].split()[1]], goal
    # a name inside a quoted string is that string's, not a name of its own; each name listed once
    assert goal_phrases('Send "Lisa Wong" the report, Lisa', 48, 1)[:3] == ["Lisa Wong", "Lisa", "Send"]
