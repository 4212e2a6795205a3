"""REAL's graders with known problems (packages/real-local/src/real_local/known_issues.yaml): every entry a real agisdk task with a
valid kind and its texts, the four reported cases named, a bad entry refused with its id, and `halo tasks
--known-issues` printing one line per entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from halo.cli import app
from real_local import known_issues as ki

REPORTED = ("staynb-5", "gocalendar-7", "topwork-1", "gocalendar-11")


def _agisdk_root() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("agisdk")
    return Path(next(iter(spec.submodule_search_locations))) / "REAL" / "browsergym" / "webclones"


def test_every_entry_is_an_agisdk_task_with_a_valid_kind():
    issues = ki.load()
    assert len(issues) >= 40
    ids = [i.id for i in issues]
    assert len(ids) == len(set(ids))
    for i in issues:
        assert i.id in ki.agisdk_task_ids(), i.id
        assert (_agisdk_root() / i.version / "tasks" / f"{i.task}.json").is_file(), i.id
        assert set(i.kinds) <= set(ki.KINDS) and i.kind not in i.also, i.id
        assert i.goal_says and i.script_does and i.real_local and i.short, i.id
    assert {i.kind for i in issues} == set(ki.KINDS)  # every kind has a case


def test_the_reported_cases_are_there_as_agisdk_has_them():
    got = ki.by_id()
    assert got["v2.gocalendar-11"].kind == "empty"
    assert (_agisdk_root() / "v2" / "eval_scripts" / "eval_gocalendar_11.py").read_text().strip() == ""
    assert got["v1.staynb-5"].kind == "hard-coded-date"
    assert "Oct 13 2025" in (_agisdk_root() / "v1" / "tasks" / "staynb-5.json").read_text()
    assert got["v1.gocalendar-7"].kind == "contradicts"
    task = json.loads((_agisdk_root() / "v1" / "tasks" / "gocalendar-7.json").read_text())
    assert "July 19" in task["goal"] and task["evals"][0]["expected_value"].startswith("2024-07-18")
    assert got["v1.topwork-1"].kind == "hosted-site-bug"
    # v2's staynb-5 is another task, loose on REAL-local (a paid booking passes), with no hard-coded year
    assert got["v2.staynb-5"].kind == "loose"
    assert "2025" not in (_agisdk_root() / "v2" / "eval_scripts" / "eval_staynb_5.py").read_text()


def test_the_pinned_loose_and_strict_cases_are_listed():
    """The cases docs/REAL_LOCAL_SCRIPTS.md marks * (pinned by LOOSE / STRICT in the site tests) all have an entry."""
    got = ki.by_id()
    loose = ["dashdish-10", "dashdish-4", "dashdish-11", "dashdish-12", "opendining-20", "opendining-7",
             "opendining-17", "opendining-12", "opendining-1", "udriver-11", "staynb-1", "staynb-17", "staynb-19",
             "staynb-6", "staynb-9", "staynb-4", "staynb-5", "marrisuite-8", "topwork-8", "topwork-10", "topwork-11",
             "topwork-12", "topwork-21", "networkin-1", "networkin-5", "networkin-6", "networkin-11", "networkin-13",
             "networkin-19", "networkin-25", "networkin-26"]
    strict = ["staynb-13", "topwork-13", "networkin-6", "networkin-19"]
    for t in loose:
        assert "loose" in got[f"v2.{t}"].kinds, t
    for t in strict:
        assert "strict" in got[f"v2.{t}"].kinds, t


def _write(tmp_path: Path, entries: list[dict]) -> Path:
    p = tmp_path / "known_issues.yaml"
    p.write_text(yaml.safe_dump(entries))
    return p


GOOD = {"id": "v2.staynb-13", "kind": "strict", "goal_says": "g", "script_does": "s", "real_local": "r"}


@pytest.mark.parametrize("bad, words", [
    ({**GOOD, "id": "v2.staynb-99"}, ["v2.staynb-99", "not one of agisdk's tasks"]),
    ({**GOOD, "id": "staynb-13"}, ["staynb-13", "not one of agisdk's tasks"]),
    ({**GOOD, "id": "v2.topwork-1"}, ["v2.topwork-1", "not one of agisdk's tasks"]),  # topwork-1 is v1 only
    ({**GOOD, "kind": "sloppy"}, ["v2.staynb-13", "'sloppy'", "loose"]),
    ({**GOOD, "also": ["lenient"]}, ["v2.staynb-13", "'lenient'"]),
    ({**GOOD, "real_local": ""}, ["v2.staynb-13", "real_local"]),
    ({**GOOD, "note": "x"}, ["v2.staynb-13", "note"]),
])
def test_a_bad_entry_is_refused_with_its_id(tmp_path, bad, words):
    with pytest.raises(ki.KnownIssuesError) as e:
        ki.load(_write(tmp_path, [GOOD | {"id": "v2.staynb-4"}, bad]))
    for w in words:
        assert w in str(e.value)


def test_an_id_twice_is_refused(tmp_path):
    with pytest.raises(ki.KnownIssuesError, match=r"v2\.staynb-13: listed twice"):
        ki.load(_write(tmp_path, [GOOD, GOOD]))


def test_cli_prints_one_line_per_entry():
    r = CliRunner().invoke(app, ["tasks", "--known-issues"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    issues = ki.load()
    assert len(lines) == len(issues)
    assert [ln.split()[0] for ln in lines] == [i.id for i in issues]
    assert [ln.split()[1] for ln in lines] == ["+".join(i.kinds) for i in issues]
    first = {ln.split()[0]: ln for ln in lines}
    for task in REPORTED:
        assert any(tid.endswith("." + task) for tid in first), task
    assert first["v1.staynb-5"].split()[1] == "hard-coded-date" and "Oct 13 2025" in first["v1.staynb-5"]
    assert first["v1.gocalendar-7"].split()[1] == "contradicts"
    assert first["v1.topwork-1"].split()[1] == "hosted-site-bug" and "React" in first["v1.topwork-1"]
    assert first["v2.gocalendar-11"].split()[1] == "empty"


def test_cli_filters_by_site_and_refuses_an_unknown_one():
    r = CliRunner().invoke(app, ["tasks", "--known-issues", "--site", "staynb"])
    assert r.exit_code == 0, r.output
    ids = [ln.split()[0] for ln in r.output.splitlines()]
    assert "v1.staynb-5" in ids and "v2.staynb-13" in ids and all(".staynb-" in i for i in ids)
    r = CliRunner().invoke(app, ["tasks", "--known-issues", "--site", "atlantis"])
    assert r.exit_code == 2
