"""GoMail's mailbox as REAL's v2 eval scripts expect it: REAL's 56 emails with the ids, dates and senders they
hard-code (ids 1-56, exactly as on REAL), then several hundred older ones generated from a fixed seed (``corpus``:
ids 57 on, all older than the Inbox's first page, none touching what the scripts count).

Fixed facts the scripts rely on (agisdk 0.3.5 ``eval_gomail_*.py``): today is 2024-07-18; John Doe's email is "1";
emails received today are 46, 47, 48 (48 is Uber's); no-reply senders are 3, 14, 34, 40, 50; starred are 2, 6, 10,
14, 16, 21, 26, 28, 31, 37, 47, 49, 53; notification senders are 3, 4, 5, 6, 17, 36, 38, 56; 52..56 are older than two
months; of these 56 the inbox holds 54 (31 and 51 are sent mail), 17 of them unread, and the Inbox's first page (its 50
newest) is exactly these 50; four emails mention Amazon, three
"alerts", thirteen carry "Support" in their subject (gomail-23 expects 10..30 deletions). ``tests/sites`` checks
every one of these against the search the site itself runs, over the whole generated mailbox.
"""

from __future__ import annotations

import copy
from typing import Any

from real_local.gomail import corpus

TODAY = "2024-07-18"
USER = {"name": "Sam Taylor", "email": "sam.taylor@example.com"}

# id: (sender name, sender address, subject, body paragraphs, date, time, unread, starred)
# Sent mail (from the user) has sender name None and the recipient as the address.
_E = tuple[str | None, str, str, tuple[str, ...], str, str, bool, bool]
_RAW: dict[str, _E] = {
    "1": ("John Doe", "john.doe@example.com", "Quarterly planning meeting",
          ("Hi Sam,", ("Can we schedule the quarterly planning meeting for next week? Let me know which day works "
                       "best for you."), "Thanks,", "John"), "2024-06-02", "09:14", False, False),
    "2": ("Ashley Campbell", "ashley.campbell@example.com", "Team dinner next Friday",
          ("Hey Sam!", "We're organizing a team dinner next Friday at 7 PM at Olive Garden. I hope you can make it.",
           "Ashley"), "2024-06-03", "18:02", False, True),
    "3": ("GitHub", "no-reply@github.com", "[GitHub] Your weekly notification digest",
          ("You have 5 unread notifications in halo-agent/halo.", "View them on GitHub."),
          "2024-06-04", "07:30", False, False),
    "4": ("LinkedIn", "notifications@linkedin.com", "You appeared in 12 searches this week",
          ("See who's looking at your profile and grow your network.",), "2024-06-05", "11:45", False, False),
    "5": ("Slack", "notifications@slack.com", "New messages in #general",
          ("You have 4 new messages in #general from Emily Clark and 2 others.",),
          "2024-06-06", "16:20", True, False),
    "6": ("Google Calendar", "calendar-notification@google.com", "Notification: Design review @ Thu Jun 13",
          ("Design review", "When: Thursday Jun 13, 2pm - 3pm (PDT)", "Where: Room 4B"),
          "2024-06-07", "08:00", False, True),
    "7": ("Amazon.com", "shipment-tracking@amazon.com", "Your Amazon order #112-4839201 has shipped",
          ("Your package with Wireless Mouse is on its way.", "Track your package in Your Orders."),
          "2024-06-08", "10:12", False, False),
    "8": ("Zendesk Support", "support@zendesk.example.com", "Support ticket #4821: Login issue resolved",
          ("Your request #4821 has been solved. Reply to this email to reopen it.",),
          "2024-06-09", "13:05", False, False),
    "9": ("Acme Support", "support@acme.example.com", "Support request received: billing question",
          ("Thanks for contacting Acme. A member of our team will get back to you within one business day.",),
          "2024-06-10", "09:40", False, False),
    "10": ("Kevin Moore", "kevin.moore@example.com", "Project timeline draft",
           ("Hi Sam,", "Attached is the first draft of the project timeline. Comments welcome.", "Kevin"),
           "2024-06-11", "15:33", False, True),
    "11": ("Globex Customer Support", "support@globex.example.com", "Customer Support: your case #5521 was updated",
           ("An agent added a comment to your case #5521.",), "2024-06-12", "12:18", False, False),
    "12": ("Chase", "alerts@chase.example.com", "Account alerts: large purchase detected",
           ("A purchase of $1,240.00 was made with your card ending in 4421.",),
           "2024-06-13", "21:07", True, False),
    "13": ("Initech Support Team", "support@initech.example.com", "Support Team: scheduled maintenance window",
           ("We will perform maintenance on Saturday from 1 AM to 3 AM PT.",), "2024-06-14", "17:55", False, False),
    "14": ("Google", "no-reply@accounts.google.com", "Security check: new sign-in on Mac",
           ("We noticed a new sign-in to your Google Account on a Mac device.",
            "If this was you, you don't need to do anything."), "2024-06-15", "06:48", False, True),
    "15": ("Umbrella Support", "support@umbrella.example.com", "Re: Support inquiry about API limits",
           ("The default API limit is 1,000 requests per minute. We can raise it on request.",),
           "2024-06-16", "10:30", False, False),
    "16": ("Barbara Thomas", "barbara.thomas@example.com", "Budget review for Q3",
           ("Hi Sam,", "Could you send me the latest numbers before our budget review?", "Barbara"),
           "2024-06-17", "14:02", False, True),
    "17": ("Facebook", "notification@facebookmail.com", "You have 3 new friend suggestions",
           ("People you may know: Laura Chen, Peter Green and Nina Patel.",), "2024-06-18", "19:21", False, False),
    "18": ("Hooli Support", "support@hooli.example.com", "Support Digest: top articles this week",
           ("1. Resetting two-factor authentication", "2. Exporting your data"), "2024-06-19", "08:15", False,
           False),
    "19": ("Amazon.com", "auto-confirm@amazon.com", "Your Amazon.com order confirmation",
           ("Thank you for shopping with us. Your order of a Stainless Steel Water Bottle has been received.",),
           "2024-06-20", "20:44", False, False),
    "20": ("Vandelay Support", "support@vandelay.example.com", "Support case escalated: priority customer",
           ("Case #7730 was escalated to tier 2 because the customer is on the priority plan.",),
           "2024-06-21", "11:11", True, False),
    "21": ("Danielle Brooks", "danielle.brooks@example.com", "System update rollout plan",
           ("Hi Sam,", "Please let me know as soon as the new system update goes live so I can tell my team.",
            "Danielle"), "2024-06-22", "09:58", False, True),
    "22": ("Help Center Support", "support@helpcenter.example.com", "Help Center Support: how to reset your password",
           ("Follow the steps in this article to reset your password.",), "2024-06-23", "13:37", False, False),
    "23": ("Stark Support", "support@stark.example.com", "Support survey: tell us how we did",
           ("Please rate your recent conversation with our team.",), "2024-06-24", "16:40", False, False),
    "24": ("Bank of America", "alerts@bankofamerica.example.com", "Balance alerts: your balance is below $500",
           ("Your checking account balance is $432.18.",), "2024-06-25", "07:05", True, False),
    "25": ("Wayne Support", "support@wayne.example.com", "Support ticket #4877 closed",
           ("Your ticket #4877 has been closed. We hope we were able to help.",), "2024-06-26", "10:26", False,
           False),
    "26": ("Michael Brown", "michael.brown@example.com", "Photos from the offsite",
           ("Here are the photos from last week's offsite. Great times!",), "2024-06-27", "18:30", False, True),
    "27": ("Globex Support", "support@globex.example.com", "New Support request from Globex",
           ("Globex opened a new request: data export is failing for large accounts.",),
           "2024-06-28", "12:52", True, False),
    "28": ("Emily Clark", "emily.clark@example.com", "Conference travel itinerary",
           ("Flights and hotel for the Denver conference are booked. Itinerary below.",),
           "2024-06-29", "15:09", False, True),
    "29": ("Amazon Prime", "prime@amazon.com", "Amazon Prime Day deals start now",
           ("Shop early deals on electronics, home and kitchen.",), "2024-06-30", "06:00", False, False),
    "30": ("Cyberdyne Support", "support@cyberdyne.example.com", "Support SLA report - June",
           ("First response time: 2h 14m. Resolution time: 1d 3h.",), "2024-07-01", "09:00", True, False),
    "31": (None, "lisa.wong@example.com", "Draft agenda for Monday",
           ("Hi Lisa,", "Here is my draft agenda for Monday's workshop.", "Sam"), "2024-07-02", "17:44", False, True),
    "32": ("Soylent Support", "support@soylent.example.com", "Weekly Support metrics",
           ("Tickets opened: 42. Tickets solved: 45.",), "2024-07-03", "08:31", False, False),
    "33": ("Jane Smith", "jane.smith@example.com", "Can you review the client proposal?",
           ("Hi Sam,", "Could you take a look at the client proposal before Friday?", "Thanks, Jane"),
           "2024-07-04", "10:15", True, False),
    "34": ("Zoom", "no-reply@zoom.us", "Cloud recording available: Weekly sync",
           ("Your cloud recording of Weekly sync is now available.",), "2024-07-05", "14:27", False, False),
    "35": ("Charles Davis", "charles.davis@example.com", "Sales pipeline update",
           ("Hi Sam,", "The pipeline looks healthy this quarter. I'll share details at the next meeting.",
            "Charles"), "2024-07-06", "11:03", True, False),
    "36": ("Trello", "notifications@trello.com", "Card moved: Update onboarding docs",
           ("Emily Clark moved the card Update onboarding docs to Done.",), "2024-07-07", "16:50", True, False),
    "37": ("David Wilson", "david.wilson@example.com", "Lease renewal documents",
           ("Hi Sam,", "The lease renewal documents are ready for your signature.", "David"),
           "2024-07-08", "09:22", False, True),
    "38": ("Asana", "notification@asana.com", "Tasks due this week",
           ("You have 3 tasks due this week in Marketing Launch.",), "2024-07-09", "07:45", False, False),
    "39": ("Capital One", "alerts@capitalone.example.com", "Payment alerts: payment received",
           ("We received your payment of $250.00. Thank you!",), "2024-07-10", "13:13", True, False),
    "40": ("Dropbox", "no-reply@dropbox.com", "Someone shared a folder with you",
           ("Michael Brown shared the folder Offsite 2024 with you.",), "2024-07-11", "19:36", True, False),
    "41": ("Carol Adams", "carol.adams@example.com", "Meeting agenda for Thursday",
           ("Hi Sam,", "Here's the agenda for Thursday's meeting at 9:00 AM.", "Carol"),
           "2024-07-12", "08:47", False, False),
    "42": ("Brian King", "brian.king@example.com", "Thanks for joining today's meeting",
           ("Hi Sam,", "Thanks for joining the meeting today. I'll follow up with next steps.", "Brian"),
           "2024-07-13", "15:58", True, False),
    "43": ("Amazon Web Services", "aws-billing@amazon.com", "Your AWS invoice is available",
           ("Your invoice for June 2024 is now available in the Billing console.",),
           "2024-07-14", "05:30", True, False),
    "44": ("Angela White", "angela.white@example.com", "Out of office next month",
           ("Hi Sam,", "Heads up: I'll be out of office for part of next month. I'll share the exact dates soon.",
            "Angela"), "2024-07-15", "10:40", True, False),
    "45": ("Alexa Richardson", "alexa.richardson@example.com", "Files for the audit",
           ("Hi Sam,", "I'm still waiting on the files for the audit from the finance team.", "Alexa"),
           "2024-07-17", "16:05", True, False),
    "46": ("Sarah Johnson", "sarah.johnson@example.com", "Lunch today?",
           ("Hey Sam, want to grab lunch at noon?", "Sarah"), TODAY, "10:41", True, False),
    "47": ("Robert Miller", "robert.miller@example.com", "Contract signed!",
           ("Great news: the client signed the contract this morning.", "Robert"), TODAY, "07:30", False, True),
    "48": ("Uber Receipts", "uber.receipts@uber.com", "Your Thursday morning trip with Uber",
           ("Thanks for riding, Sam. Total: $18.42.",), TODAY, "08:05", True, False),
    "49": ("Nina Patel", "nina.patel@example.com", "Welcome to the team!",
           ("Hi Sam,", "Welcome aboard! Let me know if you need anything during your first weeks.", "Nina"),
           "2024-05-24", "09:00", False, True),
    "50": ("Spotify", "no-reply@spotify.com", "Your May playlist is ready",
           ("We made a playlist of the songs you played most in May.",), "2024-05-22", "12:00", False, False),
    "51": (None, "tom.harris@example.com", "Invoice #2024-118",
           ("Hi Tom,", "Please find invoice #2024-118 for May.", "Sam"), "2024-05-20", "14:10", False, False),
    "52": ("Tom Harris", "tom.harris@example.com", "Question about an old invoice",
           ("Hi Sam,", "Do you have a copy of invoice #2023-342?", "Tom"), "2024-04-28", "11:22", False, False),
    "53": ("Laura Chen", "laura.chen@example.com", "Happy birthday!",
           ("Happy birthday, Sam! Hope you have a wonderful day.", "Laura"), "2024-04-15", "08:08", False, True),
    "54": ("Netflix", "info@netflix.com", "New on Netflix in March",
           ("New movies and shows picked for you.",), "2024-03-30", "20:00", False, False),
    "55": ("Peter Green", "peter.green@example.com", "Apartment viewing",
           ("Hi Sam,", "The apartment viewing is confirmed for Saturday at 10 AM.", "Peter"),
           "2024-03-12", "18:25", False, False),
    "56": ("Pinterest", "notifications@pinterest.com", "Pins picked for you",
           ("Ideas for your Home Office board.",), "2024-02-20", "09:30", False, False),
}


def _html(paragraphs: tuple[str, ...]) -> str:
    from html import escape

    return "".join(f"<p>{escape(p)}</p>" for p in paragraphs)


def email_record(eid: str, raw: _E) -> dict[str, Any]:
    name, addr, subject, body, date, time, unread, starred = raw
    sent = name is None
    return {
        "id": eid, "from": USER["email"] if sent else addr, "name": USER["name"] if sent else name,
        "to": [addr] if sent else [USER["email"]], "cc": [], "bcc": [], "subject": subject,
        "content": _html(body), "date": date, "time": time, "sent": sent, "draft": False, "isRead": not unread,
        "starred": starred, "trash": False, "archived": False, "spam": False, "isReply": False, "snoozed": False,
        "scheduled": False, "snoozeUntil": None, "replies": [], "labels": [],
    }


def contacts() -> list[dict[str, str]]:
    """Everyone the user has mail with (compose autocompletes from this), sorted by name."""
    seen: dict[str, str] = {}
    for name, addr, *_ in _RAW.values():
        if name is not None:
            seen.setdefault(addr, name)
    for addr in ("lisa.wong@example.com",):
        seen.setdefault(addr, "Lisa Wong")
    for name, addr in corpus.PEOPLE:
        seen.setdefault(addr, name)
    return sorted(({"name": n, "email": a} for a, n in seen.items()), key=lambda c: c["name"].lower())


REAL_EMAILS = {eid: email_record(eid, raw) for eid, raw in _RAW.items()}
GENERATED = corpus.generate(USER["email"], USER["name"], start_id=len(_RAW) + 1)
corpus.check(GENERATED, REAL_EMAILS)

_SEED: dict[str, Any] = {
    "email": {"emails": {**REAL_EMAILS, **GENERATED}},
    "ui": {"snackbar": {"message": "", "open": False}, "searchInputValue": ""},
    "filter": {"searchData": {"hasWords": "", "from": "", "to": "", "subject": ""}, "searchResults": []},
    "settings": {"customLabels": [{"id": str(i), "label": name} for i, name in enumerate(corpus.LABELS, 1)]},
    "user": dict(USER),
    "router": {"location": {"pathname": "/"}},  # the page last shown (REAL's apps keep react-router's in the store)
}


def _copy_email(e: dict[str, Any]) -> dict[str, Any]:
    """An email's deep copy: its values are strings, booleans, None or lists of strings (``replies`` is empty)."""
    return {k: v[:] if isinstance(v, list) else v for k, v in e.items()}


def seed(task_id: str | None = None) -> dict[str, Any]:
    """The initial state for any GoMail task (REAL uses one mailbox for all of them); a fresh copy each call (the
    emails copied field by field: ``copy.deepcopy`` of 500 emails took 11 ms of every /config)."""
    out = copy.deepcopy({k: v for k, v in _SEED.items() if k != "email"})
    out["email"] = {"emails": {i: _copy_email(e) for i, e in _SEED["email"]["emails"].items()}}
    return {k: out[k] for k in _SEED}  # the seed's key order
