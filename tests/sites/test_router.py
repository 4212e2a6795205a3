"""REAL-local's client-side navigation (``real_local/router.js``): links and forms swap the page inside one document,
as REAL's single-page sites do, and the env sees each swapped page as a page of its own."""

from __future__ import annotations

import pytest
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse
from starlette.routing import Route

from real_local.core import SiteSpec, read_form
from real_local.server import SitesServer

pytestmark = pytest.mark.browser

SCRIPT = """<script>
  window.hits = window.hits || 0;
  document.addEventListener('click', () => { window.hits += 1; });  // gone at the next swap, as with a new document
  document.getElementById('ran').textContent = 'script ran on ' + location.pathname;
</script>"""


def page(title: str, body: str) -> HTMLResponse:
    return HTMLResponse(f"""<!doctype html><html><head><title>{title}</title>
<script src="/_spa/router.js"></script></head><body><h1>{title}</h1><p id="ran"></p>
<p id="blank" style="height:40px">nothing here</p>
<a id="to-b" href="/b">Go to B</a> <a id="to-a" href="/">Go to A</a> <a id="json" href="/data.json">Data</a>
<a id="hash" href="#">Top</a>
<form id="find" action="/search"><input name="q" value="red shoes"><button>Find</button></form>
<form id="add" method="post" action="/add"><input name="item" value="kettle"><button>Add</button></form>
<form id="bad" method="post" action="/data.json"><button>Post to data</button></form>
{body}{SCRIPT}</body></html>""")


async def home(request: Request):
    return page("Page A", "")


async def b(request: Request):
    return page("Page B", f"<p id='added'>{request.query_params.get('added', '')}</p>")


async def search(request: Request):
    return page("Results", f"<p id='query'>{request.query_params.get('q', '')}</p>")


async def add(request: Request):
    item = (await read_form(request)).get("item", "")
    return RedirectResponse(f"/b?added={item}", status_code=303)


async def data(request: Request):
    return JSONResponse({"ok": True})


SPEC = SiteSpec(name="routed", seed=lambda task_id: {}, differences=lambda a, b: {},
                routes=[Route("/", home), Route("/b", b), Route("/search", search), Route("/add", add, methods=["POST"]),
                        Route("/data.json", data)])


@pytest.fixture(scope="module")
def routed_url():
    with SitesServer([SPEC]) as urls:
        yield urls["routed"]


@pytest.fixture
async def tab(sites_pool, routed_url):
    ctx = await sites_pool.new_context()
    p = await ctx.new_page()
    await p.goto(routed_url + "/")
    yield p
    await ctx.close()


async def origin(p) -> float:
    return await p.evaluate("performance.timeOrigin")


async def shows(p, title: str) -> None:
    await p.wait_for_function("t => document.title === t && document.getElementById('ran').textContent", arg=title,
                              timeout=5000)


async def test_links_forms_and_history_stay_in_one_document(tab, routed_url):
    doc = await origin(tab)
    await tab.click("#to-b")
    await shows(tab, "Page B")
    assert tab.url == routed_url + "/b" and await tab.inner_text("#ran") == "script ran on /b"
    await tab.fill("#find input", "blue hat")
    await tab.click("#find button")
    await shows(tab, "Results")
    assert tab.url == routed_url + "/search?q=blue+hat" and await tab.inner_text("#query") == "blue hat"
    await tab.click("#add button")  # POST, then the 303's target
    await tab.wait_for_function("document.getElementById('added') && location.search === '?added=kettle'",
                                timeout=5000)
    assert await tab.inner_text("#added") == "kettle"
    await tab.go_back()  # history: the entry's URL fetched again
    await shows(tab, "Results")
    assert tab.url.endswith("/search?q=blue+hat")
    assert await origin(tab) == doc  # never a new document


async def test_page_scripts_listeners_do_not_pile_up(tab):
    for target, title in (("#to-b", "Page B"), ("#to-a", "Page A"), ("#to-b", "Page B")):
        await tab.click(target)
        await shows(tab, title)
    before = await tab.evaluate("window.hits")
    await tab.click("#blank")
    assert await tab.evaluate("window.hits") - before == 1  # one listener: the current page's


async def test_what_is_not_a_page_navigates_as_usual(tab, routed_url):
    doc = await origin(tab)
    await tab.click("#hash")  # a "#" link: no request, no swap (the page's script ran once)
    assert tab.url == routed_url + "/#" and await tab.evaluate("performance.getEntriesByType('resource')"
                                                               ".filter(e => e.initiatorType === 'xmlhttprequest').length") == 0
    await tab.click("#json")  # JSON: the browser opens it itself
    await tab.wait_for_url(routed_url + "/data.json")
    await tab.wait_for_load_state()
    assert await origin(tab) != doc and '"ok"' in await tab.content()


async def test_a_post_answered_without_a_page_shows_the_answer(tab, routed_url):
    await tab.click("#bad button")  # /data.json takes no POST: Starlette's plain-text 405
    await tab.wait_for_function("document.title.startsWith('405')", timeout=5000)
    assert "Method Not Allowed" in await tab.inner_text("body") and tab.url == routed_url + "/data.json"


async def test_the_env_sees_each_swapped_page_as_its_own(sites_pool, routed_url):
    from halo.env import actions as A
    from halo.env.env import BrowserEnv
    from halo.tasks.types import page_task

    env = BrowserEnv(sites_pool, max_steps=10)
    try:
        obs = await env.reset(page_task(routed_url + "/", goal="go to B"))
        link = next(e for e in obs.elements.values() if e.name == "Go to B")
        page_before = env._obs_doc
        r = await env.step(A.Click(link.id))
        assert r.info.error is None and r.observation.url == routed_url + "/b"
        assert 'heading "Page B"' in r.observation.axtree and "script ran on /b" in r.observation.axtree
        assert env._obs_doc != page_before and env._doc_url == routed_url + "/b"  # restore reopens /b
        env_page_b = env._obs_doc
        assert await env.page.evaluate("performance.timeOrigin") == page_before  # the same document
        assert r.observation.can_go_back
        back = await env.step(A.GoBack())  # a same-document traversal: the router fetches the entry again
        assert back.info.error is None and back.observation.url == routed_url + "/"
        assert 'heading "Page A"' in back.observation.axtree and env._obs_doc not in (page_before, env_page_b)
    finally:
        await env.close()
