"""BrowserEnv in real Chromium against static pages served on loopback."""

from __future__ import annotations

import asyncio
import io
import re
import time

import pytest

from halo.env import actions as A
from halo.env.types import Observation
from halo.tasks.types import page_task

pytestmark = pytest.mark.browser


def el(obs: Observation, name: str, role: str | None = None):
    """The element named ``name`` in an observation (fails the test if absent)."""
    for e in obs.elements.values():
        if e.name == name and (role is None or e.role == role):
            return e
    raise AssertionError(f"no element {name!r} in:\n{obs.axtree}")


def centre(obs: Observation, name: str) -> tuple[int, int]:
    """Relative 0..1000 coordinates of an element's centre, from the observation's bbox."""
    x, y, w, h = el(obs, name).bbox
    return A.to_relative(x + w / 2, y + h / 2, *obs.viewport)


def status(obs: Observation) -> dict[str, str]:
    line = next(ln for ln in obs.axtree.splitlines() if "clicks=" in ln)
    return dict(kv.split("=", 1) for kv in line.strip().removeprefix("StaticText ").strip('"').split())


@pytest.fixture
async def actions_env(make_env, pages_url, offsite_url):
    env = make_env()
    obs = await env.reset(page_task(f"{pages_url}/actions.html?offsite={offsite_url}", goal="exercise actions"))
    return env, obs


async def test_reset_observation(actions_env, pages_url):
    from PIL import Image

    env, obs = actions_env
    assert obs.screenshot[:3] == b"\xff\xd8\xff", "JPEG by default"
    assert Image.open(io.BytesIO(obs.screenshot)).size == (1280, 720)
    assert obs.image_format == "jpeg"
    assert re.search(r'^\[\d+\] button "Count"$', obs.axtree, re.MULTILINE), obs.axtree
    assert re.search(r'^\[\d+\] textbox "Name"$', obs.axtree, re.MULTILINE)
    assert re.search(r'^\[\d+\] combobox "Color" value="Red"$', obs.axtree, re.MULTILINE)
    assert obs.url.startswith(f"{pages_url}/actions.html")
    assert (obs.goal, obs.step, obs.last_actions, obs.last_action_error) == ("exercise actions", 0, (), None)
    assert obs.task_id == "page"
    count = el(obs, "Count", "button")
    assert count.bbox == (20.0, 100.0, 120.0, 40.0)
    assert f"[{count.id}]" in obs.axtree
    assert env.reset_timings["total"] > 0


async def test_png_and_context_defaults(make_env, pages_url):
    from PIL import Image

    env = make_env(image_format="png")
    obs = await env.reset(page_task(f"{pages_url}/page2.html"))
    assert obs.screenshot[:8] == b"\x89PNG\r\n\x1a\n"
    assert Image.open(io.BytesIO(obs.screenshot)).size == (1280, 720)
    tz, lang, w, h = await env.page.evaluate(
        "[Intl.DateTimeFormat().resolvedOptions().timeZone, navigator.language, innerWidth, innerHeight]")
    assert (tz, lang, w, h) == ("America/Los_Angeles", "en-US", 1280, 720)


async def test_a_small_pixel_budget_is_captured_small_and_the_tiny_prompt_keeps_its_size(make_env, pages_url):
    """A policy that looks at 16k pixels gets a capture of about that size, drawn by Chromium (not a full-size
    image shrunk later), and its prompt's image is the one a full-size capture would have given."""
    from PIL import Image

    from halo.policy.prompt import PromptConfig, resize_screenshot

    cfg = PromptConfig(max_pixels=16384, min_pixels=4096)
    env = make_env(screenshot_max_pixels=16384)
    obs = await env.reset(page_task(f"{pages_url}/page2.html"))
    w, h = Image.open(io.BytesIO(obs.screenshot)).size
    assert (w, h) == (round(1280 * (1.1 * 16384 / 921600) ** 0.5), round(720 * (1.1 * 16384 / 921600) ** 0.5))
    assert 16384 <= w * h <= 1.2 * 16384
    full = make_env()
    big = await full.reset(page_task(f"{pages_url}/page2.html"))
    assert resize_screenshot(obs.screenshot, cfg)[2] == resize_screenshot(big.screenshot, cfg)[2]
    assert obs.viewport == big.viewport == (1280, 720)  # coordinates stay in viewport pixels


def test_bad_settings_are_refused(pool):
    from halo.env.env import BrowserEnv
    from halo.errors import ConfigError

    for kw in ({"image_format": "gif"}, {"jpeg_quality": 0}, {"max_steps": 0}, {"action_timeout_ms": 1},
               {"screenshot_max_pixels": 0}):
        with pytest.raises(ConfigError):
            BrowserEnv(pool, **kw)


# ---------------------------------------------------------------- every action kind has an observable effect
async def test_left_click_and_element_click(actions_env):
    env, obs = actions_env
    r = await env.step(A.LeftClick(*centre(obs, "Count")))
    assert r.info.error is None and status(r.observation)["clicks"] == "1"
    r = await env.step(A.Click(el(obs, "Count").id))
    assert r.info.error is None and status(r.observation)["clicks"] == "2"
    assert r.observation.step == 2
    assert r.observation.last_actions == (A.LeftClick(*centre(obs, "Count")).describe(),
                                          A.Click(el(obs, "Count").id).describe())
    assert not (r.done or r.truncated) and r.reward == 0.0
    assert {"action", "settle", "axtree", "screenshot", "observe", "total"} <= set(r.info.timings)


@pytest.mark.parametrize("action_cls,key", [(A.DoubleClick, "dbl"), (A.RightClick, "right"),
                                            (A.MiddleClick, "middle"), (A.TripleClick, "triple")])
async def test_mouse_buttons(actions_env, action_cls, key):
    env, obs = actions_env
    x, y = A.to_relative(300, 130, *obs.viewport)  # inside "Pad" (200..400 x 100..160)
    r = await env.step(action_cls(x, y))
    assert r.info.error is None
    assert status(r.observation)[key] == "1", r.observation.axtree


async def test_mouse_move_maps_relative_coordinates(actions_env):
    env, _ = actions_env
    r = await env.step(A.MouseMove(250, 500))
    px, py = A.to_pixels(250, 500, 1280, 720)
    assert status(r.observation)["move"] == f"{int(px)},{int(py)}"


async def test_drag_with_and_without_start(actions_env):
    env, _ = actions_env
    r = await env.step(A.LeftClickDrag(x=A.to_relative(400, 220, 1280, 720)[0], y=A.to_relative(400, 220, 1280, 720)[1],
                                       start_x=A.to_relative(50, 220, 1280, 720)[0],
                                       start_y=A.to_relative(50, 220, 1280, 720)[1]))
    assert r.info.error is None
    start, end = status(r.observation)["drag"].split("->")
    assert abs(int(start.split(",")[0]) - 50) <= 2 and abs(int(end.split(",")[0]) - 400) <= 2
    await env.step(A.MouseMove(*A.to_relative(100, 200, 1280, 720)))  # Qwen's drag starts at the mouse
    r = await env.step(A.LeftClickDrag(*A.to_relative(300, 240, 1280, 720)))
    start, end = status(r.observation)["drag"].split("->")
    assert abs(int(start.split(",")[0]) - 100) <= 2 and abs(int(end.split(",")[0]) - 300) <= 2


async def test_type_into_focused_field(actions_env):
    env, obs = actions_env
    await env.step(A.LeftClick(*centre(obs, "Name")))
    r = await env.step(A.Type("hello"))
    assert r.info.error is None
    assert el(r.observation, "Name").value == "hello"
    assert re.search(r'textbox "Name" value="hello" focused', r.observation.axtree)


async def test_key_chord(actions_env):
    env, _ = actions_env
    r = await env.step(A.Key(("ctrl", "b")))
    assert status(r.observation)["keys"] == "Control+b"
    r = await env.step(A.Key(("esc",)))
    assert status(r.observation)["keys"] == "Escape"


async def test_scroll_and_hscroll_directions(actions_env):
    env, _ = actions_env
    r = await env.step(A.Scroll(-600))  # Qwen: negative = down
    assert r.info.error is None
    assert await env.page.evaluate("scrollY") == pytest.approx(600, abs=5)
    await env.step(A.Scroll(200, 500, 500))  # positive = up
    assert await env.page.evaluate("scrollY") == pytest.approx(400, abs=5)
    await env.step(A.HScroll(-300))  # negative = right
    assert await env.page.evaluate("scrollX") == pytest.approx(300, abs=5)
    # the tree's boxes follow the scroll
    r = await env.step(A.Wait(0))
    assert el(r.observation, "Count").bbox[1] == pytest.approx(100 - 400, abs=5)


async def test_wait_waits(actions_env):
    env, _ = actions_env
    t0 = time.perf_counter()
    r = await env.step(A.Wait(0.3))
    assert time.perf_counter() - t0 >= 0.3 and r.info.error is None


async def test_fill_select_press_hover(actions_env):
    env, obs = actions_env
    r = await env.step(A.Fill(el(obs, "Name").id, "Jane Doe"))
    assert r.info.error is None and el(r.observation, "Name").value == "Jane Doe"
    r = await env.step(A.SelectOption(el(obs, "Color").id, ("Blue",)))
    assert r.info.error is None and el(r.observation, "Color").value == "Blue"
    r = await env.step(A.Press(el(obs, "Name").id, "Enter"))
    assert r.info.error is None and status(r.observation)["keys"] == "Enter"
    r = await env.step(A.Hover(el(obs, "Hover zone").id)) if any(
        e.name == "Hover zone" for e in obs.elements.values()) else await env.step(
        A.MouseMove(*A.to_relative(550, 130, 1280, 720)))
    assert status(r.observation)["hover"] == "yes"
    r = await env.step(A.Click(el(obs, "Agree", "checkbox").id))
    assert re.search(r'checkbox "Agree" checked', r.observation.axtree)


async def test_hover_on_element(actions_env):
    env, obs = actions_env
    r = await env.step(A.Hover(el(obs, "Count").id))
    x, y, w, h = el(obs, "Count").bbox
    assert r.info.error is None and status(r.observation)["move"] == f"{int(x + w / 2)},{int(y + h / 2)}"


async def test_clickable_div_gets_an_id(actions_env):
    env, obs = actions_env
    r = await env.step(A.Click(el(obs, "Fancy div", "clickable").id))
    assert 'StaticText "fancy clicked"' in r.observation.axtree


async def test_goto_and_go_back(actions_env, pages_url):
    env, obs = actions_env
    assert not obs.can_go_back  # the episode's first page
    r = await env.step(A.Scroll(-100))
    assert not r.observation.can_go_back  # still on it
    r = await env.step(A.Goto("page2.html"))  # relative to the current page
    assert r.info.error is None and r.observation.url == f"{pages_url}/page2.html"
    assert '] heading "Second page"' in r.observation.axtree and r.observation.can_go_back
    r = await env.step(A.GoBack())
    assert r.info.error is None and "/actions.html" in r.observation.url and not r.observation.can_go_back


async def test_link_click_waits_for_the_new_page(actions_env, pages_url):
    env, obs = actions_env
    r = await env.step(A.Click(el(obs, "Next page").id))
    assert r.observation.url == f"{pages_url}/page2.html"
    assert '] heading "Second page"' in r.observation.axtree
    assert r.info.timings["settle"] > 0


async def test_new_tab_opens_in_the_same_tab(actions_env, pages_url):
    env, obs = actions_env
    r = await env.step(A.Click(el(obs, "New tab").id))
    assert r.info.error is None
    assert r.observation.url == f"{pages_url}/page2.html"
    assert len(env.page.context.pages) == 1


async def test_terminal_action_on_a_plain_page(actions_env):
    env, _ = actions_env
    r = await env.step(A.Answer("42"))
    assert r.done and not r.truncated and r.reward == 0.0 and r.info.grade is None and not r.info.errored
    again = await env.step(A.LeftClick(1, 1))
    assert again.done and "reset()" in again.info.error


# ---------------------------------------------------------------- failing actions come back as errors
async def test_failing_actions_return_errors(actions_env):
    env, obs = actions_env
    cases = [
        (A.Click("99999"), "not on the page"),
        (A.Click(el(obs, "Under").id), "covered by div#cover"),
        (A.Fill(el(obs, "Count").id, "x"), "fill on element"),
        (A.SelectOption(el(obs, "Color").id, ("Purple",)), "its options are 'Red', 'Green'"),
        (A.SelectOption(el(obs, "Count").id, ("x",)), "select_option on element"),
        (A.Key(("NoSuchKey",)), "unknown key"),
        (A.Goto("https://example.com/"), "blocked"),
        (A.Goto("ftp://x/y"), "only http(s)"),
        (A.GoBack(), "first page"),
        ({"action": "left_click", "coordinate": [2000, 1]}, "outside 0..1000"),
        ("not an action", "expected an Action"),
    ]
    for i, (action, fragment) in enumerate(cases, 1):
        t0 = time.perf_counter()
        r = await env.step(action)
        assert r.info.error and fragment in r.info.error, (action, r.info.error)
        assert r.observation.last_action_error == r.info.error
        assert not r.done and not r.info.errored and r.observation.step == i
        assert time.perf_counter() - t0 < 4, f"{action} took too long to fail"
    assert len(r.observation.last_actions) == 5
    r = await env.step(A.Click(el(obs, "Count").id))  # still usable
    assert r.info.error is None and status(r.observation)["clicks"] == "1"


async def test_vanished_element(actions_env):
    env, obs = actions_env
    vanish = el(obs, "Vanish").id
    r = await env.step(A.Click(vanish))
    assert r.info.error is None and vanish not in r.observation.elements
    r = await env.step(A.Click(vanish))
    assert "not on the page" in r.info.error


async def test_children_of_display_contents_are_observed(make_env, pages_url):
    """A ``display: contents`` wrapper has no box of its own (``checkVisibility`` is false) but its children are
    on screen: GoMail's recipient chips live in one, and a policy must see the chip it made."""
    env = make_env()
    obs = await env.reset(page_task(f"{pages_url}/contents.html"))
    names = {e.name for e in obs.elements.values()}
    assert {"Outside", "Remove Kevin Moore"} <= names and "Never shown" not in names, names


# ---------------------------------------------------------------- ids, isolation, blocking, truncation
async def test_ids_are_stable_across_steps(make_env, pages_url):
    env = make_env()
    obs = await env.reset(page_task(f"{pages_url}/stable.html"))
    alpha, beta = el(obs, "Alpha").id, el(obs, "Beta").id
    r = await env.step(A.Click(el(obs, "Add item").id))  # prepends a new button before Alpha
    o2 = r.observation
    assert (el(o2, "Alpha").id, el(o2, "Beta").id) == (alpha, beta)
    assert int(el(o2, "New 1").id) > max(int(i) for i in obs.elements)
    r = await env.step(A.Click(el(o2, "Clone last").id))  # a clone copies the attribute: it must get its own id
    ids = re.findall(r"^\s*\[(\d+)\]", r.observation.axtree, re.MULTILINE)
    assert len(ids) == len(set(ids)), r.observation.axtree
    assert len([e for e in r.observation.elements.values() if e.name == "Beta"]) == 2
    # ids keep counting after a navigation: an old id never names a new element
    r = await env.step(A.Goto("page2.html"))
    assert min(int(i) for i in r.observation.elements) > max(int(i) for i in o2.elements)


async def test_concurrent_envs_are_isolated(make_env, pages_url):
    envs = [make_env() for _ in range(3)]
    task = page_task(f"{pages_url}/storage.html")
    obs = await asyncio.gather(*(e.reset(task) for e in envs))
    assert all('"local=none session=none cookie=none"' in o.axtree for o in obs)

    async def save(env, o, who):
        await env.step(A.Fill(el(o, "Who").id, who))
        return await env.step(A.Click(el(o, "Save").id))

    rs = await asyncio.gather(*(save(e, o, f"user{i}") for i, (e, o) in enumerate(zip(envs, obs, strict=True))))
    for i, r in enumerate(rs):
        assert f'"local=user{i} session=user{i} cookie=user{i}"' in r.observation.axtree, r.observation.axtree
    fresh = await envs[0].reset(task)  # a new episode starts clean, in the same context recycled
    assert envs[0].contexts_opened == 1
    assert '"local=none session=none cookie=none"' in fresh.axtree, fresh.axtree
    other = await envs[1].step(A.Goto("storage.html"))  # and the others' episodes kept theirs
    assert '"local=user1 session=user1 cookie=user1"' in other.observation.axtree


async def test_offsite_navigation_is_blocked_and_page_kept(actions_env, offsite_url):
    env, obs = actions_env
    await env.step(A.Click(el(obs, "Count").id))
    r = await env.step(A.Click(el(obs, "Elsewhere").id))
    assert r.info.error and "blocked" in r.info.error and offsite_url in r.info.error
    assert "/actions.html" in r.observation.url
    assert status(r.observation)["clicks"] == "1", "the page keeps its state"


async def test_offsite_allowed_when_blocking_is_off(make_env, pages_url, offsite_url):
    env = make_env(block_offsite=False)
    obs = await env.reset(page_task(f"{pages_url}/actions.html?offsite={offsite_url}"))
    r = await env.step(A.Click(el(obs, "Elsewhere").id))
    assert r.info.error is None and r.observation.url == f"{offsite_url}/page2.html"


async def test_max_steps_truncates(make_env, pages_url):
    env = make_env(max_steps=3)
    await env.reset(page_task(f"{pages_url}/page2.html"))
    flags = [(r.done, r.truncated) for r in [await env.step(A.Wait(0)) for _ in range(3)]]
    assert flags == [(False, False), (False, False), (False, True)]
    r = await env.step(A.Wait(0))
    assert r.done and "episode is over" in r.info.error


async def test_step_before_reset_is_a_clear_error(pool):
    from halo.env.env import BrowserEnv
    from halo.errors import ConfigError

    with pytest.raises(ConfigError, match="reset"):
        await BrowserEnv(pool).step(A.Wait(0))


async def test_unreachable_site_is_a_clear_error(make_env):
    from halo.errors import SiteError

    env = make_env()
    with pytest.raises(SiteError, match="is the site running"):
        await env.reset(page_task("http://127.0.0.1:9/nothing.html"))


async def test_frozen_page_errors_the_episode_within_bounds(make_env, pages_url, monkeypatch):
    """A page stuck in a JS loop: the action times out, the observation gives up, the episode is errored (not the
    agent's fault), and the next reset works."""
    for module in ("observing", "env"):  # the observation's own wait, and the step's limit built on it
        monkeypatch.setattr(f"halo.env.{module}.OBSERVE_TIMEOUT_S", 2.0)
    env = make_env(action_timeout_ms=500)
    task = page_task(f"{pages_url}/hang.html")
    obs = await env.reset(task)
    t0 = time.perf_counter()
    r = await env.step(A.Click(el(obs, "Freeze the page").id))
    assert time.perf_counter() - t0 < 10
    assert r.done and r.info.errored and r.info.error
    obs = await env.reset(page_task(f"{pages_url}/page2.html"))
    assert '] heading "Second page"' in obs.axtree


async def test_a_page_that_asks_before_unload_does_not_hold_up_the_next_reset(make_env, pages_url, pool):
    """Recycling navigates the old page away: a beforeunload handler (after a user gesture) must neither block it
    nor make it look like a stuck browser."""
    env = make_env()
    obs = await env.reset(page_task(f"{pages_url}/leave.html"))
    r = await env.step(A.Click(el(obs, "Edit").id))
    assert '"dirty"' in r.observation.axtree
    restarts = pool.restarts
    obs = await env.reset(page_task(f"{pages_url}/leave.html"))
    assert '"clean"' in obs.axtree and env.contexts_opened == 1 and pool.restarts == restarts


async def test_the_page_is_read_after_the_short_timeouts_the_action_set(make_env, pages_url):
    """A list a page closes 150 ms after a click (as a suggestion list closes after its field loses focus) is gone
    in the observation that click returns, not one step later; a timeout seconds away is not waited for, and a page
    that polls in a loop holds each read up by half a second at most."""
    env = make_env()
    obs = await env.reset(page_task(f"{pages_url}/timers.html", goal="wait for timers"))
    res = await env.step(A.Click(el(obs, "Close soon").id))
    assert res.info.error is None and not any(e.name == "Soon gone" for e in res.observation.elements.values())
    t0 = time.perf_counter()
    res = await env.step(A.Click(el(res.observation, "Close late").id))
    assert any(e.name == "Late gone" for e in res.observation.elements.values())  # still there: 3 s away
    assert time.perf_counter() - t0 < 2.5
    for _ in range(2):  # the poll's own timeouts never end; each read waits for them only up to its bound
        t0 = time.perf_counter()
        res = await env.step(A.Click(el(res.observation, "Poll").id))
        assert res.info.error is None and time.perf_counter() - t0 < 2.5
