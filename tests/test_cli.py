"""The `halo` command's own subcommands: tasks and smoke (a table of checks, each failure with its fix)."""

from __future__ import annotations

import socket

from typer.testing import CliRunner

from halo.cli import app


def _runner() -> CliRunner:
    return CliRunner()


def test_tasks_counts_v2_by_site():
    r = _runner().invoke(app, ["tasks", "--local"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "121 tasks" in r.output and "gomail" in r.output and "21" in r.output and "topwork" in r.output
    assert "networkin" in r.output
    assert "v2.gocalendar-11: never graded SUCCESS" in " ".join(r.output.split())  # listed, out of the task sets
    r = _runner().invoke(app, ["tasks", "--site", "zilloft", "--goals"], env={"COLUMNS": "200"})
    assert r.exit_code == 0 and "v2.zilloft-2" in r.output


def test_smoke_reports_each_check_and_fails_on_an_unreachable_policy_server():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = _runner().invoke(app, ["smoke", "--no-browser", "--no-local-sites", "--policy-url",
                               f"http://127.0.0.1:{port}/v1"], env={"COLUMNS": "250"})
    assert r.exit_code == 1, r.output
    for name in ("agisdk", "REAL v2 tasks", "ML stack", "policy server"):
        assert name in r.output
    assert "121 v2 tasks" in r.output and "FAIL" in r.output and "halo serve-policy" in r.output


def test_smoke_passes_with_browser_and_real_local():
    r = _runner().invoke(app, ["smoke"], env={"COLUMNS": "250"})
    assert r.exit_code == 0, r.output
    assert "launched, 1280x720" in r.output and "gomail, gocalendar, omnizon, zilloft" in r.output
