"""NetworkIn over real HTTP: REAL's v2 networkin tasks graded by agisdk's own scripts after the requests a browser
would send (SUCCESS) and after nothing (FAILURE); near misses the scripts must reject; their loose and strict checks,
pinned; the finish JSON's layout the scripts read (networkin-19's ``env_state`` included); bad input; isolation."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from _shop_helpers import HttpEpisode
from oracle_suite import http_suite

from real_local.networkin import state as st
from real_local.networkin.directory import BY_ID, COMPANY_BY_ID, EVENT_BY_ID, search_people


# ---------------------------------------------------------------- what a browser sends
def search(ep: HttpEpisode, keywords: str, vertical: str = "all", **filters: str) -> str:
    r = ep.client.get(f"/search/results/{vertical}", params={"keywords": keywords, **filters})
    assert r.status_code == 200, r.text[:400]
    return r.text


def connect(ep: HttpEpisode, mid: str, note: str = "") -> None:
    assert ep.client.get(f"/in/{mid}").status_code == 200
    assert ep.client.get(f"/in/{mid}/connect").status_code == 200
    r = ep.client.post(f"/in/{mid}/connect", data={"note": note, "action": "note" if note else "plain"})
    assert r.status_code == 200 and "You are now connected" in r.text, r.text[:400]


def message(ep: HttpEpisode, mid: str, text: str) -> None:
    assert ep.client.get(f"/messaging/thread/{mid}").status_code == 200
    r = ep.client.post(f"/messaging/thread/{mid}", data={"message": text})
    assert r.status_code == 200 and "Message sent" in r.text, r.text[:400]


def post(ep: HttpEpisode, text: str) -> str:
    """A new post; returns its id."""
    assert ep.client.get("/post/new").status_code == 200
    r = ep.client.post("/post/new", data={"text": text})
    assert r.status_code == 200 and "Post successful" in r.text, r.text[:400]
    assert r.url.path == "/feed", r.url  # LinkedIn stays on the feed, its notice links to the new post
    return r.url.params["view"]


def send_post(ep: HttpEpisode, pid: str, to: list[str], note: str = "") -> None:
    assert ep.client.get(f"/feed/update/{pid}/send").status_code == 200
    r = ep.client.post(f"/feed/update/{pid}/send", data={"to": to, "message": note})
    assert r.status_code == 200 and "Sent to" in r.text, r.text[:400]


def follow(ep: HttpEpisode, *cids: str) -> None:
    for cid in cids:
        r = ep.client.post(f"/company/{cid}/follow", data={"next": "/mynetwork"})
        assert r.status_code == 200, r.text[:400]


def attend(ep: HttpEpisode, eid: str) -> None:
    assert ep.client.get(f"/events/{eid}").status_code == 200
    r = ep.client.post(f"/events/{eid}/attend")
    assert r.status_code == 200, r.text[:400]


SIDE = "Hi! Would you be interested in working on a side project with me?"
EVENT_POST = "I'm hosting a networking event for AI builders next Friday in SF. DM me if interested!"
ADVICE = "Hi Ryan, I'm a CS student and would love your advice on becoming a software engineer."


def share_event(ep: HttpEpisode) -> None:
    send_post(ep, post(ep, EVENT_POST), ["emilydavis", "jameslee"])


def attend_then_feed(ep: HttpEpisode) -> None:
    attend(ep, "ai-builders-meetup")
    ep.client.get("/feed")  # the attendance alone, not the event page last shown


RECIPES = {
    "networkin-1": lambda ep: (search(ep, "microsoft", "companies"), follow(ep, "microsoft", "google", "apple")),
    "networkin-5": lambda ep: message(ep, "jameslee", SIDE),  # a connected software engineer, no search
    "networkin-6": lambda ep: (search(ep, "tech new york", "people"),
                               connect(ep, "michaelbrown", "Hi Michael, would you like to join my new project?")),
    "networkin-10": lambda ep: [connect(ep, m) for m in ("oliviamartinez", "michaelbrown", "ryanmiller")],
    "networkin-11": share_event,
    "networkin-13": lambda ep: post(ep, "Wrapping up an amazing summer internship at AGI Inc building browser agents!"),
    "networkin-19": lambda ep: post(ep, "I just finished my internship at AGI Inc. Thank you to the whole team!"),
    "networkin-25": attend_then_feed,
    "networkin-26": lambda ep: (search(ep, "software engineer", "people"), connect(ep, "ryanmiller", ADVICE)),
    "networkin-27": lambda ep: (search(ep, "Olivia Martinez", "people"), connect(ep, "oliviamartinez")),
}
# plausible wrong episodes the scripts must reject
NEAR_MISSES = [
    ("networkin-1", lambda ep: follow(ep, "microsoft")),  # Microsoft alone
    ("networkin-1", lambda ep: follow(ep, "google", "apple", "amazon")),  # not Microsoft
    ("networkin-1", lambda ep: follow(ep, "microsoft", "google", "google")),  # Google unfollowed again
    ("networkin-1", lambda ep: search(ep, "google", "companies")),  # searched, followed nothing
    ("networkin-5", lambda ep: message(ep, "sarahjohnson", SIDE)),  # a data scientist
    ("networkin-5", lambda ep: (search(ep, "software"), connect(ep, "natalieroberts", SIDE))),  # a data scientist
    ("networkin-5", lambda ep: message(ep, "jameslee", "Want to grab coffee next week?")),  # no side project
    ("networkin-6", lambda ep: search(ep, "new york", "people")),  # searched, invited nobody
    ("networkin-6", lambda ep: (search(ep, "designer", "people"),
                                connect(ep, "oliviamartinez", "Join my new project?"))),  # San Francisco, design
    ("networkin-10", lambda ep: [connect(ep, m) for m in ("oliviamartinez", "michaelbrown")]),  # two
    ("networkin-10", lambda ep: [message(ep, m, "Hi!") for m in ("jameslee", "priyasharma", "kevinpatel")]),
    ("networkin-11", lambda ep: send_post(ep, post(ep, "Hosting a networking event next Friday."),
                                          ["emilydavis", "jameslee"])),  # no "DM me"
    ("networkin-11", lambda ep: send_post(ep, post(ep, EVENT_POST), ["emilydavis"])),  # one person
    ("networkin-11", lambda ep: (post(ep, EVENT_POST), send_post(ep, "post-5", ["emilydavis", "jameslee"]))),
    ("networkin-13", lambda ep: post(ep, "My internship at AGI Inc has been great.")),  # no "summer"
    ("networkin-13", lambda ep: ep.client.post("/feed/update/post-1/comment",
                                               data={"comment": "Loving my summer internship!"})),  # a comment
    ("networkin-19", lambda ep: post(ep, "I just finished my internship! Thanks everyone.")),  # no AGI Inc
    ("networkin-19", lambda ep: (post(ep, "I finished my internship at AGI Inc."), post(ep, "Back to school!"))),
    ("networkin-19", lambda ep: [post(ep, "I finished my internship at AGI Inc.") for _ in range(2)]),  # twice
    ("networkin-25", lambda ep: ep.client.get("/events")),  # the list only
    ("networkin-25", lambda ep: (attend(ep, "ai-builders-meetup"), ep.client.post("/events/ai-builders-meetup/attend"),
                                 ep.client.get("/events"))),  # attended, then left
    ("networkin-26", lambda ep: (search(ep, "data scientist"), message(ep, "sarahjohnson", "Any advice for me?"))),
    ("networkin-26", lambda ep: message(ep, "jameslee", "Hi James!")),
    ("networkin-27", lambda ep: connect(ep, "oliviamartins")),  # Olivia Martins, a nurse in New York
    ("networkin-27", lambda ep: (ep.client.get("/in/oliviamartinez"), ep.client.get("/in/oliviamartinez/connect"))),
]
# what the scripts accept although the task's words do not (pinned, so a change in agisdk shows up here)
LOOSE = {
    "networkin-1/searched only": lambda ep: search(ep, "microsoft"),  # no follow anywhere: a search suffices
    "networkin-5/a designer": lambda ep: (search(ep, "software"), message(ep, "rachelkim", SIDE)),
    "networkin-6/no note, Seattle": lambda ep: (search(ep, "tech"), connect(ep, "chrisanderson")),
    "networkin-11/connections instead": lambda ep: (post(ep, EVENT_POST), connect(ep, "oliviamartinez"),
                                                    connect(ep, "ryanmiller")),  # nothing sent
    "networkin-13/internal tools": lambda ep: post(ep, "Summer hackathon with our internal tools team!"),  # "intern"
    "networkin-19/starting": lambda ep: post(ep, "Starting my internship at AGI Inc today!"),  # not finished
    "networkin-25/event page shown": lambda ep: ep.client.get("/events/women-in-tech-summit"),  # not attended
    "networkin-26/search only": lambda ep: search(ep, "software engineer"),  # nobody reached
    "networkin-26/a product manager": lambda ep: message(ep, "emilydavis", "Any advice on software careers?"),
}
# what the scripts reject although the task allows it
STRICT = {
    "networkin-6/no search": lambda ep: connect(ep, "michaelbrown", "Would you like to join my new project?"),
    "networkin-6/location filter": lambda ep: (search(ep, "", "people", location="New York"),
                                               ep.client.get("/in/danielgarcia"),
                                               connect(ep, "danielgarcia", "Would you like to join my new project?")),
}

globals().update(http_suite("networkin", RECIPES, NEAR_MISSES, LOOSE, STRICT))


def test_finish_carries_env_state_for_networkin_19(urls):
    """networkin-19 reads ``env_state.initialfinaldiff``: the finish JSON carries a copy of its three keys there."""
    with HttpEpisode(urls["networkin"], "networkin-19") as ep:
        pid = post(ep, "I finished my internship at AGI Inc.")
        f = ep.finish()
        assert set(f) == {"config", "differences", "initialfinaldiff", "env_state"}
        assert f["env_state"] == {k: f[k] for k in ("config", "differences", "initialfinaldiff")}
        new = f["initialfinaldiff"]["added"]["ui"]["feed"]["postDynamicData"][pid]
        assert (new["type"], new["authorId"], new["author"]["id"]) == ("self-post", "divgarg", "divgarg")
        without = {k: f[k] for k in ("config", "differences", "initialfinaldiff")}
        from halo.tasks.real import get_task, grade

        assert grade(get_task("networkin-19", sites="local", site_urls=urls), f).success
        assert not grade(get_task("networkin-19", sites="local", site_urls=urls), without).success


def test_connecting_appends_a_contact_a_grade_and_a_whole_conversation(urls):
    with HttpEpisode(urls["networkin"], "networkin-27") as ep:
        connect(ep, "oliviamartinez", "Hi Olivia, loved your talk on design systems.")
        d = ep.finish()["initialfinaldiff"]
        assert d["added"]["contactList"] == {"10": "oliviamartinez"}
        assert d["updated"]["connectionGrades"] == {"oliviamartinez": 1}
        room = d["added"]["ui"]["messaging"]["chatroomData"]["oliviamartinez"]
        assert (room["name"], room["headline"]) == ("Olivia Martinez", "Product Designer at Airbnb")
        assert [(m["type"], m["authorId"]) for m in room["messages"]] == [
            ("system", "divgarg"), ("text", "divgarg"), ("system", "oliviamartinez")]
        assert room["messages"][-1]["message"] == "Olivia Martinez accepted your connection request"
        r = ep.client.get("/in/oliviamartinez")
        assert "Message Olivia Martinez" in r.text and "Invite Olivia Martinez" not in r.text
        assert ep.client.post("/in/oliviamartinez/connect", data={"action": "plain"}).status_code == 409


def test_no_seeded_conversation_is_with_a_software_engineer():
    """networkin-5 reads the recipient's role from the diff: a new conversation shows whole (headline included), so
    no software engineer has one in the seed."""
    assert st.seed()["contactList"][:10] == [m.id for m in BY_ID.values() if m.degree == 1]
    for c in st.CHATROOMS:
        assert "software" not in BY_ID[c["id"]].headline.lower()


def test_no_member_id_holds_another():
    """networkin-5 finds a recipient's records by the id as a substring."""
    ids = [*BY_ID, "divgarg"]
    assert not [(a, b) for a in ids for b in ids if a != b and a in b]


def test_only_connections_can_be_messaged(urls):
    with HttpEpisode(urls["networkin"], "networkin-27") as ep:
        r = ep.client.get("/messaging/thread/oliviamartinez")
        assert r.status_code == 200 and "You can message only your connections" in r.text
        r = ep.client.post("/messaging/thread/oliviamartinez", data={"message": "Hi"})
        assert r.status_code == 403
        assert "chatroomData" not in str(ep.finish()["initialfinaldiff"]["added"])


def test_post_and_send_land_where_networkin_11_reads(urls):
    with HttpEpisode(urls["networkin"], "networkin-11") as ep:
        pid = post(ep, EVENT_POST)
        assert pid == "post-9"
        send_post(ep, pid, ["jameslee", "emilydavis"], note="Come along!")
        d = ep.finish()["initialfinaldiff"]["added"]
        rooms = d["ui"]["messaging"]["chatroomData"]
        assert list(rooms["jameslee"]["messages"][0]["postData"].values()) == ["post-9", "divgarg", "Div Garg",
                                                                                EVENT_POST]
        assert rooms["emilydavis"]["messages"]["2"]["type"] == "post"  # an existing conversation: a new index
        text = ep.client.get("/messaging/thread/jameslee").text
        assert "Shared a post by Div Garg" in text and "Come along!" in text
        r = ep.client.post(f"/feed/update/{pid}/send", data={"to": ["oliviamartinez"]})  # not a connection
        assert r.status_code == 400


def test_follow_and_attend_toggle(urls):
    with HttpEpisode(urls["networkin"], "networkin-1") as ep:
        follow(ep, "microsoft")
        assert "Unfollow Microsoft" in ep.client.get("/company/microsoft").text
        f = ep.finish()
        assert f["initialfinaldiff"]["updated"]["ui"]["companies"]["followedCompanies"] == {"microsoft": True}
        assert f["differences"]["companies"] == {"followed": ["microsoft"], "unfollowed": []}
        follow(ep, "agiinc")  # followed in the seed: unfollowed
        assert ep.finish()["differences"]["companies"]["unfollowed"] == ["agiinc"]
        attend(ep, "nyc-tech-networking-night")
        text = ep.client.get("/events/nyc-tech-networking-night").text
        assert "You're attending" in text and "343 attendees" in text
        added = ep.finish()["initialfinaldiff"]["added"]
        assert added["ui"]["events"]["attendedEvents"] == {"nyc-tech-networking-night": True}


def test_search_records_history_and_router(urls):
    assert [m.id for m in search_people("software engineer")] == [
        "jameslee", "priyasharma", "michaelbrown", "ryanmiller", "chrisanderson",  # the title first
        "sophiataylor", "brandonyoung", "tylerscott"]
    assert {m.id for m in search_people("nyc")} == {m.id for m in search_people("new york")}
    assert [m.id for m in search_people("", degree="1", location="New York")] == ["emilydavis", "jessicawang"]
    with HttpEpisode(urls["networkin"], "networkin-6") as ep:
        text = search(ep, "tech", "people", location="New York")
        assert "Michael Brown" in text and "Invite Michael Brown to connect" in text and "Olivia Martinez" not in text
        search(ep, "tech", "people", location="New York")  # the same search again: recorded once
        d = ep.finish()["initialfinaldiff"]
        assert list(d["added"]["search"]["searchHistory"].values()) == [
            {"searchTerm": "tech", "vertical": "people", "time": f"{st.TODAY} 10:00"}]
        assert d["updated"]["router"]["location"] == {"pathname": "/search/results/people",
                                                      "search": "?keywords=tech&location=New+York"}


def test_accepting_an_invitation_connects(urls):
    with HttpEpisode(urls["networkin"], "networkin-10") as ep:
        assert "Accept Tyler Scott's invitation" in ep.client.get("/mynetwork").text
        r = ep.client.post("/mynetwork/invitations/tylerscott/accept")
        assert r.status_code == 200 and "You are now connected with Tyler Scott" in r.text
        assert ep.client.post("/mynetwork/invitations/graceturner/ignore").status_code == 200
        f = ep.finish()
        assert f["differences"]["connections"]["added"] == ["tylerscott"]
        assert f["initialfinaldiff"]["updated"]["invitations"]["received"] == {
            "tylerscott": {"status": "accepted"}, "graceturner": {"status": "ignored"}}
        assert ep.client.post("/mynetwork/invitations/tylerscott/accept").status_code == 404


def test_seed_is_deterministic_and_fresh():
    a, b = st.seed("networkin-1"), st.seed("networkin-1")
    assert a == b and a is not b
    a["ui"]["feed"]["postDynamicData"]["post-1"]["comments"].append({})
    assert len(st.seed()["ui"]["feed"]["postDynamicData"]["post-1"]["comments"]) == 2
    assert a["ui"]["events"]["attendedEvents"] == {} and a["ui"]["companies"]["followedCompanies"]["agiinc"] is True


def test_finish_is_reals_json_and_config_starts_fresh(urls):
    with HttpEpisode(urls["networkin"], "networkin-10") as ep:
        connect(ep, "ryanmiller")
        f = ep.finish()
        assert f["config"]["task_id"] == "networkin-10" and f["differences"]["connections"]["added"] == ["ryanmiller"]
        ep.client.get("/config", params={"run_id": "1", "task_id": "networkin-10", "latency": 0})
        assert ep.finish()["initialfinaldiff"] == {"added": {}, "deleted": {}, "updated": {}}


def test_bad_input_gets_a_clear_error(urls):
    with HttpEpisode(urls["networkin"], "networkin-13") as ep:
        for path in ("/in/nobody", "/in/nobody/connect", "/company/nobody", "/events/nobody", "/feed/update/post-99",
                     "/messaging/thread/nobody", "/search/results/jobs"):
            assert ep.client.get(path).status_code == 404, path
        r = ep.client.post("/post/new", data={"text": "   "})
        assert r.status_code == 400 and "Write something" in r.text
        r = ep.client.post("/in/ryanmiller/connect", data={"action": "note", "note": ""})
        assert r.status_code == 400 and "Send without a note" in r.text
        r = ep.client.post("/in/ryanmiller/connect", data={"action": "note", "note": "x" * 301})
        assert r.status_code == 400 and "at most 300" in r.text
        r = ep.client.post("/feed/update/post-1/send", data={"to": []})
        assert r.status_code == 400 and "Choose who" in r.text
        assert ep.client.post("/messaging/thread/jameslee", data={"message": " "}).status_code == 400
        assert ep.finish()["initialfinaldiff"] == {"added": {}, "deleted": {}, "updated": {}}


def test_two_sessions_never_share_state(urls):
    people = [m.id for m in BY_ID.values() if m.degree > 1]

    def run(i: int) -> list[str]:
        with HttpEpisode(urls["networkin"], "networkin-10", run_id=str(i)) as ep:
            for mid in people[i % 5: i % 5 + 2]:
                ep.client.post(f"/in/{mid}/connect", data={"action": "plain"})
            return ep.finish()["differences"]["connections"]["added"]

    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(run, range(8)))
    assert got == [people[i % 5: i % 5 + 2] for i in range(8)]


def test_every_page_renders(urls):
    with HttpEpisode(urls["networkin"], "networkin-1") as ep:
        paths = ["/", "/feed", "/post/new", "/mynetwork", "/mynetwork/connections", "/events", "/messaging",
                 "/messaging/new", "/in/divgarg", "/search/results/all?keywords=ai"]
        paths += [p for m in BY_ID for p in (f"/in/{m}", f"/in/{m}/connect", f"/messaging/thread/{m}")]
        paths += [f"/company/{c}" for c in COMPANY_BY_ID] + [f"/events/{e}" for e in EVENT_BY_ID]
        paths += [f"/feed/update/{p['id']}{s}" for p in st.POSTS for s in ("", "/send")]
        for path in paths:
            assert ep.client.get(path).status_code == 200, path
        added = ep.finish()["initialfinaldiff"]["added"]  # pages shown change only the router and the search history
        assert list(added) == ["search"] and len(added["search"]["searchHistory"]) == 1


@pytest.mark.parametrize("mid", ["oliviamartinez", "michaelbrown"])
def test_search_result_connect_links_name_the_person(urls, mid):
    with HttpEpisode(urls["networkin"], "networkin-27") as ep:
        text = search(ep, BY_ID[mid].name, "people")
        assert f'aria-label="Invite {BY_ID[mid].name} to connect"' in text
