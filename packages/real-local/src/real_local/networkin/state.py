"""NetworkIn's state, in what REAL's ten v2 networkin scripts read from the finish JSON.

The user is Div Garg, id ``divgarg`` (the scripts look for it as a post's ``authorId`` and a message's ``authorId``).
Most scripts search the whole finish JSON for a key (``contactList``, ``chatroomData``, ``connectionGrades``,
``followedCompanies``, ``searchHistory``/``searchTerm``, ``attendedEvents``, ``messages``); a few read fixed paths.
Slices:

- ``router.location``: ``pathname`` and ``search`` (the query string, ``?keywords=new+york``, without the page's
  notice) of the page last shown, as REAL's clones keep their router (networkin-6/26 read ``search``'s
  ``keywords=``; networkin-25 accepts any string holding ``/events/``, so ending on an event's page passes it).
- ``contactList``: the user's connections, a list of member ids; a new connection is appended, so it reads as
  ``added.contactList["<n>"]`` (networkin-6/10/27 anywhere, networkin-11 at ``added.contactList``).
- ``connectionGrades``: every member's degree (1, 2, 3); connecting sets 1 (networkin-27 reads the member's key).
  Connecting never changes anyone else's grade.
- ``invitations.received``: invitations to the user, by member id, ``status`` pending/accepted/ignored.
- ``search.searchHistory``: the searches run, ``{searchTerm, vertical, time}`` (networkin-1/6/26).
- ``ui.feed.postDynamicData``: posts by id: ``id``, ``type`` ("self-post" for the user's, "post", "company-post"),
  ``authorId``, ``author`` (``id``, ``name``, ``headline``), ``description``, ``time``, ``likes``, ``liked``,
  ``comments`` (networkin-11/13/19 read a new self-post under ``added.ui.feed.postDynamicData``).
- ``ui.messaging.chatroomData``: conversations keyed by the other member's id: ``id``, ``name``, ``headline`` (a
  new conversation shows whole, headline included: networkin-5 reads the recipient's role from it), ``messages``
  (a list: ``{authorId, message, type, time}``, ``type`` "text", "system" or "post" with ``postData``),
  ``lastMessage``, ``lastMessageAuthorId``, ``lastMessageTime``, ``unread``. Connecting writes "Connection request
  sent", the note if any (a text message), then "<name> accepted your connection request" (networkin-6/10); no
  conversation in the seed is with a software engineer, so writing to one always adds a whole conversation.
- ``ui.companies.followedCompanies``: ``{company id: bool}`` for every page (networkin-1).
- ``ui.events.attendedEvents``: ``{event id: true}``, empty in the seed (networkin-25).

No key holds "attend", "going" or "rsvp" but ``attendedEvents`` (networkin-25 takes any such key with a true value
as attending), and ``differences`` names none of the keys the scripts look for.

``differences`` (no networkin script reads it): connections, posts, conversations, companies, events, searches.
The finish JSON also carries ``env_state``, a copy of its three REAL keys: networkin-19's script reads
``env_state.initialfinaldiff``, the shape of agisdk's leaderboard submission (``{"env_state": <finish JSON>}``), and
fails on a finish JSON without it whatever was posted.
"""

from __future__ import annotations

import copy
from typing import Any

from real_local.core import collection_differences
from real_local.networkin.directory import BY_ID, COMPANIES, COMPANY_BY_ID, FOLLOWED_AT_START, ME, MEMBERS, USER

TODAY = "2024-08-15"  # Thursday
MAX_NOTE = 300  # characters in an invitation's note, as on LinkedIn
MAX_POST = 3000


def author(mid: str) -> dict[str, str]:
    m = USER if mid == ME else BY_ID[mid]
    return {"id": m.id, "name": m.name, "headline": m.headline}


def _post(pid: str, kind: str, author_id: str, text: str, time: str, likes: int,
          comments: list[tuple[str, str]] = ()) -> dict[str, Any]:
    if kind == "company-post":
        c = COMPANY_BY_ID[author_id]
        who = {"id": c.id, "name": c.name, "headline": c.followers_label}
    else:
        who = author(author_id)
    return {"id": pid, "type": kind, "authorId": author_id, "author": who, "description": text, "time": time,
            "likes": likes, "liked": False,
            "comments": [{"authorId": a, "authorName": author(a)["name"], "text": t, "time": time}
                         for a, t in comments]}


POSTS = [
    _post("post-1", "self-post", ME, "Excited to share that I'm starting my summer internship at AGI Inc! I'll be "
          "working on browser agents with an amazing team. #internship #AI", "2024-06-03 09:12", 148,
          [("graceturner", "Welcome aboard, Div!"), ("jameslee", "Congrats!! Well deserved.")]),
    _post("post-2", "post", "emilydavis", "We're hiring two product managers for podcast discovery in New York. If "
          "you love audio and data, send me a message!", "2024-08-09 14:30", 231),
    _post("post-3", "company-post", "microsoft", "Applications for our 2025 software engineering internships open "
          "next month. Here is what our interns built this summer.", "2024-08-12 10:00", 5120),
    _post("post-4", "post", "jameslee", "Three years at Google today. Biggest lesson: write the design doc before "
          "the code. Happy to chat with students about getting into software engineering.", "2024-08-13 08:45", 412,
          [("ryanmiller", "Design docs save lives.")]),
    _post("post-5", "post", "davidnguyen", "Next Thursday: the AI Builders Meetup in San Francisco. Talks on agents "
          "in production, live demos, and plenty of time to meet people. Link in my events.", "2024-08-13 18:20", 97),
    _post("post-6", "company-post", "agiinc", "Demo day is coming! Our summer interns show what they built on August "
          "20. Proud of this cohort.", "2024-08-14 11:00", 356),
    _post("post-7", "post", "priyasharma", "Five things I wish I knew as a junior software engineer: ask early, read "
          "code, own your growth, find mentors, rest.", "2024-08-14 16:05", 1890),
    _post("post-8", "post", "kevinpatel", "Loop Labs closed its seed round! Grateful to our early customers. We're "
          "hiring founding engineers in Austin.", "2024-08-15 07:30", 640),
]


def _msg(author_id: str, text: str, time: str, kind: str = "text", **extra: Any) -> dict[str, Any]:
    return {"authorId": author_id, "message": text, "type": kind, "time": time, **extra}


def chatroom(mid: str, msgs: list[dict], unread: bool = False) -> dict[str, Any]:
    m = BY_ID[mid]
    room = {"id": m.id, "name": m.name, "headline": m.headline, "messages": msgs, "unread": unread}
    if msgs:
        room.update(lastMessage=msgs[-1]["message"], lastMessageAuthorId=msgs[-1]["authorId"],
                    lastMessageTime=msgs[-1]["time"])
    else:
        room.update(lastMessage="", lastMessageAuthorId="", lastMessageTime="")
    return room


CHATROOMS = [
    chatroom("emilydavis", [
        _msg(ME, "Hi Emily, thanks for the coffee chat last week!", "2024-08-05 17:02"),
        _msg("emilydavis", "Anytime! How is the internship at AGI Inc going? Let me know when you're in New York.",
             "2024-08-14 19:40")], unread=True),
    chatroom("alexchen", [
        _msg("alexchen", "Hi Div, I came across your profile. We open new grad roles in September; would you like "
             "to chat about them?", "2024-08-12 09:15")], unread=True),
    chatroom("sarahjohnson", [
        _msg("sarahjohnson", "Loved your post on agents! Want to compare notes on evaluation sometime?",
             "2024-07-28 12:00"),
        _msg(ME, "Sure, let's find a time after my internship.", "2024-07-28 12:31")]),
    chatroom("rachelkim", [
        _msg(ME, "Thanks for the portfolio feedback, Rachel!", "2024-07-02 20:10"),
        _msg("rachelkim", "Happy to help. Good luck this summer!", "2024-07-03 08:02")]),
]

INVITATIONS = {
    "tylerscott": {"id": "tylerscott", "message": "Hi Div, I saw your post about AGI Inc. I'd love to connect and "
                                                  "hear about your internship.", "time": "2024-08-14",
                   "status": "pending"},
    "graceturner": {"id": "graceturner", "message": "", "time": "2024-08-10", "status": "pending"},
}

SEARCH_HISTORY = [
    {"searchTerm": "stanford ai lab", "vertical": "all", "time": "2024-08-02 21:14"},
    {"searchTerm": "product designer", "vertical": "people", "time": "2024-08-11 10:03"},
]


def seed(task_id: str | None = None) -> dict[str, Any]:
    return {
        "router": {"location": {"pathname": "/", "search": ""}},
        "contactList": [m.id for m in MEMBERS if m.degree == 1],
        "connectionGrades": {m.id: m.degree for m in MEMBERS},
        "invitations": {"received": copy.deepcopy(INVITATIONS)},
        "search": {"searchHistory": copy.deepcopy(SEARCH_HISTORY)},
        "ui": {
            "feed": {"postDynamicData": {p["id"]: copy.deepcopy(p) for p in POSTS}},
            "messaging": {"chatroomData": {c["id"]: copy.deepcopy(c) for c in CHATROOMS}},
            "companies": {"followedCompanies": {c.id: c.id in FOLLOWED_AT_START for c in COMPANIES}},
            "events": {"attendedEvents": {}},
        },
    }


def differences(initial: dict[str, Any], final: dict[str, Any]) -> dict[str, Any]:
    ci, cf = initial["contactList"], final["contactList"]
    fi, ff = (s["ui"]["companies"]["followedCompanies"] for s in (initial, final))
    ei, ef = (s["ui"]["events"]["attendedEvents"] for s in (initial, final))
    ri, rf = (s["ui"]["messaging"]["chatroomData"] for s in (initial, final))
    sent = {k: len(r["messages"]) - len(ri[k]["messages"] if k in ri else []) for k, r in rf.items()}
    return {
        "connections": {"added": [m for m in cf if m not in ci], "removed": [m for m in ci if m not in cf]},
        "posts": collection_differences(initial["ui"]["feed"]["postDynamicData"],
                                        final["ui"]["feed"]["postDynamicData"]),
        "conversations": {"started": [k for k in rf if k not in ri], "sent": {k: n for k, n in sent.items() if n}},
        "companies": {"followed": sorted(k for k, v in ff.items() if v and not fi.get(k)),
                      "unfollowed": sorted(k for k, v in ff.items() if not v and fi.get(k))},
        "events": {"joined": sorted(k for k, v in ef.items() if v and not ei.get(k)),
                   "left": sorted(k for k, v in ei.items() if v and not ef.get(k))},
        "searches": [h["searchTerm"] for h in final["search"]["searchHistory"][len(initial["search"]["searchHistory"]):]],
    }


def finish_extra(payload: dict[str, Any]) -> dict[str, Any]:
    """``env_state``: a copy of the finish JSON's three keys, where networkin-19's script reads them."""
    return {"env_state": copy.deepcopy({k: payload[k] for k in ("config", "differences", "initialfinaldiff")})}
