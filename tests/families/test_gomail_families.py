"""GoMail's task families: deterministic instances, hundreds of distinct ones, a train/test split, and graders that
pass scripted solutions played in real Chromium (3 instances per family, spread over the space) while refusing the
untouched mailbox and near misses (the wrong folder, email or recipient, played in the browser or edited into a
solved /finish JSON)."""

from __future__ import annotations

import pytest
from family_oracles_gomail import BROWSER_NEAR_MISSES, EXTRA_NEAR_MISSES, ORACLES, near_miss

from halo.tasks.families import all_families, get_family

FAMILIES = [f.name for f in all_families("gomail")]


def sample(name: str, n: int = 3) -> list:
    f = get_family(name)
    return [f.instance(i * (f.size - 1) // (n - 1)) for i in range(n)]


# ---------------------------------------------------------------- generators (no browser)
def test_six_families_of_every_difficulty():
    steps = [get_family(n).steps for n in FAMILIES]
    assert len(FAMILIES) >= 6 and steps.count("1") >= 2 and steps.count("2-4") >= 2 and "5+" in steps
    assert sorted(ORACLES) == sorted(FAMILIES)


@pytest.mark.parametrize("name", FAMILIES)
def test_instances_are_deterministic_distinct_and_split(name):
    f = get_family(name)
    params = [tuple(sorted(p.items())) for p in f.space()]
    assert len(set(params)) == len(params) >= 100
    assert f.instance(7) == f.instance(7) and f.instance(7).goal == type(f)().instance(7).goal
    train, test = f.instances("train"), f.instances("test")
    assert train and test and len(train) + len(test) == f.size
    assert not {i.index for i in train} & {i.index for i in test}
    assert len({i.goal for i in f.instances("all")}) > f.size * 0.9  # goals name their parameters


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


def test_a_crashing_grader_is_a_failed_check():
    f = get_family("gomail.send")
    checks = f.grade({"differences": {"emails": {"added": "not a list"}}}, f.instance(0).params)
    assert checks and not all(c.passed for c in checks)


# ---------------------------------------------------------------- in the browser


@pytest.mark.browser
async def test_noop_episode_fails_every_family(run_instance):
    res, _ = await run_instance(get_family("gomail.open").instance(0), None)
    assert not res.info.grade.success and res.reward == 0.0
    untouched = res.info.grade.finish_state
    for name in FAMILIES:
        for inst in sample(name):
            checks = get_family(name).grade(untouched, inst.params)
            assert not all(c.passed for c in checks), f"{inst.id}: the untouched mailbox passed"


@pytest.mark.browser
@pytest.mark.parametrize("name", FAMILIES)
async def test_oracle_passes_and_near_misses_fail(name, run_instance):
    fam = get_family(name)
    for inst in sample(name):
        res, d = await run_instance(inst, ORACLES[name])
        g = res.info.grade
        assert g.success and res.reward == 1.0, f"{inst.id} ({inst.goal}) graded {g.details} after {d.steps} steps"
        assert fam.steps != "1" or d.steps == 2, f"{inst.id}: a one-step family took {d.steps - 1} actions"
        for fam_name, fn in [(name, None), *[(n, f) for n, f in EXTRA_NEAR_MISSES if n == name]]:
            bad = near_miss(g.finish_state, fam_name, inst.params, fn)
            checks = fam.grade(bad, inst.params)
            assert not all(c.passed for c in checks), f"{inst.id}: near miss {fn or 'default'} passed"


@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(BROWSER_NEAR_MISSES))
async def test_near_miss_in_the_browser_fails(name, run_instance):
    inst = sample(name)[1]
    res, _ = await run_instance(inst, BROWSER_NEAR_MISSES[name])
    assert not res.info.grade.success, f"{inst.id}: a near miss passed {res.info.grade.details}"


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
@pytest.mark.parametrize("name", ["gomail.label", "gomail.reply", "gomail.send"])
async def test_progress_rises_along_the_oracle_as_its_fields_are_typed(name, families_pool, family_site_urls):
    """The multi-step families' subgoals (a form open, a field typed right, read from the page) pay progress before
    anything is sent: along the oracle it never falls and it reaches 1 with the goal; the same steps with the wrong
    text do not reach it. The grade itself reads the site's state only."""
    from site_helpers import Driver

    from halo.env.env import BrowserEnv
    from halo.tasks.families import family_task, progress_of

    inst = get_family(name).instance(3)
    env = BrowserEnv(families_pool, max_steps=12)
    task = family_task(inst, family_site_urls)
    try:
        d = Driver(env, await env.reset(task))
        seen = [progress_of(task, await env.finish_json(), d.obs)]
        step = d.step

        async def recording(action):
            res = await step(action)
            seen.append(progress_of(task, await env.finish_json(), d.obs))
            return res

        d.step = recording
        await ORACLES[name](d, inst.params)
        assert seen == sorted(seen) and seen[-1] == 1.0, seen
        assert len(set(seen[:-1])) >= 3, seen  # the form opening and a typed field paid before the last step
        if name == "gomail.send":  # compose open, the recipient's chip, the subject, the body: each pays on its own
            assert len(set(seen[:-1])) >= 5, seen
        d = Driver(env, await env.reset(task))
        await ORACLES[name](d, {**inst.params, **{k: "zzz" for k in ("label", "message", "subject", "body")
                                                   if k in inst.params}})
        assert progress_of(task, await env.finish_json(), d.obs) < 1.0
    finally:
        await env.close()
