"""Scripted solutions of REAL's 21 GoMail v2 tasks on REAL-local (TEST FIXTURES ONLY: never training data).

Each oracle drives the site the way a careful agent would: element actions on ids found by role and name in the
current Observation, plus a few coordinate clicks (``click_xy``). ``d`` is ``tests/sites/conftest.py``'s Driver.
"""

from __future__ import annotations


async def search(d, text: str) -> None:
    await d.fill("textbox", "Search mail", text)
    await d.press("textbox", "Search mail", "Enter")


async def select_all_and(d, action: str) -> None:
    await d.click("checkbox", "Select all", exact=True)
    await d.click("button", action, exact=True)


async def compose(d, contact: str, pick: str, subject: str, body: str) -> None:
    """Compose: type part of a name, pick the suggested contact, then subject and body, Send."""
    await d.click_xy("button", "Compose")
    await d.fill("textbox", "To recipients", contact)
    await d.click("option", pick)
    await d.fill("textbox", "Subject", subject, exact=True)
    await d.fill("textbox", "Message Body", body)
    await d.click("button", "Send", exact=True)


async def gomail_1(d):
    await select_all_and(d, "Mark as read")
    await search(d, "amazon")
    await select_all_and(d, "Delete")


async def gomail_2(d):
    await search(d, "uber")
    await select_all_and(d, "Delete")
    await search(d, "notification")
    await select_all_and(d, "Delete")


async def gomail_4(d):
    await compose(d, "alexa", "Alexa Richardson", "Files",
                  "Hi Alexa,\nPlease let me know when the files come in.\nThanks, Sam")


async def gomail_5(d):
    await d.click("link", "Starred")
    await select_all_and(d, "Delete")
    await compose(d, "alexa", "Alexa Richardson", "Signing my work permit",
                  "Hi Alexa,\nCould you sign my work permit this week?\nThanks, Sam")


async def gomail_7(d):
    await compose(d, "ashley", "Ashley Campbell", "Team dinner",
                  "Hi Ashley,\nAre you coming to the team dinner on Friday?\nSam")


async def gomail_8(d):
    await compose(d, "kevin", "Kevin Moore", "Project details",
                  "Hi Kevin,\nCould you send me the project details?\nThanks, Sam")


async def gomail_9(d):
    await compose(d, "barbara", "Barbara Thomas", "Project plan",
                  "Hi Barbara,\nI'd like to go over the project plan with you this week.\nSam")


async def gomail_11(d):
    await d.click("link", "Older")  # page 2: 50 emails, all older than two months
    await select_all_and(d, "Delete")


async def gomail_12(d):
    await compose(d, "charles", "Charles Davis", "New clients",
                  "Hi Charles,\nHave you found any new clients?\nSam")


async def gomail_13(d):
    await compose(d, "carol", "Carol Adams", "Meeting time change",
                  "Hi Carol,\nThere has been a time change for the meeting: it is now moved to 8:30 AM.\nSam")


async def gomail_14(d):
    await select_all_and(d, "Delete")


async def gomail_15(d):
    await compose(d, "danielle", "Danielle Brooks", "System update launched",
                  "Hi Danielle,\nThe new system update has been launched.\nSam")


async def gomail_16(d):
    await d.click("button", "Create new label")
    await d.fill("textbox", "Please enter a new label name:", "Support Emails")
    await d.click("button", "Create", exact=True)


async def gomail_17(d):
    for subject in ("Lunch today?", "Your Thursday morning trip with Uber", "Contract signed!"):
        await d.click("checkbox", f"Select conversation: {subject}", exact=True)
    await d.click("button", "Archive", exact=True)


async def gomail_18(d):
    await compose(d, "brian", "Brian King", "Meeting notes",
                  "Hi Brian,\nCould you please send me the meeting notes?\nThanks, Sam")


async def gomail_19(d):
    await compose(d, "angela", "Angela White", "FTA",
                  "Hi Angela,\nWhen do you go on FTA?\nSam")


async def gomail_20(d):
    await d.click("checkbox", "Select all", exact=True)
    await d.click("button", "Select all 416 conversations in Inbox")
    await d.click("button", "Delete", exact=True)


async def gomail_21(d):
    await search(d, "alerts")
    await d.click("checkbox", "Select all", exact=True)
    await d.click("button", "Snooze", exact=True)
    await d.click("menuitem", "Next week")


async def gomail_23(d):
    await d.click("link", "Jane Smith")
    await d.click("button", "Reply", exact=True)
    await d.fill("textbox", "Message Body", "Hi Jane,\nSure, I'll review the proposal before Friday.\nSam")
    await d.click("button", "Send", exact=True)
    await search(d, "support")
    await select_all_and(d, "Delete")


async def gomail_24(d):
    await search(d, "John Doe")
    await select_all_and(d, "Delete")


async def gomail_26(d):
    await search(d, "no-reply")
    await select_all_and(d, "Delete")


ORACLES = {f"v2.{name.replace('_', '-')}": fn for name, fn in dict(globals()).items()
           if name.startswith("gomail_") and callable(fn)}
