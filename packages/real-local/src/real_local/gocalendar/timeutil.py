"""Times the way GoCalendar shows and stores them: the user lives in US Pacific time, events are stored in UTC as
``2024-07-17T17:00:00.000Z`` (REAL's format, which eval_gocalendar_* parse), and people type dates and times loosely."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

TZ = ZoneInfo("America/Los_Angeles")
TODAY = date(2024, 7, 18)  # REAL's GoCalendar shows the week of Wednesday 2024-07-17; "today" is that Thursday
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]


def to_utc_iso(d: date, t: time = time(0, 0)) -> str:
    local = datetime.combine(d, t, tzinfo=TZ)
    return local.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def from_utc_iso(s: str) -> datetime:
    """Local (Pacific) datetime of a stored UTC timestamp."""
    return datetime.fromisoformat(s).astimezone(TZ)  # Python 3.11 reads the trailing Z


def fmt_time(t: time | datetime) -> str:
    """Google Calendar's compact time: ``7:45pm``, ``11am``."""
    h, m = t.hour, t.minute
    suffix = "am" if h < 12 else "pm"
    h12 = (h - 1) % 12 + 1
    return f"{h12}{suffix}" if m == 0 else f"{h12}:{m:02d}{suffix}"


def fmt_time_long(t: time | datetime) -> str:
    h, m = t.hour, t.minute
    return f"{(h - 1) % 12 + 1}:{m:02d}{'am' if h < 12 else 'pm'}"


def fmt_date(d: date) -> str:
    return d.strftime("%A, %B %-d")


def parse_time(text: str) -> time:
    """``7:45pm``, ``7:45 PM``, ``19:45``, ``7pm``, ``noon``, ``midnight``."""
    s = text.strip().lower().replace(".", "").replace(" ", "")
    if s in ("noon", "12noon"):
        return time(12, 0)
    if s == "midnight":
        return time(0, 0)
    m = re.fullmatch(r"(\d{1,2})(?::?(\d{2}))?(am|pm|a|p)?", s)
    if not m:
        raise ValueError(f"cannot read the time {text!r}; type it like 7:45pm or 19:45")
    h, mi, ap = int(m.group(1)), int(m.group(2) or 0), m.group(3)
    if ap:
        if not 1 <= h <= 12:
            raise ValueError(f"cannot read the time {text!r}; the hour must be 1-12 with am/pm")
        h = h % 12 + (12 if ap.startswith("p") else 0)
    if not (0 <= h <= 23 and 0 <= mi <= 59):
        raise ValueError(f"cannot read the time {text!r}; type it like 7:45pm or 19:45")
    return time(h, mi)


def parse_date(text: str, default_year: int = TODAY.year) -> date:
    """``2024-09-20``, ``9/20/2024``, ``9/20``, ``September 20, 2024``, ``Friday, September 20``, ``Sep 20``."""
    s = text.strip().lower()
    s = re.sub(r"^(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)"
               r"[,.]?\s+", "", s)
    try:
        if re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", s):
            y, mo, d = (int(x) for x in s.split("-"))
            return date(y, mo, d)
        m = re.fullmatch(r"(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?", s)
        if m:
            y = int(m.group(3)) if m.group(3) else default_year
            return date(y + 2000 if y < 100 else y, int(m.group(1)), int(m.group(2)))
        m = re.fullmatch(r"([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?", s)
        if m:
            name = m.group(1)
            months = [i for i, full in enumerate(MONTHS) if full.startswith(name) and len(name) >= 3]
            if months:
                return date(int(m.group(3) or default_year), months[0] + 1, int(m.group(2)))
    except ValueError:
        pass
    raise ValueError(f"cannot read the date {text!r}; type it like September 20, 2024 or 9/20/2024")


def week_start(d: date) -> date:
    """The Sunday that starts ``d``'s week (Google Calendar's US default)."""
    return d - timedelta(days=(d.weekday() + 1) % 7)


TIME_OPTIONS = [time(h, m) for h in range(24) for m in (0, 15, 30, 45)]
