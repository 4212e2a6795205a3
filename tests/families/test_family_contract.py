"""The contract every site's task families keep, checked site by site from one place: families of every difficulty,
each with a scripted oracle; deterministic instances, many distinct ones, split train/test; a grader that fails a
check rather than crash on a malformed /finish JSON; and, in real Chromium, an untouched site that passes no family,
oracles that pass (two training instances and one held-out one per family, or three spread over the space) while
near misses fail (edited into a solved /finish JSON, or played in the browser), and progress that never falls along
an oracle.

Written once so that every site is held to the same checks; where the sites differ (how many families of each
difficulty, how many distinct instances, which families pay progress as fields are typed, which extra changes a
solved state must refuse) the difference is data: the ``SITES`` table below, and the ``family_oracles_<site>``
module's ``ORACLES``, ``VERIFIED``/``near_miss``, ``BROWSER_NEAR_MISSES`` and ``EXTRA_*`` tables. What only one
site checks stays in its ``test_<site>_families.py``. Test ids name the site (``[gomail]``) or the family
(``[gomail.send]``, ``[gomail.star-wrong_star]``) a failure is about."""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import pytest
from family_samples import neighbours, sample, spread

from halo.tasks.families import all_families, get_family


def _second_training_instance(fam: Any) -> Any:
    return fam.instances("train")[1]


def _instance_3(fam: Any) -> Any:
    return fam.instance(3)


def _udriver_progress_instance(fam: Any) -> Any:
    """A training instance whose top-up amount (where it has one) is typed, not a preset button."""
    from halo.tasks.families.udriver import PRESETS

    return next(i for i in fam.instances("train") if i.params.get("amount") not in PRESETS)


def _zilloft_save_near_miss_instance(fam: Any) -> Any:
    """A search that finds another home to save by mistake."""
    from real_local.zilloft.listings import search

    return next(i for i in fam.instances("all") if len(search(i.params["query"])) >= 2)


@dataclass(frozen=True)
class Site:
    """What one site's families are held to, where sites differ."""

    noop_family: str  # its instance 0 is the no-op episode whose untouched state every family must fail
    crash: tuple[str, dict]  # a family, and a malformed /finish JSON it must grade as a failed check (not raise)
    # at least this many families; of them at least this many of one step, of 2-4 steps and of 5+ steps
    difficulty: tuple[int, int, int, int]
    min_distinct: int = 100  # distinct parameter sets of every family, at least
    goals_distinct: bool = True  # every instance's goal differs (else: more than 90% of them do)
    spread_samples: bool = False  # oracles played on ``spread`` instances (else ``family_samples.sample``)
    every_family_near_missed_in_browser: bool = False  # BROWSER_NEAR_MISSES names every family
    five_plus_takes_five: bool = False  # a 5+ family's oracle takes at least five actions
    within_max_steps: bool = False  # an oracle takes no more actions than its family's max_steps
    extra_states: tuple[str, ...] = ()  # oracles-module edits of a solved state (one change too many) to refuse
    browser_near_miss_instance: dict[str, Callable[[Any], Any]] = field(default_factory=dict)  # else sample(...)[1]
    progress: dict[str, int] = field(default_factory=dict)  # family: distinct progress levels before the last step
    progress_instance: Callable[[Any], Any] = _second_training_instance
    progress_max_steps: int = 12
    progress_wrong_text: tuple[str, ...] = ()  # params typed as "zzz": the same steps must then not reach 1


SITES: dict[str, Site] = {
    "dashdish": Site(
        noop_family="dashdish.store",
        crash=("dashdish.order", {"differences": {"foodOrders": {"added": {"x": {"cartItems": "x"}}}}}),
        difficulty=(4, 2, 2, 2), min_distinct=96, five_plus_takes_five=True, extra_states=("extra_cart_line",),
        # the item page open, the note or query typed right, read from the page, pay before anything is submitted
        progress={"dashdish.search": 2, "dashdish.note": 2}, progress_instance=_instance_3,
        progress_wrong_text=("query", "note")),
    "gocalendar": Site(
        noop_family="gocalendar.day",
        crash=("gocalendar.schedule", {"differences": {"events": {"added": ["not", "a dict"]}}}),
        difficulty=(6, 2, 2, 1), goals_distinct=False, spread_samples=True),
    "gomail": Site(
        noop_family="gomail.open",
        crash=("gomail.send", {"differences": {"emails": {"added": "not a list"}}}),
        difficulty=(15, 3, 8, 2), goals_distinct=False, spread_samples=True,
        # the form opening and a typed field pay before the last step; gomail.send's compose open, the name typed
        # into To, the recipient's chip, the subject and the body each pay on their own
        # (its rungs start with the compose window open and the first fields filled, and pay the rest)
        progress={"gomail.label": 3, "gomail.reply": 3, "gomail.send": 6, "gomail.send_address": 5,
                  "gomail.send_subject": 3, "gomail.send_title": 2, "gomail.send_to": 3,
                  "gomail.send_pick": 2},
        progress_instance=_instance_3,
        progress_wrong_text=("label", "message", "subject", "body")),
    "marrisuite": Site(
        noop_family="marrisuite.destination",
        crash=("marrisuite.book", {"initialfinaldiff": {"updated": {"search": "x"}}}),
        difficulty=(4, 1, 1, 2), five_plus_takes_five=True, within_max_steps=True,
        extra_states=("extra_reservation",),
        # the destination and dates typed, the search, then the guest and card typed, pay before the room is booked
        progress={"marrisuite.rooms": 3, "marrisuite.book": 3}, progress_max_steps=14),
    "networkin": Site(
        noop_family="networkin.follow",
        crash=("networkin.message", {"initialfinaldiff": {"added": {"ui": "x"}}}),
        difficulty=(4, 1, 1, 2), every_family_near_missed_in_browser=True, five_plus_takes_five=True,
        within_max_steps=True, extra_states=("extra_follow", "extra_connection"),
        # the note or message typed pays progress before it is sent
        progress={"networkin.invite": 2, "networkin.message": 2}, progress_max_steps=16),
    "omnizon": Site(
        noop_family="omnizon.department",
        crash=("omnizon.buy", {"initialfinaldiff": {"added": {"order": {"orders": {"2": {"items": "x"}}}}}}),
        difficulty=(6, 2, 2, 1), spread_samples=True, extra_states=("extra_cart_line",)),
    "opendining": Site(
        noop_family="opendining.explore",
        crash=("opendining.book",
               {"initialfinaldiff": {"added": {"booking": {"bookingDetails": {"0": {"restaurant": "x"}}}}}}),
        difficulty=(4, 1, 2, 2), min_distinct=150, five_plus_takes_five=True, within_max_steps=True,
        extra_states=("extra_reservation",),
        # the search's date, time and party, then each typed field, pay before the reservation is made
        progress={"opendining.book": 3, "opendining.occasion": 3}, progress_max_steps=14),
    "staynb": Site(
        noop_family="staynb.destination",
        crash=("staynb.book", {"initialfinaldiff": {"added": {"booking": {"bookingDetails": "x",
                                                                          "currentBooking": 3}}}}),
        difficulty=(4, 1, 2, 2), five_plus_takes_five=True, within_max_steps=True, extra_states=("extra_share",),
        # the destination and dates typed, the search, then each card field, pay before the search is filtered or
        # the stay paid for
        progress={"staynb.search": 3, "staynb.book": 3}, progress_max_steps=16),
    "topwork": Site(
        noop_family="topwork.read",
        crash=("topwork.hire", {"initialfinaldiff": {"added": {"offers": "x"}}}),
        difficulty=(4, 1, 1, 2), every_family_near_missed_in_browser=True, five_plus_takes_five=True,
        within_max_steps=True, extra_states=("extra_save", "extra_removal"),
        # each field of the offer or job post typed pays progress before it is sent
        progress={"topwork.hire": 4, "topwork.post": 4}, progress_max_steps=16),
    "udriver": Site(
        noop_family="udriver.screen",
        crash=("udriver.ride", {"differences": {"trips": {"added": {"0": {"car": "x"}}}}}),
        difficulty=(4, 1, 2, 2), extra_states=("extra_trip",),
        # the places (or the amount) typed right pay progress before the form is sent
        progress={"udriver.ride": 3, "udriver.schedule": 3, "udriver.topup": 3},
        progress_instance=_udriver_progress_instance),
    "zilloft": Site(
        noop_family="zilloft.popular",
        crash=("zilloft.tour", {"differences": {"requestTours": {"added": {"t": {"requestTourData": "x"}}}}}),
        difficulty=(6, 2, 2, 1), spread_samples=True, extra_states=("extra_saved_home",),
        browser_near_miss_instance={"zilloft.save": _zilloft_save_near_miss_instance}),
}


def _load(site: str) -> ModuleType | Exception:
    try:
        return importlib.import_module(f"family_oracles_{site}")
    except Exception as e:  # noqa: BLE001 - a site being rewritten elsewhere fails its own cases, not every site's
        return e


_MODULES = {site: _load(site) for site in SITES}


def oracles(site: str) -> ModuleType:
    """The site's ``family_oracles_<site>`` module (its import error, raised, if it does not import)."""
    mod = _MODULES[site]
    if isinstance(mod, Exception):
        raise mod
    return mod


def families(site: str) -> list[str]:
    return [f.name for f in all_families(site)]


def samples(name: str) -> list:
    return (spread if SITES[get_family(name).site].spread_samples else sample)(name)


FAMILY_CASES = [pytest.param(name, id=name) for site in SITES for name in families(site)]


def _browser_near_misses() -> list:
    cases = []
    for site in SITES:
        mod = _MODULES[site]
        if isinstance(mod, Exception):  # one case that fails with the import error
            cases.append(pytest.param(site, None, id=f"{site}-oracles-do-not-import"))
            continue
        for name, miss in [*mod.BROWSER_NEAR_MISSES.items(), *getattr(mod, "EXTRA_BROWSER_NEAR_MISSES", [])]:
            label = name if miss.__name__ == "<lambda>" else f"{name}-{miss.__name__}"
            cases.append(pytest.param(name, miss, id=label))
    return cases


# ---------------------------------------------------------------- generators (no browser)
@pytest.mark.parametrize("site", SITES)
def test_families_of_every_difficulty(site):
    mod, fams, c = oracles(site), families(site), SITES[site]
    steps = [get_family(n).steps for n in fams]
    n, one, mid, long = c.difficulty
    assert len(fams) >= n and steps.count("1") >= one and steps.count("2-4") >= mid and steps.count("5+") >= long, (
        sorted(zip(fams, steps, strict=True)))
    assert sorted(mod.ORACLES) == sorted(fams)
    if hasattr(mod, "VERIFIED"):
        assert sorted(mod.VERIFIED) == sorted(fams)
    if c.every_family_near_missed_in_browser:
        assert sorted(mod.BROWSER_NEAR_MISSES) == sorted(fams)


@pytest.mark.parametrize("name", FAMILY_CASES)
def test_instances_are_deterministic_distinct_and_split(name):
    f, c = get_family(name), SITES[get_family(name).site]
    params = [tuple(sorted(p.items())) for p in f.space()]
    assert len(set(params)) == len(params) >= c.min_distinct
    assert f.instance(7) == f.instance(7) and f.instance(7).goal == type(f)().instance(7).goal
    train, test = f.instances("train"), f.instances("test")
    assert train and test and len(train) + len(test) == f.size
    assert not {i.index for i in train} & {i.index for i in test}
    goals = len({i.goal for i in f.instances("all")})  # goals name their parameters
    if c.goals_distinct:
        assert goals == f.size
    else:
        assert goals > f.size * 0.9


@pytest.mark.parametrize("site", SITES)
def test_a_crashing_grader_is_a_failed_check(site):
    name, state = SITES[site].crash
    f = get_family(name)
    checks = f.grade(copy.deepcopy(state), f.instance(0).params)
    assert checks and not all(c.passed for c in checks)


# ---------------------------------------------------------------- in the browser
@pytest.mark.browser
@pytest.mark.parametrize("site", SITES)
async def test_noop_episode_fails_every_family(site, run_instance):
    res, _ = await run_instance(get_family(SITES[site].noop_family).instance(0), None)
    assert not res.info.grade.success and res.reward == 0.0
    untouched = res.info.grade.finish_state
    for name in families(site):
        for inst in samples(name):
            checks = get_family(name).grade(untouched, inst.params)
            assert not all(c.passed for c in checks), f"{inst.id}: the untouched {site} passed"


@pytest.mark.browser
@pytest.mark.parametrize("name", FAMILY_CASES)
async def test_oracle_passes_and_near_misses_fail(name, run_instance):
    fam = get_family(name)
    mod, c = oracles(fam.site), SITES[fam.site]
    verified, near_miss = getattr(mod, "VERIFIED", None), getattr(mod, "near_miss", None)
    assert verified is not None or near_miss is not None, f"{fam.site}: no near misses of a solved /finish JSON"
    for inst in samples(name):
        res, d = await run_instance(inst, mod.ORACLES[name])
        g = res.info.grade
        assert g.success and res.reward == 1.0, f"{inst.id} ({inst.goal}) graded {g.details} after {d.steps} steps"
        assert fam.steps != "1" or d.steps == 2, f"{inst.id}: a one-step family took {d.steps - 1} actions"
        if c.five_plus_takes_five:
            assert fam.steps != "5+" or d.steps - 1 >= 5, f"{inst.id}: a 5+ family solved in {d.steps - 1} actions"
        if c.within_max_steps:
            assert d.steps - 1 <= fam.max_steps, f"{inst.id}: the oracle took {d.steps - 1} > {fam.max_steps} actions"
        if verified is not None:  # the solved state, graded as the instance with one graded parameter changed
            for wrong in neighbours(name, inst.params, verified[name]):
                assert not all(c.passed for c in fam.grade(g.finish_state, wrong)), f"{inst.id}: passed as {wrong}"
        if near_miss is not None:  # the solved state, edited one way wrong
            extra = [(n, f) for n, f in getattr(mod, "EXTRA_NEAR_MISSES", []) if n == name]
            for fam_name, fn in [(name, None), *extra]:
                bad = near_miss(g.finish_state, fam_name, inst.params, fn)
                checks = fam.grade(bad, inst.params)
                assert not all(c.passed for c in checks), f"{inst.id}: near miss {fn or 'default'} passed"
        for edit in (getattr(mod, e) for e in c.extra_states):  # one change too many
            state = copy.deepcopy(g.finish_state)
            edit(state)
            assert not all(c.passed for c in fam.grade(state, inst.params)), f"{inst.id}: {edit.__name__} passed"


@pytest.mark.browser
@pytest.mark.parametrize("name, miss", _browser_near_misses())
async def test_near_miss_in_the_browser_fails(name, miss, run_instance):
    if miss is None:
        oracles(name)  # the site's oracles do not import: raises why
    fam = get_family(name)
    pick = SITES[fam.site].browser_near_miss_instance.get(name)
    inst = pick(fam) if pick else samples(name)[1]
    res, _ = await run_instance(inst, miss)
    assert not res.info.grade.success, f"{inst.id}: a near miss passed {res.info.grade.details}"


@pytest.mark.browser
@pytest.mark.parametrize("name", [pytest.param(n, id=n) for c in SITES.values() for n in c.progress])
async def test_progress_never_falls_along_the_oracle(name, families_pool, family_site_urls):
    """The multi-step families' subgoals (a form open, a field typed right, a search made, read from the page) pay
    progress before the goal is reached: along the oracle it never falls, it reaches 1 with the goal, and it takes
    at least the site's number of distinct levels before the last step; where the site says so, the same steps with
    the wrong text do not reach 1. The grade itself reads the site's state only."""
    from site_helpers import Driver

    from halo.env.env import BrowserEnv
    from halo.tasks.families import family_task, progress_of

    fam = get_family(name)
    c, oracle = SITES[fam.site], oracles(fam.site).ORACLES[name]
    if fam.site not in family_site_urls:
        pytest.skip(f"REAL-local site {fam.site} does not import")
    inst = c.progress_instance(fam)
    env = BrowserEnv(families_pool, max_steps=c.progress_max_steps)
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
        await oracle(d, inst.params)
        assert seen == sorted(seen) and seen[-1] == 1.0, seen
        assert len(set(seen[:-1])) >= c.progress[name], seen  # the subgoals paid before the last step
        typed = set(fam.typed(inst.params))
        if any(inst.params.get(k) in typed for k in c.progress_wrong_text):  # the oracle types one of them
            d = Driver(env, await env.reset(task))
            await oracle(d, {**inst.params, **{k: "zzz" for k in c.progress_wrong_text if k in inst.params}})
            assert progress_of(task, await env.finish_json(), d.obs) < 1.0
    finally:
        await env.close()
