"""bench/ladder_stalls.py: where a ladder's evaluated episodes stopped advancing, read from saved episodes with
known answers (no browser, no model)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "ladder_stalls", Path(__file__).resolve().parents[2] / "bench" / "ladder_stalls.py")
ls = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("ladder_stalls", ls)
_spec.loader.exec_module(ls)


def _step(i: int, action: dict, name: str, progress: float = 0.0, error: str | None = None) -> dict:
    return {"type": "step", "step": i, "action": action, "error": error,
            "reward_parts": {"progress": progress} if progress else {},
            "target": {"element": {"id": action.get("element"), "role": "textbox", "name": name}}}


def _write(folder: Path, key: str, task_id: str, steps: list[dict], success: bool,
           iteration: int | None = None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    ep = {"type": "episode", "key": key, "task_id": task_id, "success": success}
    if iteration is not None:  # a training episode (GRPO's save_episodes writes its iteration)
        ep["iteration"] = iteration
    lines = [json.dumps(s) for s in steps] + [json.dumps(ep)]
    (folder / f"{key}.jsonl").write_text("\n".join(lines) + "\n")


def test_a_stall_is_the_action_after_the_last_progress_and_a_fill_is_judged_by_the_instances_values(tmp_path):
    from halo.tasks.families import get_family

    p = get_family("gomail.send_subject").instance(3).params
    eps = tmp_path / "eval_after_gomail.send_subject" / "episodes"
    # typed the subject (progress), then the message into the wrong field with a wrong value: stalled at step 1
    _write(eps, "a", "gomail.send_subject-3", [
        _step(0, {"action": "fill", "element": "184", "value": p["subject"]}, "Subject", progress=0.2),
        _step(1, {"action": "fill", "element": "5", "value": "hello"}, "Search mail"),
        _step(2, {"action": "click", "element": "186"}, "Send", progress=-0.2)], success=False)
    # a right value into the body, then nothing more: the episode ended after its last progress
    _write(eps, "b", "gomail.send_subject-3", [
        _step(0, {"action": "fill", "element": "185", "value": p["body"]}, "Message Body", progress=0.2)],
        success=False)
    _write(eps, "c", "gomail.send_subject-3", [
        _step(0, {"action": "click", "element": "186"}, "Send", progress=1.0)], success=True)
    _write(tmp_path / "real_after" / "episodes", "r", "gomail-4", [
        _step(0, {"action": "click", "element": "1"}, "Compose")], success=False)  # REAL's own task: not profiled
    res = ls.profile(ls.episode_files([tmp_path]))
    assert set(res) == {"gomail.send_subject"}
    f = res["gomail.send_subject"]
    assert (f["episodes"], f["failed"], f["success"]) == (3, 2, round(1 / 3, 4))
    assert f["stalled_at"] == {"fill Search mail: wrong value": 1, "no step (the episode ended)": 1}
    assert f["stall_step"] == {"1": 2}
    assert f["progress_reached"] == {"0.20": 2}
    assert f["fills"] == {"Subject: right": 1, "Search mail: wrong": 1, "Message Body: right": 1}
    # what each stall had typed right before it, and the order each episode typed its right values in
    assert f["stalled_after"] == {"fill Search mail: wrong value | typed right before: Subject": 1,
                                  "no step (the episode ended) | typed right before: Message Body": 1}
    assert f["fill_orders"] == {"Subject": 1, "Message Body": 1, "(none)": 1}


def test_no_episodes_is_an_error(tmp_path):
    with pytest.raises(SystemExit, match="no episodes"):
        ls.episode_files([tmp_path])


def test_an_iteration_span_profiles_only_the_training_episodes_inside_it(tmp_path):
    eps = tmp_path / "learn-seed1" / "episodes"
    send = {"action": "click", "element": "186"}
    for it in (10, 120, 240, 241):  # clicked Send on an empty To at each: the span keeps 120 and 240
        _write(eps, f"it{it:04d}-g0-send_to-3-0", "gomail.send_to-3", [_step(0, send, "Send")], False, iteration=it)
    _write(tmp_path / "eval_after_train" / "episodes", "e", "gomail.send_to-3",
           [_step(0, send, "Send", progress=1.0)], success=True)  # an evaluation: no iteration, left out of a span
    assert ls.profile(ls.episode_files([tmp_path]))["gomail.send_to"]["episodes"] == 5
    f = ls.profile(ls.episode_files([tmp_path]), ls.iteration_span("120-240"))["gomail.send_to"]
    assert (f["episodes"], f["success"]) == (2, 0.0)
    assert f["stalled_at"] == {"click Send": 2}
    assert ls.profile(ls.episode_files([tmp_path]), ls.iteration_span("300-400")) == {}


@pytest.mark.parametrize("bad", ["a-b", "240-120", "-5"])
def test_a_bad_iteration_span_is_a_clear_error(bad):
    with pytest.raises(SystemExit, match="--iterations"):
        ls.iteration_span(bad)
