"""``explore_unit: value`` (policy/explore_values.py): an explored reply draws each enumerated value whole, uniformly
among the page's, instead of token by token (where a three-digit id is drawn ~30x less often than a one-digit one)."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import pytest

from halo.policy.explore_values import ValueDraw, branches
from halo.policy.grammar import action_json_schema

IDS = [str(i) for i in range(1, 190) if i % 7]  # 162 ids of one to three digits, as a GoMail page has
FIELDS = ["5", "181", "184", "185"]
PHRASES = ["#1", "#2", "#3"]


def schema():
    return action_json_schema(element_ids={"click": IDS, "fill": FIELDS}, actions=("click", "fill", "send_msg_to_user"),
                              text_choices=PHRASES, single_tool=True)


def spell(draw: ValueDraw, head: str, vocab: list[str], allowed_next=None) -> str:
    """Write the reply on from ``head`` with the drawn tokens until the value's closing quote (``vocab``: the
    token strings; every token allowed unless ``allowed_next`` says which)."""
    text = head
    while True:
        allowed = allowed_next(text) if allowed_next else range(len(vocab))
        t = draw.token(text, list(allowed), lambda i: vocab[i])
        if t is None:
            return text
        text += vocab[t]
        if text.endswith('"') and not text.endswith('\\"'):
            return text


CHARS = [c for c in '0123456789#"'] + ["18", "186", '"}', "1"]  # single characters and a few merged tokens


def test_branches_flatten_each_alternative():
    b = branches(schema())
    click = next(x for x in b if x.get("action") == ["click"])
    fill = next(x for x in b if x.get("action") == ["fill"])
    assert sorted(click["element"]) == sorted(IDS) and sorted(fill["element"]) == sorted(FIELDS) and fill["value"] == PHRASES
    assert any(x.get("action") == ["send_msg_to_user"] and x.get("text") == PHRASES for x in b)


def test_an_element_id_is_drawn_uniformly_whatever_its_digits():
    head = '{"name": "browser", "arguments": {"action": "click", "element": "'
    counts = Counter(spell(ValueDraw(schema(), random.Random(i)), head, CHARS)[len(head):-1] for i in range(8000))
    assert set(counts) <= set(IDS) and len(counts) >= 150
    three = sum(n for v, n in counts.items() if len(v) == 3) / 8000
    share = sum(len(v) == 3 for v in IDS) / len(IDS)
    assert three == pytest.approx(share, abs=0.03)  # token by token: ~1/3 of it
    assert 20 <= counts["186"] <= 80 and 20 <= counts["8"] <= 80  # 8000 / 162 = 49 each


def test_the_element_follows_the_action_already_written_and_the_phrase_is_one_of_the_choices():
    head = '{"name": "browser", "arguments": {"action": "fill", "element": "'
    seen = set()
    for i in range(200):
        d = ValueDraw(schema(), random.Random(i))
        text = spell(d, head, CHARS)
        seen.add(text[len(head):-1])
        text = spell(d, text + ', "value": "', CHARS)
        assert text.rsplit('"', 2)[1] in PHRASES
    assert seen == set(FIELDS)


def test_the_action_itself_is_drawn_among_the_actions():
    vocab = [*CHARS, "click", "fill", "send_msg_to_user", "cl", "ick"]
    head = '{"name": "browser", "arguments": {"action": "'
    got = Counter(spell(ValueDraw(schema(), random.Random(i)), head, vocab)[len(head):-1] for i in range(600))
    assert set(got) == {"click", "fill", "send_msg_to_user"} and min(got.values()) > 150


def test_the_longest_token_that_spells_on_is_taken_and_the_grammar_is_obeyed():
    head = '{"name": "browser", "arguments": {"action": "click", "element": "'
    d = ValueDraw(schema(), random.Random(0))
    d.drawn["element"] = "186"
    assert CHARS[d.token(head, list(range(len(CHARS))), lambda i: CHARS[i])] == "186"
    assert CHARS[d.token(head, [CHARS.index("1"), CHARS.index("18")], lambda i: CHARS[i])] == "18"
    # the closing quote merged with what follows it, where the grammar allows only that
    assert CHARS[d.token(head + "186", [CHARS.index('"}')], lambda i: CHARS[i])] == '"}'
    assert d.token('{"name": "browser", "arguments": {"action": "click", "x": ', [0, 1], lambda i: CHARS[i]) is None
    # nothing written so far can lead to an id the page has: no draw (the caller's uniform token draw goes on)
    assert ValueDraw(schema(), random.Random(1)).token(head + "0", list(range(len(CHARS))), lambda i: CHARS[i]) is None
    d = ValueDraw(schema(), random.Random(1))  # "7" is not an id (7 % 7 == 0): after "7", only 71-76 and 78-79
    assert d.token(head + "7", list(range(len(CHARS))), lambda i: CHARS[i]) is not None and d.drawn["element"] in {
        "71", "72", "73", "74", "75", "76", "78", "79"}


@pytest.mark.ml
def test_value_exploration_in_the_tiny_policy_draws_ids_whole_and_keeps_the_policys_logprobs(tiny_model):
    """In the tiny policy, explored replies with ``explore_values`` click 3-digit ids about as often as their share of
    the page, and each reply still carries the policy's own logprobs of its tokens (the learner's ratio starts at 1).
    (The tiny model's tokenizer spells most ids in one token, so token-uniform draws are near uniform here too; Qwen's
    splits digits, where the two differ: the unit tests above.)"""
    import torch
    from policy_helpers import make_obs, screenshot

    from halo.env.types import Element
    from halo.policy.base import DecodingConfig
    from halo.policy.hf_backend import HFPolicy
    from halo.policy.prompt import PromptConfig
    from halo.rl.forward import token_logprobs, training_batch

    torch.set_num_threads(1)
    elements = {str(i): Element(str(i), "button", f"B{i}", (10 + (i % 20) * 30, 10 + (i // 20) * 30, 20, 20))
                for i in range(1, 190) if i % 7}
    obs = make_obs(elements=elements, axtree="\n".join(f"[{i}] button \"B{i}\"" for i in elements),
                   screenshot=screenshot())
    three_share = sum(len(i) == 3 for i in elements) / len(elements)
    p = HFPolicy(tiny_model, decoding=DecodingConfig(temperature=1.0, max_tokens=64, constrained=True, seed=5,
                                                      jump_forward=True),
                 prompt=PromptConfig(max_pixels=4096 * 4, min_pixels=4096, actions=("click",), elements="visible",
                                     text="goal", text_max_chars=24, single_tool=True))
    p.explore, p.explore_values = 1.0, True
    prompt = p.build_prompt(obs)
    drawn = asyncio.run(p.sample_prompt(prompt, obs, 64, 1.0))
    assert all(s.explored and s.action is not None for s in drawn)
    assert len({s.action.element for s in drawn}) >= 40  # 64 draws among 162 ids: ~54 distinct when uniform
    assert abs(sum(len(s.action.element) == 3 for s in drawn) / len(drawn) - three_share) < 0.2
    with torch.no_grad():
        for s in drawn[:4]:
            batch = training_batch(p.encode(prompt), [s.token_ids], p.pad_id)
            lp = token_logprobs(p.model, batch, 1.0, p.grammar_mask(s.grammar, s.token_ids))
            lp = lp[0, batch.prompt_len - 1:batch.prompt_len - 1 + len(s.token_ids)]
            assert max(abs(a - b) for a, b in zip(lp.tolist(), s.sampler_logprobs)) <= 1e-3
    p.explore_values = False  # per reply as before: the same replies are drawn, now token by token
    assert all(s.explored for s in asyncio.run(p.sample_prompt(prompt, obs, 8, 1.0)))


def test_typed_text_prefers_the_goals_quoted_strings_half_the_time_and_keeps_every_phrase():
    phrases = [f"#{i}" for i in range(1, 21)]  # two quoted strings (#1, #2) among 20 phrases
    sch = action_json_schema(element_ids={"click": IDS, "fill": FIELDS}, actions=("click", "fill"),
                             text_choices=phrases, single_tool=True)
    head = '{"name": "browser", "arguments": {"action": "fill", "element": "5", "value": "'
    vocab = [c for c in '0123456789#"']
    n = 6000
    got = Counter(spell(ValueDraw(sch, random.Random(i), prefer=["#1", "#2"]), head, vocab)[len(head):-1]
                  for i in range(n))
    assert set(got) == set(phrases)  # every phrase is still drawn
    quoted = (got["#1"] + got["#2"]) / n
    assert quoted == pytest.approx(0.5 + 0.5 * 2 / 20, abs=0.03)  # without prefer: 2/20
    plain = Counter(spell(ValueDraw(sch, random.Random(i)), head, vocab)[len(head):-1] for i in range(n))
    assert (plain["#1"] + plain["#2"]) / n == pytest.approx(0.1, abs=0.02)


def test_prefer_never_bends_an_element_draw():
    head = '{"name": "browser", "arguments": {"action": "click", "element": "'
    counts = Counter(spell(ValueDraw(schema(), random.Random(i), prefer=["186"]), head, CHARS)[len(head):-1]
                     for i in range(3000))
    assert counts["186"] < 60  # 3000 / 162 = 19 when uniform; preferring it would give ~1,500


def test_quoted_choices_name_the_goals_quoted_strings_as_the_grammar_spells_them():
    from types import SimpleNamespace

    from halo.env.types import Observation
    from halo.policy.action_space import goal_phrases, quoted_choices

    goal = 'Send Kevin Moore an email with the subject "Lunch" saying "See you at noon"'
    obs = Observation(screenshot=b"", image_format="png", axtree="", elements={}, url="http://x/", goal=goal, step=0)
    refs = SimpleNamespace(text="goal_refs", text_max_chars=48, phrase_words=1)
    assert quoted_choices(obs, refs) == ["#1", "#2"]
    words = SimpleNamespace(text="goal", text_max_chars=48, phrase_words=1)
    assert quoted_choices(obs, words) == ["Lunch", "See you at noon"]
    assert set(quoted_choices(obs, words)) <= set(goal_phrases(goal, 48, 1))
    assert quoted_choices(obs, SimpleNamespace(text="free", text_max_chars=48, phrase_words=1)) == []


def _form(values: dict[str, str], appeared=frozenset()):
    """A compose window: a search box, To, Subject and Message fields holding ``values``, 40 buttons (the last
    three ``appeared``)."""
    from halo.env.types import Element, Observation

    els = {i: Element(i, "textbox", n, (10, 10, 50, 20), values.get(i, ""))
           for i, n in (("5", "Search mail"), ("181", "To recipients"), ("184", "Subject"), ("185", "Message Body"))}
    els.update({str(i): Element(str(i), "button", f"b{i}", (10, 10, 50, 20)) for i in range(200, 240)})
    goal = 'Send Kevin Moore an email with the subject "Lunch" saying "See you at noon"'
    return Observation(screenshot=b"", image_format="png", axtree="", elements=els, url="http://x/", goal=goal,
                       step=1, appeared=frozenset(appeared))


def test_the_explore_prior_names_untyped_quoted_strings_empty_fields_and_new_controls():
    from halo.policy.action_space import explore_prior, goal_phrases
    from halo.policy.modes import get_mode

    cfg = get_mode("tiny_text").with_overrides(actions=["click", "fill", "go_back"]).prompt_config()
    phrases = goal_phrases(_form({}).goal, cfg.text_max_chars, cfg.phrase_words)
    kevin, moore = (f"#{phrases.index(w) + 1}" for w in ("Kevin", "Moore"))  # the recipient's names, as refs
    fresh = explore_prior(_form({}), cfg)
    assert fresh["value"] == fresh["text"] == [["#1", "#2"], [kevin, moore]]  # quoted strings, then names
    assert sorted(fresh["fill.element"]) == ["181", "184", "185", "5"] and "click.element" not in fresh
    half = explore_prior(_form({"185": "See you at  noon", "181": "Kevin"}, appeared={"238", "239"}), cfg)
    assert half["value"] == [["#1"], [moore]]  # the message (whitespace and case aside) and Kevin are typed
    assert sorted(half["fill.element"]) == ["184", "5"]
    assert sorted(half["click.element"]) == ["238", "239"]
    # a page that opens with a suggestion showing (gomail.send_pick: the name already typed) has no last action that
    # brought it: a list's options on show are preferred all the same
    from halo.env.types import Element
    shown = _form({"181": "Kevin"})
    shown.elements["300"] = Element("300", "option", "Kevin Moore <kevin.moore@example.com>", (10, 40, 200, 20))
    assert explore_prior(shown, cfg)["click.element"] == ["300"]
    done = explore_prior(_form({"184": "lunch", "185": "See you at noon", "5": "Kevin Moore"}), cfg)
    assert done["value"] == [["#1", "#2"], [kevin, moore]]  # every one typed somewhere: as on a fresh page
    words = get_mode("tiny_text").with_overrides(actions=["click", "fill"], text="goal", max_tokens=200).prompt_config()
    assert explore_prior(_form({}), words)["value"] == [["Lunch", "See you at noon"], ["Kevin", "Moore"]]


def test_a_prior_per_action_bends_that_actions_element_draw_only():
    """``fill.element`` bends where a fill types (half the draws among the preferred fields), never a click's
    element; a prior on typed text (``value``) still applies."""
    head_fill = '{"name": "browser", "arguments": {"action": "fill", "element": "'
    head_click = '{"name": "browser", "arguments": {"action": "click", "element": "'
    prefer = {"fill.element": ["184"], "value": ["#1"], "click.element": ["186"]}
    n = 4000
    fills = Counter(spell(ValueDraw(schema(), random.Random(i), prefer=prefer), head_fill, CHARS)[len(head_fill):-1]
                    for i in range(n))
    assert fills["184"] / n == pytest.approx(0.5 + 0.5 / 4, abs=0.03)  # uniform: 1/4
    clicks = Counter(spell(ValueDraw(schema(), random.Random(i), prefer={"fill.element": ["186"]}), head_click,
                           CHARS)[len(head_click):-1] for i in range(n))
    assert clicks["186"] / n < 0.02  # 1/162 when uniform
    clicks = Counter(spell(ValueDraw(schema(), random.Random(i), prefer=prefer), head_click, CHARS)[len(head_click):-1]
                     for i in range(n))
    assert clicks["186"] / n == pytest.approx(0.5 + 0.5 / 162, abs=0.03)


def test_tiers_of_a_prior_take_half_then_a_quarter_of_the_draws():
    """``value: [[quoted], [names]]``: the quoted strings half the typed values, the names a quarter, every phrase
    the rest uniformly; a tier with nothing on the page passes its share on to the next."""
    phrases = [f"#{i}" for i in range(1, 21)]
    sch = action_json_schema(element_ids={"click": IDS, "fill": FIELDS}, actions=("click", "fill"),
                             text_choices=phrases, single_tool=True)
    head = '{"name": "browser", "arguments": {"action": "fill", "element": "5", "value": "'
    vocab = [c for c in '0123456789#"']
    n = 6000

    def shares(prefer):
        got = Counter(spell(ValueDraw(sch, random.Random(i), prefer={"value": prefer}), head, vocab)[len(head):-1]
                      for i in range(n))
        assert set(got) == set(phrases)
        return (got["#1"] + got["#2"]) / n, (got["#7"] + got["#8"]) / n

    quoted, names = shares([["#1", "#2"], ["#7", "#8"]])
    assert quoted == pytest.approx(0.5 + 0.25 * 2 / 20, abs=0.03)
    assert names == pytest.approx(0.25 + 0.25 * 2 / 20, abs=0.03)
    quoted, names = shares([["#99"], ["#7", "#8"]])  # the first tier names nothing the page allows
    assert names == pytest.approx(0.5 + 0.5 * 2 / 20, abs=0.03)


def test_repeating_reads_the_last_actions():
    """The policy is stuck when its last action repeats one of the few before it on the same element (a fill of
    another value into the same field too); an element gone from the page (``?``) repeats nothing."""
    import dataclasses

    from halo.policy.action_space import acted, repeating

    obs = _form({})
    def at(*last):
        return dataclasses.replace(obs, last_actions=last)
    assert acted(at("fill('5', 'Lunch')", "go_back()", "click('201')")) == [("fill", "5"), ("go_back", ""),
                                                                            ("click", "201")]
    assert repeating(at("fill('5', 'Lunch')", "click('201')", "fill('5', 'Kevin')"))
    assert repeating(at("go_back()", "go_back()"))
    assert not repeating(at("fill('5', 'Lunch')", "fill('184', 'Lunch')"))
    assert not repeating(at("click('201')")) and not repeating(obs)
    assert not repeating(at("click('?')", "click('?')"))


def test_the_novel_prior_adds_unacted_buttons_one_per_name_and_fresh_actions_when_stuck():
    """``novel``: a click's element prefers (after what just appeared) the page's buttons not yet acted on, one per
    name; where the policy repeats itself, the action prefers those other than the one repeated (go_back aside).
    Without it, as before."""
    import dataclasses

    from halo.env.types import Element
    from halo.policy.action_space import explore_prior
    from halo.policy.modes import get_mode

    cfg = get_mode("tiny_text").with_overrides(actions=["click", "fill", "go_back"]).prompt_config()
    obs = _form({}, appeared={"238", "239"})
    els = dict(obs.elements)
    els.update({str(i): Element(str(i), "button", "Not starred", (10, 10, 50, 20)) for i in range(300, 315)})
    els["400"] = Element("400", "link", "Inbox", (10, 10, 50, 20))
    obs = dataclasses.replace(obs, elements=els, last_actions=("click('201')", "fill('5', 'Lunch')"))
    plain = explore_prior(obs, cfg)
    assert sorted(plain["click.element"]) == ["238", "239"] and "action" not in plain
    novel = explore_prior(obs, cfg, novel=True)
    new, buttons = novel["click.element"]
    assert sorted(new) == ["238", "239"]
    assert "201" not in buttons and "400" not in buttons and "5" not in buttons  # acted on; a link; a field
    assert [i for i in buttons if els[i].name == "Not starred"] == ["300"]  # one per name
    assert len(buttons) == 40 - 1 + 1  # b200-b239 but b201, and one Not starred
    assert "action" not in novel  # not repeating itself
    stuck = dataclasses.replace(obs, last_actions=("fill('5', 'Lunch')", "fill('5', 'Kevin')"))
    assert explore_prior(stuck, cfg, novel=True)["action"] == ["click"]  # go_back is never the novelty
    on_send = dataclasses.replace(obs, last_actions=("fill('185', 'x')", "click('201')", "click('201')"))
    assert explore_prior(on_send, cfg, novel=True)["action"] == ["fill"]  # not the one repeated
    assert "action" not in explore_prior(stuck, cfg)


@pytest.mark.ml
def test_a_stuck_step_is_explored_at_explore_stuck(tiny_model):
    """In the tiny policy with ``explore`` 0 and ``explore_stuck`` 1, a page whose last actions repeat is explored
    in every reply, a page without repetition in none."""
    import dataclasses

    import torch
    from policy_helpers import make_obs, screenshot

    from halo.env.types import Element
    from halo.policy.base import DecodingConfig
    from halo.policy.hf_backend import HFPolicy
    from halo.policy.prompt import PromptConfig

    torch.set_num_threads(1)
    elements = {str(i): Element(str(i), "button", f"B{i}", (10 + i * 30, 10, 20, 20)) for i in range(1, 9)}
    obs = make_obs(elements=elements, axtree="\n".join(f"[{i}] button \"B{i}\"" for i in elements),
                   screenshot=screenshot())
    p = HFPolicy(tiny_model, decoding=DecodingConfig(temperature=1.0, max_tokens=64, constrained=True, seed=5,
                                                      jump_forward=True),
                 prompt=PromptConfig(max_pixels=4096 * 4, min_pixels=4096, actions=("click",), elements="visible",
                                     text="goal", text_max_chars=24, single_tool=True))
    p.explore, p.explore_stuck, p.explore_values, p.explore_novel = 0.0, 1.0, True, True
    stuck = dataclasses.replace(obs, last_actions=("click('3')", "click('3')"))
    fresh = dataclasses.replace(obs, last_actions=("click('3')", "click('4')"))
    assert all(s.explored for s in asyncio.run(p.sample_prompt(p.build_prompt(stuck), stuck, 8, 1.0)))
    assert not any(s.explored for s in asyncio.run(p.sample_prompt(p.build_prompt(fresh), fresh, 8, 1.0)))


def test_the_fill_prior_prefers_fill_while_a_quoted_string_is_untyped_and_a_field_empty():
    """``fill``: an explored step's action prefers fill while the goal quotes a string no field holds and a field is
    empty; not once every quoted string is typed (a half-typed recipient is picked, not typed), not where no field
    is empty, not where the mode has no fill, and a repeating step under ``novel`` still prefers the other actions."""
    import dataclasses

    from halo.policy.action_space import explore_prior
    from halo.policy.modes import get_mode

    cfg = get_mode("tiny_text").with_overrides(actions=["click", "fill", "go_back"]).prompt_config()
    assert explore_prior(_form({}), cfg, fill=True)["action"] == ["fill"]
    assert "action" not in explore_prior(_form({}), cfg)  # off: as before
    subject_left = _form({"185": "See you at noon", "181": "Kevin"})
    assert explore_prior(subject_left, cfg, fill=True)["action"] == ["fill"]
    names_left = _form({"184": "Lunch", "185": "See you at noon", "181": "Kevin"})  # Moore untyped: a name
    assert "action" not in explore_prior(names_left, cfg, fill=True)
    full = _form({"184": "Lunch", "185": "See you at noon", "181": "x", "5": "y"})  # every quoted one typed, none empty
    assert "action" not in explore_prior(full, cfg, fill=True)
    no_empty = _form({"184": "x", "185": "y", "181": "z", "5": "w"})  # quoted strings untyped but no field empty
    assert "action" not in explore_prior(no_empty, cfg, fill=True)
    clicks = get_mode("tiny_text").with_overrides(actions=["click", "go_back"]).prompt_config()
    assert "action" not in explore_prior(_form({}), clicks, fill=True)
    stuck = dataclasses.replace(_form({}), last_actions=("fill('5', 'Lunch')", "fill('5', 'Kevin')"))
    assert explore_prior(stuck, cfg, novel=True, fill=True)["action"] == ["click"]
