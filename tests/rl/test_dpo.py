"""Step-level DPO on the tiny Qwen3-VL: the loss's sign and value, the gradient's sign (after one step the chosen
reply's logprob rises relative to the rejected one's), the reference is the model without its adapter, and pairs
come from sibling actions whose Q differ by the margin."""

from __future__ import annotations

import asyncio
import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "policy"))


def test_dpo_loss_values_and_sign():
    torch = pytest.importorskip("torch")
    from halo.rl.loss import dpo_loss

    z = torch.zeros(1)
    out = dpo_loss(z, z, z, z, beta=0.1)
    assert float(out.loss) == pytest.approx(math.log(2)) and out.margin == 0.0
    c = torch.zeros(1, requires_grad=True)
    r = torch.zeros(1, requires_grad=True)
    dpo_loss(c, r, z, z, beta=0.5).loss.backward()
    assert float(c.grad) < 0 < float(r.grad)  # descending raises the chosen, lowers the rejected
    better = dpo_loss(torch.tensor([1.0]), torch.tensor([-1.0]), z, z, beta=0.5)
    assert float(better.loss) < math.log(2) and better.accuracy == 1.0 and better.margin == pytest.approx(1.0)


@pytest.mark.ml
def test_a_dpo_step_raises_the_chosen_reply_relative_to_the_rejected(tiny_model):
    torch = pytest.importorskip("torch")
    from policy_helpers import learner_on_two_replies

    from halo.rl.forward import score
    from halo.rl.learner import PreferencePair

    policy, prompt, a, b, learner = learner_on_two_replies(tiny_model, seed=1, lr=2e-2)
    assert a.token_ids != b.token_ids

    def gap() -> float:
        ca, cb = (sum(score(policy, prompt, [s.token_ids])[0]) for s in (a, b))
        return ca - cb

    before = gap()
    stats = learner.preference_update([PreferencePair(prompt, a.token_ids, b.token_ids)], beta=0.5)
    # at the first step the policy is the reference (LoRA's B starts at zero): the loss is log 2, the margin 0
    assert stats.extra["dpo_loss"] == pytest.approx(math.log(2), abs=1e-4)
    assert stats.extra["dpo_margin"] == pytest.approx(0.0, abs=1e-4) and stats.grad_norm > 0
    after = gap()
    assert after > before, (before, after)
    # swapped, the same pair pushes the other way
    learner.preference_update([PreferencePair(prompt, b.token_ids, a.token_ids)], beta=0.5)
    learner.preference_update([PreferencePair(prompt, b.token_ids, a.token_ids)], beta=0.5)
    assert gap() < after
    # the reference really is the adapter-free model: with the adapter off, the gap is the one before training
    with torch.no_grad(), learner.model.disable_adapter():
        assert gap() == pytest.approx(before, abs=1e-4)


@pytest.mark.ml
def test_rpos_nll_term_raises_the_chosen_reply_where_dpo_alone_gives_no_gradient(tiny_model):
    """``nll_weight`` (RPO): the chosen reply's mean token NLL beside DPO. With beta so small that DPO's own gradient
    vanishes, the NLL term alone moves the adapter, and the chosen reply becomes likelier; ``chosen_nll`` is the
    chosen reply's mean token NLL before the step."""
    pytest.importorskip("torch")
    from policy_helpers import learner_on_two_replies

    from halo.rl.forward import score
    from halo.rl.learner import PreferencePair

    policy, prompt, a, b, learner = learner_on_two_replies(tiny_model, seed=2, lr=2e-2)
    pair = [PreferencePair(prompt, a.token_ids, b.token_ids)]

    def chosen() -> float:
        return sum(score(policy, prompt, [a.token_ids])[0])

    plain = learner.preference_update(pair, beta=1e-9)
    assert plain.grad_norm < 1e-6 and "chosen_nll" not in plain.extra
    before = chosen()
    rpo = learner.preference_update(pair, beta=1e-9, nll_weight=1.0)
    assert rpo.grad_norm > 1e-3
    assert rpo.extra["chosen_nll"] == pytest.approx(-before / len(a.token_ids), rel=1e-3)
    assert chosen() > before


def test_pairs_from_siblings_whose_q_differ_by_the_margin():
    from halo.policy.base import Sample
    from halo.policy.parse import ParseResult
    from halo.rl.dpo import sibling_items, tree_pairs
    from halo.rl.mcts import Edge, Node, merge_candidates
    from halo.rl.rewards import DenseRewardCalculator

    def smp(text, ids):
        return Sample(text=text, parsed=ParseResult(action=None, error="x"), token_ids=ids, logprobs=(-1.0,) * len(ids))

    root = Node(id=0, obs=type("O", (), {"url": "u"})(), step=0, rewards=DenseRewardCalculator(), prompt="P")
    root.edges = [Edge("a", smp("a", (1, 2)), n=2, w=2.0), Edge("b", smp("b", (3,)), n=1, w=0.5),
                  Edge("c", smp("c", (4,)), n=1, w=0.0), Edge("d", smp("d", (5,)))]  # d never tried
    pairs = tree_pairs(root, alpha=1.0, margin=0.5)
    got = sorted((r["chosen"], r["rejected"]) for _, r in pairs)
    assert got == [("a", "b"), ("a", "c"), ("b", "c")]  # Q 1.0, 0.5, 0.0: every gap >= 0.5; d untried
    assert all(p.prompt == "P" for p, _ in pairs)
    assert [r for _, r in tree_pairs(root, alpha=1.0, margin=0.6)] and \
        sorted((r["chosen"], r["rejected"]) for _, r in tree_pairs(root, 1.0, 0.6)) == [("a", "c")]
    adv = {it.token_ids: it.advantage for it in sibling_items(root, 1.0)}
    assert adv[(1, 2)] == pytest.approx(0.5) and adv[(4,)] == pytest.approx(-0.5) and (3,) not in adv
    merged = merge_candidates([smp("x", (1,)), smp("y", (2,)), smp("z", (3,))])
    assert len(merged) == 1 and merged[0].count == 3  # unparseable replies are one edge


def test_solved_pairs_keep_only_a_solved_paths_edge_over_its_siblings_that_solve_nothing():
    """``dpo.pairs: solved``: at each node on a path to a successful end, its solving edge over each tried sibling
    that solves nothing, whatever their Q (the Q pairs here would be the failing siblings' among themselves); the
    policy-gradient items by solving (1 minus the node's mean); nodes off the solved path give nothing."""
    from halo.policy.base import Sample
    from halo.policy.parse import ParseResult
    from halo.rl.dpo import sibling_items, solving_edges, tree_pairs
    from halo.rl.mcts import Edge, Node
    from halo.rl.rewards import DenseRewardCalculator

    def smp(ids):
        return Sample(text="t", parsed=ParseResult(action=None, error="x"), token_ids=ids, logprobs=(-1.0,) * len(ids))

    def node(i, **kw):
        return Node(id=i, obs=type("O", (), {"url": "u"})(), step=0, rewards=DenseRewardCalculator(), prompt=f"P{i}",
                    **kw)

    root, mid, side = node(0), node(1), node(2)
    win, lose = node(3, terminal=True, success=True), node(4, terminal=True)
    # root: a (to mid, low Q) solves; b (to side, high Q) and c do not; mid: x ends in success, y in failure
    root.edges = [Edge("a", smp((1,)), n=2, w=0.4, child=mid), Edge("b", smp((2,)), n=3, w=2.7, child=side),
                  Edge("c", smp((3,)), n=1, w=0.0)]
    mid.edges = [Edge("x", smp((4,)), n=1, w=1.0, child=win), Edge("y", smp((5,)), n=1, w=0.0, child=lose)]
    side.edges = [Edge("s", smp((6,)), n=2, w=1.8), Edge("t", smp((7,)), n=1, w=0.0)]
    assert {e.key for n in (root, mid, side) for e in n.edges if id(e) in solving_edges(root)} == {"a", "x"}
    got = sorted((r["chosen"], r["rejected"]) for _, r in tree_pairs(root, 1.0, 0.1, solved=True))
    assert got == [("a", "b"), ("a", "c"), ("x", "y")]
    assert ("b", "a") in {(r["chosen"], r["rejected"]) for _, r in tree_pairs(root, 1.0, 0.1)}  # by Q: the other way
    adv = {it.token_ids: it.advantage for it in sibling_items(root, 1.0, solved=True)}
    assert adv == {(1,): pytest.approx(2 / 3), (2,): pytest.approx(-1 / 3), (3,): pytest.approx(-1 / 3),
                   (4,): pytest.approx(0.5), (5,): pytest.approx(-0.5)}  # side's s and t: off every solved path
    lone = node(5)
    lone.edges = [Edge("p", smp((8,)), n=1, w=0.9), Edge("q", smp((9,)), n=1, w=0.0)]
    assert tree_pairs(lone, 1.0, 0.1, solved=True) == [] and sibling_items(lone, 1.0, solved=True) == []


def test_mcts_explore_draws_a_nodes_candidates_only_and_restores_the_policy():
    """``mcts.explore``: the policy samples a node's candidates with its uniform exploration at that rate (and
    ``mcts.explore_unit``'s unit), and is back at its own rate and unit afterwards (rollouts stay the policy's own), even when sampling fails."""
    from halo.policy.base import Sample
    from halo.policy.parse import ParseResult
    from halo.rl.config import MCTSSettings
    from halo.rl.mcts import MCTSExplorer, Node
    from halo.rl.rewards import DenseRewardCalculator

    class Recorder:
        explore, seen, units, fail = 0.0, [], [], False
        explore_per_reply = explore_values = False

        def build_prompt(self, obs):
            return "P"

        async def sample_prompt(self, prompt, obs, n, temperature):
            self.seen.append(self.explore)
            self.units.append((self.explore_per_reply, self.explore_values))
            if self.fail:
                raise RuntimeError("sampler down")
            return [Sample(text=f"r{i}", parsed=ParseResult(action=None, error="x"), token_ids=(i,),
                           logprobs=(-1.0,)) for i in range(n)]

    pol = Recorder()
    node = Node(id=0, obs=None, step=0, rewards=DenseRewardCalculator())
    asyncio.run(MCTSExplorer(None, pol, None, MCTSSettings(children=3, explore=0.4))._expand(node))
    assert pol.seen == [0.4] and pol.explore == 0.0 and node.expanded and node.edges[0].count == 3
    assert pol.units == [(False, False)]  # explore_unit choice: token by token
    asyncio.run(MCTSExplorer(None, pol, None, MCTSSettings(children=3, explore=0.4, explore_unit="value"))._expand(
        Node(0, None, 0, DenseRewardCalculator())))
    assert pol.units[-1] == (False, True) and (pol.explore_per_reply, pol.explore_values) == (False, False)
    asyncio.run(MCTSExplorer(None, pol, None, MCTSSettings(children=3))._expand(Node(0, None, 0, DenseRewardCalculator())))
    assert pol.seen[-1] == 0.0  # the default leaves the policy as it is
    pol.fail = True
    with pytest.raises(RuntimeError):
        asyncio.run(MCTSExplorer(None, pol, None, MCTSSettings(children=3, explore=0.4))._expand(
            Node(0, None, 0, DenseRewardCalculator())))
    assert pol.explore == 0.0
