"""Scripted solutions of REAL's GoCalendar v2 tasks on REAL-local (TEST FIXTURES ONLY: never training data).

gocalendar-11 has none: its eval script is empty, so no final state can pass it. ``d`` is the Driver of
``tests/sites/conftest.py``; names are found by role and name in the current Observation.
"""

from __future__ import annotations

from halo.env import actions as A


async def new_event(d, title: str, date: str, start: str | None = None, end: str | None = None, *,
                    location: str = "", repeat: str | None = None, all_day_until: str | None = None) -> None:
    await d.click_xy("button", "Create")
    await d.fill("textbox", "Add title", title)
    await d.fill("textbox", "Start date", date)
    if all_day_until is not None:
        await d.click("checkbox", "All day")
        await d.fill("textbox", "End date", all_day_until)
    else:
        await d.fill("textbox", "Start time", start)
        await d.fill("textbox", "End time", end)
    if repeat:
        await d.click("button", "Repeat:")
        await d.click("option", repeat)
    if location:
        await d.fill("textbox", "Add location", location)
    await d.click("button", "Save", exact=True)


async def delete_event(d, title: str) -> None:
    await d.click("button", title)
    await d.click("button", "Delete event", exact=True)


async def gocalendar_4(d):
    await new_event(d, "Work out at the gym", "September 20, 2024", "7:45pm", "8:45pm", location="Gym",
                    repeat="Every weekday (Monday to Friday)")


async def gocalendar_6(d):
    """Click the empty Wednesday 11am slot (just below the 10-11am Project Sync) with a coordinate click."""
    x, y, w, h = d.find("button", "Project Sync, Wednesday").bbox
    await d.step(A.LeftClick(*A.to_relative(x + w / 2, y + h + 12, *d.obs.viewport)))
    assert d.find("textbox", "Start time").value == "11:00am"
    await d.fill("textbox", "Add title", "Pick up my sister")
    await d.click("button", "Save", exact=True)


async def gocalendar_8(d):
    await d.click_xy("button", "Create")
    await d.click("tab", "Task", exact=True)
    await d.fill("textbox", "Add title", "Send an email to Ashley")
    await d.fill("textbox", "Start date", "Monday, July 22, 2024")
    await d.fill("textbox", "Start time", "9:00am")
    await d.click("button", "Save", exact=True)


async def gocalendar_10(d):
    await delete_event(d, "Dinner with Friends, Wednesday")


async def gocalendar_12(d):
    await new_event(d, "Buy gym clothes", "Monday, July 22, 2024", "9:00am", "9:30am")


async def gocalendar_13(d):
    await new_event(d, "Math camp", "July 21, 2024", all_day_until="July 27, 2024", location="Sunnyvale")


async def gocalendar_16(d):
    await delete_event(d, "Reading Time, Wednesday")


async def gocalendar_18(d):
    await delete_event(d, "Morning Coffee with sister")


async def gocalendar_23(d):
    await delete_event(d, "Project Sync, Wednesday")


ORACLES = {f"v2.{name.replace('_', '-')}": fn for name, fn in dict(globals()).items()
           if name.startswith("gocalendar_") and callable(fn)}
