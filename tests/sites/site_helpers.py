"""Plain helpers of the REAL-local site tests (importable by name from tests and benches; fixtures stay in
conftest.py): finding elements in an Observation by role and name, and the Driver that runs oracles."""

from __future__ import annotations

from typing import Any

import pytest

from halo.env import actions as A
from halo.env.types import Element, Observation, StepResult


def site_url(site_urls: dict[str, str], site: str) -> str:
    if site not in site_urls:
        pytest.skip(f"REAL-local site {site} does not import")
    return site_urls[site]


# ---------------------------------------------------------------- finding elements in an Observation
def find_elements(obs: Observation, role: str | None = None, name: str | None = None, *,
                  exact: bool = False) -> list[Element]:
    """Elements with this role whose name equals (``exact``) or starts with ``name`` (case-insensitive)."""
    out = []
    for el in obs.elements.values():
        if role is not None and el.role != role:
            continue
        if name is not None:
            a, b = el.name.strip().lower(), name.strip().lower()
            if (a != b) if exact else not a.startswith(b):
                continue
        out.append(el)
    return out


def find_element(obs: Observation, role: str | None, name: str | None, *, exact: bool = False,
                 nth: int = 0) -> Element:
    found = find_elements(obs, role, name, exact=exact)
    if len(found) <= nth:
        names = sorted({f"{e.role} {e.name!r}" for e in obs.elements.values()
                        if role is None or e.role == role})[:60]
        raise AssertionError(f"no {role or 'element'} named {name!r} (#{nth}) on {obs.url}; "
                             f"{role or 'elements'} present: {names}")
    return found[nth]


def centre_relative(el: Element, viewport: tuple[int, int]) -> tuple[int, int]:
    assert el.bbox is not None, f"{el.role} {el.name!r} has no box"
    x, y, w, h = el.bbox
    return A.to_relative(x + w / 2, y + h / 2, *viewport)


class Driver:
    """Runs an oracle: each call finds its element in the CURRENT observation and takes one env step. Any action
    error fails the test at once, with the error the env reported."""

    def __init__(self, env: Any, obs: Observation):
        self.env = env
        self.obs = obs
        self.result: StepResult | None = None
        self.steps = 0

    def find(self, role: str | None, name: str | None, **kw: Any) -> Element:
        return find_element(self.obs, role, name, **kw)

    def has(self, role: str | None, name: str | None, **kw: Any) -> bool:
        return bool(find_elements(self.obs, role, name, **kw))

    def sees(self, text: str) -> bool:
        """The text is in the page's accessibility tree text (what a text-reading agent sees)."""
        return text.lower() in self.obs.axtree.replace('\\"', '"').lower()

    async def step(self, action: A.Action) -> StepResult:
        res = await self.env.step(action)
        self.steps += 1
        assert not res.info.errored, f"episode errored at {action.describe()}: {res.info.error}"
        assert res.info.error is None, f"{action.describe()} failed on {self.obs.url}: {res.info.error}"
        self.obs, self.result = res.observation, res
        return res

    async def click(self, role: str | None, name: str | None, **kw: Any) -> StepResult:
        return await self.step(A.Click(self.find(role, name, **kw).id))

    async def click_xy(self, role: str | None, name: str | None, **kw: Any) -> StepResult:
        """A Qwen-style coordinate click (relative 0..1000) at the element's centre."""
        x, y = centre_relative(self.find(role, name, **kw), self.obs.viewport)
        return await self.step(A.LeftClick(x, y))

    async def fill(self, role: str | None, name: str | None, value: str, **kw: Any) -> StepResult:
        return await self.step(A.Fill(self.find(role, name, **kw).id, value))

    async def press(self, role: str | None, name: str | None, key: str, **kw: Any) -> StepResult:
        return await self.step(A.Press(self.find(role, name, **kw).id, key))

    async def type(self, text: str) -> StepResult:
        return await self.step(A.Type(text))

    async def key(self, *keys: str) -> StepResult:
        return await self.step(A.Key(keys))

    async def finish(self, text: str = "Done.") -> StepResult:
        res = await self.env.step(A.SendMsgToUser(text))
        self.steps += 1
        self.obs, self.result = res.observation, res
        return res
