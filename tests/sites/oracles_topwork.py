"""Scripted solutions of REAL's v2 topwork tasks on REAL-local TopWork, in HALO's action space.

TEST FIXTURES ONLY: they prove each task is solvable on the clone and that agisdk's script accepts the result.
They are never training data (HALO trains by online RL only). The client is Sarah Johnson; today on the site is
Thursday, July 18, 2024."""

from __future__ import annotations

from _shop_helpers import Step, click, fill, say, select


def find_talent(q: str = "", available: bool = False) -> list[Step]:
    steps = [click("link", "Find Talent")]
    if q or available:
        steps += [fill("textbox", "Search talent", q), *([click("checkbox", "Available now only")] if available else []),
                  click("button", "Search")]
    return steps


def invite(name: str, job: str, note: str = "") -> list[Step]:
    """From a talent list: the freelancer's profile, Invite to job, pick the job, a note, Send invitation."""
    return [click("link", name), click("link", "Invite to job"), select("Job", job),
            *([fill("textbox", "Message", note)] if note else []), click("button", "Send invitation")]


def hire(name: str, title: str, note: str, link: str = "Hire") -> list[Step]:
    return [click("link", name), click("link", link), fill("textbox", "Contract title", title),
            fill("textbox", "Message", note), click("button", "Send offer")]


def reply(name: str, text: str) -> list[Step]:
    """From the Messages page: open the conversation, write, Send."""
    return [click("link", name), fill("textbox", "Message", text), click("button", "Send")]


def messages() -> Step:
    return click("link", "Messages", prefix=True)


def post_job(title: str, description: str, category: str, lo: str, hi: str, size: str, duration: str,
             level: str, hire_: str, skills: str = "") -> list[Step]:
    return [click("link", "Post a Job"), fill("textbox", "Job title", title), fill("textbox", "Description", description),
            select("Category", category), *([fill("textbox", "Skills", skills)] if skills else []),
            fill("textbox", "Hourly rate from", lo), fill("textbox", "Hourly rate to", hi),
            select("Project size", size), select("Duration", duration), select("Experience level", level),
            select("Contract-to-hire", hire_), click("button", "Post job")]


API_JOB = "Backend Developer for Booking API"

ORACLES: dict[str, list[Step]] = {
    "topwork-2": [*find_talent("full stack"),
                  *invite("Priya Patel", API_JOB, "Hi Priya, would you be interested in building a fitness app "
                                                  "with me?"),
                  say("I invited Priya Patel, a full-stack developer, asking if she is interested in building a "
                      "fitness app with you.")],
    "topwork-3": [*find_talent("python", available=True),
                  *invite("Daniel Kim", API_JOB, "Your Python experience is a great fit for my project."),
                  say("I invited Daniel Kim (Python backend developer, available now) to your project.")],
    "topwork-4": [*find_talent("full stack"), *invite("Priya Patel", API_JOB),
                  say("I invited Priya Patel, a full-stack developer, to your job.")],
    "topwork-7": [*find_talent("python", available=True),
                  *hire("Daniel Kim", "Backend Developer", "Hi Daniel, I'd like to hire you to build our booking "
                                                            "API. Here is my offer."),
                  say("I sent Daniel Kim an offer for a Backend Developer contract with a message.")],
    "topwork-8": [click("link", "Jobs"), click("button", "Remove Data Analyst for Sales Dashboard"),
                  click("button", "Remove Machine Learning Engineer for Recommendations"),
                  say("I removed the two data related job posts: Data Analyst for Sales Dashboard and Machine "
                      "Learning Engineer for Recommendations.")],
    "topwork-9": [*post_job("Financial Analyst", "Financial analyst to build monthly reports and forecasts.",
                            "Finance & Accounting", "45", "65", "Medium", "3 to 6 months", "Intermediate",
                            "No, not at this time", skills="Excel, Financial Modeling"),
                  say("I posted a Financial Analyst job paying $45 to $65 an hour.")],
    "topwork-10": [messages(), *reply("Alex Rodriguez", "Hi Alex, I'm open to help you get set up. Let's find a "
                                                        "time today."),
                   say("I replied to Alex Rodriguez that you are open to help her get set up.")],
    "topwork-11": [click("link", "My hires"), click("link", "Natalie Scott"),
                   click("link", "Rehire"), fill("textbox", "Contract title", "Project Lead"),
                   fill("textbox", "Message", "Hi Natalie, I'd love to work with you again as our project lead."),
                   click("button", "Send offer"),
                   say("I sent Natalie Scott, whom you hired before, an offer to rejoin as Project Lead.")],
    "topwork-12": [messages(), *reply("Michael Thompson", "Thanks Michael! Please have it live by tomorrow."),
                   *reply("Olivia Brown", "Great work! I'll have the feedback round done by tomorrow."),
                   *reply("Alex Rodriguez", "Of course, I'll help you get set up."),
                   *reply("Sofia Garcia", "Thanks Sofia, the post looks great!"),
                   say("I replied to your four unread messages; Michael and Olivia asked about time frames, and I "
                       "told them tomorrow.")],
    "topwork-13": [*post_job("Data Annotator", "Verita AI is looking for a data annotator to label text and images. "
                             "Small, short-term project.", "Data Science & Analytics", "20", "25", "Small",
                             "1 to 3 months", "Entry", "No, not at this time", skills="Data Annotation"),
                   say("I posted a Data Annotator job for Verita AI: small, not permanent, $20 to $25 an hour.")],
    "topwork-14": [*find_talent(), click("button", "Save Ashley Campbell"), click("button", "Save Brandon Martinez"),
                   say("I saved Ashley Campbell and Brandon Martinez to your saved talent.")],
    "topwork-21": [*find_talent("python", available=True), click("link", "Daniel Kim"), click("link", "Message"),
                   fill("textbox", "Message", "Hi Daniel, are you free this week for a quick call about a project?"),
                   click("button", "Send"),
                   say("I messaged Daniel Kim, who is available now, asking if he is free for a call.")],
}

