"""MCTS's selection (rl/mcts.py ``ucb_select``): untried edges first, or with ``first_play: progress`` the state the
critic values above its parent's first, while a simulation can still go on from it."""

from __future__ import annotations

from halo.policy.base import Sample
from halo.policy.parse import ParseResult
from halo.rl.mcts import Edge, Node, ucb_select
from halo.rl.rewards import DenseRewardCalculator


def node(critic=None, step=0, **kw) -> Node:
    return Node(id=0, obs=None, step=step, rewards=DenseRewardCalculator(), critic=critic, **kw)


def edge(key: str, child: Node | None = None, n: int = 0, w: float = 0.0) -> Edge:
    return Edge(key=key, sample=Sample(text=key, parsed=ParseResult(action=None, error="x")), child=child, n=n, w=w)


def tree(ahead: Node) -> Node:
    root = node(critic=0.2, expanded=True)
    root.edges = [edge("flat", node(critic=0.2, step=1), n=1), edge("ahead", ahead, n=1), edge("untried")]
    return root


def test_untried_edges_come_first_by_default():
    assert ucb_select(tree(node(critic=0.6, step=1)), 1.4, 0.5).key == "untried"


def test_first_play_progress_follows_the_state_valued_above_its_parent():
    assert ucb_select(tree(node(critic=0.6, step=1)), 1.4, 0.5, "progress").key == "ahead"


def test_a_progress_state_that_ran_out_is_left_for_the_untried_edges():
    done = node(critic=0.6, step=1, expanded=True)
    done.edges = [edge("failed", node(critic=0.0, step=2, terminal=True), n=1)]  # its only edge tried to its end
    assert ucb_select(tree(done), 1.4, 0.5, "progress").key == "untried"
    assert ucb_select(tree(node(critic=0.6, step=3)), 1.4, 0.5, "progress", max_steps=3).key == "untried"
    assert ucb_select(tree(node(critic=0.2, step=1)), 1.4, 0.5, "progress").key == "untried"  # no progress: none
