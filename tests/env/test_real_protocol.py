"""REAL's protocol end to end: reset replays agisdk's setup (/config, /finish) against a real protocol server,
terminal actions read /finish and grade with agisdk's own eval script for v2.gomail-1."""

from __future__ import annotations

import asyncio

import pytest

from halo.env import actions as A
from halo.tasks import get_task

pytestmark = pytest.mark.browser


def named(obs, name):
    return next(e.id for e in obs.elements.values() if e.name == name)


@pytest.fixture
def mail_task(tiny_mail_url):
    return get_task("v2.gomail-1", sites="local", site_urls={"gomail": tiny_mail_url})


async def test_reset_runs_config_then_site(make_env, mail_task, tiny_mail_url):
    env = make_env(run_id="run-7")
    obs = await env.reset(mail_task)
    assert obs.url == tiny_mail_url + "/"
    assert obs.goal == mail_task.goal and obs.task_id == "v2.gomail-1"
    assert '] heading "Tiny mail"' in obs.axtree and '"20 unread"' in obs.axtree
    pages = env.page.context.pages
    assert len(pages) == 2 and pages[1].url == tiny_mail_url + "/finish"  # agisdk's background tab
    state = await env.finish_state()
    assert state["config"]["task_id"] == "v2.gomail-1" and state["config"]["run_id"] == "run-7"
    assert state["differences"]["emails"] == {"added": [], "updated": [], "deleted": []}
    assert state["initialfinaldiff"] == {"added": {}, "deleted": {}, "updated": {}}
    assert env.reset_timings["protocol"] > 0


async def test_terminal_action_grades_with_agisdk(make_env, mail_task):
    env = make_env()
    await env.reset(mail_task)
    r = await env.step(A.SendMsgToUser("I did nothing"))
    assert r.done and not r.truncated and not r.info.errored
    g = r.info.grade
    assert g is not None and not g.success and r.reward == 0.0
    assert [(d["script"], d["output"], d["passed"]) for d in g.details] == [("eval_gomail_1.py", "FAILURE", False)]
    assert g.finish_state["config"]["task_id"] == "v2.gomail-1"
    assert r.info.timings["finish"] > 0 and r.info.timings["grade"] > 0


async def test_solving_the_task_earns_the_reward(make_env, mail_task):
    env = make_env()
    obs = await env.reset(mail_task)
    r = await env.step(A.Click(named(obs, "Mark all as read")))
    assert r.info.error is None and '"0 unread"' in r.observation.axtree, r.observation.axtree
    r = await env.step(A.Click(named(r.observation, "Delete Amazon emails")))
    assert r.info.error is None
    state = await env.finish_state()
    assert sum(1 for u in state["differences"]["emails"]["updated"] if u.get("trash")) == 4
    r = await env.step(A.Answer("Done: all read, Amazon emails deleted"))
    assert r.done and r.info.grade.success and r.reward == 1.0
    assert r.info.grade.details[0]["output"] == "SUCCESS"


async def test_protocol_sessions_are_isolated_between_envs(make_env, mail_task):
    a, b = make_env(), make_env()
    oa, _ = await asyncio.gather(a.reset(mail_task), b.reset(mail_task))
    await a.step(A.Click(named(oa, "Mark all as read")))
    sa, sb = await asyncio.gather(a.finish_state(), b.finish_state())
    assert len(sa["differences"]["emails"]["updated"]) == 20
    assert sb["differences"]["emails"]["updated"] == []


async def test_finish_state_on_a_plain_page_is_refused(make_env, pages_url):
    from halo.errors import ConfigError
    from halo.tasks import page_task

    env = make_env()
    await env.reset(page_task(f"{pages_url}/page2.html"))
    with pytest.raises(ConfigError, match="no /finish"):
        await env.finish_state()
    assert len(env.page.context.pages) == 1  # no /config tab for plain pages
