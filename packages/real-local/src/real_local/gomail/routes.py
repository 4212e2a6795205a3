"""GoMail's pages (server-rendered, Gmail's layout) and the small JSON API its JavaScript calls to change state."""

from __future__ import annotations

import html
import json
import re
import time
from collections import OrderedDict
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from real_local.core import Session, error_page, session_of
from real_local.gomail import mailbox as mb
from real_local.gomail.icons import ICONS
from real_local.gomail.seed import TODAY, contacts

HERE = Path(__file__).parent
_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                   trim_blocks=True, lstrip_blocks=True)
_CONTACTS_JSON = json.dumps(contacts()).replace("<", "\\u003c").replace(">", "\\u003e")  # safe in <script>


def _short_date(e: dict[str, Any]) -> str:
    if e["date"] == TODAY:
        h, m = (int(x) for x in e.get("time", "09:00").split(":"))
        return f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"
    d = date.fromisoformat(e["date"])
    if d.year == 2024:
        return d.strftime("%b %-d")
    return d.strftime("%-m/%-d/%y")


def _long_date(e: dict[str, Any]) -> str:
    d = date.fromisoformat(e["date"])
    h, m = (int(x) for x in e.get("time", "09:00").split(":"))
    return f"{d.strftime('%a, %b %-d, %Y')}, {(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"


def _snippet(e: dict[str, Any]) -> str:
    return " ".join(mb.text_of(e["content"]).split())[:120]


_env.filters.update(short_date=_short_date, long_date=_long_date, snippet=_snippet)
_env.globals.update(icon=lambda name, cls="": ICONS[name].replace("<svg ", f'<svg class="ic {cls}" ', 1))


def _option_text(iso: str) -> str:
    """"Jul 19, 8:00 AM", as Gmail's schedule-send suggestions show their time."""
    return mb.datetime.fromisoformat(iso).strftime("%b %-d, %-I:%M %p")


_SCHEDULE_OPTIONS = [(name, iso, _option_text(iso)) for name, iso in mb.SCHEDULE_OPTIONS]
_DEFAULT_DAY = mb.datetime.fromisoformat(mb.SCHEDULE_OPTIONS[0][1]).strftime("%b %-d, %Y")  # the dialogs' date box


def _counts(state: dict[str, Any]) -> dict[str, int]:
    es = mb.emails(state).values()
    return {
        "inbox": sum(1 for e in es if mb.in_folder(e, "inbox") and not e["isRead"]),
        "drafts": sum(1 for e in es if mb.in_folder(e, "drafts")),
        "spam": sum(1 for e in es if mb.in_folder(e, "spam") and not e["isRead"]),
    }


def _page(template: str, request: Request, **ctx: Any) -> HTMLResponse:
    """Render a page; a snackbar the last change raised is shown once (the message stays in the state, where
    REAL's scripts read it; only its ``open`` flag is cleared)."""
    s = session_of(request)
    state = s.state
    bar = state["ui"]["snackbar"]
    error = request.query_params.get("error", "")[:300]
    snackbar = error or (bar["message"] if bar.get("open") else "")
    can_undo = bool(snackbar and not error and _UNDO.get(s.sid))
    bar["open"] = False
    state.setdefault("router", {}).setdefault("location", {})["pathname"] = request.url.path  # what is open now
    body = _env.get_template(template).render(
        user=state["user"], labels=state["settings"]["customLabels"], counts=_counts(state),
        contacts_json=_CONTACTS_JSON, snooze_options=mb.SNOOZE_OPTIONS, schedule_options=_SCHEDULE_OPTIONS,
        snackbar=snackbar, can_undo=can_undo, default_day=_DEFAULT_DAY, **ctx)
    return HTMLResponse(body)


def _page_number(request: Request) -> int:
    try:
        return max(1, int(request.query_params.get("page", "1")))
    except ValueError:
        return 1


def _list(request: Request, *, folder: str, title: str, items: list[dict[str, Any]], query: str = "",
          label: str | None = None) -> HTMLResponse:
    page = _page_number(request)
    total = len(items)
    pages = max(1, -(-total // mb.PAGE_SIZE))
    page = min(page, pages)
    start = (page - 1) * mb.PAGE_SIZE
    shown = items[start:start + mb.PAGE_SIZE]
    return _page("list.html", request, folder=folder, title=title, items=shown, total=total, page=page,
                 pages=pages, first=start + 1 if total else 0, last=start + len(shown), query=query, label=label,
                 open_draft=_open_draft(request))


def _open_draft(request: Request) -> str:
    """``?draft=<id>`` opens that saved draft in the compose window; ``?view=cm&to=..&su=..&body=..`` (Gmail's own
    compose link, what a ``mailto:`` opens) a new message with those fields filled. ``&typing=..`` is REAL-local's own
    addition (Gmail has none): the To field still holding that text as typed, its suggestions open, so a ladder's rung
    can start between typing a name and picking it; ``&hidden=1``, also its own, keeps the filled window closed until
    Compose opens it (a rung that starts on the inbox with the message written). JSON for the page's script, or
    "null"; nothing is saved until the message is sent or closed as a draft."""
    q = request.query_params
    if q.get("view") == "cm":
        to = [a.strip().lower() for a in ",".join(q.getlist("to")).split(",") if a.strip()]
        data = {"id": None, "to": to, "cc": [], "bcc": [], "subject": q.get("su", ""), "body": q.get("body", ""),
                "typing": q.get("typing", "")[:100]}
        if q.get("hidden") == "1":
            data["hidden"] = True
        return _script_json(data)
    e = mb.emails(session_of(request).state).get(q.get("draft") or "")
    if not e or not e["draft"]:
        return "null"
    data = {"id": e["id"], "to": e["to"], "cc": e["cc"], "bcc": e["bcc"], "subject": e["subject"],
            "body": "\n".join(p for p in re.findall(r"<p>(.*?)</p>", e["content"]))}
    data["body"] = html.unescape(data["body"])
    return _script_json(data)


def _script_json(data: dict[str, Any]) -> str:
    return json.dumps(data).replace("<", "\\u003c").replace(">", "\\u003e")


async def folder_page(request: Request) -> Response:
    folder = request.path_params.get("folder", "inbox")
    if folder not in mb.FOLDERS:
        return error_page(404, f"GoMail has no folder {folder!r}", f"open one of: {', '.join(mb.FOLDERS)}")
    s = session_of(request)
    with s.lock:
        items = mb.newest_first([e for e in mb.emails(s.state).values() if mb.in_folder(e, folder)])
        return _list(request, folder=folder, title=mb.FOLDERS[folder], items=items)


async def label_page(request: Request) -> Response:
    name = request.path_params["name"]
    s = session_of(request)
    with s.lock:
        if name not in {lb["label"] for lb in s.state["settings"]["customLabels"]}:
            return error_page(404, f"no label {name!r}", "create it with the + next to Labels in the sidebar")
        items = mb.newest_first([e for e in mb.emails(s.state).values() if mb.in_folder(e, "label", name)])
        return _list(request, folder="label", title=name, items=items, label=name)


async def search_page(request: Request) -> Response:
    q = request.query_params.get("q", "")
    if not q.strip():
        return RedirectResponse("/", status_code=303)
    if len(q) > 500:
        return error_page(400, "search text is longer than 500 characters", "search for fewer words")
    s = session_of(request)
    with s.lock:
        items = mb.run_search(s.state, q)
        return _list(request, folder="search", title=f"Search results for “{q}”", items=items, query=q)


async def email_page(request: Request) -> Response:
    eid = request.path_params["eid"]
    s = session_of(request)
    with s.lock:
        try:
            e = mb.open_email(s.state, eid)
        except mb.MailError as err:
            return error_page(404, str(err), "go back to the Inbox and open an email from the list")
        folder = request.query_params.get("from", "inbox")
        labels = [lb for lb in s.state["settings"]["customLabels"]]
        return _page("email.html", request, e=e, folder=folder if folder in mb.FOLDERS else "inbox",
                     email_labels=labels, forward_header=mb.forwarded_header(s.state, e))


# ---------------------------------------------------------------- JSON API
async def _json(request: Request) -> dict[str, Any]:
    try:
        data = await request.json()
    except ValueError:
        raise mb.MailError("the request body must be JSON") from None
    if not isinstance(data, dict):
        raise mb.MailError("the request body must be a JSON object")
    return data


def _api(fn):
    async def handler(request: Request) -> Response:
        s = session_of(request)
        try:
            data = await _json(request)
            with s.lock:
                return JSONResponse(_call(fn, s, data))
        except mb.MailError as err:
            return JSONResponse({"error": str(err)}, status_code=400)
    return handler


def _form(fn):
    """The same change as ``_api(fn)`` from a plain form POST (``payload`` = the JSON, ``next`` = where to go):
    the click that submits it starts a navigation at once, so a browser agent's next observation already shows
    the result. Errors come back to ``next`` as ``?error=``, shown in the snackbar."""
    async def handler(request: Request) -> Response:
        s = session_of(request)
        fields = parse_qs((await request.body()).decode("utf-8", "replace"))
        nxt = (fields.get("next") or ["/"])[0]
        if not nxt.startswith("/") or nxt.startswith("//"):
            nxt = "/"
        try:
            try:
                data = json.loads((fields.get("payload") or ["{}"])[0])
            except ValueError:
                raise mb.MailError("the form payload must be JSON") from None
            if not isinstance(data, dict):
                raise mb.MailError("the form payload must be a JSON object")
            with s.lock:
                result = _call(fn, s, data)
            target = result.get("next") or nxt
        except mb.MailError as err:
            target = nxt + ("&" if "?" in nxt else "?") + "error=" + quote(str(err))
        return RedirectResponse(target, status_code=303)
    return handler


def _ids_for(state: dict[str, Any], data: dict[str, Any]) -> list[str]:
    """The conversations an action applies to: explicit ids, or every one in a folder/search ("select all N")."""
    if data.get("all"):
        folder = data.get("folder", "inbox")
        if folder == "search":
            return [e["id"] for e in mb.search(state, str(data.get("q", "")))]
        if folder == "label":
            return [e["id"] for e in mb.emails(state).values() if mb.in_folder(e, "label", data.get("label"))]
        if folder not in mb.FOLDERS:
            raise mb.MailError(f"no folder {folder!r}")
        return [e["id"] for e in mb.emails(state).values() if mb.in_folder(e, folder)]
    ids = data.get("ids")
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise mb.MailError("ids must be a list of email id strings")
    return ids


# Undo of each session's last toolbar action, kept beside the state (not in it: REAL's diff must not see it).
_UNDO: OrderedDict[str, dict[str, Any]] = OrderedDict()
_UNDO_MAX = 1024


def _act(s: Session, data: dict[str, Any]) -> dict[str, Any]:
    action = data.get("action")
    if not isinstance(action, str):
        raise mb.MailError("action must be a string")
    ids = _ids_for(s.state, data)
    until = data.get("until")
    if action == "snooze" and not until and (data.get("untilDate") or data.get("untilTime")):
        until = mb.parse_when(data.get("untilDate", ""), data.get("untilTime", ""), "snooze")  # "Select date & time"
    snap = mb.snapshot(s.state, ids) if action in mb.UNDOABLE else None
    msg = mb.apply_action(s.state, action, ids, until=until, label=data.get("label"))
    _UNDO.pop(s.sid, None)
    if snap and msg:
        _UNDO[s.sid] = snap
        while len(_UNDO) > _UNDO_MAX:
            _UNDO.popitem(last=False)
    return {"ok": True, "message": msg}


def _undo(s: Session, data: dict[str, Any]) -> dict[str, Any]:
    snap = _UNDO.pop(s.sid, None)
    if snap is None:
        raise mb.MailError("Nothing to undo.")
    return {"ok": True, "message": mb.undo(s.state, snap)}


_act.wants_session = _undo.wants_session = True  # type: ignore[attr-defined]


def _call(fn, s: Session, data: dict[str, Any]) -> dict[str, Any]:
    if fn is not _act and fn is not _undo:  # any other change ends what Undo can take back
        _UNDO.pop(s.sid, None)
    return fn(s, data) if getattr(fn, "wants_session", False) else fn(s.state, data)


def _send(state: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    e = mb.send(state, to=data.get("to"), cc=data.get("cc"), bcc=data.get("bcc"), subject=data.get("subject", ""),
                body=data.get("body", ""), reply_to=data.get("replyTo"), draft_id=data.get("draftId"),
                forward_of=data.get("forwardOf"))
    return {"ok": True, "id": e["id"], "message": "Message sent"}


def _schedule(state: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """Schedule send: ``sendAt`` (a suggestion's ISO minute) or ``sendAtDate`` + ``sendAtTime`` as typed in
    "Pick date & time"."""
    when = data.get("sendAt")
    if not when:
        when = mb.parse_when(data.get("sendAtDate", ""), data.get("sendAtTime", ""), "the scheduled send")
    e = mb.schedule(state, send_at=str(when), to=data.get("to"), cc=data.get("cc"), bcc=data.get("bcc"),
                    subject=data.get("subject", ""), body=data.get("body", ""), reply_to=data.get("replyTo"),
                    draft_id=data.get("draftId"), forward_of=data.get("forwardOf"))
    return {"ok": True, "id": e["id"], "message": state["ui"]["snackbar"]["message"]}


def _draft(state: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    e = mb.save_draft(state, to=data.get("to"), cc=data.get("cc"), bcc=data.get("bcc"),
                      subject=data.get("subject", ""), body=data.get("body", ""), draft_id=data.get("draftId"))
    return {"ok": True, "id": e["id"] if e else None, "message": state["ui"]["snackbar"]["message"]}


def _discard(state: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    mb.discard_draft(state, data.get("draftId"))
    return {"ok": True, "message": "Draft discarded"}


def _label(state: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    lb = mb.create_label(state, data.get("label", ""))
    return {"ok": True, "label": lb, "message": state["ui"]["snackbar"]["message"]}


def timed(handler):
    """Report the handler's own time as ``Server-Timing: app;dur=<ms>`` (render latency without the network)."""
    async def wrapper(request: Request) -> Response:
        t0 = time.perf_counter()
        resp = await handler(request)
        resp.headers["Server-Timing"] = f"app;dur={(time.perf_counter() - t0) * 1000:.1f}"
        return resp
    return wrapper


routes = [
    Route("/", timed(folder_page)),
    Route("/search", timed(search_page)),
    Route("/email/{eid}", timed(email_page)),
    Route("/label/{name:path}", timed(label_page)),
    Route("/api/emails", _api(_act), methods=["POST"]),
    Route("/api/send", _api(_send), methods=["POST"]),
    Route("/api/labels", _api(_label), methods=["POST"]),
    Route("/api/schedule", _api(_schedule), methods=["POST"]),
    Route("/do/schedule", _form(_schedule), methods=["POST"]),
    Route("/do/emails", _form(_act), methods=["POST"]),
    Route("/do/send", _form(_send), methods=["POST"]),
    Route("/do/labels", _form(_label), methods=["POST"]),
    Route("/do/undo", _form(_undo), methods=["POST"]),
    Route("/do/draft", _form(_draft), methods=["POST"]),
    Route("/do/discard", _form(_discard), methods=["POST"]),
    Route("/api/draft", _api(_draft), methods=["POST"]),
    Route("/api/undo", _api(_undo), methods=["POST"]),
    Route("/{folder}", timed(folder_page)),
]
