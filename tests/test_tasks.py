"""The task registry over agisdk, and grading through agisdk's own evaluator."""

from __future__ import annotations

import pytest

from halo.errors import ConfigError, TaskNotFoundError
from halo.tasks.real import canonical_id, get_task, grade, list_tasks
from halo.tasks.types import LOCAL_SITES


def test_v2_is_our_default_and_counts_match_agisdk():
    assert canonical_id("gomail-1") == "v2.gomail-1"
    assert canonical_id("v1.gomail-1") == "v1.gomail-1"
    tasks = list_tasks("v2")
    by_site = {s: sum(t.site == s for t in tasks) for s in LOCAL_SITES}
    assert by_site == {"gomail": 21, "gocalendar": 10, "omnizon": 10, "zilloft": 10, "dashdish": 11, "opendining": 11,
                       "udriver": 14, "staynb": 11, "marrisuite": 1, "networkin": 10, "topwork": 12}
    assert len(tasks) == 121 and len(list_tasks("v2", sites="local")) == 121  # REAL-local serves all of v2


def test_local_and_remote_resolution():
    remote = get_task("v2.omnizon-3")
    assert not remote.local and remote.base_url.startswith("https://") and remote.eval_scripts
    local = get_task("omnizon-3", sites="local", site_urls={"omnizon": "http://127.0.0.1:9999/"})
    assert local.local and local.base_url == "http://127.0.0.1:9999" and local.remote_url == remote.remote_url
    with pytest.raises(ConfigError, match="REAL-local serves"):
        get_task("v1.fly-unified-1", sites="local")  # a v1 site REAL-local does not serve
    with pytest.raises(TaskNotFoundError, match="halo tasks"):
        get_task("v2.nosuchsite-1")


def test_grade_runs_agisdk_scripts_and_can_both_pass_and_fail():
    task = get_task("v2.gomail-1")
    empty = {"config": {}, "differences": {}, "initialfinaldiff": {"added": {}, "updated": {}, "deleted": {}}}
    g = grade(task, empty, "Done")
    assert not g.success and g.reward == 0.0 and g.details[0]["output"] == "FAILURE"
    # the state agisdk's eval_gomail_1.py accepts: everything read, 4 amazon emails trashed
    upd = {str(i): {"isRead": True} for i in range(1, 16)}
    for i in ("20", "21", "22", "23"):
        upd[i] = {"trash": True}
    done = {"config": {}, "differences": {"emails": {"updated": []}},
            "initialfinaldiff": {"added": {}, "deleted": {}, "updated": {"email": {"emails": upd}}}}
    g = grade(task, done, "Done")
    assert g.success and g.reward == 1.0 and g.details[0]["passed"]


def test_a_task_no_state_can_pass_is_listed_but_out_of_the_task_sets():
    """gocalendar-11's script is empty: `halo tasks --local` lists it, `--tasks local` / `--tasks gocalendar` (what
    training takes) leave it out, and its id still runs it."""
    from halo.tasks.resolve import resolve_tasks
    from halo.tasks.types import UNGRADABLE

    assert set(UNGRADABLE) == {"v2.gocalendar-11"}
    urls = {s: "http://127.0.0.1:1" for s in LOCAL_SITES}
    assert "v2.gocalendar-11" in {t.id for t in list_tasks("v2", "gocalendar", sites="local", site_urls=urls)}
    whole = {t.id for t in resolve_tasks(["local"], "local", urls)}
    assert len(whole) == 120 and "v2.gocalendar-11" not in whole
    cal = [t.id for t in resolve_tasks(["gocalendar"], "local", urls)]
    assert len(cal) == 9 and "v2.gocalendar-11" not in cal
    assert "v2.gocalendar-11" not in {t.id for t in resolve_tasks(["gocalendar"], "remote")}
    (t,) = resolve_tasks(["gocalendar-11"], "local", urls)
    assert t.id == "v2.gocalendar-11" and not t.rewardable and get_task("v2.gocalendar-12").rewardable
