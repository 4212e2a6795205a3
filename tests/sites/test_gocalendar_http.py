"""GoCalendar over real HTTP and as functions: Pacific times stored as REAL's UTC strings, loose date/time typing,
the seed events REAL's goals name, REAL's ``differences.events`` shapes, bad input, isolation, render latency."""

from __future__ import annotations

import contextlib
import html
import json
import re
import statistics
from datetime import date, time, timedelta

import httpx
import pytest
from site_helpers import site_url
from test_gomail_http import server_ms

from halo.tasks.real import get_task, grade
from real_local.gocalendar import planner as pl
from real_local.gocalendar.seed import seed
from real_local.gocalendar.timeutil import from_utc_iso, parse_date, parse_time, to_utc_iso


@pytest.fixture(scope="module")
def url(site_urls):
    return site_url(site_urls, "gocalendar")


@contextlib.contextmanager
def client(url: str, task_id: str | None = "v2.gocalendar-4"):
    with httpx.Client(base_url=url, timeout=10, follow_redirects=True) as c:
        if task_id:
            assert c.get("/config", params={"run_id": "0", "task_id": task_id, "latency": 0}).status_code == 200
        yield c


def finish(c: httpx.Client) -> dict:
    m = re.search(r"<pre>(.*)</pre>", c.get("/finish").text, re.DOTALL)
    assert m
    return json.loads(html.unescape(m.group(1)))


@pytest.mark.parametrize("text, expected", [
    ("7:45pm", time(19, 45)), ("7:45 PM", time(19, 45)), ("19:45", time(19, 45)), ("7pm", time(19, 0)),
    ("12am", time(0, 0)), ("12:30pm", time(12, 30)), ("noon", time(12, 0)), ("11 a.m.", time(11, 0)),
])
def test_parse_time(text, expected):
    assert parse_time(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("2024-09-20", date(2024, 9, 20)), ("9/20/2024", date(2024, 9, 20)), ("9/20", date(2024, 9, 20)),
    ("September 20, 2024", date(2024, 9, 20)), ("Friday, September 20", date(2024, 9, 20)),
    ("Sep 20", date(2024, 9, 20)), ("July 21st", date(2024, 7, 21)), ("wed, jul 17, 2024", date(2024, 7, 17)),
])
def test_parse_date(text, expected):
    assert parse_date(text) == expected


@pytest.mark.parametrize("bad", ["25:00", "13pm", "soon", ""])
def test_parse_time_rejects(bad):
    with pytest.raises(ValueError, match="cannot read the time"):
        parse_time(bad)


@pytest.mark.parametrize("bad", ["someday", "2/30/2024", "Smarch 3", "13/1/2024"])
def test_parse_date_rejects(bad):
    with pytest.raises(ValueError, match="cannot read the date"):
        parse_date(bad)


def test_pacific_time_stored_as_reals_utc_strings():
    assert to_utc_iso(date(2024, 9, 20), time(19, 45)) == "2024-09-21T02:45:00.000Z"  # eval_gocalendar_4's target
    assert to_utc_iso(date(2024, 7, 17), time(11, 0)) == "2024-07-17T18:00:00.000Z"
    assert to_utc_iso(date(2024, 12, 2), time(9, 0)) == "2024-12-02T17:00:00.000Z"  # PST in winter


def test_seed_has_the_events_reals_goals_name():
    ev = pl.events(seed())
    by_title = {}
    for e in ev.values():
        by_title.setdefault(e["title"], []).append(e)
    assert from_utc_iso(by_title["Dinner with Friends"][0]["start"]).date() == date(2024, 7, 17)  # Wed 7pm Pacific
    assert by_title["Project Sync"][0]["start"] == "2024-07-17T17:00:00.000Z"
    assert any(e["start"].startswith("2024-07-18T05") for e in by_title["Reading Time"])  # Wed 10pm Pacific
    assert "sister" in by_title["Morning Coffee with sister"][0]["title"]
    assert len({e["meetingId"] for e in ev.values()}) == len(ev) and "gcx-svpg-dny" not in {e["meetingId"] for e in ev.values()}
    assert seed() == seed()


def test_repeating_weekdays_expand_in_views():
    st = seed()
    pl.create_event(st, {"title": "Gym", "date": "September 20, 2024", "startTime": "7:45pm", "endTime": "8:45pm",
                         "repeat": "weekdays", "location": "Gym"})
    days = [o.day for o in pl.occurrences(st, date(2024, 9, 15), date(2024, 9, 28)) if o.event["title"] == "Gym"]
    assert days == [date(2024, 9, 20), *[date(2024, 9, d) for d in (23, 24, 25, 26, 27)]]


def test_create_all_day_delete_and_task_shapes(url, site_urls):
    with client(url, "v2.gocalendar-13") as c:
        r = c.post("/api/events", json={"title": "Math camp", "date": "July 21, 2024", "allDay": True,
                                        "endDate": "July 27, 2024", "location": "Sunnyvale"})
        assert r.status_code == 200 and r.json()["message"] == "Event saved"
        assert c.post("/api/events/6/delete").json()["message"] == "Event deleted"
        c.post("/api/tasks", json={"title": "Send an email to Ashley", "date": "7/22/2024", "startTime": "9am"})
        state = finish(c)
    added = state["differences"]["events"]["added"]
    (eid, ev), = added.items()
    assert ev["id"] == eid and ev["allDay"] is True and ev["start"][:10] == "2024-07-21" and ev["end"][:10] == "2024-07-27"
    assert set(state["differences"]["events"]["deleted"]) == {"6"}
    assert state["initialfinaldiff"]["added"]["calendar"]["deletedEvents"]["0"]["title"] == "Project Sync"
    task = next(iter(state["initialfinaldiff"]["added"]["calendar"]["myTasks"].values()))
    assert task["start"] == "2024-07-22T16:00:00.000Z"
    for tid in ("gocalendar-13", "gocalendar-23", "gocalendar-8"):
        assert grade(get_task(tid, sites="local", site_urls=site_urls), state).success, tid


def test_editor_errors_come_back_with_the_values_typed(url):
    with client(url) as c:
        payload = json.dumps({"title": "Lunch", "date": "someday", "startTime": "noon"})
        r = c.post("/do/events", data={"payload": payload, "next": "/r/week/2024/7/18"}, follow_redirects=False)
        assert r.status_code == 303 and "error=" in r.headers["location"] and "draft=" in r.headers["location"]
        page = c.get(r.headers["location"]).text
        assert "cannot read the date" in html.unescape(page) and '"Lunch"' in html.unescape(page)
        assert finish(c)["differences"]["events"]["added"] == {}


def test_bad_input_gets_clear_errors(url):
    with client(url) as c:
        assert c.get("/r/decade/2024/7/18").status_code == 404
        assert c.get("/r/week/2024/2/30").status_code == 400
        assert c.get("/r/week/x/y/z").status_code == 400
        assert c.get("/config", params={"task_id": "v2.gomail-1"}).status_code == 400
        cases = [("/api/events", {"title": "x", "date": "2024-07-18", "startTime": "25:00"}, "cannot read the time"),
                 ("/api/events", {"title": "x", "date": "2024-07-18", "allDay": True, "endDate": "2024-07-01"}, "before"),
                 ("/api/events", {"title": "x", "date": "2024-07-18", "repeat": "hourly"}, "repeat"),
                 ("/api/events", {"title": 5, "date": "2024-07-18"}, "title must be text"),
                 ("/api/events/999", {"title": "x", "date": "2024-07-18"}, "no event"),
                 ("/api/events/999/delete", {}, "no event"), ("/api/tasks/t99/delete", {}, "no task")]
        for path, payload, words in cases:
            r = c.post(path, json=payload)
            assert r.status_code == 400 and words in r.json()["error"], (path, r.text)
        r = c.post("/api/events", content=b"{oops", headers={"content-type": "application/json"})
        assert r.status_code == 400 and "JSON" in r.json()["error"]
        assert finish(c)["differences"]["events"] == {"added": {}, "updated": {}, "deleted": {}}


def test_sessions_are_isolated(url):
    with client(url) as a, client(url) as b:
        a.post("/api/events/8/delete")
        assert set(finish(a)["differences"]["events"]["deleted"]) == {"8"}
        assert finish(b)["differences"]["events"]["deleted"] == {}
        assert "Dinner with Friends" in b.get("/").text and "Dinner with Friends" not in a.get("/r/week/2024/7/17").text


def test_views_render_and_none_is_pathological(url):
    """The 50 ms p50 target lives in bench/mail_calendar_bench.py (a loaded CI machine is no timer); this catches
    only an order-of-magnitude regression."""
    with client(url) as c:
        for path in ("/", "/r/month/2024/7/18", "/r/day/2024/7/17", "/r/week/2024/9/20"):
            ms = [server_ms(c.get(path)) for _ in range(7)]
            assert statistics.median(ms) < 500, f"{path}: server-side p50 {statistics.median(ms):.0f} ms"
        page = c.get("/").text
        assert "July 2024" in page and 'aria-label="Project Sync, Wednesday, July 17' in page
        assert not re.search(r"""(src|href)=["']https?://""", page)


def test_typed_text_cannot_break_out_of_the_page(url):
    with client(url) as c:
        payload = json.dumps({"title": "</script><script>alert(1)</script>", "date": "someday"})
        r = c.post("/do/events", data={"payload": payload, "next": "/"})
        assert r.status_code == 200 and "<script>alert(1)" not in r.text
        c.post("/api/events", json={"title": "<img src=x onerror=alert(1)>", "date": "2024-07-18", "startTime": "9am"})
        assert "<img src=x" not in c.get("/").text


def test_an_end_before_the_start_is_refused_and_midnight_ends_the_day():
    st = seed()
    with pytest.raises(pl.CalendarError, match=r"end time \(10:00am\) is before the start time \(7:45pm\)"):
        pl.create_event(st, {"title": "Gym", "date": "2024-09-20", "startTime": "7:45pm", "endTime": "10:00am"})
    with pytest.raises(pl.CalendarError, match="before the start"):
        pl.create_event(st, {"title": "Gym", "date": "2024-09-20", "startTime": "9am", "endTime": "9am"})
    ev = pl.create_event(st, {"title": "Late", "date": "2024-09-20", "startTime": "11pm", "endTime": "12:00am"})
    assert from_utc_iso(ev["end"]) - from_utc_iso(ev["start"]) == timedelta(hours=1)


def test_deleting_occurrences_of_a_repeating_event(url):
    """Google's three choices: this event (an exception), this and following (the series ends the day before),
    all events (the event goes); the series stays in ``events`` for the first two, Undo takes each back."""
    with client(url, "v2.gocalendar-23") as c:
        r = c.post("/api/events/1/delete", json={"scope": "this", "occurrence": "2024-07-17"})
        assert r.status_code == 200 and r.json()["event"]["recurringEventId"] == "1"
        days = [o.day.day for o in pl.occurrences(_final(c), date(2024, 7, 14), date(2024, 7, 27))
                if o.event["id"] == "1"]
        assert days == [15, 16, 18, 19, 22, 23, 24, 25, 26]
        assert finish(c)["differences"]["events"] == {
            "added": {}, "updated": {"1": {"id": "1", "exceptions": ["2024-07-17"]}}, "deleted": {}}
        for bad, words in (({"scope": "this", "occurrence": "2024-07-20"}, "no occurrence"),  # a Saturday
                           ({"scope": "this", "occurrence": "2024-07-17"}, "no occurrence"),  # gone already
                           ({"scope": "this", "occurrence": "someday"}, "occurrence must be"),
                           ({"scope": "some"}, "scope must be")):
            r = c.post("/api/events/1/delete", json=bad)
            assert r.status_code == 400 and words in r.json()["error"], bad
        assert c.post("/api/undo").json()["message"] == "Event restored"
        assert finish(c)["differences"]["events"]["updated"] == {}
        c.post("/api/events/1/delete", json={"scope": "following", "occurrence": "2024-07-24"})
        assert finish(c)["differences"]["events"]["updated"] == {"1": {"id": "1", "repeatUntil": "2024-07-23"}}
        c.post("/api/events/1/delete", json={"scope": "following", "occurrence": "2024-07-15"})  # the first: all
        assert set(finish(c)["differences"]["events"]["deleted"]) == {"1"}
        c.post("/api/events/8/delete", json={"scope": "this", "occurrence": "2024-07-17"})  # single: just deleted
        assert set(finish(c)["differences"]["events"]["deleted"]) == {"1", "8"}


def _final(c: httpx.Client) -> dict:
    """The session's calendar: the seed with /finish's event differences applied."""
    st = seed()
    diff = finish(c)["differences"]["events"]
    for eid, up in diff["updated"].items():
        pl.events(st)[eid].update({k: v for k, v in up.items() if k != "id"})
    for eid in diff["deleted"]:
        pl.events(st).pop(eid)
    return st


@pytest.mark.parametrize("view, shown, want", [
    ("week", date(2024, 7, 14), date(2024, 7, 18)),  # today is in the week: today, not its Sunday
    ("week", date(2024, 7, 16), date(2024, 7, 18)),
    ("week", date(2024, 7, 25), date(2024, 7, 21)),  # another week: its first day
    ("month", date(2024, 7, 1), date(2024, 7, 18)),
    ("month", date(2024, 9, 20), date(2024, 9, 1)),
    ("day", date(2024, 7, 22), date(2024, 7, 22)),
])
def test_create_starts_today_when_the_view_shows_it(view, shown, want):
    from real_local.gocalendar.routes import _range, default_date

    assert default_date(view, shown, _range(view, shown)[2]) == want


def test_today_is_shown(url):
    """As Google Calendar: the "Today" button is named with today's date and the logo shows today's day number, on
    any week viewed, so "tomorrow" can be read off the page."""
    with client(url) as c:
        for path in ("/", "/r/week/2024/8/14", "/r/month/2024/6/3", "/r/day/2024/7/19"):
            page = c.get(path).text
            assert 'aria-label="Today, Thursday, July 18"' in page, path
            assert '<span class="logo-mark" aria-hidden="true">18</span>' in page, path


# ---------------------------------------------------------------- the calendar at a real one's scale (issue 16.3)
REAL_EVENTS_SHA = "19372b6a5f974dce6c48d8c84bc88a22b530891e72fdd7a815b7a6d297b0d5d0"  # ids 1-22 before the scale-up


def test_the_calendar_is_at_a_real_ones_scale_and_deterministic():
    import hashlib

    from real_local.gocalendar.gendata import span

    st = seed()
    ev = pl.events(st)
    assert len(ev) == 407 and len(st["calendar"]["myTasks"]) == 12
    assert [c["id"] for c in st["calendar"]["calendars"]] == ["work", "personal", "family", "holidays"]
    real = {str(i): ev[str(i)] for i in range(1, 23)}  # REAL's events, exactly as REAL's scripts and tasks name them
    assert hashlib.sha256(json.dumps(real, sort_keys=True).encode()).hexdigest() == REAL_EVENTS_SHA
    assert list(ev)[:22] == [str(i) for i in range(1, 23)]
    first, last = span(ev)
    assert (first.date(), last.date()) == (date(2024, 1, 1), date(2024, 10, 31))
    kinds = {"series": sum(e["repeat"] != "none" for e in ev.values()), "all_day": sum(e["allDay"] for e in ev.values()),
             "guests": sum(bool(e["guests"]) for e in ev.values()), "meet": sum(bool(e.get("hasMeeting")) for e in ev.values())}
    assert kinds["series"] >= 10 and kinds["all_day"] >= 20 and kinds["guests"] >= 150 and kinds["meet"] >= 100, kinds
    assert {e["calendar"] for e in ev.values()} == {"work", "personal", "family", "holidays"}
    assert len({e["meetingId"] for e in ev.values()}) == len(ev)
    assert json.dumps(seed(), sort_keys=True) == json.dumps(st, sort_keys=True)


def test_weeks_and_months_look_like_a_working_calendar():
    """Every workday of May-October (but trips and holidays) holds meetings; REAL's two weeks hold only REAL's
    events and the weekly series, so the day REAL's goals name keep their free hours (Wednesday 11am)."""
    st = seed()
    occ = pl.occurrences(st, date(2024, 5, 1), date(2024, 10, 31))
    by_day: dict[date, list] = {}
    for o in occ:
        by_day.setdefault(o.day, []).append(o)
    workdays = [d for d in by_day if d.weekday() < 5]
    busy = [d for d in workdays if sum(o.event.get("calendar") == "work" and not o.all_day for o in by_day[d]) >= 2]
    assert len(busy) >= 0.8 * len(workdays) and len(occ) >= 700, (len(busy), len(workdays), len(occ))
    months = [sum(1 for o in occ if o.day.month == m) for m in range(5, 11)]
    assert min(months) >= 100, months
    real_weeks = [o for o in pl.occurrences(st, date(2024, 7, 14), date(2024, 7, 27))
                  if o.kind == "event" and int(o.event["id"]) > 22]
    assert real_weeks and all(o.event["repeat"] != "none" for o in real_weeks)
    wed = [o for o in pl.occurrences(st, date(2024, 7, 17), date(2024, 7, 17)) if not o.all_day]
    assert not any(o.start.hour * 60 + o.start.minute < 11 * 60 + 30 and o.end.hour * 60 + o.end.minute > 11 * 60
                   for o in wed)  # gocalendar-6's 11am slot
    words = ("dinner", "friend", "reading", "sister", "project sync", "clothes", "math", "ashley", "email")
    ev = pl.events(st)
    assert not [e["title"] for i, e in ev.items() if int(i) > 22 and any(w in e["title"].lower() for w in words)]


def test_a_month_of_many_events_shows_more_links(url):
    with client(url) as c:
        page = html.unescape(c.get("/r/month/2024/8/1").text)
    assert len(re.findall(r'class="more"', page)) >= 10
    assert len(re.findall(r'class="event ', page)) >= 50


# ---------------------------------------------------------------- features REAL's v1 tasks use (issue 16.4)
def test_guests_and_a_video_meeting_are_stored_on_the_event(url):
    """REAL v1 gocalendar-5: three guests and a video meeting (``hasMeeting``, which its grader reads)."""
    with client(url) as c:
        r = c.post("/api/events", json={"title": "Brainstorming Session", "date": "July 22, 2024",
                                        "startTime": "11am", "endTime": "12pm", "hasMeeting": True,
                                        "guests": ["Alexa Richardson", "james.anderson@acme.com",
                                                   "Sophie Taylor <sophie.taylor@acme.com>", "Alexa Richardson"]})
        assert r.status_code == 200, r.text
        r = c.post("/api/events", json={"title": "x", "date": "July 22, 2024", "guests": ["nobody"]})
        assert r.status_code == 400 and "not an email address or a contact" in r.json()["error"]
        (ev,) = finish(c)["differences"]["events"]["added"].values()
        assert ev["hasMeeting"] is True and ev["start"] == "2024-07-22T18:00:00.000Z"
        assert ev["guests"] == [{"name": "Alexa Richardson", "email": "alexa.richardson@acme.com"},
                                {"name": "James Anderson", "email": "james.anderson@acme.com"},
                                {"name": "Sophie Taylor", "email": "sophie.taylor@acme.com"}]
        page = html.unescape(c.get("/r/week/2024/7/22").text)
        assert '"hasMeeting": true' in page and "alexa.richardson@acme.com" in page
        # an edit that leaves guests, the meeting and the colour alone adds no difference for them
        c.post("/api/events/11", json={"title": "Project Kickoff", "date": "July 18, 2024", "startTime": "11am",
                                       "endTime": "11:30am", "location": "Conference Room A", "calendar": "work",
                                       "guests": [], "hasMeeting": False, "color": ""})
        assert finish(c)["differences"]["events"]["updated"] == {"11": {"id": "11", "title": "Project Kickoff"}}
        c.post("/api/events/11", json={"title": "Project Kickoff", "date": "July 18, 2024", "startTime": "11am",
                                       "endTime": "11:30am", "guests": ["daniel.kim@acme.com"], "hasMeeting": True})
        up = finish(c)["differences"]["events"]["updated"]["11"]
        assert up["guests"] == [{"name": "Daniel Kim", "email": "daniel.kim@acme.com"}] and up["hasMeeting"] is True


def test_calendar_and_event_colours(url):
    """REAL v1 gocalendar-6 (Sage for Personal, Peacock for Work): a calendar's colour is its ``color`` in
    ``calendar.calendars``; an event's own colour is its ``color``; both shown on the page."""
    with client(url) as c:
        assert c.post("/api/calendars/personal/color", json={"color": "Tomato"}).status_code == 200
        assert c.post("/api/calendars/personal/color", json={"color": "Mauve"}).status_code == 400
        r = c.post("/api/events", json={"title": "Lunch", "date": "2024-07-18", "startTime": "12:30pm",
                                        "color": "Banana"})
        assert r.status_code == 200
        state = finish(c)
        cals = state["initialfinaldiff"]["updated"]["calendar"]["calendars"]
        assert cals == {"1": {"color": "#d50000"}}
        (ev,) = state["differences"]["events"]["added"].values()
        assert ev["color"] == "#f6bf26"
        page = c.get("/r/week/2024/7/16").text
        assert 'aria-label="Morning Walk, Tuesday, July 16' in page
        walk = re.search(r'aria-label="Morning Walk, Tuesday[^"]*"\s+style="--c: ([^;]+);', page)
        assert walk and walk.group(1) == "#d50000"  # a Personal event, in the calendar's new colour
        assert re.search(r'aria-label="Lunch, Thursday[^"]*"\s+style="--c: #f6bf26;', page)
        assert 'aria-label="Options for Personal"' in page and 'aria-label="Sage"' in page


def test_deleting_a_calendar_deletes_its_events(url, site_urls):
    with client(url, "v2.gocalendar-18") as c:
        family = {i for i, e in pl.events(seed()).items() if e["calendar"] == "family"}
        r = c.post("/api/calendars/family/delete")
        assert r.status_code == 200 and r.json()["calendar"]["eventsDeleted"] == len(family) >= 20
        state = finish(c)
        assert set(state["differences"]["events"]["deleted"]) == family
        page = c.get("/").text
        assert "Options for Family" not in page and "Morning Coffee with sister" not in page
        assert 'option value="family"' not in page
        assert c.post("/api/events", json={"title": "x", "date": "2024-07-18", "calendar": "family"}).status_code == 400
        # loose: gocalendar-18's script accepts the coffee plans deleted with their calendar
        assert grade(get_task("v2.gocalendar-18", sites="local", site_urls=site_urls), state).success
        for cid in ("work", "holidays"):
            assert c.post(f"/api/calendars/{cid}/delete").status_code == 200
        r = c.post("/api/calendars/personal/delete")
        assert r.status_code == 400 and "last calendar" in r.json()["error"]


def test_moving_an_event_keeps_its_length(url):
    """Drag and drop's request (REAL v1 gocalendar-7: the coffee from Thursday 9am to Friday 10am)."""
    with client(url) as c:
        r = c.post("/api/events/10/move", json={"date": "Friday, July 19, 2024", "startTime": "10:00am"})
        assert r.status_code == 200 and r.json()["message"] == "Event rescheduled"
        c.post("/api/events/22/move", json={"date": "Sunday, July 28, 2024"})  # all day: the day only
        series = next(i for i, e in pl.events(seed()).items() if e["title"] == "Design Review")
        c.post(f"/api/events/{series}/move", json={"date": "Friday, July 19, 2024", "startTime": "2:00pm",
                                                    "occurrence": "2024-07-18"})
        up = finish(c)["differences"]["events"]["updated"]
        assert up["10"] == {"id": "10", "start": "2024-07-19T17:00:00.000Z", "end": "2024-07-19T18:00:00.000Z"}
        assert (up["22"]["start"][:10], up["22"]["end"][:10]) == ("2024-07-28", "2024-07-28")
        days = {o.day for o in pl.occurrences(_final(c), date(2024, 7, 14), date(2024, 7, 27))
                if o.event["id"] == series}
        assert days == {date(2024, 7, 19), date(2024, 7, 26)}  # the whole series moved to Fridays at 2pm
        assert c.post("/api/events/10/move", json={"date": "someday"}).status_code == 400


def test_year_and_schedule_views(url):
    with client(url) as c:
        year = html.unescape(c.get("/r/year/2024/7/18").text)
        assert all(f">{m}</a>" in year for m in ("January", "July", "December"))
        n = len([o for o in pl.occurrences(seed(), date(2024, 7, 18), date(2024, 7, 18))])
        assert f'aria-label="Thursday, July 18, 2024, {n} events"' in year and n >= 5
        assert 'href="/r/year/2025/7/18"' in year and 'aria-label="Next year"' in year
        sched = html.unescape(c.get("/r/schedule/2024/7/18").text)
        assert "Morning Coffee with sister" in sched and "Dentist Appointment" in sched  # July 18 - 31
        assert "Dinner with Friends" not in sched and 'href="/r/schedule/2024/8/1"' in sched
        menu = re.findall(r'role="menuitem" class="menu-item" href="[^"]+"><span>(\w+)</span>', sched)
        assert menu == ["Day", "Week", "Month", "Year", "Schedule"]
        for path in ("/r/week/2024/7/18", "/r/month/2024/7/1"):
            page = c.get(path).text
            assert 'aria-label="Next month, side calendar"' in page and 'aria-label="Choose a date"' in page
            assert 'aria-label="Add guests"' in page and ">Add Google Meet video conferencing<" in page
