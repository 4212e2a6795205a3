"""GoMail's behaviour on its state tree: folders, search, bulk actions, sending, labels, and REAL's ``differences``.

Gmail's features REAL's tasks name (agisdk's v1 task files): Schedule send (an added email with ``scheduled: true``
and ``scheduledFor``, in the Scheduled folder until then, as v1's gomail-5 reads ``differences.emails.added[0]
.scheduled``), Snooze "Select date & time" (``snoozed``/``snoozeUntil`` as the menu's presets write them), and
search operators (``in:inbox``, ``in:sent``, ``in:anywhere``, ``label:``, ``from:``, ``to:``, ``subject:``, ``is:``,
``after:``, ``before:``, ``older_than:``, ``newer_than:``).

Pure functions over the session's state dict (no HTTP), so tests can drive them directly. Snackbar wording follows
REAL's GoMail ("54 conversations moved to Trash", "3 conversations snoozed until ..."), which its scripts parse.
"""

from __future__ import annotations

import copy
import functools
import html
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from real_local.core import collection_differences
from real_local.gomail.seed import TODAY, contacts

PAGE_SIZE = 50
FOLDERS = {  # path segment -> title
    "inbox": "Inbox", "starred": "Starred", "snoozed": "Snoozed", "sent": "Sent", "drafts": "Drafts",
    "scheduled": "Scheduled", "all": "All Mail", "spam": "Spam", "trash": "Trash",
}
EMAIL_RE = re.compile(r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$")


class MailError(ValueError):
    """A request the mailbox cannot honour; the message is shown to the user as is."""


def emails(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return state["email"]["emails"]


def in_folder(e: dict[str, Any], folder: str, label: str | None = None) -> bool:
    if folder == "trash":
        return e["trash"]
    if e["trash"]:
        return False
    if folder == "spam":
        return e["spam"]
    if e["spam"]:
        return False
    if folder == "inbox":
        return not (e["sent"] or e["draft"] or e["archived"] or e["snoozed"] or e.get("scheduled"))
    if folder == "starred":
        return e["starred"]
    if folder == "snoozed":
        return e["snoozed"]
    if folder == "sent":
        return e["sent"] and not e["draft"]
    if folder == "drafts":
        return e["draft"]
    if folder == "scheduled":
        return bool(e.get("scheduled"))
    if folder == "all":  # what has been sent or received: not drafts, not mail still waiting to go out
        return not (e["draft"] or e.get("scheduled"))
    if folder == "label":
        return label in e.get("labels", [])
    raise MailError(f"no folder {folder!r}")


def newest_first(es: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(es, key=lambda e: (e["date"], e.get("time", ""), int(e["id"]) if e["id"].isdigit() else 0),
                  reverse=True)


def text_of(content: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", content or "")).replace("\xa0", " ")


# ---------------------------------------------------------------- search
@dataclass
class Query:
    has_words: str = ""
    sender: str = ""
    to: str = ""
    subject: str = ""
    flags: tuple[str, ...] = ()  # is:unread, is:starred, ...
    older_than: date | None = None  # before this day
    newer_than: date | None = None  # after this day
    folder: str = ""  # in:inbox, in:sent, in:anywhere, ... ("" = All Mail, as Gmail searches)
    label: str = ""  # label:book-club (or in:<a label>)

    def search_data(self) -> dict[str, str]:
        return {"hasWords": self.has_words, "from": self.sender, "to": self.to, "subject": self.subject}


_OP = re.compile(r'(\w+):("[^"]*"|\S+)')


def _relative(spec: str) -> date | None:
    m = re.fullmatch(r"(\d+)([dmy])", spec.lower())
    if not m:
        return None
    n, unit = int(m.group(1)), m.group(2)
    today = date.fromisoformat(TODAY)
    if unit == "d":
        return today - timedelta(days=n)
    months = n * (12 if unit == "y" else 1)
    y, mo = divmod(today.year * 12 + today.month - 1 - months, 12)
    return date(y, mo + 1, min(today.day, 28))


def _day(spec: str) -> date | None:
    """Gmail's ``after:2024/04/01`` (also 2024-04-01, 4/1/2024)."""
    for fmt in ("%Y/%m/%d", "%Y-%m-%d", "%m/%d/%Y", "%Y/%m/%-d"):
        try:
            return datetime.strptime(spec, fmt).date()
        except ValueError:
            continue
    return None


IN_ALIASES = {"sent": "sent", "inbox": "inbox", "starred": "starred", "snoozed": "snoozed", "drafts": "drafts",
              "draft": "drafts", "scheduled": "scheduled", "all": "all", "spam": "spam", "trash": "trash",
              "bin": "trash", "anywhere": "anywhere"}


def parse_query(q: str) -> Query:
    """Gmail's search box: free words plus ``from:``, ``to:``, ``subject:``, ``in:``, ``label:``, ``is:``,
    ``after:``/``before:`` (a day), ``older_than:2m``/``newer_than:7d``."""
    query = Query()
    flags = []
    rest = q
    for m in _OP.finditer(q):
        op, val = m.group(1).lower(), m.group(2).strip('"')
        if op == "from":
            query.sender = val
        elif op == "to":
            query.to = val
        elif op == "subject":
            query.subject = val
        elif op == "is":
            flags.append(val.lower())
        elif op == "in":
            folder = IN_ALIASES.get(val.lower())
            if folder:
                query.folder = folder
            else:  # Gmail: in:<label> is label:<label>
                query.label = val
        elif op == "label":
            query.label = val
        elif op == "older_than":
            query.older_than = _relative(val)
        elif op == "newer_than":
            query.newer_than = _relative(val)
        elif op == "before":
            query.older_than = _day(val)
        elif op == "after":
            d = _day(val)
            query.newer_than = d - timedelta(days=1) if d else None
        else:
            continue
        rest = rest.replace(m.group(0), " ")
    query.has_words = " ".join(rest.split())
    query.flags = tuple(flags)
    return query


@functools.lru_cache(maxsize=8192)
def _hay(sender: str, name: str, to: tuple[str, ...], cc: tuple[str, ...], subject: str,
         content: str) -> tuple[str, str]:
    """What a search looks in (people, subject, text), and the same squashed to letters and digits ("noreply" finds
    "no-reply", "ups" finds "U.P.S."); cached, as a mailbox of 500 is searched on every search page."""
    hay = " ".join([sender, name, *to, *cc, subject, text_of(content)])
    return hay, re.sub(r"[^a-z0-9]", "", hay.lower())


def matches(e: dict[str, Any], query: Query) -> bool:
    def has(field: str, needle: str) -> bool:
        return needle.lower() in field.lower()

    hay, squashed = _hay(e["from"], e["name"], tuple(e["to"]), tuple(e["cc"]), e["subject"], e["content"])

    def word(w: str) -> bool:
        return has(hay, w) or (len(w) > 3 and re.sub(r"[^a-z0-9]", "", w.lower()) in squashed)

    if query.has_words and not all(word(w) for w in query.has_words.split()):
        return False
    if query.sender and not has(e["from"] + " " + e["name"], query.sender):
        return False
    if query.to and not has(" ".join(e["to"] + e["cc"]), query.to):
        return False
    if query.subject and not has(e["subject"], query.subject):
        return False
    d = date.fromisoformat(e["date"])
    if query.older_than and not d < query.older_than:
        return False
    if query.newer_than and not d > query.newer_than:
        return False
    if query.label:
        want = _label_key(query.label)
        if not any(_label_key(lb) == want for lb in e.get("labels", [])):
            return False
    for f in query.flags:
        if ((f == "unread" and e["isRead"]) or (f == "read" and not e["isRead"]) or (f == "starred" and not e["starred"])
                or (f == "unstarred" and e["starred"]) or (f == "snoozed" and not e["snoozed"])):
            return False
    return True


def _label_key(name: str) -> str:
    """Gmail writes a label's spaces as dashes in a search (label:book-club) and ignores case."""
    return re.sub(r"[\s\-_/]+", "-", name.strip().lower())


def in_scope(e: dict[str, Any], folder: str) -> bool:
    """Where a search looks: All Mail (Gmail's default: not Spam, Trash, drafts), one folder, or anywhere."""
    if folder == "anywhere":
        return not e["draft"]
    return in_folder(e, folder or "all")


def search(state: dict[str, Any], q: str) -> list[dict[str, Any]]:
    query = parse_query(q)
    return newest_first([e for e in emails(state).values() if in_scope(e, query.folder) and matches(e, query)])


def run_search(state: dict[str, Any], q: str) -> list[dict[str, Any]]:
    """A search from the search box: recorded in the state as REAL's GoMail records it (``filter.searchData``,
    ``ui.searchInputValue``, ``filter.searchResults``)."""
    q = " ".join(q.split())
    state["ui"]["searchInputValue"] = q
    state["filter"]["searchData"] = parse_query(q).search_data()
    found = search(state, q) if q else []
    state["filter"]["searchResults"] = [_copy_email(e) for e in found]
    return found


def _copy_email(e: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of an email record (string, boolean and None values, lists of strings; ``replies`` as lists of
    such records): ``copy.deepcopy`` of a few hundred search results cost more than the search."""
    return {k: ([_copy_email(x) if isinstance(x, dict) else x for x in v] if isinstance(v, list) else
                _copy_email(v) if isinstance(v, dict) else v) for k, v in e.items()}


def _refresh_search(state: dict[str, Any]) -> None:
    q = state["ui"].get("searchInputValue", "")
    state["filter"]["searchResults"] = [_copy_email(e) for e in search(state, q)] if q else []


# ---------------------------------------------------------------- actions
def _conv(n: int, what: str) -> str:
    """REAL's wording, as its scripts quote it: "54 conversations moved to Trash" (no full stop)."""
    return f"Conversation {what}" if n == 1 else f"{n} conversations {what}"


def snooze_label(until: str) -> str:
    dt = datetime.fromisoformat(until)
    return dt.strftime("%a, %b %-d, %-I:%M %p")


def site_now(state: dict[str, Any]) -> datetime:
    """The site's clock as a datetime (today, a minute after today's newest mail)."""
    return datetime.fromisoformat(f"{TODAY}T{now(state)}")


_MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                                      "dec"), 1)}


def parse_day(text: str) -> date:
    """A day as people type it in Gmail's date box: "Jul 23, 2024", "July 23", "7/23/2024", "2024-07-23",
    "tomorrow" (the year defaults to this year's)."""
    t = " ".join(str(text or "").replace(",", " ").split()).lower()
    today = date.fromisoformat(TODAY)
    if t in ("today", "tomorrow"):
        return today + timedelta(days=t == "tomorrow")
    m = re.fullmatch(r"(\d{4})[-/](\d{1,2})[-/](\d{1,2})", t)
    if m:
        y, mo, d = (int(x) for x in m.groups())
        return date(y, mo, d)
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?", t)
    if m:
        mo, d = int(m.group(1)), int(m.group(2))
        y = int(m.group(3)) if m.group(3) else today.year
        return date(y + 2000 if y < 100 else y, mo, d)
    m = re.fullmatch(r"(?:[a-z]+ )?([a-z]+)\.? (\d{1,2})(?:st|nd|rd|th)?(?: (\d{4}))?", t)  # (Tue) Jul 23 (2024)
    if m and m.group(1)[:3] in _MONTHS:
        return date(int(m.group(3) or today.year), _MONTHS[m.group(1)[:3]], int(m.group(2)))
    raise ValueError(text)


def parse_clock(text: str) -> tuple[int, int]:
    """A time as typed: "8:00 AM", "3pm", "15:30", "9"."""
    t = str(text or "").strip().lower().replace(".", "")
    m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?\s*(am|pm|a|p)?", t)
    if not m:
        raise ValueError(text)
    h, mi, ap = int(m.group(1)), int(m.group(2) or 0), m.group(3)
    if ap:
        if not 1 <= h <= 12:
            raise ValueError(text)
        h = h % 12 + (12 if ap.startswith("p") else 0)
    if not (0 <= h < 24 and 0 <= mi < 60):
        raise ValueError(text)
    return h, mi


def parse_when(day_text: str, time_text: str, what: str) -> str:
    """The date and time fields of Gmail's "Select date and time" / "Pick date & time" dialogs, as an ISO minute."""
    try:
        d = parse_day(day_text)
    except ValueError:
        raise MailError(f'Enter a valid date for {what}, like "Jul 23, 2024" (got "{day_text}").') from None
    try:
        h, mi = parse_clock(time_text)
    except ValueError:
        raise MailError(f'Enter a valid time for {what}, like "8:00 AM" (got "{time_text}").') from None
    return datetime(d.year, d.month, d.day, h, mi).strftime("%Y-%m-%dT%H:%M")


def _future(state: dict[str, Any], when: str, what: str) -> datetime:
    try:
        dt = datetime.fromisoformat(when)
    except (TypeError, ValueError):
        raise MailError(f"cannot {what} until {when!r}: use a date and time like 2024-07-22T08:00") from None
    if dt <= site_now(state):
        raise MailError(f"Please choose a time in the future to {what}.")
    if dt.year > date.fromisoformat(TODAY).year + 2:
        raise MailError(f"Please choose a time within the next two years to {what}.")
    return dt


SNOOZE_OPTIONS = (  # label, local time (the site's "now" is the morning of 2024-07-18)
    ("Later today", "2024-07-18T18:00"),
    ("Tomorrow", "2024-07-19T08:00"),
    ("This weekend", "2024-07-20T08:00"),
    ("Next week", "2024-07-22T08:00"),
)

ACTIONS = {  # action -> (field, value, snackbar phrase)
    "trash": ("trash", True, "moved to Trash"),
    "untrash": ("trash", False, "moved to Inbox"),
    "archive": ("archived", True, "archived"),
    "unarchive": ("archived", False, "moved to Inbox"),
    "spam": ("spam", True, "marked as spam"),
    "notspam": ("spam", False, "unmarked as spam"),
    "read": ("isRead", True, "marked as read"),
    "unread": ("isRead", False, "marked as unread"),
    "star": ("starred", True, None),
    "unstar": ("starred", False, None),
    "unsnooze": ("snoozed", False, "unsnoozed"),
}


def set_snackbar(state: dict[str, Any], message: str) -> None:
    state["ui"]["snackbar"] = {"message": message, "open": True}


def apply_action(state: dict[str, Any], action: str, ids: list[str], *, until: str | None = None,
                 label: str | None = None) -> str:
    """Apply a toolbar action to the given email ids; returns the snackbar message ("" for none)."""
    all_emails = emails(state)
    missing = [i for i in ids if i not in all_emails]
    if missing:
        raise MailError(f"no email with id {', '.join(missing[:5])}; reload the page")
    if not ids:
        raise MailError("select at least one conversation first")
    message = ""
    if action in ACTIONS:
        field, value, phrase = ACTIONS[action]
        for i in ids:
            all_emails[i][field] = value
            if action == "unsnooze":
                all_emails[i]["snoozeUntil"] = None
        message = _conv(len(ids), phrase) if phrase else ""
    elif action == "snooze":
        if not until:
            raise MailError("pick when to snooze until")
        until = _future(state, until, "snooze").strftime("%Y-%m-%dT%H:%M")
        label_text = snooze_label(until)
        for i in ids:
            all_emails[i]["snoozed"] = True
            all_emails[i]["snoozeUntil"] = until
        message = (f"Conversation snoozed until {label_text}" if len(ids) == 1
                   else f"{len(ids)} conversations snoozed until {label_text}")
    elif action == "unschedule":  # "Cancel send" on a scheduled email: it goes back to Drafts
        for i in ids:
            if not all_emails[i].get("scheduled"):
                raise MailError("that email is not scheduled")
        for i in ids:
            all_emails[i].update(scheduled=False, scheduledFor=None, draft=True, date=TODAY, time=now(state))
        message = "Send canceled. Message moved to Drafts" if len(ids) == 1 else f"{len(ids)} sends canceled"
    elif action == "delete_forever":
        for i in ids:
            del all_emails[i]
        message = _conv(len(ids), "deleted forever")
    elif action == "label":
        names = {lb["label"] for lb in state["settings"]["customLabels"]}
        if label not in names:
            raise MailError(f"no label {label!r}; create it first")
        for i in ids:
            if label not in all_emails[i]["labels"]:
                all_emails[i]["labels"] = [*all_emails[i]["labels"], label]
        message = _conv(len(ids), f'labeled "{label}"')
    else:
        raise MailError(f"unknown action {action!r}")
    if message:
        set_snackbar(state, message)
    _refresh_search(state)
    return message


UNDO_FIELDS = ("trash", "archived", "spam", "isRead", "starred", "snoozed", "snoozeUntil", "labels")
UNDOABLE = {"trash", "untrash", "archive", "unarchive", "spam", "notspam", "read", "unread", "snooze", "unsnooze",
            "label"}


def snapshot(state: dict[str, Any], ids: list[str]) -> dict[str, dict[str, Any]]:
    """The fields an action may change, for Undo."""
    es = emails(state)
    return {i: {f: copy.deepcopy(es[i][f]) for f in UNDO_FIELDS} for i in ids if i in es}


def undo(state: dict[str, Any], snap: dict[str, dict[str, Any]]) -> str:
    es = emails(state)
    for i, fields in snap.items():
        if i in es:
            es[i].update(copy.deepcopy(fields))
    set_snackbar(state, "Action undone")
    _refresh_search(state)
    return "Action undone"


def open_email(state: dict[str, Any], eid: str) -> dict[str, Any]:
    e = emails(state).get(eid)
    if e is None:
        raise MailError(f"no email with id {eid!r}")
    if not e["isRead"]:
        e["isRead"] = True
        _refresh_search(state)
    return e


def _next_id(state: dict[str, Any]) -> str:
    nums = [int(i) for i in emails(state) if i.isdigit()]
    return str(max(nums, default=0) + 1)


def parse_recipients(values: list[str] | str | None, field: str) -> list[str]:
    if values is None:
        return []
    if isinstance(values, str):
        values = re.split(r"[,;]", values)
    out = []
    for v in values:
        v = str(v).strip()
        m = re.search(r"<([^>]+)>", v)
        addr = (m.group(1) if m else v).strip().lower()
        if not addr:
            continue
        if not EMAIL_RE.match(addr):
            raise MailError(f'The address "{v}" in the "{field}" field was not recognized. Please make sure that all '
                            f"addresses are properly formed.")
        if addr not in out:
            out.append(addr)
    return out


def now(state: dict[str, Any]) -> str:
    """The site's clock ("HH:MM" on TODAY): a minute after the newest message of today, so that what is sent or
    saved now is the newest, as it is in Gmail (REAL's inbox has mail up to 10:41 AM; a fixed 9:30 AM put a message
    just sent under mail that came in earlier)."""
    times = [str(e.get("time") or "00:00") for e in emails(state).values()
             if e.get("date") == TODAY and not e.get("scheduled")]
    h, m = (int(x) for x in max(times, default="09:29").split(":"))
    n = min(h * 60 + m + 1, 23 * 60 + 59)
    return f"{n // 60:02d}:{n % 60:02d}"


_NAMES = {c["email"]: c["name"] for c in contacts()}


def _named(state: dict[str, Any], addr: str) -> str:
    name = state["user"]["name"] if addr == state["user"]["email"] else _NAMES.get(addr)
    return f"{name} &lt;{html.escape(addr)}&gt;" if name else html.escape(addr)


def forwarded_header(state: dict[str, Any], original: dict[str, Any]) -> str:
    """Gmail's header of a forwarded message, as HTML: the marker line, then From, Date, Subject, To (and Cc)."""
    d = date.fromisoformat(original["date"])
    h, m = (int(x) for x in str(original.get("time") or "09:00").split(":"))
    when = f"{d.strftime('%a, %b %-d, %Y')} at {(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"
    sender = (f"<strong>{html.escape(original.get('name') or '')}</strong> &lt;{html.escape(original['from'])}&gt;"
              if original.get("name") else html.escape(original["from"]))
    lines = ["---------- Forwarded message ---------", f"From: {sender}", f"Date: {when}",
             f"Subject: {html.escape(original.get('subject') or '')}",
             "To: " + ", ".join(_named(state, a) for a in original.get("to") or [])]
    if original.get("cc"):
        lines.append("Cc: " + ", ".join(_named(state, a) for a in original["cc"]))
    return "<br>".join(lines)


def forwarded_block(state: dict[str, Any], original: dict[str, Any]) -> str:
    """What a forward adds below the text typed: the header, then the original's content."""
    return f'<div class="gmail_quote">{forwarded_header(state, original)}<br><br>{original.get("content") or ""}</div>'


def _message(state: dict[str, Any], eid: str, *, to: list[str], cc: list[str], bcc: list[str], subject: Any,
             body: Any, draft: bool, reply_to: str | None, forward_of: dict[str, Any] | None = None) -> dict[str, Any]:
    paragraphs = [html.escape(line) for line in str(body or "").splitlines()]
    user = state["user"]
    content = "".join(f"<p>{p}</p>" for p in paragraphs)
    if forward_of is not None:
        content += forwarded_block(state, forward_of)
    e = {
        "id": eid, "from": user["email"], "name": user["name"], "to": to, "cc": cc, "bcc": bcc,
        "subject": str(subject or "").strip(), "content": content or "<p></p>",
        "date": TODAY, "time": now(state), "sent": not draft, "draft": draft, "isRead": True, "starred": False,
        "trash": False, "archived": False, "spam": False, "isReply": reply_to is not None, "snoozed": False,
        "scheduled": False, "snoozeUntil": None, "replies": [], "labels": [],
    }
    if reply_to is not None:
        e["inReplyTo"] = reply_to
    return e


def _draft_id(state: dict[str, Any], draft_id: Any) -> str | None:
    if draft_id in (None, ""):
        return None
    e = emails(state).get(str(draft_id))
    if e is None or not e["draft"]:
        raise MailError(f"no draft with id {draft_id!r}; it may have been sent or discarded")
    return str(draft_id)


def send(state: dict[str, Any], *, to: Any, cc: Any = None, bcc: Any = None, subject: str = "", body: str = "",
         reply_to: str | None = None, draft_id: Any = None, forward_of: str | None = None) -> dict[str, Any]:
    """Send a new message (or a reply to ``reply_to``, a forward of ``forward_of`` with Gmail's header block and the
    original below what was typed, or a saved draft): REAL's ``differences.emails.added``."""
    to_l, cc_l, bcc_l = parse_recipients(to, "To"), parse_recipients(cc, "Cc"), parse_recipients(bcc, "Bcc")
    if not (to_l or cc_l or bcc_l):
        raise MailError("Please specify at least one recipient.")
    if reply_to is not None and reply_to not in emails(state):
        raise MailError(f"no email with id {reply_to!r} to reply to")
    if forward_of is not None and str(forward_of) not in emails(state):
        raise MailError(f"no email with id {forward_of!r} to forward")
    original = copy.deepcopy(emails(state)[str(forward_of)]) if forward_of is not None else None
    eid = _draft_id(state, draft_id) or _next_id(state)
    e = _message(state, eid, to=to_l, cc=cc_l, bcc=bcc_l, subject=subject, body=body, draft=False,
                 reply_to=reply_to, forward_of=original)
    emails(state)[eid] = e
    set_snackbar(state, "Message sent")
    _refresh_search(state)
    return e


SCHEDULE_OPTIONS = (  # Gmail's suggestions on a Thursday morning: label, local time
    ("Tomorrow morning", "2024-07-19T08:00"),
    ("Tomorrow afternoon", "2024-07-19T13:00"),
    ("Monday morning", "2024-07-22T08:00"),
)


def schedule(state: dict[str, Any], *, send_at: str, to: Any, cc: Any = None, bcc: Any = None, subject: str = "",
             body: str = "", reply_to: str | None = None, draft_id: Any = None,
             forward_of: str | None = None) -> dict[str, Any]:
    """Schedule send: the message is checked as Send checks it and waits in Scheduled (``scheduled: true``,
    ``scheduledFor``; dated when it will go out), an added email of REAL's ``differences``; not sent yet."""
    when = _future(state, send_at, "schedule the send").strftime("%Y-%m-%dT%H:%M")
    e = send(state, to=to, cc=cc, bcc=bcc, subject=subject, body=body, reply_to=reply_to, draft_id=draft_id,
             forward_of=forward_of)
    e.update(sent=False, scheduled=True, scheduledFor=when, date=when[:10], time=when[11:])
    set_snackbar(state, f"Send scheduled for {snooze_label(when)}")
    _refresh_search(state)
    return e


def save_draft(state: dict[str, Any], *, to: Any = None, cc: Any = None, bcc: Any = None, subject: str = "",
               body: str = "", draft_id: Any = None) -> dict[str, Any] | None:
    """Gmail saves what the compose window holds when it is closed; an empty window saves nothing."""
    lists = []
    for values in (to, cc, bcc):
        vals = values if isinstance(values, list) else re.split(r"[,;]", str(values or ""))
        lists.append([str(v).strip() for v in vals if str(v).strip()])
    eid = _draft_id(state, draft_id)
    if not any(lists) and not str(subject or "").strip() and not str(body or "").strip():
        if eid is not None:
            del emails(state)[eid]
        return None
    eid = eid or _next_id(state)
    e = _message(state, eid, to=lists[0], cc=lists[1], bcc=lists[2], subject=subject, body=body, draft=True,
                 reply_to=None)
    emails(state)[eid] = e
    set_snackbar(state, "Draft saved")
    return e


def discard_draft(state: dict[str, Any], draft_id: Any) -> None:
    eid = _draft_id(state, draft_id)
    if eid is not None:
        del emails(state)[eid]
    set_snackbar(state, "Draft discarded")


def create_label(state: dict[str, Any], name: str) -> dict[str, Any]:
    name = " ".join(str(name or "").split())
    if not name:
        raise MailError("Please enter a label name.")
    if len(name) > 225:
        raise MailError("Label names can be at most 225 characters.")
    labels = state["settings"]["customLabels"]
    if any(lb["label"].lower() == name.lower() for lb in labels):
        raise MailError(f'The label name "{name}" already exists. Please try another name.')
    lb = {"id": str(len(labels) + 1), "label": name}
    labels.append(lb)
    set_snackbar(state, f'Label "{name}" created')
    return lb


# ---------------------------------------------------------------- REAL's differences
def differences(initial: dict[str, Any], final: dict[str, Any]) -> dict[str, Any]:
    """REAL's ``differences.emails``: the mailbox collection (snoozed conversations leave it until they return,
    which is how eval_gomail_21 finds the snoozed "alerts" emails in ``deleted``)."""

    def mailbox(state):
        return {i: e for i, e in emails(state).items() if not e.get("snoozed")}

    return {"emails": collection_differences(mailbox(initial), mailbox(final))}
