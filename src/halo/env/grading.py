"""REAL's ``/finish`` and grading, for ``BrowserEnv``: reading the episode's final state from the site and scoring it
with REAL's own scripts (terminal actions), or with a task family's checks after each step (``end_on_success``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from halo.env import actions as A
from halo.env.context import bounded_call, request_get
from halo.env.executor import short_error
from halo.env.types import StepInfo
from halo.errors import BrowserError, ConfigError, SiteError


def parse_finish_html(text: str) -> dict[str, Any]:
    """The JSON object inside ``/finish``'s ``<pre>`` (as agisdk's ``get_finish_json`` reads it)."""
    try:
        state = json.loads(text)
    except json.JSONDecodeError as e:
        raise SiteError(f"/finish did not hold JSON inside <pre> ({e}); is this a REAL site?") from None
    if not isinstance(state, dict):
        raise SiteError(f"/finish held {type(state).__name__}, not a JSON object")
    return state


class Grading:
    """The part of ``BrowserEnv`` (halo.env.env) that reads REAL's ``/finish`` and grades: ``finish_state`` (REAL's
    protocol, graded at the end), ``finish_json`` (REAL-local's, read once per step for a family's checks and
    progress). Uses the env's context (halo.env.context) and its ``_finish_read`` cache."""

    async def finish_state(self) -> dict[str, Any]:
        """REAL's ``/finish`` JSON for this episode: on REAL-local ``/finish.json`` through the context's request
        client (the same payload, no page load); elsewhere (or ``real_setup="tab"``) agisdk's ``get_finish_json``:
        reload ``/finish`` in the background tab, parse the JSON inside ``<pre>``. Raises ``SiteError`` if the site
        does not answer as REAL does."""
        if self.task is None or self._ctx is None:
            raise ConfigError("finish_state() needs an episode; call reset(task) first")
        if not self.task.protocol:
            raise ConfigError(f"task {self.task.id} is a plain page: it has no /finish")
        if self.task.local and self.real_setup == "request":  # REAL-local: the same JSON, without a page load
            url = f"{self.task.base_url}/finish.json"
            try:
                resp = await asyncio.wait_for(request_get(self._ctx, url, self.nav_timeout_ms),
                                              2 * (self.nav_timeout_ms / 1000 + 5))
                if resp.status >= 400:
                    raise SiteError(f"{url} answered HTTP {resp.status}")
                state = await asyncio.wait_for(resp.json(), self.action_timeout_ms / 1000 + 5)
            except SiteError:
                raise
            except Exception as e:
                raise SiteError(f"could not read {url}: {short_error(e)}") from e
            if not isinstance(state, dict):
                raise SiteError(f"{url} held {type(state).__name__}, not a JSON object")
            return state
        url = f"{self.task.base_url}/finish"
        try:
            if self._bg is None or self._bg.is_closed():
                self._bg = await bounded_call(self._new_page(), "new_page")
            resp = await self._goto(self._bg, url)
            if resp is not None and resp.status >= 400:
                raise SiteError(f"{url} answered HTTP {resp.status}")
            if not self.task.local:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self._bg.wait_for_load_state("networkidle", timeout=5000), 10)
            text = await asyncio.wait_for(self._bg.locator("pre").first.inner_text(timeout=self.action_timeout_ms),
                                          self.action_timeout_ms / 1000 + 5)
        except (SiteError, BrowserError):  # a crashed renderer is the browser's failure (_goto says which)
            raise
        except Exception as e:
            raise SiteError(f"could not read {url}: {short_error(e)}") from e
        return parse_finish_html(text)

    async def _grade(self, action: A.Action, info: StepInfo) -> float:
        if not self.task.protocol:
            return 0.0
        t0 = time.perf_counter()
        try:
            state = await self.finish_state()
        except (SiteError, ConfigError) as e:
            info.error, info.errored = str(e), True
            return 0.0
        t1 = time.perf_counter()
        info.timings["finish"] = t1 - t0
        self._prepare_next()  # the page is observed and the state read: the tab clears while REAL's scripts run
        if not getattr(self.task, "graded", bool(self.task.eval_scripts)):
            return 0.0
        from halo.tasks.real import grade

        response = getattr(action, "text", "") or "Done"
        try:
            g = await asyncio.to_thread(grade, self.task, state, response)
        except Exception as e:  # agisdk itself failed: not the agent's doing
            info.error, info.errored = f"grading failed: {type(e).__name__}: {e}", True
            return 0.0
        info.timings["grade"] = time.perf_counter() - t1
        info.grade = g
        return g.reward

    async def _validate(self, info: StepInfo) -> tuple[float, bool]:
        """A family's checks on the state after a non-terminal step: success ends the episode (graded, reward 1), and
        so does a dead end (``Family.dead_end``: graded, failed; the steps after it could only be wasted); anything
        else goes on. Checks on the final message cannot pass here, so families that ask for an answer
        still end on the agent's message."""
        state = await self.finish_json()
        if state is None:
            return 0.0, False
        from halo.tasks.families import dead_end_of, grade_family_task

        g = grade_family_task(self.task, state, "")
        if not g.success and not dead_end_of(self.task, state):  # a dead end (an email sent wrong) is over too
            return 0.0, False
        info.grade = g
        self._prepare_next()
        return g.reward, True

    async def finish_json(self) -> dict[str, Any] | None:
        """REAL-local's ``/finish`` JSON read through the context's own request client (no page load, the agent's
        tabs untouched): what a task family's progress reads after each step. None where it cannot be read."""
        if self.task is None or self._ctx is None or not self.task.local or not self.task.protocol:
            return None
        if self._finish_read is not None and self._finish_read[0] == self._step:
            return self._finish_read[1]  # read once per step: validation and progress share it
        try:
            resp = await asyncio.wait_for(request_get(self._ctx, f"{self.task.base_url}/finish.json", 5000),
                                          timeout=12)
            state = await resp.json() if resp.ok else None
        except Exception:  # progress is shaping: an unreadable state pays nothing, it never fails the step
            return None
        if state is not None:
            self._finish_read = (self._step, state)
        return state
