"""Every GoMail v2 task solved in real Chromium through BrowserEnv on REAL-local and graded by agisdk's own
eval_gomail_*.py (SUCCESS), and the same task left untouched graded FAILURE."""

from __future__ import annotations

import pytest
from oracles_gomail import ORACLES

from halo.tasks.real import list_tasks

pytestmark = pytest.mark.browser
GOMAIL_TASKS = [t.id for t in list_tasks("v2", "gomail")]


def test_every_gomail_task_has_an_oracle():
    assert len(GOMAIL_TASKS) == 21 and sorted(ORACLES) == sorted(GOMAIL_TASKS)


@pytest.mark.parametrize("task_id", sorted(ORACLES, key=lambda t: int(t.rsplit("-", 1)[1])))
async def test_oracle_passes_real_grader(task_id, run_episode):
    res, d = await run_episode(task_id, ORACLES[task_id])
    g = res.info.grade
    assert g.success and res.reward == 1.0, f"{task_id} graded {g.details} after {d.steps} steps"


@pytest.mark.parametrize("task_id", GOMAIL_TASKS)
async def test_noop_episode_fails(task_id, run_episode):
    res, _ = await run_episode(task_id, None)
    assert not res.info.grade.success and res.reward == 0.0, f"{task_id}: a no-op passed {res.info.grade.details}"
