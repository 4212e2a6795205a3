"""Shared by the Omnizon and Zilloft tests (the server and browser fixtures are conftest.py's): plain HTTP sessions
that start a task as REAL's harness does (/config then /finish), grading through agisdk's evaluator, and a runner
for oracles written as lists of steps."""

from __future__ import annotations

import httpx

from halo.tasks.real import get_task, grade


class HttpEpisode:
    """One browser-like session on a site: a cookie jar, started with /config for a task."""

    def __init__(self, base_url: str, task_id: str, run_id: str = "0"):
        self.task_id = task_id
        self.client = httpx.Client(base_url=base_url, follow_redirects=True, timeout=10)
        r = self.client.get("/config", params={"run_id": run_id, "task_id": task_id, "latency": 0})
        r.raise_for_status()

    def finish(self) -> dict:
        r = self.client.get("/finish.json")
        r.raise_for_status()
        return r.json()

    def grade(self, urls: dict[str, str], response: str = "Done"):
        return grade(get_task(self.task_id, sites="local", site_urls=urls), self.finish(), response)

    def close(self) -> None:
        self.client.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()



# ---------------------------------------------------------------- scripted oracles (test fixtures only)
# An oracle is a list of steps; a step looks at the current Observation and returns the HALO action to take.
# Elements are found by role and accessible name, as a model reading the AXTree would; some steps click by
# coordinates (relative 0..1000, from the element's box) as a model reading the screenshot would.
from collections.abc import Callable

from halo.env import actions as A
from halo.env.types import Element, Observation

Step = Callable[[Observation], A.Action]


def find(obs: Observation, role: str, name: str, *, prefix: bool = False) -> Element:
    """The first element with this role and name (or name prefix); fails loudly with the AXTree."""
    for e in obs.elements.values():
        if e.role == role and (e.name.startswith(name) if prefix else e.name == name):
            return e
    raise AssertionError(f"no {role} {name!r}{' (prefix)' if prefix else ''} on {obs.url}:\n{obs.axtree}")


def _spec(step: Step, *spec) -> Step:
    step.spec = spec  # type: ignore[attr-defined]  # lets other runners (conftest's Driver, benches) replay it
    return step


def click(role: str, name: str, prefix: bool = False) -> Step:
    return _spec(lambda obs: A.Click(find(obs, role, name, prefix=prefix).id), "click", role, name, prefix)


def tap(role: str, name: str, prefix: bool = False) -> Step:
    """A coordinate click at the element's centre (it must be on screen)."""
    def step(obs: Observation) -> A.Action:
        e = find(obs, role, name, prefix=prefix)
        assert e.bbox is not None, f"{role} {name!r} has no box"
        x, y, w, h = e.bbox
        assert 0 <= y + h / 2 < obs.viewport[1], f"{role} {name!r} is off screen (y={y}); use click()"
        return A.LeftClick(*A.to_relative(x + w / 2, y + h / 2, *obs.viewport))
    return _spec(step, "tap", role, name, prefix)


def fill(role: str, name: str, value: str) -> Step:
    return _spec(lambda obs: A.Fill(find(obs, role, name).id, value), "fill", role, name, value)


def press(role: str, name: str, key: str) -> Step:
    return _spec(lambda obs: A.Press(find(obs, role, name).id, key), "press", role, name, key)


def select(name: str, option: str) -> Step:
    return _spec(lambda obs: A.SelectOption(find(obs, "combobox", name).id, (option,)), "select", name, option)


def say(text: str) -> Step:
    return _spec(lambda obs: A.SendMsgToUser(text), "say", text)


def as_driver_oracle(steps: list[Step]):
    """The same oracle for conftest's ``Driver`` (``run_episode(task_id, oracle, message)``): returns
    ``(oracle, message)``; the final ``say`` becomes the message ``run_episode`` ends with."""
    *body, last = steps
    assert last.spec[0] == "say", "an oracle ends with say(...)"

    async def oracle(d) -> None:
        for step in body:
            op, *args = step.spec
            if op == "click":
                role, name, prefix = args
                await d.click(role, name, exact=not prefix)
            elif op == "tap":
                role, name, prefix = args
                await d.click_xy(role, name, exact=not prefix)
            elif op == "fill":
                await d.fill(args[0], args[1], args[2], exact=True)
            elif op == "press":
                await d.press(args[0], args[1], args[2], exact=True)
            elif op == "select" and hasattr(d, "select"):  # a driver over another env (agisdk's, in benches)
                await d.select("combobox", args[0], args[1], exact=True)
            elif op == "select":
                await d.step(A.SelectOption(d.find("combobox", args[0], exact=True).id, (args[1],)))
            else:
                raise AssertionError(f"unknown oracle step {op!r}")

    return oracle, last.spec[1]


async def run_oracle(env, task, steps: list[Step], patience: int = 4):
    """Reset ``env`` on ``task`` and play ``steps``; every action must succeed. Returns the last StepResult.

    Like a model would, the oracle waits (a ``wait`` action, then a fresh observation) when the element it wants
    is not on the page yet: under load an observation can catch a page that is still loading."""
    obs = await env.reset(task)
    result = None
    for i, step in enumerate(steps):
        for attempt in range(patience + 1):
            try:
                action = step(obs)
                break
            except AssertionError:
                if attempt == patience:
                    raise
                waited = await env.step(A.Wait(0.5))
                assert waited.info.error is None, f"step {i}: wait failed: {waited.info.error}"
                obs = waited.observation
        result = await env.step(action)
        assert result.info.error is None, f"step {i} {action.describe()} failed: {result.info.error}"
        obs = result.observation
    assert result is not None and result.done
    return result

