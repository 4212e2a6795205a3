"""GoMail's own family checks; what every site's families keep (instances, graders, oracles played in real Chromium
on three instances per family spread over the space, the untouched mailbox refused, progress along the oracles)
is checked in ``test_family_contract.py``. Here: every email goal names exactly one email of the whole mailbox,
a family episode ends as soon as its checks pass, and a dropped connection under a state read is tried once more.
Its near misses (the wrong folder, email or recipient, played in the browser or edited into a solved /finish JSON)
are in ``family_oracles_gomail.py``."""

from __future__ import annotations

import pytest

from halo.tasks.families import get_family


# ---------------------------------------------------------------- generators (no browser)
def test_every_email_goal_names_exactly_one_email_of_the_whole_mailbox():
    """The mailbox holds hundreds of emails (most on later pages): a goal's subject, sender or day still names one
    email of all of them, and that email is on the Inbox's first page."""
    from halo.tasks.families.gomail import _EMAILS, PAGE1, _when

    mail = [e for e in _EMAILS.values() if not e["draft"]]
    assert len(mail) > 450
    key = {"subject": lambda e: e["subject"], "sender": lambda e: e["name"], "date": _when}
    for name in ("gomail.open", "gomail.star", "gomail.trash"):
        for p in get_family(name).space():
            target = _EMAILS[p["id"]]
            same = [e["id"] for e in mail if key[p["by"]](e) == key[p["by"]](target)]
            assert same == [p["id"]] and p["id"] in PAGE1, (name, p, same)
    assert get_family("gomail.open").size == 148  # 50 emails, each named by subject and day, 48 by sender too


def test_the_recipients_name_typed_into_to_pays_before_its_suggestion_is_picked():
    """gomail.send's subgoals: the first letters of the recipient's first or last name (or address) in To pass
    "recipient typed"; another name, one letter, or nothing do not; a picked chip keeps it passing (To is empty
    then), so progress does not fall when the suggestion is clicked."""
    from types import SimpleNamespace

    from halo.env.types import Element
    from halo.tasks.families.base import Finish

    fam = get_family("gomail.send")
    p = fam.instance(3).params
    first, last = p["name"].split()

    def typed(value: str, chip: bool = False) -> bool:
        els = {"1": Element("1", "textbox", "Subject", value=""),
               "2": Element("2", "textbox", "To recipients", value=value)}
        if chip:
            els["3"] = Element("3", "button", f"Remove {p['name']}")
        checks = {c.name: c.passed for c in fam.subgoals(Finish({}), p, SimpleNamespace(elements=els))}
        return checks["recipient typed"]

    assert typed(first) and typed(first[:3].lower()) and typed(last) and typed(p["to"])
    assert not typed("") and not typed(first[0]) and not typed("zzz") and not typed(f"{first}x")
    assert typed("", chip=True)


# ---------------------------------------------------------------- in the browser
@pytest.mark.browser
async def test_a_family_episode_ends_when_its_checks_pass(families_pool, family_site_urls):
    """BrowserGym's validate() after every step: the right click ends the episode graded SUCCESS with no final
    message; a wrong click goes on; a REAL task's episode does not end on its own."""
    from family_oracles_gomail import FOLDER_LINKS, folder_link
    from site_helpers import Driver

    from halo.env import actions as A
    from halo.env.env import BrowserEnv
    from halo.tasks.families import family_task
    from halo.tasks.real import get_task

    inst = get_family("gomail.folder").instance(3)
    names = list(FOLDER_LINKS)
    wrong = names[(names.index(inst.params["folder"]) + 1) % len(names)]
    env = BrowserEnv(families_pool, max_steps=5)
    try:
        d = Driver(env, await env.reset(family_task(inst, family_site_urls)))
        res = await d.step(A.Click(folder_link(d, wrong).id))
        assert not res.done and res.info.grade is None and res.reward == 0.0
        res = await d.step(A.Click(folder_link(d, inst.params["folder"]).id))
        assert res.done and not res.truncated and res.reward == 1.0 and res.info.grade.success, res.info
        assert (await env.step(A.Wait(time=0.0))).info.error.startswith("the episode is over")
        d = Driver(env, await env.reset(get_task("gomail-1", sites="local", site_urls=family_site_urls)))
        res = await d.step(A.Click(folder_link(d, wrong).id))
        assert not res.done and res.info.grade is None
    finally:
        await env.close()


@pytest.mark.browser
async def test_a_connection_dropped_under_a_state_read_is_tried_once_more(families_pool, family_site_urls):
    """A keep-alive socket the site closed as the request went out (ECONNRESET, seen under load) costs one more try,
    not the episode; a second drop is the site's failure, reported as such."""
    from playwright.async_api import Error as PlaywrightError

    from halo.env.env import BrowserEnv
    from halo.errors import SiteError
    from halo.tasks.families import family_task

    env = BrowserEnv(families_pool, max_steps=3)
    try:
        await env.reset(family_task(get_family("gomail.folder").instance(0), family_site_urls))
        request = env._ctx.request
        real_get, drops = request.get, []

        async def flaky(url, **kw):
            if len(drops) < want:
                drops.append(url)
                raise PlaywrightError("APIRequestContext.get: read ECONNRESET")
            return await real_get(url, **kw)

        request.get = flaky
        want = 1
        assert "differences" in await env.finish_state() and len(drops) == 1
        want, drops[:] = 2, []
        with pytest.raises(SiteError, match="ECONNRESET"):
            await env.finish_state()
        assert len(drops) == 2
    finally:
        await env.close()


@pytest.mark.browser
async def test_a_rung_opens_at_its_stage_and_a_half_written_send_is_a_dead_end(families_pool, family_site_urls):
    """``gomail.send_body`` opens on the compose window holding the recipient's chip and the subject (its progress
    counts them), typing the message raises progress, and sending before it is written is a dead end: progress 0,
    below every state on the road to the goal (sending cannot be undone), and the episode ends there."""
    from family_oracles_gomail import send_body, send_click
    from site_helpers import Driver

    from halo.env.env import BrowserEnv
    from halo.tasks.families import family_task, progress_of

    inst = get_family("gomail.send_body").instance(4)
    assert inst.goal == get_family("gomail.send").instance(4).goal  # the top rung's instance, from a later stage
    task = family_task(inst, family_site_urls)
    env = BrowserEnv(families_pool, max_steps=5)
    try:
        d = Driver(env, await env.reset(task))
        chips = [e.name for e in d.obs.elements.values() if (e.name or "").startswith("Remove ")]
        assert chips == [f"Remove {inst.params['name']}"]
        start = progress_of(task, await env.finish_json(), d.obs)
        await d.fill("textbox", "Message Body", inst.params["body"])
        typed = progress_of(task, await env.finish_json(), d.obs)
        assert 0 < start < typed < 1
        d = Driver(env, await env.reset(task))
        await send_click(d, inst.params)
        checks = {c.name: c.passed for c in get_family("gomail.send_body").grade(await env.finish_json(), inst.params)}
        assert checks["one email sent"] and checks["subject"] and not checks["message"]  # most checks pass ...
        assert progress_of(task, await env.finish_json(), d.obs) == 0.0
        res = d.result  # ... and the episode is over there: graded, failed, not cut off by the step cap
        assert res.done and not res.truncated and res.reward == 0.0, res.info
        assert res.info.grade is not None and not res.info.grade.success
        d = Driver(env, await env.reset(task))
        await send_body(d, inst.params)
        assert progress_of(task, await env.finish_json(), d.obs) == 1.0
    finally:
        await env.close()


@pytest.mark.browser
async def test_an_observation_names_the_controls_the_last_action_brought_onto_the_page(families_pool,
                                                                                     family_site_urls):
    """Typing a first name into To brings the recipient's suggestion onto the compose window: the next observation
    names it among ``appeared`` (an explorer's prior: policy.action_space.explore_prior); the episode's first page
    names none, nor does a step that adds nothing."""
    from site_helpers import Driver

    from halo.env import actions as A
    from halo.env.env import BrowserEnv
    from halo.tasks.families import family_task

    inst = get_family("gomail.send_address").instance(2)
    env = BrowserEnv(families_pool, max_steps=5)
    try:
        obs = await env.reset(family_task(inst, family_site_urls))
        assert obs.appeared == frozenset()
        to = next(el for el in obs.elements.values() if el.name == "To recipients")
        d = Driver(env, obs)
        res = await d.step(A.Fill(to.id, inst.params["name"].split()[0]))
        new = [res.observation.elements[i] for i in res.observation.appeared]
        assert any(inst.params["name"] in (el.name or "") for el in new), [el.name for el in new]
        assert set(res.observation.appeared) <= set(res.observation.elements)
        res = await d.step(A.Wait(time=0.0))
        assert res.observation.appeared == frozenset()
    finally:
        await env.close()
