"""GoCalendar's calendar at a real one's scale, generated deterministically from ``GEN_SEED`` around REAL's events.

REAL's events (ids 1-22, the weeks of July 14 and 21, 2024) stay as they are; around them come what a working
person's Google Calendar holds from May to October 2024: weekly and monthly meetings and chores (which also cross
REAL's weeks, in hours its tasks leave free), one-off meetings with guests and video calls on workdays,
appointments, family events, birthdays, trips and US holidays. One-off events are kept out of REAL's two weeks, so
every day and time REAL's goals name (Wednesday's 11am for gocalendar-6) and the task families' free hours stay as
they were; no generated title holds a word REAL's graders look for (dinner with friends, reading, coffee with a
sister, project sync, gym clothes, math camp, an email to Ashley) or starts with a title of REAL's events.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from typing import Any

from real_local.gocalendar.reference import COLLEAGUES, CONTACTS
from real_local.gocalendar.timeutil import to_utc_iso

GEN_SEED = 20240718
FIRST, LAST = date(2024, 5, 1), date(2024, 10, 31)  # the months generated
REAL_WEEKS = (date(2024, 7, 14), date(2024, 7, 27))  # REAL's weeks: no generated one-off events there
SERIES_START = date(2024, 1, 1)


# (title, first day, start, end ("" start: all day; end is then the last day), location, description, calendar,
#  repeat, guests (contact indexes), video meeting)
_SERIES: list[tuple] = [
    ("Weekly Planning", "2024-01-08", "08:30", "09:00", "", "Priorities for the week.", "work", "weekly",
     (3, 4, 5), True),
    ("Gym workout", "2024-01-08", "06:30", "07:30", "Fitness First", "", "personal", "weekly", (), False),
    ("1:1 with Priya", "2024-01-09", "16:00", "16:30", "Priya's office", "Career and project check-in.", "work",
     "weekly", (3,), False),
    ("Recycling pickup", "2024-01-09", "", "2024-01-09", "", "Bins out the night before.", "family", "weekly", (),
     False),
    ("Emma's piano lesson", "2024-01-10", "16:30", "17:15", "Music Academy", "", "family", "weekly", (), False),
    ("Gym workout", "2024-01-11", "06:30", "07:30", "Fitness First", "", "personal", "weekly", (), False),
    ("Design Review", "2024-01-11", "16:00", "17:00", "Conference Room C", "Review open design docs.", "work",
     "weekly", (5, 6, 9, 12), True),
    ("Emma's soccer practice", "2024-01-11", "17:30", "18:30", "Crocker Amazon Park", "", "family", "weekly", (),
     False),
    ("Friday Wrap-up", "2024-01-12", "17:00", "17:30", "", "Wins, blockers, next week.", "work", "weekly",
     (3, 4, 5, 6, 7), True),
    ("Pay rent", "2024-01-01", "", "2024-01-01", "", "Transfer to the landlord.", "personal", "monthly", (), False),
    ("Pay credit card bill", "2024-01-28", "", "2024-01-28", "", "", "personal", "monthly", (), False),
]

_HOLIDAYS = [("Memorial Day", "2024-05-27"), ("Juneteenth", "2024-06-19"), ("Father's Day", "2024-06-16"),
             ("Independence Day", "2024-07-04"), ("Labor Day", "2024-09-02"), ("Columbus Day", "2024-10-14"),
             ("Halloween", "2024-10-31"), ("Mother's Day", "2024-05-12")]
_ALL_DAY = [  # (title, first day, last day, location, calendar)
    ("Dad's Birthday", "2024-05-19", "2024-05-19", "", "family"),
    ("Emma's Birthday", "2024-06-08", "2024-06-08", "", "family"),
    ("Laura's Birthday", "2024-08-22", "2024-08-22", "", "personal"),
    ("Anniversary", "2024-09-14", "2024-09-14", "", "family"),
    ("Chris's Birthday", "2024-10-09", "2024-10-09", "", "family"),
    ("Vacation: Lake Tahoe", "2024-08-12", "2024-08-16", "South Lake Tahoe, CA", "personal"),
    ("Trip to Portland", "2024-06-27", "2024-06-28", "Portland, OR", "personal"),
    ("SaaS Summit", "2024-09-10", "2024-09-12", "Moscone Center, San Francisco", "work"),
    ("Team Offsite", "2024-10-02", "2024-10-03", "Napa, CA", "work"),
    ("Out of office", "2024-05-23", "2024-05-24", "", "work"),
    ("Kids' summer camp", "2024-06-17", "2024-06-21", "Camp Tamarancho", "family"),
]

_WORK = [  # (title, location pool key, description)
    ("Roadmap Review", "room", "Walk through the H2 roadmap."), ("Hiring Sync", "video", ""),
    ("Interview: Backend Engineer", "room", "Panel interview, system design."),
    ("Interview: Product Designer", "video", "Portfolio review."), ("Vendor Demo", "video", ""),
    ("Quarterly Business Review", "room", "Slides in the shared drive."), ("Marketing Sync", "video", ""),
    ("Sales Pipeline Review", "room", ""), ("Product Demo", "room", "Demo of the new onboarding flow."),
    ("Security Training", "video", "Annual compliance training."), ("Architecture Review", "room", ""),
    ("Offsite Planning", "room", ""), ("Customer Onboarding Call", "video", "Kickoff with the new account."),
    ("Partner Call: Globex", "video", ""), ("Sprint Retro", "room", "What went well, what to change."),
    ("Performance Review Prep", "", ""), ("Coffee chat with Daniel", "cafe", ""), ("Lunch & Learn", "room", ""),
    ("Webinar: Analytics 101", "video", ""), ("Board Deck Prep", "", "Draft the board update."),
    ("Release Go/No-Go", "video", ""), ("Data Quality Review", "room", ""), ("OKR Check-in", "video", ""),
    ("Pricing Discussion", "room", ""), ("Legal Review: Contract", "video", "Redlines from Initech."),
    ("Support Escalations", "video", ""), ("Mentoring Session", "cafe", ""), ("Budget Planning", "room", ""),
    ("Usability Test Debrief", "room", ""), ("Analytics Deep Dive", "room", ""), ("Focus time", "", ""),
    ("Incident Postmortem", "video", "Root cause and follow-ups."), ("Recruiting Pipeline", "video", ""),
    ("Content Calendar Review", "room", ""), ("Customer Interview", "video", ""),
]
_PERSONAL = [  # (title, location, calendar, hours it happens in)
    ("Haircut", "Downtown Barbers", "personal", "day"), ("Dentist Cleaning", "Smile Dental", "personal", "day"),
    ("Car service", "Auto Shop", "personal", "day"), ("Farmers Market", "Ferry Building", "personal", "weekend"),
    ("Hike at Lands End", "Lands End Trail", "personal", "weekend"), ("Movie night", "Alamo Drafthouse", "personal", "evening"),
    ("Call Grandma", "", "family", "evening"), ("Vet appointment", "Mission Pet Hospital", "family", "day"),
    ("Pottery class", "Clay Studio", "personal", "evening"), ("Tennis with Mike", "Golden Gate Park Tennis Center", "personal", "weekend"),
    ("Brunch with Laura", "Zazie", "personal", "weekend"), ("SF Symphony", "Davies Symphony Hall", "personal", "evening"),
    ("Bike ride", "Marin Headlands", "personal", "weekend"), ("Grocery shopping", "Trader Joe's", "family", "weekend"),
    ("Emma's soccer game", "Kezar Stadium", "family", "weekend"), ("Parent-teacher conference", "Lincoln Elementary", "family", "day"),
    ("Family movie night", "Home", "family", "evening"), ("Visit Grandma", "Sunset District", "family", "weekend"),
    ("Kids' dentist checkup", "Smile Dental", "family", "day"), ("Birthday party: Noah", "Chuck E. Cheese", "family", "weekend"),
    ("Pick up dry cleaning", "Mission Cleaners", "personal", "evening"), ("Oil change", "Auto Shop", "personal", "day"),
    ("Doctor: annual physical", "General Hospital", "personal", "day"), ("Cooking class", "Sur La Table", "personal", "evening"),
    ("Wine tasting", "Sonoma", "personal", "weekend"), ("Museum visit", "SFMOMA", "family", "weekend"),
    ("Swim lesson", "YMCA", "family", "weekend"), ("Volunteer at food bank", "SF-Marin Food Bank", "personal", "weekend"),
]
_ROOMS = ["Conference Room A", "Conference Room B", "Conference Room C", "Huddle Room 2", "Main Auditorium",
          "Innovation Lab"]
_CAFES = ["Blue Bottle Coffee", "Philz Coffee", "Sightglass"]
_FORBIDDEN = ("dinner", "friend", "reading", "sister", "project sync", "clothes", "math", "ashley", "email")


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    d = date(year, month, 1)
    d += timedelta(days=(weekday - d.weekday()) % 7)
    return d + timedelta(days=7 * (n - 1))


def _hm(s: str) -> time:
    h, m = s.split(":")
    return time(int(h), int(m))


def _busy_intervals(events: dict[str, dict[str, Any]], d: date) -> list[tuple[int, int]]:
    """Minutes-of-day intervals taken on ``d`` by the events so far (expanded through the planner's own rules)."""
    from real_local.gocalendar import planner as pl

    state = {"calendar": {"events": events, "myTasks": []}}
    return [(o.start.hour * 60 + o.start.minute, o.start.hour * 60 + o.start.minute
             + int((o.end - o.start).total_seconds() // 60)) for o in pl.occurrences(state, d, d) if not o.all_day]


def _free(busy: list[tuple[int, int]], a: int, b: int) -> bool:
    return all(b <= x or a >= y for x, y in busy)


def _guests(rng: random.Random, k: int) -> list[dict[str, str]]:
    return [{"name": n, "email": e} for n, e in rng.sample(COLLEAGUES, k)]


def generated_events(real: dict[str, dict[str, Any]], first_id: int,
                     record: Callable[[str, tuple], dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every generated event (ids from ``first_id`` on, in order of their first day), as ``record`` builds REAL's."""
    rng = random.Random(GEN_SEED)
    raws: list[tuple[tuple, list, bool]] = []
    for title, day, start, end, loc, desc, cal, rep, guests, meet in _SERIES:
        raws.append(((title, day, start, end, loc, desc, cal, rep), [dict(zip(("name", "email"), CONTACTS[i]))
                                                                    for i in guests], meet))
    for title, day in _HOLIDAYS:
        raws.append(((title, day, "", day, "", "Public holiday", "holidays", "none"), [], False))
    away: set[date] = set()
    for title, a, b, loc, cal in _ALL_DAY:
        raws.append(((title, a, "", b, loc, "", cal, "none"), [], False))
        if cal == "work" or title.startswith(("Vacation", "Trip", "Out of office")):
            d = date.fromisoformat(a)
            while d <= date.fromisoformat(b):
                away.add(d)
                d += timedelta(days=1)
    for m in range(FIRST.month, LAST.month + 1):  # monthly meetings on a weekday: the first Monday, the 2nd Wednesday
        mon = _nth_weekday(FIRST.year, m, 0, 1)
        wed = _nth_weekday(FIRST.year, m, 2, 2)
        raws.append((("Monthly Budget Review", mon.isoformat(), "15:00", "16:00", "Finance Room", "", "work", "none"),
                     [dict(zip(("name", "email"), CONTACTS[i])) for i in (8, 10)], True))
        raws.append((("Company All-Hands", wed.isoformat(), "11:00", "12:00", "Main Auditorium",
                      "Company updates and Q&A.", "work", "none"), [], True))
    # the series first, so one-off events are placed around them (and REAL's events)
    events = dict(real)
    for i, (raw, _, _) in enumerate(raws):
        events[f"s{i}"] = record(f"s{i}", raw)
    d = FIRST
    while d <= LAST:
        if not (REAL_WEEKS[0] <= d <= REAL_WEEKS[1]):
            busy = _busy_intervals(events, d)
            placed = _day(rng, d, busy, d in away)
            for raw, guests, meet in placed:
                events[f"g{len(raws)}"] = record("x", raw)
                raws.append((raw, guests, meet))
        d += timedelta(days=1)
    order = sorted(range(len(raws)), key=lambda i: (raws[i][0][1], raws[i][0][2] or "", raws[i][0][0]))
    out: dict[str, dict[str, Any]] = {}
    for n, i in enumerate(order):
        raw, guests, meet = raws[i]
        low = raw[0].lower()
        assert not any(w in low for w in _FORBIDDEN), raw[0]
        assert not any(low.startswith(r["title"].lower()) or r["title"].lower().startswith(low)
                       for r in real.values()), raw[0]
        eid = str(first_id + n)
        out[eid] = {**record(eid, raw), "guests": guests, "hasMeeting": meet}
    return out


def _day(rng: random.Random, d: date, busy: list[tuple[int, int]], away: bool) -> list[tuple[tuple, list, bool]]:
    """One day's one-off events, each in a free slot (no overlap with what the day already holds)."""
    out: list[tuple[tuple, list, bool]] = []
    titles: set[str] = set()

    def place(lo: int, hi: int, lengths: list[int]) -> tuple[int, int] | None:
        for _ in range(12):
            length = rng.choice(lengths)
            a = rng.randrange(lo, hi - length + 1, 30)
            if _free(busy, a - 0, a + length):
                busy.append((a, a + length))
                return a, a + length
        return None

    def hm(m: int) -> str:
        return f"{m // 60:02d}:{m % 60:02d}"

    weekday = d.weekday() < 5
    if weekday and not away:
        for _ in range(rng.choice([1, 2, 2, 3, 3, 3, 4])):
            title, where, desc = rng.choice(_WORK)
            slot = place(8 * 60, 18 * 60, [30, 30, 45, 60, 60, 60, 90])
            if title in titles or slot is None:
                continue
            titles.add(title)
            loc = {"room": rng.choice(_ROOMS), "cafe": rng.choice(_CAFES), "video": "", "": ""}[where]
            meet = where == "video" or (where == "room" and rng.random() < 0.4)
            guests = _guests(rng, rng.choice([0, 1, 2, 3, 4, 5])) if title != "Focus time" else []
            out.append(((title, d.isoformat(), hm(slot[0]), hm(slot[1]), loc, desc, "work", "none"), guests, meet))
    kinds = ["weekend"] if not weekday else ["evening", "day"] if away else ["evening", "evening", "day"]
    n = rng.choice([0, 1, 1, 2]) if not weekday or away else (1 if rng.random() < 0.35 else 0)
    for _ in range(n):
        kind = rng.choice(kinds)
        pool = [p for p in _PERSONAL if p[3] == kind]
        title, loc, cal, _ = rng.choice(pool)
        lo, hi = {"weekend": (9 * 60, 20 * 60), "evening": (18 * 60, 21 * 60), "day": (12 * 60, 13 * 60 + 30)}[kind]
        if kind == "day" and not weekday:
            lo, hi = 9 * 60, 17 * 60
        slot = place(lo, hi, [60, 60, 90, 120] if kind == "weekend" else [30, 60])
        if title in titles or slot is None:
            continue
        titles.add(title)
        out.append(((title, d.isoformat(), hm(slot[0]), hm(slot[1]), loc, "", cal, "none"), [], False))
    return out


_TASKS = [("Pay the water bill", "2024-05-06"), ("Book summer camp", "2024-05-15"), ("File mileage log", "2024-05-31"),
          ("Renew car registration", "2024-06-10"), ("Send quarterly update", "2024-06-28"),
          ("Order printer ink", "2024-07-08"), ("Submit conference talk", "2024-08-05"),
          ("Schedule flu shots", "2024-09-03"), ("Update resume", "2024-09-23"), ("Plan Halloween costumes", "2024-10-07")]


def generated_tasks(first_id: int) -> list[dict[str, Any]]:
    return [{"id": f"t{first_id + i}", "title": title, "description": "",
             "start": to_utc_iso(date.fromisoformat(day), time(10, 0)), "allDay": False,
             "completed": date.fromisoformat(day) < date(2024, 7, 1)} for i, (title, day) in enumerate(_TASKS)]


def span(events: dict[str, dict[str, Any]]) -> tuple[datetime, datetime]:
    """First start and last end of ``events`` (for the tests that pin the scale)."""
    from real_local.gocalendar.timeutil import from_utc_iso

    return (min(from_utc_iso(e["start"]) for e in events.values()),
            max(from_utc_iso(e["end"]) for e in events.values()))
