"""Actions to Playwright calls, through a dispatch table (never ``exec`` of generated code).

Coordinate actions use the mouse directly (``mouse.click`` ~2 ms against ~35 ms for a locator click, which waits
for animation frames); element actions find the element by its ``data-halo-id``, scroll it into view and click
its centre (failing fast, with what covers it, where a locator would wait 5 s); ``fill``/``select_option``/
``press`` act on the element itself with Playwright's semantics in one evaluate (``js/input.js``), then the
keyboard (no locator: its injected script costs every document ~30 CPU-ms on first use). Failures the agent
caused raise ``ActionFailed`` with a message for the model.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

from halo.env import actions as A
from halo.env.observe import js
from halo.env.types import VIEWPORT


class ActionFailed(Exception):
    """The action could not be carried out on this page (the agent's mistake, reported in the observation)."""


def gone(element: str) -> ActionFailed:
    """The agent named an element id the page does not have (``locate.js`` and ``input.js`` say 'gone')."""
    return ActionFailed(f"element {element!r} is not on the page (ids come from the current accessibility tree)")


def short_error(e: BaseException) -> str:
    """First meaningful line of a Playwright error, without its call log."""
    text = str(e).strip()
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("=", "Call log")):
            return line[:300]
    return type(e).__name__


@dataclass
class Executor:
    """Runs actions on one page. ``mouse`` remembers the pointer position (Qwen's drag starts there)."""

    page: Any
    timeout_ms: int = 5000
    viewport: tuple[int, int] = VIEWPORT
    allowed_origin: str | None = None  # goto elsewhere fails when set
    cdp: Any = None  # the page's CDP session (history queries)
    first_history_index: int | None = None  # go_back never leaves the episode's first page
    mouse: tuple[float, float] = (0.0, 0.0)

    async def run(self, action: A.Action) -> None:
        handler = HANDLERS.get(type(action))
        if handler is None:
            raise ActionFailed(f"action {action.name!r} has no executor")
        await handler(self, action)

    # ---------------------------------------------------------------- helpers
    def px(self, x: float, y: float) -> tuple[float, float]:
        return A.to_pixels(x, y, *self.viewport)

    async def move(self, x: float, y: float) -> None:
        await self.page.mouse.move(x, y)
        self.mouse = (x, y)

    async def click_at(self, x: float, y: float, button: str = "left", count: int = 1) -> None:
        self.mouse = (x, y)
        await self.page.mouse.click(x, y, button=button, click_count=count)

    async def locate(self, element: str) -> dict[str, Any]:
        """Centre of an element (scrolled into view); ``ActionFailed`` if it is gone or has no box."""
        r = await self.page.evaluate(js("locate.js"), element)
        if r.get("error") == "gone":
            raise gone(element)
        return r

    async def point_at(self, element: str) -> tuple[float, float]:
        """Centre of a visible, uncovered element; fails fast (no 5 s actionability wait) otherwise."""
        r = await self.locate(element)
        if r.get("error") == "nobox":
            raise ActionFailed(f"element {element!r} ({r.get('tag')}) is not visible (it has no box on screen)")
        if not r.get("ok"):
            raise ActionFailed(f"element {element!r} is covered by {r.get('cover') or 'another element'} "
                               f"at its centre; act on what covers it, or close it first")
        return float(r["x"]), float(r["y"])

    async def on_element(self, element: str, op: str, arg: Any = None) -> bool:
        """``input.js`` on the element (fill / select / press); True when the keyboard must insert the text."""
        r = await self.page.evaluate(js("input.js"), [element, op, arg])
        if r.get("error") == "gone":
            raise gone(element)
        if r.get("error") == "nooption":  # say which options exist instead of waiting for a missing one
            labels = ", ".join(repr(label) for label in r["options"])
            raise ActionFailed(f"select_option: element {element!r} has no option {r['missing']!r}; "
                               f"its options are {labels}")
        if r.get("error"):
            name = {"select": "select_option"}.get(op, op)
            raise ActionFailed(f"{name} on element {element!r} failed: {r['error']}")
        return bool(r.get("needsInput"))

    def check_url(self, url: str) -> str:
        full = urljoin(self.page.url, url)
        parts = urlsplit(full)
        if parts.scheme not in ("http", "https", "about", "data"):
            raise ActionFailed(f"goto {url!r}: only http(s) URLs can be opened")
        if self.allowed_origin and parts.scheme in ("http", "https") and \
                f"{parts.scheme}://{parts.netloc}" != self.allowed_origin:
            raise ActionFailed(f"goto {url!r} blocked: this task stays on {self.allowed_origin}")
        return full


# ---------------------------------------------------------------- handlers (one per action type)
async def _left_click(ex: Executor, a: A.LeftClick) -> None:
    await ex.click_at(*ex.px(a.x, a.y))


async def _double_click(ex: Executor, a: A.DoubleClick) -> None:
    x, y = ex.px(a.x, a.y)
    ex.mouse = (x, y)
    await ex.page.mouse.dblclick(x, y)


async def _right_click(ex: Executor, a: A.RightClick) -> None:
    await ex.click_at(*ex.px(a.x, a.y), button="right")


async def _middle_click(ex: Executor, a: A.MiddleClick) -> None:
    await ex.click_at(*ex.px(a.x, a.y), button="middle")


async def _triple_click(ex: Executor, a: A.TripleClick) -> None:
    await ex.click_at(*ex.px(a.x, a.y), count=3)


async def _mouse_move(ex: Executor, a: A.MouseMove) -> None:
    await ex.move(*ex.px(a.x, a.y))


async def _drag(ex: Executor, a: A.LeftClickDrag) -> None:
    if a.start_x is not None and a.start_y is not None:
        await ex.move(*ex.px(a.start_x, a.start_y))
    await ex.page.mouse.down()
    x, y = ex.px(a.x, a.y)
    await ex.page.mouse.move(x, y, steps=5)
    ex.mouse = (x, y)
    await ex.page.mouse.up()


async def _type(ex: Executor, a: A.Type) -> None:
    await ex.page.keyboard.type(a.text)


async def _key(ex: Executor, a: A.Key) -> None:
    chord = A.playwright_key(a.keys)
    try:
        await ex.page.keyboard.press(chord)
    except Exception as e:
        if "Unknown key" in str(e):
            raise ActionFailed(f"unknown key {chord!r} (use names like Enter, Tab, ctrl+a, ArrowDown)") from e
        raise


async def _scroll(ex: Executor, a: A.Scroll) -> None:
    w, h = ex.viewport
    x, y = ex.px(a.x, a.y) if a.x is not None and a.y is not None else (w / 2, h / 2)
    await ex.move(x, y)
    delta = -float(a.pixels)  # Qwen: positive scrolls up (wheel delta is positive down)
    if isinstance(a, A.HScroll):  # positive = left
        await ex.page.mouse.wheel(delta, 0)
    else:
        await ex.page.mouse.wheel(0, delta)


async def _wait(ex: Executor, a: A.Wait) -> None:
    await asyncio.sleep(a.time)


async def _nothing(ex: Executor, a: A.Action) -> None:
    """Terminal actions do nothing to the page; the env grades the state."""


async def _click(ex: Executor, a: A.Click) -> None:
    await ex.click_at(*await ex.point_at(a.element))


async def _hover(ex: Executor, a: A.Hover) -> None:
    await ex.move(*await ex.point_at(a.element))


async def _fill(ex: Executor, a: A.Fill) -> None:
    if await ex.on_element(a.element, "fill", a.value):  # text selected: typing replaces it, as Playwright's fill
        if a.value:
            await ex.page.keyboard.insert_text(a.value)
        else:
            await ex.page.keyboard.press("Delete")


async def _select(ex: Executor, a: A.SelectOption) -> None:
    await ex.on_element(a.element, "select", list(a.options))


async def _press(ex: Executor, a: A.Press) -> None:
    await ex.on_element(a.element, "press")
    await ex.page.keyboard.press(A.playwright_key(a.key))


async def _goto(ex: Executor, a: A.Goto) -> None:
    url = ex.check_url(a.url)
    try:
        await ex.page.goto(url, wait_until="domcontentloaded", timeout=ex.timeout_ms)
    except Exception as e:
        raise ActionFailed(f"goto {a.url!r} failed: {short_error(e)}") from e


async def _go_back(ex: Executor, a: A.GoBack) -> None:
    if ex.cdp is not None and ex.first_history_index is not None:
        h = await ex.cdp.send("Page.getNavigationHistory")
        if h["currentIndex"] <= ex.first_history_index:  # going back would leave the task's first page
            raise ActionFailed("go_back: this is the first page of the episode")
    before = ex.page.url
    try:
        r = await ex.page.go_back(wait_until="domcontentloaded", timeout=ex.timeout_ms)
    except Exception as e:
        raise ActionFailed(f"go_back failed: {short_error(e)}") from e
    if r is None and ex.page.url == before:
        raise ActionFailed("go_back: there is no previous page in this tab")


HANDLERS: dict[type[A.Action], Callable[[Executor, Any], Awaitable[None]]] = {
    A.LeftClick: _left_click, A.DoubleClick: _double_click, A.RightClick: _right_click,
    A.MiddleClick: _middle_click, A.TripleClick: _triple_click, A.MouseMove: _mouse_move, A.LeftClickDrag: _drag,
    A.Type: _type, A.Key: _key, A.Scroll: _scroll, A.HScroll: _scroll, A.Wait: _wait,
    A.Terminate: _nothing, A.Answer: _nothing, A.SendMsgToUser: _nothing,
    A.Click: _click, A.Hover: _hover, A.Fill: _fill, A.SelectOption: _select, A.Press: _press,
    A.Goto: _goto, A.GoBack: _go_back,
}
