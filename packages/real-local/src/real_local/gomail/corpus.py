"""GoMail's mailbox at realistic scale: several hundred older emails generated deterministically from a fixed seed.

REAL's 56 seeded emails (``seed._RAW``) stay exactly as they are; these come after them (ids 57 on) and are all
older than the oldest email of the Inbox's first page (2024-04-28), so the first page, the Sent and Starred folders
and every "the email from X" a task names look as they do on REAL. What they add: newsletters and services that mail
every week, bills, clients' and friends' conversations with "Re:" threads and the user's own sent answers, a few
archived, spam and snoozed emails, two drafts and a scheduled message, three labels, and unread mail further down, from September 2023
on: the Inbox and All Mail page (50 a page), and searches such as "jira" or "invoice" return more than a page.

What REAL's scripts count stays as REAL has it, so no generated email:
- mentions amazon, uber, notification(s), alerts, support, a no-reply address or the word "reply" (gomail-1, 2, 21,
  23, 26 count exactly those; "no reply" is searched word by word), or "doe" (gomail-24's "John Doe");
- is starred (gomail-5 wants exactly the 13 starred ids trashed) or dated today (gomail-17);
- comes from a sender name of the seed (the families name an email by its sender where that is unique), or has a
  seed email's subject, or a day of the month that an email of the first page has (the families' "on June 5").
``_check`` enforces these when the module loads; ``tests/sites/test_gomail_scale.py`` pins them through search.
"""

from __future__ import annotations

import random
import re
from datetime import date, datetime, timedelta
from html import escape
from typing import Any

SEED = 16  # issue 16
FIRST_DAY, LAST_DAY = date(2023, 9, 1), date(2024, 4, 27)
FORBIDDEN = ("amazon", "uber", "notification", "noreply", "no-reply", "reply", "alert", "support", "doe")
LABELS = ("Bills", "Book Club", "Home")

# People the user has mail with (none shares a first name with the seed's people, so typing a first name in
# compose still suggests the seed's person first).
CLIENTS = [("Priya Raman", "priya.raman@northwind.example.com", "Northwind"),
           ("Marcus Oyelaran", "marcus.oyelaran@northwind.example.com", "Northwind"),
           ("Hannah Weiss", "hannah.weiss@contoso.example.com", "Contoso"),
           ("Wei Zhang", "wei.zhang@contoso.example.com", "Contoso"),
           ("Gabriel Rossi", "gabriel.rossi@fabrikam.example.com", "Fabrikam"),
           ("Ingrid Olsen", "ingrid.olsen@fabrikam.example.com", "Fabrikam"),
           ("Kenji Watanabe", "kenji.watanabe@tailspin.example.com", "Tailspin"),
           ("Olivia Grant", "olivia.grant@tailspin.example.com", "Tailspin")]
FRIENDS = [("Chloe Dubois", "chloe.dubois@example.net"), ("Rafael Costa", "rafael.costa@example.net"),
           ("Yuki Tanaka", "yuki.tanaka@example.net"), ("Owen Fletcher", "owen.fletcher@example.net"),
           ("Zara Ahmed", "zara.ahmed@example.net"), ("Lucas Becker", "lucas.becker@example.net"),
           ("Maya Goldberg", "maya.goldberg@example.net"), ("Isaac Mensah", "isaac.mensah@example.net")]
BOOK_CLUB = ("Ruth Abernathy", "ruth.abernathy@example.net")
HOME = [("Diego Morales", "diego@morales-renovations.example.org"),
        ("Fatima Haddad", "fatima.haddad@maplecourt-hoa.example.org"),
        ("Victor Nguyen", "victor.nguyen@example.org")]
PEOPLE = [(n, a) for n, a, _ in CLIENTS] + FRIENDS + [BOOK_CLUB] + HOME

_PROJECTS = ["data migration", "Q4 rollout", "pilot program", "dashboard redesign", "API integration",
             "security review", "vendor onboarding", "analytics rollout", "training workshop", "renewal"]
_CLIENT_TOPICS = [
    ("Kickoff call for the {p}", ["Thanks for setting this up. Could we do the kickoff call for the {p} on {day}?",
                                  "I'll bring {colleague} from our side; she owns the timeline."]),
    ("Statement of work: {p}", [("Attached is the statement of work for the {p}. The scope matches what we "
                                 "discussed, with two extra review rounds."), "Let me know if legal needs changes."]),
    ("Invoice question ({co})", [("Our finance team has a question about the last invoice for the {p}: the hours "
                                  "for {month} look higher than the estimate."), "Could you send a breakdown?"]),
    ("{co} {p}: status update", ["Quick status on the {p}: we're about {pct}% through and on schedule for {day}.",
                                 "The open question is still the data export format."]),
    ("Quarterly business review with {co}", [("Could we put the quarterly business review on the calendar for "
                                              "{day}? An hour should be enough."), "I'll share the agenda beforehand."]),
    ("Feedback on the {p} draft", [("We went through the draft for the {p}. Overall it looks great; a few comments "
                                    "are in the document."), "The biggest one is about the rollout order."]),
]
_CLIENT_ANSWERS = ["Thanks, {first}. {day} works for me; I'll send an invite.",
                   "Got it, {first}. I'll check with finance and get back to you by {day}.",
                   "Thanks for the update, {first}. Looks good on our side.",
                   "Sounds good, {first}. I'll go through the comments this week."]
_CLIENT_FOLLOWUPS = ["Perfect, thank you!", "Great, talk then.", "Thanks Sam, much appreciated.",
                     "Sounds good. I'll let the team know."]
_FRIEND_TOPICS = [
    ("Hiking on {day}?", ["Want to hike the ridge trail on {day}? Weather looks good.", "I can drive."]),
    ("Dinner at {place}", ["A few of us are going to {place} on {day}. Join us?", "Table is at 7."]),
    ("Photos from {event}", ["Finally sorted the photos from {event}. Link to the album is below.",
                             "My favourite is the one at the lake."]),
    ("Board game night", ["Board game night at my place on {day}! Bring a snack if you can.",
                          "We'll start around 6:30."]),
    ("Moving help", ["We're moving on {day}. Any chance you could help for a couple of hours in the morning?",
                     "Pizza and eternal gratitude included."]),
    ("Concert tickets", ["I have two extra tickets for the concert on {day}. Interested?",
                         "They're in the balcony, pretty good seats."]),
    ("Recipe you asked for", ["Here's the lentil soup recipe you asked about.",
                              "The secret is a little smoked paprika at the end."]),
]
_FRIEND_ANSWERS = ["I'm in! See you {day}.", "Sounds fun, count me in.", "Thanks {first}, these are great!",
                   "Wish I could, but I'm away that weekend. Next time!"]
_FRIEND_FOLLOWUPS = ["Yay! See you then.", "Great!", "No worries, next time then.", "Glad you like them!"]
_PLACES = ["Luigi's Trattoria", "the Thai place on 5th", "Harbor Grill", "Casa Verde", "the new ramen bar"]
_EVENTS = ["the lake trip", "Maya's wedding", "the camping weekend", "the ski trip", "the marathon"]
_BOOKS = ["The Overstory", "Klara and the Sun", "Project Hail Mary", "The Vanishing Half", "Circe",
          "Pachinko", "Educated", "Lessons in Chemistry"]
_HOME_TOPICS = [
    ("Kitchen renovation estimate", [("Attached is the estimate for the kitchen renovation: cabinets, counters "
                                      "and labor come to $18,400."), "We could start the second week of {month}."]),
    ("Bathroom tile samples", ["The tile samples came in. I left them on the porch.",
                               "Let me know which one you like by {day}."]),
    ("Maple Court HOA: annual meeting", ["The annual HOA meeting is on {day} at 7 PM in the clubhouse.",
                                         "On the agenda: the pool resurfacing and next year's budget."]),
    ("Maple Court HOA: parking reminder", ["A reminder that guest parking is limited to 48 hours.",
                                           "Thank you for keeping the lot clear for the snow plow."]),
    ("Fence repair", ["The storm knocked over part of the fence between our yards.",
                      "Want to split the repair? I got a quote for $640."]),
]

# (sender name, address, how many, label, subject templates, body templates)
_SERVICES: list[tuple[str, str, int, str | None, list[str], list[str]]] = [
    ("Morning Brew", "crew@morningbrew.com", 60, None,
     ["Markets rally as {co} beats estimates", "The week in tech: {topic}", "{co} stock jumps on {topic}",
      "Why everyone is talking about {topic}", "Your Monday briefing: {topic}"],
     ["Good morning. Here's what you need to know today.", "Markets: the S&P 500 closed up {pct2}%.",
      "Tech: {co} announced new plans for {topic}.", "Enjoy your coffee."]),
    ("Medium Daily Digest", "digest@medium.com", 34, None,
     ["{topic}: what I learned in {n} years", "The {topic} guide nobody told you about",
      "Stop doing this with {topic}", "{n} lessons from {topic}"],
     ["Today's highlights, picked for you.", "{topic}: what I learned in {n} years, by a staff engineer.",
      "Read more stories on Medium."]),
    ("Jira", "jira@halo-corp.atlassian.net", 56, None,
     ["[JIRA] (OPS-{ticket}) {task}", "[JIRA] (WEB-{ticket}) {task}", "[JIRA] (DATA-{ticket}) {task}"],
     ["{person} updated an issue.", "{task}", "Change By: {person}", "Status: {status}"]),
    ("The New York Times", "nytdirect@nytimes.com", 20, None,
     ["The Morning: {topic}", "Breaking News: {topic}", "Your weekend reads: {topic}"],
     ["Good morning. Today we look at {topic}.", "Plus: a recipe for the weekend."]),
    ("Duolingo", "hello@duolingo.com", 14, None,
     ["Your {n}-day streak is on the line!", "You're on fire! {n} days in a row", "Time for a quick Spanish lesson"],
     ["Keep your streak going with a quick 5-minute lesson.", "Your friends are practicing too."]),
    ("Venmo", "venmo@venmo.com", 16, "Bills",
     ["You paid {friend} ${amount}", "{friend} paid you ${amount}", "{friend} requested ${amount}"],
     ["{friend} - {what}", "Transfer complete. See your transactions in the app."]),
    ("PG&E", "billing@pge.com", 8, "Bills",
     ["Your PG&E energy statement is ready", "PG&E: your {month} bill is ready to view"],
     ["Your energy statement for {month} is ready. Amount due: ${amount}.", "Due date: {due}.",
      "AutoPay is on: we'll charge your account on the due date."]),
    ("Xfinity", "billing@xfinity.com", 8, "Bills",
     ["Your Xfinity bill is ready", "Your {month} Xfinity statement"],
     ["Your bill for {month} is ready. Amount due: ${amount}.", "Due date: {due}."]),
    ("City Water Utility", "billing@citywater.example.gov", 8, "Bills",
     ["Water bill for {month}", "Your water statement is available"],
     ["Your water bill for {month} is ${amount}.", "Usage: {n} hundred cubic feet.", "Due date: {due}."]),
    ("Strava", "hello@strava.com", 10, None,
     ["Your {month} running recap", "{friend} gave you kudos", "New segment record on Ridge Trail"],
     ["You ran {n} times in {month}. Nice work!", "See your full recap in the app."]),
    ("Goodreads", "mailer@goodreads.com", 6, "Book Club",
     ["New books from authors you follow", "Your {month} reading update"],
     ["Here are this month's picks based on your shelves: {book}.", "Happy reading!"]),
    ("Airbnb", "automated@airbnb.com", 6, None,
     ["Reservation confirmed for {city}", "Your trip to {city} is coming up", "Rate your stay in {city}"],
     ["Your reservation in {city} is confirmed. Check-in is after 3 PM.", "Have a great trip!"]),
    ("Delta Air Lines", "deltaairlines@t.delta.com", 6, None,
     ["Your flight to {city} is confirmed", "Check in for your flight to {city}", "Your receipt: trip to {city}"],
     ["Confirmation #{conf}.", "Flight DL{ticket} departs at 8:05 AM.", "Thank you for flying Delta."]),
    ("Etsy", "transaction@etsy.com", 8, None,
     ["Your Etsy order #{ticket}{n} has shipped", "Thanks for your Etsy order: {item}"],
     ["Your {item} is on its way.", "Estimated delivery: {due}."]),
    ("Coursera", "hello@coursera.org", 6, None,
     ["Week {n}: your course continues", "You're {pct}% through Machine Learning"],
     ["Keep going! Your next lesson takes about 20 minutes.", ("Learners who finish on time are 3x as likely "
                                                                "to earn a certificate.")]),
    ("Google Drive", "drive-shares@google.com", 10, None,
     ["{person} shared \"{doc}\" with you", "Document shared with you: \"{doc}\""],
     ["{person} shared a document with you: {doc}.", "Open it in Google Drive."]),
    ("Figma", "hello@figma.com", 5, None,
     ["{person} commented on \"{doc}\"", "What's new in Figma this month"],
     ["{person} left a comment: looks good, one question about spacing.", "Open the file in Figma."]),
]
_SPAM = [("Prize Center", "winner@prize-center.example.biz", "Congratulations! You've been selected",
          "Claim your $1,000 gift card today. Offer ends soon."),
         ("Crypto Gains Daily", "gains@cryptogains.example.biz", "Turn $250 into $5,000 this week",
          "Our members doubled their money. Join now."),
         ("Pharmacy Deals", "deals@rx-deals.example.biz", "Lowest prices on prescriptions",
          "No prescription needed. Ships worldwide."),
         ("Account Services", "security@acct-verify.example.biz", "Verify your account within 24 hours",
          "Your mailbox will be closed unless you verify your password today."),
         ("Lottery Office", "office@intl-lottery.example.biz", "You are a winner!",
          "Your email address won our international draw. Send your bank details to claim."),
         ("Dr. Wellness", "news@slim-fast-now.example.biz", "Lose 20 pounds in 2 weeks",
          "Doctors hate this one simple trick."),
         ("Royal Estate Lawyer", "barrister@estate-claims.example.biz", "Unclaimed inheritance of $4.5M",
          "A distant relative left you an inheritance. Kindly contact me."),
         ("Shipping Center", "parcel@track-parcel.example.biz", "Your parcel could not be delivered",
          "Pay the $1.99 redelivery fee to receive your parcel.")]

_TOPICS = ["remote work", "AI assistants", "electric cars", "interest rates", "home prices", "the job market",
           "streaming prices", "solar power", "sleep science", "city bikes", "chip makers", "space launches"]
_COS = ["Nvidia", "Apple", "Microsoft", "Tesla", "Netflix", "Shopify", "Adobe", "Intel", "Salesforce", "Oracle"]
_TASKS = ["Fix flaky deploy step", "Migrate billing tables", "Dashboard loads slowly", "Add SSO for partners",
          "Rotate API keys", "Update onboarding checklist", "Export fails for large accounts", "Upgrade Postgres",
          "Clean up feature flags", "Write runbook for on-call", "Broken link on pricing page", "Cache warmup job"]
_STATUSES = ["In Progress", "In Review", "Done", "To Do", "Blocked"]
_COLLEAGUES = ["Emma Lindqvist", "Raj Patel", "Tomasz Nowak", "Ana Ruiz", "Ben Carter", "Leah Kim"]
_DOCS = ["Q4 roadmap", "Hiring plan 2024", "Budget forecast", "Design system v2", "Offsite ideas", "Launch checklist"]
_CITIES = ["Lisbon", "Chicago", "Austin", "Montreal", "Seattle", "Kyoto", "Denver", "Boston"]
_ITEMS = ["ceramic mug set", "hand-knit scarf", "walnut cutting board", "linen tote bag", "brass candle holder"]
_WHAT = ["dinner", "concert tickets", "groceries", "cab to the airport", "birthday gift", "rent share"]


def _fields(rng: random.Random, **fixed: Any) -> dict[str, Any]:
    """One email's (or one conversation's) fill-ins, so its subject and body agree."""
    fields = {"co": rng.choice(_COS), "topic": rng.choice(_TOPICS), "n": rng.randint(2, 40),
              "pct": rng.choice([20, 35, 40, 60, 75, 80]), "pct2": f"{rng.uniform(0.2, 2.4):.1f}",
              "ticket": rng.randint(100, 999), "task": rng.choice(_TASKS), "status": rng.choice(_STATUSES),
              "person": rng.choice(_COLLEAGUES), "doc": rng.choice(_DOCS), "city": rng.choice(_CITIES),
              "item": rng.choice(_ITEMS), "what": rng.choice(_WHAT), "book": rng.choice(_BOOKS),
              "friend": rng.choice([n for n, _ in FRIENDS]).split()[0],
              "amount": f"{rng.randint(12, 260)}.{rng.randint(0, 99):02d}", "conf": f"G{rng.randint(10000, 99999)}",
              "place": rng.choice(_PLACES), "event": rng.choice(_EVENTS), "p": rng.choice(_PROJECTS),
              "colleague": rng.choice(_COLLEAGUES).split()[0],
              "day": rng.choice(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]),
              "month": "", "due": "", "first": ""}
    fields.update(fixed)
    return fields


def _html(paragraphs: list[str]) -> str:
    return "".join(f"<p>{escape(p)}</p>" for p in paragraphs)


class _Builder:
    def __init__(self, user_email: str, user_name: str, start_id: int):
        self.rng = random.Random(SEED)
        self.user_email, self.user_name = user_email, user_name
        self.next_id = start_id
        self.out: dict[str, dict[str, Any]] = {}

    def day(self, lo: date = FIRST_DAY, hi: date = LAST_DAY) -> date:
        return lo + timedelta(days=self.rng.randint(0, (hi - lo).days))

    def add(self, *, name: str, addr: str, subject: str, paras: list[str], when: datetime, sent: bool = False,
            to: str | None = None, unread: bool = False, label: str | None = None, archived: bool = False,
            spam: bool = False, reply_to: str | None = None, draft: bool = False) -> str:
        eid = str(self.next_id)
        self.next_id += 1
        mine = sent or draft
        e = {
            "id": eid, "from": self.user_email if mine else addr, "name": self.user_name if mine else name,
            "to": [to or addr] if mine else [self.user_email], "cc": [], "bcc": [], "subject": subject,
            "content": _html(paras), "date": when.date().isoformat(), "time": when.strftime("%H:%M"),
            "sent": sent, "draft": draft, "isRead": not unread, "starred": False, "trash": False,
            "archived": archived, "spam": spam, "isReply": subject.startswith("Re: "), "snoozed": False,
            "scheduled": False, "snoozeUntil": None, "replies": [], "labels": [label] if label else [],
        }
        if reply_to is not None and sent:
            e["inReplyTo"] = reply_to
        self.out[eid] = e
        return eid

    def when(self, d: date, lo: int = 7, hi: int = 21) -> datetime:
        return datetime(d.year, d.month, d.day, self.rng.randint(lo, hi), self.rng.randint(0, 59))


def _unread(rng: random.Random, d: date, p_recent: float, p_old: float) -> bool:
    return rng.random() < (p_recent if d >= date(2024, 3, 1) else p_old)


def _conversation(b: _Builder, name: str, addr: str, topics, answers, followups, fixed: dict[str, Any],
                  greeting: str, p_answer: float, p_followup: float) -> None:
    """A person's email, maybe the user's answer (in Sent), maybe their answer to that: a "Re:" thread."""
    rng = b.rng
    first = name.split()[0]
    subj_t, paras_t = rng.choice(topics)
    f = _fields(rng, first=first, **fixed)
    subject = subj_t.format(**f)
    d = b.day(hi=LAST_DAY - timedelta(days=3))
    t0 = b.when(d, 8, 20)
    first_id = b.add(name=name, addr=addr, subject=subject, when=t0, unread=_unread(rng, d, 0.3, 0.05),
                     paras=[greeting] + [p.format(**f) for p in paras_t] + [first])
    if rng.random() < p_answer:
        i = rng.randrange(len(answers))
        t1 = t0 + timedelta(hours=rng.randint(1, 20), minutes=rng.randint(0, 59))
        b.add(name=name, addr=addr, subject="Re: " + subject, sent=True, to=addr, when=t1, reply_to=first_id,
              paras=[answers[i].format(**f), "Sam"])
        if rng.random() < p_followup:
            t2 = t1 + timedelta(hours=rng.randint(1, 30), minutes=rng.randint(0, 59))
            b.add(name=name, addr=addr, subject="Re: " + subject, when=t2, paras=[followups[i], first],
                  unread=_unread(rng, t2.date(), 0.3, 0.05))


def generate(user_email: str, user_name: str, start_id: int) -> dict[str, dict[str, Any]]:
    b = _Builder(user_email, user_name, start_id)
    rng = b.rng
    span = (LAST_DAY - FIRST_DAY).days
    # services and newsletters, spread evenly over the months, each at its own hour of the day
    for name, addr, count, label, subjects, bodies in _SERVICES:
        hour = rng.randint(5, 20)
        for k in range(count):
            d = FIRST_DAY + timedelta(days=int(span * (k + rng.random()) / count))
            f = _fields(rng, month=d.strftime("%B"), due=(d + timedelta(days=21)).strftime("%b %-d"))
            subject = rng.choice(subjects).format(**f)
            b.add(name=name, addr=addr, subject=subject[0].upper() + subject[1:],
                  paras=[t.format(**f) for t in bodies], when=b.when(d, hour, hour),
                  unread=_unread(rng, d, 0.45, 0.15), label=label, archived=rng.random() < 0.12)
    # clients and friends: conversations, the user's answers in Sent
    for name, addr, co in CLIENTS:
        for _ in range(rng.randint(4, 6)):
            _conversation(b, name, addr, _CLIENT_TOPICS, _CLIENT_ANSWERS, _CLIENT_FOLLOWUPS,
                          {"co": co, "month": b.day().strftime("%B")}, "Hi Sam,", 0.75, 0.6)
    for name, addr in FRIENDS:
        for _ in range(rng.randint(3, 5)):
            _conversation(b, name, addr, _FRIEND_TOPICS, _FRIEND_ANSWERS, _FRIEND_FOLLOWUPS, {}, "Hey Sam,",
                          0.6, 0.5)
    # the book club: one email a month, labeled
    name, addr = BOOK_CLUB
    for k, book in enumerate(_BOOKS):
        d = FIRST_DAY + timedelta(days=30 * k + rng.randint(0, 20))
        if d > LAST_DAY:
            break
        b.add(name=name, addr=addr, subject=f"Book club: {book}", when=b.when(d, 18, 21), label="Book Club",
              paras=["Hi all,", f"This month we're reading {book}. We meet on the last Thursday at my place, 7 PM.",
                     "Bring a snack to share!", "Ruth"], unread=_unread(rng, d, 0.5, 0.0))
    # home: the contractor, the HOA, a neighbour (labeled Home)
    for (name, addr), topics in zip(HOME, (_HOME_TOPICS[0:2], _HOME_TOPICS[2:4], _HOME_TOPICS[4:5]), strict=True):
        for subj, paras in topics:
            d = b.day(lo=date(2024, 1, 1))
            f = _fields(rng, month=(d + timedelta(days=40)).strftime("%B"))
            b.add(name=name, addr=addr, subject=subj, when=b.when(d), label="Home",
                  paras=["Hi Sam,"] + [p.format(**f) for p in paras] + [name.split()[0]],
                  unread=_unread(rng, d, 0.3, 0.0))
    # spam: the filter caught these in the last weeks
    for name, addr, subject, body in _SPAM:
        d = b.day(lo=date(2024, 3, 20))
        b.add(name=name, addr=addr, subject=subject, paras=[body], when=b.when(d, 0, 23), spam=True,
              unread=rng.random() < 0.5)
    # two drafts the user never finished
    b.add(name="", addr="priya.raman@northwind.example.com", subject="Proposal numbers", draft=True,
          when=b.when(date(2024, 4, 26)), paras=["Hi Priya,", "Here are the numbers for the proposal. The total is"])
    b.add(name="", addr="chloe.dubois@example.net", subject="Trip ideas", draft=True, when=b.when(date(2024, 4, 24)),
          paras=["Hey Chloe,", "What about Lisbon in"])
    # one message waiting in Scheduled (written last week, going out on Monday morning)
    e = b.out[b.add(name="", addr="priya.raman@northwind.example.com", subject="Northwind monthly report",
                    when=datetime(2024, 7, 22, 9, 0), draft=True,
                    paras=["Hi Priya,", ("Attached is the monthly report for June. Happy to walk through it on "
                                         "our next call."), "Sam"])]
    e.update(draft=False, scheduled=True, scheduledFor="2024-07-22T09:00")
    # two snoozed until later this week and next: the neighbour's fence, a friend's newest email
    for who, until in (("Victor Nguyen", "2024-07-22T08:00"), ("Owen Fletcher", "2024-07-19T08:00")):
        e = max((e for e in b.out.values() if e["name"] == who and not e["sent"]), key=lambda e: (e["date"], e["time"]))
        e["snoozed"], e["snoozeUntil"] = True, until
    return b.out


def hay(e: dict[str, Any]) -> str:
    text = re.sub(r"<[^>]+>", " ", e["content"])
    return " ".join([e["from"], e["name"], *e["to"], e["subject"], text]).lower()


def check(generated: dict[str, dict[str, Any]], seed_emails: dict[str, dict[str, Any]]) -> None:
    """The rules in the module docstring; a violation is a bug in the templates, found at import."""
    seed_names = {e["name"] for e in seed_emails.values()}
    seed_subjects = {e["subject"] for e in seed_emails.values()}
    for e in generated.values():
        h = hay(e)
        squashed = re.sub(r"[^a-z0-9]", "", h)
        bad = [w for w in FORBIDDEN if w in h or (len(w) > 3 and re.sub(r"[^a-z0-9]", "", w) in squashed)]
        assert not bad, f"generated email {e['id']} ({e['subject']!r}) mentions {bad}"
        assert not e["starred"] and (e["date"] <= LAST_DAY.isoformat() or e["scheduled"]), e
        assert e["sent"] or e["draft"] or e["scheduled"] or e["name"] not in seed_names, e["name"]
        assert e["subject"] not in seed_subjects, e["subject"]
