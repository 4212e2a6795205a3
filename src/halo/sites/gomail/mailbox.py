"""GoMail's behaviour on its state tree: folders, search, bulk actions, sending, labels, and REAL's ``differences``.

Pure functions over the session's state dict (no HTTP), so tests can drive them directly. Snackbar wording follows
REAL's GoMail ("54 conversations moved to Trash", "3 conversations snoozed until ..."), which its scripts parse.
"""

from __future__ import annotations

import copy
import html
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from halo.sites.core import collection_differences
from halo.sites.gomail.seed import TODAY, contacts

PAGE_SIZE = 50
FOLDERS = {  # path segment -> title
    "inbox": "Inbox", "starred": "Starred", "snoozed": "Snoozed", "sent": "Sent", "drafts": "Drafts",
    "all": "All Mail", "spam": "Spam", "trash": "Trash",
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
        return not (e["sent"] or e["draft"] or e["archived"] or e["snoozed"])
    if folder == "starred":
        return e["starred"]
    if folder == "snoozed":
        return e["snoozed"]
    if folder == "sent":
        return e["sent"] and not e["draft"]
    if folder == "drafts":
        return e["draft"]
    if folder == "all":
        return not e["draft"]
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
    older_than: date | None = None
    newer_than: date | None = None

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


def parse_query(q: str) -> Query:
    """Gmail's search box: free words plus ``from:``, ``to:``, ``subject:``, ``is:``, ``older_than:2m``."""
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
        elif op == "older_than":
            query.older_than = _relative(val)
        elif op == "newer_than":
            query.newer_than = _relative(val)
        else:
            continue
        rest = rest.replace(m.group(0), " ")
    query.has_words = " ".join(rest.split())
    query.flags = tuple(flags)
    return query


def matches(e: dict[str, Any], query: Query) -> bool:
    def has(field: str, needle: str) -> bool:
        return needle.lower() in field.lower()

    people = " ".join([e["from"], e["name"], *e["to"], *e["cc"]])
    hay = " ".join([people, e["subject"], text_of(e["content"])])
    squashed = re.sub(r"[^a-z0-9]", "", hay.lower())  # "noreply" finds "no-reply", "ups" finds "U.P.S."

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
    for f in query.flags:
        if (f == "unread" and e["isRead"]) or (f == "read" and not e["isRead"]) or (f == "starred" and not e["starred"]):
            return False
    return True


def search(state: dict[str, Any], q: str) -> list[dict[str, Any]]:
    query = parse_query(q)
    return newest_first([e for e in emails(state).values() if in_folder(e, "all") and matches(e, query)])


def run_search(state: dict[str, Any], q: str) -> list[dict[str, Any]]:
    """A search from the search box: recorded in the state as REAL's GoMail records it (``filter.searchData``,
    ``ui.searchInputValue``, ``filter.searchResults``)."""
    q = " ".join(q.split())
    state["ui"]["searchInputValue"] = q
    state["filter"]["searchData"] = parse_query(q).search_data()
    _refresh_search(state)
    return search(state, q)


def _refresh_search(state: dict[str, Any]) -> None:
    q = state["ui"].get("searchInputValue", "")
    state["filter"]["searchResults"] = [copy.deepcopy(e) for e in search(state, q)] if q else []


# ---------------------------------------------------------------- actions
def _conv(n: int, what: str) -> str:
    """REAL's wording, as its scripts quote it: "54 conversations moved to Trash" (no full stop)."""
    return f"Conversation {what}" if n == 1 else f"{n} conversations {what}"


def snooze_label(until: str) -> str:
    dt = datetime.fromisoformat(until)
    return dt.strftime("%a, %b %-d, %-I:%M %p")


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
        try:
            label_text = snooze_label(until)
        except ValueError:
            raise MailError(f"cannot snooze until {until!r}: use a date and time like 2024-07-22T08:00") from None
        for i in ids:
            all_emails[i]["snoozed"] = True
            all_emails[i]["snoozeUntil"] = until
        message = (f"Conversation snoozed until {label_text}" if len(ids) == 1
                   else f"{len(ids)} conversations snoozed until {label_text}")
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
    times = [str(e.get("time") or "00:00") for e in emails(state).values() if e.get("date") == TODAY]
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
