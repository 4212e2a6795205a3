"""GoCalendar's fixed reference data, which the seed, the generator and the planner all read: the calendars and
Google Calendar's colour palette, the address book the guest field suggests from, and deterministic Meet codes."""

from __future__ import annotations

import hashlib

CALENDARS = [
    {"id": "work", "name": "Work", "color": "#039be5"},
    {"id": "personal", "name": "Personal", "color": "#33b679"},
    {"id": "family", "name": "Family", "color": "#8e24aa"},
    {"id": "holidays", "name": "Holidays in United States", "color": "#0b8043", "group": "other"},
]
# Google Calendar's palette, by the names its colour menus show (Personal is Sage, Work Peacock, Family Grape)
COLORS = {"Tomato": "#d50000", "Flamingo": "#e67c73", "Tangerine": "#f4511e", "Banana": "#f6bf26",
          "Sage": "#33b679", "Basil": "#0b8043", "Peacock": "#039be5", "Blueberry": "#3f51b5",
          "Lavender": "#7986cb", "Grape": "#8e24aa", "Graphite": "#616161"}
TASKS_COLOR = "#1a73e8"

CONTACTS = [  # the address book the guest field suggests from (REAL's v1 gocalendar-5 names the first three)
    ("Alexa Richardson", "alexa.richardson@acme.com"), ("James Anderson", "james.anderson@acme.com"),
    ("Sophie Taylor", "sophie.taylor@acme.com"), ("Priya Patel", "priya.patel@acme.com"),
    ("Daniel Kim", "daniel.kim@acme.com"), ("Maria Garcia", "maria.garcia@acme.com"),
    ("Kevin Nguyen", "kevin.nguyen@acme.com"), ("Olivia Martinez", "olivia.martinez@acme.com"),
    ("Ethan Brooks", "ethan.brooks@acme.com"), ("Hannah Lee", "hannah.lee@acme.com"),
    ("Marcus Johnson", "marcus.johnson@acme.com"), ("Rachel Cohen", "rachel.cohen@acme.com"),
    ("Lucas Silva", "lucas.silva@acme.com"), ("Grace Thompson", "grace.thompson@acme.com"),
    ("Noah Williams", "noah.williams@globex.com"), ("Ava Robinson", "ava.robinson@globex.com"),
    ("Liam Carter", "liam.carter@initech.io"), ("Chloe Bennett", "chloe.bennett@initech.io"),
    ("Emma Taylor", "emma.taylor@gmail.com"), ("Chris Taylor", "chris.taylor@gmail.com"),
    ("Mike Reynolds", "mike.reynolds@gmail.com"), ("Laura Chen", "laura.chen@gmail.com"),
]
COLLEAGUES = CONTACTS[:18]


def meeting_id(seed_text: str) -> str:
    """A deterministic Meet-style code (``abc-defg-hij``)."""
    h = hashlib.sha256(seed_text.encode()).digest()
    letters = "".join(chr(ord("a") + b % 26) for b in h[:10])
    code = f"{letters[:3]}-{letters[3:7]}-{letters[7:10]}"
    return code if code != "gcx-svpg-dny" else "zzz-zzzz-zzz"  # that code marks an anomaly in eval_gocalendar_6
