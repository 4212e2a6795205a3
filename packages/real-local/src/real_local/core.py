"""What every REAL-local site shares: REAL's protocol routes, one isolated state per browser session, and the
state diff that ``/finish`` reports.

A site is a ``SiteSpec``: its name, a function that builds the seed state for a task, a function that computes
REAL's ``differences`` block, and its own Starlette routes. ``build_app(spec)`` adds the protocol:

- ``GET /config?run_id=..&task_id=..&latency=..`` starts a fresh state for that task in the calling session
  (a new session cookie, so a stale tab cannot write into it);
- ``GET /finish`` renders ``{"config", "differences", "initialfinaldiff"}`` as JSON inside ``<pre>`` (and a site's
  ``finish_extra`` keys: NetworkIn's ``env_state``);
- ``GET|POST /submit`` records the agent's answer;
- ``/__halo/state_key`` (a hash of the session's state) and ``/__halo/fork`` (a copy of a session under a new id,
  for BrowserEnv's snapshot/restore) are HALO's own: only the env's request client reaches them, never its pages.

Sessions live in memory, keyed by a per-site cookie. Browser contexts do not share cookies, so concurrent
episodes never see each other's state. A request without a session gets a fresh default one. Request bodies
over ``MAX_BODY_BYTES`` are refused with 413 (a REAL page posts a few KB; the server must not grow by what it is sent).
What a session stores is bounded too, on every site and every field at once: its state's growth past its seed plus
its submitted answers (their pickled bytes) stay within ``MAX_SESSION_BYTES``. A request that would take a session
past it is refused with 413 and stores nothing (a request it turns out to have taken past is rolled back), so
``MAX_SESSIONS`` x that bounds the server, and ``/finish`` stays small and fast.
"""

from __future__ import annotations

import copy
import hashlib
import html
import json
import pickle
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

MAX_SESSIONS = 512  # oldest sessions are dropped past this (a long training run creates thousands)
MAX_BODY_BYTES = 1 << 20  # request bodies beyond this get 413
MAX_SESSION_BYTES = 256 << 10  # what one session may store past its seed (an episode stores a few KB)
_NEAR_LIMIT = 64 << 10  # this close to the bound, every request is checked (and rolled back past it)
_READ_ONLY = ("/finish", "/finish.json", "/__halo/state_key", "/_spa/router.js", "/_spa/rangepicker.js")
ROUTER_JS = (Path(__file__).parent / "router.js").read_bytes()  # every page's client-side navigation (router.js)
RANGEPICKER_JS = (Path(__file__).parent / "rangepicker.js").read_bytes()  # the check-in / check-out calendar
_TASK_ID = re.compile(r"^(v\d+\.)?(?P<site>[a-z]+)(\.[a-z0-9_]+)?-\d+$")  # REAL's, or a task family's


# ---------------------------------------------------------------- diff (deep-object-diff's detailedDiff)
_MISSING = object()


def _as_mapping(v: Any) -> dict[str, Any] | None:
    if isinstance(v, dict):
        return {str(k): x for k, x in v.items()}
    if isinstance(v, list):  # arrays diff as objects keyed by index, as deep-object-diff does
        return {str(i): x for i, x in enumerate(v)}
    return None


def detailed_diff(before: Any, after: Any) -> dict[str, dict[str, Any]]:
    """``{"added", "deleted", "updated"}`` subtrees holding only what changed between two JSON trees.

    Same semantics as the ``detailedDiff`` REAL's sites report: keys new in ``after`` go to ``added`` (whole
    subtree), keys gone go to ``deleted`` (as null), changed leaves go to ``updated`` at their path.
    """
    added: dict[str, Any] = {}
    deleted: dict[str, Any] = {}
    updated: dict[str, Any] = {}
    a, b = _as_mapping(before), _as_mapping(after)
    if a is None or b is None:
        return {"added": {}, "deleted": {}, "updated": {} if before == after else {"": after}}
    for k, vb in b.items():
        va = a.get(k, _MISSING)
        if va is _MISSING:
            added[k] = copy.deepcopy(vb)
            continue
        if va is vb or (type(va) is type(vb) and va == vb):  # unchanged subtree: one C-level compare, no walk
            continue  # (GoMail's 500 emails: /finish's diff 44 -> 0.8 ms)
        ma, mb = _as_mapping(va), _as_mapping(vb)
        if ma is not None and mb is not None:
            sub = detailed_diff(va, vb)
            for part, target in (("added", added), ("deleted", deleted), ("updated", updated)):
                if sub[part]:
                    target[k] = sub[part]
        elif va != vb:
            updated[k] = copy.deepcopy(vb)
    for k in a:
        if k not in b:
            deleted[k] = None
    return {"added": added, "deleted": deleted, "updated": updated}


def collection_differences(before: dict[str, dict], after: dict[str, dict], *, keyed: bool = False) -> dict[str, Any]:
    """REAL's per-collection ``differences`` for a collection of records keyed by id.

    ``added``/``deleted`` hold whole records; ``updated`` holds ``{"id": .., <changed fields>}``. With
    ``keyed=True`` each part is a dict keyed by id (gocalendar's shape) instead of a list (gomail's).
    """
    added = [copy.deepcopy(r) for k, r in after.items() if k not in before]
    deleted = [copy.deepcopy(r) for k, r in before.items() if k not in after]
    updated = []
    for k, r in after.items():
        if k in before and before[k] != r:
            changed = {f: copy.deepcopy(v) for f, v in r.items() if before[k].get(f, _MISSING) != v}
            updated.append({"id": r.get("id", k), **changed})
    if keyed:
        def by_id(rs):
            return {str(r.get("id")): r for r in rs}
        return {"added": by_id(added), "updated": by_id(updated), "deleted": by_id(deleted)}
    return {"added": added, "updated": updated, "deleted": deleted}


# ---------------------------------------------------------------- sessions
def fresh_copy(tree: Any) -> Any:
    """A deep copy of a state tree (dicts, lists and scalars) by a pickle round trip: ~5x faster than
    ``copy.deepcopy`` on the sites' seeds, and every episode's ``/config`` copies one (GoCalendar's: 5.5 -> 1.1 ms)."""
    return pickle.loads(pickle.dumps(tree, pickle.HIGHEST_PROTOCOL))


@dataclass
class Session:
    sid: str
    task_id: str | None
    run_id: str
    latency: int
    initial: dict[str, Any]
    state: dict[str, Any]
    submitted: list[str] = field(default_factory=list)
    lock: threading.RLock = field(default_factory=threading.RLock)
    seed_bytes: int = 0  # the pickled size of (initial, []): what a fresh session holds
    stored: int = 0  # bytes stored past the seed (state growth and answers), as of the last request

    def snapshot(self) -> bytes:
        """The session's state and answers, pickled (its size is what the session holds)."""
        with self.lock:
            return pickle.dumps((self.state, self.submitted), pickle.HIGHEST_PROTOCOL)

    def restore(self, snap: bytes) -> None:
        state, submitted = pickle.loads(snap)
        with self.lock:
            self.state, self.submitted = state, submitted

    @property
    def config(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "task_id": self.task_id or "", "latency": self.latency,
                "hide_aria_labels": False}


@dataclass
class SiteSpec:
    """A REAL-local site. ``seed(task_id)`` returns the initial state tree (deterministic, fresh each call);
    ``differences(initial, final)`` returns REAL's ``differences`` block; ``routes`` are the site's own pages and
    API. ``on_config(session)`` may record the config in the state (zilloft's scripts read it there);
    ``finish_extra(payload)`` returns keys ``/finish`` adds beside REAL's three (NetworkIn's ``env_state``)."""

    name: str
    seed: Callable[[str | None], dict[str, Any]]
    differences: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]
    routes: list[BaseRoute]
    static_dir: str | None = None
    on_config: Callable[[Session], None] | None = None
    finish_extra: Callable[[dict[str, Any]], dict[str, Any]] | None = None  # keys /finish adds to REAL's three


class SessionStore:
    def __init__(self, spec: SiteSpec, max_sessions: int = MAX_SESSIONS, max_session_bytes: int = MAX_SESSION_BYTES):
        self.spec = spec
        self.max_sessions = max_sessions
        self.max_session_bytes = max_session_bytes
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def cookie(self) -> str:
        return f"halo_{self.spec.name}_sid"

    def new(self, task_id: str | None = None, run_id: str = "0", latency: int = 0) -> Session:
        initial = self.spec.seed(task_id)
        s = Session(sid=secrets.token_hex(12), task_id=task_id, run_id=run_id, latency=latency,
                    initial=initial, state=fresh_copy(initial))
        if self.spec.on_config is not None:
            self.spec.on_config(s)
        s.seed_bytes = len(s.snapshot())
        with self._lock:
            self._sessions[s.sid] = s
            while len(self._sessions) > self.max_sessions:
                self._sessions.popitem(last=False)
        return s

    def fork(self, src: Session) -> Session:
        """A new session holding a copy of ``src``'s state (BrowserEnv's snapshot/restore): the seed (never
        written after creation) is shared, the state and answers are copied."""
        with src.lock:
            state, submitted = fresh_copy(src.state), list(src.submitted)
        s = Session(sid=secrets.token_hex(12), task_id=src.task_id, run_id=src.run_id, latency=src.latency,
                    initial=src.initial, state=state, submitted=submitted, seed_bytes=src.seed_bytes,
                    stored=src.stored)
        with self._lock:
            self._sessions[s.sid] = s
            while len(self._sessions) > self.max_sessions:
                self._sessions.popitem(last=False)
        return s

    def get(self, sid: str | None) -> Session | None:
        with self._lock:
            s = self._sessions.get(sid or "")
            if s is not None:
                self._sessions.move_to_end(s.sid)
            return s

    def __len__(self) -> int:
        return len(self._sessions)


def session_of(request: Request) -> Session:
    """The calling browser's session (created by the middleware if it had none)."""
    return request.state.session


async def read_form(request: Request, max_text: int | None = None) -> dict[str, str]:
    """A urlencoded form body (what every REAL-local form posts), the last value of each field, cut to ``max_text``
    characters when given; anything else reads as an empty form (no python-multipart needed)."""
    body = (await request.body()).decode("utf-8", "replace")
    return {k: v[-1][:max_text] for k, v in parse_qs(body, keep_blank_values=True).items()}


def finish_payload(spec: SiteSpec, s: Session) -> dict[str, Any]:
    with s.lock:
        payload = {"config": s.config, "differences": spec.differences(s.initial, s.state),
                   "initialfinaldiff": detailed_diff(s.initial, s.state)}
    if spec.finish_extra is not None:
        payload.update(spec.finish_extra(payload))
    return payload


def error_page(status: int, what: str, fix: str) -> HTMLResponse:
    body = f"<h1>{status}</h1><p>{html.escape(what)}</p><p>{html.escape(fix)}</p>"
    return HTMLResponse(f"<!doctype html><title>Error {status}</title>{body}", status_code=status)


IMMUTABLE = {"Cache-Control": "public, max-age=604800, immutable"}  # a picture's key always draws the same bytes


async def picture(content_type: str, draw: Callable[..., bytes | None] | None, *args: Any,
                  missing: str = "No such photo.") -> Response:
    """A site's drawn picture (a photo, a portrait, a logo, a map) as a response: ``draw(*args)`` run off the event
    loop (Pillow's first drawing of a picture takes a while, and would hold up every session's requests), sent to be
    cached for a week; 404 with ``missing`` where there is no such picture (``draw`` None, or it returns None)."""
    data = await run_in_threadpool(draw, *args) if draw is not None else None
    if data is None:
        return Response(missing, status_code=404, media_type="text/plain")
    return Response(data, media_type=content_type, headers=IMMUTABLE)


def build_app(spec: SiteSpec) -> Starlette:
    """The site's Starlette app: protocol routes, session middleware, the site's routes and static files."""
    store = SessionStore(spec)

    async def config(request: Request) -> Response:
        q = request.query_params
        task_id = q.get("task_id") or None
        if task_id is not None:
            m = _TASK_ID.match(task_id)
            if not m or m.group("site") != spec.name:
                return error_page(400, f"task_id {task_id!r} is not a {spec.name} task",
                                  f"use an id like v2.{spec.name}-1 (see `halo tasks --site {spec.name}`)")
        try:
            latency = int(q.get("latency", "0") or 0)
        except ValueError:
            return error_page(400, f"latency must be an integer, got {q.get('latency')!r}", "pass latency=0")
        try:
            s = store.new(task_id=task_id, run_id=q.get("run_id", "0") or "0", latency=latency)
        except KeyError as e:
            return error_page(400, f"no seed data for task {task_id!r}: {e}", "check the task id")
        request.state.session = s
        resp = HTMLResponse(f"<!doctype html><title>{spec.name} config</title>"
                            f"<p>Config set for {html.escape(task_id or '(default)')}.</p>")
        resp.set_cookie(store.cookie, s.sid, httponly=True, samesite="lax")
        return resp

    async def finish(request: Request) -> Response:
        payload = finish_payload(spec, session_of(request))
        text = html.escape(json.dumps(payload, indent=2))
        return HTMLResponse(f"<!doctype html><html><head><title>finish</title></head><body><pre>{text}</pre>"
                            f"</body></html>")

    async def finish_json(request: Request) -> Response:
        return JSONResponse(finish_payload(spec, session_of(request)))

    async def submit(request: Request) -> Response:
        s = session_of(request)
        answer = request.query_params.get("retrieved_answer", "")
        if request.method == "POST":
            try:
                answer = (await request.json()).get("retrieved_answer", answer)
            except (ValueError, AttributeError):
                answer = (await request.body()).decode("utf-8", "replace")
        with s.lock:
            s.submitted.append(answer)
        return JSONResponse({"ok": True, "submitted": len(s.submitted)})

    async def state_key(request: Request) -> Response:
        """HALO's env reads a hash of the session's app state (GiGPO's anchor states); pages never can: BrowserEnv
        aborts every page request under /__halo/ and reads this through its context's own request client."""
        s = session_of(request)
        with s.lock:
            blob = json.dumps(s.state, sort_keys=True, default=str)
        return JSONResponse({"key": hashlib.sha1(blob.encode()).hexdigest()[:16]})

    async def fork(request: Request) -> Response:
        """A copy of a session's state under a new session id (BrowserEnv.snapshot/restore): of ``?sid=`` if given,
        else of the caller's. Like the state key, only the env's own request client can reach it."""
        sid = request.query_params.get("sid")
        src = store.get(sid) if sid else store.get(request.cookies.get(store.cookie))
        if src is None:
            return JSONResponse({"error": f"no session {sid or '(cookie)'}: it was never made or was dropped "
                                          f"(at most {store.max_sessions} per site)"}, status_code=404)
        return JSONResponse({"sid": store.fork(src).sid, "cookie": store.cookie})

    router_js = ROUTER_JS  # the app's own copy (bench/spa_ab.py serves an empty one beside it)

    async def router(request: Request) -> Response:
        return Response(router_js, media_type="text/javascript", headers={"Cache-Control": "max-age=86400"})

    async def rangepicker(request: Request) -> Response:
        return Response(RANGEPICKER_JS, media_type="text/javascript", headers={"Cache-Control": "max-age=86400"})

    routes: list[BaseRoute] = [
        Route("/__halo/state_key", state_key), Route("/__halo/fork", fork), Route("/_spa/router.js", router),
        Route("/_spa/rangepicker.js", rangepicker),
        Route("/config", config), Route("/finish", finish), Route("/finish.json", finish_json),
        Route("/submit", submit, methods=["GET", "POST"]), *spec.routes,
    ]
    if spec.static_dir:
        routes.append(Mount("/static", StaticFiles(directory=spec.static_dir), name="static"))

    async def attach_session(request: Request, call_next):
        if request.url.path in ("/config", "/__halo/fork"):  # each makes its own session
            return await call_next(request)
        s = store.get(request.cookies.get(store.cookie))
        fresh = s is None
        if fresh:
            s = store.new()
        request.state.session = s
        path = request.url.path
        measured = not path.startswith("/static/") and path not in _READ_ONLY
        before = None
        if measured:  # what the request brings: its body, its query string and a path that may be stored
            declared = request.headers.get("content-length", "")
            brings = (int(declared) if declared.isdigit() else 0) + len(request.url.query)
            if request.method not in ("GET", "HEAD") or brings or len(path) > 256 or \
                    s.stored > store.max_session_bytes - _NEAR_LIMIT:
                if s.stored + brings > store.max_session_bytes:
                    return _session_full(request, store, s.stored, brings, fresh, s)
                before = s.snapshot()
        try:
            resp = await call_next(request)
        except Exception as e:  # a bug in a page must not take the server down; say what broke
            resp = error_page(500, f"{spec.name} failed on {request.url.path}: {type(e).__name__}: {e}",
                              "reload the page; if it persists, report it with this message")
            if isinstance(e, BodyTooLarge) or (isinstance(e, ExceptionGroup) and e.subgroup(BodyTooLarge)):
                resp = error_page(413, "request body over the size limit", f"send at most {MAX_BODY_BYTES} bytes")
        if measured:
            stored = len(s.snapshot()) - s.seed_bytes
            if stored > store.max_session_bytes and before is not None:
                s.restore(before)  # it stores nothing: the session is as it was before the request
                resp = _session_full(request, store, s.stored, stored - s.stored, fresh, s)
            else:
                s.stored = stored
        if fresh:
            resp.set_cookie(store.cookie, s.sid, httponly=True, samesite="lax")
        return resp

    app = Starlette(routes=routes, middleware=[Middleware(OneLeadingSlash), Middleware(BodyLimit),
                                               Middleware(BaseHTTPMiddleware, dispatch=attach_session)])
    app.state.store = store
    app.state.spec = spec
    return app


def _session_full(request: Request, store: SessionStore, stored: int, more: int, fresh: bool, s: Session) -> Response:
    """413 for a request that would take its session past ``max_session_bytes``: JSON for the API and /submit
    (what their callers read), a page for the rest."""
    what = (f"this session stores {stored:,} bytes past its seed, and this request would add {more:,} more: over "
            f"the {store.max_session_bytes:,}-byte limit of one session; nothing was stored")
    fix = "start a fresh session (GET /config, as each episode does) or send less"
    if request.url.path.startswith("/api/") or request.url.path == "/submit":
        resp: Response = JSONResponse({"error": what, "fix": fix}, status_code=413)
    else:
        resp = error_page(413, what, fix)
    if fresh:
        resp.set_cookie(store.cookie, s.sid, httponly=True, samesite="lax")
    return resp


class BodyTooLarge(Exception):
    pass


class OneLeadingSlash:
    """ASGI middleware: ``//finish`` is ``/finish``. agisdk joins a task's URL, which ends in ``/``, with ``/finish``
    and ``/config``; REAL's hosted sites serve the doubled slash as the single one, and so does REAL-local."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope.get("path", "").startswith("//"):
            path = "/" + scope["path"].lstrip("/")
            raw = scope.get("raw_path")
            scope = {**scope, "path": path, "raw_path": b"/" + raw.lstrip(b"/") if raw else raw}
        await self.app(scope, receive, send)


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes gets 413, at once when its Content-Length says so, else
    as soon as the bytes read pass the limit (nothing past it is kept)."""

    def __init__(self, app: Any, limit: int | None = None):
        self.app = app
        self.limit = MAX_BODY_BYTES if limit is None else limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.limit:
            await error_page(413, f"request body of {int(declared)} bytes is over the {self.limit}-byte limit",
                             f"send at most {self.limit} bytes")(scope, receive, send)
            return
        seen = 0

        async def limited() -> Any:
            nonlocal seen
            msg = await receive()
            if msg.get("type") == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge(f"request body over the {self.limit}-byte limit")
            return msg

        await self.app(scope, limited, send)
