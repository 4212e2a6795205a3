"""`halo eval` end to end in real Chromium: a scripted policy on a REAL-local task graded by agisdk's scripts,
and the tiny model through the CLI on a local page."""

from __future__ import annotations

import functools
import http.server
import json
import re
import threading

import pytest
import yaml
from typer.testing import CliRunner

from halo.env import actions as A
from halo.env.types import Observation

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html><head><title>Form</title></head><body>
<h1>Newsletter</h1><label>Email <input id="email" aria-label="Email"></label>
<button onclick="document.getElementById('out').textContent='subscribed'">Subscribe</button>
<p id="out"></p></body></html>"""


@pytest.fixture(scope="module")
def page_url(tmp_path_factory):
    root = tmp_path_factory.mktemp("pages")
    (root / "form.html").write_text(PAGE)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/form.html"
    srv.shutdown()


def by_name(obs: Observation, pattern: str, role: str | None = None) -> str:
    for el in obs.elements.values():
        if re.search(pattern, el.name, re.I) and (role is None or el.role == role):
            return el.id
    raise AssertionError(f"no element {pattern!r} on {obs.url}:\n{obs.axtree[:2000]}")


def clear_inbox(obs: Observation) -> A.Action:
    """Oracle for v2.gomail-14 ("Clear all my emails that are visible"): select all, delete, tell the user."""
    if obs.step == 0:
        return A.Click(element=by_name(obs, "^select all$", "checkbox"))
    if obs.step == 1:
        return A.Click(element=by_name(obs, "delete|trash", "button"))
    return A.SendMsgToUser(text="Done, I cleared all visible emails.")


async def test_scripted_policy_on_real_local_is_graded_by_real(tmp_path):
    from halo.jobs.eval import EvalConfig, run_eval
    from halo.policy.scripted import ScriptedPolicy
    from halo.runtime.runs import RunDir
    from halo.tasks.resolve import local_sites, resolve_tasks

    with local_sites(True) as urls:
        tasks = resolve_tasks(["gomail-14"], sites="local", site_urls=urls)
        good = await run_eval(ScriptedPolicy(clear_inbox), tasks, EvalConfig(episodes=1, parallel=1, max_steps=5),
                              RunDir(tmp_path, "good"))
        lazy = await run_eval(ScriptedPolicy([A.SendMsgToUser(text="Done.")]), tasks,
                              EvalConfig(episodes=1, parallel=1, max_steps=5), RunDir(tmp_path, "lazy"))
    assert good.tasks["v2.gomail-14"].successes == 1, good.tasks
    assert lazy.tasks["v2.gomail-14"].successes == 0 and lazy.tasks["v2.gomail-14"].episodes == 1
    lines = [json.loads(x) for x in (tmp_path / "good/episodes/gomail-14-00.jsonl").read_text().splitlines()]
    assert [x["type"] for x in lines] == ["step", "step", "step", "episode"]
    assert lines[0]["action"]["action"] == "click" and lines[2]["action"]["action"] == "send_msg_to_user"
    assert lines[-1]["success"] is True
    assert (tmp_path / "good/episodes" / lines[0]["screenshot"]).read_bytes()[:3] == b"\xff\xd8\xff"
    metrics = json.loads((tmp_path / "good/metrics.jsonl").read_text())
    assert metrics["success_rate"] == 1.0 and metrics["per_site"] == {"gomail": 1.0}


@pytest.mark.ml
def test_cli_eval_tiny_model_on_a_local_page(tiny_model_dir, page_url, tmp_path, one_torch_thread):
    from halo.cli import app

    r = CliRunner().invoke(app, ["eval", "--mode", "tiny", "--model", str(tiny_model_dir), "--tasks", page_url,
                                 "--goal", "Subscribe to the newsletter", "--episodes", "2", "--parallel", "2",
                                 "--max-steps", "2", "--name", "tiny-e2e", "--runs-dir", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert re.search(r"page-0\s+│\s+0/2", r.output), r.output
    run = tmp_path / "tiny-e2e"
    cfg = yaml.safe_load((run / "config.yaml").read_text())
    assert cfg["mode"]["name"] == "tiny" and cfg["tasks"] == [page_url] and cfg["eval"]["episodes"] == 2
    episodes = sorted((run / "episodes").glob("*.jsonl"))
    assert [p.name for p in episodes] == ["page-0-00.jsonl", "page-0-01.jsonl"]
    for p in episodes:
        lines = [json.loads(x) for x in p.read_text().splitlines()]
        steps = [x for x in lines if x["type"] == "step"]
        assert 1 <= len(steps) <= 2 and lines[-1]["type"] == "episode" and not lines[-1]["errored"]
        for s in steps:  # the tiny mode decodes under the action grammar: every reply is a valid action
            assert s["action"] is not None and s["parse_error"] is None and s["tokens"] > 0
            assert (run / "episodes" / s["screenshot"]).is_file()
    metrics = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
    assert len(metrics) == 1 and metrics[0]["episodes"] == 2 and metrics[0]["action_validity"] == 1.0


def test_cli_eval_reports_bad_input_clearly(tmp_path):
    from halo.cli import app

    r = CliRunner().invoke(app, ["eval", "--mode", "tiny", "--tasks", "nonsense-999", "--sites", "remote",
                                 "--model", str(tmp_path / "none"), "--runs-dir", str(tmp_path)])
    assert r.exit_code == 2 and "unknown task 'v2.nonsense-999'" in r.output
    r = CliRunner().invoke(app, ["eval", "--mode", "tiny", "--tasks", "x", "--sites", "moon"])
    assert r.exit_code == 2 and "--sites must be 'local' or 'remote'" in r.output


def test_cli_eval_without_a_policy_server_fails_fast(page_url, tmp_path):
    import socket

    from halo.cli import app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = CliRunner().invoke(app, ["eval", "--mode", "qwen3vl_base", "--base-url", f"http://127.0.0.1:{port}/v1",
                                 "--tasks", page_url, "--runs-dir", str(tmp_path)])
    assert r.exit_code == 2, r.output
    assert f"cannot reach the policy server at http://127.0.0.1:{port}/v1" in r.output
    assert "halo serve-policy --mode qwen3vl_base" in r.output
