"""`halo view`: the episodes of a run (or two) in a page, checked in headless Chromium; what GRPO saves for it."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from halo.cli import app
from halo.rl.config import GRPOSettings
from halo.rl.grpo import GRPOTrainer, IterationResult
from halo.rl.rewards import RewardBreakdown
from halo.rl.rollout import Episode, Step
from halo.runtime.runs import RunDir


def _jpeg(colour: str) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (1280, 720), colour).save(buf, format="JPEG")
    return buf.getvalue()


def _step(i: int, action: object, reward: float, shot: bytes) -> Step:
    from halo.env.types import Element, Observation
    from halo.policy.base import Sample
    from halo.policy.parse import ParseResult

    obs = Observation(screenshot=shot, image_format="jpeg", axtree="", url="http://site/", goal="open Books",
                      step=i, elements={"12": Element("12", "link", "Books", bbox=(100.0, 50.0, 80.0, 20.0))})
    text = f'<tool_call>{{"name": "browser", "arguments": {{"action": "click", "element": "12"}}}}</tool_call> #{i}'
    sample = Sample(text=text, parsed=ParseResult(action=action), token_ids=(1, 2, 3), logprobs=(-0.5, -0.25, -0.25))
    st = Step(index=i, obs=obs, prompt=None, sample=sample, reward=RewardBreakdown(reward, {"progress": reward}),
              next_url="http://site/books", error=None)
    st.advantage, st.new_logprobs = reward - 0.5, (-0.25, -0.25, -0.25)
    return st


def _episode(ret: float, task: str = "omnizon.department-3", colour: str = "white") -> Episode:
    from halo.env.actions import Click, LeftClick

    acts = [Click(element="12"), LeftClick(x=500, y=500)]
    ep = Episode(id=f"e{ret}{task}{colour}", task_id=task, site="omnizon", success=ret > 0.5,
                 steps=[_step(i, a, ret / 2, _jpeg(colour)) for i, a in enumerate(acts)])
    ep.grade_details = [{"check": "department", "passed": ep.success, "info": "Books"}]
    return ep


def test_grpo_saves_best_worst_per_group_and_whole_groups_every_n(tmp_path):
    run = RunDir(tmp_path, "r")
    trainer = GRPOTrainer(None, None, ["t"], GRPOSettings(save_group_every=2), run)
    groups = [[_episode(r) for r in (0.0, 1.0, 0.5)], [_episode(r, "omnizon.department-9") for r in (0.2, 0.1, 0.9)]]
    for it in (0, 1):
        trainer.save_episodes(IterationResult(iteration=it, episodes=[e for g in groups for e in g], groups=groups))
    saved = sorted(p.stem for p in (tmp_path / "r" / "episodes").glob("*.jsonl"))
    assert [k for k in saved if k.startswith("it0000-g0")] == [f"it0000-g0-department-3-{j}" for j in range(3)]
    assert len([k for k in saved if k.startswith("it0000-g1")]) == 2  # best and worst
    assert len([k for k in saved if k.startswith("it0001-")]) == 4  # no whole group on iteration 1
    lines = [json.loads(x) for x in (tmp_path / "r" / "episodes" / "it0000-g0-department-3-0.jsonl").read_text()
             .splitlines()]
    step, summary = lines[0], lines[-1]
    assert step["target"] == {"viewport": [1280, 720], "element": {"id": "12", "role": "link", "name": "Books"},
                              "box": [100.0, 50.0, 80.0, 20.0]}
    assert lines[1]["target"]["point"] == [640.0, 360.0]  # left_click(500, 500) on 1280x720
    assert step["logprob"] == -1.0 and step["new_logprob"] == -0.75 and step["advantage"] == -0.5
    assert summary["iteration"] == 0 and summary["group"] == 0 and summary["grade"][0]["check"] == "department"
    assert summary["goal"] == "open Books"


def test_screenshots_stop_past_the_size_budget(tmp_path):
    run = RunDir(tmp_path, "r", max_episode_mb=0.001)
    run.write_episode("a", _episode(1.0))
    lines = [json.loads(x) for x in (tmp_path / "r" / "episodes" / "a.jsonl").read_text().splitlines()]
    assert lines[0]["screenshot"] == "a/step_000.jpg" and lines[1]["screenshot"] is None  # the first fills it
    assert run.size_report()["skipped_screenshots"] == 1 and run.size_report()["episodes"] == 1


def _runs(tmp_path: Path) -> tuple[Path, Path]:
    a, b = RunDir(tmp_path, "a"), RunDir(tmp_path, "b")
    for run, colour in ((a, "white"), (b, "lightyellow")):
        run.write_config({"command": "train grpo"})
        for j, r in enumerate((0.0, 1.0)):
            run.write_episode(f"it0000-g0-department-3-{j}", _episode(r, colour=colour),
                              extra={"iteration": 0, "group": 0})
        run.write_episode("it0001-g0-department-9-0", _episode(0.2, "omnizon.department-9", colour),
                          extra={"iteration": 1, "group": 0})
    return a.path, b.path


@pytest.mark.browser
def test_viewer_page_in_chromium_draws_actions_groups_and_two_runs(tmp_path):
    a, b = _runs(tmp_path)
    r = CliRunner().invoke(app, ["view", str(a), str(b)])
    assert r.exit_code == 0, r.output
    page_file = a / "view.html"

    async def check() -> dict:
        from playwright.async_api import async_playwright

        from halo.env.browser import find_chromium

        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=find_chromium()[0], args=["--no-sandbox"])
            page = await browser.new_page(viewport={"width": 1400, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            out = {}
            await page.goto(page_file.as_uri())
            out["rows"] = await page.locator("#rows tr").count()
            await page.select_option("#f-succ", "1")
            out["succ_rows"] = await page.locator("#rows tr").count()
            await page.goto(page_file.as_uri() + "#open=0%3Atrain%3Ait0000-g0-department-3-1")
            await page.wait_for_selector(".col")
            out["cols"] = await page.locator(".col").count()
            out["rects"] = await page.locator(".shot svg rect").count()
            out["circles"] = await page.locator(".shot svg circle").count()
            out["img_w"] = await page.locator(".shot img").first.evaluate("i => i.naturalWidth")
            out["text"] = await page.locator(".col").first.inner_text()
            await page.goto(page_file.as_uri() + "#group=0%3Atrain%3Ait0000-g0-department-3-0")
            await page.wait_for_function("document.querySelectorAll('.col').length == 2")
            out["group_cols"] = await page.locator(".col").count()
            await page.goto(page_file.as_uri() + "#compare=0%3Atrain%3Ait0001-g0-department-9-0")
            await page.wait_for_function("document.querySelectorAll('.col').length == 2")
            out["compare"] = await page.locator(".col .muted").all_inner_texts()
            out["errors"] = errors
            await browser.close()
            return out

    out = asyncio.run(check())
    assert out["errors"] == []
    assert out["rows"] == 6 and out["succ_rows"] == 2
    assert out["cols"] == 1 and out["rects"] == 1 and out["circles"] == 1  # the element boxed, the click marked
    assert out["img_w"] == 1280  # the screenshot loads, full size
    text = out["text"]
    assert "SUCCESS" in text and "advantage +0.000" in text and "logprob -1.000 → -0.750" in text
    assert 'target [12] link "Books"' in text and "department" in text and "click" in text
    assert out["group_cols"] == 2
    assert any("run 0 (a)" in t for t in out["compare"]) and any("run 1 (b)" in t for t in out["compare"])


def test_view_refuses_a_directory_that_is_not_a_run(tmp_path):
    r = CliRunner().invoke(app, ["view", str(tmp_path)])
    assert r.exit_code == 2 and "not a HALO run directory" in r.output


def test_served_viewer_loads_steps_on_demand(tmp_path):
    from starlette.testclient import TestClient

    from halo.report.view import make_app

    a, _ = _runs(tmp_path)
    with TestClient(make_app([a])) as c:
        page = c.get("/").text
        assert "it0000-g0-department-3-1" in page and '"steps": {}' in page  # nothing embedded: fetched on open
        assert json.loads(c.get("/run0/episodes/it0000-g0-department-3-1.jsonl").text.splitlines()[0])["type"] == "step"
        assert c.get("/run0/episodes/it0000-g0-department-3-1/step_000.jpg").content[:3] == b"\xff\xd8\xff"
