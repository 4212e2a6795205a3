"""Scripted solutions of TopWork's task families (TEST FIXTURES ONLY: never training data), and near misses.

``ORACLES[family](d, params)`` solves any instance through BrowserEnv, finding elements by role and name in the
current Observation (``d`` is ``tests/sites/site_helpers.py``'s Driver). ``VERIFIED[family]`` names the parameters
its grader must hold the episode to: the tests grade a solved /finish JSON against the same parameters with one of
them changed (another freelancer, query, message, job, note, title, rate, date, category or estimate) and expect a
failure. ``BROWSER_NEAR_MISSES`` are wrong-but-close episodes played in the browser.
"""

from __future__ import annotations

import datetime as dt

from halo.env import actions as A
from halo.tasks.families.topwork import OPEN_JOBS, REHIRE, UNREAD, Shortlist
from real_local.topwork.state import DURATIONS, HIRE_OPPORTUNITY, LEVELS, SIZES
from real_local.topwork.talent import BY_ID, FREELANCERS


async def select(d, name: str, label: str) -> None:
    await d.step(A.SelectOption(d.find("combobox", name, exact=True).id, (label,)))


async def profile(d, fid: str) -> None:
    """Find Talent (every freelancer listed), then the freelancer's name."""
    await d.click("link", "Find Talent", exact=True)
    await d.click("link", BY_ID[fid].name, exact=True)


async def read(d, p):
    await d.click("link", BY_ID[p["freelancer"]].name, exact=True)


async def save(d, p):
    await d.click("link", "Find Talent", exact=True)
    await d.click("button", f"Save {BY_ID[p['freelancer']].name}", exact=True)


async def shortlist(d, p):
    await d.click("link", "Find Talent", exact=True)
    await d.fill("textbox", "Search talent", p["query"], exact=True)
    if p["available"]:
        await d.click("checkbox", "Available now only", exact=True)
    await d.click("button", "Search", exact=True)
    for fid in Shortlist.want(p):
        await d.click("button", f"Save {BY_ID[fid].name}", exact=True)


async def message(d, p, send: bool = True):
    await profile(d, p["freelancer"])
    await d.click("link", "Message", exact=True)
    await d.fill("textbox", "Message", p["text"], exact=True)
    if send:
        await d.click("button", "Send", exact=True)


async def invite(d, p):
    await profile(d, p["freelancer"])
    await d.click("link", "Invite to job", exact=True)
    await select(d, "Job", OPEN_JOBS[p["job"]])
    if p["note"]:
        await d.fill("textbox", "Message", p["note"], exact=True)
    await d.click("button", "Send invitation", exact=True)


async def hire(d, p, send: bool = True):
    await profile(d, p["freelancer"])
    await d.click("link", "Rehire" if p["freelancer"] in REHIRE else "Hire", exact=True)
    await d.fill("textbox", "Contract title", p["title"], exact=True)
    await d.fill("textbox", "Hourly rate", str(p["rate"]), exact=True)
    await d.fill(None, "Start date", p["start"], exact=True)
    await d.fill("textbox", "Message", p["message"], exact=True)
    if send:
        await d.click("button", "Send offer", exact=True)


async def post(d, p):
    await d.click("link", "Post a Job", exact=True)
    await d.fill("textbox", "Job title", p["title"], exact=True)
    await d.fill("textbox", "Description", p["description"], exact=True)
    await select(d, "Category", p["category"])
    await d.fill("textbox", "Hourly rate from", str(p["lo"]), exact=True)
    await d.fill("textbox", "Hourly rate to", str(p["hi"]), exact=True)
    await select(d, "Project size", SIZES[p["size"]])
    await select(d, "Duration", p["duration"])
    await select(d, "Experience level", LEVELS[p["level"]])
    await select(d, "Contract-to-hire", HIRE_OPPORTUNITY[p["hire"]])
    await d.click("button", "Post job", exact=True)


ORACLES = {"topwork.read": read, "topwork.save": save, "topwork.shortlist": shortlist, "topwork.message": message,
           "topwork.invite": invite, "topwork.hire": hire, "topwork.post": post}

VERIFIED = {"topwork.read": ("freelancer",), "topwork.save": ("freelancer",), "topwork.shortlist": ("query",),
            "topwork.message": ("freelancer", "text"), "topwork.invite": ("freelancer", "job", "note"),
            "topwork.hire": ("freelancer", "title", "rate", "start", "message"),
            "topwork.post": ("title", "description", "category", "lo", "hi", "size", "duration", "level", "hire")}


# ---------------------------------------------------------------- near misses played in the browser
def other(fid: str) -> str:
    ids = [x.id for x in FREELANCERS]
    return ids[(ids.index(fid) + 1) % len(ids)]


async def wrong_conversation(d, p):
    await read(d, {"freelancer": UNREAD[(UNREAD.index(p["freelancer"]) + 1) % len(UNREAD)]})


async def wrong_freelancer(d, p):
    await save(d, {"freelancer": other(p["freelancer"])})


async def one_too_many(d, p):
    """The matches saved, then one more freelancer besides (from the full talent list)."""
    want = Shortlist.want(p)
    await shortlist(d, p)
    await save(d, {"freelancer": next(x.id for x in FREELANCERS if x.id not in want)})


async def not_sent(d, p):
    await message(d, p, send=False)


async def wrong_job(d, p):
    jobs = list(OPEN_JOBS)
    await invite(d, {**p, "job": jobs[(jobs.index(p["job"]) + 1) % len(jobs)]})


async def late_start(d, p):
    await hire(d, {**p, "start": (dt.date.fromisoformat(p["start"]) + dt.timedelta(days=1)).isoformat()})


async def wrong_duration(d, p):
    await post(d, {**p, "duration": DURATIONS[(DURATIONS.index(p["duration"]) + 1) % len(DURATIONS)]})


BROWSER_NEAR_MISSES = {"topwork.read": wrong_conversation, "topwork.save": wrong_freelancer,
                       "topwork.shortlist": one_too_many, "topwork.message": not_sent, "topwork.invite": wrong_job,
                       "topwork.hire": late_start, "topwork.post": wrong_duration}


# ---------------------------------------------------------------- near misses edited into a solved /finish JSON
def extra_save(state: dict) -> None:
    """Another freelancer saved as well (an unwanted change every TopWork family refuses)."""
    diff = state["initialfinaldiff"]
    saved = diff.setdefault("added", {}).setdefault("saved", {}).setdefault("savedFreelancerIds", {})
    n = len(saved) + len((diff.get("updated") or {}).get("saved", {}).get("savedFreelancerIds", {}))
    saved[str(n + 3)] = next(x.id for x in FREELANCERS[::-1] if x.id not in saved.values())


def extra_removal(state: dict) -> None:
    """A job post removed as well."""
    diff = state["initialfinaldiff"]
    diff.setdefault("deleted", {}).setdefault("jobs", {}).setdefault("jobs", {})["job-5"] = None
