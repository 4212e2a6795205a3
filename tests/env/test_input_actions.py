"""fill / select_option / press on the element itself (``js/input.js``): Playwright's semantics, no locator, and a
state that is not there fails at once with the reason (a locator waited out the action timeout)."""

from __future__ import annotations

import time

import pytest

from halo.env import actions as A
from halo.tasks.types import page_task

pytestmark = pytest.mark.browser


def el(obs, name: str):
    for e in obs.elements.values():
        if e.name == name:
            return e
    raise AssertionError(f"no element {name!r} in:\n{obs.axtree}")


@pytest.fixture
async def form_env(make_env, pages_url):
    env = make_env()
    obs = await env.reset(page_task(f"{pages_url}/form.html", goal="fill the form"))
    return env, obs


async def value(env, css: str):
    return await env.page.evaluate("(c) => document.querySelector(c).value", css)


async def test_fill_replaces_text_in_inputs_textareas_and_editables(form_env):
    env, obs = form_env
    r = await env.step(A.Fill(el(obs, "Full name").id, "Ada Lovelace"))
    assert r.info.error is None and await value(env, "#full") == "Ada Lovelace"
    assert 'StaticText "events=1"' in r.observation.axtree  # one input event: the text inserted as typing is
    r = await env.step(A.Fill(el(obs, "Notes").id, "second draft"))
    assert r.info.error is None and await value(env, "#notes") == "second draft"
    r = await env.step(A.Fill(el(obs, "Editor").id, "new text"))
    assert r.info.error is None and await env.page.inner_text("#editor") == "new text"
    r = await env.step(A.Fill(el(obs, "Full name").id, ""))  # empty: the selected text deleted
    assert r.info.error is None and await value(env, "#full") == ""


async def test_fill_sets_date_inputs_and_checks_numbers(form_env):
    env, obs = form_env
    r = await env.step(A.Fill(el(obs, "Date").id, " 2026-11-27 "))
    assert r.info.error is None and await value(env, "#date") == "2026-11-27"
    r = await env.step(A.Fill(el(obs, "Date").id, "next week"))
    assert "Malformed value" in r.info.error
    r = await env.step(A.Fill(el(obs, "Qty").id, "three"))
    assert "Cannot type text into input[type=number]" in r.info.error
    r = await env.step(A.Fill(el(obs, "Qty").id, "3"))
    assert r.info.error is None and await value(env, "#qty") == "3"


async def test_select_by_label_value_and_several(form_env):
    env, obs = form_env
    r = await env.step(A.SelectOption(el(obs, "Size").id, ("Extra large",)))  # label, whitespace normalised
    assert r.info.error is None and await value(env, "#size") == "xl"
    r = await env.step(A.SelectOption(el(obs, "Size").id, ("s",)))  # value
    assert r.info.error is None and await value(env, "#size") == "s"
    r = await env.step(A.SelectOption(el(obs, "Toppings").id, ("Cheese", "o")))
    chosen = await env.page.evaluate("[...document.querySelector('#top').selectedOptions].map(o => o.value)")
    assert r.info.error is None and chosen == ["c", "o"]
    r = await env.step(A.SelectOption(el(obs, "Size").id, ("Medium",)))
    assert "has no option 'Medium'; its options are 'Small', 'Extra large', 'Sold out'" in r.info.error
    r = await env.step(A.SelectOption(el(obs, "Size").id, ("Sold out",)))
    assert "is disabled" in r.info.error and await value(env, "#size") == "s"


async def test_press_focuses_the_element_first(form_env):
    env, obs = form_env
    r = await env.step(A.Press(el(obs, "Notes").id, "Enter"))
    assert r.info.error is None and "\n" in await value(env, "#notes")  # the key reached the textarea
    assert await env.page.evaluate("document.activeElement.id") == "notes"


async def test_fill_scrolls_a_far_field_into_view(form_env):
    env, obs = form_env
    r = await env.step(A.Fill(el(obs, "Far field").id, "here"))
    assert r.info.error is None and await value(env, "#far") == "here"
    assert await env.page.evaluate("scrollY") > 1000


async def test_states_that_are_not_there_fail_at_once(form_env):
    env, obs = form_env
    full = el(obs, "Full name").id
    await env.page.evaluate("document.querySelector('#full').style.visibility = 'hidden'")
    cases = [(A.Fill(el(obs, "Locked").id, "z"), "fill on element", "disabled"),
             (A.Fill(el(obs, "Fixed").id, "z"), "fill on element", "read-only"),
             (A.Fill(full, "z"), "fill on element", "not visible"),
             (A.Fill(el(obs, "Size").id, "z"), "fill on element", "use select_option"),
             (A.SelectOption(el(obs, "Notes").id, ("a",)), "select_option on element", "not a <select>"),
             (A.Press("99999", "Enter"), "not on the page", "")]
    for action, where, why in cases:
        t0 = time.perf_counter()
        r = await env.step(action)
        assert r.info.error and where in r.info.error and why in r.info.error, (action, r.info.error)
        assert time.perf_counter() - t0 < 2, f"{action} took {time.perf_counter() - t0:.1f} s to fail"
    assert await value(env, "#locked") == "x" and await value(env, "#fixed") == "y" and await value(env, "#full") == "old name"
