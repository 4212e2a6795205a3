"""report.html from a run directory: curves, iterations, filmstrips, and clear errors for non-runs."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from halo.cli import app


def _run_dir(tmp_path):
    run = tmp_path / "r"
    (run / "episodes" / "e1").mkdir(parents=True)
    (run / "config.yaml").write_text("command: train grpo\ntasks: [v2.gomail-4]\n")
    with open(run / "metrics.jsonl", "w") as f:
        for i, r in enumerate((0.1, 0.4, 0.9)):
            f.write(json.dumps({"iteration": i, "mean_reward": r, "reward_std": 0.1, "frac_reward_zero_std": 0.0,
                                "success_rate": 0.0, "action_validity": 1.0, "episode_length": 3, "tokens": 10,
                                "loss": 0.01}) + "\n")
        f.write('{"iteration": 3, "mean_rew')  # a line cut by a kill
    (run / "episodes" / "e1" / "step_000.jpg").write_bytes(b"\xff\xd8\xff")
    lines = [{"type": "step", "step": 0, "action": {"action": "left_click", "x": 5, "y": 9}, "reward": 0.3,
              "reward_parts": {"valid_action": 0.1, "milestone/compose_opened": 0.3}, "error": None,
              "screenshot": "e1/step_000.jpg"},
             {"type": "episode", "task_id": "v2.gomail-4", "dense_return": 0.3, "success": False, "steps": 1,
              "milestones": ["compose_opened"], "errored": False}]
    (run / "episodes" / "e1.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    return run


def test_report_has_curves_table_and_filmstrip(tmp_path):
    run = _run_dir(tmp_path)
    r = CliRunner().invoke(app, ["report", str(run)])
    assert r.exit_code == 0, r.output
    html = (run / "report.html").read_text()
    # one chart per logged curve (return, success, zero-variance, validity, loss, tokens), each point a link to
    # its iteration's episodes in the viewer written beside the report
    assert html.count('<svg class="chart"') == 6
    assert html.count('href="view.html#part=train&amp;it=') == 3 * 6 + 3  # chart points and the iterations table
    assert "0.900" in html and "compose_opened" in html and 'src="episodes/e1/step_000.jpg"' in html
    assert (run / "view.html").is_file()


def test_eval_report_has_success_per_site_and_task_linked_to_the_viewer(tmp_path):
    run = tmp_path / "ev"
    (run / "episodes").mkdir(parents=True)
    (run / "config.yaml").write_text("command: eval\ntasks: [v2.gomail-4, v2.omnizon-3]\n")
    (run / "metrics.jsonl").write_text(json.dumps({"iteration": 0, "kind": "eval", "success_rate": 0.5}) + "\n")
    for key, task, site, ok, err in (("a-00", "v2.gomail-4", "gomail", True, False),
                                     ("a-01", "v2.gomail-4", "gomail", False, False),
                                     ("b-00", "v2.omnizon-3", "omnizon", False, True)):
        (run / "episodes" / f"{key}.jsonl").write_text(json.dumps(
            {"type": "episode", "task_id": task, "site": site, "success": ok, "errored": err, "dense_return": 1.0,
             "steps": 2}) + "\n")
    r = CliRunner().invoke(app, ["report", str(run)])
    assert r.exit_code == 0, r.output
    html = " ".join((run / "report.html").read_text().split())
    assert "success 50.0% over 2 episodes (1 errored, left out)" in html
    assert 'href="view.html#part=eval&amp;site=gomail">gomail</a></td><td>1/2</td><td>50%</td>' in html
    assert 'href="view.html#part=eval&amp;task=v2.omnizon-3">v2.omnizon-3</a></td><td>omnizon</td><td>0/0</td>' in html


def test_report_refuses_a_directory_that_is_not_a_run(tmp_path):
    r = CliRunner().invoke(app, ["report", str(tmp_path)])
    assert r.exit_code == 2 and "not a HALO run directory" in r.output


def test_one_policy_across_sites_gets_a_success_curve_per_site():
    """Iteration records carry ``site_success`` (GRPOTrainer): with two sites or more the report draws one curve per
    site beside the per-family one; one site adds nothing (the success curve is its curve)."""
    from halo.report.html import curves
    from halo.rl.grpo import site_success

    class E:
        def __init__(self, site, ok):
            self.site, self.success, self.errored = site, ok, False

    assert site_success([[E("gomail", True), E("gomail", False)], [E("udriver", True)]]) == {"gomail": 0.5,
                                                                                           "udriver": 1.0}
    recs = [{"iteration": i, "success_rate": 0.5, "site_success": {"gomail": 0.1 * i, "udriver": 0.2}}
            for i in range(3)]
    titles = [t for t, _ in curves(recs)]
    assert "success per site" in titles
    assert "success per site" not in [t for t, _ in curves([{**r, "site_success": {"gomail": 0.1}} for r in recs])]


def test_a_search_tree_is_drawn_with_the_path_taken_leftmost():
    """A wide tree (dozens of candidates a node) opens in its scroll box where the search went: at every node the
    child on the path taken is the first column, whatever order the tree recorded its children in."""
    import re

    from halo.report.trees import PAD, tree_svg

    def n(i, parent, best=False, terminal=False, success=False):
        return {"id": i, "parent": parent, "step": 0, "action": f"click('{i}')", "visits": 1, "q": 0.1 * i,
                "q_mcts": 0.0, "critic": 0.0, "reward": 0, "count": 1, "terminal": terminal, "success": success,
                "best": best, "url": "http://x/", "screenshot": None}

    nodes = [n(0, None), *(n(i, 0, terminal=True) for i in range(1, 9)), n(9, 0, best=True), n(10, 9, best=True,
                                                                                                terminal=True,
                                                                                                success=True)]
    svg = tree_svg({"nodes": nodes}, "t")
    thick = re.findall(r'<line x1="([\d.]+)" y1="[\d.]+" x2="([\d.]+)"[^>]*stroke="#f29900"', svg)
    assert len(thick) == 2 and {float(x2) for _, x2 in thick} == {PAD}  # both path edges end in the first column
    # scaled to its box, the root (centred over its dozens of children) is in view too, not scrolled out of it
    assert re.search(r'<svg class="tree"[^>]*style="max-width:100%;height:auto"', svg)
