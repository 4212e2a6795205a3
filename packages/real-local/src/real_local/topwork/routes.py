"""TopWork's pages: talent search (``/talent?q=..&available=1``), freelancer profiles with Save, Message, Invite to
job and Hire (an offer); messages (``/messages/<id>`` opens a conversation, a form posts a reply); the client's job
posts (``/jobs``, post one at ``/jobs/new``, remove one); saved talent and past hires. Every form posts, then a 303
to the page that shows the result. Profile photos and company logos (``media``) at ``/avatars/<id>-<size>.jpg`` and
``/logos/<slug>-<size>.jpg``."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from real_local.core import picture, read_form, session_of
from real_local.topwork import media
from real_local.topwork import state as st
from real_local.topwork.talent import BY_ID, HIRES, search

HERE = Path(__file__).parent
MAX_TEXT = 2000
MAX_LINE = 120
_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                   trim_blocks=True, lstrip_blocks=True)
_env.globals.update(css=Markup((HERE / "static" / "topwork.css").read_text()), client=st.CLIENT,
                    company=st.COMPANY, today=st.TODAY, by_id=BY_ID, sizes=st.SIZES, durations=st.DURATIONS,
                    levels=st.LEVELS, hire_opportunity=st.HIRE_OPPORTUNITY, categories=st.CATEGORIES,
                    client_id=media.CLIENT_ID, company_slug=media.slug(st.COMPANY), employment=media.EMPLOYMENT,
                    person_id={f.name: f.id for f in BY_ID.values()} | {st.CLIENT: media.CLIENT_ID})


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


_env.filters["plural"] = _plural


def _page(request: Request, template: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    s = session_of(request)
    with s.lock:
        state = s.state
        ctx.setdefault("saved", list(state["saved"]["savedFreelancerIds"]))
        ctx.setdefault("unread", sum(1 for c in state["messages"]["contactList"] if c.get("unread")))
        ctx.setdefault("notice", request.query_params.get("notice", "")[:MAX_LINE])
        body = _env.get_template(template).render(path=request.url.path, **ctx)
    return HTMLResponse(body, status_code=status)


def _error(request: Request, status: int, headline: str, message: str) -> HTMLResponse:
    return _page(request, "error.html", status=status, headline=headline, message=message)


def _back(path: str, notice: str) -> RedirectResponse:
    return RedirectResponse(f"{path}?{urlencode({'notice': notice})}", status_code=303)


def _line(v: Any) -> str:
    return " ".join(str(v or "").split())[:MAX_LINE]


def _text(v: Any) -> str:
    return str(v or "").strip()[:MAX_TEXT]


def _now(state: dict) -> str:
    """A message's time: today, one minute per message already sent today (deterministic)."""
    n = sum(1 for c in state["messages"]["contactList"] for m in c["messages"].values() if m["time"].startswith(st.TODAY))
    return f"{st.TODAY} {9 + n // 60:02d}:{n % 60:02d}"


def _contact(state: dict, fid: str, create: bool) -> dict | None:
    """The conversation with freelancer ``fid``; with ``create``, a new one appended to the list."""
    for c in state["messages"]["contactList"]:
        if c["id"] == fid:
            return c
    if not create:
        return None
    f = BY_ID[fid]
    c = {"id": f.id, "name": f.name, "job": f.title, "unread": False, "lastMessage": "", "lastMessageAuthor": "",
         "lastMessageTime": "", "messages": {}}
    state["messages"]["contactList"].append(c)
    return c


def _post(state: dict, fid: str, author: str, text: str, **extra: Any) -> dict:
    c = _contact(state, fid, create=True)
    m = {"author": author, "message": text, "time": _now(state), "type": "text", **extra}
    c["messages"][str(len(c["messages"]))] = m
    c.update(lastMessage=text, lastMessageAuthor=author, lastMessageTime=m["time"], unread=False)
    state["messages"]["selectedChatId"] = fid
    return m


def _open_jobs(state: dict) -> list[dict]:
    return [j for j in state["jobs"]["jobs"].values() if j["status"] == "published"]


# ---------------------------------------------------------------- pages
async def home(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        jobs = list(s.state["jobs"]["jobs"].values())
        contacts = [dict(c) for c in s.state["messages"]["contactList"] if c.get("unread")]
    return _page(request, "home.html", jobs=jobs, contacts=contacts)


async def talent(request: Request) -> Response:
    q = _line(request.query_params.get("q"))
    available = request.query_params.get("available", "") in ("1", "on", "true")
    return _page(request, "talent.html", q=q, available=available, people=search(q, available))


async def profile(request: Request) -> Response:
    f = BY_ID.get(request.path_params["fid"])
    if f is None:
        return _error(request, 404, "Freelancer not found", "Find freelancers under Find Talent.")
    hired = [h for h in HIRES if h["freelancerId"] == f.id]
    return _page(request, "profile.html", f=f, hired=hired)


async def toggle_save(request: Request) -> Response:
    f = BY_ID.get(request.path_params["fid"])
    if f is None:
        return _error(request, 404, "Freelancer not found", "Find freelancers under Find Talent.")
    form = await read_form(request, MAX_LINE)
    nxt = form.get("next") or f"/freelancers/{f.id}"
    if not nxt.startswith("/") or nxt.startswith("//"):
        nxt = f"/freelancers/{f.id}"
    s = session_of(request)
    with s.lock:
        ids = s.state["saved"]["savedFreelancerIds"]
        if f.id in ids:
            ids.remove(f.id)
            notice = f"{f.name} removed from Saved talent"
        else:
            ids.append(f.id)
            notice = f"{f.name} saved to Saved talent"
    sep = "&" if "?" in nxt else "?"
    return RedirectResponse(f"{nxt}{sep}{urlencode({'notice': notice})}", status_code=303)


async def saved(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        ids = list(s.state["saved"]["savedFreelancerIds"])
    return _page(request, "saved.html", people=[BY_ID[i] for i in ids if i in BY_ID])


async def hires(request: Request) -> Response:
    return _page(request, "hires.html", hires=HIRES)


# ---------------------------------------------------------------- messages
async def inbox(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        contacts = [dict(c) for c in s.state["messages"]["contactList"]]
    return _page(request, "messages.html", contacts=contacts, chat=None, f=None)


async def chat(request: Request) -> Response:
    cid = request.path_params["cid"]
    s = session_of(request)
    with s.lock:
        c = _contact(s.state, cid, create=False)
        if c is None and cid not in BY_ID:
            return _error(request, 404, "Conversation not found", "Open a conversation from Messages, or message "
                                                                   "a freelancer from their profile.")
        s.state["messages"]["selectedChatId"] = cid
        if c is not None and c.get("unread"):
            c["unread"] = False
        contacts = [dict(x) for x in s.state["messages"]["contactList"]]
        chat_ = dict(c) if c is not None else None
    return _page(request, "messages.html", contacts=contacts, chat=chat_, f=BY_ID.get(cid), cid=cid)


async def send(request: Request) -> Response:
    cid = request.path_params["cid"]
    form = await read_form(request, MAX_TEXT)
    text = _text(form.get("message"))
    s = session_of(request)
    with s.lock:
        if _contact(s.state, cid, create=False) is None and cid not in BY_ID:
            return _error(request, 404, "Conversation not found", "Open a conversation from Messages.")
    if not text:
        return _error(request, 400, "Write a message", "Type your message in the Message box, then Send.")
    with s.lock:
        _post(s.state, cid, st.CLIENT, text)
    return _back(f"/messages/{cid}", "Message sent")


# ---------------------------------------------------------------- invite and hire
async def invite_form(request: Request) -> Response:
    f = BY_ID.get(request.path_params["fid"])
    if f is None:
        return _error(request, 404, "Freelancer not found", "Find freelancers under Find Talent.")
    s = session_of(request)
    with s.lock:
        jobs = [dict(j) for j in _open_jobs(s.state)]
    return _page(request, "invite.html", f=f, jobs=jobs)


async def invite(request: Request) -> Response:
    f = BY_ID.get(request.path_params["fid"])
    if f is None:
        return _error(request, 404, "Freelancer not found", "Find freelancers under Find Talent.")
    form = await read_form(request, MAX_TEXT)
    s = session_of(request)
    with s.lock:
        job = s.state["jobs"]["jobs"].get(form.get("job") or "")
        if job is None or job["status"] != "published":
            return _error(request, 400, "Choose a job", "Pick one of your open job posts to invite "
                                                        f"{f.name} to.")
        text = f'Hi {f.first}, I\'d like to invite you to apply to my job "{job["title"]}".'
        extra = _text(form.get("message"))
        if extra:
            text += " " + extra
        _post(s.state, f.id, "Client", text, jobId=job["id"])
    return _back(f"/messages/{f.id}", f"Invitation sent to {f.name}")


async def hire_form(request: Request) -> Response:
    f = BY_ID.get(request.path_params["fid"])
    if f is None:
        return _error(request, 404, "Freelancer not found", "Find freelancers under Find Talent.")
    s = session_of(request)
    with s.lock:
        jobs = [dict(j) for j in _open_jobs(s.state)]
    return _page(request, "hire.html", f=f, jobs=jobs)


async def hire(request: Request) -> Response:
    f = BY_ID.get(request.path_params["fid"])
    if f is None:
        return _error(request, 404, "Freelancer not found", "Find freelancers under Find Talent.")
    form = await read_form(request, MAX_TEXT)
    title = _line(form.get("contractTitle"))
    message = _text(form.get("message"))
    start = _line(form.get("startDate")) or st.TODAY
    try:
        rate = float(form.get("hourlyRate") or f.rate)
    except ValueError:
        rate = -1
    if not title:
        return _error(request, 400, "Name the contract", "Give the offer a contract title, e.g. 'Project Lead'.")
    if not 1 <= rate <= 999:
        return _error(request, 400, "Check the rate", "The hourly rate is a number of dollars from 1 to 999.")
    if not message:
        return _error(request, 400, "Write a message", f"Tell {f.name} about the offer in the Message box.")
    if len(start) != 10 or start[4] != "-" or start[7] != "-" or start < st.TODAY:
        return _error(request, 400, "Check the start date", "Choose a start date from today on.")
    s = session_of(request)
    with s.lock:
        offers = s.state["offers"]["offers"]
        job = s.state["jobs"]["jobs"].get(form.get("job") or "")
        offer = {"id": f"offer-{len(offers) + 1}", "contractTitle": title, "freelancerId": f.id,
                 "freelancerName": f.name, "jobId": job["id"] if job else "", "hourlyRate": rate,
                 "startDate": start, "offerDate": st.TODAY, "description": message, "status": "Pending"}
        offers.append(offer)
        _post(s.state, f.id, st.CLIENT, message, type="offer", offer=dict(offer))
    return _back(f"/messages/{f.id}", f"Offer sent to {f.name}")


async def offers_page(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        offers = [dict(o) for o in s.state["offers"]["offers"]]
    return _page(request, "offers.html", offers=offers)


# ---------------------------------------------------------------- job posts
async def jobs(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        js = [dict(j) for j in s.state["jobs"]["jobs"].values()]
    return _page(request, "jobs.html", jobs=js)


async def job(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        j = s.state["jobs"]["jobs"].get(request.path_params["jid"])
        j = dict(j) if j else None
    if j is None:
        return _error(request, 404, "Job post not found", "Your job posts are listed under Jobs.")
    return _page(request, "job.html", j=j)


async def remove_job(request: Request) -> Response:
    s = session_of(request)
    with s.lock:
        j = s.state["jobs"]["jobs"].pop(request.path_params["jid"], None)
        if j is None:
            return _error(request, 404, "Job post not found", "Your job posts are listed under Jobs.")
        s.state["jobs"].setdefault("removedJobPosts", []).append(j)
    return _back("/jobs", f'Job post "{j["title"]}" removed')


def _new_id(state: dict) -> str:
    ids = [*state["jobs"]["jobs"], *(j["id"] for j in state["jobs"].get("removedJobPosts", []))]
    return f"job-{1 + max(int(i.split('-')[1]) for i in ids) if ids else 1}"


def _rate(v: Any) -> int | None:
    try:
        n = float(str(v or "").replace("$", "").strip())
    except ValueError:
        return None
    return int(n) if n == int(n) and 1 <= n <= 999 else None


async def new_job_form(request: Request) -> Response:
    return _page(request, "post_job.html", form={}, why="")


async def new_job(request: Request) -> Response:
    form = await read_form(request, MAX_TEXT)
    title, desc = _line(form.get("title")), _text(form.get("description"))
    lo, hi = _rate(form.get("hourlyRateFrom")), _rate(form.get("hourlyRateTo"))
    skills = [x for x in (_line(p) for p in str(form.get("skills") or "").split(",")) if x][:15]
    why = ""
    if not title or not desc:
        why = "Give the job a title and a description."
    elif form.get("category") not in st.CATEGORIES:
        why = "Choose a category."
    elif lo is None or hi is None:
        why = "Hourly rates are whole dollars from 1 to 999 (from and to)."
    elif lo > hi:
        why = "The hourly rate 'from' cannot be above 'to'."
    elif form.get("estimateSize") not in st.SIZES:
        why = "Choose the project size."
    elif form.get("estimateTime") not in st.DURATIONS:
        why = "Choose how long the work will take."
    elif form.get("estimateLevelExperience") not in st.LEVELS:
        why = "Choose the level of experience needed."
    elif form.get("estimateHireOpportunity") not in st.HIRE_OPPORTUNITY:
        why = "Say whether this is a contract-to-hire opportunity."
    if why:
        return _page(request, "post_job.html", status=400, form=form, why=why)
    status = "draft" if form.get("action") == "draft" else "published"
    s = session_of(request)
    with s.lock:
        jid = _new_id(s.state)
        s.state["jobs"]["jobs"][jid] = {
            "id": jid, "title": title, "description": desc, "category": form["category"], "skills": skills,
            "hourlyRateFrom": lo, "hourlyRateTo": hi, "estimateSize": form["estimateSize"],
            "estimateTime": form["estimateTime"], "estimateLevelExperience": form["estimateLevelExperience"],
            "estimateHireOpportunity": form["estimateHireOpportunity"], "status": status, "postedDate": st.TODAY,
            "applications": []}
    return _back(f"/jobs/{jid}", "Job post published" if status == "published" else "Draft saved")


async def avatar(request: Request) -> Response:
    """``/avatars/<person id>-<s|m|l>.jpg``: a profile photo, drawn once (off the event loop) and cached."""
    return await picture(media.CONTENT_TYPE, media.avatar, request.path_params["pid"], request.path_params["size"])


async def logo(request: Request) -> Response:
    """``/logos/<company slug>-<s|m>.jpg``: a company's logo."""
    return await picture(media.CONTENT_TYPE, media.logo, request.path_params["key"], request.path_params["size"],
                         missing="No such logo.")


ROUTES = [
    Route("/", home),
    Route("/talent", talent),
    Route("/freelancers/{fid}", profile),
    Route("/freelancers/{fid}/save", toggle_save, methods=["POST"]),
    Route("/freelancers/{fid}/invite", invite_form, methods=["GET"]),
    Route("/freelancers/{fid}/invite", invite, methods=["POST"]),
    Route("/freelancers/{fid}/hire", hire_form, methods=["GET"]),
    Route("/freelancers/{fid}/hire", hire, methods=["POST"]),
    Route("/saved", saved),
    Route("/hires", hires),
    Route("/offers", offers_page),
    Route("/messages", inbox),
    Route("/messages/{cid}", chat, methods=["GET"]),
    Route("/messages/{cid}", send, methods=["POST"]),
    Route("/jobs", jobs),
    Route("/jobs/new", new_job_form, methods=["GET"]),
    Route("/jobs/new", new_job, methods=["POST"]),
    Route("/jobs/{jid}", job),
    Route("/jobs/{jid}/remove", remove_job, methods=["POST"]),
    Route("/avatars/{pid}-{size}.jpg", avatar),
    Route("/logos/{key}-{size}.jpg", logo),
]
