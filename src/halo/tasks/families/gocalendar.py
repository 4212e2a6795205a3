"""GoCalendar task families, from one click (open a day of the week shown, jump to a week) to REAL-like scheduling.

Every episode starts on the week of Sunday 2024-07-14 (today is Thursday the 18th) with GoCalendar's seed events
(``real_local.gocalendar.seed``); goals name days and events the way REAL's do (by weekday, date, title, place).
Graders read the ``/finish`` JSON only, as agisdk's ``eval_gocalendar_*.py`` do: ``differences.events``
(``added``/``updated``/``deleted`` keyed by id, times in UTC) and ``initialfinaldiff`` for tasks and the view shown
(``router.location.pathname``). Times are compared in the user's zone (US Pacific), as the page shows them.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, datetime, time, timedelta
from typing import Any

from halo.tasks.families.base import Check, Family, Finish, norm, register
from real_local.gocalendar import planner as pl
from real_local.gocalendar.seed import seed
from real_local.gocalendar.timeutil import TODAY, fmt_time, from_utc_iso, week_start

_SEED = seed()
EVENTS: dict[str, dict[str, Any]] = pl.events(_SEED)
WEEK = [week_start(TODAY) + timedelta(days=i) for i in range(7)]  # the week every episode starts on
CALENDAR_SPAN = (date(2024, 1, 1), date(2024, 12, 31))  # every event of the seed lies within
_OCC = [o for o in pl.occurrences(_SEED, WEEK[0], WEEK[-1]) if o.event.get("repeat", "none") == "none"]  # single


def long_day(d: date) -> str:
    return d.strftime("%A, %B %-d")


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _local(iso: Any) -> datetime | None:
    try:
        return from_utc_iso(str(iso))
    except ValueError:
        return None


# ---------------------------------------------------------------- reading the /finish JSON
def events_diff(f: Finish) -> dict[str, dict[str, dict[str, Any]]]:
    """``differences.events`` as three dicts keyed by id (REAL's gocalendar shape)."""
    c = f.collection("events")
    return {k: (c[k] if isinstance(c[k], dict) else {str(e.get("id")): e for e in c[k] if isinstance(e, dict)})
            for k in ("added", "updated", "deleted")}


def view_shown(f: Finish) -> tuple[str, date] | None:
    """(view, date) of the page shown at the end: ``/r/day/2024/7/17`` -> ("day", 2024-07-17); "/" is this week."""
    p = f.section("updated", "router", "location", "pathname") or f.section("added", "router", "location", "pathname")
    if not isinstance(p, str) or p == "/":
        return "week", TODAY
    m = re.fullmatch(r"/r/(day|week|month)/(\d{4})/(\d{1,2})/(\d{1,2})/?", p)
    if not m:
        return None
    try:
        return m.group(1), date(int(m.group(2)), int(m.group(3)), int(m.group(4)))
    except ValueError:
        return None


def no_event_changes(f: Finish, *, but: str = "") -> Check:
    """Nothing in ``differences.events`` except the one part (``added``/``updated``/``deleted``) the goal asks for."""
    d = events_diff(f)
    extra = {k: sorted(v) for k, v in d.items() if v and k != but}
    return Check("no other event changes", not extra, f"also {extra}" if extra else "")


def one(d: dict[str, dict[str, Any]], what: str) -> tuple[Check, dict[str, Any]]:
    ev = next(iter(d.values())) if len(d) == 1 else {}
    return Check(f"one event {what}", len(d) == 1, f"{len(d)} {what}: {sorted(d)[:5]}"), ev


# ---------------------------------------------------------------- one click
_RELATIVE = {-4: "the Sunday this week started on", -3: "three days ago", -2: "the day before yesterday",
             -1: "yesterday", 0: "today", 1: "tomorrow", 2: "the day after tomorrow"}


_DAY_BY = {"title": "the day of my {v}", "location": "the day I'm at {v}", "description": 'the day with the note "{v}"',
           "time": "the day I have something at {v}"}


def _fact(o: pl.Occurrence, key: str) -> str | None:
    """What a day can be recognised by: an event's (or task's) title, place, note or start time."""
    if key == "time":
        return None if o.all_day else fmt_time(o.start)
    v = o.event.get(key) or None
    if v and key == "title" and o.kind == "task":
        v += " task"
    return None if v == "Phone" else v  # "the day I'm at Phone" is no place


def _one_day_facts(every: list[pl.Occurrence]) -> dict[str, list[tuple[str, date]]]:
    """Per kind of fact (``_DAY_BY``'s keys), each fact found among ``every`` on one day only and never of a
    repeating series, with that day, in the order first met."""
    out = {}
    for key in _DAY_BY:
        days: dict[str, set[date]] = {}
        series: set[str] = set()
        for o in every:
            v = _fact(o, key)
            if v:
                days.setdefault(v, set()).add(o.day)
                if o.event.get("repeat", "none") != "none":
                    series.add(v)
        out[key] = [(v, min(ds)) for v, ds in days.items() if len(ds) == 1 and v not in series]
    return out


DAY_VIEW_GOALS = ("Open {r} in day view.", "Show me {r} in the day view.", "Switch to the day view of {r}.",
                  "Open the day view for {r}.")


def _day_refs() -> list[dict[str, Any]]:
    """Each day of the week shown, named by date (nine ways), or by a title, place, note or time found on that day
    only, of a single event or task (a repeating event's "the day of my Design Review" could be any Thursday; its
    occurrences still make the others' facts shared: "at Zoom" is every weekday's standup)."""
    out = []
    for d in WEEK:
        n = d.day
        for r in (d.strftime("%A"), f"July {n}", f"Jul {n}", f"the {_ordinal(n)}", f"7/{n}", f"7/{n}/2024",
                  d.isoformat(), long_day(d), _RELATIVE[(d - TODAY).days]):
            out.append({"date": d.isoformat(), "ref": r})
    for key, facts in _one_day_facts(pl.occurrences(_SEED, WEEK[0], WEEK[-1])).items():
        out += [{"date": d.isoformat(), "ref": _DAY_BY[key].format(v=v)} for v, d in facts]
    out.append({"date": WEEK[-1].isoformat(), "ref": "the last day of this week"})
    return out


@register
class OpenDay(Family):
    """Seven day numbers in the week's header, one click each: the small-target task of GoCalendar."""

    name, site, steps = "gocalendar.day", "gocalendar", "1"
    description = "open the day view of a day of the week shown (click its date in the header)"

    def space(self):
        return _day_refs()

    def goal(self, p, rng):
        return rng.choice(DAY_VIEW_GOALS).format(r=p["ref"])

    def check(self, f, p):
        v = view_shown(f)
        want = ("day", date.fromisoformat(p["date"]))
        return [Check("day shown", v == want, f"shown {v}, want {want}"), no_event_changes(f)]


def _unique_titles() -> set[str]:
    """Titles of exactly one event in the whole calendar (a single event, not a series)."""
    n = Counter(e["title"] for e in EVENTS.values())
    return {e["title"] for e in EVENTS.values() if n[e["title"]] == 1 and e.get("repeat", "none") == "none"}


def _week_refs() -> list[dict[str, Any]]:
    """Days of the side calendar (June 30 - August 10) outside the week shown, and events of those weeks whose
    title no other event has."""
    first = week_start(date(2024, 7, 1))
    out = []
    for i in range(42):
        d = first + timedelta(days=i)
        if d in WEEK:
            continue
        for r in (f"{d.strftime('%B')} {d.day}", d.strftime("%-m/%-d/%Y"), f"{d.strftime('%A')}, {d.strftime('%B')} {d.day}"):
            out.append({"date": d.isoformat(), "ref": r})
    unique = _unique_titles()
    for eid in ("16", "18", "19", "21", "22"):
        ev = EVENTS[eid]
        if ev["title"] in unique:
            out.append({"date": from_utc_iso(ev["start"]).date().isoformat(), "ref": f"my {ev['title']}"})
    return out


@register
class OpenWeek(Family):
    name, site, steps = "gocalendar.week", "gocalendar", "1"
    description = "show the week of a given day (one click on the side calendar)"

    def space(self):
        return _week_refs()

    def goal(self, p, rng):
        return rng.choice(["Show me the week of {r}.", "Go to the week with {r}.", "Open the week of {r}.",
                           "Switch the calendar to the week of {r}."]).format(r=p["ref"])

    def check(self, f, p):
        v = view_shown(f)
        want = week_start(date.fromisoformat(p["date"]))
        ok = v is not None and v[0] == "week" and week_start(v[1]) == want
        return [Check("week shown", ok, f"shown {v}, want the week of {want}"), no_event_changes(f)]


# ---------------------------------------------------------------- a few steps
NEAR_WEEKS = [WEEK[0] + timedelta(days=i) for i in range(-7, 14) if not 0 <= i < 7]  # the weeks before and after


def _other_day_refs() -> list[dict[str, Any]]:
    """Each day of the weeks before and after the one shown, named by date (nine ways), relative to today (two
    ways), or by a title, place, note or time found on that day only in the three weeks (single events)."""
    out = []
    for d in NEAR_WEEKS:
        n, wd, ahead = d.day, d.strftime("%A"), d > TODAY
        delta = abs((d - TODAY).days)
        rel = (f"{'in' if ahead else ''} {delta} days{'' if ahead else ' ago'}".strip(),
               f"{wd} {'next' if ahead else 'last'} week")
        for r in (f"{d.strftime('%B')} {n}", f"{d.strftime('%b')} {n}", f"the {_ordinal(n)}", f"{d.month}/{n}",
                  f"{d.month}/{n}/{d.year}", d.isoformat(), long_day(d), f"{'next' if ahead else 'last'} {wd}",
                  d.strftime("%a %b %-d"), *rel):
            out.append({"date": d.isoformat(), "ref": r})
    every = pl.occurrences(_SEED, NEAR_WEEKS[0], NEAR_WEEKS[-1])  # the week shown too: a fact must name one day
    for key, facts in _one_day_facts(every).items():
        out += [{"date": d.isoformat(), "ref": _DAY_BY[key].format(v=v)} for v, d in sorted(facts) if d in NEAR_WEEKS]
    return out


@register
class OpenOtherDay(Family):
    """Two clicks, each a choice among ~100 controls: the week of the day (Previous/Next week, or any of its seven
    dates on the side calendar, which shows that week), then the day's date in the header. The small-target
    two-step task of GoCalendar: a day view reached on the way to another goal is some instance's success."""

    name, site, steps = "gocalendar.otherday", "gocalendar", "2-4"
    description = "open the day view of a day in the week before or after the one shown (its week, then its date)"

    def space(self):
        return _other_day_refs()

    def goal(self, p, rng):
        return rng.choice(DAY_VIEW_GOALS).format(r=p["ref"])

    def check(self, f, p):
        """The goal's week shown (week or day view: the first click's milestone, a progress reward), then its day."""
        v, d = view_shown(f), date.fromisoformat(p["date"])
        return [Check("its week shown", v is not None and week_start(v[1]) == week_start(d),
                      f"shown {v}, want the week of {d}"),
                Check("day shown", v == ("day", d), f"shown {v}, want {('day', d)}"), no_event_changes(f)]


def _event_refs() -> list[dict[str, Any]]:
    """Single (non-repeating) events of July 7 - August 3 named by title and day, or by title, time and day, place
    (and day), or note where that names exactly one occurrence of any event: a title, place or note alone must be
    one occurrence's in the whole calendar (May to October), a time or a place with its day one on that day."""
    occ = [o for o in pl.occurrences(_SEED, date(2024, 7, 7), date(2024, 8, 3)) if o.kind == "event"]
    everywhere = [o for o in pl.occurrences(_SEED, *CALENDAR_SPAN) if o.kind == "event"]

    def names(o: pl.Occurrence) -> dict[str, Any]:
        ev = o.event
        return {"title": ev["title"], "title_day": (ev["title"], o.day),
                "time": None if o.all_day else (o.day, o.start.time()),
                "where": ev["location"] or None, "place": (ev["location"], o.day) if ev["location"] else None,
                "note": ev["description"] or None}

    counts = Counter((k, v) for o in everywhere for k, v in names(o).items() if v is not None)
    out = []
    for o in occ:
        if o.event.get("repeat", "none") == "none":
            out += [{"id": o.event["id"], "by": k} for k, v in names(o).items() if v and counts[k, v] == 1]
    return out


def event_ref(eid: str, by: str) -> str:
    e = EVENTS[eid]
    s = from_utc_iso(e["start"])
    day = long_day(s.date())
    return {"title": f'"{e["title"]}"', "title_day": f'"{e["title"]}" on {day}',
            "time": f"my {fmt_time(s)} event on {day}", "where": f"my event at {e['location']}",
            "place": f"the event at {e['location']} on {day}",
            "note": f'the event with the note "{e["description"]}"'}[by]


@register
class DeleteEvent(Family):
    """REAL's gocalendar-10, 16, 18, 23 with every single event of the calendar."""

    name, site, steps = "gocalendar.delete", "gocalendar", "2-4"
    description = "delete one event, named by title, day, time, place or note"

    def space(self):
        return _event_refs()

    def goal(self, p, rng):
        return rng.choice(["Delete {r} from my calendar.", "Cancel {r}.", "Remove {r}.",
                           "Please delete {r}."]).format(r=event_ref(p["id"], p["by"]))

    def check(self, f, p):
        c, ev = one(events_diff(f)["deleted"], "deleted")
        want = EVENTS[p["id"]]
        return [c, Check("that event", str(ev.get("id")) == p["id"] and norm(ev.get("title")) == norm(want["title"])
                         and ev.get("start") == want["start"], f"deleted {ev.get('title')!r} {ev.get('start')}"),
                no_event_changes(f, but="deleted")]


@register
class MoveEvent(Family):
    name, site, steps = "gocalendar.move", "gocalendar", "2-4"
    description = "move an event of the week shown to another day, keeping its time"

    def space(self):
        targets = WEEK + [date(2024, 7, 22) + timedelta(days=i) for i in range(5)]
        evs = [o for o in _OCC if o.kind == "event" and not o.all_day]
        return [{"id": o.event["id"], "date": d.isoformat()} for o in evs for d in targets if d != o.day]

    def goal(self, p, rng):
        e = EVENTS[p["id"]]
        old, new = long_day(from_utc_iso(e["start"]).date()), long_day(date.fromisoformat(p["date"]))
        return rng.choice(['Move "{t}" from {o} to {n}, same time.', 'Reschedule "{t}" ({o}) to {n} at the same time.',
                           'Push "{t}" on {o} to {n}; keep the time.']).format(t=e["title"], o=old, n=new)

    def check(self, f, p):
        d = events_diff(f)
        c, u = one(d["updated"], "updated")
        e = EVENTS[p["id"]]
        s0, e0 = from_utc_iso(e["start"]), from_utc_iso(e["end"])
        s1, e1 = _local(u.get("start", e["start"])), _local(u.get("end", e["end"]))
        want = date.fromisoformat(p["date"])
        return [c, Check("that event", str(u.get("id")) == p["id"], f"updated {u.get('id')}"),
                Check("new day", s1 is not None and s1.date() == want, f"starts {s1}, want {want}"),
                Check("same time", s1 is not None and e1 is not None and s1.time() == s0.time()
                      and e1 - s1 == e0 - s0, f"{s1} - {e1}"),
                Check("same event", all(norm(u.get(k, e[k])) == norm(e[k]) for k in ("title", "location"))),
                no_event_changes(f, but="updated")]


TITLES = ["Coffee with Laura", "Dentist follow-up", "Call the bank", "Gym session", "Piano lesson", "Team lunch",
          "Doctor appointment", "Book club", "Haircut", "Car service", "Study group", "Grocery run",
          "Budget review", "Design review", "1:1 with Kevin"]
_HOURS = [time(h, 0) for h in range(8, 18)]  # on screen when the week opens (the grid shows 7am to 6pm)


def _busy(d: date, t: time) -> bool:
    at = datetime.combine(d, t).replace(tzinfo=None)
    return any(o.day == d and not o.all_day and o.start.replace(tzinfo=None) <= at < o.end.replace(tzinfo=None)
               for o in pl.occurrences(_SEED, d, d))


def _at(ev: dict[str, Any]) -> str:
    s = _local(ev.get("start"))
    return f"{s:%Y-%m-%d %H:%M}" if s else "?"


@register
class CreateEvent(Family):
    """One click on the empty slot opens the editor at that day and time; a title and Save finish it."""

    name, site, steps = "gocalendar.create", "gocalendar", "2-4"
    description = "add an event with a title on a day of the week shown at a given time"

    def space(self):
        slots = [(d, t) for d in WEEK for t in _HOURS if not _busy(d, t) and not _busy(d, time(t.hour, 30))]
        return [{"title": ti, "date": d.isoformat(), "time": t.strftime("%H:%M")} for ti in TITLES for d, t in slots]

    def goal(self, p, rng):
        d, t = date.fromisoformat(p["date"]), time.fromisoformat(p["time"])
        return rng.choice(['Add an event "{ti}" on {d} at {t}.', 'Put "{ti}" on my calendar for {d} at {t}.',
                           'Create an event called "{ti}" at {t} on {d}.']).format(ti=p["title"], d=long_day(d),
                                                                                   t=fmt_time(t))

    def check(self, f, p):
        c, ev = one(events_diff(f)["added"], "added")
        s, e = _local(ev.get("start")), _local(ev.get("end"))
        want = f"{p['date']} {p['time']}"
        return [c, Check("title", norm(ev.get("title")) == norm(p["title"]), f"title {ev.get('title')!r}"),
                Check("start", _at(ev) == want and not ev.get("allDay"), f"starts {_at(ev)}, want {want}"),
                Check("ends after it starts", s is not None and e is not None and e > s),
                no_event_changes(f, but="added")]


# ---------------------------------------------------------------- REAL-like
PLACES = [("Dentist follow-up", "Smile Dental"), ("Coffee with Laura", "Blue Bottle Coffee"),
          ("Piano lesson", "Music Academy"), ("Team lunch", "Cafe Milano"), ("Book club", "City Library"),
          ("Haircut", "Downtown Barbers"), ("Car service", "Auto Shop"), ("Study group", "Campus Library"),
          ("Gym session", "Fitness First"), ("Doctor appointment", "General Hospital"),
          ("Client workshop", "Acme HQ"), ("Math camp planning", "Sunnyvale")]
_WINDOWS = [(time(9, 30), time(10, 30)), (time(13, 0), time(14, 30)), (time(16, 15), time(17, 0))]
_NEXT_WEEKS = [date(2024, 7, 22) + timedelta(days=i) for i in range(12) if (date(2024, 7, 22) + timedelta(days=i)).weekday() < 5]


@register
class ScheduleEvent(Family):
    """REAL's gocalendar-4, 12, 13 shape: title, day, start and end, place, all typed in the editor."""

    name, site, steps = "gocalendar.schedule", "gocalendar", "5+"
    description = "schedule an event with title, date, start and end time and location in the coming weeks"

    def space(self):
        return [{"title": ti, "location": loc, "date": d.isoformat(), "start": a.strftime("%H:%M"),
                 "end": b.strftime("%H:%M")} for ti, loc in PLACES for d in _NEXT_WEEKS for a, b in _WINDOWS]

    def goal(self, p, rng):
        d = date.fromisoformat(p["date"])
        a, b = fmt_time(time.fromisoformat(p["start"])), fmt_time(time.fromisoformat(p["end"]))
        return rng.choice(['Schedule "{ti}" on {d} from {a} to {b} at {loc}.',
                           'Create an event "{ti}" for {d}, {a} - {b}, location: {loc}.',
                           'Add "{ti}" at {loc} on {d} from {a} until {b}.']).format(
            ti=p["title"], d=f"{long_day(d)}, 2024", a=a, b=b, loc=p["location"])

    def check(self, f, p):
        c, ev = one(events_diff(f)["added"], "added")
        e = _local(ev.get("end"))
        end = f"{p['date']} {p['end']}"
        return [c, Check("title", norm(ev.get("title")) == norm(p["title"]), f"title {ev.get('title')!r}"),
                Check("start", _at(ev) == f"{p['date']} {p['start']}" and not ev.get("allDay"), f"starts {_at(ev)}"),
                Check("end", e is not None and f"{e:%Y-%m-%d %H:%M}" == end, f"ends {e}, want {end}"),
                Check("location", norm(p["location"]) in norm(ev.get("location")), f"at {ev.get('location')!r}"),
                Check("does not repeat", ev.get("repeat", "none") == "none"),
                no_event_changes(f, but="added")]


TASKS = ["Send the report to Ashley", "Pay the electricity bill", "Book flights to Denver", "Renew passport",
         "Call the landlord", "Order a birthday gift for Mom", "Submit the timesheet", "Water the plants",
         "Review the client proposal", "Back up my laptop", "Buy gym clothes", "Reply to Barbara about the budget"]


@register
class AddTask(Family):
    """REAL's gocalendar-8 (a task, not an event): the editor's Task tab, a title, a day and a time."""

    name, site, steps = "gocalendar.task", "gocalendar", "5+"
    description = "add a task (not an event) with a title on a given day and time"

    def space(self):
        days = [d for d in WEEK + _NEXT_WEEKS[:5] if d.weekday() < 5]
        return [{"title": ti, "date": d.isoformat(), "time": t} for ti in TASKS for d in days
                for t in ("09:00", "14:00", "17:30")]

    def goal(self, p, rng):
        d, t = date.fromisoformat(p["date"]), fmt_time(time.fromisoformat(p["time"]))
        return rng.choice(['Add a task "{ti}" for {d} at {t}.', 'Create a task to {low} on {d} at {t}.',
                           'Remind me with a task: "{ti}", {d}, {t}.']).format(
            ti=p["title"], low=p["title"][0].lower() + p["title"][1:], d=long_day(d), t=t)

    def check(self, f, p):
        node = f.section("added", "calendar", "myTasks") or {}
        new = [v for v in (node.values() if isinstance(node, dict) else node) if isinstance(v, dict)]
        t = new[0] if len(new) == 1 else {}
        want = f"{p['date']} {p['time']}"
        return [Check("one task added", len(new) == 1, f"{len(new)} added"),
                Check("title", norm(t.get("title")) == norm(p["title"]), f"title {t.get('title')!r}"),
                Check("when", _at(t) == want and not t.get("allDay"), f"at {_at(t)}, want {want}"),
                no_event_changes(f)]
