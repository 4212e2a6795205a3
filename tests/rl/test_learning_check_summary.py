"""bench/learning_check.py's summaries of a training curve (no browser, no model)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "learning_check", Path(__file__).resolve().parents[2] / "bench" / "learning_check.py")
lc = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("learning_check", lc)
_spec.loader.exec_module(lc)


def test_a_ladders_rungs_are_dated_by_the_first_iteration_that_drew_them():
    curve = [{"cpu_s": 9.0, "family_success": {"a.one": 0.0}},
             {"cpu_s": 20.0, "family_success": {"a.one": 0.5, "a.top": 0.0}},  # a goal share draws the top early
             {"cpu_s": 31.0, "family_success": {"a.two": 0.0}},
             {"cpu_s": 40.0, "family_success": {"a.one": 1.0, "a.two": 0.25}}]
    assert lc.first_drawn(curve) == {"a.one": 9.0, "a.top": 20.0, "a.two": 31.0}
    assert lc.first_drawn([]) == {}


def test_each_rung_below_the_top_is_timed_from_its_first_draw_to_the_next_rungs():
    curve = [{"cpu_s": 10.0, "family_success": {"a.one": 0.0, "a.top": 0.0}, "frac_reward_zero_std": 0.5},
             {"cpu_s": 20.0, "family_success": {"a.one": 0.5}, "frac_reward_zero_std": 0.0},
             {"cpu_s": 30.0, "family_success": {"a.one": 1.0, "a.two": 0.0}, "frac_reward_zero_std": 1.0},
             {"cpu_s": 45.0, "family_success": {"a.two": 0.5}, "frac_reward_zero_std": 0.0}]
    spans = lc.frontier_spans(curve, ["a.one", "a.two", "a.three", "a.top"])
    assert spans == {
        "a.one": {"cpu_s": 20.0, "iterations": 2, "led_to_end": False, "success": 0.25, "zero_std": 0.25},
        "a.two": {"cpu_s": 15.0, "iterations": 2, "led_to_end": True, "success": 0.25, "zero_std": 0.5}}
    assert "a.top" not in lc.frontier_spans(curve, ["a.one", "a.top"])  # drawn early by a goal share: not dated
    assert lc.frontier_spans([], ["a.one", "a.top"]) == {}


def test_a_ladders_plot_is_drawn_with_a_line_per_rung_and_its_legend_beside_the_axes(tmp_path, monkeypatch):
    import matplotlib.figure

    saved = []
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", lambda fig, path, **kw: saved.append(fig))
    curve = [{"cpu_s": 60.0, "family_success": {"a.one": 0.5, "a.top": 0.0}},
             {"cpu_s": 120.0, "family_success": {"a.one": 1.0, "a.two": 0.25}}]
    result = {"curriculum": "ladder", "family": "a.one,a.two,a.top",
              "seeds": [{"seed": 0, "curve": curve, "after_train": {"success": 0.5}}]}
    lc.plot(result, tmp_path / "ladder.png")
    (ax,) = saved[0].axes
    assert [t.get_text() for t in ax.get_legend().get_texts()][:3] == ["a.one (seed 0)", "a.two (seed 0)",
                                                                       "a.top (seed 0)"]
    box = ax.get_legend().get_window_extent(saved[0].canvas.get_renderer())
    assert box.x0 >= ax.get_window_extent().x1  # beside the axes: it hides no rung's line
