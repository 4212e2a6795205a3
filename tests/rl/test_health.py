"""No silent runs (halo.rl.health): errored episodes counted by reason; past max_error_share an iteration stops the
run with one paragraph (what failed most, an example, what to do) and a `stopped` record in metrics.jsonl."""

from __future__ import annotations

import json

import pytest

from halo.env.env import episode_deadline_error
from halo.errors import ConfigError
from halo.rl.config import GRPOSettings
from halo.rl.health import RunUnhealthy, check_iteration, count_reasons, error_reason, error_report
from halo.rl.rollout import Episode
from halo.runtime.runs import RunDir


@pytest.mark.parametrize("error, reason", [
    (episode_deadline_error(900), "episode deadline"),
    ("PolicyError: policy server at http://x/v1 failed after 3 attempts (last: HTTP 500)", "policy"),
    ("the browser or page died (no error from the action)", "browser"),
    ("the browser died while observing: Target closed", "browser"),
    ("BrowserError: the browser stopped answering during reset of v2.gomail-1 (new_page ...)", "browser"),
    ("SiteError: reset of v2.gomail-1 at http://127.0.0.1:1 failed: net::ERR_CONNECTION_REFUSED; is the site "
     "running (`halo sites`)?", "site"),
    ("could not read http://127.0.0.1:5/finish: Timeout 2000ms exceeded", "site"),
    ("the page did not answer: observing the page took over 15 s", "site"),
    ("grading failed: KeyError: 'x'", "grading"),
    ("the step did not finish within 120 s: the browser or the site stopped answering", "step deadline"),
    ("TaskNotFoundError: unknown task", "config"),
    ("ValueError: boom", "ValueError"),
    # an exception with no message was 'other' (issue 45): its name is the reason, and where it was raised is said
    ("TimeoutError: ", "TimeoutError"),
    ("TimeoutError (no message) at rollout.py:171 in _run_episode", "TimeoutError"),
    ("SiteError: http://h/p did not load (Page.goto: net::ERR_ABORTED); is the site running?", "site"),
    ("BrowserError: the page's renderer crashed while loading http://h/p (net::ERR_ABORTED)", "browser"),
    ("could not read http://h/finish: Page.goto: Page crashed", "browser"),
    ("ConfigError: rewards.milestones.gomail[0] (m).text: the regex '(a|aa)+$' ran over 1 CPU-s", "config"),
    ("PatternTimeout: milestone m.text: the regex '(a|aa)+$' ran over 1 CPU-s", "config"),
    ("something odd", "other"),
    (None, "other"),
])
def test_reasons(error, reason):
    assert error_reason(error) == reason


def test_an_exception_without_a_message_still_says_what_and_where():
    from halo.rl.health import exception_text

    def raises():
        raise TimeoutError()

    try:
        raises()
    except TimeoutError as e:
        text = exception_text(e)
    assert text.startswith("TimeoutError (no message) at test_health.py:") and text.endswith(" in raises")
    assert error_reason(text) == "TimeoutError"
    assert exception_text(KeyError("x")) == "KeyError: 'x'"


def test_the_browser_advice_names_the_commands_own_flags():
    """Before: GRPO's stop message advised --parallel, a flag `halo train grpo` did not take; it takes it now
    (grpo.parallel) and the message names it."""
    from typer.testing import CliRunner

    from halo.cli import app

    rep = error_report([_ep(0, "the browser died"), _ep(1, "the browser died")])
    with pytest.raises(RunUnhealthy) as e:
        check_iteration(None, 0, [[_ep(0, "the browser died"), _ep(1, "the browser died")]], 0.5)
    assert "run fewer episodes at once (--parallel, i.e. grpo.parallel, or a smaller --group-size)" in str(e.value)
    assert "(--parallel)" in rep.paragraph("evaluation", 0.5)
    out = CliRunner().invoke(app, ["train", "grpo", "--help"], env={"COLUMNS": "200"}).output
    assert "--parallel" in out and "waves" in out


def _ep(i: int, error: str | None = None) -> Episode:
    return Episode(id=f"e{i}", task_id=f"v2.gomail-{i}", site="gomail", errored=error is not None, error=error)


def test_report_counts_and_the_paragraph_says_what_failed_and_what_to_do():
    eps = [_ep(0, "PolicyError: policy server at http://h:1/v1 failed after 5 attempts (last: no answer within "
                  "30 s)" + " x" * 400), _ep(1, "PolicyError: policy server down"), _ep(2, "the browser died"),
           _ep(3)]
    rep = error_report(eps)
    assert (rep.total, rep.errored, rep.by_reason) == (4, 3, {"policy": 2, "browser": 1})
    assert rep.line() == "errored 3/4 (policy 2, browser 1)"
    assert rep.too_many(0.5) and not rep.too_many(0.75)
    text = rep.paragraph("GRPO iteration 7", 0.5)
    assert text.startswith("GRPO iteration 7: 3 of 4 episodes errored (75%, more than the 50% max_error_share")
    assert "Most were 'policy' (2; then browser 1)" in text and "v2.gomail-0: PolicyError" in text
    assert "halo smoke --policy-url" in text and "raise max_error_share" in text
    assert len(text) < 1200  # the example is cut
    assert count_reasons(["the browser died", None, "the browser died"]) == {"browser": 2, "other": 1}


def test_an_unhealthy_iteration_stops_before_the_update_and_logs_a_stopped_record(tmp_path):
    run = RunDir(tmp_path, "r")
    ok = check_iteration(run, 0, [[_ep(0, "the browser died"), _ep(1)]], 0.5)  # 50%: not more than the share
    assert ok.errored == 1 and not (run.path / "metrics.jsonl").exists()
    with pytest.raises(RunUnhealthy, match="GRPO iteration 1: 2 of 3 episodes errored") as e:
        check_iteration(run, 1, [[_ep(0, "SiteError: down"), _ep(1)], [_ep(2, "SiteError: down")]], 0.5)
    assert e.value.report.by_reason == {"site": 2}
    (rec,) = [json.loads(x) for x in (run.path / "metrics.jsonl").read_text().splitlines()]
    assert rec["kind"] == "stopped" and rec["iteration"] == 1 and rec["errors"] == {"site": 2}
    check_iteration(run, 2, [[_ep(0, "SiteError: down")]], 1.0)  # 1.0 never stops


def test_max_error_share_is_validated():
    with pytest.raises(ConfigError, match=r"max_error_share must be <= 1, got 2"):
        GRPOSettings(max_error_share=2)
    from halo.jobs.eval import EvalConfig

    with pytest.raises(ConfigError, match="max_error_share"):
        EvalConfig(max_error_share=-0.1)
