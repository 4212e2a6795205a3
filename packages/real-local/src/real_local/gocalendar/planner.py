"""GoCalendar's behaviour on its state tree: create, edit and delete events, tasks, repeating occurrences, and REAL's
``differences`` (``events`` keyed by id, as eval_gocalendar_* read them)."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from real_local.core import collection_differences
from real_local.gocalendar.reference import COLORS, CONTACTS, meeting_id
from real_local.gocalendar.timeutil import TZ, from_utc_iso, parse_date, parse_time, to_utc_iso

REPEATS = {  # value -> label (Google Calendar's wording for a Wednesday start)
    "none": "Does not repeat",
    "daily": "Daily",
    "weekly": "Weekly",
    "weekdays": "Every weekday (Monday to Friday)",
    "monthly": "Monthly",
}
MAX_TITLE = 300


class CalendarError(ValueError):
    """A request the calendar cannot honour; the message is shown to the user as is."""


def events(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return state["calendar"]["events"]


def _next_id(state: dict[str, Any]) -> str:
    cal = state["calendar"]
    ids = [*cal["events"], *(str(e.get("id")) for e in cal["deletedEvents"])]
    nums = [int(i) for i in ids if str(i).isdigit()]
    return str(max(nums, default=0) + 1)


def set_snackbar(state: dict[str, Any], message: str) -> None:
    state["ui"]["snackbar"] = {"message": message, "open": True}


def _text(data: dict[str, Any], key: str, limit: int = 2000) -> str:
    v = data.get(key, "")
    if v is None:
        return ""
    if not isinstance(v, str):
        raise CalendarError(f"{key} must be text")
    v = v.strip()
    if len(v) > limit:
        raise CalendarError(f"{key} is longer than {limit} characters")
    return v


def _times(data: dict[str, Any]) -> tuple[str, str, bool]:
    """(start, end, allDay) in REAL's UTC format from the form's loose date/time text."""
    try:
        d = parse_date(_text(data, "date") or "")
    except ValueError as e:
        raise CalendarError(str(e)) from None
    all_day = bool(data.get("allDay"))
    if all_day:
        end_text = _text(data, "endDate")
        try:
            end_d = parse_date(end_text) if end_text else d
        except ValueError as e:
            raise CalendarError(str(e)) from None
        if end_d < d:
            raise CalendarError("The end date is before the start date.")
        return to_utc_iso(d), to_utc_iso(end_d), True
    try:
        t1 = parse_time(_text(data, "startTime") or "9:00am")
        t2 = parse_time(_text(data, "endTime")) if _text(data, "endTime") else None
    except ValueError as e:
        raise CalendarError(str(e)) from None
    start = datetime.combine(d, t1, tzinfo=TZ)
    end = datetime.combine(d, t2, tzinfo=TZ) if t2 is not None else start + timedelta(hours=1)
    if t2 == time(0, 0) and t1 != time(0, 0):  # "11pm - 12am": until midnight, the end of that day
        end += timedelta(days=1)
    if end <= start:  # Google refuses an end before the start (its editor moves the end with the start)
        raise CalendarError(f"The end time ({_text(data, 'endTime')}) is before the start time "
                            f"({_text(data, 'startTime') or '9:00am'}).")
    return to_utc_iso(d, t1), to_utc_iso(end.date(), end.timetz().replace(tzinfo=None)), False


def calendars(state: dict[str, Any]) -> list[dict[str, Any]]:
    return state["calendar"]["calendars"]


def my_calendars(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The calendars events can be put on ("My calendars"; not a subscribed one such as the holidays)."""
    return [c for c in calendars(state) if c.get("group") != "other"]


def _calendar_of(state: dict[str, Any], cid: str) -> dict[str, Any]:
    for c in calendars(state):
        if c["id"] == cid:
            return c
    raise CalendarError(f"no calendar {cid!r}")


def _fields(state: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    start, end, all_day = _times(data)
    repeat = data.get("repeat") or "none"
    if repeat not in REPEATS:
        raise CalendarError(f"repeat must be one of {', '.join(REPEATS)}")
    mine = [c["id"] for c in my_calendars(state)]
    cal = data.get("calendar") or ("work" if "work" in mine else mine[0] if mine else "")
    if cal not in mine:
        raise CalendarError(f"no calendar {cal!r}")
    return {"title": _text(data, "title", MAX_TITLE) or "(No title)", "description": _text(data, "description"),
            "start": start, "end": end, "allDay": all_day, "location": _text(data, "location", 500),
            "calendar": cal, "repeat": repeat}


_EMAIL = re.compile(r"[^@\s,;<>]+@[^@\s,;<>]+\.[a-z]{2,}", re.IGNORECASE)
_BY_NAME = {n.lower(): (n, e) for n, e in CONTACTS}
_BY_EMAIL = {e.lower(): (n, e) for n, e in CONTACTS}


def guest(text: Any) -> dict[str, str]:
    """A guest as Google stores one (an email; the name when the address book knows it), from an email address or
    an address-book name ("Alexa Richardson", "alexa.richardson@acme.com", "Alexa Richardson <alexa...>")."""
    if isinstance(text, dict):
        text = text.get("email") or text.get("name") or ""
    if not isinstance(text, str):
        raise CalendarError("a guest must be an email address or a name")
    t = text.strip()
    m = _EMAIL.search(t)
    if m:
        email = m.group(0)
        name, _ = _BY_EMAIL.get(email.lower(), ("", ""))
        return {"name": name or t[:m.start()].strip(' "<') or "", "email": email.lower()}
    if t.lower() in _BY_NAME:
        name, email = _BY_NAME[t.lower()]
        return {"name": name, "email": email}
    raise CalendarError(f"{t!r} is not an email address or a contact; type an email like name@example.com")


def _guests(data: dict[str, Any]) -> list[dict[str, str]]:
    raw = data.get("guests") or []
    if not isinstance(raw, list) or len(raw) > 100:
        raise CalendarError("guests must be a list of at most 100 email addresses")
    out: list[dict[str, str]] = []
    for g in raw:
        rec = guest(g)
        if rec["email"] not in {x["email"] for x in out}:
            out.append(rec)
    return out


def color_value(text: Any) -> str:
    """A colour of Google's palette by name ("Sage") or as its hex ("#33b679")."""
    if isinstance(text, str):
        for name, hexa in COLORS.items():
            if text.strip().lower() in (name.lower(), hexa):
                return hexa
    raise CalendarError(f"color must be one of {', '.join(COLORS)}")


def _extras(state: dict[str, Any], data: dict[str, Any], ev: dict[str, Any] | None) -> dict[str, Any]:
    """Guests, the video meeting and the event's own colour, where the request names them and they differ from
    the event's (an edit that leaves them alone leaves no difference in /finish)."""
    out: dict[str, Any] = {}
    if "guests" in data:
        g = _guests(data)
        if ev is None or g != ev.get("guests", []):
            out["guests"] = g
    if "hasMeeting" in data:
        on = bool(data.get("hasMeeting"))
        if ev is None or on != bool(ev.get("hasMeeting", False)):
            out["hasMeeting"] = on
    if "color" in data:
        c = color_value(data["color"]) if data.get("color") else None
        if c is not None and (ev is None or c != ev.get("color")):
            out["color"] = c
        elif c is None and ev is not None and "color" in ev:
            out["color"] = None  # back to the calendar's colour
    return out


def create_event(state: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    eid = _next_id(state)
    ev = {"id": eid, **_fields(state, data), "meetingId": meeting_id(f"event-{eid}"), "guests": [],
          "hasMeeting": False}
    ev = {k: ev[k] for k in ("id", "title", "description", "start", "end", "allDay", "location", "meetingId",
                             "calendar", "repeat", "guests", "hasMeeting")}
    ev.update({k: v for k, v in _extras(state, data, None).items() if v is not None})
    events(state)[eid] = ev
    set_snackbar(state, "Event saved")
    return ev


def update_event(state: dict[str, Any], eid: str, data: dict[str, Any]) -> dict[str, Any]:
    ev = events(state).get(eid)
    if ev is None:
        raise CalendarError(f"no event with id {eid!r}; it may have been deleted")
    fields = _fields(state, data)
    extras = _extras(state, data, ev)
    ev.update(fields)
    for k, v in extras.items():
        if v is None:
            ev.pop(k, None)
        else:
            ev[k] = v
    set_snackbar(state, "Event saved")
    return ev


def move_event(state: dict[str, Any], eid: str, data: dict[str, Any]) -> dict[str, Any]:
    """Drag and drop: the event (a repeating one: its whole series) moves to ``date`` (and ``startTime``, for a
    timed event), keeping its length. ``occurrence`` is the local date of the occurrence dragged (a series)."""
    ev = events(state).get(eid)
    if ev is None:
        raise CalendarError(f"no event with id {eid!r}; it may have been deleted")
    try:
        d = parse_date(_text(data, "date") or "")
        occ = date.fromisoformat(str(data.get("occurrence") or "")) if data.get("occurrence") else None
    except ValueError as e:
        raise CalendarError(str(e)) from None
    s, e = from_utc_iso(ev["start"]), from_utc_iso(ev["end"])
    occ = occ or s.date()
    if ev.get("allDay"):
        delta = timedelta(days=(d - occ).days)
        new_s, new_e = s.date() + delta, e.date() + delta
        start, end = to_utc_iso(new_s), to_utc_iso(new_e)
    else:
        try:
            t = parse_time(_text(data, "startTime")) if _text(data, "startTime") else s.time()
        except ValueError as err:
            raise CalendarError(str(err)) from None
        delta = datetime.combine(d, t) - datetime.combine(occ, s.time())
        st = s.replace(tzinfo=None) + delta
        start, end = _iso(st), _iso(st + (e - s))
    if (start, end) == (ev["start"], ev["end"]):
        return ev
    ev["start"], ev["end"] = start, end
    days = (from_utc_iso(start).date() - s.date()).days
    if ev.get("repeat", "none") != "none" and days:
        shift = timedelta(days=days)
        if ev.get("exceptions"):
            ev["exceptions"] = [(date.fromisoformat(x) + shift).isoformat() for x in ev["exceptions"]]
        if ev.get("repeatUntil"):
            ev["repeatUntil"] = (date.fromisoformat(ev["repeatUntil"]) + shift).isoformat()
    set_snackbar(state, "Event rescheduled")
    return ev


def set_calendar_color(state: dict[str, Any], cid: str, data: dict[str, Any]) -> dict[str, Any]:
    cal = _calendar_of(state, cid)
    cal["color"] = color_value(data.get("color"))
    set_snackbar(state, f"{cal['name']} color changed")
    return cal


def delete_calendar(state: dict[str, Any], cid: str) -> dict[str, Any]:
    """Google's "Delete calendar": the calendar and every event on it go (``differences.events.deleted``); the last
    of "My calendars" stays (events need one)."""
    cal = _calendar_of(state, cid)
    if cal.get("group") != "other" and len(my_calendars(state)) == 1:
        raise CalendarError(f"{cal['name']} is your last calendar; it cannot be deleted")
    state["calendar"]["calendars"] = [c for c in calendars(state) if c["id"] != cid]
    gone = [eid for eid, ev in events(state).items() if ev.get("calendar") == cid]
    for eid in gone:
        events(state).pop(eid)
    set_snackbar(state, f"{cal['name']} was deleted")
    return {**cal, "eventsDeleted": len(gone)}


DELETE_SCOPES = {"this": "This event", "following": "This and following events", "all": "All events"}


def delete_event(state: dict[str, Any], eid: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
    """Delete an event. For a repeating event, ``data`` may say which occurrences go (Google's "Delete recurring
    event" dialog): ``{"scope": "this" | "following" | "all", "occurrence": "2024-07-17"}`` (the occurrence's
    local start date). "this" adds the date to the series' ``exceptions``; "following" ends the series the day
    before (``repeatUntil``); either way the series stays an event (``differences.events.updated``) and
    ``deletedEvents`` gets the removed occurrence (id ``<eid>_<yyyymmdd>``, ``recurringEventId``), which Undo puts
    back. "all" (the default, and the only one for a single event) deletes the event itself."""
    data = data or {}
    ev = events(state).get(eid)
    if ev is None:
        raise CalendarError(f"no event with id {eid!r}; it may have been deleted already")
    scope = data.get("scope") or "all"
    if scope not in DELETE_SCOPES:
        raise CalendarError(f"scope must be one of {', '.join(DELETE_SCOPES)}")
    first = from_utc_iso(ev["start"]).date()
    if scope != "all" and ev.get("repeat", "none") != "none":
        try:
            occ = date.fromisoformat(str(data.get("occurrence") or ""))
        except ValueError:
            raise CalendarError("occurrence must be the occurrence's date, like 2024-07-17") from None
        if not _repeats_on(ev, first, occ):
            raise CalendarError(f"{ev['title']!r} has no occurrence on {occ.isoformat()}")
        if not (scope == "following" and occ == first):  # all of them from the first one: the whole series
            s, e = from_utc_iso(ev["start"]), from_utc_iso(ev["end"])
            st = datetime.combine(occ, s.timetz())
            removed = {**copy.deepcopy(ev), "id": f"{eid}_{occ:%Y%m%d}", "start": _iso(st),
                       "end": _iso(st + (e - s)), "recurringEventId": eid, "scope": scope}
            if scope == "this":
                ev["exceptions"] = sorted({*ev.get("exceptions", []), occ.isoformat()})
            else:
                ev["repeatUntil"] = (occ - timedelta(days=1)).isoformat()
            state["calendar"]["deletedEvents"].append(removed)
            set_snackbar(state, "Event deleted")
            return removed
    events(state).pop(eid)
    state["calendar"]["deletedEvents"].append(copy.deepcopy(ev))
    set_snackbar(state, "Event deleted")
    return ev


def _iso(local: datetime) -> str:
    return to_utc_iso(local.date(), local.time().replace(tzinfo=None))


def undo_delete(state: dict[str, Any]) -> dict[str, Any]:
    """The snackbar's Undo: the last deleted event comes back (and leaves ``deletedEvents``); a deleted occurrence
    of a repeating event goes back into its series."""
    deleted = state["calendar"]["deletedEvents"]
    last = deleted[-1] if deleted else None
    if last is None:
        raise CalendarError("Nothing to undo.")
    rid = last.get("recurringEventId")
    if rid is not None:
        series = events(state).get(rid)
        if series is None:
            raise CalendarError("Nothing to undo.")
        deleted.pop()
        if last.get("scope") == "following":
            key, value = "repeatUntil", last.get("repeatUntil")  # the series' end before the delete
        else:
            day = from_utc_iso(last["start"]).date().isoformat()
            key, value = "exceptions", [x for x in series.get("exceptions", []) if x != day]
        if value:
            series[key] = value
        else:
            series.pop(key, None)  # as before: no key, so no difference left in /finish
        set_snackbar(state, "Event restored")
        return series
    if last.get("id") in events(state):
        raise CalendarError("Nothing to undo.")
    ev = deleted.pop()
    events(state)[ev["id"]] = ev
    set_snackbar(state, "Event restored")
    return ev


def create_task(state: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    try:
        d = parse_date(_text(data, "date") or "")
        t = parse_time(_text(data, "startTime")) if _text(data, "startTime") and not data.get("allDay") else None
    except ValueError as e:
        raise CalendarError(str(e)) from None
    tasks = state["calendar"]["myTasks"]
    nums = [int(str(x["id"]).lstrip("t")) for x in tasks if str(x["id"]).lstrip("t").isdigit()]
    task = {"id": f"t{max(nums, default=0) + 1}", "title": _text(data, "title", MAX_TITLE) or "(No title)",
            "description": _text(data, "description"), "start": to_utc_iso(d, t or time(0, 0)),
            "allDay": t is None, "completed": False}
    tasks.append(task)
    set_snackbar(state, "Task created")
    return task


def set_task_done(state: dict[str, Any], tid: str, done: bool) -> dict[str, Any]:
    for task in state["calendar"]["myTasks"]:
        if task["id"] == tid:
            task["completed"] = bool(done)
            set_snackbar(state, "Task marked complete" if done else "Task marked incomplete")
            return task
    raise CalendarError(f"no task with id {tid!r}")


def delete_task(state: dict[str, Any], tid: str) -> dict[str, Any]:
    tasks = state["calendar"]["myTasks"]
    for i, task in enumerate(tasks):
        if task["id"] == tid:
            del tasks[i]
            set_snackbar(state, "Task deleted")
            return task
    raise CalendarError(f"no task with id {tid!r}")


# ---------------------------------------------------------------- what a view shows
@dataclass
class Occurrence:
    event: dict[str, Any]
    start: datetime  # local
    end: datetime  # local
    all_day: bool
    kind: str = "event"  # "event" | "task"
    col: int = 0
    cols: int = 1
    origin: date | None = None  # the local date this occurrence of a repeating event starts on (a multi-day one)

    @property
    def occurrence(self) -> date:
        return self.origin or self.start.date()

    @property
    def day(self) -> date:
        return self.start.date()


def _repeats_on(ev: dict[str, Any], first: date, d: date) -> bool:
    if d < first or d.isoformat() in ev.get("exceptions", ()) or d.isoformat() > ev.get("repeatUntil", "9999"):
        return False
    rep = ev.get("repeat", "none")
    if rep == "daily":
        return True
    if rep == "weekdays":
        return d.weekday() < 5
    if rep == "weekly":
        return d.weekday() == first.weekday()
    if rep == "monthly":
        return d.day == first.day
    return d == first


def occurrences(state: dict[str, Any], lo: date, hi: date) -> list[Occurrence]:
    """Every event occurrence and task on local days ``lo..hi`` (inclusive), repeating events expanded. Only the
    days an event can touch are visited (a single event: its own days; a series: from its first day to ``hi``)."""
    out: list[Occurrence] = []
    for ev in events(state).values():
        s, e = from_utc_iso(ev["start"]), from_utc_iso(ev["end"])
        first = s.date()
        repeating = ev.get("repeat", "none") != "none"
        if first > hi or (repeating and ev.get("repeatUntil", "9999") < lo.isoformat()):
            continue
        if ev.get("allDay"):
            span = (e.date() - first).days
            if not repeating and e.date() < lo:
                continue
            d = max(lo, first)
            last = hi if repeating else min(hi, e.date())
            while d <= last:
                for k in range(span + 1):
                    if _repeats_on(ev, first, d - timedelta(days=k)):
                        out.append(Occurrence(ev, datetime.combine(d, time(0), tzinfo=TZ),
                                              datetime.combine(d, time(0), tzinfo=TZ), True,
                                              origin=d - timedelta(days=k)))
                        break
                d += timedelta(days=1)
            continue
        if not repeating and first < lo:
            continue
        dur = e - s
        d = max(lo, first)
        last = hi if repeating else first
        while d <= last:
            if _repeats_on(ev, first, d):
                st = datetime.combine(d, s.timetz())
                out.append(Occurrence(ev, st, st + dur, False))
            d += timedelta(days=1)
    for task in state["calendar"]["myTasks"]:
        st = from_utc_iso(task["start"])
        if lo <= st.date() <= hi:
            out.append(Occurrence(task, st, st + timedelta(minutes=30), bool(task.get("allDay")), kind="task"))
    out.sort(key=lambda o: (o.start, -(o.end - o.start).total_seconds()))
    _layout(out)
    return out


def _layout(occs: list[Occurrence]) -> None:
    """Side-by-side columns for overlapping timed occurrences of the same day (Google's simple layout)."""
    by_day: dict[date, list[Occurrence]] = {}
    for o in occs:
        if not o.all_day:
            by_day.setdefault(o.day, []).append(o)
    for day_occs in by_day.values():
        cluster: list[Occurrence] = []
        cluster_end: datetime | None = None
        col_ends: list[datetime] = []
        for o in day_occs:
            if cluster_end is not None and o.start >= cluster_end:
                _close(cluster, len(col_ends))
                cluster, col_ends, cluster_end = [], [], None
            for i, end in enumerate(col_ends):
                if end <= o.start:
                    o.col, col_ends[i] = i, o.end
                    break
            else:
                o.col = len(col_ends)
                col_ends.append(o.end)
            cluster.append(o)
            cluster_end = o.end if cluster_end is None else max(cluster_end, o.end)
        _close(cluster, len(col_ends))


def _close(cluster: list[Occurrence], cols: int) -> None:
    for c in cluster:
        c.cols = max(1, cols)


# ---------------------------------------------------------------- REAL's differences
def differences(initial: dict[str, Any], final: dict[str, Any]) -> dict[str, Any]:
    return {"events": collection_differences(events(initial), events(final), keyed=True)}
