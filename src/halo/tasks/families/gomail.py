"""GoMail task families, from one click (open a folder, open or star an email) to REAL-like compose-and-send.

Parameters come from GoMail's seed mailbox (``real_local.gomail.seed``); an email is named by its subject, its
sender (where no other email has that sender) or the day it came in, as REAL's goals name them. Graders read the
``/finish`` JSON only, as agisdk's ``eval_gomail_*.py`` do: ``differences.emails`` for the mailbox and
``initialfinaldiff`` for labels and the page shown (``router.location.pathname``). Reading other emails on the way is
harmless (only ``isRead`` may change elsewhere); any other change to another email fails the check.
"""

from __future__ import annotations

import random
import re
from datetime import date
from typing import Any, ClassVar
from urllib.parse import urlencode

from halo.tasks.families.base import Check, Family, Finish, field_value, norm, register
from real_local.gomail import mailbox as mb
from real_local.gomail.seed import TODAY, USER, contacts, seed

_SEED = seed()
_EMAILS: dict[str, dict[str, Any]] = mb.emails(_SEED)
# What the Inbox shows on its first page: every one-click goal names one of these.
PAGE1 = [e["id"] for e in mb.newest_first([e for e in _EMAILS.values() if mb.in_folder(e, "inbox")])[:mb.PAGE_SIZE]]
_SENDERS = [e["name"] for e in _EMAILS.values()]
PEOPLE = [c for c in contacts() if c["email"].endswith("@example.com") and c["email"] != USER["email"]]


# ---------------------------------------------------------------- naming an email
def ref_kinds(eid: str) -> list[str]:
    """The ways an email can be named unambiguously in the whole mailbox (hundreds of emails, most of them on later
    pages): its subject, its sender, the day it came in, each only where no other email shares it."""
    e = _EMAILS[eid]
    others = [x for x in _EMAILS.values() if x["id"] != eid and not x["draft"]]
    kinds = []
    if all(x["subject"] != e["subject"] for x in others):
        kinds.append("subject")
    if _SENDERS.count(e["name"]) == 1:
        kinds.append("sender")
    if all(_when(x) != _when(e) for x in others):
        kinds.append("date")
    return kinds


def _when(e: dict[str, Any]) -> str:
    if e["date"] == TODAY:
        h, m = (int(x) for x in e["time"].split(":"))
        return f"at {(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'} today"
    return "on " + date.fromisoformat(e["date"]).strftime("%B %-d")


def ref_text(eid: str, by: str, rng: random.Random) -> str:
    e = _EMAILS[eid]
    if by == "subject":
        return rng.choice([f'the email with the subject "{e["subject"]}"', f'the email titled "{e["subject"]}"',
                           f'the "{e["subject"]}" email'])
    if by == "sender":
        return rng.choice([f"the email from {e['name']}", f"{e['name']}'s email", f"the message {e['name']} sent me"])
    return rng.choice([f"the email I received {_when(e)}", f"the email that came in {_when(e)}"])


def _email_params(ids: list[str], **extra: Any) -> list[dict[str, Any]]:
    return [{"id": eid, "by": by, **extra} for eid in ids for by in ref_kinds(eid)]


# ---------------------------------------------------------------- reading the /finish JSON
def added_emails(f: Finish) -> list[dict[str, Any]]:
    """New emails (sent, drafts): ``differences.emails.added``, or ``initialfinaldiff.added.email.emails``."""
    added = [e for e in f.collection("emails")["added"] if isinstance(e, dict)]
    if not added:
        node = f.section("added", "email", "emails") or {}
        added = [e for e in node.values() if isinstance(e, dict)] if isinstance(node, dict) else []
    return added


def sent_emails(f: Finish) -> list[dict[str, Any]]:
    return [e for e in added_emails(f) if e.get("sent") is True and not e.get("draft")]


def updates(f: Finish) -> dict[str, dict[str, Any]]:
    """``differences.emails.updated`` by id (each holds only the fields that changed)."""
    return {str(u.get("id")): u for u in f.collection("emails")["updated"] if isinstance(u, dict)}


def pathname(f: Finish) -> str:
    """The page shown at the end (``router.location.pathname``; "/" when it never changed)."""
    p = f.section("updated", "router", "location", "pathname") or f.section("added", "router", "location", "pathname")
    return p if isinstance(p, str) else "/"


def untouched_except(f: Finish, allowed: set[str], *, new_mail: bool = False) -> Check:
    """No email outside ``allowed`` changed except being read; none deleted; none added unless ``new_mail``."""
    em = f.collection("emails")
    bad = [i for i, u in updates(f).items() if i not in allowed and set(u) - {"id", "isRead"}]
    bad += [f"deleted {e.get('id')}" for e in em["deleted"]]
    if not new_mail:
        bad += [f"added {e.get('id')}" for e in added_emails(f)]
    return Check("no other changes", not bad, f"also changed: {bad[:5]}" if bad else "")


def _addr_list(v: Any) -> list[str]:
    return [str(x).strip().lower() for x in (v or []) if str(x).strip()] if isinstance(v, list) else []


def _plain(text: str) -> str:
    """Text as the checks compare it: words only, case and spacing ignored."""
    return norm(re.sub(r"[^\w\s']", " ", text))


def _body(e: dict[str, Any]) -> str:
    return _plain(mb.text_of(e.get("content", "")))


def _contains(haystack: str, phrase: str) -> bool:
    return norm(re.sub(r"[^\w\s']", " ", phrase)) in haystack


# ---------------------------------------------------------------- one click
FOLDER_REFS: dict[str, list[str]] = {
    "starred": ["the Starred folder", "my starred emails", "starred messages", "the emails I marked with a star",
                "starred conversations", "the star folder", "my starred mail", "messages that have a star",
                "everything I starred", "the Starred mailbox", "emails I flagged with a star", "my favourite emails",
                "mail I starred to keep track of", "the starred list", "the emails I starred"],
    "snoozed": ["the Snoozed folder", "my snoozed emails", "snoozed conversations", "emails I postponed",
                "messages I put off until later", "emails on snooze", "deferred emails", "the Snoozed mailbox",
                "mail I set aside to come back to later", "emails set to come back to my inbox",
                "messages hidden until later", "my snoozed messages", "postponed mail", "things I snoozed",
                "the emails I've snoozed for later"],
    "sent": ["the Sent folder", "Sent Mail", "my sent emails", "the emails I have sent", "my outgoing mail",
             "the messages I wrote to other people", "what I've sent so far", "the mail I sent out",
             "the folder with the mail I sent to Lisa and Tom", "my sent messages", "the list of emails I sent",
             "sent items", "the Sent mailbox", "everything I've mailed to others", "my history of sent mail"],
    "drafts": ["the Drafts folder", "my drafts", "unsent drafts", "emails I started but haven't sent",
               "my saved drafts", "unfinished messages", "messages I haven't finished writing", "the draft folder",
               "my draft emails", "half-written emails", "emails waiting to be finished", "saved but unsent messages",
               "the Drafts mailbox", "my work-in-progress emails", "unsent mail I saved"],
    "scheduled": ["the Scheduled folder", "my scheduled emails", "emails scheduled to send later",
                  "messages set to send at a later time", "the mail I set to go out later", "scheduled messages",
                  "the Scheduled mailbox", "emails I scheduled", "my outgoing scheduled mail",
                  "messages queued to send at a set time", "the list of scheduled sends", "mail scheduled to be sent",
                  "emails timed to go out later", "my send-later messages", "scheduled sends"],
    "all": ["All Mail", "every email I have", "all my mail including archived messages", "the All Mail folder",
            "my archive", "archived emails along with everything else", "the complete mailbox", "all messages",
            "the full list of my emails", "every message, sent or received", "all conversations", "the All Mail view",
            "my whole mailbox", "every email in my account", "all of my email"],
    "spam": ["the Spam folder", "my spam", "junk mail", "the junk folder", "emails marked as spam", "unwanted mail",
             "messages flagged as junk", "the spam mailbox", "suspicious emails that were filtered out",
             "emails I reported as spam", "my junk email", "mail caught by the spam filter", "spam messages",
             "the bulk mail folder", "the spam box"],
    "trash": ["the Trash", "the Trash folder", "my deleted emails", "the bin", "emails I deleted", "deleted messages",
              "the recycle bin", "the wastebasket", "trashed mail", "what I threw away", "the deleted items folder",
              "the trash can", "recently deleted mail", "the garbage folder", "the emails I binned"],
}


@register
class OpenFolder(Family):
    """Eight sidebar links (the Inbox is where every episode starts): the small-target task of GoMail."""

    name, site, steps = "gomail.folder", "gomail", "1"
    description = "open a mailbox folder in the sidebar (Starred, Snoozed, Sent, Drafts, Scheduled, All Mail, Spam, Trash)"

    def space(self):
        return [{"folder": f, "ref": r} for f, refs in FOLDER_REFS.items() for r in refs]

    def goal(self, p, rng):
        return rng.choice(["Show me {r}.", "Go to {r}.", "I want to see {r}.", "Take me to {r}."]).format(r=p["ref"])

    def check(self, f, p):
        path = pathname(f)
        want = f"/{p['folder']}"
        return [Check("folder shown", path == want, f"shown {path!r}, want {want!r}"), untouched_except(f, set())]


@register
class OpenEmail(Family):
    name, site, steps = "gomail.open", "gomail", "1"
    description = "open an email of the Inbox's first page, named by subject, sender or day"

    def space(self):
        return _email_params(PAGE1)

    def goal(self, p, rng):
        return rng.choice(["Open {r}.", "Show me {r}.", "I want to read {r}.", "Open up {r}, please."]).format(
            r=ref_text(p["id"], p["by"], rng))

    def check(self, f, p):
        eid, path = p["id"], pathname(f)
        checks = [Check("email open", path == f"/email/{eid}", f"shown {path!r}, want /email/{eid}")]
        if not _EMAILS[eid]["isRead"]:
            checks.append(Check("marked read", updates(f).get(eid, {}).get("isRead") is True))
        return checks + [untouched_except(f, set())]


@register
class StarEmail(Family):
    name, site, steps = "gomail.star", "gomail", "1"
    description = "star (or unstar) an email of the Inbox's first page"

    def space(self):
        return _email_params(PAGE1)

    def goal(self, p, rng):
        r = ref_text(p["id"], p["by"], rng)
        if _EMAILS[p["id"]]["starred"]:
            return rng.choice(["Unstar {r}.", "Remove the star from {r}.", "Take the star off {r}."]).format(r=r)
        return rng.choice(["Star {r}.", "Add a star to {r}.", "Mark {r} with a star."]).format(r=r)

    def check(self, f, p):
        eid, want = p["id"], not _EMAILS[p["id"]]["starred"]
        got = updates(f).get(eid, {}).get("starred")
        return [Check("starred" if want else "unstarred", got is want, f"starred -> {got!r}"),
                untouched_except(f, {eid}),
                Check("only that email", set(updates(f).get(eid, {})) <= {"id", "starred", "isRead"})]


# ---------------------------------------------------------------- a few steps
@register
class TrashEmail(Family):
    name, site, steps = "gomail.trash", "gomail", "2-4"
    description = "delete (move to Trash) one email of the Inbox's first page"

    def space(self):
        return _email_params(PAGE1)

    def goal(self, p, rng):
        return rng.choice(["Delete {r}.", "Move {r} to the trash.", "Get rid of {r}.", "Trash {r}."]).format(
            r=ref_text(p["id"], p["by"], rng))

    def check(self, f, p):
        eid = p["id"]
        u = updates(f).get(eid, {})
        return [Check("moved to Trash", u.get("trash") is True, f"changes: {u}"),
                Check("only moved", set(u) <= {"id", "trash", "isRead"}, f"changes: {u}"),
                untouched_except(f, {eid})]


_TOPICS = ["Receipts", "Travel", "Invoices", "Projects", "Meetings", "Finance", "Clients", "Newsletters",
           "Notifications", "Family", "Personal", "Work", "Banking", "Security", "Social", "Shopping", "Audit",
           "Budget", "Contracts", "Support", "Alerts", "Team", "Events", "Photos", "Housing", "Recruiting",
           "Follow up", "Read later", "Urgent", "Waiting", "Q3 Budget", "Quarterly Planning", "Conference Travel",
           "Offsite 2024", "Lease", "Work Permit", "Project Timeline", "Client Proposals", "Sales Pipeline",
           "Expense Reports", "Support Tickets", "Bank Alerts", "Order Confirmations", "Design Reviews",
           "Onboarding", "Audit Files", "Team Dinner", "Security Alerts", "Subscriptions", "Marketing Launch",
           "Taxes", "Job Search"]
_ORGS = ["GitHub", "LinkedIn", "Slack", "Amazon", "Zendesk", "Acme", "Globex", "Chase", "Initech", "Google",
         "Umbrella", "Facebook", "Hooli", "Vandelay", "Stark", "Wayne", "Cyberdyne", "Soylent", "Zoom", "Trello",
         "Asana", "Capital One", "Dropbox", "Uber", "Spotify", "Netflix", "Pinterest", "Bank of America"]


LABEL_FIELD = "Please enter a new label name:"  # the new-label dialog's text field
BODY_FIELD = "Message Body"  # the compose window's and the reply box's body


@register
class CreateLabel(Family):
    """REAL's gomail-16 with other names: topics, the companies and the people of the mailbox."""

    name, site, steps = "gomail.label", "gomail", "2-4"
    description = "create a new label with a given name"

    def space(self):
        out: dict[str, str] = {}
        taken = {lb["label"].lower() for lb in _SEED["settings"]["customLabels"]}  # the mailbox's own labels
        for n in _TOPICS + _ORGS + [c["name"] for c in PEOPLE]:
            if n.lower() not in taken:
                out.setdefault(n.lower(), n)  # label names are unique regardless of case
        return [{"label": n} for n in out.values()]

    def goal(self, p, rng):
        return rng.choice(['Create a label called "{x}".', 'Make a new label named "{x}".',
                           'Add a label "{x}" to my mailbox.', 'I need a new label: "{x}".']).format(x=p["label"])

    def check(self, f, p):
        node = f.section("added", "settings", "customLabels") or {}
        made = [v.get("label") for v in (node.values() if isinstance(node, dict) else node) if isinstance(v, dict)]
        return [Check("label created", [norm(m) for m in made] == [norm(p["label"])], f"created {made}"),
                untouched_except(f, set())]

    def subgoals(self, f, p, page):
        done = self.check(f, p)[0].passed
        typed = field_value(page, LABEL_FIELD)
        return [Check("label dialog open", done or typed is not None),
                Check("label name typed", done or norm(typed) == norm(p["label"]), f"field holds {typed!r}")]

    def typed(self, p):
        return (p["label"],)


REPLIES = ["Sounds good, thanks!", "I will get back to you tomorrow.", "Count me in.", "Thanks, I'll take a look.",
           "Can we talk about this on Monday?", "Got it, thank you!", "Please send me more details.",
           "I'm out today, let's catch up next week."]


@register
class Reply(Family):
    name, site, steps = "gomail.reply", "gomail", "2-4"
    description = "reply to a person's email (Inbox, first page) with a given message"

    def space(self):
        ids = [i for i in PAGE1 if _EMAILS[i]["from"].endswith("@example.com")]
        return [{"id": i, "message": m} for i in ids for m in REPLIES]

    def goal(self, p, rng):
        e = _EMAILS[p["id"]]
        r = rng.choice([f"{e['name']}'s email \"{e['subject']}\"", f"the email \"{e['subject']}\" from {e['name']}"])
        return rng.choice(['Reply to {r} saying "{m}"', 'Answer {r} with: "{m}"',
                           'Send a reply to {r}: "{m}"']).format(r=r, m=p["message"])

    def check(self, f, p):
        e = _EMAILS[p["id"]]
        sent = sent_emails(f)
        r = sent[0] if len(sent) == 1 else {}
        return [Check("one email sent", len(sent) == 1, f"{len(sent)} sent"),
                Check("is a reply", r.get("isReply") is True and r.get("inReplyTo", p["id"]) == p["id"]),
                Check("to the sender", _addr_list(r.get("to")) == [e["from"]] and not r.get("cc") and not r.get("bcc"),
                      f"to {r.get('to')}"),
                Check("message", _contains(_body(r), p["message"]), f"body {_body(r)[:80]!r}"),
                untouched_except(f, set(), new_mail=True)]

    def subgoals(self, f, p, page):
        sent = bool(sent_emails(f))
        body = field_value(page, BODY_FIELD)
        return [Check("reply box open", sent or body is not None),
                Check("message typed", sent or _contains(_plain(body or ""), p["message"]), f"body holds {body!r}")]

    def dead_end(self, f, p):
        return bool(sent_emails(f))  # a reply sent (its checks failing, or this is not asked)

    def typed(self, p):
        return (p["message"],)


# ---------------------------------------------------------------- REAL-like
MESSAGES = [  # (subject, what the body must say)
    ("Quick question", "Do you have a minute to talk today?"),
    ("Meeting tomorrow", "Can we move our meeting to 3 PM?"),
    ("Project update", "The project is on track for Friday."),
    ("Lunch next week", "Are you free for lunch next Tuesday?"),
    ("Budget numbers", "Please send me the latest budget numbers."),
    ("Travel plans", "My flight lands at 6 PM on Sunday."),
    ("Contract draft", "I attached the contract draft for review."),
    ("Follow-up", "Just following up on my last email."),
    ("Team offsite", "The team offsite is confirmed for August 9."),
    ("Invoice", "The invoice was paid this morning."),
    ("Weekend plans", "Want to go hiking on Saturday?"),
    ("Thank you", "Thanks again for your help this week."),
]


@register
class SendEmail(Family):
    """REAL's most common GoMail goal (gomail-4, 7, 8, 9, 12, 13, 15, 18, 19): compose, address, write, send."""

    name, site, steps = "gomail.send", "gomail", "5+"
    description = "send a person an email with a given subject and message"

    def space(self):
        return [{"to": c["email"], "name": c["name"], "subject": s, "body": b} for c in PEOPLE for s, b in MESSAGES]

    def goal(self, p, rng):
        return rng.choice(['Send {n} an email with the subject "{s}" saying "{b}"',
                           'Email {n} ({to}) with subject "{s}" and the message "{b}"',
                           'Write an email to {n} titled "{s}": "{b}"']).format(
            n=p["name"], to=p["to"], s=p["subject"], b=p["body"])

    def check(self, f, p):
        sent = sent_emails(f)
        e = sent[0] if len(sent) == 1 else {}
        return [Check("one email sent", len(sent) == 1, f"{len(sent)} sent"),
                Check("recipient", _addr_list(e.get("to")) == [p["to"]], f"to {e.get('to')}"),
                Check("no cc/bcc", not e.get("cc") and not e.get("bcc")),
                Check("subject", norm(e.get("subject")) == norm(p["subject"]), f"subject {e.get('subject')!r}"),
                Check("message", _contains(_body(e), p["body"]), f"body {_body(e)[:80]!r}"),
                untouched_except(f, set(), new_mail=True)]

    def subgoals(self, f, p, page):
        sent = sent_emails(f)
        e = sent[0] if len(sent) == 1 else None
        subject, body = field_value(page, "Subject"), field_value(page, BODY_FIELD)
        chips = {el.name for el in getattr(page, "elements", {}).values() if el.role == "button"
                 and (el.name or "").startswith("Remove ")}  # a recipient chip's remove button: "Remove Kevin Moore"
        chosen = (e is not None and _addr_list(e.get("to")) == [p["to"]]) or chips == {f"Remove {p['name']}"}
        typing = norm(field_value(page, "To recipients"))
        return [Check("compose open", bool(sent) or subject is not None),
                # the name being typed into To (its suggestion then picked) pays on its own: the two steps of
                # choosing a recipient are credited one at a time, as each field is
                Check("recipient typed", chosen or (len(typing) >= 2 and any(
                    w.startswith(typing) for w in (*norm(p["name"]).split(), norm(p["name"]), p["to"]))),
                      f"To holds {typing!r}"),
                Check("recipient chosen", chosen, f"chips {sorted(chips)}"),
                Check("subject typed", (e is not None and norm(e.get("subject")) == norm(p["subject"]))
                      or norm(subject) == norm(p["subject"]), f"subject field holds {subject!r}"),
                Check("message typed", (e is not None and _contains(_body(e), p["body"]))
                      or _contains(_plain(body or ""), p["body"]), f"body holds {body!r}")]

    def dead_end(self, f, p):
        return bool(sent_emails(f))  # an email sent (asked only when the checks fail): it cannot be unsent

    def typed(self, p):
        return (p["subject"], p["body"], p["name"].split()[0])


# ---------------------------------------------------------------- gomail.send's rungs
class _SendFrom(SendEmail):
    """``gomail.send``'s goal, grader and progress, from a later stage: the episode opens GoMail's compose window
    with the first fields already filled (Gmail's own compose link, ``?view=cm&to=..&su=..``), so the last stages
    can be learned before the whole send is. A ladder climbs these down to ``gomail.send`` (configs/ladder.yaml):
    the page at each stage of a whole send is the page a rung starts on, under the same goal."""

    filled: ClassVar[tuple[str, ...]] = ()  # of "to", "subject", "body"
    typing: ClassVar[bool] = False  # To holds the recipient's first name as typed, its suggestions open
    closed: ClassVar[bool] = False  # the filled window waits on the inbox for Compose (REAL-local's ?hidden=1)
    shares = "gomail.send"  # instance n is gomail.send's instance n: its held-out ones stay held out on every rung

    def start(self, p):
        q = {"view": "cm"}
        if "to" in self.filled:
            q["to"] = p["to"]
        if "subject" in self.filled:
            q["su"] = p["subject"]
        if "body" in self.filled:
            q["body"] = p["body"]
        if self.typing:
            q["typing"] = p["name"].split()[0]
        if self.closed:
            q["hidden"] = "1"
        return "/?" + urlencode(q)

    def typed(self, p):
        return tuple(v for k, v in (("subject", p["subject"]), ("body", p["body"]),
                                    ("to", p["name"].split()[0])) if k not in self.filled and not
                     (k == "to" and self.typing))


@register
class SendClick(_SendFrom):
    name, steps, filled = "gomail.send_click", "1", ("to", "subject", "body")
    description = "gomail.send's last step: the message is written, send it"


@register
class SendCompose(_SendFrom):
    """gomail.send's first step with its last: the episode starts on the inbox, where the whole send starts, and
    Compose opens the message already written. Measured: every evaluated gomail.send episode of a ladder that had
    learned the rungs up to send_address stalled at this step (filling Search mail; the rungs below all start with
    the compose window open), so clicking Compose is learned early, on a rung of its own."""

    name, steps, filled, closed = "gomail.send_compose", "2-4", ("to", "subject", "body"), True
    description = "gomail.send with the message written but its window closed: open it (Compose), send"


@register
class SendBody(_SendFrom):
    name, steps, filled = "gomail.send_body", "2-4", ("to", "subject")
    description = "gomail.send from an addressed message with its subject: write the message, send it"


@register
class SendTitle(_SendFrom):
    name, steps, filled = "gomail.send_title", "2-4", ("to", "body")
    description = "gomail.send from an addressed message with its message written: the subject, send"


@register
class SendPick(_SendFrom):
    """send_to's second half alone: the name is typed (REAL-local's ``?typing=``), only its suggestion to pick and
    Send, so that picking is learned before typing must come first (measured: send_to, typing and picking at once,
    stalled at 0-12% for 2,000+ CPU-s on three seeds while every rung below ends on Send)."""

    name, steps, filled, typing = "gomail.send_pick", "2-4", ("subject", "body"), True
    description = "gomail.send with the recipient's name typed into To: pick its suggestion, send"


@register
class SendTo(_SendFrom):
    name, steps, filled = "gomail.send_to", "2-4", ("subject", "body")
    description = "gomail.send from a written message with its subject: the recipient (name, suggestion), send"


@register
class SendSubject(_SendFrom):
    name, steps, filled = "gomail.send_subject", "2-4", ("to",)
    description = "gomail.send from an addressed message: subject, message, send"


@register
class SendAddress(_SendFrom):
    name, steps, filled = "gomail.send_address", "5+", ()
    description = "gomail.send from an open, empty compose window: address, subject, message, send"
