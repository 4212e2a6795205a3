"""NetworkIn task families, from one click (follow a company, like a post on the feed) to REAL-like networking (a
connection request with a note, a message to a connection).

Parameters: NetworkIn's 25 members, 19 company pages, 8 feed posts and 6 events (``real_local.networkin``), crossed
with the user's reasons and words (``networkin_words``). Graders read ``initialfinaldiff`` as agisdk's
``eval_networkin_*.py`` do (``added``/``updated`` merged over the seed, ``deleted`` applied): ``contactList``
(networkin-6/10/27), ``connectionGrades`` (networkin-27), ``ui.messaging.chatroomData`` messages by ``authorId`` and
``type`` (networkin-5/6/10: "Connection request sent", the note, "... accepted your connection request"),
``ui.companies.followedCompanies`` (networkin-1), ``ui.events.attendedEvents`` (networkin-25) and new self-posts
in ``ui.feed.postDynamicData`` (networkin-11/13/19), with their ``liked`` flags and ``comments``. Browsing and
searching change nothing graded; every family checks that nothing else changed.
"""

from __future__ import annotations

from typing import Any

from halo.tasks.families.base import Check, Family, Finish, field_value, index_keyed, norm, register
from halo.tasks.families.networkin_words import (
    COMMENTS,
    CONNECT_WHY,
    EVENT_WHY,
    LIKE_WHY,
    MESSAGES,
    NOTES,
    OPENERS,
    TOPICS,
    WHY,
)
from real_local.networkin.directory import BY_ID, COMPANIES, COMPANY_BY_ID, EVENT_BY_ID, EVENTS, ME
from real_local.networkin.state import INVITATIONS, MAX_NOTE, POSTS, seed

_SEED: dict[str, Any] = seed(None)
CONNECTED = list(_SEED["contactList"])  # the user's ten connections
# not connected, and no invitation from them pending (connecting to those accepts it)
CONNECTABLE = [m for m, g in _SEED["connectionGrades"].items() if g > 1 and m not in INVITATIONS]
FEED_COMPANIES = [c.id for c in sorted(COMPANIES, key=lambda c: -c.followers)[:6]]  # "Add to your feed"
POST_BY_ID = {p["id"]: p for p in POSTS}
ABOUT = {"post-1": "about starting my internship", "post-2": "about hiring product managers",
         "post-3": "about 2025 internships", "post-4": "about three years at Google",
         "post-5": "about the AI Builders Meetup", "post-6": "about intern demo day",
         "post-7": "with five tips for junior engineers", "post-8": "about Loop Labs' seed round"}
COMMENT_FIELD, POST_FIELD, NOTE_FIELD, MESSAGE_FIELD = ("Add a comment…", "What do you want to talk about?",
                                                        "Add a note", "Write a message…")


def who(pid: str) -> str:
    """A post named by its author and subject ("Emily Davis's post about hiring product managers")."""
    name = POST_BY_ID[pid]["author"]["name"]
    return f"my post {ABOUT[pid]}" if POST_BY_ID[pid]["authorId"] == ME else f"{name}'s post {ABOUT[pid]}"


# ---------------------------------------------------------------- reading the /finish JSON
_BEFORE = index_keyed(_SEED)


def final(f: Finish) -> dict[str, Any]:
    """The state at the end: the seed, ``initialfinaldiff.added`` and ``updated`` merged in, ``deleted`` out."""
    return f.merged(_BEFORE, index_lists=True, deleted=True)


def _get(tree: dict[str, Any], *path: str) -> dict[str, Any]:
    for p in path:
        tree = tree.get(p) if isinstance(tree, dict) else None
    return tree if isinstance(tree, dict) else {}


def changes(f: Finish) -> dict[str, list[Any]]:
    """What the episode changed, by kind: new connections, follows, likes, posts, comments, messages (conversation id,
    message), events attended and invitations answered. Searches and the pages shown are not changes."""
    now = final(f)
    cl = [v for v in _get(now, "contactList").values() if isinstance(v, str)]
    posts, before = _get(now, "ui", "feed", "postDynamicData"), _BEFORE["ui"]["feed"]["postDynamicData"]
    rooms, had = _get(now, "ui", "messaging", "chatroomData"), _BEFORE["ui"]["messaging"]["chatroomData"]
    follows, was = _get(now, "ui", "companies", "followedCompanies"), _SEED["ui"]["companies"]["followedCompanies"]
    invs = _get(now, "invitations", "received")
    return {
        "contacts": [m for m in cl if m not in CONNECTED] + [m for m in CONNECTED if m not in cl],
        "follows": sorted(k for k, v in follows.items() if bool(v) != was.get(k, False)),
        "likes": sorted(k for k, p in posts.items() if isinstance(p, dict) and k in before
                        and bool(p.get("liked")) != bool(before[k]["liked"])),
        "posts": [p for k, p in posts.items() if k not in before and isinstance(p, dict)],
        "comments": [(k, c) for k, p in posts.items() if isinstance(p, dict)
                     for i, c in _get(p, "comments").items() if i not in _get(before.get(k, {}), "comments")],
        "messages": [(k, m) for k, r in rooms.items() if isinstance(r, dict)
                     for i, m in _get(r, "messages").items() if i not in _get(had.get(k, {}), "messages")],
        "events": sorted(k for k, v in _get(now, "ui", "events", "attendedEvents").items() if v),
        "invitations": sorted(k for k, v in invs.items() if isinstance(v, dict)
                              and v.get("status") != INVITATIONS.get(k, {}).get("status")),
    }


def untouched(f: Finish, *mine: str) -> Check:
    """Nothing changed but the kinds the goal's own checks cover (``mine``)."""
    extra = {k: v for k, v in changes(f).items() if v and k not in mine}
    return Check("nothing else changed", not extra, f"also changed: {extra}" if extra else "")


def sent(f: Finish) -> list[tuple[str, dict[str, Any]]]:
    return [(k, m) for k, m in changes(f)["messages"] if isinstance(m, dict)]


def typed_check(label: str, done: bool, page: Any, want: str) -> Check:
    got = field_value(page, label)
    return Check(f"{label.lower()} typed", done or norm(got) == norm(want), f"{label}: {got!r}")


# ---------------------------------------------------------------- one click
@register
class Follow(Family):
    """networkin-1 for one company: the feed's "Add to your feed", "Follow <company>"."""

    name, site, steps = "networkin.follow", "networkin", "1"
    description = "follow a company suggested on the feed"

    def space(self):
        return [{"company": c, "why": w} for c in FEED_COMPANIES for w in WHY]

    def goal(self, p, rng):
        c = COMPANY_BY_ID[p["company"]].name
        return rng.choice([f"Follow {c} on NetworkIn ({p['why']}).", f"Follow the {c} company page: {p['why']}.",
                           f"I want to follow {c}, {p['why']}. Do it from my feed."])

    def check(self, f, p):
        fs = changes(f)["follows"]
        return [Check("company followed", p["company"] in fs and final(f)["ui"]["companies"]["followedCompanies"]
                      .get(p["company"]) is True, f"follows changed {fs}"),
                Check("only that company", fs == [p["company"]], f"follows changed {fs}"), untouched(f, "follows")]


@register
class Like(Family):
    """A post on the feed liked ("Like <author>'s post")."""

    name, site, steps = "networkin.like", "networkin", "1"
    description = "like a post on the feed"

    def space(self):
        return [{"post": p["id"], "why": w} for p in POSTS if p["authorId"] != ME for w in LIKE_WHY]

    def goal(self, p, rng):
        return rng.choice([f"Like {who(p['post'])} on my NetworkIn feed ({p['why']}).",
                           f"React with a like to {who(p['post'])}: {p['why']}.",
                           f"Give {who(p['post'])} a like, {p['why']}."])

    def check(self, f, p):
        ls = changes(f)["likes"]
        post = _get(final(f), "ui", "feed", "postDynamicData", p["post"])
        return [Check("post liked", post.get("liked") is True, f"likes changed on {ls}"),
                Check("only that post", ls == [p["post"]], f"likes changed on {ls}"), untouched(f, "likes")]


# ---------------------------------------------------------------- a few steps
@register
class Attend(Family):
    """networkin-25 for any event: Events, the event, "Attend"."""

    name, site, steps = "networkin.attend", "networkin", "2-4"
    description = "attend an event"

    def space(self):
        return [{"event": e.id, "why": w} for e in EVENTS for w in EVENT_WHY]

    def goal(self, p, rng):
        e = EVENT_BY_ID[p["event"]]
        return rng.choice([f'Sign me up to attend "{e.title}" on NetworkIn ({p["why"]}).',
                           f"RSVP to the {e.title} event by {e.organizer_name}: {p['why']}.",
                           f'Mark me as attending "{e.title}", {p["why"]}.'])

    def check(self, f, p):
        es = changes(f)["events"]
        return [Check("event attended", p["event"] in es, f"attending {es}"),
                Check("only that event", es == [p["event"]], f"attending {es}"), untouched(f, "events")]


def connection_checks(f: Finish, mid: str, note: str) -> list[Check]:
    """networkin-6/10/27: ``mid`` (only) added to ``contactList`` at grade 1, the conversation holding "Connection
    request sent", the note where there is one, and "<name> accepted your connection request"."""
    ch, now = changes(f), final(f)
    grade = _get(now, "connectionGrades").get(mid)
    ms = sent(f)
    shape = [(k, m.get("authorId"), m.get("type")) for k, m in ms]
    want = [(mid, ME, "system"), *([(mid, ME, "text")] if note else []), (mid, mid, "system")]
    text = next((m.get("message") for _, m in ms if m.get("type") == "text"), None)
    return [Check("connected", ch["contacts"] == [mid] and grade == 1, f"contacts changed {ch['contacts']}, grade "
                                                                       f"{grade!r}"),
            Check("invitation sent", shape == want, f"messages {shape}"),
            Check("note", norm(text) == norm(note) if note else text is None, f"note {text!r}"),
            untouched(f, "contacts", "messages")]


@register
class Connect(Family):
    """networkin-27 for anyone: the member found by name, "Invite <name> to connect", "Send without a note"."""

    name, site, steps = "networkin.connect", "networkin", "2-4"
    description = "connect with a member without a note"

    def space(self):
        return [{"member": m, "why": w} for m in CONNECTABLE for w in CONNECT_WHY]

    def goal(self, p, rng):
        m = BY_ID[p["member"]]
        return rng.choice([f"Connect with {m.name} ({m.headline}) on NetworkIn, without a note; {p['why']}.",
                           f"Send {m.name} a connection request, no note needed ({p['why']}).",
                           f"Find {m.name} and invite them to connect without a note: {p['why']}."])

    def check(self, f, p):
        return connection_checks(f, p["member"], "")


@register
class Comment(Family):
    """A comment on a post: "Comment on <author>'s post", the comment typed, "Comment"."""

    name, site, steps = "networkin.comment", "networkin", "2-4"
    description = "comment on a post in the feed"

    def space(self):
        return [{"post": p["id"], "text": t} for p in POSTS for t in COMMENTS]

    def goal(self, p, rng):
        return rng.choice([f'Comment "{p["text"]}" on {who(p["post"])}.',
                           f'On NetworkIn, reply to {who(p["post"])} with the comment "{p["text"]}"',
                           f'Leave a comment on {who(p["post"])}, saying exactly: "{p["text"]}"'])

    @staticmethod
    def _mine(f: Finish) -> list[tuple[str, Any]]:
        return [(k, c) for k, c in changes(f)["comments"] if isinstance(c, dict)]

    def check(self, f, p):
        cs = self._mine(f)
        c = cs[0][1] if len(cs) == 1 and cs[0][0] == p["post"] else {}
        return [Check("one comment on the post", bool(c) and c.get("authorId") == ME, f"comments on "
                                                                                      f"{[k for k, _ in cs]}"),
                Check("comment text", norm(c.get("text")) == norm(p["text"]), f"comment {c.get('text')!r}"),
                untouched(f, "comments")]

    def subgoals(self, f, p, page):
        done = any(k == p["post"] and norm(c.get("text")) == norm(p["text"]) for k, c in self._mine(f))
        return [typed_check(COMMENT_FIELD, done, page, p["text"])]

    def typed(self, p):
        return (p["text"],)


@register
class Post(Family):
    """networkin-13/19: "Start a post", the text typed in "Create a post", "Post" (a self-post by ``divgarg``)."""

    name, site, steps = "networkin.post", "networkin", "2-4"
    description = "write and publish a post"

    def space(self):
        return [{"text": f"{o} {t}"} for t in TOPICS for o in OPENERS]

    def goal(self, p, rng):
        return rng.choice([f'Publish a post on NetworkIn saying: "{p["text"]}"',
                           f'Share this update with my network as a post: "{p["text"]}"',
                           f'Write a NetworkIn post with exactly this text: "{p["text"]}"'])

    @staticmethod
    def _post(f: Finish) -> dict[str, Any]:
        ps = changes(f)["posts"]
        return ps[0] if len(ps) == 1 else {}

    def check(self, f, p):
        post, ps = self._post(f), changes(f)["posts"]
        return [Check("one post by me", post.get("type") == "self-post" and post.get("authorId") == ME,
                      f"{len(ps)} new posts"),
                Check("post text", norm(post.get("description")) == norm(p["text"]),
                      f"posted {post.get('description')!r}"), untouched(f, "posts")]

    def subgoals(self, f, p, page):
        return [typed_check(POST_FIELD, norm(self._post(f).get("description")) == norm(p["text"]), page, p["text"])]

    def typed(self, p):
        return (p["text"],)


# ---------------------------------------------------------------- REAL-like
@register
class Invite(Family):
    """networkin-6/26: the member searched by name, "Invite <name> to connect", the note typed, "Send"."""

    name, site, steps = "networkin.invite", "networkin", "5+"
    description = "send a member a connection request with a note"

    def space(self):
        out = [{"member": m, "note": f"Hi {BY_ID[m].first}, {n}"} for m in CONNECTABLE for n in NOTES]
        return [p for p in out if len(p["note"]) <= MAX_NOTE]

    def goal(self, p, rng):
        m = BY_ID[p["member"]]
        return rng.choice([f'Search NetworkIn for {m.name} and send a connection request with the note: "{p["note"]}"',
                           f'Invite {m.name} ({m.headline}) to connect, adding this note: "{p["note"]}"',
                           f'Connect with {m.name} and include the note "{p["note"]}"'])

    def check(self, f, p):
        return connection_checks(f, p["member"], p["note"])

    def subgoals(self, f, p, page):
        done = changes(f)["contacts"] == [p["member"]]
        return [typed_check(NOTE_FIELD, done, page, p["note"])]

    def typed(self, p):
        return (p["note"],)


@register
class Message(Family):
    """networkin-5: the connection searched by name, "Message <name>", the message typed, "Send"."""

    name, site, steps = "networkin.message", "networkin", "5+"
    description = "message one of your connections"

    def space(self):
        return [{"member": m, "text": f"Hi {BY_ID[m].first}, {t}"} for m in CONNECTED for t in MESSAGES]

    def goal(self, p, rng):
        m = BY_ID[p["member"]]
        return rng.choice([f'Search for {m.name} on NetworkIn and send them this message: "{p["text"]}"',
                           f'Message my connection {m.name} ({m.headline}): "{p["text"]}"',
                           f'Write to {m.name} on NetworkIn, saying exactly: "{p["text"]}"'])

    @staticmethod
    def _msg(f: Finish, mid: str) -> dict[str, Any]:
        ms = sent(f)
        ok = len(ms) == 1 and ms[0][0] == mid and ms[0][1].get("authorId") == ME and ms[0][1].get("type") == "text"
        return ms[0][1] if ok else {}

    def check(self, f, p):
        m, ms = self._msg(f, p["member"]), sent(f)
        return [Check("one message to the member", bool(m), f"messages {[(k, x.get('authorId')) for k, x in ms]}"),
                Check("message text", norm(m.get("message")) == norm(p["text"]), f"sent {m.get('message')!r}"),
                untouched(f, "messages")]

    def subgoals(self, f, p, page):
        done = norm(self._msg(f, p["member"]).get("message")) == norm(p["text"])
        return [typed_check(MESSAGE_FIELD, done, page, p["text"])]

    def typed(self, p):
        return (p["text"],)
