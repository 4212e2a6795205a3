"""REAL-local's protocol core: the state diff REAL reports, and /config, /finish, /submit over real HTTP."""

from __future__ import annotations

import dataclasses
import html
import json
import re
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from real_local.core import SessionStore, SiteSpec, collection_differences, detailed_diff, fresh_copy, session_of
from real_local.server import SitesServer


def test_detailed_diff_reports_only_changes_at_their_paths():
    before = {"email": {"emails": {"1": {"isRead": False, "subject": "a"}, "2": {"isRead": True}}}, "ui": {}}
    after = {"email": {"emails": {"1": {"isRead": True, "subject": "a"}, "3": {"isRead": False}}},
             "ui": {"snackbar": {"message": "1 conversation moved to Trash"}}}
    d = detailed_diff(before, after)
    assert d["updated"] == {"email": {"emails": {"1": {"isRead": True}}}}
    assert d["added"] == {"email": {"emails": {"3": {"isRead": False}}},
                          "ui": {"snackbar": {"message": "1 conversation moved to Trash"}}}
    assert d["deleted"] == {"email": {"emails": {"2": None}}}


def test_detailed_diff_of_equal_trees_is_empty_and_lists_diff_by_index():
    tree = {"a": [1, 2, {"b": 3}], "c": "x"}
    assert detailed_diff(tree, json.loads(json.dumps(tree))) == {"added": {}, "deleted": {}, "updated": {}}
    d = detailed_diff({"a": [1, 2]}, {"a": [1, 5, 7]})
    assert d["updated"] == {"a": {"1": 5}} and d["added"] == {"a": {"2": 7}}


def test_detailed_diff_finds_one_change_among_many_equal_subtrees():
    """Equal subtrees are skipped by one compare (a mailbox of 500): the one change deep inside is still found."""
    before = {"emails": {str(i): {"id": i, "labels": ["x"], "meta": {"read": False}} for i in range(500)}}
    after = json.loads(json.dumps(before))
    after["emails"]["321"]["meta"]["read"] = True
    after["emails"]["7"]["labels"].append("y")
    d = detailed_diff(before, after)
    assert d["updated"] == {"emails": {"321": {"meta": {"read": True}}}}
    assert d["added"] == {"emails": {"7": {"labels": {"1": "y"}}}} and d["deleted"] == {}


def test_collection_differences_list_and_keyed_shapes():
    before = {"1": {"id": "1", "isRead": False, "trash": False}, "2": {"id": "2", "isRead": False}}
    after = {"1": {"id": "1", "isRead": True, "trash": False}, "3": {"id": "3", "subject": "new"}}
    d = collection_differences(before, after)
    assert d["updated"] == [{"id": "1", "isRead": True}]
    assert d["added"] == [{"id": "3", "subject": "new"}] and d["deleted"] == [{"id": "2", "isRead": False}]
    k = collection_differences(before, after, keyed=True)
    assert k["updated"] == {"1": {"id": "1", "isRead": True}} and set(k["added"]) == {"3"}


async def _toggle(request: Request):
    s = session_of(request)
    with s.lock:
        s.state["items"]["1"]["done"] = not s.state["items"]["1"]["done"]
    return JSONResponse({"done": s.state["items"]["1"]["done"]})


def _seed(task_id):
    if task_id == "v2.todo-99":
        raise KeyError("todo-99 has no seed data")
    return {"items": {"1": {"id": "1", "done": False}}, "task": task_id or ""}


TODO = SiteSpec(name="todo", seed=_seed,
                differences=lambda a, b: {"items": collection_differences(a["items"], b["items"])},
                routes=[Route("/toggle", _toggle, methods=["POST"])])


@pytest.fixture(scope="module")
def todo_url():
    with SitesServer([TODO]) as urls:
        yield urls["todo"]


def _finish(client: httpx.Client) -> dict:
    r = client.get("/finish")
    r.raise_for_status()
    m = re.search(r"<pre>(.*)</pre>", r.text, re.S)
    assert m, "finish must render its JSON inside <pre>, as agisdk's get_finish_json expects"
    return json.loads(html.unescape(m.group(1)))


def test_protocol_config_finish_and_isolation(todo_url):
    with httpx.Client(base_url=todo_url) as a, httpx.Client(base_url=todo_url) as b:
        assert a.get("/config", params={"run_id": "7", "task_id": "v2.todo-1", "latency": 0}).status_code == 200
        b.get("/config", params={"task_id": "v2.todo-2"}).raise_for_status()
        a.post("/toggle").raise_for_status()
        fa, fb = _finish(a), _finish(b)
        assert fa["config"]["run_id"] == "7" and fa["config"]["task_id"] == "v2.todo-1"
        assert fa["differences"]["items"]["updated"] == [{"id": "1", "done": True}]
        assert fa["initialfinaldiff"]["updated"] == {"items": {"1": {"done": True}}}
        assert fb["differences"]["items"]["updated"] == [] and fb["initialfinaldiff"]["updated"] == {}
        # a new /config in the same browser starts afresh
        a.get("/config", params={"task_id": "v2.todo-1"}).raise_for_status()
        assert _finish(a)["initialfinaldiff"]["updated"] == {}


def test_protocol_bad_input_gives_clear_errors(todo_url):
    with httpx.Client(base_url=todo_url) as c:
        r = c.get("/config", params={"task_id": "v2.gomail-1"})
        assert r.status_code == 400 and "not a todo task" in r.text
        r = c.get("/config", params={"task_id": "v2.todo-1", "latency": "soon"})
        assert r.status_code == 400 and "latency" in r.text
        r = c.get("/config", params={"task_id": "v2.todo-99"})
        assert r.status_code == 400 and "no seed data" in r.text
        # no /config at all: a fresh default state, not an error
        assert _finish(c)["config"]["task_id"] == ""
        assert c.get("/submit", params={"retrieved_answer": "42"}).json()["submitted"] == 1


def test_many_concurrent_sessions_never_share_state(todo_url):
    def episode(i: int) -> dict:
        with httpx.Client(base_url=todo_url) as c:
            c.get("/config", params={"task_id": f"v2.todo-{i}"}).raise_for_status()
            for _ in range(i % 3):
                c.post("/toggle").raise_for_status()
            return _finish(c)

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(episode, range(32)))
    for i, f in enumerate(results):
        assert f["config"]["task_id"] == f"v2.todo-{i}"
        expect = [{"id": "1", "done": True}] if i % 3 == 1 else []
        assert f["differences"]["items"]["updated"] == expect, i


def test_sessions_copy_the_seed_deeply_and_forks_copy_the_state():
    """A session writes its own state only: nested values of the seed, of other sessions and of a fork's source
    stay as they were (``fresh_copy`` is a deep copy, not a shallow one)."""
    seed = {"items": {"1": {"done": False, "tags": ["a"]}}, "n": 1}
    spec = SiteSpec(name="t", seed=lambda task_id: fresh_copy(seed), differences=lambda a, b: {}, routes=[])
    store = SessionStore(spec)
    a, b = store.new("x"), store.new("y")
    a.state["items"]["1"]["tags"].append("b")
    a.state["items"]["1"]["done"] = True
    assert a.initial == seed and b.state == seed and b.initial == seed
    c = store.fork(a)
    c.state["items"]["1"]["tags"].append("c")
    assert a.state["items"]["1"]["tags"] == ["a", "b"] and c.state["items"]["1"]["tags"] == ["a", "b", "c"]
    assert fresh_copy(seed) == seed and fresh_copy(seed)["items"] is not seed["items"]


def test_site_ports_are_held_from_the_pick_until_the_server_serves():
    """Each site's port is bound when it is picked and handed to uvicorn as a socket: nothing else (another run's
    server, a client's ephemeral source port) can take it in between (a probe released before uvicorn bound it lost
    its port to a run started at the same moment). Ports are distinct, and a fixed port in use is a clear error that
    leaves none of the other sites' ports bound."""
    import socket

    from real_local.server import _servers

    servers = _servers([TODO, dataclasses.replace(TODO, name="gomail")], "127.0.0.1", None, "warning")
    try:
        ports = [srv.config.port for srv, _ in servers.values()]
        assert len(set(ports)) == 2 and all(p > 0 for p in ports)
        for p in ports:
            with socket.socket() as probe, pytest.raises(OSError):
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind(("127.0.0.1", p))
    finally:
        for _, sock in servers.values():
            sock.close()

    specs = [dataclasses.replace(TODO, name="gomail"), dataclasses.replace(TODO, name="gocalendar")]
    for _ in range(20):  # the port below the one taken is another process's now and then (a busy machine): again
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            base = taken.getsockname()[1] - 2  # gocalendar's offset: gomail (+1) is bound first, then gocalendar fails
            with pytest.raises(RuntimeError, match=r"cannot listen on 127\.0\.0\.1:\d+") as e:
                _servers(specs, "127.0.0.1", base, "warning")
            if "(gomail)" in str(e.value):
                continue
            assert f"cannot listen on 127.0.0.1:{base + 2} (gocalendar)" in str(e.value)
            with socket.socket() as again:  # gomail's port was released with the error
                again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                again.bind(("127.0.0.1", base + 1))
            break
    else:
        pytest.fail("the port below a free one was taken in each of 20 tries")


# ---------------------------------------------------------------- what one session may store (issue 45, item 6)
async def _note(request: Request):
    """Stores the body ``times`` times (a page that copies what it is sent into several places of its state)."""
    s = session_of(request)
    body = (await request.body()).decode()
    with s.lock:
        times = int(request.query_params.get("times", "1"))
        s.state.setdefault("notes", []).extend(f"{i}:{body}" for i in range(times))
    return JSONResponse({"notes": len(s.state["notes"])})


NOTES = SiteSpec(name="notes", seed=lambda task_id: {"notes": []},
                 differences=lambda a, b: {"notes": {"added": b["notes"][len(a["notes"]):]}},
                 routes=[Route("/api/note", _note, methods=["POST"])])


def test_a_session_stores_at_most_its_bound_and_says_so_with_413():
    """Before: 120 posts of 1 MB to /submit on one cookie took the server from 81 to 197 MB, and GoMail's send
    stored 900 KB bodies (the next /finish: 105 MB in 4.2 s). Now what a session stores past its seed is bounded on
    every route at once; a request past the bound gets 413, stores nothing, and /finish stays small and fast."""
    from real_local.core import MAX_SESSION_BYTES

    with SitesServer([NOTES]) as urls, httpx.Client(base_url=urls["notes"]) as c:
        c.get("/config", params={"task_id": "v2.notes-1"}).raise_for_status()
        big = c.post("/submit", content=b"x" * ((1 << 20) - 1000))
        assert big.status_code == 413 and "over the 262,144-byte limit of one session; nothing was stored" in \
            big.json()["error"] and "/config" in big.json()["fix"]
        codes = [c.post("/submit", content=b"y" * 20_000).status_code for _ in range(30)]
        assert codes[:10] == [200] * 10 and codes[-1] == 413 and set(codes) == {200, 413}
        kept = codes.count(200)
        assert c.get("/submit", params={"retrieved_answer": "z" * 30_000}).status_code == 413  # a query: the same
        # a request that stores more than it brings (three copies of 100 KB) is rolled back whole
        c.get("/config", params={"task_id": "v2.notes-2"}).raise_for_status()
        r = c.post("/api/note", params={"times": 3}, content=b"n" * 100_000)
        assert r.status_code == 413 and "nothing was stored" in r.json()["error"]
        assert c.get("/finish.json").json()["differences"] == {"notes": {"added": []}}
        assert c.post("/api/note", content=b"n" * 100_000).json() == {"notes": 1}  # one copy fits
    # GoMail's send: 60 bodies of 200 KB on one cookie; each refused past the bound, /finish stays small
    with SitesServer(["gomail"]) as urls, httpx.Client(base_url=urls["gomail"]) as g:
        g.get("/config", params={"task_id": "v2.gomail-1"}).raise_for_status()
        sent = [g.post("/api/send", json={"to": "a@example.com", "subject": f"s{i}", "body": "b" * 200_000})
                .status_code for i in range(60)]
        assert sent[0] == 200 and sent.count(200) == 1 and sent.count(413) == 59
        import time

        t0 = time.perf_counter()
        fin = g.get("/finish")
        assert fin.status_code == 200 and len(fin.content) < 3 * MAX_SESSION_BYTES
        assert time.perf_counter() - t0 < 1.0
    assert kept * 20_000 <= MAX_SESSION_BYTES
