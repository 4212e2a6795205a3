"""BrowserEnv.snapshot()/restore() on REAL-local: a restored state renders and grades exactly as the original.

An oracle is played once in env A with a snapshot before every step. Env B restores a snapshot taken in the middle
(by fork, and by replay), compares its page with A's at that point (same element ids, roles and names, the same
screenshot up to a few pixels), then plays A's remaining actions by id and ends the episode: its /finish JSON and
REAL's verdict must equal A's. The middle is chosen where UI state lives only in the page (an open dialog, text
typed and not sent) wherever the oracle has such a state."""

from __future__ import annotations

import io
from typing import Any

import pytest
from family_oracles_gocalendar import ORACLES as CALENDAR
from family_oracles_gomail import ORACLES as MAIL
from family_oracles_omnizon import ORACLES as SHOP
from family_oracles_zilloft import ORACLES as HOMES
from site_helpers import Driver

from halo.env import actions as A
from halo.env.branch import RestoreDiverged, same_page
from halo.env.env import BrowserEnv
from halo.errors import ConfigError
from halo.tasks.families import family_task, get_family

pytestmark = pytest.mark.browser

CASES = {"gomail.send": MAIL, "gocalendar.create": CALENDAR, "omnizon.buy": SHOP, "zilloft.tour": HOMES}


class Recorder(Driver):
    """The site tests' Driver, keeping each action and a snapshot taken before it."""

    def __init__(self, env: Any, obs: Any):
        super().__init__(env, obs)
        self.actions: list[A.Action] = []
        self.snaps: list[Any] = []
        self.observations: list[Any] = [obs]

    async def step(self, action: A.Action):
        self.snaps.append(await self.env.snapshot())
        self.actions.append(action)
        res = await super().step(action)
        self.observations.append(res.observation)
        return res


def pixels_off(a: bytes, b: bytes) -> float:
    """Share of pixels whose colour differs by more than JPEG noise."""
    import numpy as np
    from PIL import Image

    x = np.asarray(Image.open(io.BytesIO(a)).convert("RGB"), dtype=np.int16)
    y = np.asarray(Image.open(io.BytesIO(b)).convert("RGB"), dtype=np.int16)
    assert x.shape == y.shape
    return float((np.abs(x - y).max(-1) > 48).mean())


def family_env(families_pool, family_site_urls, name: str, index: int = 2):
    inst = get_family(name).instance(index)
    if get_family(name).site not in family_site_urls:
        pytest.skip(f"REAL-local site {get_family(name).site} does not import")
    return inst, family_task(inst, family_site_urls)


async def play(env: BrowserEnv, task, oracle, params) -> tuple[Recorder, Any]:
    d = Recorder(env, await env.reset(task))
    await oracle(d, params)
    res = await d.finish("Done.")
    assert res.info.grade is not None and res.info.grade.success, "the oracle must solve the instance"
    return d, res


@pytest.mark.parametrize("name", sorted(CASES))
async def test_restored_state_renders_and_grades_as_the_original(name, families_pool, family_site_urls):
    inst, task = family_env(families_pool, family_site_urls, name)
    a, b = BrowserEnv(families_pool, max_steps=40, branchable=True, end_on_success=False), \
        BrowserEnv(families_pool, max_steps=40, end_on_success=False)
    try:
        d, res_a = await play(a, task, CASES[name][name], inst.params)
        # the middle: the deepest snapshot with page-only UI state, else the middle step
        ui = [k for k, s in enumerate(d.snaps) if s.since_nav]
        k = ui[len(ui) // 2] if ui else len(d.snaps) // 2
        snap = d.snaps[k]
        assert snap.forkable and snap.step == k
        for method in ("fork", "replay"):
            obs = await b.restore(snap, method=method)
            assert b.restore_timings["method"] == method
            orig = d.observations[k]
            assert obs.url == orig.url and obs.step == orig.step and obs.last_actions == orig.last_actions
            assert {i: (e.role, e.name) for i, e in obs.elements.items()} == \
                {i: (e.role, e.name) for i, e in orig.elements.items()}
            assert pixels_off(obs.screenshot, orig.screenshot) < 0.01, method
            assert await b.state_key() == snap.state_key
            for act in d.actions[k:]:  # A's own actions, by element id
                r = await b.step(act)
                assert r.info.error is None, f"{method}: {act.describe()}: {r.info.error}"
            res_b = await b.step(A.SendMsgToUser("Done."))
            assert res_b.info.grade.success
            assert res_b.info.grade.finish_state == res_a.info.grade.finish_state, method
    finally:
        await a.close()
        await b.close()


async def test_a_snapshot_restores_many_times_and_branches_do_not_mix(families_pool, family_site_urls):
    """Two restores of one snapshot are independent sessions: what one branch does never shows in the other, nor in
    the original."""
    inst, task = family_env(families_pool, family_site_urls, "gomail.star")
    a, b, c = (BrowserEnv(families_pool, max_steps=20, branchable=True, end_on_success=False)
               for _ in range(3))
    try:
        d = Recorder(a, await a.reset(task))
        snap = await a.snapshot()
        key0 = snap.state_key
        await MAIL["gomail.star"](d, inst.params)  # A stars the email
        assert await a.state_key() != key0
        await b.restore(snap)
        await c.restore(snap)
        assert await b.state_key() == key0 == await c.state_key()
        db = Driver(b, b._last_obs)
        await MAIL["gomail.star"](db, inst.params)
        assert await b.state_key() == await a.state_key() != await c.state_key() == key0
    finally:
        for e in (a, b, c):
            await e.close()


async def test_fork_is_unreachable_from_pages_and_refuses_unknown_sessions(families_pool, family_site_urls):
    inst, task = family_env(families_pool, family_site_urls, "omnizon.department")
    env = BrowserEnv(families_pool, max_steps=5)
    try:
        await env.reset(task)
        status = await env.page.evaluate("fetch('/__halo/fork').then(r => r.status).catch(() => 'blocked')")
        assert status == "blocked"
        snap = await env.snapshot()
        with pytest.raises(RestoreDiverged, match="fork failed"):
            await env.restore(type(snap)(**{**snap.__dict__, "sid": "not-a-session"}), method="fork")
        obs = await env.restore(type(snap)(**{**snap.__dict__, "sid": "not-a-session"}))  # auto: falls back
        assert env.restore_timings["method"] == "replay" and "no session" in env.restore_timings["fork_failed"]
        assert obs.url == snap.obs.url
        with pytest.raises(ConfigError, match="restore method"):
            await env.restore(snap, method="teleport")
        await env.step(A.SendMsgToUser("Done."))
        with pytest.raises(ConfigError, match="over"):
            await env.snapshot()
    finally:
        await env.close()


FIELDS_JS = """() => Array.from(document.querySelectorAll('input, textarea, select')).map(e =>
    [e.tagName, e.name || e.id || e.getAttribute('aria-label') || '',
     e.type === 'checkbox' || e.type === 'radio' ? String(e.checked) : e.value])"""


class FieldRecorder(Recorder):
    """The Recorder, keeping beside each snapshot the page's form fields (values typed and not sent live only
    there)."""

    def __init__(self, env: Any, obs: Any):
        super().__init__(env, obs)
        self.fields: list[Any] = []

    async def step(self, action: A.Action):
        self.fields.append(await self.env.page.evaluate(FIELDS_JS))
        return await super().step(action)


async def same_state(env: BrowserEnv, obs, snap, fields, orig) -> None:
    """The restored page is the snapshot's: URL, step and history, every element's id, role, name and value, the
    form fields, the screenshot up to a few pixels, the site's state key."""
    assert obs.url == orig.url and obs.step == orig.step and obs.last_actions == orig.last_actions
    assert {i: (e.role, e.name, e.value) for i, e in obs.elements.items()} == \
        {i: (e.role, e.name, e.value) for i, e in orig.elements.items()}
    assert await env.page.evaluate(FIELDS_JS) == fields
    assert pixels_off(obs.screenshot, orig.screenshot) < 0.01
    assert await env.state_key() == snap.state_key


@pytest.mark.parametrize("name", sorted(CASES))
async def test_a_kept_page_restores_the_state_exactly(name, families_pool, family_site_urls):
    """Issue 41: a state's first restore reopens its page and has a copy kept; the next restore takes the copy over
    (no page load) and shows the same page, fields and site state, plays on to the same graded end, and leaves the
    copy's replacement (made in the context that restore let go of, recycled) untouched by what it did."""
    inst, task = family_env(families_pool, family_site_urls, name)
    a = BrowserEnv(families_pool, max_steps=40, branchable=True, end_on_success=False, keep_pages=4)
    b, c = (BrowserEnv(families_pool, max_steps=40, end_on_success=False) for _ in range(2))
    try:
        d = FieldRecorder(a, await a.reset(task))
        await CASES[name][name](d, inst.params)
        res_a = await d.finish("Done.")
        assert res_a.info.grade.success
        ui = [k for k, s in enumerate(d.snaps) if s.since_nav]
        k = ui[len(ui) // 2] if ui else len(d.snaps) // 2
        snap, orig = d.snaps[k], d.observations[k]
        await b.restore(snap)
        assert b.restore_timings["kept"] is False  # its first restore: the page reopened, a copy asked for
        await a._kept.settled()
        assert len(a._kept) == 1
        let_go = b._ctx  # b's context as it takes the copy: recycled by the copy's replacement
        obs = await b.restore(snap)
        assert b.restore_timings == {"method": "fork", "kept": True, "total": b.restore_timings["total"]}
        await same_state(b, obs, snap, d.fields[k], orig)
        for act in d.actions[k:]:
            r = await b.step(act)
            assert r.info.error is None, f"{act.describe()}: {r.info.error}"
        res_b = await b.step(A.SendMsgToUser("Done."))
        assert res_b.info.grade.success and res_b.info.grade.finish_state == res_a.info.grade.finish_state
        await a._kept.settled()  # the replacement, made while b played: b's branch never reached it
        obs = await c.restore(snap)
        assert c.restore_timings["kept"] is True and c._ctx is let_go
        await same_state(c, obs, snap, d.fields[k], orig)
    finally:
        for e in (a, b, c):
            await e.close()


async def test_a_kept_page_of_another_state_is_refused(families_pool, family_site_urls):
    """A kept page filed under the wrong snapshot (here on purpose) is never handed out as that snapshot's state:
    the restore reopens the right page instead."""
    inst, task = family_env(families_pool, family_site_urls, "gomail.send")
    a = BrowserEnv(families_pool, max_steps=40, branchable=True, end_on_success=False, keep_pages=4)
    b = BrowserEnv(families_pool, max_steps=40, end_on_success=False)
    try:
        d = FieldRecorder(a, await a.reset(task))
        await MAIL["gomail.send"](d, inst.params)
        j, k = 1, len(d.snaps) - 1
        assert same_page(d.snaps[j].obs, d.snaps[k].obs, values=True) is not None  # two states the page shows apart
        await b.restore(d.snaps[k])
        await a._kept.settled()
        wrong = a._kept.take(d.snaps[k])
        a._kept._entry(d.snaps[j]).copy = wrong  # state j has none: it was never restored
        obs = await b.restore(d.snaps[j])
        assert b.restore_timings["kept"] is False
        await same_state(b, obs, d.snaps[j], d.fields[j], d.observations[j])
    finally:
        await a.close()
        await b.close()
