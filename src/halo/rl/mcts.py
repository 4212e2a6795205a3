"""Agent Q's search over browser states: MCTS with a self-critique, on branchable envs (``BrowserEnv.snapshot``).

Nodes are states, edges actions. A node is expanded with ``children`` candidate actions sampled from the policy
(duplicates, by parsed action, merged; their count is the prior that orders untried edges) and valued by the critic.
Each simulation descends by UCB1 on the composite ``Q = alpha * Q_mcts + (1 - alpha) * Q_critic``, executes the first
untried edge (restoring its parent's state), rolls the policy out from the new state to a terminal action or the
depth limit with the one rollout function (dense reward, REAL's grading), and backs the return up the path (``depth:
0``: no rollout; a progress critic values the new state, which is expanded only when a simulation descends into it).
After ``simulations`` the most visited edge is taken and its subtree is kept; an edge that ended the episode in
success is taken at once (no simulation could find better); with ``stop_at_success`` the first success a simulation
meets anywhere ends the search along the tree's path to it. Budgets: env steps and wall time per episode.
Restoring a state is the env's (``BrowserEnv.restore``): a state returned to a second time is a kept page taken over
(``keep_pages``, halo.env.keep), not a page load.
"""

from __future__ import annotations

import copy
import itertools
import math
import time
from dataclasses import dataclass, field
from typing import Any

from halo.policy.base import Sample
from halo.rl.config import MCTSSettings
from halo.rl.critic import Critic, ProgressCritic
from halo.rl.rewards import DenseRewardCalculator, RewardConfig
from halo.rl.rollout import Episode, Start, Step, act, run_episode

UNPARSEABLE = "(unparseable)"


@dataclass
class Budget:
    """What a search spent: env steps (the search's and its simulations'), restores and their time, wall time."""

    max_steps: int = 0
    max_s: float = 0.0
    steps: int = 0
    restores: int = 0
    restore_s: float = 0.0
    kept_restores: int = 0  # restores that took over a kept page (no page load: halo.env.keep)
    t0: float = field(default_factory=time.perf_counter)
    frozen_s: float | None = None  # the search's wall time, once it ended (``freeze``)

    @property
    def elapsed_s(self) -> float:
        return self.frozen_s if self.frozen_s is not None else time.perf_counter() - self.t0

    def freeze(self) -> None:
        """The search ended: its wall time stops here (and means the same in another process)."""
        self.frozen_s = time.perf_counter() - self.t0

    def exhausted(self) -> bool:
        return bool((self.max_steps and self.steps >= self.max_steps) or (self.max_s and self.elapsed_s >= self.max_s))


@dataclass(eq=False)
class Edge:
    key: str  # the parsed action (its describe()), or UNPARSEABLE
    sample: Sample
    count: int = 1  # how many of the node's samples were this action
    child: Node | None = None
    step: Step | None = None  # the recorded step, once executed
    n: int = 0
    w: float = 0.0  # sum of the returns backed up through this edge

    @property
    def q_mcts(self) -> float:
        return self.w / self.n if self.n else 0.0

    def q(self, alpha: float) -> float:
        qc = self.child.critic if self.child is not None else None
        return self.q_mcts if qc is None else alpha * self.q_mcts + (1 - alpha) * qc


@dataclass(eq=False)
class Node:
    id: int
    obs: Any
    step: int  # env steps from reset to this state
    rewards: DenseRewardCalculator  # the dense reward's state here (what was paid, seen, progressed)
    snapshot: Any = None  # None for terminal states
    parent: Node | None = None
    prompt: Any = None
    edges: list[Edge] = field(default_factory=list)
    expanded: bool = False
    terminal: bool = False
    success: bool = False
    errored: str | None = None
    critic: float | None = None

    @property
    def n(self) -> int:
        return sum(e.n for e in self.edges)

    def walk(self):
        yield self
        for e in self.edges:
            if e.child is not None:
                yield from e.child.walk()


@dataclass
class SearchResult:
    """One searched episode: the tree, the path taken, the episode it makes, and what the search cost."""

    root: Node
    path: list[Edge]
    episode: Episode
    budget: Budget
    successes_found: int  # terminal successes met anywhere (expansions and simulations)
    simulations: int

    @property
    def success(self) -> bool:
        return self.episode.success


def merge_candidates(samples: list[Sample]) -> list[Edge]:
    """One edge per distinct parsed action (first sample kept, duplicates counted), most frequent first."""
    edges: dict[str, Edge] = {}
    for s in samples:
        key = s.action.describe() if s.action is not None else UNPARSEABLE
        if key in edges:
            edges[key].count += 1
        else:
            edges[key] = Edge(key=key, sample=s)
    return sorted(edges.values(), key=lambda e: -e.count)


def _open(node: Node, max_steps: int) -> bool:
    """A state a simulation can still go on from: not terminal, within the step limit, and not every edge of it
    tried to its end."""
    return not node.terminal and node.step < max_steps and (
        not node.expanded or any(e.child is None or _open(e.child, max_steps) for e in node.edges))


def ucb_select(node: Node, c: float, alpha: float, first_play: str = "untried", max_steps: int = 1 << 30) -> Edge:
    """Untried edges first (most sampled first), then the largest ``Q + c * sqrt(ln N(s) / n(s, a))``. With
    ``first_play: progress``, before any untried edge, the tried edge whose state the critic values highest above
    this one's (the search follows the progress it found, and tries the rest only when that runs out)."""
    if first_play == "progress" and node.critic is not None:
        ahead = [e for e in node.edges if e.child is not None and e.child.critic is not None
                 and e.child.critic > node.critic and _open(e.child, max_steps)]
        if ahead:
            return max(ahead, key=lambda e: (e.child.critic, e.q(alpha)))
    untried = [e for e in node.edges if e.n == 0]
    if untried:
        return untried[0]
    ln_n = math.log(max(1, node.n))
    return max(node.edges, key=lambda e: e.q(alpha) + c * math.sqrt(ln_n / e.n))


def backup(path: list[Edge], value: float) -> None:
    """Each edge gets its own reward plus everything after it on the path, plus the simulation's return."""
    ret = value
    for e in reversed(path):
        ret += e.step.reward.total if e.step is not None else 0.0
        e.n += 1
        e.w += ret


class MCTSExplorer:
    """Searches one episode of ``task`` in ``env`` (a branchable ``BrowserEnv``) with ``policy``."""

    def __init__(self, env: Any, policy: Any, task: Any, settings: MCTSSettings, *,
                 critic: Critic | ProgressCritic | None = None,
                 reward_config: RewardConfig | None = None):
        self.env, self.policy, self.task, self.s = env, policy, task, settings
        self.critic = critic
        self.reward_config = reward_config
        self._ids = itertools.count()
        self._at: Node | None = None  # the node whose state the env shows now
        self.budget = Budget(settings.step_budget, settings.time_budget_s)
        self.successes_found = 0
        self.simulations = 0
        self.found: list[Edge] = []  # with stop_at_success: the edges from the decision's node to a success

    # ------------------------------------------------------------ the episode
    async def run(self) -> SearchResult:
        """Search from reset: ``simulations`` per decision, take the most visited edge, until a terminal state, the
        step limit or the budget. The env keeps live copies of the states it returns to (``keep_pages``) while it
        searches."""
        keeps = hasattr(self.env, "set_keep_pages")
        if keeps:
            await self.env.set_keep_pages(self.s.keep_pages)
        try:
            first = await self._root()
            node, path = first, []
            while not node.terminal and node.step < self.s.max_steps and not self.budget.exhausted():
                for _ in range(self.s.simulations):
                    if self.budget.exhausted() or self.solved_edge(node) is not None or self.found:
                        break  # an edge that ends the episode in success: no simulation can find a better one
                    await self.simulate(node)
                if self.found:  # stop_at_success: the path to the success a simulation met, taken whole
                    path += self.found
                    node = self.found[-1].child
                    break
                edge = self.best(node)
                if edge is None:
                    break
                if edge.child is None:  # the budget ran out before it was tried
                    await self._execute(node, edge)
                path.append(edge)
                node = edge.child
        finally:
            if keeps:  # the search is over: its states are not returned to
                await self.env.set_keep_pages(0)
        episode = self._episode(path, node)
        self.budget.freeze()
        return SearchResult(root=first, path=path, episode=episode, budget=self.budget,
                            successes_found=self.successes_found, simulations=self.simulations)

    @staticmethod
    def solved_edge(node: Node) -> Edge | None:
        """An edge of ``node`` whose action ended the episode in success."""
        return next((e for e in node.edges if e.child is not None and e.child.terminal and e.child.success), None)

    def best(self, node: Node) -> Edge | None:
        solved = self.solved_edge(node)
        if solved is not None:
            return solved
        tried = [e for e in node.edges if e.n > 0]
        if not tried:
            return node.edges[0] if node.edges else None
        return max(tried, key=lambda e: (e.n, e.q(self.s.alpha)))

    async def simulate(self, root: Node) -> None:
        """One simulation: select, execute the new edge, expand and value its state, roll out, back up."""
        self.simulations += 1
        node, trail, value = root, [], 0.0
        while True:
            if node.terminal or node.step >= self.s.max_steps:
                break
            if not node.expanded:
                await self._expand(node)
            if not node.edges:
                break
            edge = ucb_select(node, self.s.ucb_c, self.s.alpha, self.s.first_play, self.s.max_steps)
            trail.append(edge)
            if edge.child is None:
                child = await self._execute(node, edge)
                if child.success and self.s.stop_at_success:
                    self.found = list(trail)
                if not child.terminal and child.step < self.s.max_steps:
                    if self.s.depth == 0 and isinstance(self.critic, ProgressCritic):
                        self._value(child)  # free: expanded when a simulation first descends into it
                    else:
                        await self._expand(child)
                    if self.s.depth > 0:
                        value = await self._rollout(child)
                break
            node = edge.child
        backup(trail, value)

    # ------------------------------------------------------------ pieces
    async def _root(self) -> Node:
        from halo.rl.rollout import _progress, match_capture

        rewards = DenseRewardCalculator(self.reward_config)
        match_capture(self.env, self.policy)
        obs = await self.env.reset(self.task)
        rewards.set_progress(await _progress(self.env, self.task))
        root = Node(id=next(self._ids), obs=obs, step=0, rewards=rewards, snapshot=await self.env.snapshot())
        self._at = root
        return root

    async def _expand(self, node: Node) -> None:
        node.prompt = self.policy.build_prompt(node.obs)
        before = getattr(self.policy, "explore", None)
        units = (getattr(self.policy, "explore_per_reply", False), getattr(self.policy, "explore_values", False))
        if self.s.explore and before is not None:  # the candidates only; the rollouts stay the policy's own
            self.policy.explore = self.s.explore
            self.policy.explore_per_reply = self.s.explore_unit == "reply"
            self.policy.explore_values = self.s.explore_unit == "value"
        try:
            samples = await self.policy.sample_prompt(node.prompt, node.obs, self.s.children, self.s.temperature)
        finally:
            if self.s.explore and before is not None:
                self.policy.explore = before
                self.policy.explore_per_reply, self.policy.explore_values = units
        node.edges = merge_candidates(samples)
        node.expanded = True
        if isinstance(self.critic, ProgressCritic):
            self._value(node)
        elif self.critic is not None:
            node.critic = await self.critic.value(node.obs, [e.key for e in node.edges])

    def _value(self, node: Node) -> None:
        """A progress critic's value of ``node``: the family's checks at this state, read by the last step."""
        if isinstance(self.critic, ProgressCritic) and node.critic is None:
            node.critic = self.critic.value_at(self.task, node.rewards.progress)

    async def _goto(self, node: Node, again: bool = True) -> None:
        """Restore ``node``'s state unless the env shows it; ``again``: the search will restore it once more (a
        kept page of it is worth making)."""
        if self._at is node:
            return
        t0 = time.perf_counter()
        await self.env.restore(node.snapshot, method=self.s.restore, again=again)
        self.budget.restores += 1
        self.budget.restore_s += time.perf_counter() - t0
        self.budget.kept_restores += bool(getattr(self.env, "restore_timings", {}).get("kept"))
        self._at = node

    async def _execute(self, node: Node, edge: Edge) -> Node:
        # a node is restored to execute one of its untried edges: it is returned to while others remain, so a kept
        # page of it is worth making (as the env leaves it, or as it restores it)
        again = sum(e.child is None for e in node.edges) > 1
        if again and self._at is node:
            self.env.keep_page(node.snapshot)
        await self._goto(node, again=again)
        rewards = copy.deepcopy(node.rewards)
        out = await act(self.env, self.task, node.obs, node.prompt, edge.sample, rewards, node.step)
        self.budget.steps += 1
        edge.step = out.step
        child = Node(id=next(self._ids), obs=out.obs, step=node.step + 1, rewards=rewards, parent=node,
                     terminal=bool(out.done or out.errored), success=out.success, errored=out.errored)
        if child.terminal:
            child.critic = 1.0 if child.success else 0.0
            self.successes_found += child.success
            self._at = None
        elif out.truncated:
            child.terminal = True
            self._at = None
        else:
            child.snapshot = await self.env.snapshot()
            self._at = child
        edge.child = child
        return child

    async def _rollout(self, node: Node) -> float:
        """The policy from ``node`` to a terminal action or the depth limit (the one rollout function); its dense
        return is the new state's value."""
        await self._goto(node)
        limit = min(self.s.max_steps, node.step + self.s.depth)
        ep = await run_episode(self.env, self.policy, self.task, reward_config=self.reward_config,
                               temperature=self.s.temperature, max_steps=limit,
                               start=Start(node.snapshot, node.rewards, here=True))
        self._at = None
        self.budget.steps += len(ep.steps)
        self.successes_found += ep.success
        return 0.0 if ep.errored else ep.dense_return

    def _episode(self, path: list[Edge], last: Node) -> Episode:
        ep = Episode(id=f"mcts-{id(self) % 10**8:08d}", task_id=self.task.id, site=getattr(self.task, "site", ""),
                     steps=[e.step for e in path if e.step is not None])
        ep.success = last.success
        ep.real_reward = 1.0 if last.success else 0.0
        ep.errored, ep.error = last.errored is not None, last.errored
        ep.truncated = not last.terminal
        ep.final_obs = last.obs
        ep.wall_time = self.budget.elapsed_s
        return ep


def portable_result(result: SearchResult) -> SearchResult:
    """The result without its browser snapshots (handles to one worker's pages and site sessions): what a Ray rollout
    worker sends back, everything the DPO update, ``tree_record`` and the run directory read (in place)."""
    if result.budget.frozen_s is None:
        result.budget.freeze()
    for node in result.root.walk():
        node.snapshot = None
    return result


# ---------------------------------------------------------------- what a tree gives to learn from and to look at
def sibling_groups(root: Node, alpha: float) -> list[tuple[Node, list[Edge]]]:
    """Every expanded node with at least two tried edges, with those edges."""
    out = []
    for node in root.walk():
        tried = [e for e in node.edges if e.n > 0]
        if len(tried) >= 2:
            out.append((node, tried))
    return out


def tree_record(result: SearchResult, alpha: float, shots: dict[int, str] | None = None) -> dict[str, Any]:
    """The tree as JSON: nodes with visits, Q (composite, search, critic), the edge into each, the best path."""
    best = {id(e) for e in result.path}
    nodes = []
    for node in result.root.walk():
        into = next((e for e in node.parent.edges if e.child is node), None) if node.parent else None
        nodes.append({"id": node.id, "parent": node.parent.id if node.parent else None, "step": node.step,
                      "action": into.key if into else None, "visits": into.n if into else node.n,
                      "q": round(into.q(alpha), 4) if into else None,
                      "q_mcts": round(into.q_mcts, 4) if into else None, "critic": node.critic,
                      "reward": round(into.step.reward.total, 4) if into and into.step else None,
                      "count": into.count if into else None, "terminal": node.terminal, "success": node.success,
                      "best": into is not None and id(into) in best, "url": node.obs.url,
                      "screenshot": (shots or {}).get(node.id),
                      "untried": [e.key for e in node.edges if e.child is None]})
    b = result.budget
    return {"task_id": result.episode.task_id, "success": result.success, "simulations": result.simulations,
            "successes_found": result.successes_found, "env_steps": b.steps, "restores": b.restores,
            "kept_restores": b.kept_restores,
            "restore_s": round(b.restore_s, 3), "wall_s": round(b.elapsed_s, 3), "nodes": nodes}
