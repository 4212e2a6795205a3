"""Scripted solutions of GoCalendar's task families (TEST FIXTURES ONLY: never training data), and near misses.

``ORACLES[family](d, params)`` solves any instance through BrowserEnv (``d`` is ``tests/sites/site_helpers.py``'s
Driver); ``NEAR_MISSES[family](finish, params)`` edits a solved /finish JSON into a near-correct one (a day off, the
wrong event, another title) that its grader must refuse. Named ``family_oracles_*`` so they never shadow
``tests/sites/oracles_*``.
"""

from __future__ import annotations

import copy
from datetime import date, time, timedelta
from typing import Any

from halo.env import actions as A
from halo.tasks.families.gocalendar import EVENTS, WEEK, _busy, long_day
from real_local.gocalendar.timeutil import fmt_time, fmt_time_long, from_utc_iso, to_utc_iso, week_start

HOUR_PX = 48  # GoCalendar's grid: one hour is 48 px tall


def _event_day(eid: str) -> date:
    return from_utc_iso(EVENTS[eid]["start"]).date()


async def _to_week_of(d, day: date) -> None:
    """Step with Previous/Next week until the week of ``day`` is shown."""
    weeks = (week_start(day) - WEEK[0]).days // 7
    for _ in range(abs(weeks)):
        await d.click("link", "Next week" if weeks > 0 else "Previous week", exact=True)


async def open_day(d, p):
    await d.click("link", long_day(date.fromisoformat(p["date"])), exact=True)  # the header, not the side calendar


async def open_week(d, p):
    await d.click("link", date.fromisoformat(p["date"]).strftime("%A, %B %-d, %Y"), exact=True)


async def other_day(d, p):
    await _to_week_of(d, date.fromisoformat(p["date"]))
    await open_day(d, p)


async def delete(d, p):
    eid = p["id"]
    await _to_week_of(d, _event_day(eid))
    await d.click("button", f"{EVENTS[eid]['title']}, {long_day(_event_day(eid))}")
    await d.click("button", "Delete event", exact=True)


async def move(d, p):
    eid = p["id"]
    await d.click("button", f"{EVENTS[eid]['title']}, {long_day(_event_day(eid))}")
    await d.click("button", "Edit event", exact=True)
    await d.fill("textbox", "Start date", date.fromisoformat(p["date"]).strftime("%A, %B %-d, %Y"))
    await d.click("button", "Save", exact=True)


async def create(d, p):
    """Click the empty slot: x from the day's header, y from the 9am standup (on every weekday) or its grid line."""
    day, at = date.fromisoformat(p["date"]), time.fromisoformat(p["time"])
    head = d.find("link", long_day(day), exact=True)
    standup = d.find("button", "Team Standup Meeting, Monday")
    top = standup.bbox[1] - 9 * HOUR_PX  # where midnight would be
    x = head.bbox[0] + head.bbox[2] / 2
    y = top + (at.hour + at.minute / 60) * HOUR_PX + 12
    await d.step(A.LeftClick(*A.to_relative(x, y, *d.obs.viewport)))
    assert d.find("textbox", "Start time").value == fmt_time_long(at), "the click missed the slot"
    await d.fill("textbox", "Add title", p["title"])
    await d.click("button", "Save", exact=True)


async def schedule(d, p):
    await d.click_xy("button", "Create")
    await d.fill("textbox", "Add title", p["title"])
    await d.fill("textbox", "Start date", date.fromisoformat(p["date"]).strftime("%B %-d, %Y"))
    await d.fill("textbox", "Start time", fmt_time(time.fromisoformat(p["start"])))
    await d.fill("textbox", "End time", fmt_time(time.fromisoformat(p["end"])))
    await d.fill("textbox", "Add location", p["location"])
    await d.click("button", "Save", exact=True)


async def task(d, p):
    await d.click_xy("button", "Create")
    await d.click("tab", "Task", exact=True)
    await d.fill("textbox", "Add title", p["title"])
    await d.fill("textbox", "Start date", date.fromisoformat(p["date"]).strftime("%A, %B %-d, %Y"))
    await d.fill("textbox", "Start time", fmt_time(time.fromisoformat(p["time"])))
    await d.click("button", "Save", exact=True)


ORACLES = {"gocalendar.day": open_day, "gocalendar.week": open_week, "gocalendar.otherday": other_day,
           "gocalendar.delete": delete,
           "gocalendar.move": move, "gocalendar.create": create, "gocalendar.schedule": schedule,
           "gocalendar.task": task}


# ---------------------------------------------------------------- near misses, played in the browser
def _next_day(iso: str) -> str:
    d = date.fromisoformat(iso)
    return (d + timedelta(days=1 if d < WEEK[-1] else -1)).isoformat()


async def side_calendar_day(d, p):
    """The same date on the side calendar: it shows that week, not the day."""
    await d.click("link", date.fromisoformat(p["date"]).strftime("%A, %B %-d, %Y"), exact=True)


def _free_day_nearby(p: dict[str, Any]) -> str:
    """The nearest other day of the week shown whose slot at the goal's time is free (a day off)."""
    at = time.fromisoformat(p["time"])
    d0 = date.fromisoformat(p["date"])
    free = [d for d in WEEK if d != d0 and not _busy(d, at) and not _busy(d, time(at.hour, 30))]
    return min(free, key=lambda d: abs((d - d0).days)).isoformat()


BROWSER_NEAR_MISSES = {
    "gocalendar.day": side_calendar_day,
    "gocalendar.otherday": side_calendar_day,  # its week shown, not its day
    "gocalendar.create": lambda d, p: create(d, {**p, "date": _free_day_nearby(p)}),
}


# ---------------------------------------------------------------- near misses, edits of a solved /finish JSON
def _only(part: dict[str, Any]) -> dict[str, Any]:
    return next(iter(part.values()))


def _shift(ev: dict[str, Any], key: str, **delta: float) -> None:
    ev[key] = _iso(from_utc_iso(ev[key]) + timedelta(**delta))


def _iso(local) -> str:
    return to_utc_iso(local.date(), local.time().replace(tzinfo=None))


def _set_path(s: dict[str, Any], path: str) -> None:
    s["initialfinaldiff"].setdefault("updated", {}).setdefault("router", {}).setdefault("location", {})[
        "pathname"] = path


def nm_day(s, p):
    d = date.fromisoformat(_next_day(p["date"]))
    _set_path(s, f"/r/day/{d.year}/{d.month}/{d.day}")


def nm_otherday(s, p):
    """The same weekday in the week shown (its header, without moving to the goal's week)."""
    d = date.fromisoformat(p["date"])
    d = WEEK[(d.weekday() + 1) % 7]  # the week starts on Sunday
    _set_path(s, f"/r/day/{d.year}/{d.month}/{d.day}")


def nm_week(s, p):
    d = date.fromisoformat(p["date"]) + timedelta(days=7)
    _set_path(s, f"/r/week/{d.year}/{d.month}/{d.day}")


def nm_delete(s, p):
    other = next(e for i, e in EVENTS.items() if i != p["id"] and e["repeat"] == "none")
    s["differences"]["events"]["deleted"] = {other["id"]: copy.deepcopy(other)}


def nm_move(s, p):
    _shift(_only(s["differences"]["events"]["updated"]), "start", hours=1)


def nm_create(s, p):
    _only(s["differences"]["events"]["added"])["title"] = p["title"] + " 2"


def nm_schedule(s, p):
    ev = _only(s["differences"]["events"]["added"])
    _shift(ev, "end", minutes=30)


def nm_task(s, p):
    t = _only(s["initialfinaldiff"]["added"]["calendar"]["myTasks"])
    _shift(t, "start", days=1)


NEAR_MISSES = {"gocalendar.day": nm_day, "gocalendar.otherday": nm_otherday, "gocalendar.week": nm_week, "gocalendar.delete": nm_delete,
               "gocalendar.move": nm_move, "gocalendar.create": nm_create, "gocalendar.schedule": nm_schedule,
               "gocalendar.task": nm_task}


def near_miss(state: dict[str, Any], family: str, params: dict[str, Any], fn=None) -> dict[str, Any]:
    s = copy.deepcopy(state)
    (fn or NEAR_MISSES[family])(s, params)
    return s
EXTRA_NEAR_MISSES: list = []
