"""GoCalendar's pages (day, week and month grids, the year's months, the two-week schedule, server-rendered like
Google Calendar) and its JSON API (events, their moves, tasks, calendars' colours and deletion)."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from real_local.core import error_page, session_of
from real_local.gocalendar import planner as pl
from real_local.gocalendar.reference import COLORS, CONTACTS, TASKS_COLOR
from real_local.gocalendar.timeutil import TIME_OPTIONS, TODAY, fmt_time, fmt_time_long, week_start
from real_local.gomail.icons import ICONS
from real_local.gomail.routes import timed

HERE = Path(__file__).parent
_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                   trim_blocks=True, lstrip_blocks=True)
_OWN_ICONS = {  # GoCalendar's own (Material's paths), beside the icons it shares with GoMail
    "videocam": "M17 10.5V7c0-.55-.45-1-1-1H4c-.55 0-1 .45-1 1v10c0 .55.45 1 1 1h12c.55 0 1-.45 1-1v-3.5l4 4v-11l-4 4z",
    "people": "M16 11c1.66 0 2.99-1.34 2.99-3S17.66 5 16 5c-1.66 0-3 1.34-3 3s1.34 3 3 3zm-8 0c1.66 0 2.99-1.34 2.99-3"
              "S9.66 5 8 5C6.34 5 5 6.34 5 8s1.34 3 3 3zm0 2c-2.33 0-7 1.17-7 3.5V19h14v-2.5c0-2.33-4.67-3.5-7-3.5zm8 0"
              "c-.29 0-.62.02-.97.05 1.16.84 1.97 1.97 1.97 3.45V19h6v-2.5c0-2.33-4.67-3.5-7-3.5z",
    "event": "M19 4h-1V2h-2v2H8V2H6v2H5c-1.11 0-1.99.9-1.99 2L3 20c0 1.1.89 2 2 2h14c1.1 0 2-.9 2-2V6c0-1.1-.9-2-2-2z"
             "m0 16H5V10h14v10zM9 14H7v-2h2v2zm4 0h-2v-2h2v2zm4 0h-2v-2h2v2z",
}
_ICONS = {**ICONS, **{k: f'<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path d="{d}"/></svg>'
                      for k, d in _OWN_ICONS.items()}}
_env.globals.update(icon=lambda name, cls="": _ICONS[name].replace("<svg ", f'<svg class="ic {cls}" ', 1))
HOUR_PX = 48
VIEWS = ("day", "week", "month", "year", "schedule")
VIEW_KEYS = [("day", "D"), ("week", "W"), ("month", "M"), ("year", "Y"), ("schedule", "A")]  # Google's shortcuts
SCHEDULE_DAYS = 14
_COLOR_NAMES = {v: k for k, v in COLORS.items()}
_CONTACTS_JSON = json.dumps([{"name": n, "email": e} for n, e in CONTACTS])
_TIMES_JSON = json.dumps([fmt_time_long(t) for t in TIME_OPTIONS])  # digits, colons and am/pm only


def _occ_view(o: pl.Occurrence, cal_colors: dict[str, str], cal_names: dict[str, str]) -> dict[str, Any]:
    ev = o.event
    cal_color = cal_colors.get(ev.get("calendar", "work"), "#039be5")
    data = {
        "id": ev["id"], "kind": o.kind, "title": ev["title"], "date": o.start.strftime("%A, %B %-d, %Y"),
        "startTime": fmt_time_long(o.start), "endTime": fmt_time_long(o.end), "allDay": o.all_day,
        "location": ev.get("location", ""), "description": ev.get("description", ""),
        "repeat": ev.get("repeat", "none"), "calendar": ev.get("calendar", "tasks"),
        "completed": ev.get("completed", False), "occurrence": o.occurrence.isoformat(),
        "guests": ev.get("guests", []), "hasMeeting": bool(ev.get("hasMeeting")), "meetingId": ev.get("meetingId", ""),
        "color": _COLOR_NAMES.get(ev.get("color", ""), ""), "calendarName": cal_names.get(ev.get("calendar", ""), ""),
        "calendarColor": _COLOR_NAMES.get(cal_color, ""),
    }
    if o.kind == "event" and ev.get("allDay"):
        from real_local.gocalendar.timeutil import from_utc_iso

        s, e = from_utc_iso(ev["start"]).date(), from_utc_iso(ev["end"]).date()
        data["date"] = s.strftime("%A, %B %-d, %Y")
        data["endDate"] = e.strftime("%A, %B %-d, %Y")
        when = s.strftime("%A, %B %-d") + ("" if e == s else " – " + e.strftime("%A, %B %-d"))
    elif o.all_day:
        when = o.start.strftime("%A, %B %-d")
    else:
        when = f"{o.start.strftime('%A, %B %-d')} · {fmt_time(o.start)} – {fmt_time(o.end)}"
    top = (o.start.hour * 60 + o.start.minute) / 60 * HOUR_PX
    minutes = max(15, (o.end - o.start).total_seconds() / 60)
    minutes = min(minutes, 24 * 60 - (o.start.hour * 60 + o.start.minute))
    return {
        "o": o, "ev": ev, "data": json.dumps(data), "when": when,
        "time_label": "" if o.all_day else f"{fmt_time(o.start)} – {fmt_time(o.end)}",
        "short_time": "" if o.all_day else fmt_time(o.start),
        "color": TASKS_COLOR if o.kind == "task" else ev.get("color") or cal_color,
        "top": round(top, 1), "height": round(max(minutes / 60 * HOUR_PX - 2, 14), 1),
        "left": round(100 * o.col / o.cols, 2), "width": round(100 / o.cols, 2),
        "aria": f"{ev['title']}, {when}" + (f", {ev['location']}" if ev.get("location") else ""),
    }


def _range(view: str, d: date) -> tuple[date, date, list[date]]:
    if view == "day":
        return d, d, [d]
    if view == "year":
        a, b = date(d.year, 1, 1), date(d.year, 12, 31)
        return a, b, [a + timedelta(days=i) for i in range((b - a).days + 1)]
    if view == "schedule":
        days = [d + timedelta(days=i) for i in range(SCHEDULE_DAYS)]
        return days[0], days[-1], days
    if view == "week":
        s = week_start(d)
        days = [s + timedelta(days=i) for i in range(7)]
        return days[0], days[-1], days
    first = d.replace(day=1)
    s = week_start(first)
    days = [s + timedelta(days=i) for i in range(42)]
    if days[35].month != d.month:
        days = days[:35]
    return days[0], days[-1], days


def _step(view: str, d: date, sign: int) -> date:
    if view == "day":
        return d + timedelta(days=sign)
    if view == "week":
        return d + timedelta(days=7 * sign)
    if view == "schedule":
        return d + timedelta(days=SCHEDULE_DAYS * sign)
    if view == "year":
        return date(d.year + sign, d.month, min(d.day, 28 if d.month == 2 else d.day))
    y, m = divmod(d.year * 12 + d.month - 1 + sign, 12)
    return date(y, m + 1, 1)


def _title(view: str, days: list[date], d: date) -> str:
    if view == "month":
        return d.strftime("%B %Y")
    if view == "year":
        return str(d.year)
    a, b = days[0], days[-1]
    if view == "day":
        return d.strftime("%B %-d, %Y")
    if a.month == b.month:
        return a.strftime("%B %Y")
    if a.year == b.year:
        return f"{a.strftime('%b')} – {b.strftime('%b %Y')}"
    return f"{a.strftime('%b %Y')} – {b.strftime('%b %Y')}"


def _year(d: date, counts: dict[date, int]) -> list[dict[str, Any]]:
    """The year view's twelve months: weeks of days (None outside the month), each with its number of events."""
    out = []
    for m in range(1, 13):
        first = date(d.year, m, 1)
        s = week_start(first)
        weeks = [[s + timedelta(days=7 * w + i) for i in range(7)] for w in range(6)]
        weeks = [w for w in weeks if any(x.month == m for x in w)]
        out.append({"name": first.strftime("%B"), "weeks": [[(x, counts.get(x, 0)) if x.month == m else None
                                                              for x in w] for w in weeks]})
    return out


def _mini(d: date) -> list[list[date]]:
    s = week_start(d.replace(day=1))
    return [[s + timedelta(days=7 * w + i) for i in range(7)] for w in range(6)]


def _href(view: str, d: date) -> str:
    return f"/r/{view}/{d.year}/{d.month}/{d.day}"


def render_view(request: Request, view: str, d: date) -> Response:
    s = session_of(request)
    with s.lock:
        lo, hi, days = _range(view, d)
        cals = [dict(c) for c in pl.calendars(s.state)]
        colors = {c["id"]: c["color"] for c in cals}
        names = {c["id"]: c["name"] for c in cals}
        raw = pl.occurrences(s.state, lo, hi)
        counts: dict[date, int] = {}
        for o in raw:
            counts[o.day] = counts.get(o.day, 0) + 1
        occs = [] if view == "year" else [_occ_view(o, colors, names) for o in raw]
        bar = s.state["ui"]["snackbar"]
        error = request.query_params.get("error", "")[:300]
        draft = request.query_params.get("draft", "")[:5000] if error else ""
        snackbar = "" if draft else (error or (bar["message"] if bar.get("open") else ""))
        bar["open"] = False  # shown once; the message stays in the state
        s.state.setdefault("router", {}).setdefault("location", {})["pathname"] = request.url.path  # view shown
    by_day: dict[date, list] = {day: [] for day in days}
    allday: dict[date, list] = {day: [] for day in days}
    for ov in occs:
        (allday if ov["o"].all_day else by_day).setdefault(ov["o"].day, []).append(ov)
    label = {"day": "day", "week": "week", "month": "month", "year": "year", "schedule": "2 weeks"}[view]
    for c in cals:
        c["colorName"] = _COLOR_NAMES.get(c["color"], "")
    body = _env.get_template("calendar.html").render(
        view=view, d=d, days=days, by_day=by_day, allday=allday, today=TODAY, title=_title(view, days, d),
        prev_href=_href(view, _step(view, d, -1)), next_href=_href(view, _step(view, d, 1)),
        today_href=_href(view, TODAY), href=_href, label=label, hours=range(24), hour_px=HOUR_PX,
        mini=_mini(d), calendars=cals, tasks_color=TASKS_COLOR, times_json=_TIMES_JSON,
        my_calendars=[c for c in cals if c.get("group") != "other"], colors=COLORS, view_keys=VIEW_KEYS,
        year=_year(d, counts) if view == "year" else [], contacts_json=_CONTACTS_JSON,
        mini_view="week" if view == "year" else view,
        repeats=pl.REPEATS, fmt_time=fmt_time, month=d.month, snackbar=snackbar,
        can_undo=snackbar == "Event deleted" and not error,
        draft_json=_script_json({"values": json.loads(draft), "error": error}) if _is_json(draft) else "null",
        default_date=default_date(view, d, days).strftime("%A, %B %-d, %Y"),
        delete_scopes=pl.DELETE_SCOPES,
    )
    return HTMLResponse(body)


def default_date(view: str, d: date, days: list[date]) -> date:
    """The day Create starts on, as Google's: today when the view shows it (a month view: today's month), else the
    day shown (day view), the week's first day or the month's first day."""
    if view in ("day", "schedule"):
        return d
    if view == "year":
        return TODAY if TODAY.year == d.year else date(d.year, 1, 1)
    if view == "month":
        return TODAY if (TODAY.year, TODAY.month) == (d.year, d.month) else d.replace(day=1)
    return TODAY if days[0] <= TODAY <= days[-1] else days[0]


async def home(request: Request) -> Response:
    return render_view(request, "week", TODAY)


async def view_page(request: Request) -> Response:
    p = request.path_params
    view = p["view"]
    if view not in VIEWS:
        return error_page(404, f"GoCalendar has no {view!r} view",
                          "use /r/day/..., /r/week/..., /r/month/..., /r/year/... or /r/schedule/...")
    try:
        d = date(int(p["y"]), int(p["m"]), int(p["d"]))
    except ValueError:
        return error_page(400, f"{p['y']}/{p['m']}/{p['d']} is not a date", "use /r/week/2024/7/18")
    return render_view(request, view, d)


def _script_json(value: Any) -> str:
    """JSON safe inside a <script> element (user text may hold "</script>")."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _is_json(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict) if text else False
    except ValueError:
        return False


# ---------------------------------------------------------------- JSON API and form posts
def _api(fn):
    async def handler(request: Request) -> Response:
        s = session_of(request)
        try:
            try:
                data = await request.json() if (await request.body()) else {}
            except ValueError:
                raise pl.CalendarError("the request body must be JSON") from None
            if not isinstance(data, dict):
                raise pl.CalendarError("the request body must be a JSON object")
            with s.lock:
                result = fn(s.state, request.path_params, data)
                return JSONResponse({"ok": True, **result, "message": s.state["ui"]["snackbar"]["message"]})
        except pl.CalendarError as err:
            return JSONResponse({"error": str(err)}, status_code=400)
    return handler


def _form(fn, editor: bool = False):
    """The same change as ``_api(fn)`` from a plain form POST (``payload`` JSON, ``next`` path): the click that
    submits it navigates at once, so an agent's next observation shows the result. On an error the browser goes
    back to ``next`` with ``?error=`` (and, for the editor, the values typed, so the dialog reopens with them)."""
    async def handler(request: Request) -> Response:
        s = session_of(request)
        fields = parse_qs((await request.body()).decode("utf-8", "replace"))
        nxt = (fields.get("next") or ["/"])[0]
        if not nxt.startswith("/") or nxt.startswith("//"):
            nxt = "/"
        raw = (fields.get("payload") or ["{}"])[0]
        try:
            try:
                data = json.loads(raw)
            except ValueError:
                raise pl.CalendarError("the form payload must be JSON") from None
            if not isinstance(data, dict):
                raise pl.CalendarError("the form payload must be a JSON object")
            with s.lock:
                fn(s.state, request.path_params, data)
            target = nxt
        except pl.CalendarError as err:
            q = {"error": str(err), **({"draft": raw} if editor else {})}
            target = nxt + ("&" if "?" in nxt else "?") + urlencode(q)
        return RedirectResponse(target, status_code=303)
    return handler


_CHANGES = {
    "create": lambda st, p, d: {"event": pl.create_event(st, d)},
    "update": lambda st, p, d: {"event": pl.update_event(st, p["eid"], d)},
    "delete": lambda st, p, d: {"event": pl.delete_event(st, p["eid"], d)},
    "task": lambda st, p, d: {"task": pl.create_task(st, d)},
    "done": lambda st, p, d: {"task": pl.set_task_done(st, p["tid"], d.get("done", True))},
    "task_delete": lambda st, p, d: {"task": pl.delete_task(st, p["tid"])},
    "undo": lambda st, p, d: {"event": pl.undo_delete(st)},
    "move": lambda st, p, d: {"event": pl.move_event(st, p["eid"], d)},
    "cal_color": lambda st, p, d: {"calendar": pl.set_calendar_color(st, p["cid"], d)},
    "cal_delete": lambda st, p, d: {"calendar": pl.delete_calendar(st, p["cid"])},
}

routes = [
    Route("/do/events", _form(_CHANGES["create"], editor=True), methods=["POST"]),
    Route("/do/events/{eid}", _form(_CHANGES["update"], editor=True), methods=["POST"]),
    Route("/do/events/{eid}/delete", _form(_CHANGES["delete"]), methods=["POST"]),
    Route("/do/tasks", _form(_CHANGES["task"], editor=True), methods=["POST"]),
    Route("/do/tasks/{tid}/done", _form(_CHANGES["done"]), methods=["POST"]),
    Route("/do/tasks/{tid}/delete", _form(_CHANGES["task_delete"]), methods=["POST"]),
    Route("/do/undo", _form(_CHANGES["undo"]), methods=["POST"]),
    Route("/do/events/{eid}/move", _form(_CHANGES["move"]), methods=["POST"]),
    Route("/do/calendars/{cid}/color", _form(_CHANGES["cal_color"]), methods=["POST"]),
    Route("/do/calendars/{cid}/delete", _form(_CHANGES["cal_delete"]), methods=["POST"]),
    Route("/api/events/{eid}/move", _api(_CHANGES["move"]), methods=["POST"]),
    Route("/api/calendars/{cid}/color", _api(_CHANGES["cal_color"]), methods=["POST"]),
    Route("/api/calendars/{cid}/delete", _api(_CHANGES["cal_delete"]), methods=["POST"]),
    Route("/api/undo", _api(_CHANGES["undo"]), methods=["POST"]),
    Route("/", timed(home)),
    Route("/r/{view}/{y}/{m}/{d}", timed(view_page)),
    Route("/api/events", _api(_CHANGES["create"]), methods=["POST"]),
    Route("/api/events/{eid}", _api(_CHANGES["update"]), methods=["POST"]),
    Route("/api/events/{eid}/delete", _api(_CHANGES["delete"]), methods=["POST"]),
    Route("/api/tasks", _api(_CHANGES["task"]), methods=["POST"]),
    Route("/api/tasks/{tid}/done", _api(_CHANGES["done"]), methods=["POST"]),
    Route("/api/tasks/{tid}/delete", _api(_CHANGES["task_delete"]), methods=["POST"]),
]
