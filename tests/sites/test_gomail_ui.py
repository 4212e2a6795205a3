"""GoMail behaviours no REAL v2 task exercises, driven in real Chromium through BrowserEnv: stars, forward,
spam, labels on conversations, the snackbar and the compose dialog's own validation."""

from __future__ import annotations

import pytest

from halo.env import actions as A
from halo.env.alerts import page_alerts
from halo.policy.prompt import PromptConfig, build_prompt
from halo.rl.rewards import DenseRewardCalculator, RewardConfig, Shaping

pytestmark = pytest.mark.browser


async def test_star_forward_spam_and_label(run_episode):
    async def flows(d):
        await d.click("button", "Not starred")  # the first row's star
        assert d.has("button", "Starred", exact=True)
        await d.click("link", "Carol Adams")
        await d.click("button", "Forward")
        await d.fill("textbox", "To recipients", "kevin")
        await d.click("option", "Kevin Moore")
        await d.fill("textbox", "Message Body", "FYI")
        await d.click("button", "Send", exact=True)
        assert d.sees("Message sent")
        await d.click("button", "Report spam", exact=True)  # back on the email: spam it
        await d.click("button", "Create new label")
        await d.fill("textbox", "Please enter a new label name:", "Clients")
        await d.click("button", "Create", exact=True)
        await d.click("checkbox", "Select conversation: Sales pipeline update")
        await d.click("button", "Label as", exact=True)
        await d.click("menuitem", "Clients")
        assert d.sees('Conversation labeled "Clients"')

    res, _ = await run_episode("v2.gomail-16", flows)
    state = res.info.grade.finish_state
    updated = {u["id"]: u for u in state["differences"]["emails"]["updated"]}
    assert updated["46"]["starred"] is True  # newest inbox email: Sarah Johnson's
    assert updated["41"]["spam"] is True and updated["35"]["labels"] == ["Clients"]
    fwd, = state["differences"]["emails"]["added"]
    assert fwd["to"] == ["kevin.moore@example.com"] and fwd["subject"] == "Fwd: Meeting agenda for Thursday"
    assert "Forwarded message" in fwd["content"] and fwd["isReply"] is False


async def test_compose_refuses_a_bad_address_without_leaving_the_page(run_episode):
    async def bad(d):
        await d.click("button", "Compose")
        await d.fill("textbox", "To recipients", "not an address")
        await d.fill("textbox", "Subject", "x", exact=True)
        before = d.obs
        await d.click("button", "Send", exact=True)
        assert d.sees('The address "not an address" was not recognized')
        # what the prompt's Alert line and the alert shaping read: the refusal's text, new after the click
        alert, = page_alerts(d.obs)
        assert alert.startswith('The address "not an address" was not recognized') and not page_alerts(before)
        shaping = RewardConfig(shaping=Shaping(alert=-0.3))
        assert DenseRewardCalculator(shaping).compute_reward(before, A.Click("1"), d.obs, None, False,
                                                             False).parts["alert"] == -0.3
        cfg = PromptConfig(system="none", user="compact", alerts=True)
        assert f"Alert: {alert}" in build_prompt(d.obs, cfg).user_text.splitlines()

    res, _ = await run_episode("v2.gomail-4", bad)
    assert res.info.grade.finish_state["differences"]["emails"]["added"] == []


async def test_leaving_the_to_field_closes_its_suggestions_before_the_page_is_read(run_episode):
    """A name typed into To opens its suggestions; typing into the next field closes them at once, so the page the
    agent reads after that step never lists options that vanish a moment later (a click on one then fails)."""
    async def leave(d):
        await d.click("button", "Compose")
        await d.fill("textbox", "To recipients", "kevin")
        assert d.has("option", "Kevin Moore") and d.has("listbox", "Contact suggestions")
        await d.fill("textbox", "Subject", "Hello", exact=True)
        assert not d.has("option", "Kevin Moore") and not d.has("listbox", "Contact suggestions")
        await d.fill("textbox", "To recipients", "kevin")
        await d.click("option", "Kevin Moore")  # picking still works: the mousedown keeps the focus in To
        assert d.has("button", "Remove Kevin Moore") and not d.has("option", "Kevin Moore")

    await run_episode("v2.gomail-4", leave)


async def test_compose_with_cc_by_typing_full_addresses(run_episode):
    async def cc(d):
        await d.click("button", "Compose")
        await d.fill("textbox", "To recipients", "kevin.moore@example.com")
        await d.press("textbox", "To recipients", "Enter")  # picks the highlighted suggestion
        await d.click("button", "Add Cc recipients")
        await d.fill("textbox", "Cc recipients", "someone.new@example.org")
        await d.press("textbox", "Cc recipients", ",")  # not a contact: a comma makes the typed address a chip
        await d.fill("textbox", "Subject", "Project details", exact=True)
        await d.fill("textbox", "Message Body", "Please share the project details.")
        await d.click("button", "Send", exact=True)

    res, _ = await run_episode("v2.gomail-8", cc)
    sent, = res.info.grade.finish_state["differences"]["emails"]["added"]
    assert sent["to"] == ["kevin.moore@example.com"] and sent["cc"] == ["someone.new@example.org"]
    assert not res.info.grade.success  # eval_gomail_8 wants Kevin alone: no Cc


async def test_undo_takes_back_the_last_bulk_action(run_episode):
    async def undo(d):
        await d.click("checkbox", "Select all", exact=True)
        await d.click("button", "Delete", exact=True)
        assert d.sees("50 conversations moved to Trash")
        await d.click("button", "Undo", exact=True)
        assert d.sees("Action undone") and not d.has("button", "Undo", exact=True)

    res, _ = await run_episode("v2.gomail-14", undo)
    state = res.info.grade.finish_state
    assert state["differences"]["emails"]["updated"] == [] and not res.info.grade.success


async def test_closing_compose_saves_a_draft_that_can_be_sent_later(run_episode):
    async def draft(d):
        await d.click("button", "Compose")
        await d.fill("textbox", "To recipients", "brian")
        await d.click("option", "Brian King")
        await d.fill("textbox", "Subject", "Meeting notes", exact=True)
        await d.click("button", "Save & close")
        assert d.sees("Draft saved")
        await d.click("link", "Drafts")
        await d.click("link", "Draft Meeting notes")
        assert d.find("textbox", "Subject", exact=True).value == "Meeting notes"
        await d.fill("textbox", "Message Body", "Could you send me the meeting notes?")
        await d.click("button", "Send", exact=True)
        assert d.sees("Message sent")

    res, _ = await run_episode("v2.gomail-18", draft)
    sent, = res.info.grade.finish_state["differences"]["emails"]["added"]
    assert sent["sent"] is True and sent["draft"] is False and sent["to"] == ["brian.king@example.com"]
    assert res.info.grade.success


async def test_a_forward_shows_and_sends_gmails_header_block(run_episode):
    async def fwd(d):
        await d.click("link", "Carol Adams")
        await d.click("button", "Forward")
        assert d.has("region", "Forward", exact=True) and not d.has("region", "Reply", exact=True)
        for line in ("---------- Forwarded message ---------", "<carol.adams@example.com>",  # From: <b>Carol Adams</b>
                     "Date: Fri, Jul 12, 2024 at 8:47 AM", "Subject: Meeting agenda for Thursday",
                     "To: Sam Taylor <sam.taylor@example.com>"):
            assert d.sees(line), line
        await d.fill("textbox", "To recipients", "kevin.moore@example.com")
        await d.click("button", "Send", exact=True)
        assert d.sees("Message sent")

    res, _ = await run_episode("v2.gomail-16", fwd)
    (sent,) = res.info.grade.finish_state["differences"]["emails"]["added"]
    assert sent["subject"] == "Fwd: Meeting agenda for Thursday" and sent["time"] == "10:42"
    assert "From: <strong>Carol Adams</strong> &lt;carol.adams@example.com&gt;<br>Date: Fri, Jul 12, 2024" in sent["content"]
    assert "Here&#x27;s the agenda" in sent["content"] or "Here's the agenda" in sent["content"]


async def test_an_empty_message_asks_before_it_is_sent(run_episode):
    async def empty(d):
        await d.click("button", "Compose")
        await d.fill("textbox", "To recipients", "kevin.moore@example.com")
        await d.click("button", "Send", exact=True)
        assert d.sees("Send this message without a subject or text in the body?")
        await d.click("button", "Cancel", exact=True)
        assert not d.sees("Send this message without") and d.has("textbox", "Subject", exact=True)
        await d.click("button", "Send", exact=True)
        await d.click("button", "OK", exact=True)
        assert d.sees("Message sent")

    res, _ = await run_episode("v2.gomail-4", empty)
    (sent,) = res.info.grade.finish_state["differences"]["emails"]["added"]
    assert sent["subject"] == "" and sent["to"] == ["kevin.moore@example.com"] and sent["sent"] is True


async def test_row_hover_actions_act_on_that_email(run_episode):
    from halo.env import actions as A

    async def hover_row(d, subject):
        await d.step(A.Hover(d.find("checkbox", f"Select conversation: {subject}").id))

    async def hover(d):
        assert not d.has("button", "Archive", exact=True) and not d.has("button", "Snooze", exact=True)
        await hover_row(d, "Sales pipeline update")  # Gmail's hover actions appear at the row's right
        assert d.has("button", "Archive", exact=True) and d.has("button", "Snooze", exact=True)
        assert d.has("button", "Delete", exact=True) and d.has("button", "Mark as", exact=False)
        await d.click("button", "Archive", exact=True)
        assert d.sees("Conversation archived") and not d.has("checkbox", "Select conversation: Sales pipeline update")
        await hover_row(d, "Meeting agenda for Thursday")
        await d.click("button", "Snooze", exact=True)
        await d.click("menuitem", "Tomorrow")
        assert d.sees("Conversation snoozed until Fri, Jul 19")
        assert not d.has("checkbox", "Select conversation: Meeting agenda for Thursday")
        # Snooze's "Select date & time" (issue 16, point 4): a dialog with the date and time to type
        await hover_row(d, "Lease renewal documents")
        await d.click("button", "Snooze", exact=True)
        await d.click("menuitem", "Select date & time")
        await d.fill("textbox", "Date", "Jul 25, 2024", exact=True)
        await d.fill("textbox", "Time", "3:30 PM", exact=True)
        await d.click("button", "Save", exact=True)
        assert d.sees("Conversation snoozed until Thu, Jul 25, 3:30 PM")
        # Schedule send: Send's arrow, Schedule send, Pick date & time
        await d.click("button", "Compose")
        await d.fill("textbox", "To recipients", "kevin.moore@example.com")
        await d.fill("textbox", "Subject", "Weekly Update", exact=True)
        await d.click("button", "More send options", exact=True)
        await d.click("menuitem", "Schedule send", exact=True)
        assert d.has("button", "Tomorrow morning Jul 19, 8:00 AM", exact=True)
        await d.click("button", "Pick date & time", exact=True)
        await d.fill("textbox", "Date", "Jul 22, 2024", exact=True)
        await d.fill("textbox", "Time", "9:00 AM", exact=True)
        await d.click("button", "Schedule send", exact=True)
        assert d.sees("Send scheduled for Mon, Jul 22, 9:00 AM")
        await d.click("link", "Scheduled", exact=True)
        assert d.has("link", "To: kevin.moore@example.com Weekly Update")

    res, _ = await run_episode("v2.gomail-16", hover)
    diff = res.info.grade.finish_state["differences"]["emails"]
    assert diff["updated"] == [{"id": "35", "archived": True}]  # that email only, nothing was selected
    assert [e["id"] for e in diff["deleted"]] == ["37", "41"]  # a snoozed email leaves the collection, as on REAL
    changed = res.info.grade.finish_state["initialfinaldiff"]["updated"]["email"]["emails"]
    assert {i: changed[i]["snoozeUntil"] for i in ("37", "41")} == {"37": "2024-07-25T15:30", "41": "2024-07-19T08:00"}
    (sched,) = diff["added"]
    assert (sched["scheduled"], sched["sent"], sched["scheduledFor"]) == (True, False, "2024-07-22T09:00")
