"""TopWork over real HTTP: REAL's v2 topwork tasks graded by agisdk's own scripts after the requests a browser would
send (SUCCESS) and after nothing (FAILURE); near misses the scripts must reject; their loose and strict checks,
pinned; the finish JSON's layout the scripts read; bad input; isolation."""

from __future__ import annotations

import importlib.util
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import agisdk
import pytest
from _shop_helpers import HttpEpisode
from oracle_suite import http_suite

from real_local.topwork import state as st
from real_local.topwork.talent import BY_ID, search


# ---------------------------------------------------------------- what a browser sends
def invite(ep: HttpEpisode, fid: str, job: str = "job-3", message: str = "") -> None:
    assert ep.client.get(f"/freelancers/{fid}/invite").status_code == 200
    r = ep.client.post(f"/freelancers/{fid}/invite", data={"job": job, "message": message})
    assert r.status_code == 200 and "Invitation sent" in r.text, r.text[:400]


def hire(ep: HttpEpisode, fid: str, title: str, message: str = "I'd like to offer you this contract.",
         rate: str = "", start: str = "2024-07-22") -> None:
    assert ep.client.get(f"/freelancers/{fid}/hire").status_code == 200
    r = ep.client.post(f"/freelancers/{fid}/hire", data={"contractTitle": title, "job": "", "hourlyRate": rate,
                                                         "startDate": start, "message": message})
    assert r.status_code == 200 and "Offer sent" in r.text, r.text[:400]


def message(ep: HttpEpisode, cid: str, text: str) -> None:
    assert ep.client.get(f"/messages/{cid}").status_code == 200
    r = ep.client.post(f"/messages/{cid}", data={"message": text})
    assert r.status_code == 200 and "Message sent" in r.text, r.text[:400]


def save(ep: HttpEpisode, *fids: str) -> None:
    for fid in fids:
        assert ep.client.post(f"/freelancers/{fid}/save", data={"next": "/talent"}).status_code == 200


def remove(ep: HttpEpisode, *jids: str) -> None:
    for jid in jids:
        r = ep.client.post(f"/jobs/{jid}/remove")
        assert r.status_code == 200 and "removed" in r.text


def post_job(ep: HttpEpisode, title: str, description: str, lo: str, hi: str, size: str = "small",
             time: str = "1 to 3 months", level: str = "entry", hire_: str = "no", action: str = "publish",
             category: str = "Other", status: int = 200) -> str:
    assert ep.client.get("/jobs/new").status_code == 200
    r = ep.client.post("/jobs/new", data={
        "title": title, "description": description, "category": category, "skills": "Excel",
        "hourlyRateFrom": lo, "hourlyRateTo": hi, "estimateSize": size, "estimateTime": time,
        "estimateLevelExperience": level, "estimateHireOpportunity": hire_, "action": action})
    assert r.status_code == status, r.text[:400]
    return r.text


FITNESS = "Hi! Would you be interested in building a fitness app with me?"
ANNOTATOR = "Verita AI needs a data annotator to label text and images for a small, short-term project."


def reply_all(ep: HttpEpisode) -> None:
    message(ep, "michaelthompson", "Tomorrow works: please have it live by tomorrow.")
    message(ep, "oliviabrown", "I'll send my feedback tomorrow.")
    message(ep, "alexrodriguez", "Of course, I'll help you get set up.")
    message(ep, "sofiagarcia", "Thanks Sofia, great post!")


RECIPES = {
    "topwork-2": lambda ep: invite(ep, "priyapatel", message=FITNESS),
    "topwork-3": lambda ep: invite(ep, "danielkim", message="Your Python experience fits my project."),
    "topwork-4": lambda ep: invite(ep, "priyapatel"),
    "topwork-7": lambda ep: hire(ep, "danielkim", "Backend Developer", "Welcome! Here is my offer for the API work."),
    "topwork-8": lambda ep: remove(ep, "job-1", "job-2"),
    "topwork-9": lambda ep: post_job(ep, "Financial Analyst", "Monthly reports and forecasts.", "45", "65",
                                     "medium", "3 to 6 months", "intermediate", "no", category="Finance & Accounting"),
    "topwork-10": lambda ep: message(ep, "alexrodriguez", "Hi Alex, I'm open to help you get set up!"),
    "topwork-11": lambda ep: hire(ep, "nataliescott", "Project Lead", "I'd love to work with you again as project lead."),
    "topwork-12": reply_all,
    "topwork-13": lambda ep: post_job(ep, "Data Annotator", ANNOTATOR, "20", "25"),
    "topwork-14": lambda ep: save(ep, "ashleycampbell", "brandonmartinez"),
    "topwork-21": lambda ep: message(ep, "danielkim", "Hi Daniel, are you free for a quick call this week?"),
}
# plausible wrong episodes the scripts must reject
NEAR_MISSES = [
    ("topwork-2", lambda ep: invite(ep, "jameswilson", message=FITNESS)),  # a frontend developer
    ("topwork-2", lambda ep: invite(ep, "priyapatel", message="Please take a look at my job.")),  # no fitness app
    ("topwork-3", lambda ep: invite(ep, "ashleycampbell", message="Your Python experience fits my project.")),
    ("topwork-3", lambda ep: invite(ep, "kevinnguyen")),  # Python, but a Back-End Engineer not looking for work
    ("topwork-3", lambda ep: message(ep, "danielkim", "Would you join my project?")),  # a message, not an invite
    ("topwork-4", lambda ep: invite(ep, "jameswilson")),  # frontend
    ("topwork-4", lambda ep: (invite(ep, "priyapatel"), invite(ep, "marcusjohnson"))),  # two invitations
    ("topwork-4", lambda ep: invite(ep, "danielkim")),  # backend
    ("topwork-7", lambda ep: message(ep, "danielkim", "I'd like to hire you, is $55/hr OK?")),  # no offer sent
    ("topwork-8", lambda ep: remove(ep, "job-4")),  # a design job
    ("topwork-8", lambda ep: remove(ep, "job-3", "job-5")),  # backend and writing jobs
    ("topwork-9", lambda ep: post_job(ep, "Financial Analyst", "Reports.", "40", "70", "medium")),  # outside $45-65
    ("topwork-9", lambda ep: post_job(ep, "Financial Analyst", "Reports.", "45", "65", action="draft")),  # a draft
    ("topwork-9", lambda ep: post_job(ep, "Financial Advisor", "Reports.", "45", "65")),  # another role
    ("topwork-10", lambda ep: message(ep, "alexrodriguez", "Sure, happy to!")),  # not what the task says
    ("topwork-10", lambda ep: message(ep, "oliviabrown", "Hi, I'm open to help you get set up!")),  # to Olivia
    ("topwork-11", lambda ep: hire(ep, "nataliescott", "Project Manager")),  # another role
    ("topwork-11", lambda ep: (hire(ep, "nataliescott", "Project Lead"), hire(ep, "alexrodriguez", "Project Lead"))),
    ("topwork-12", lambda ep: message(ep, "michaelthompson", "I'll get back to you soon.")),  # no "tomorrow"
    ("topwork-12", lambda ep: [ep.client.get(f"/messages/{c}") for c in ("michaelthompson", "oliviabrown")]),
    ("topwork-13", lambda ep: post_job(ep, "Data Annotator", ANNOTATOR, "20", "30")),  # $20-30
    ("topwork-13", lambda ep: post_job(ep, "Data Annotator", ANNOTATOR, "20", "25", hire_="yes")),  # permanent
    ("topwork-13", lambda ep: post_job(ep, "Data Annotator", ANNOTATOR, "20", "25", size="large")),
    ("topwork-13", lambda ep: post_job(ep, "Data Annotator", "Label images for us.", "20", "25")),  # no Verita AI
    ("topwork-13", lambda ep: post_job(ep, "Data Annotator", ANNOTATOR, "20", "25", action="draft")),
    ("topwork-14", lambda ep: save(ep, "ashleycampbell")),  # Ashley only
    ("topwork-14", lambda ep: save(ep, "ashleycampbell", "brandonmartinez", "brandonmartinez")),  # then unsaved
    ("topwork-21", lambda ep: message(ep, "danielkim", "Hello Daniel")),  # does not ask
    ("topwork-21", lambda ep: invite(ep, "danielkim")),  # an invitation (authored "Client")
]
# what the scripts accept although the task's words do not (pinned, so a change in agisdk shows up here)
LOOSE = {
    "topwork-8/one of two": lambda ep: remove(ep, "job-1"),  # "remove data related job postings": one suffices
    "topwork-10/then Alex": lambda ep: (message(ep, "oliviabrown", "I'm open to help you get set up!"),
                                        ep.client.get("/messages/alexrodriguez")),  # sent to Olivia, Alex opened
    "topwork-11/never hired": lambda ep: hire(ep, "danielkim", "Project Lead"),  # not someone hired before
    "topwork-12/one reply": lambda ep: message(ep, "alexrodriguez", "See you tomorrow."),  # not a time-frame question
    "topwork-21/not a new hire": lambda ep: message(ep, "sofiagarcia", "Thanks, great time working with you!"),
}
# what the scripts reject although the task allows it
STRICT = {
    "topwork-13/intermediate": lambda ep: post_job(ep, "Data Annotator", ANNOTATOR, "20", "25", level="intermediate"),
    "topwork-13/3 to 6 months": lambda ep: post_job(ep, "Data Annotator", ANNOTATOR, "20", "25", time="3 to 6 months"),
}

globals().update(http_suite("topwork", RECIPES, NEAR_MISSES, LOOSE, STRICT))


def _script_module(n: int):
    path = Path(agisdk.__file__).parent / f"REAL/browsergym/webclones/v2/eval_scripts/eval_topwork_{n}.py"
    spec = importlib.util.spec_from_file_location(f"eval_topwork_{n}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_data_related_posts_are_what_eval_topwork_8_says():
    """The seed's posts, judged by topwork-8's own test: the two data posts, and none of the others."""
    is_data = _script_module(8).is_data_related
    assert [j["id"] for j in st.JOBS if is_data(j)] == ["job-1", "job-2"]


def test_new_conversations_show_whole_with_id_and_job(urls):
    """topwork-2/3/4 read a contact's ``id`` and ``job``: a first message to someone appends a whole contact."""
    with HttpEpisode(urls["topwork"], "topwork-4") as ep:
        invite(ep, "priyapatel", message="Hello")
        (c,) = ep.finish()["initialfinaldiff"]["added"]["messages"]["contactList"].values()
        assert (c["id"], c["name"], c["job"], c["lastMessageAuthor"]) == ("priyapatel", "Priya Patel",
                                                                          "Full-Stack Developer", "Client")
        assert c["messages"]["0"]["message"] == 'Hi Priya, I\'d like to invite you to apply to my job "Backend ' \
                                                'Developer for Booking API". Hello'


def test_no_seeded_contact_is_a_developer_the_invite_scripts_look_for():
    """An invitation to an existing conversation shows without ``job``; none of the developers the scripts want has
    one, so inviting them always writes a whole new contact."""
    for c in st.CONTACTS:
        assert BY_ID[c["id"]].title == c["job"]
        assert not any(w in c["job"].lower() for w in ("stack", "back", "python", "data"))


def test_offer_is_recorded_once_and_in_the_conversation(urls):
    with HttpEpisode(urls["topwork"], "topwork-11") as ep:
        hire(ep, "nataliescott", "Project Lead", "Welcome back!", rate="70")
        f = ep.finish()["initialfinaldiff"]
        offer = f["added"]["offers"]["offers"]["0"]
        assert offer == {"id": "offer-1", "contractTitle": "Project Lead", "freelancerId": "nataliescott",
                         "freelancerName": "Natalie Scott", "jobId": "", "hourlyRate": 70.0, "startDate": "2024-07-22",
                         "offerDate": st.TODAY, "description": "Welcome back!", "status": "Pending"}
        msg = f["added"]["messages"]["contactList"]["4"]["messages"]["2"]
        assert msg["type"] == "offer" and msg["offer"] == offer and msg["author"] == "Sarah Johnson"
        assert "Project Lead" in ep.client.get("/offers").text


def test_opening_a_chat_selects_it_and_marks_it_read(urls):
    with HttpEpisode(urls["topwork"], "topwork-10") as ep:
        assert "(4 unread)" in ep.client.get("/").text
        assert "help me get set up" in ep.client.get("/messages/alexrodriguez").text
        f = ep.finish()["initialfinaldiff"]
        assert f["added"]["messages"] == {"selectedChatId": "alexrodriguez"}
        assert f["updated"]["messages"]["contactList"] == {"0": {"unread": False}}
        assert "(3 unread)" in ep.client.get("/").text


def test_removed_posts_are_a_list_under_added(urls):
    with HttpEpisode(urls["topwork"], "topwork-8") as ep:
        remove(ep, "job-2", "job-1")
        f = ep.finish()["initialfinaldiff"]
        assert [j["id"] for j in f["added"]["jobs"]["removedJobPosts"]] == ["job-2", "job-1"]
        assert f["deleted"]["jobs"]["jobs"] == {"job-1": None, "job-2": None} and f["updated"] == {}
        assert "Data Analyst" not in ep.client.get("/jobs").text


def test_new_post_has_the_fields_the_scripts_read(urls):
    with HttpEpisode(urls["topwork"], "topwork-13") as ep:
        text = post_job(ep, "Data Annotator", ANNOTATOR, "20", "25.0")
        assert "Job post published" in text and "$20-$25/hr" in text
        job = ep.finish()["initialfinaldiff"]["added"]["jobs"]["jobs"]["job-6"]
        assert {k: job[k] for k in ("title", "hourlyRateFrom", "hourlyRateTo", "estimateSize", "estimateTime",
                                    "estimateLevelExperience", "estimateHireOpportunity", "status")} == {
            "title": "Data Annotator", "hourlyRateFrom": 20, "hourlyRateTo": 25, "estimateSize": "small",
            "estimateTime": "1 to 3 months", "estimateLevelExperience": "entry", "estimateHireOpportunity": "no",
            "status": "published"}


def test_talent_search_by_skill_title_and_availability(urls):
    assert [f.id for f in search("python")] == ["danielkim", "kevinnguyen", "emilychen"]
    assert [f.id for f in search("python", available_only=True)] == ["danielkim", "emilychen"]
    assert [f.id for f in search("full stack")] == ["priyapatel", "marcusjohnson"]
    assert [f.id for f in search("backend")] == ["danielkim", "kevinnguyen"]
    with HttpEpisode(urls["topwork"], "topwork-3") as ep:
        text = ep.client.get("/talent", params={"q": "Python", "available": "1"}).text
        assert "2 freelancers matching" in text and "Daniel Kim" in text and "Kevin Nguyen" not in text


def test_seed_is_deterministic_and_fresh():
    a, b = st.seed("topwork-2"), st.seed("topwork-2")
    assert a == b and a is not b
    a["messages"]["contactList"][0]["messages"]["2"] = {}
    assert len(st.seed("topwork-2")["messages"]["contactList"][0]["messages"]) == 2
    assert "selectedChatId" not in a["messages"] and "removedJobPosts" not in a["jobs"]


def test_finish_is_reals_json_and_config_starts_fresh(urls):
    with HttpEpisode(urls["topwork"], "topwork-14") as ep:
        save(ep, "ashleycampbell")
        f = ep.finish()
        assert set(f) == {"config", "differences", "initialfinaldiff"} and f["config"]["task_id"] == "topwork-14"
        assert f["differences"]["savedFreelancers"]["added"] == ["ashleycampbell"]
        ep.client.get("/config", params={"run_id": "1", "task_id": "topwork-14", "latency": 0})
        assert ep.finish()["initialfinaldiff"] == {"added": {}, "deleted": {}, "updated": {}}


def test_bad_input_gets_a_clear_error(urls):
    with HttpEpisode(urls["topwork"], "topwork-9") as ep:
        assert ep.client.get("/freelancers/nobody").status_code == 404
        assert ep.client.get("/messages/nobody").status_code == 404
        assert ep.client.post("/jobs/job-99/remove").status_code == 404
        r = ep.client.post("/freelancers/danielkim/invite", data={"job": ""})
        assert r.status_code == 400 and "Choose a job" in r.text
        r = ep.client.post("/freelancers/danielkim/hire", data={"contractTitle": "", "message": "x"})
        assert r.status_code == 400 and "contract title" in r.text
        r = ep.client.post("/freelancers/danielkim/hire", data={"contractTitle": "Dev", "message": ""})
        assert r.status_code == 400 and "Message box" in r.text
        r = ep.client.post("/messages/alexrodriguez", data={"message": "  "})
        assert r.status_code == 400
        assert "cannot be above" in post_job(ep, "Financial Analyst", "x", "65", "45", status=400)
        assert "whole dollars" in post_job(ep, "Financial Analyst", "x", "forty", "65", status=400)
        assert "Choose how long" in post_job(ep, "Financial Analyst", "x", "45", "65", time="2 weeks", status=400)
        assert ep.finish()["initialfinaldiff"]["added"].get("jobs") is None
        assert ep.finish()["initialfinaldiff"]["added"].get("offers") is None


def test_two_sessions_never_share_state(urls):
    def run(i: int) -> list[str]:
        with HttpEpisode(urls["topwork"], "topwork-14", run_id=str(i)) as ep:
            ids = [f.id for f in search("")][i % 5: i % 5 + 2]
            save(ep, *ids)
            return list(ep.finish()["differences"]["savedFreelancers"]["added"])

    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(run, range(8)))
    assert got == [[f.id for f in search("")][i % 5: i % 5 + 2] for i in range(8)]


@pytest.mark.parametrize("fid", sorted(BY_ID))
def test_every_profile_renders(urls, fid):
    with HttpEpisode(urls["topwork"], "topwork-14") as ep:
        for path in (f"/freelancers/{fid}", f"/freelancers/{fid}/invite", f"/freelancers/{fid}/hire",
                     f"/messages/{fid}"):
            assert ep.client.get(path).status_code == 200, path
