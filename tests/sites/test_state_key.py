"""REAL-local's state key (GiGPO's anchor states): equal for equal states, different after any state change, readable
by the env and never by the agent's pages."""

from __future__ import annotations

import pytest
from site_helpers import Driver

from halo.env.env import BrowserEnv
from halo.env.types import anchor_key
from halo.tasks.real import get_task

pytestmark = pytest.mark.browser


async def test_equal_states_equal_keys_and_every_change_moves_it(sites_pool, site_urls):
    task = get_task("v2.gomail-1", sites="local", site_urls=site_urls)
    a, b = BrowserEnv(sites_pool, max_steps=20), BrowserEnv(sites_pool, max_steps=20)
    try:
        da, db = Driver(a, await a.reset(task)), Driver(b, await b.reset(task))
        k0 = await a.state_key()
        assert k0 is not None and k0 == await b.state_key()  # two sessions, same seed, same page
        assert await a.state_key() == k0  # reading it changes nothing
        await da.click("link", "Starred", exact=True)  # navigation: the URL and the recorded page move
        k_nav = await a.state_key()
        assert k_nav != k0
        await db.click("link", "Starred", exact=True)
        assert await b.state_key() == k_nav
        await da.click("link", "Inbox")
        assert await a.state_key() == k0  # back where it started: the same key again
        await da.click("button", "Not starred")  # star an email: same URL, different app state
        k_star = await a.state_key()
        assert k_star not in (k0, k_nav)
        await da.click("button", "Starred")  # and unstar it: the state is the start's again
        assert await a.state_key() == k0
    finally:
        await a.close()
        await b.close()


async def test_pages_cannot_read_the_key(sites_pool, site_urls):
    task = get_task("v2.gomail-1", sites="local", site_urls=site_urls)
    env = BrowserEnv(sites_pool, max_steps=5)
    try:
        await env.reset(task)
        status = await env.page.evaluate(
            "fetch('/__halo/state_key').then(r => r.status).catch(() => 'blocked')")
        assert status == "blocked"
    finally:
        await env.close()


async def test_episodes_read_the_key_only_where_a_learner_asks(sites_pool, site_urls):
    """Asked, each step of an episode carries the key of the state it was taken from (GiGPO groups steps by it); a run
    that groups nothing by it (evaluation, MCTS, GRPO's other advantages) reads none: a request to the site per step
    saved."""
    from halo.env import actions as A
    from halo.policy.scripted import ScriptedPolicy
    from halo.rl.config import GRPOSettings
    from halo.rl.grpo import GRPOTrainer
    from halo.rl.rollout import run_episode

    task = get_task("v2.gomail-1", sites="local", site_urls=site_urls)
    env = BrowserEnv(sites_pool, max_steps=5)
    script = [A.Wait(time=0.0)] * 3
    try:
        keyed = await run_episode(env, ScriptedPolicy(script), task, max_steps=3, state_keys=True)
        assert len(keyed.steps) == 3 and all(st.state_key for st in keyed.steps)
        # waiting changes neither the state, the URL nor what the page shows: the three steps are one anchor
        assert keyed.steps[0].state_key == anchor_key(await env.state_key(), keyed.final_obs)
        assert len({st.state_key for st in keyed.steps}) == 1
        plain = await run_episode(env, ScriptedPolicy(script), task, max_steps=3)
        assert len(plain.steps) == 3 and all(st.state_key is None for st in plain.steps)
    finally:
        await env.close()
    trainers = {adv: GRPOTrainer(None, None, ["t"], GRPOSettings(advantage=adv), None) for adv in ("step", "gigpo")}
    assert {adv: t.rollout_kwargs()["state_keys"] for adv, t in trainers.items()} == {"step": False, "gigpo": True}


async def test_an_anchor_tells_apart_what_only_the_page_holds(sites_pool, site_urls):
    """A compose window's typed text and an open suggestion list are in the page, not in the site's state: the site's
    key stays put while the anchor (GiGPO's state) moves with them, and the same page in another session, reached
    another way, is the same anchor."""
    task = get_task("v2.gomail-1", sites="local", site_urls=site_urls)
    a, b = BrowserEnv(sites_pool, max_steps=20), BrowserEnv(sites_pool, max_steps=20)
    try:
        da, db = Driver(a, await a.reset(task)), Driver(b, await b.reset(task))
        await da.click("button", "Compose")
        site = await a.state_key()
        empty = anchor_key(site, da.obs)
        await da.fill("textbox", "To recipients", "kevin")
        assert da.has("option", "Kevin Moore")
        typed = anchor_key(await a.state_key(), da.obs)
        await da.fill("textbox", "To recipients", "kevin")  # the same name again: the same state
        assert anchor_key(await a.state_key(), da.obs) == typed
        await da.click("option", "Kevin Moore")
        picked = anchor_key(await a.state_key(), da.obs)
        assert await a.state_key() == site  # nothing sent, nothing saved: the site's state is the compose window's
        assert len({empty, typed, picked}) == 3
        await db.click("button", "Compose")
        await db.fill("textbox", "To recipients", "brian")
        await db.fill("textbox", "To recipients", "kevin")
        assert anchor_key(await b.state_key(), db.obs) == typed
        assert anchor_key(None, db.obs) is None  # no site key (REAL's remote sites): no anchor
    finally:
        await a.close()
        await b.close()
