"""GoCalendar behaviours no REAL v2 task exercises, driven in real Chromium through BrowserEnv as Google Calendar
behaves: a typed start time moves the end (the length kept), an end before the start is refused, deleting one
occurrence of a repeating event keeps the others, Esc closes the editor from a text field, Create starts today."""

from __future__ import annotations

from datetime import timedelta

import pytest

from real_local.gocalendar.timeutil import from_utc_iso

pytestmark = pytest.mark.browser


def _only_added(state: dict) -> dict:
    (ev,) = state["differences"]["events"]["added"].values()
    return ev


async def test_a_typed_start_time_moves_the_end(run_episode):
    async def typed(d):
        await d.click("button", "Create")
        await d.fill("textbox", "Add title", "Work out at the gym")
        await d.fill("textbox", "Start date", "September 20, 2024")
        await d.fill("textbox", "Start time", "7:45pm")
        assert d.find("textbox", "End time").value == "8:45pm"  # 9-10am's hour, kept
        await d.click("button", "Save", exact=True)

    res, _ = await run_episode("v2.gocalendar-12", typed)
    ev = _only_added(res.info.grade.finish_state)
    assert from_utc_iso(ev["start"]).strftime("%Y-%m-%d %H:%M") == "2024-09-20 19:45"
    assert from_utc_iso(ev["end"]) - from_utc_iso(ev["start"]) == timedelta(hours=1)


async def test_a_start_typed_key_by_key_keeps_the_length_set_before(run_episode):
    async def keys(d):
        await d.click("button", "Create")
        await d.fill("textbox", "Add title", "Piano lesson")
        await d.fill("textbox", "End time", "9:30am")  # a 30-minute event
        await d.click("textbox", "Start time")
        await d.key("ctrl", "a")
        await d.type("4:15 PM")
        assert d.find("textbox", "End time").value == "4:45pm"
        await d.click("button", "Save", exact=True)

    res, _ = await run_episode("v2.gocalendar-12", keys)
    ev = _only_added(res.info.grade.finish_state)
    assert (from_utc_iso(ev["start"]).strftime("%H:%M"), from_utc_iso(ev["end"]).strftime("%H:%M")) == ("16:15", "16:45")


async def test_an_end_before_the_start_is_refused(run_episode):
    async def backwards(d):
        await d.click("button", "Create")
        await d.fill("textbox", "Add title", "Dinner")
        await d.fill("textbox", "Start time", "7:45pm")
        await d.fill("textbox", "End time", "10:00am")
        await d.click("button", "Save", exact=True)
        assert d.sees("is before the start time")
        assert d.find("textbox", "Add title").value == "Dinner"  # the editor is back with what was typed

    res, _ = await run_episode("v2.gocalendar-12", backwards)
    assert res.info.grade.finish_state["differences"]["events"]["added"] == {}


async def _delete_standup(d, day: str, scope: str | None) -> None:
    await d.click("button", f"Team Standup Meeting, {day}")
    await d.click("button", "Delete event", exact=True)
    assert d.has("radio", "This event", exact=True) and d.has("radio", "All events", exact=True)
    if scope:
        await d.click("radio", scope, exact=True)
    await d.click("button", "OK", exact=True)


async def test_deleting_one_occurrence_keeps_the_others(run_episode):
    async def one(d):
        await _delete_standup(d, "Wednesday", None)  # "This event" is the default, as in Google
        assert d.sees("Event deleted")
        assert not d.has("button", "Team Standup Meeting, Wednesday")
        for day in ("Monday", "Tuesday", "Thursday", "Friday"):
            assert d.has("button", f"Team Standup Meeting, {day}"), day
        await d.click("link", "Next week", exact=True)
        assert d.has("button", "Team Standup Meeting, Wednesday")

    res, _ = await run_episode("v2.gocalendar-23", one)
    state = res.info.grade.finish_state
    assert state["differences"]["events"]["deleted"] == {}
    assert state["differences"]["events"]["updated"] == {"1": {"id": "1", "exceptions": ["2024-07-17"]}}
    assert not res.info.grade.success  # not Project Sync


async def test_this_and_following_ends_the_series_and_all_deletes_it(run_episode):
    async def following(d):
        await _delete_standup(d, "Wednesday", "This and following events")
        assert d.has("button", "Team Standup Meeting, Tuesday")
        assert not d.has("button", "Team Standup Meeting, Thursday")

    res, _ = await run_episode("v2.gocalendar-23", following)
    assert res.info.grade.finish_state["differences"]["events"]["updated"] == {"1": {"id": "1",
                                                                                     "repeatUntil": "2024-07-16"}}

    async def every(d):
        await _delete_standup(d, "Thursday", "All events")
        assert not d.has("button", "Team Standup Meeting")

    res, _ = await run_episode("v2.gocalendar-23", every)
    assert set(res.info.grade.finish_state["differences"]["events"]["deleted"]) == {"1"}


async def test_undo_brings_a_deleted_occurrence_back(run_episode):
    async def undo(d):
        await _delete_standup(d, "Friday", None)
        await d.click("button", "Undo", exact=True)
        assert d.has("button", "Team Standup Meeting, Friday")

    res, _ = await run_episode("v2.gocalendar-23", undo)
    assert res.info.grade.finish_state["differences"]["events"] == {"added": {}, "updated": {}, "deleted": {}}


async def test_escape_closes_the_editor_from_a_text_field(run_episode):
    async def esc(d):
        await d.click("button", "Create")
        await d.fill("textbox", "Add title", "Never mind")
        await d.press("textbox", "Add title", "Escape")
        assert not d.has("textbox", "Add title")
        await d.click("button", "Create")
        await d.click("textbox", "Start time")  # opens the list of times: Esc closes that first
        assert d.has("listbox", "Times")
        await d.press("textbox", "Start time", "Escape")
        assert not d.has("listbox", "Times") and d.has("textbox", "Add title")
        await d.press("textbox", "Start time", "Escape")
        assert not d.has("textbox", "Add title")

    res, _ = await run_episode("v2.gocalendar-12", esc)
    assert res.info.grade.finish_state["differences"]["events"]["added"] == {}


async def test_create_starts_today_when_the_week_shows_it(run_episode):
    async def days(d):
        await d.click("link", "Sunday, July 14, 2024", exact=True)  # this week, from its Sunday
        await d.click("button", "Create")
        assert d.find("textbox", "Start date").value == "Thursday, July 18, 2024"
        await d.press("textbox", "Add title", "Escape")
        await d.click("button", "Team Standup Meeting, Monday")
        await d.click("button", "Edit event", exact=True)  # an edit's date must not stick to the next Create
        await d.press("textbox", "Add title", "Escape")
        await d.click("link", "Next week", exact=True)
        await d.click("button", "Create")
        assert d.find("textbox", "Start date").value == "Sunday, July 21, 2024"  # the first day shown

    await run_episode("v2.gocalendar-12", days)


async def test_drag_an_event_pick_a_date_and_page_the_side_calendar(run_episode):
    """REAL v1 gocalendar-7's drag and drop (the coffee from Thursday 9am to Friday 10am), the editor's date picker
    and the side calendar's month arrows, as a person uses them (issue 16, point 4)."""
    from halo.env import actions as A

    async def ui(d):
        await d.click("button", "Next month, side calendar", exact=True)
        assert d.has("link", "Saturday, September 7, 2024", exact=True)  # August's grid, the view unchanged
        assert d.has("button", "Team Standup Meeting, Monday, July 15")
        await d.click("button", "Create")
        await d.click("textbox", "Start date", exact=True)
        await d.click("button", "Next month, date picker", exact=True)
        await d.click("button", "Tuesday, August 20, 2024", exact=True)
        assert d.find("textbox", "Start date", exact=True).value == "Tuesday, August 20, 2024"
        assert not d.has("dialog", "Choose a date")
        await d.press("textbox", "Add title", "Escape")
        coffee = d.find("button", "Morning Coffee with sister").bbox
        ten = d.find("button", "Breakfast Meeting with Client, Friday").bbox  # Friday 10-11am
        grab = (coffee[0] + coffee[2] / 2, coffee[1] + coffee[3] / 2)
        drop = (ten[0] + ten[2] / 2, ten[1] + coffee[3] / 2)  # the coffee's top edge on Friday's 10am line
        vp = d.obs.viewport
        await d.step(A.LeftClickDrag(*A.to_relative(*drop, *vp), *A.to_relative(*grab, *vp)))
        assert d.has("button", "Morning Coffee with sister, Friday, July 19 · 10am – 11am")

    res, _ = await run_episode("v2.gocalendar-18", ui)
    state = res.info.grade.finish_state
    assert state["differences"]["events"]["updated"] == {
        "10": {"id": "10", "start": "2024-07-19T17:00:00.000Z", "end": "2024-07-19T18:00:00.000Z"}}
    assert state["differences"]["events"]["added"] == {}
