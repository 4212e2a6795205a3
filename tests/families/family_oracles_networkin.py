"""Scripted solutions of NetworkIn's task families (TEST FIXTURES ONLY: never training data), and near misses.

``ORACLES[family](d, params)`` solves any instance through BrowserEnv, finding elements by role and name in the
current Observation (``d`` is ``tests/sites/site_helpers.py``'s Driver; the element names are those of
``tests/sites/oracles_networkin.py``). ``VERIFIED[family]`` names the parameters its grader must hold the episode to:
the tests grade a solved /finish JSON against the same parameters with one of them changed (another company, post,
event, member, comment, note or message) and expect a failure. ``BROWSER_NEAR_MISSES`` are wrong-but-close
episodes played in the browser.
"""

from __future__ import annotations

from halo.tasks.families.networkin import CONNECTABLE, FEED_COMPANIES, POST_BY_ID
from real_local.networkin.directory import BY_ID, COMPANY_BY_ID, EVENT_BY_ID, EVENTS


def author(pid: str) -> str:
    return POST_BY_ID[pid]["author"]["name"]


async def search(d, name: str) -> None:
    """The search box at the top of every page: the member by name."""
    await d.fill("textbox", "Search", name, exact=True)
    await d.click("button", "Search", exact=True)


async def follow(d, p):
    await d.click("button", f"Follow {COMPANY_BY_ID[p['company']].name}", exact=True)


async def like(d, p):
    await d.click("button", f"Like {author(p['post'])}'s post", exact=True)


async def attend(d, p):
    await d.click("link", "Events", exact=True)
    await d.click("link", EVENT_BY_ID[p["event"]].title, exact=True)
    await d.click("button", "Attend", exact=True)


async def connect(d, p, note: str = ""):
    name = BY_ID[p["member"]].name
    await search(d, name)
    await d.click("link", f"Invite {name} to connect", exact=True)
    if note:
        await d.fill("textbox", "Add a note", note, exact=True)
        await d.click("button", "Send", exact=True)
    else:
        await d.click("button", "Send without a note", exact=True)


async def comment(d, p, send: bool = True):
    await d.click("link", f"Comment on {author(p['post'])}'s post", exact=True)
    await d.fill("textbox", "Add a comment…", p["text"], exact=True)
    if send:
        await d.click("button", "Comment", exact=True)


async def post(d, p):
    await d.click("link", "Start a post", exact=True)
    await d.fill("textbox", "What do you want to talk about?", p["text"], exact=True)
    await d.click("button", "Post", exact=True)


async def invite(d, p):
    await connect(d, p, p["note"])


async def message(d, p, send: bool = True):
    name = BY_ID[p["member"]].name
    await search(d, name)
    await d.click("link", f"Message {name}", exact=True)
    await d.fill("textbox", "Write a message…", p["text"], exact=True)
    if send:
        await d.click("button", "Send", exact=True)


ORACLES = {"networkin.follow": follow, "networkin.like": like, "networkin.attend": attend,
           "networkin.connect": connect, "networkin.comment": comment, "networkin.post": post,
           "networkin.invite": invite, "networkin.message": message}

VERIFIED = {"networkin.follow": ("company",), "networkin.like": ("post",), "networkin.attend": ("event",),
            "networkin.connect": ("member",), "networkin.comment": ("post", "text"), "networkin.post": ("text",),
            "networkin.invite": ("member", "note"), "networkin.message": ("member", "text")}


# ---------------------------------------------------------------- near misses played in the browser
def _next(items: list, x):
    return items[(items.index(x) + 1) % len(items)]


async def wrong_company(d, p):
    await follow(d, {"company": _next(FEED_COMPANIES, p["company"])})


async def wrong_post(d, p):
    liked = [k for k in POST_BY_ID if POST_BY_ID[k]["authorId"] != "divgarg"]
    await like(d, {"post": _next(liked, p["post"])})


async def wrong_event(d, p):
    await attend(d, {"event": _next([e.id for e in EVENTS], p["event"])})


async def with_a_note(d, p):
    """Connected, but with a note the goal did not ask for."""
    await connect(d, p, f"Hi {BY_ID[p['member']].first}, let's connect!")


async def not_commented(d, p):
    await comment(d, p, send=False)


async def other_text(d, p):
    await post(d, {"text": p["text"] + " More soon."})


async def without_the_note(d, p):
    await connect(d, p)


async def not_sent(d, p):
    await message(d, p, send=False)


BROWSER_NEAR_MISSES = {"networkin.follow": wrong_company, "networkin.like": wrong_post,
                       "networkin.attend": wrong_event, "networkin.connect": with_a_note,
                       "networkin.comment": not_commented, "networkin.post": other_text,
                       "networkin.invite": without_the_note, "networkin.message": not_sent}


# ---------------------------------------------------------------- near misses edited into a solved /finish JSON
def extra_follow(state: dict) -> None:
    """Salesforce followed as well (not on the feed, so no follow instance asks for it)."""
    diff = state["initialfinaldiff"]
    ui = diff.setdefault("updated", {}).setdefault("ui", {})
    ui.setdefault("companies", {}).setdefault("followedCompanies", {})["salesforce"] = True


def extra_connection(state: dict) -> None:
    """One more member connected (the last connectable one, or the first where that is the goal's)."""
    diff = state["initialfinaldiff"]
    cl = diff.setdefault("added", {}).setdefault("contactList", {})
    have = set(cl.values())
    cl[str(20 + len(cl))] = next(m for m in CONNECTABLE[::-1] if m not in have)
