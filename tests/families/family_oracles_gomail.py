"""Scripted solutions of GoMail's task families (TEST FIXTURES ONLY: never training data), and near misses.

``ORACLES[family](d, params)`` solves any instance through BrowserEnv, finding elements by role and name in the
current Observation (``d`` is ``tests/sites/site_helpers.py``'s Driver). ``NEAR_MISSES[family](finish, params)``
turns the /finish JSON of a solved instance into a near-correct one (wrong recipient, wrong email, ...) that its
grader must refuse. (Named ``family_oracles_*`` so they never shadow ``tests/sites/oracles_*``.)
"""

from __future__ import annotations

import copy
import re
from typing import Any

from halo.env import actions as A
from halo.tasks.families.gomail import _EMAILS

FOLDER_LINKS = {"starred": "Starred", "snoozed": "Snoozed", "sent": "Sent", "drafts": "Drafts",
                "scheduled": "Scheduled", "all": "All Mail", "spam": "Spam", "trash": "Trash"}


def folder_link(d, folder: str):
    """A sidebar link: its name is the folder's, followed by its count where Gmail shows one ("Spam 5", "Drafts 2")."""
    want = FOLDER_LINKS[folder]
    for el in d.obs.elements.values():
        if el.role == "link" and re.fullmatch(rf"{re.escape(want)}( \d+)?", el.name.strip()):
            return el
    raise AssertionError(f"no sidebar link {want!r}")


def row_name(eid: str) -> str:
    """The start of an Inbox row link's name: sender, then subject."""
    e = _EMAILS[eid]
    return f"{e['name']} {e['subject']}"


def star_button(d, eid: str):
    """The star toggle of an email's row: the button left of its link, on the same line."""
    link = d.find("link", row_name(eid))
    ly = link.bbox[1] + link.bbox[3] / 2
    for el in d.obs.elements.values():
        if (el.role == "button" and el.name in ("Starred", "Not starred") and el.bbox is not None
                and abs(el.bbox[1] + el.bbox[3] / 2 - ly) < 10 and el.bbox[0] < link.bbox[0]):
            return el
    raise AssertionError(f"no star button in the row of email {eid}")


async def folder(d, p):
    await d.step(A.Click(folder_link(d, p["folder"]).id))


async def open_email(d, p):
    await d.click("link", row_name(p["id"]))


async def star(d, p):
    await d.step(A.Click(star_button(d, p["id"]).id))


async def trash(d, p):
    await d.click("checkbox", f"Select conversation: {_EMAILS[p['id']]['subject']}", exact=True)
    await d.click("button", "Delete", exact=True)


async def label(d, p):
    await d.click("button", "Create new label")
    await d.fill("textbox", "Please enter a new label name:", p["label"])
    await d.click("button", "Create", exact=True)


async def reply(d, p):
    await d.click("link", row_name(p["id"]))
    await d.click("button", "Reply", exact=True)
    await d.fill("textbox", "Message Body", p["message"])
    await d.click("button", "Send", exact=True)


async def send_click(d, p):  # gomail.send's stages, each a rung that starts where the one before it ends
    await d.click("button", "Send", exact=True)


async def send_body(d, p):
    await d.fill("textbox", "Message Body", f"Hi {p['name'].split()[0]},\n{p['body']}\nSam")
    await send_click(d, p)


async def send_title(d, p):  # one field missing: the subject, or (send_to) the recipient
    await d.fill("textbox", "Subject", p["subject"], exact=True)
    await send_click(d, p)


async def pick_recipient(d, p):
    await d.fill("textbox", "To recipients", p["name"].split()[0].lower())
    await d.click("option", p["name"])


async def send_pick(d, p):  # the name already typed into To (?typing=): its suggestion, then Send
    await d.click("option", p["name"])
    await send_click(d, p)


async def send_to(d, p):
    await pick_recipient(d, p)
    await send_click(d, p)


async def send_subject(d, p):
    await d.fill("textbox", "Subject", p["subject"], exact=True)
    await send_body(d, p)


async def send_address(d, p):
    await pick_recipient(d, p)
    await send_subject(d, p)


async def send(d, p):
    await d.click_xy("button", "Compose")
    await send_address(d, p)


async def send_compose(d, p):  # the message written in a closed window (?hidden=1): Compose opens it, then Send
    await d.click_xy("button", "Compose")
    await send_click(d, p)


ORACLES = {"gomail.folder": folder, "gomail.open": open_email, "gomail.star": star, "gomail.trash": trash,
           "gomail.label": label, "gomail.reply": reply, "gomail.send": send, "gomail.send_click": send_click,
           "gomail.send_body": send_body, "gomail.send_subject": send_subject, "gomail.send_address": send_address,
           "gomail.send_title": send_title, "gomail.send_to": send_to, "gomail.send_pick": send_pick,
           "gomail.send_compose": send_compose}


# ---------------------------------------------------------------- near misses, played in the browser
def other_email(eid: str) -> str:
    """Another email of the Inbox's first page (the row below, or above for the last)."""
    from halo.tasks.families.gomail import PAGE1

    i = PAGE1.index(eid)
    return PAGE1[i + 1 if i + 1 < len(PAGE1) else i - 1]


async def wrong_folder(d, p):
    names = list(FOLDER_LINKS)
    await folder(d, {"folder": names[(names.index(p["folder"]) + 1) % len(names)]})


async def wrong_star(d, p):
    await star(d, {"id": other_email(p["id"])})


async def send_without_body(d, p):  # the rung's prefilled fields alone are not a send: the message must be typed
    await send_click(d, p)


BROWSER_NEAR_MISSES = {"gomail.folder": wrong_folder, "gomail.star": wrong_star, "gomail.send_body": send_without_body,
                       # Send with the name only typed, its suggestion not picked: "Angela" is no address, nothing sent
                       "gomail.send_pick": send_without_body,
                       "gomail.open": lambda d, p: open_email(d, {"id": other_email(p["id"])})}


# ---------------------------------------------------------------- near misses, edits of a solved /finish JSON
def _sent(state: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in state["differences"]["emails"]["added"] if e.get("sent"))


def _set_path(state: dict[str, Any], path: str) -> None:
    state["initialfinaldiff"].setdefault("updated", {}).setdefault("router", {}).setdefault("location", {})[
        "pathname"] = path


def _also_trash(state: dict[str, Any], eid: str) -> None:
    state["differences"]["emails"]["updated"].append({"id": eid, "trash": True})


def nm_open(s, p):
    _set_path(s, f"/email/{other_email(p['id'])}")


def nm_star(s, p):
    for u in s["differences"]["emails"]["updated"]:
        if u["id"] == p["id"]:
            u["id"] = other_email(p["id"])


def nm_trash(s, p):
    _also_trash(s, other_email(p["id"]))  # a second email deleted too


def nm_label(s, p):
    (made,) = s["initialfinaldiff"]["added"]["settings"]["customLabels"].values()  # after the mailbox's own labels
    made["label"] = p["label"] + "s"


def nm_reply(s, p):
    e = _sent(s)
    e["to"] = [_EMAILS[other_email(p["id"])]["from"]]


def nm_send(s, p):
    _sent(s)["to"] = [p["to"].replace("@", "2@")]


def nm_send_subject(s, p):
    _sent(s)["subject"] = "Re: " + p["subject"] + " (2)"


NEAR_MISSES = {"gomail.folder": lambda s, p: _set_path(s, "/inbox"), "gomail.open": nm_open, "gomail.star": nm_star,
               "gomail.trash": nm_trash, "gomail.label": nm_label, "gomail.reply": nm_reply,
               "gomail.send": nm_send,
               **{f"gomail.send_{r}": nm_send for r in ("click", "compose", "body", "subject", "address", "title", "to", "pick")}}
EXTRA_NEAR_MISSES = [("gomail.send", nm_send_subject), ("gomail.send_click", nm_send_subject)]


def near_miss(state: dict[str, Any], family: str, params: dict[str, Any], fn=None) -> dict[str, Any]:
    s = copy.deepcopy(state)
    (fn or NEAR_MISSES[family])(s, params)
    return s
