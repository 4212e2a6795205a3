"""MCTS finds the oracle's solution on REAL-local task families of every site, when the policy's candidates hold
the oracle's next action among distractors (other clickable elements, going back, ending at once).

The oracle is played once to record its actions (by element id: a restored state shows the same ids). The scripted
policy proposes, at a state on the oracle's path, the oracle's next action at a seeded random place among K - 1
distractors. Its own choice (a rollout's) is the oracle's action half of the time, else a distractor: an imperfect
policy that solves a 4-5 step task in a few percent of its episodes, which the search must turn into a solution.
The critic is a scripted judge behind ``PolicyCritic`` (it replies with text, parsed as REAL critics' replies are):
the share of the oracle's path done where the state is on it, else 0. Real browser, real sites, grading by the
family's checks over /finish."""

from __future__ import annotations

import dataclasses
import random
from contextlib import asynccontextmanager

import pytest
from family_oracles_gocalendar import ORACLES as CALENDAR
from family_oracles_gomail import ORACLES as MAIL
from family_oracles_omnizon import ORACLES as SHOP
from family_oracles_zilloft import ORACLES as HOMES
from test_branch import family_env, play

from halo.env import actions as A
from halo.env.env import BrowserEnv
from halo.policy.base import Completion, PolicyBackend
from halo.policy.prompt import Prompt, tool_call_text
from halo.rl.config import MCTSSettings
from halo.rl.critic import PolicyCritic, ProgressCritic
from halo.rl.mcts import MCTSExplorer, sibling_groups, tree_record

pytestmark = pytest.mark.browser

DONE = A.SendMsgToUser("Done.")


class OracleCandidates(PolicyBackend):
    """K candidates per state: the oracle's next action where the state is on its path, and distractors."""

    name = "oracle-candidates"

    def __init__(self, path: list[A.Action], k: int = 3, seed: int = 0, p_oracle: float = 0.5):
        super().__init__()
        self.path, self.k, self.seed, self.p_oracle = list(path) + [DONE], k, seed, p_oracle
        self.rng = random.Random(seed)

    def build_prompt(self, obs):
        return Prompt(system="", user_text=obs.goal, image=b"", image_mime="", image_size=(0, 0))

    def on_path(self, obs) -> A.Action | None:
        i = obs.step
        done = [a.describe() for a in self.path[:i]][-5:]
        return self.path[i] if i < len(self.path) and list(obs.last_actions) == done else None

    def candidates(self, obs) -> list[A.Action]:
        rng = random.Random(f"{self.seed}|{obs.url}|{obs.step}|{obs.last_actions}")
        nxt = self.on_path(obs)
        pool = [A.Click(e.id) for e in sorted(obs.elements.values(), key=lambda e: int(e.id))
                if e.role in ("link", "button", "checkbox", "tab")]
        pool = [a for a in pool if nxt is None or a.describe() != nxt.describe()]
        out = rng.sample(pool, min(len(pool), self.k - 2)) + [DONE if nxt is not DONE else A.GoBack()]
        if nxt is not None:
            out.insert(rng.randrange(len(out) + 1), nxt)
        return out[:self.k]

    async def complete(self, prompt, obs, n, temperature):
        cands = self.candidates(obs)
        if n == 1:
            nxt = self.on_path(obs)
            pick = nxt if nxt is not None and self.rng.random() < self.p_oracle else self.rng.choice(
                [c for c in cands if nxt is None or c.describe() != nxt.describe()])
            return [Completion(text=tool_call_text(pick))]
        return [Completion(text=tool_call_text(cands[i % len(cands)])) for i in range(n)]


class OracleJudge(OracleCandidates):
    """A judge replying in words, as a critic model does: "Progress: 0.4"."""

    name = "oracle-judge"

    async def complete(self, prompt, obs, n, temperature):
        on = self.on_path(obs) is not None
        return [Completion(text=f"Progress: {obs.step / len(self.path) if on else 0.0:.2f}")] * n


CASES = [("gomail.trash", MAIL, 3), ("gocalendar.delete", CALENDAR, 0), ("omnizon.add", SHOP, 2),
         ("zilloft.save", HOMES, 2)]


@asynccontextmanager
async def oracle_played(name, oracles, index, families_pool, family_site_urls):
    """The oracle played once on the instance (its actions recorded), and a branchable env to search it in: yields
    the recording, the task and that env; both envs closed after."""
    inst, task = family_env(families_pool, family_site_urls, name, index)
    a = BrowserEnv(families_pool, max_steps=30, end_on_success=False)  # graded at the message, as the oracle ends
    b = BrowserEnv(families_pool, max_steps=30, branchable=True, end_on_success=False)
    try:
        d, _ = await play(a, task, oracles[name], inst.params)
        yield d, task, b
    finally:
        await a.close()
        await b.close()


async def search_family(name, oracles, index, families_pool, family_site_urls, simulations=8):
    async with oracle_played(name, oracles, index, families_pool, family_site_urls) as (d, task, b):
        policy = OracleCandidates(d.actions, k=3, seed=index)
        s = MCTSSettings(simulations=simulations, children=3, depth=len(d.actions) + 1,
                         max_steps=len(d.actions) + 3, alpha=0.5)
        critic = PolicyCritic(OracleJudge(d.actions))
        result = await MCTSExplorer(b, policy, task, s, critic=critic).run()
        assert critic.answered == critic.asked > 0
        return d, result


def check_found(d, result) -> None:
    taken = [e.key for e in result.path]
    assert result.success, f"MCTS did not solve it: took {taken}, oracle {[x.describe() for x in d.actions]}"
    assert taken == [x.describe() for x in d.actions] + [DONE.describe()]
    assert result.successes_found >= 1 and result.budget.steps > len(taken)
    assert result.budget.restores >= 1, "a search that never went back to a state did not branch"
    # the root is returned to by every simulation: from its second restore on, a kept page is taken over
    assert result.budget.kept_restores >= 1, "no restore took a kept page"
    rec = tree_record(result, 0.5)
    assert sum(n["best"] for n in rec["nodes"]) == len(taken)
    assert sibling_groups(result.root, 0.5), "no node had two tried actions to compare"


async def test_mcts_finds_the_oracle_solution_on_omnizon(families_pool, family_site_urls):
    d, result = await search_family("omnizon.add", SHOP, 2, families_pool, family_site_urls)
    check_found(d, result)


@pytest.mark.slow
@pytest.mark.parametrize("name,oracles,index", [c for c in CASES if not c[0].startswith("omnizon")])
async def test_mcts_finds_the_oracle_solution_on_every_site(name, oracles, index, families_pool, family_site_urls):
    d, result = await search_family(name, oracles, index, families_pool, family_site_urls)
    check_found(d, result)


async def test_the_progress_critic_values_states_by_the_familys_own_checks(families_pool, family_site_urls):
    """``critic: progress`` (what the tiny model searches with): no model call, each expanded state valued by the
    family's progress there; on gocalendar.otherday the week reached is part of the way, and the search finds the oracle's
    path with it. A REAL task (no family) gets no value from it."""
    name, index = "gocalendar.otherday", 1
    async with oracle_played(name, CALENDAR, index, families_pool, family_site_urls) as (d, task, b):
        s = MCTSSettings(simulations=8, children=3, depth=len(d.actions) + 1, max_steps=len(d.actions) + 3, alpha=0.5)
        critic = ProgressCritic()
        result = await MCTSExplorer(b, OracleCandidates(d.actions, k=3, seed=index), task, s, critic=critic).run()
        # depth 0: no rollouts; each new state valued by the critic alone and expanded only when descended into;
        # first_play progress: the state that made progress is followed before untried siblings
        lean = await MCTSExplorer(b, OracleCandidates(d.actions, k=3, seed=index), task,
                                  dataclasses.replace(s, depth=0, first_play="progress"), critic=ProgressCritic()).run()
    check_found(d, lean)
    made = list(lean.root.walk())
    assert lean.budget.steps == len(made) - 1  # one env step per node made: no rollout steps
    assert any(not n.expanded and not n.terminal for n in made)  # valued, never descended into: not expanded
    assert all(n.critic is not None for n in made)
    # the edge that solved it was found from an earlier decision: the last decision takes it with no simulation
    assert lean.simulations <= s.simulations * (len(lean.path) - 1)
    check_found(d, result)
    values = {n.critic for n in result.root.walk() if n.expanded}
    assert critic.answered == critic.asked > 0 and result.root.critic is not None
    assert any(result.root.critic < v < 1.0 for v in values if v is not None), values  # the week reached: part-way
    assert ProgressCritic().value_at(type("RealTask", (), {"family": ""})(), 0.5) is None


async def test_stop_at_success_takes_the_path_to_the_first_success_and_spends_nothing_after_it(
        families_pool, family_site_urls):
    """``stop_at_success``: the first success a simulation meets ends the search; the episode is the tree's path to
    it (the oracle's), with no simulation after it (one success found: each simulation executes one new edge)."""
    name, index = "gocalendar.otherday", 1
    async with oracle_played(name, CALENDAR, index, families_pool, family_site_urls) as (d, task, b):
        s = MCTSSettings(simulations=24, children=3, depth=0, max_steps=len(d.actions) + 3, alpha=0.5,
                         first_play="progress")
        full = await MCTSExplorer(b, OracleCandidates(d.actions, k=3, seed=index), task, s,
                                  critic=ProgressCritic()).run()
        stop = await MCTSExplorer(b, OracleCandidates(d.actions, k=3, seed=index), task,
                                  dataclasses.replace(s, stop_at_success=True), critic=ProgressCritic()).run()
    check_found(d, full)
    assert [e.key for e in stop.path] == [e.key for e in full.path] and stop.success
    assert stop.successes_found == 1 and stop.path[-1].child.success
    assert stop.simulations < full.simulations and stop.budget.steps < full.budget.steps


class TokenOracle(OracleCandidates):
    """OracleCandidates whose replies carry token ids and logprobs, as a model's do (what GRPO's items are made of)."""

    async def complete(self, prompt, obs, n, temperature):
        return [dataclasses.replace(c, token_ids=(1, 2, 3), logprobs=(-1.0, -1.0, -1.0))
                for c in await super().complete(prompt, obs, n, temperature)]


class RecordingLearner:
    """The update's items recorded, no weights changed: this test is about which items reach the update."""

    def __init__(self):
        self.updates = []

    def update(self, items, epochs=1):
        from halo.rl.learner import UpdateStats

        self.updates.append(list(items))
        return UpdateStats()


async def test_grpo_search_every_replays_a_solving_search_of_a_task_its_groups_failed(
        families_pool, family_site_urls, tmp_path):
    """``grpo.search_every`` (the hybrid): a task whose group the policy failed throughout is searched; the search's
    solving path joins the self-imitation buffer, is not counted as the policy's own success, and is replayed in the
    next update. The policy's own choices here never take the oracle's step (its groups fail); its candidates hold
    it, so the search can solve."""
    from halo.rl.config import GRPOSettings
    from halo.rl.grpo import GRPOTrainer
    from halo.rl.self_imitation import success_key
    from halo.runtime.runs import RunDir

    name, index = "gocalendar.otherday", 1
    async with oracle_played(name, CALENDAR, index, families_pool, family_site_urls) as (d, task, b):
        steps = len(d.actions) + 3
        own = BrowserEnv(families_pool, max_steps=steps)
        try:
            policy = TokenOracle(d.actions, k=3, seed=index, p_oracle=0.0)
            settings = GRPOSettings(group_size=2, tasks_per_iteration=1, max_steps=steps, self_imitation=4,
                                    search_every=2, curriculum="off")
            mcts = MCTSSettings(simulations=24, children=3, depth=0, max_steps=steps, alpha=0.5, first_play="progress",
                                stop_at_success=True, step_budget=80)
            learner = RecordingLearner()
            trainer = GRPOTrainer(policy, learner, [task], settings, RunDir(tmp_path, "r"), search=mcts, search_env=b)
            ro = await trainer.roll(0, [own])
            assert not any(e.success for g in ro.groups for e in g)
            assert ro.searched is not None and ro.searched.solved and ro.searched.task_id == task.id
            assert [s.sample.action.describe() for s in ro.searched.episode.steps] == [a.describe() for a in d.actions] + [
                DONE.describe()]
            m = (await trainer.learn(ro)).metrics
            assert m["search"]["solved"] and m["search"]["env_steps"] > len(d.actions)
            assert task.id in trainer.replay.buffer
            assert trainer.replay.success_rate(success_key(task.id)) == 0.0  # the policy's own episodes alone
            assert not any(i.replayed for i in learner.updates[0])  # kept after this update's replay was drawn
            ro = await trainer.roll(1, [own])
            assert ro.searched is None  # not due: every second iteration
            m = (await trainer.learn(ro)).metrics
            replayed = [i for i in learner.updates[1] if i.replayed]
            assert len(replayed) == len(d.actions) + 1 and m["self_imitation"]["episodes"] == 1
            assert "search" not in m
        finally:
            await own.close()
    with pytest.raises(Exception, match="self_imitation"):
        GRPOSettings(search_every=2)
