"""Every GoCalendar v2 task (but gocalendar-11, whose script is empty) solved in real Chromium through BrowserEnv on
REAL-local and graded by agisdk's own eval_gocalendar_*.py (SUCCESS); untouched, each grades FAILURE."""

from __future__ import annotations

import pytest
from oracles_gocalendar import ORACLES

from halo.tasks.real import list_tasks

pytestmark = pytest.mark.browser
GOCALENDAR_TASKS = [t.id for t in list_tasks("v2", "gocalendar")]


def test_every_gradable_gocalendar_task_has_an_oracle():
    assert len(GOCALENDAR_TASKS) == 10
    assert sorted(ORACLES) == sorted(set(GOCALENDAR_TASKS) - {"v2.gocalendar-11"})


@pytest.mark.parametrize("task_id", sorted(ORACLES, key=lambda t: int(t.rsplit("-", 1)[1])))
async def test_oracle_passes_real_grader(task_id, run_episode):
    res, d = await run_episode(task_id, ORACLES[task_id])
    g = res.info.grade
    assert g.success and res.reward == 1.0, f"{task_id} graded {g.details} after {d.steps} steps"


@pytest.mark.parametrize("task_id", GOCALENDAR_TASKS)
async def test_noop_episode_fails(task_id, run_episode):
    res, _ = await run_episode(task_id, None)
    assert not res.info.grade.success and res.reward == 0.0, f"{task_id}: a no-op passed {res.info.grade.details}"


async def test_edit_an_event_through_its_details(run_episode):
    async def edit(d):
        await d.click("button", "Team Check-In")
        await d.click("button", "Edit event", exact=True)
        await d.fill("textbox", "Add title", "Project Kickoff")
        await d.fill("textbox", "Add location", "Zoom")
        await d.click("button", "Save", exact=True)
        assert d.has("button", "Project Kickoff")

    res, _ = await run_episode("v2.gocalendar-4", edit)
    updated = res.info.grade.finish_state["differences"]["events"]["updated"]
    assert updated == {"11": {"id": "11", "title": "Project Kickoff", "location": "Zoom"}}


async def test_editor_reopens_with_the_reason_when_a_date_is_unreadable(run_episode):
    async def bad(d):
        await d.click("button", "Create")
        await d.fill("textbox", "Add title", "Lunch")
        await d.fill("textbox", "Start date", "someday")
        await d.click("button", "Save", exact=True)
        assert d.sees("cannot read the date 'someday'")
        assert d.find("textbox", "Add title").value == "Lunch"

    res, _ = await run_episode("v2.gocalendar-12", bad)
    assert res.info.grade.finish_state["differences"]["events"]["added"] == {}


async def test_undo_brings_a_deleted_event_back(run_episode):
    async def undo(d):
        await d.click("button", "Dinner with Friends")
        await d.click("button", "Delete event", exact=True)
        assert not d.has("button", "Dinner with Friends") and d.sees("Event deleted")
        await d.click("button", "Undo", exact=True)
        assert d.has("button", "Dinner with Friends")

    res, _ = await run_episode("v2.gocalendar-10", undo)
    g = res.info.grade
    assert g.finish_state["differences"]["events"]["deleted"] == {} and not g.success
