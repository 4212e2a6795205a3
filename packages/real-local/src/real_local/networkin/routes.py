"""NetworkIn's pages: the feed (``/``, ``/feed``) with posts to like, comment on and send to connections, a post
composer (``/post/new``: the feed behind an open "Create a post" dialog; posting stays on the feed); search (``/search/results/{all,people,companies,events}?keywords=..``, people filtered by
degree and location); member profiles (``/in/<id>``) with Connect (an invitation, with or without a note: accepted
at once) or Message; My Network (invitations to accept or ignore, people you may know, pages to follow, your
connections); company pages (``/company/<id>``) to follow; events (``/events``, ``/events/<id>``) to attend;
messaging (``/messaging``, ``/messaging/thread/<id>``). Every form posts, then a 303 to the page that shows the result.
The invitation (``/in/<id>/connect``) and "Send post" (``/feed/update/<id>/send``) are dialogs over the profile and
the post, as LinkedIn's are (``static/networkin.js`` opens them modal). Profile photos and logos (``media``) at
``/avatars/<id>-<size>.jpg`` and ``/logos/<key>-<size>.jpg``.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from real_local.core import picture, read_form, session_of
from real_local.networkin import media
from real_local.networkin import state as st
from real_local.networkin.directory import (
    BY_ID,
    COMPANIES,
    COMPANY_BY_ID,
    EVENT_BY_ID,
    EVENTS,
    LOCATIONS,
    ME,
    USER,
    search_companies,
    search_events,
    search_people,
)

HERE = Path(__file__).parent
MAX_LINE = 120
MAX_TEXT = 3000
VERTICALS = ("all", "people", "companies", "events")
_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                   trim_blocks=True, lstrip_blocks=True)
_env.globals.update(css=Markup((HERE / "static" / "networkin.css").read_text()), me=USER, by_id=BY_ID,
                    company_by_id=COMPANY_BY_ID, event_by_id=EVENT_BY_ID, today=st.TODAY, max_note=st.MAX_NOTE,
                    locations=LOCATIONS, org_key=media.org_key, school=media.school)
_icons = _env.get_template("_icons.html").module
_env.globals.update(icon=_icons.icon, pic=_icons.pic)


def _ago(time: str) -> str:
    """LinkedIn's relative time of a post or comment, from the site's today."""
    days = (dt.date.fromisoformat(st.TODAY) - dt.date.fromisoformat(time[:10])).days
    if days <= 0:
        return "Just now" if time[11:13] >= "10" else "Today"
    return f"{days}d" if days < 7 else f"{days // 7}w" if days < 30 else f"{days // 30}mo"


_env.filters["ago"] = _ago
_env.filters["longdate"] = lambda d: dt.date.fromisoformat(d).strftime("%a, %b %-d, %Y")


def _line(v: Any) -> str:
    return " ".join(str(v or "").split())[:MAX_LINE]


def _text(v: Any, limit: int = MAX_TEXT) -> str:
    return str(v or "").strip()[:limit]


def _page(request: Request, template: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    s = session_of(request)
    with s.lock:
        state = s.state
        if request.method == "GET" and status == 200:  # the router follows the pages shown, as REAL's clones' do
            query = [(k, v) for k, v in request.query_params.multi_items() if k not in ("notice", "view")]
            state["router"]["location"] = {"pathname": request.url.path,
                                           "search": f"?{urlencode(query)}" if query else ""}
        rooms = state["ui"]["messaging"]["chatroomData"]
        ctx.setdefault("unread", sum(1 for r in rooms.values() if r.get("unread")))
        ctx.setdefault("grades", dict(state["connectionGrades"]))
        ctx.setdefault("followed", {k for k, v in state["ui"]["companies"]["followedCompanies"].items() if v})
        ctx.setdefault("attending", set(state["ui"]["events"]["attendedEvents"]))
        ctx.setdefault("pending", {k for k, v in state["invitations"]["received"].items() if v["status"] == "pending"})
        ctx.setdefault("n_connections", len(state["contactList"]))
        ctx.setdefault("notice", _line(request.query_params.get("notice")))
        view = request.query_params.get("view", "")
        ctx.setdefault("view_post", view if view in state["ui"]["feed"]["postDynamicData"] else "")
        ctx.setdefault("keywords", "")
        body = _env.get_template(template).render(path=request.url.path, **ctx)
    return HTMLResponse(body, status_code=status)


def _error(request: Request, status: int, headline: str, message: str) -> HTMLResponse:
    return _page(request, "error.html", status=status, headline=headline, message=message)


def _back(path: str, notice: str, **more: str) -> RedirectResponse:
    sep = "&" if "?" in path else "?"
    return RedirectResponse(f"{path}{sep}{urlencode({'notice': notice, **more})}", status_code=303)


def _next(form: dict[str, str], default: str) -> str:
    nxt = form.get("next") or default
    return nxt if nxt.startswith("/") and not nxt.startswith("//") else default


def _now(state: dict) -> str:
    """A new item's time: today, one minute per item the user has stamped today (deterministic)."""
    posts = state["ui"]["feed"]["postDynamicData"].values()
    n = sum(1 for r in state["ui"]["messaging"]["chatroomData"].values() for m in r["messages"]
            if m["time"].startswith(st.TODAY) and m["authorId"] == ME)
    n += sum(1 for p in posts if p["time"].startswith(st.TODAY) and p["authorId"] == ME)
    n += sum(1 for p in posts for c in p["comments"] if c["time"].startswith(st.TODAY) and c["authorId"] == ME)
    return f"{st.TODAY} {10 + n // 60:02d}:{n % 60:02d}"


def _room(state: dict, mid: str) -> dict:
    """The conversation with member ``mid``, created (whole, with their name and headline) if there is none."""
    rooms = state["ui"]["messaging"]["chatroomData"]
    if mid not in rooms:
        rooms[mid] = st.chatroom(mid, [])
    return rooms[mid]


def _say(room: dict, author: str, text: str, time: str, kind: str = "text", preview: str = "", **extra: Any) -> None:
    room["messages"].append({"authorId": author, "message": text, "type": kind, "time": time, **extra})
    room.update(lastMessage=preview or text, lastMessageAuthorId=author, lastMessageTime=time, unread=False)


def _sorted_posts(state: dict) -> list[dict]:
    return sorted((dict(p) for p in state["ui"]["feed"]["postDynamicData"].values()),
                  key=lambda p: p["time"], reverse=True)


POPULAR = sorted(COMPANIES, key=lambda c: -c.followers)  # pages to follow, most followed first


# ---------------------------------------------------------------- feed and posts
def _feed(request: Request, status: int = 200, **ctx: Any) -> HTMLResponse:
    """The feed; with ``compose=True``, behind the open "Create a post" dialog."""
    s = session_of(request)
    with s.lock:
        posts = _sorted_posts(s.state)
    return _page(request, "feed.html", status=status, posts=posts, companies=POPULAR[:6], **ctx)


async def feed(request: Request) -> Response:
    return _feed(request)


async def new_post_form(request: Request) -> Response:
    return _feed(request, compose=True, text="", why="")


async def new_post(request: Request) -> Response:
    form = await read_form(request, st.MAX_POST)
    text = _text(form.get("text"), st.MAX_POST)
    if not text:
        return _feed(request, status=400, compose=True, text="", why="Write something to post.")
    s = session_of(request)
    with s.lock:
        posts = s.state["ui"]["feed"]["postDynamicData"]
        pid = f"post-{1 + max(int(k.split('-')[1]) for k in posts)}"
        posts[pid] = {"id": pid, "type": "self-post", "authorId": ME, "author": st.author(ME), "description": text,
                      "time": _now(s.state), "likes": 0, "liked": False, "comments": []}
    return _back("/feed", "Post successful", view=pid)  # LinkedIn stays on the feed: "Post successful. View post"


def _get_post(request: Request) -> dict | None:
    s = session_of(request)
    with s.lock:
        p = s.state["ui"]["feed"]["postDynamicData"].get(request.path_params["pid"])
        return dict(p) if p else None


async def post_page(request: Request) -> Response:
    p = _get_post(request)
    if p is None:
        return _error(request, 404, "Post not found", "This post was removed or never existed. Go back to your feed.")
    return _page(request, "post.html", p=p, sending=False)


async def like(request: Request) -> Response:
    form = await read_form(request, MAX_LINE)
    s = session_of(request)
    with s.lock:
        p = s.state["ui"]["feed"]["postDynamicData"].get(request.path_params["pid"])
        if p is None:
            return _error(request, 404, "Post not found", "This post was removed or never existed.")
        p["liked"] = not p["liked"]
        p["likes"] += 1 if p["liked"] else -1
        notice = f"You liked {p['author']['name']}'s post" if p["liked"] else "Reaction removed"
    return _back(_next(form, f"/feed/update/{p['id']}"), notice)


async def comment(request: Request) -> Response:
    form = await read_form(request, 1250)
    text = _text(form.get("comment"), 1250)
    s = session_of(request)
    with s.lock:
        p = s.state["ui"]["feed"]["postDynamicData"].get(request.path_params["pid"])
        if p is None:
            return _error(request, 404, "Post not found", "This post was removed or never existed.")
        if not text:
            return _error(request, 400, "Write a comment", "Type your comment in the box, then Comment.")
        p["comments"].append({"authorId": ME, "authorName": USER.name, "text": text, "time": _now(s.state)})
    return _back(f"/feed/update/{p['id']}", "Comment posted")


async def send_post_form(request: Request) -> Response:
    p = _get_post(request)
    if p is None:
        return _error(request, 404, "Post not found", "This post was removed or never existed.")
    s = session_of(request)
    with s.lock:
        contacts = [BY_ID[m] for m in s.state["contactList"]]
    return _page(request, "post.html", p=p, contacts=contacts, sending=True)


async def send_post(request: Request) -> Response:
    body = (await request.body()).decode("utf-8", "replace")
    fields = parse_qs(body, keep_blank_values=True)
    to = [m for m in dict.fromkeys(fields.get("to", [])) if m in BY_ID][:50]
    note = _text((fields.get("message") or [""])[-1], 2000)
    s = session_of(request)
    with s.lock:
        p = s.state["ui"]["feed"]["postDynamicData"].get(request.path_params["pid"])
        if p is None:
            return _error(request, 404, "Post not found", "This post was removed or never existed.")
        contacts = set(s.state["contactList"])
        to = [m for m in to if m in contacts]
        if not to:
            return _error(request, 400, "Choose who to send it to", "Tick at least one of your connections, then "
                                                                    "Send.")
        data = {"id": p["id"], "authorId": p["authorId"], "authorName": p["author"]["name"],
                "description": p["description"]}
        for m in to:
            _say(_room(s.state, m), ME, note, _now(s.state), kind="post", preview=note or "Sent a post",
                 postData=dict(data))
    names = [BY_ID[m].name for m in to]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return _back(f"/feed/update/{p['id']}", f"Sent to {who}")


# ---------------------------------------------------------------- search
async def search(request: Request) -> Response:
    vertical = request.path_params["vertical"]
    if vertical not in VERTICALS:
        return _error(request, 404, "Page not found", "Search people, companies or events from the search box.")
    q = request.query_params
    keywords, location, network = _line(q.get("keywords")), _line(q.get("location")), _line(q.get("network"))
    if network not in ("", "1", "2", "3"):
        network = ""
    s = session_of(request)
    with s.lock:
        hist = s.state["search"]["searchHistory"]
        if keywords and not (hist and hist[-1]["searchTerm"] == keywords and hist[-1]["vertical"] == vertical):
            hist.append({"searchTerm": keywords, "vertical": vertical, "time": _now(s.state)})
        grades = dict(s.state["connectionGrades"])
    people = search_people(keywords, network, location, grades) if vertical in ("all", "people") else []
    companies = search_companies(keywords) if vertical in ("all", "companies") else []
    events = search_events(keywords) if vertical in ("all", "events") else []
    if vertical == "all":
        people, companies, events = people[:8], companies[:5], events[:3]
    return _page(request, "search.html", vertical=vertical, keywords=keywords, location=location, network=network,
                 people=people, companies=companies, events=events)


# ---------------------------------------------------------------- people and connecting
async def profile(request: Request) -> Response:
    mid = request.path_params["mid"]
    if mid == ME:
        s = session_of(request)
        with s.lock:
            posts = [p for p in _sorted_posts(s.state) if p["authorId"] == ME]
        return _page(request, "me.html", m=USER, posts=posts)
    m = BY_ID.get(mid)
    if m is None:
        return _error(request, 404, "This page doesn't exist", "Check the address, or search for the person by name.")
    return _profile(request, m)


def _profile(request: Request, m: Any, status: int = 200, **ctx: Any) -> HTMLResponse:
    """Member ``m``'s profile; with ``connect=True``, behind the open invitation dialog."""
    s = session_of(request)
    with s.lock:
        inv = dict(s.state["invitations"]["received"].get(m.id) or {})
    also = sorted((o for o in BY_ID.values() if o.id != m.id),
                  key=lambda o: (not (m.company and o.company == m.company), o.location != m.location,
                                 o.industry != m.industry))[:4]
    return _page(request, "profile.html", status=status, m=m, invitation=inv, also=also, **ctx)


async def connect_form(request: Request) -> Response:
    m = BY_ID.get(request.path_params["mid"])
    if m is None:
        return _error(request, 404, "This page doesn't exist", "Search for the person by name.")
    return _profile(request, m, connect=True, note="", why="")


async def connect(request: Request) -> Response:
    m = BY_ID.get(request.path_params["mid"])
    if m is None:
        return _error(request, 404, "This page doesn't exist", "Search for the person by name.")
    form = await read_form(request, 2 * st.MAX_NOTE)
    note = _text(form.get("note"), 2 * st.MAX_NOTE)
    with_note = form.get("action") != "plain"
    if with_note and not note:
        return _profile(request, m, status=400, connect=True, note="",
                        why="Write a note, or choose Send without a note.")
    if with_note and len(note) > st.MAX_NOTE:
        return _profile(request, m, status=400, connect=True, note=note,
                        why=f"A note can be at most {st.MAX_NOTE} characters.")
    s = session_of(request)
    with s.lock:
        state = s.state
        if state["connectionGrades"][m.id] == 1:
            return _error(request, 409, f"You're already connected with {m.name}",
                          f"Send {m.first} a message from their profile instead.")
        inv = state["invitations"]["received"].get(m.id)
        if inv and inv["status"] == "pending":  # they invited the user first: connecting accepts it
            inv["status"] = "accepted"
        state["contactList"].append(m.id)
        state["connectionGrades"][m.id] = 1
        room, now = _room(state, m.id), _now(state)
        _say(room, ME, "Connection request sent", now, kind="system")
        if with_note:
            _say(room, ME, note, now)
        _say(room, m.id, f"{m.name} accepted your connection request", now, kind="system")
    return _back(f"/in/{m.id}", f"Invitation sent. You are now connected with {m.name}")


async def mynetwork(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        invs = [dict(v) for v in s.state["invitations"]["received"].values() if v["status"] == "pending"]
        grades = s.state["connectionGrades"]
        suggested = [m for m in BY_ID.values() if grades[m.id] == 2]
    return _page(request, "mynetwork.html", invitations=invs, suggested=suggested,
                 companies=POPULAR)


async def connections(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        people = [BY_ID[m] for m in reversed(s.state["contactList"])]
    return _page(request, "connections.html", people=people)


async def answer_invitation(request: Request) -> Response:
    mid, verb = request.path_params["mid"], request.path_params["verb"]
    s = session_of(request)
    with s.lock:
        inv = s.state["invitations"]["received"].get(mid)
        if inv is None or inv["status"] != "pending" or verb not in ("accept", "ignore"):
            return _error(request, 404, "Invitation not found", "Your pending invitations are under My Network.")
        m = BY_ID[mid]
        if verb == "accept":
            inv["status"] = "accepted"
            s.state["contactList"].append(mid)
            s.state["connectionGrades"][mid] = 1
            notice = f"Invitation accepted. You are now connected with {m.name}"
        else:
            inv["status"] = "ignored"
            notice = f"Invitation from {m.name} ignored"
    return _back("/mynetwork", notice)


# ---------------------------------------------------------------- companies and events
async def company(request: Request) -> Response:
    c = COMPANY_BY_ID.get(request.path_params["cid"])
    if c is None:
        return _error(request, 404, "This page doesn't exist", "Search for the company by name.")
    s = session_of(request)
    with s.lock:
        posts = [p for p in _sorted_posts(s.state) if p["authorId"] == c.id]
    staff = [m for m in BY_ID.values() if m.company == c.id]
    events = [e for e in EVENTS if e.organizer == c.id]
    return _page(request, "company.html", c=c, posts=posts, staff=staff, events=events)


async def follow(request: Request) -> Response:
    c = COMPANY_BY_ID.get(request.path_params["cid"])
    if c is None:
        return _error(request, 404, "This page doesn't exist", "Search for the company by name.")
    form = await read_form(request, MAX_LINE)
    s = session_of(request)
    with s.lock:
        fc = s.state["ui"]["companies"]["followedCompanies"]
        fc[c.id] = not fc.get(c.id, False)
        notice = f"You are now following {c.name}" if fc[c.id] else f"You unfollowed {c.name}"
    return _back(_next(form, f"/company/{c.id}"), notice)


async def events(request: Request) -> Response:
    return _page(request, "events.html", events=sorted(EVENTS, key=lambda e: e.date))


async def event(request: Request) -> Response:
    e = EVENT_BY_ID.get(request.path_params["eid"])
    if e is None:
        return _error(request, 404, "Event not found", "Browse upcoming events under Events.")
    return _page(request, "event.html", e=e)


async def attend(request: Request) -> Response:
    e = EVENT_BY_ID.get(request.path_params["eid"])
    if e is None:
        return _error(request, 404, "Event not found", "Browse upcoming events under Events.")
    s = session_of(request)
    with s.lock:
        going = s.state["ui"]["events"]["attendedEvents"]
        if e.id in going:
            del going[e.id]
            notice = f"You left {e.title}"
        else:
            going[e.id] = True
            notice = f"You are attending {e.title}"
    return _back(f"/events/{e.id}", notice)


# ---------------------------------------------------------------- messaging
def _threads(state: dict) -> list[dict]:
    rooms = [dict(r) for r in state["ui"]["messaging"]["chatroomData"].values()]
    return sorted(rooms, key=lambda r: r["lastMessageTime"], reverse=True)


async def messaging(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        threads = _threads(s.state)
    return _page(request, "messaging.html", threads=threads, room=None, m=None, can_write=False)


async def new_message(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        people = [BY_ID[m] for m in s.state["contactList"]]
        threads = _threads(s.state)
    return _page(request, "new_message.html", people=people, threads=threads)


async def thread(request: Request) -> Response:
    mid = request.path_params["mid"]
    m = BY_ID.get(mid)
    if m is None:
        return _error(request, 404, "Conversation not found", "Open a conversation from Messaging.")
    s = session_of(request)
    with s.lock:
        room = s.state["ui"]["messaging"]["chatroomData"].get(mid)
        if room is not None and room.get("unread"):
            room["unread"] = False
        room = dict(room) if room else None
        can_write = room is not None or s.state["connectionGrades"][mid] == 1
        threads = _threads(s.state)
    return _page(request, "messaging.html", threads=threads, room=room, m=m, can_write=can_write)


async def send_message(request: Request) -> Response:
    mid = request.path_params["mid"]
    m = BY_ID.get(mid)
    if m is None:
        return _error(request, 404, "Conversation not found", "Open a conversation from Messaging.")
    form = await read_form(request, MAX_TEXT)
    text = _text(form.get("message"))
    s = session_of(request)
    with s.lock:
        rooms = s.state["ui"]["messaging"]["chatroomData"]
        if mid not in rooms and s.state["connectionGrades"][mid] != 1:
            return _error(request, 403, f"{m.name} is not a connection",
                          f"You can message only your connections. Invite {m.first} to connect, with a note.")
        if not text:
            return _error(request, 400, "Write a message", "Type your message in the box, then Send.")
        _say(_room(s.state, mid), ME, text, _now(s.state))
    return _back(f"/messaging/thread/{mid}", "Message sent")


async def avatar(request: Request) -> Response:
    """``/avatars/<member id>-<xs|s|m|l|xl>.jpg``: a profile photo, drawn once (off the event loop) and cached."""
    return await picture(media.CONTENT_TYPE, media.avatar, request.path_params["pid"], request.path_params["size"])


async def logo(request: Request) -> Response:
    """``/logos/<company id or organisation slug>-<s|m|l>.jpg``: a logo."""
    return await picture(media.CONTENT_TYPE, media.logo, request.path_params["key"], request.path_params["size"],
                         missing="No such logo.")


ROUTES = [
    Route("/", feed),
    Route("/feed", feed),
    Route("/post/new", new_post_form, methods=["GET"]),
    Route("/post/new", new_post, methods=["POST"]),
    Route("/feed/update/{pid}", post_page),
    Route("/feed/update/{pid}/like", like, methods=["POST"]),
    Route("/feed/update/{pid}/comment", comment, methods=["POST"]),
    Route("/feed/update/{pid}/send", send_post_form, methods=["GET"]),
    Route("/feed/update/{pid}/send", send_post, methods=["POST"]),
    Route("/search/results/{vertical}", search),
    Route("/in/{mid}", profile),
    Route("/in/{mid}/connect", connect_form, methods=["GET"]),
    Route("/in/{mid}/connect", connect, methods=["POST"]),
    Route("/mynetwork", mynetwork),
    Route("/mynetwork/connections", connections),
    Route("/mynetwork/invitations/{mid}/{verb}", answer_invitation, methods=["POST"]),
    Route("/company/{cid}", company),
    Route("/company/{cid}/follow", follow, methods=["POST"]),
    Route("/events", events),
    Route("/events/{eid}", event),
    Route("/events/{eid}/attend", attend, methods=["POST"]),
    Route("/messaging", messaging),
    Route("/messaging/new", new_message),
    Route("/messaging/thread/{mid}", thread, methods=["GET"]),
    Route("/messaging/thread/{mid}", send_message, methods=["POST"]),
    Route("/avatars/{pid}-{size}.jpg", avatar),
    Route("/logos/{key}-{size}.jpg", logo),
]
