"""TopWork's state, in what REAL's twelve v2 topwork scripts read from ``initialfinaldiff``.

The client is Sarah Johnson (the scripts look for her as a message's author). Slices:

- ``messages.contactList``: the conversations, a list (a new conversation is appended, so it shows whole under
  ``added.messages.contactList["<n>"]`` with its ``id`` and ``job``, which topwork-2/3/4 read); each contact:
  ``id`` (the freelancer's id), ``name``, ``job`` (their title), ``unread``, ``lastMessage``,
  ``lastMessageAuthor``, ``lastMessageTime``, ``messages`` (``{author, message, time, type}`` keyed "0", "1", ...:
  an object, not a list, so a new conversation's messages read as the diff's index-keyed objects do; topwork-7
  finds an offer message only as a value of an object, topwork-10/12 read ``messages`` only as one). A reply is
  authored "Sarah Johnson" (topwork-10/12/21); an invitation to a job is authored "Client" and says "invite ... job"
  (topwork-3/4); an offer message has ``type: "offer"`` and the ``offer`` itself (topwork-7).
- ``messages.selectedChatId``: not in the seed; set when a conversation is opened, so it shows under ``added``
  (topwork-10 reads ``added.messages.selectedChatId``).
- ``offers.offers``: offers sent (``id``, ``contractTitle``, ``freelancerId``, ``description``, ``status``
  "Pending", ...): topwork-2/7/11.
- ``jobs.jobs``: the client's job posts keyed by id (a removal leaves the other posts' diff untouched): ``title``,
  ``description``, ``category``, ``skills``, ``hourlyRateFrom``/``hourlyRateTo``, ``estimateSize``,
  ``estimateTime``, ``estimateLevelExperience``, ``estimateHireOpportunity``, ``status``, ``applications``
  (topwork-3/9/13/14).
- ``jobs.removedJobPosts``: not in the seed; a list of the removed posts, created whole on the first removal, so it
  shows as a list under ``added`` (topwork-8 reads ``added.jobs.removedJobPosts``).
- ``saved.savedFreelancerIds``: saved talent (topwork-14).

``differences`` (no topwork script reads it): per collection, ``{"added", "updated", "deleted"}``.
"""

from __future__ import annotations

import copy
from typing import Any

from real_local.core import collection_differences

CLIENT = "Sarah Johnson"
COMPANY = "Johnson Digital"
TODAY = "2024-07-18"  # Thursday

SIZES = {"large": "Large", "medium": "Medium", "small": "Small"}
DURATIONS = ("More than 6 months", "3 to 6 months", "1 to 3 months")
LEVELS = {"entry": "Entry", "intermediate": "Intermediate", "expert": "Expert"}
HIRE_OPPORTUNITY = {"yes": "Yes, this could become a full-time role", "no": "No, not at this time"}
CATEGORIES = ("Web Development", "Mobile Development", "Data Science & Analytics", "Design & Creative",
              "Writing", "Finance & Accounting", "Admin Support", "Other")


def _msg(author: str, text: str, time: str) -> dict[str, Any]:
    return {"author": author, "message": text, "time": time, "type": "text"}


def _contact(fid: str, name: str, job: str, unread: bool, msgs: list[dict]) -> dict[str, Any]:
    last = msgs[-1]
    return {"id": fid, "name": name, "job": job, "unread": unread, "lastMessage": last["message"],
            "lastMessageAuthor": last["author"], "lastMessageTime": last["time"],
            "messages": {str(i): m for i, m in enumerate(msgs)}}


CONTACTS = [
    _contact("alexrodriguez", "Alex Rodriguez", "Project Coordinator", True, [
        _msg(CLIENT, "Welcome aboard, Alex! Glad to have you coordinating the project.", "2024-07-16 10:02"),
        _msg("Alex Rodriguez", "Thanks Sarah! I'm new to TopWork and to your tools. Would you be able to help me "
             "get set up with the workspace and the project board?", "2024-07-17 09:15")]),
    _contact("michaelthompson", "Michael Thompson", "DevOps Engineer", True, [
        _msg(CLIENT, "Hi Michael, the staging server is ready for you.", "2024-07-15 14:30"),
        _msg("Michael Thompson", "Thanks! The pipeline config is almost done. What's the time frame for the "
             "production deployment: when do you need it live?", "2024-07-17 16:40")]),
    _contact("oliviabrown", "Olivia Brown", "Graphic Designer", True, [
        _msg(CLIENT, "Hi Olivia, looking forward to seeing the logo concepts.", "2024-07-12 11:00"),
        _msg("Olivia Brown", "The first three logo drafts are ready. By when would you like your feedback round "
             "done, so I can plan the final versions?", "2024-07-18 08:05")]),
    _contact("sofiagarcia", "Sofia Garcia", "Content Writer", True, [
        _msg("Sofia Garcia", "Hi Sarah, I just published the July blog post. Thanks again for the great brief!",
             "2024-07-17 12:20")]),
    _contact("nataliescott", "Natalie Scott", "Project Manager", False, [
        _msg("Natalie Scott", "The mobile launch wrap-up report is in the shared folder.", "2024-04-28 17:45"),
        _msg(CLIENT, "Thank you Natalie, it was a pleasure working with you.", "2024-04-29 09:10")]),
]


def _job(jid: str, title: str, category: str, skills: list[str], lo: int, hi: int, size: str, time: str,
         level: str, hire: str, description: str, apps: list[str], posted: str) -> dict[str, Any]:
    return {"id": jid, "title": title, "description": description, "category": category, "skills": skills,
            "hourlyRateFrom": lo, "hourlyRateTo": hi, "estimateSize": size, "estimateTime": time,
            "estimateLevelExperience": level, "estimateHireOpportunity": hire, "status": "published",
            "postedDate": posted,
            "applications": [{"freelancerId": f, "status": "Submitted"} for f in apps]}


JOBS = [
    _job("job-1", "Data Analyst for Sales Dashboard", "Data Science & Analytics", ["SQL", "Tableau", "Excel"],
         30, 45, "medium", "1 to 3 months", "intermediate", "no",
         "Build a sales dashboard from our order data and explain the trends in a short analysis each month.",
         ["emilychen"], "2024-07-02"),
    _job("job-2", "Machine Learning Engineer for Recommendations", "Data Science & Analytics",
         ["Python", "scikit-learn", "pandas"], 60, 90, "large", "3 to 6 months", "expert", "yes",
         "Design and train a recommendation model for our online store.", ["emilychen", "danielkim"],
         "2024-07-05"),
    _job("job-3", "Backend Developer for Booking API", "Web Development", ["Python", "Django", "REST APIs"],
         45, 70, "medium", "3 to 6 months", "intermediate", "no",
         "Build the REST API behind our class booking website: accounts, bookings, payments.",
         ["danielkim", "kevinnguyen"], "2024-07-08"),
    _job("job-4", "Brand Identity Designer", "Design & Creative", ["Logo Design", "Branding", "Adobe Illustrator"],
         35, 55, "small", "1 to 3 months", "intermediate", "no",
         "A logo, color palette and brand guide for a new product line.", ["oliviabrown", "ashleycampbell"],
         "2024-07-10"),
    _job("job-5", "Blog Content Writer", "Writing", ["Copywriting", "SEO", "Blog Writing"], 25, 40, "small",
         "More than 6 months", "entry", "no", "Two blog posts a month for our product's website.",
         ["sofiagarcia"], "2024-07-11"),
]


def seed(task_id: str | None = None) -> dict[str, Any]:
    return {"messages": {"contactList": copy.deepcopy(CONTACTS)},
            "offers": {"offers": []},
            "jobs": {"jobs": {j["id"]: copy.deepcopy(j) for j in JOBS}},
            "saved": {"savedFreelancerIds": []}}


def differences(initial: dict[str, Any], final: dict[str, Any]) -> dict[str, Any]:
    def by(rs: list[dict], key: str = "id") -> dict[str, dict]:
        return {str(r[key]): r for r in rs}

    saved_i, saved_f = initial["saved"]["savedFreelancerIds"], final["saved"]["savedFreelancerIds"]
    return {"contacts": collection_differences(by(initial["messages"]["contactList"]),
                                               by(final["messages"]["contactList"])),
            "offers": collection_differences(by(initial["offers"]["offers"]), by(final["offers"]["offers"])),
            "jobs": collection_differences(initial["jobs"]["jobs"], final["jobs"]["jobs"]),
            "savedFreelancers": {"added": [i for i in saved_f if i not in saved_i],
                                 "deleted": [i for i in saved_i if i not in saved_f]}}
