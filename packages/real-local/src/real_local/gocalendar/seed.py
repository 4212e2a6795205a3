"""GoCalendar's calendar as REAL's v2 eval scripts expect it: the week of Wednesday 2024-07-17 with the events its
goals refer to ("Dinner with Friends", "Reading Time", "Project Sync" on Wednesday, coffee with the user's sister)
and the event names of REAL's v1 GoCalendar tasks (ids 1-22, exactly as REAL's scripts and tasks name them), around
them a working calendar at a real one's scale, generated deterministically from ``GEN_SEED``
(``real_local.gocalendar.gendata``): weekly and monthly meetings, one-off meetings with guests and video calls,
appointments, family events, birthdays, trips and US holidays from May to October 2024. Times are US Pacific,
stored in UTC."""

from __future__ import annotations

import functools
from datetime import date, time
from typing import Any

from real_local.core import fresh_copy
from real_local.gocalendar.reference import CALENDARS, meeting_id
from real_local.gocalendar.timeutil import to_utc_iso

# id: (title, day, start, end (None: all day, end is then the last day), location, description, calendar, repeat)
_RAW: dict[str, tuple] = {
    "1": ("Team Standup Meeting", "2024-07-15", "09:00", "09:15", "Zoom", "Daily standup with the team.", "work",
          "weekdays"),
    "2": ("Client Call", "2024-07-15", "14:00", "15:00", "Phone", "Quarterly check-in with Acme.", "work", "none"),
    "3": ("Morning Walk", "2024-07-16", "07:00", "07:45", "Golden Gate Park", "", "personal", "none"),
    "4": ("Team Brainstorming Session", "2024-07-16", "11:00", "12:00", "Conference Room B",
          "Ideas for the Q3 campaign.", "work", "none"),
    "5": ("Lunch with Boss", "2024-07-16", "12:30", "13:30", "Cafe Milano", "", "work", "none"),
    "6": ("Project Sync", "2024-07-17", "10:00", "11:00", "Zoom", "Weekly project status sync.", "work", "none"),
    "7": ("Customer Feedback Session", "2024-07-17", "14:00", "15:00", "Conference Room A", "", "work", "none"),
    "8": ("Dinner with Friends", "2024-07-17", "19:00", "21:00", "Nopa, San Francisco", "Dinner with college friends.",
          "personal", "none"),
    "9": ("Reading Time", "2024-07-17", "22:00", "23:00", "Home", "Read a chapter before bed.", "personal", "none"),
    "10": ("Morning Coffee with sister", "2024-07-18", "09:00", "10:00", "Blue Bottle Coffee",
           "Catch up with my sister.", "family", "none"),
    "11": ("Team Check-In", "2024-07-18", "11:00", "11:30", "Conference Room A", "", "work", "none"),
    "12": ("Team Collaboration Work", "2024-07-18", "13:00", "15:00", "Office", "Focus time with the design team.",
           "work", "none"),
    "13": ("Breakfast Meeting with Client", "2024-07-19", "10:00", "11:00", "The Grill", "", "work", "none"),
    "14": ("Lunch with Marketing Team", "2024-07-19", "12:00", "13:00", "Cafeteria", "", "work", "none"),
    "15": ("Team Workshop", "2024-07-19", "15:00", "17:00", "Conference Room B", "", "work", "none"),
    "16": ("Team Progress Check", "2024-07-22", "10:00", "10:30", "Zoom", "", "work", "none"),
    "17": ("Project Sync", "2024-07-22", "13:00", "13:30", "Zoom", "Follow-up sync.", "work", "none"),
    "18": ("Client Presentation", "2024-07-23", "13:00", "14:00", "Acme HQ", "Present the Q3 roadmap.", "work",
           "none"),
    "19": ("Yoga Class", "2024-07-13", "09:00", "10:00", "Yoga Tree", "", "personal", "none"),
    "20": ("Family BBQ", "2024-07-20", "16:00", "19:00", "Dolores Park", "Bring drinks.", "family", "none"),
    "21": ("Dentist Appointment", "2024-07-25", "15:00", "16:00", "Smile Dental", "", "personal", "none"),
    "22": ("Mom's Birthday", "2024-07-27", "", "2024-07-27", "", "Call Mom!", "family", "none"),
}


def _hm(s: str) -> time:
    h, m = s.split(":")
    return time(int(h), int(m))


def event_record(eid: str, raw: tuple) -> dict[str, Any]:
    title, day, start, end, location, description, cal, repeat = raw
    d = date.fromisoformat(day)
    all_day = not start
    if all_day:
        s, e = to_utc_iso(d), to_utc_iso(date.fromisoformat(end))
    else:
        s, e = to_utc_iso(d, _hm(start)), to_utc_iso(d, _hm(end))
    return {"id": eid, "title": title, "description": description, "start": s, "end": e, "allDay": all_day,
            "location": location, "meetingId": meeting_id(f"event-{eid}"), "calendar": cal, "repeat": repeat,
            "guests": []}


_TASKS = [
    {"id": "t1", "title": "Submit expense report", "description": "", "start": to_utc_iso(date(2024, 7, 19), _hm("12:00")),
     "allDay": False, "completed": False},
    {"id": "t2", "title": "Renew gym membership", "description": "", "start": to_utc_iso(date(2024, 7, 16), _hm("18:00")),
     "allDay": False, "completed": True},
]

def real_events() -> dict[str, dict[str, Any]]:
    """REAL's own events (ids 1-22), without the ones generated around them."""
    return {eid: event_record(eid, raw) for eid, raw in _RAW.items()}


def _all_events() -> dict[str, dict[str, Any]]:
    from real_local.gocalendar.gendata import generated_events

    out = real_events()
    out.update(generated_events(out, len(_RAW) + 1, event_record))
    return out


def _all_tasks() -> list[dict[str, Any]]:
    from real_local.gocalendar.gendata import generated_tasks

    return _TASKS + generated_tasks(first_id=len(_TASKS) + 1)


@functools.cache
def _seed_state() -> dict[str, Any]:
    """Built on first use (the generator expands events through the planner, which imports this module)."""
    return {
        "calendar": {
            "events": _all_events(),
            "deletedEvents": [],
            "myTasks": _all_tasks(),
            "calendars": CALENDARS,
        },
        "ui": {"snackbar": {"message": "", "open": False}},
        "router": {"location": {"pathname": "/"}},  # the view last shown (REAL's apps keep react-router's in the store)
    }


def seed(task_id: str | None = None) -> dict[str, Any]:
    """The initial state for any GoCalendar task (one calendar for all of them); a fresh copy each call."""
    return fresh_copy(_seed_state())
