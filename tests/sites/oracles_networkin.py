"""Scripted solutions of REAL's v2 networkin tasks on REAL-local NetworkIn, in HALO's action space.

TEST FIXTURES ONLY: they prove each task is solvable on the clone and that agisdk's script accepts the result.
They are never training data (HALO trains by online RL only). The user is Div Garg, a summer intern at AGI Inc;
today on the site is Thursday, August 15, 2024."""

from __future__ import annotations

from _shop_helpers import Step, click, fill, say


def search(keywords: str) -> list[Step]:
    """The search box at the top of every page."""
    return [fill("textbox", "Search", keywords), click("button", "Search")]


def connect(name: str, note: str = "") -> list[Step]:
    """From a page listing ``name`` (search results, My Network): Connect, then send the invitation."""
    steps = [click("link", f"Invite {name} to connect")]
    if note:
        return [*steps, fill("textbox", "Add a note", note), click("button", "Send")]
    return [*steps, click("button", "Send without a note")]


def write_post(text: str) -> list[Step]:
    return [click("link", "Start a post"), fill("textbox", "What do you want to talk about?", text),
            click("button", "Post")]


def message(name: str, text: str) -> list[Step]:
    """From a page listing ``name`` as a connection: Message, write, Send."""
    return [click("link", f"Message {name}"), fill("textbox", "Write a message…", text), click("button", "Send")]


ORACLES: dict[str, list[Step]] = {
    "networkin-1": [click("link", "My Network"), click("button", "Follow Microsoft"), click("button", "Follow Google"),
                    click("button", "Follow Amazon"),
                    say("I followed Microsoft, Google and Amazon, three of the most followed companies.")],
    "networkin-5": [*search("software engineer"),
                    *message("James Lee", "Hi James! Would you be interested in working on a side project with me?"),
                    say("I messaged James Lee, a software engineer at Google you are connected with, asking if he is "
                        "interested in a side project.")],
    "networkin-6": [*search("new york"),
                    *connect("Michael Brown", "Hi Michael, I'm starting a new project and would love for you to "
                                              "join it. Interested?"),
                    say("I invited Michael Brown, a software engineer at Datadog in New York, to connect and join your "
                        "new project.")],
    "networkin-10": [click("link", "My Network"), *connect("Olivia Martinez"), click("link", "My Network"),
                     *connect("Michael Brown"), click("link", "My Network"), *connect("Ryan Miller"),
                     say("I connected with Olivia Martinez, Michael Brown and Ryan Miller.")],
    "networkin-11": [*write_post("I'm hosting a networking event for AI builders next Friday in San Francisco. DM me "
                                 "if you're interested!"),
                     click("link", "Send Div Garg's post"), click("checkbox", "Emily Davis"),
                     click("checkbox", "James Lee"), click("button", "Send"),
                     say("I posted about your networking event, asking people to DM you, and sent it to Emily Davis "
                         "and James Lee.")],
    "networkin-13": [*write_post("This summer I interned at AGI Inc, building browser agents. Grateful for an amazing "
                                 "summer internship and a great team!"),
                     say("I made a post about your summer internship at AGI Inc.")],
    "networkin-19": [*write_post("I just finished my internship at AGI Inc! Thank you to the whole team for an "
                                 "incredible summer."),
                     say("I posted that you finished your internship at AGI Inc.")],
    "networkin-25": [click("link", "Events"), click("link", "AI Builders Meetup: Agents in Production"),
                     click("button", "Attend"),
                     say("I marked you as attending the AI Builders Meetup: Agents in Production on August 22.")],
    "networkin-26": [*search("software engineer"),
                     *connect("Ryan Miller", "Hi Ryan, I'm a CS student hoping to become a software engineer. Could I "
                                             "ask you for some advice?"),
                     say("I found Ryan Miller, a software engineer at Stripe, and asked him for advice in a "
                         "connection request.")],
    "networkin-27": [*search("Olivia Martinez"), *connect("Olivia Martinez"),
                     say("I connected with Olivia Martinez.")],
}
