"""``prompt.element_ids: stable``: an element keeps its id whatever comes before it on the page, the policy's prompt,
grammar and parse all read the same aliased ids, and the env gets its own id back."""

from __future__ import annotations

import asyncio
import dataclasses
import json

import pytest
from policy_helpers import constrained_tiny_policy, make_obs

from halo.env import actions as A
from halo.env.types import Element
from halo.policy.element_ids import AliasedObservation, aliased, stable_ids, to_real
from halo.policy.prompt import PromptConfig
from halo.policy.scripted import ScriptedPolicy


def compose(chip: bool) -> dict[str, Element]:
    """GoMail's compose form as the env numbers it: a recipient chip before To shifts every id after it by one."""
    names = [("textbox", "Search mail")] + ([("button", "Remove Peter Green")] if chip else []) + [
        ("textbox", "To recipients"), ("button", "Add Cc recipients"), ("textbox", "Subject"),
        ("textbox", "Message Body"), ("button", "Send"), ("button", "More send options")]
    return {str(180 + k): Element(str(180 + k), role, name, (500, 100 + 30 * k, 200, 24), value="")
            for k, (role, name) in enumerate(names)}


def by_name(elements: dict[str, Element]) -> dict[str, str]:
    return {el.name: i for i, el in elements.items()}


def test_an_element_keeps_its_stable_id_when_a_chip_shifts_the_pages_ids():
    with_chip, without = compose(True), compose(False)
    assert by_name(with_chip)["Send"] != by_name(without)["Send"]  # the env's ids shift...
    assert by_name(without)["More send options"] == by_name(with_chip)["Send"]  # ...onto another button
    a, b = stable_ids(with_chip), stable_ids(without)
    for name in ("To recipients", "Subject", "Message Body", "Send", "More send options", "Search mail"):
        assert a[by_name(with_chip)[name]] == b[by_name(without)[name]], name
    assert len(set(a.values())) == len(a) and all(1 <= int(v) <= 999 for v in a.values())


def test_same_named_elements_and_crowded_pages_get_distinct_ids():
    same = {str(i): Element(str(i), "link", "Read more") for i in range(1, 41)}
    ids = stable_ids(same)
    assert len(set(ids.values())) == 40
    assert stable_ids(same) == ids  # deterministic
    big = {str(i): Element(str(i), "button", f"b{i % 7}") for i in range(1, 1501)}
    assert len(set(stable_ids(big).values())) == 1500  # past 999 the range grows (ids of more than one token)


def test_the_aliased_observation_carries_stable_ids_everywhere_the_policy_reads_ids():
    els = compose(False)
    real = by_name(els)
    tree = "\n".join(f"[{i}] {el.role} {el.name!r}" for i, el in els.items()) + "\nStaticText 'a [7] note'"
    obs = make_obs(elements=els, axtree=tree, appeared=frozenset({real["Send"]}),
                   last_actions=(f"click('{real['Subject']}')", "fill('999', 'x')", "go_back()"))
    view = aliased(obs, "stable")
    to = stable_ids(els)
    assert isinstance(view, AliasedObservation) and aliased(view, "stable") is view and aliased(obs, "page") is obs
    assert set(view.elements) == set(to.values()) and all(el.id == i for i, el in view.elements.items())
    assert f"[{to[real['Send']]}] button 'Send'" in view.axtree and "[7] note" in view.axtree
    assert view.last_actions == (f"click('{to[real['Subject']]}')", "fill('?', 'x')", "go_back()")
    assert view.appeared == {to[real["Send"]]}
    assert to_real(A.Click(to[real["Send"]]), view) == A.Click(real["Send"])
    assert to_real(A.Fill(to[real["Subject"]], "Hi"), view) == A.Fill(real["Subject"], "Hi")
    assert to_real(A.GoBack(), view) == A.GoBack() and to_real(A.Click(real["Send"]), obs) == A.Click(real["Send"])
    with pytest.raises(ValueError):
        aliased(obs, "names")
    with pytest.raises(ValueError):
        PromptConfig(element_ids="names")


@pytest.mark.parametrize("chip", [True, False])
def test_a_policy_clicks_the_button_by_its_stable_id_and_the_env_gets_its_own(chip):
    """The script reads the policy's view (as a model reads its prompt) and always replies with the same id for Send:
    the action that reaches the env is Send's own id on both forms."""
    cfg = PromptConfig(element_ids="stable", elements="visible", system="none", user="compact", fields=True)
    els = compose(chip)
    send = by_name(els)["Send"]
    seen: list[str] = []

    def script(view):
        i = next(i for i, el in view.elements.items() if el.name == "Send")
        seen.append(i)
        return A.Click(i)

    policy = ScriptedPolicy(script, prompt=cfg)
    sample = asyncio.run(policy.sample_actions(make_obs(elements=els)))[0]
    assert sample.action == A.Click(send) and seen == [stable_ids(els)[send]]
    assert f'"element": "{seen[0]}"' in sample.text
    schema = json.loads(policy.grammar_key(make_obs(elements=els)))
    assert seen[0] in json.dumps(schema) and f'"{send}"' not in json.dumps(schema)


def test_the_tiny_models_prompt_grammar_and_replies_use_stable_ids(tiny_model):
    """The real sampler under stable ids: the prompt lists the stable ids, every constrained reply names one of
    them, and every parsed action names the env's id of the element the reply named."""
    policy = constrained_tiny_policy(tiny_model)
    policy.prompt_config = dataclasses.replace(policy.prompt_config, element_ids="stable", user="compact",
                                               fields=True, actions=("click", "fill", "send_msg_to_user"))
    els = compose(False)
    obs = make_obs(elements=els, axtree="", last_actions=())
    to = stable_ids(els)
    back = {v: k for k, v in to.items()}
    text = policy.build_prompt(obs).user_text
    subject = by_name(els)["Subject"]
    assert f"[{to[subject]}] Subject" in text and f"[{subject}] Subject" not in text
    samples = asyncio.run(policy.sample_actions(obs, n=12))
    clicked = 0
    for s in samples:
        assert s.action is not None, s.text
        if isinstance(s.action, (A.Click, A.Fill)):
            named = json.loads(s.text.split("\n")[1])["arguments"]["element"]
            assert named in back and s.action.element == back[named]
            clicked += 1
    assert clicked


def test_one_reply_reading_resolves_goal_refs_and_maps_stable_ids_back():
    """``parse_to_env`` is how the policy backends and Tinker's env both read a reply: a ``#n`` goal reference becomes
    the phrase, the stable id the env's own; a reply naming an id the view lacks is a parse error, not a guess."""
    from halo.policy.parse import parse_to_env
    from halo.policy.prompt import tool_call_text

    els = compose(True)
    real = by_name(els)
    obs = make_obs(elements=els, goal='Email Peter with the subject "Budget" saying "See you at 3 PM."')
    cfg = PromptConfig(element_ids="stable", text="goal_refs")
    view = aliased(obs, "stable")
    subject = stable_ids(els)[real["Subject"]]
    got = parse_to_env(tool_call_text(A.Fill(subject, "#1")), view, cfg)
    assert got.action == A.Fill(real["Subject"], "Budget")
    plain = parse_to_env(tool_call_text(A.Fill(subject, "#1")), view, dataclasses.replace(cfg, text="goal"))
    assert plain.action == A.Fill(real["Subject"], "#1")  # typed as written where refs are not the mode's
    missing = parse_to_env(tool_call_text(A.Click("1000")), view, cfg)
    assert missing.action is None and missing.error
