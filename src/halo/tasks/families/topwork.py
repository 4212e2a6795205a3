"""TopWork task families, from one click (an unread conversation opened from the home page) to REAL-like hiring (a
freelancer messaged, invited to a job or sent an offer with a rate and start date; a job posted in full).

Parameters: TopWork's fourteen freelancers (``real_local.topwork.talent``), the client's seed (four unread
conversations, five open job posts) and the client's words (``topwork_words``). TopWork records no page location,
so every goal changes the state (a profile or a page only browsed leaves nothing to grade). Graders read
``initialfinaldiff`` as agisdk's ``eval_topwork_*.py`` do (``added``/``updated`` merged over the seed, ``deleted``
applied): ``messages.selectedChatId`` (topwork-10), new messages by author (``Sarah Johnson``; ``Client`` with a
``jobId`` for an invitation: topwork-3/4/10/21), ``offers.offers`` (topwork-7/11), ``jobs.jobs`` (topwork-8/9/13)
and ``saved.savedFreelancerIds`` (topwork-14); every family also checks that nothing else changed.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar

from halo.tasks.families.base import Check, Family, Finish, field_value, index_keyed, norm, register
from halo.tasks.families.topwork_words import CONTRACTS, IDEAS, INVITE_NOTES, NOTES, PURPOSES, RATES, WHY
from real_local.topwork.state import CLIENT, DURATIONS, HIRE_OPPORTUNITY, JOBS, LEVELS, SIZES, TODAY, seed
from real_local.topwork.talent import BY_ID, FREELANCERS, HIRES, search

_SEED: dict[str, Any] = seed(None)
START = dt.date.fromisoformat(TODAY)
UNREAD = [c["id"] for c in _SEED["messages"]["contactList"] if c["unread"]]  # the home page's "Unread messages"
OPEN_JOBS = {j["id"]: j["title"] for j in JOBS if j["status"] == "published"}
REHIRE = {h["freelancerId"] for h in HIRES}  # their profiles say "Rehire", not "Hire"
SEARCH_FIELD, MESSAGE_FIELD = "Search talent", "Message"
JOB_FIELDS = {"title": "Job title", "description": "Description", "lo": "Hourly rate from", "hi": "Hourly rate to"}
OFFER_FIELDS = {"title": "Contract title", "rate": "Hourly rate", "start": "Start date", "message": "Message"}


def day(iso: str) -> str:
    d = dt.date.fromisoformat(iso)
    return f"{d:%B} {d.day}" + (f", {d.year}" if d.year != START.year else "")


# ---------------------------------------------------------------- reading the /finish JSON
_BEFORE = index_keyed(_SEED)  # the seed in the diff's shape, once (merging copies, never changes it)


def final(f: Finish, name: str) -> dict[str, Any]:
    """An app slice at the end: the seed, ``initialfinaldiff.added`` and ``updated`` merged in, ``deleted`` out."""
    return f.merged(_BEFORE[name], name, index_lists=True, deleted=True)


def _rows(node: Any) -> list[Any]:
    if isinstance(node, dict):
        return [node[k] for k in sorted(node, key=lambda k: (len(k), k))]
    return list(node) if isinstance(node, list) else []


def new_messages(f: Finish) -> list[tuple[str, dict[str, Any]]]:
    """(conversation id, message) for every message the episode added, oldest conversation first."""
    before = _BEFORE["messages"]["contactList"]
    out = []
    for i, c in (final(f, "messages").get("contactList") or {}).items():
        if not isinstance(c, dict):
            continue
        had = (before.get(i) or {}).get("messages") or {}
        for k, m in (c.get("messages") or {}).items():
            if k not in had and isinstance(m, dict):
                out.append((str(c.get("id")), m))
    return out


def saved_ids(f: Finish) -> list[str]:
    return [str(x) for x in _rows(final(f, "saved").get("savedFreelancerIds")) if isinstance(x, str)]


def offers(f: Finish) -> list[dict[str, Any]]:
    return [o for o in _rows(final(f, "offers").get("offers")) if isinstance(o, dict)]


def new_jobs(f: Finish) -> list[dict[str, Any]]:
    return [j for k, j in (final(f, "jobs").get("jobs") or {}).items() if k not in _SEED["jobs"]["jobs"]]


def removed_jobs(f: Finish) -> list[str]:
    return sorted(set(_SEED["jobs"]["jobs"]) - set(final(f, "jobs").get("jobs") or {}))


def untouched(f: Finish, *, msgs: bool = True, save: bool = True, offer: bool = True, post: bool = True) -> Check:
    """Nothing sent, saved, offered, posted or removed (each flag off: that one is the goal's, checked by it)."""
    m, s, o, j, r = new_messages(f), saved_ids(f), offers(f), new_jobs(f), removed_jobs(f)
    ok = (not msgs or not m) and (not save or not s) and (not offer or not o) and (not post or not j) and not r
    return Check("nothing else changed", ok, f"{len(m)} messages, saved {s}, {len(o)} offers, "
                                             f"{len(j)} job posts, removed {r}")


def one_message(f: Finish, fid: str, author: str) -> tuple[dict[str, Any], Check]:
    """The episode's one new message, to ``fid`` by ``author`` ({} where it is not exactly that)."""
    ms = new_messages(f)
    ok = len(ms) == 1 and ms[0][0] == fid and ms[0][1].get("author") == author
    return (ms[0][1] if ok else {}), Check("one message to the freelancer", ok,
                                            f"{[(c, m.get('author')) for c, m in ms]}, want {[(fid, author)]}")


def typed_check(label: str, done: bool, page: Any, want: str) -> Check:
    got = field_value(page, label)
    return Check(f"{label.lower()} typed", done or norm(got) == norm(want), f"{label}: {got!r}")


# ---------------------------------------------------------------- one click


@register
class Read(Family):
    """The home page's "Unread messages": one click opens the conversation (``messages.selectedChatId``)."""

    name, site, steps = "topwork.read", "topwork", "1"
    description = "open an unread conversation from the home page"

    def space(self):
        return [{"freelancer": fid, "why": w} for fid in UNREAD for w in WHY]

    def goal(self, p, rng):
        n = BY_ID[p["freelancer"]].name
        return rng.choice([f"Open my unread message from {n} on TopWork ({p['why']}).",
                           f"Show me the conversation with {n}: {p['why']}.",
                           f"{n} sent me a message. Open it, {p['why']}."])

    def check(self, f, p):
        got = final(f, "messages").get("selectedChatId")
        return [Check("conversation open", got == p["freelancer"], f"open {got!r}, want {p['freelancer']!r}"),
                untouched(f)]


# ---------------------------------------------------------------- a few steps
def reasons(x: Any) -> list[str]:
    return [f"they charge ${x.rate} an hour", f"they're based in {x.location}",
            f"{x.rating} stars over {x.jobs_done} jobs", f"a {x.title} for later", *(f"they know {s}" for s in x.skills)]


@register
class Save(Family):
    """REAL's topwork-14 for one: Find Talent, the freelancer's "Save"."""

    name, site, steps = "topwork.save", "topwork", "2-4"
    description = "save a freelancer to Saved talent"

    def space(self):
        return [{"freelancer": x.id, "why": w} for x in FREELANCERS for w in reasons(x)]

    def goal(self, p, rng):
        n = BY_ID[p["freelancer"]].name
        return rng.choice([f"Save {n} to my saved talent on TopWork; {p['why']}.",
                           f"Add {n} to Saved talent ({p['why']}).",
                           f"I might hire {n} later: {p['why']}. Save them to my talent list."])

    def check(self, f, p):
        s = saved_ids(f)
        return [Check("freelancer saved", p["freelancer"] in s, f"saved {s}"),
                Check("only that freelancer", s == [p["freelancer"]], f"saved {s}"), untouched(f, save=False)]


@register
class Shortlist(Family):
    """A talent search by skill or title (with "Available now only" where the goal asks), and every freelancer it
    finds saved (one to three)."""

    name, site, steps = "topwork.shortlist", "topwork", "2-4"
    description = "search talent for a skill and save every freelancer found"

    def space(self):
        qs = sorted({s for x in FREELANCERS for s in x.skills} | {x.title for x in FREELANCERS})
        return [{"query": q, "available": av, "why": w} for q in qs for av in (False, True)
                if 1 <= len(search(q, av)) <= 3 and (not av or search(q, True) != search(q, False)) for w in PURPOSES]

    @staticmethod
    def want(p: dict[str, Any]) -> list[str]:
        return [x.id for x in search(p["query"], p["available"])]

    def goal(self, p, rng):
        who = "who are available now" if p["available"] else "it finds"
        return rng.choice([f'Search TopWork talent for "{p["query"]}" and save every freelancer {who}, {p["why"]}.',
                           (f'{p["why"][0].upper()}{p["why"][1:]}: find talent matching "{p["query"]}" and save '
                            f'each freelancer {who}.'),
                           f'Look for "{p["query"]}" freelancers on TopWork and save each one {who} ({p["why"]}).'])

    def check(self, f, p):
        s, want = saved_ids(f), self.want(p)
        return [Check("every match saved", set(want) <= set(s), f"saved {s}, want {want}"),
                Check("only the matches", set(s) <= set(want) and len(s) == len(set(s)), f"saved {s}, want {want}"),
                untouched(f, save=False)]

    def subgoals(self, f, p, page):
        return [typed_check(SEARCH_FIELD, set(saved_ids(f)) == set(self.want(p)), page, p["query"])]

    def typed(self, p):
        return (p["query"],)


# ---------------------------------------------------------------- REAL-like


@register
class Message(Family):
    """REAL's topwork-10/21: the freelancer's profile (Find Talent), "Message", the message typed, Send."""

    name, site, steps = "topwork.message", "topwork", "5+"
    description = "send a freelancer a message"

    def space(self):
        return [{"freelancer": x.id, "text": f"Hi {x.first}, {n}"} for x in FREELANCERS for n in NOTES]

    def goal(self, p, rng):
        x = BY_ID[p["freelancer"]]
        return rng.choice([f'Send {x.name} ({x.title}) this message on TopWork: "{p["text"]}"',
                           f'Message {x.name}, the {x.title}: "{p["text"]}"',
                           f'Write to {x.name} on TopWork, saying exactly: "{p["text"]}"'])

    def check(self, f, p):
        m, one = one_message(f, p["freelancer"], CLIENT)
        return [one, Check("message text", norm(m.get("message")) == norm(p["text"]), f"sent {m.get('message')!r}"),
                untouched(f, msgs=False)]

    def subgoals(self, f, p, page):
        m, _ = one_message(f, p["freelancer"], CLIENT)
        return [typed_check(MESSAGE_FIELD, norm(m.get("message")) == norm(p["text"]), page, p["text"])]

    def typed(self, p):
        return (p["text"],)


def invitation(fid: str, job: str, note: str) -> str:
    """The message the site sends for an invitation (``routes.invite``)."""
    text = f'Hi {BY_ID[fid].first}, I\'d like to invite you to apply to my job "{OPEN_JOBS[job]}".'
    return f"{text} {note}" if note else text


@register
class Invite(Family):
    """REAL's topwork-2/3/4: the freelancer's profile, "Invite to job", the job chosen, a note where the goal gives one,
    "Send invitation" (a message by "Client" with the ``jobId``)."""

    name, site, steps = "topwork.invite", "topwork", "5+"
    description = "invite a freelancer to one of the client's job posts, with an optional note"

    def space(self):
        return [{"freelancer": x.id, "job": j, "note": n} for x in FREELANCERS for j in OPEN_JOBS for n in INVITE_NOTES]

    def goal(self, p, rng):
        x, t = BY_ID[p["freelancer"]], OPEN_JOBS[p["job"]]
        note = f' Add the note "{p["note"]}"' if p["note"] else " No note needed."
        return rng.choice([f'Invite {x.name} to apply to my job "{t}" on TopWork.{note}',
                           f'Send {x.name} ({x.title}) an invitation to my job post "{t}".{note}',
                           f'I want {x.name} on "{t}": invite them to the job.{note}'])

    def check(self, f, p):
        m, one = one_message(f, p["freelancer"], "Client")
        return [one, Check("job", m.get("jobId") == p["job"], f"invited to {m.get('jobId')!r}, want {p['job']!r}"),
                Check("note", norm(m.get("message")) == norm(invitation(p["freelancer"], p["job"], p["note"])),
                      f"sent {m.get('message')!r}"), untouched(f, msgs=False)]

    def subgoals(self, f, p, page):
        m, _ = one_message(f, p["freelancer"], "Client")
        return [typed_check(MESSAGE_FIELD, bool(m), page, p["note"])] if p["note"] else []

    def typed(self, p):
        return (p["note"],) if p["note"] else ()


@register
class Hire(Family):
    """REAL's topwork-7/11 in full: the freelancer's profile, "Hire" (or "Rehire"), the contract title, hourly rate,
    start date and message typed, "Send offer" (an offer, Pending, and its message)."""

    name, site, steps = "topwork.hire", "topwork", "5+"
    description = "send a freelancer an offer with a contract title, hourly rate, start date and message"

    def space(self):
        out = []
        for i in range(len(FREELANCERS) * len(CONTRACTS)):
            x, title = FREELANCERS[i % len(FREELANCERS)], CONTRACTS[(i // len(FREELANCERS)) % len(CONTRACTS)]
            start = (START + dt.timedelta(days=3 + (i * 5) % 60)).isoformat()
            out.append({"freelancer": x.id, "title": title, "rate": x.rate + (-5, 0, 5, 10)[i % 4], "start": start,
                        "message": f"Hi {x.first}, I'd like you on our {title} contract starting {day(start)}."})
        return out

    def goal(self, p, rng):
        x, when = BY_ID[p["freelancer"]], day(p["start"])
        return rng.choice([(f'Send {x.name} an offer on TopWork: contract "{p["title"]}", ${p["rate"]}/hr, starting '
                            f'{when}, with the message "{p["message"]}"'),
                           (f'Hire {x.name} ({x.title}) for "{p["title"]}" at ${p["rate"]} an hour from {p["start"]}. '
                            f'Message: "{p["message"]}"'),
                           (f'Make {x.name} an offer: title "{p["title"]}", rate ${p["rate"]} per hour, start date '
                            f'{p["start"]}, message "{p["message"]}"')])

    def _offer(self, f) -> dict[str, Any]:
        os = offers(f)
        return os[0] if len(os) == 1 else {}

    def check(self, f, p):
        o, os = self._offer(f), offers(f)
        m, one = one_message(f, p["freelancer"], CLIENT)
        rate = o.get("hourlyRate")
        return [Check("one offer to the freelancer", o.get("freelancerId") == p["freelancer"]
                      and o.get("status") == "Pending", f"{[(x.get('freelancerId'), x.get('status')) for x in os]}"),
                Check("contract title", norm(o.get("contractTitle")) == norm(p["title"]),
                      f"title {o.get('contractTitle')!r}"),
                Check("hourly rate", isinstance(rate, (int, float)) and rate == p["rate"], f"rate {rate!r}"),
                Check("start date", o.get("startDate") == p["start"], f"start {o.get('startDate')!r}"),
                Check("message", norm(o.get("description")) == norm(p["message"]), f"message {o.get('description')!r}"),
                Check("offer message sent", bool(one.passed) and m.get("type") == "offer", one.detail),
                untouched(f, msgs=False, offer=False)]

    def subgoals(self, f, p, page):
        o = self._offer(f)
        done = bool(o) and o.get("freelancerId") == p["freelancer"]
        return [typed_check(label, done, page, str(p[k])) for k, label in OFFER_FIELDS.items()]

    def typed(self, p):
        return (p["title"], str(p["rate"]), p["start"], p["message"])


@register
class Post(Family):
    """REAL's topwork-9/13 in full: "Post a Job", the title, description, category, hourly rates from and to, size,
    duration, experience level and contract-to-hire, "Post job" (a published job post)."""

    name, site, steps = "topwork.post", "topwork", "5+"
    description = "post a job with a title, description, category, hourly budget and estimates"
    STEP_CAPS: ClassVar[dict[str, int]] = {**Family.STEP_CAPS, "5+": 14}  # the oracle takes 11 actions

    def space(self):
        out = []
        for i in range(len(IDEAS) * len(RATES)):
            title, cat, desc = IDEAS[i % len(IDEAS)]
            lo, hi = RATES[(i // len(IDEAS)) % len(RATES)]
            out.append({"title": title, "category": cat, "description": desc, "lo": lo, "hi": hi,
                        "size": list(SIZES)[i % 3], "duration": DURATIONS[(i // 3) % 3],
                        "level": list(LEVELS)[(i // 2) % 3], "hire": list(HIRE_OPPORTUNITY)[(i // 5) % 2]})
        return out

    def goal(self, p, rng):
        c2h = "it could become full-time" if p["hire"] == "yes" else "not contract-to-hire"
        est = (f"a {SIZES[p['size']].lower()} project, {p['duration'].lower()}, {LEVELS[p['level']].lower()} level, "
               f"{c2h}")
        return rng.choice([(f'Post a job on TopWork: "{p["title"]}" in {p["category"]}, ${p["lo"]}-${p["hi"]}/hr, '
                            f'{est}. Description: "{p["description"]}"'),
                           (f'I need a {p["title"]} ({p["category"]}). Post the job paying ${p["lo"]} to ${p["hi"]} an '
                            f'hour: {est}. Describe it as "{p["description"]}"'),
                           (f'Create a published job post titled "{p["title"]}" (category {p["category"]}), hourly '
                            f'rate ${p["lo"]} to ${p["hi"]}; {est}; description "{p["description"]}"')])

    def _job(self, f) -> dict[str, Any]:
        js = new_jobs(f)
        return js[0] if len(js) == 1 else {}

    def check(self, f, p):
        j, js = self._job(f), new_jobs(f)
        est = tuple(j.get(k) for k in ("estimateSize", "estimateTime", "estimateLevelExperience",
                                       "estimateHireOpportunity"))
        return [Check("one job posted", bool(j) and j.get("status") == "published",
                      f"{[(x.get('title'), x.get('status')) for x in js]}"),
                Check("title", norm(j.get("title")) == norm(p["title"]), f"title {j.get('title')!r}"),
                Check("description", norm(j.get("description")) == norm(p["description"]),
                      f"description {j.get('description')!r}"),
                Check("category", j.get("category") == p["category"], f"category {j.get('category')!r}"),
                Check("hourly rate", (j.get("hourlyRateFrom"), j.get("hourlyRateTo")) == (p["lo"], p["hi"]),
                      f"rate {j.get('hourlyRateFrom')!r}-{j.get('hourlyRateTo')!r}"),
                Check("estimates", est == (p["size"], p["duration"], p["level"], p["hire"]), f"estimates {est}"),
                untouched(f, post=False)]

    def subgoals(self, f, p, page):
        done = bool(self._job(f))
        return [typed_check(label, done, page, str(p[k])) for k, label in JOB_FIELDS.items()]

    def typed(self, p):
        return (p["title"], p["description"], str(p["lo"]), str(p["hi"]))
