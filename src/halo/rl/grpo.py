"""Online GRPO: groups of parallel episodes per task, Dr. GRPO advantages, a LoRA update, repeat.

Per iteration: for each task of the batch, ``group_size`` episodes run in their own browser contexts, at most
``parallel`` at once (a larger group runs in waves; one rollout function: ``rollout.run_episode``); each episode's
dense return (or each step's discounted return-to-go) minus its group's mean is the advantage of every token the
policy sampled in it; one optimizer step follows. With the in-process backend the sampler and the learner share one
model, so the next iteration samples from the new weights; with vLLM the new adapter is saved and hot-loaded
(``LoraSync``); with Ray rollout workers (``--ray``) the new weights are pushed to their policy actor, or they follow
the hot-loaded adapter's name. With ``max_staleness`` k >= 1 the next iterations' rollouts run while the learner
updates (here or on the Ray workers), each step sampled at most k adapter versions behind it, and the update
corrects the lag (``halo.rl.pipeline``).
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import time
from collections import deque
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Sequence

from halo.errors import ConfigError
from halo.rl.advantages import gigpo_advantages, group_advantages, group_stats, step_advantages
from halo.rl.config import GRPOSettings, LoRASettings, MCTSSettings, OptimSettings
from halo.rl.curriculum import CurriculumSettings, make_sampler
from halo.rl.health import check_iteration, error_counts, error_examples
from halo.rl.hindsight import Hindsight
from halo.rl.learner import LoRALearner, TrainItem, step_item
from halo.rl.rewards import RewardConfig
from halo.rl.rollout import Episode, run_group
from halo.rl.search_replay import SearchReplay
from halo.rl.self_imitation import SelfImitation, success_key

MAX_SKIPPED_UPDATES = 3  # updates in a row skipped for a non-finite gradient that stop a run


@dataclass
class Rollouts:
    """An iteration's groups as the rollouts left them (refills included), before the update."""

    iteration: int
    groups: list[list[Episode]]
    refills: int = 0
    rates: list[float] = field(default_factory=list)  # explore rates, one per group
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)  # metrics the asynchronous pipeline adds (rl/pipeline.py)
    searched: Any = None  # grpo.search_every: the iteration's search (rl.search_replay.Searched), if one ran


@dataclass
class IterationResult:
    iteration: int
    episodes: list[Episode]
    groups: list[list[Episode]]
    metrics: dict[str, Any] = field(default_factory=dict)


def build_items(groups: Sequence[Sequence[Episode]], s: GRPOSettings,
                keep_zero_advantage: bool = False) -> tuple[list[TrainItem], int]:
    """Training items from the groups' sampled tokens; returns (items, zero-variance groups). A step with a zero
    advantage gives no policy gradient and is left out, unless ``keep_zero_advantage`` (an entropy bonus still
    applies to it: a collapsed policy's all-wrong groups are exactly where it must spread out again)."""
    items: list[TrainItem] = []
    zero = 0
    for g in groups:
        eps = [e for e in g if not e.errored]
        if not eps:
            continue
        returns = [e.dense_return for e in eps]
        if group_stats(returns).zero_std:
            zero += 1
            if s.skip_zero_std_groups:
                continue
        if s.advantage == "episode":
            adv_per_step = [[a] * len(e.steps) for a, e in zip(group_advantages(returns), eps)]
        elif s.advantage == "gigpo":
            adv_per_step = gigpo_advantages([[st.reward.total for st in e.steps] for e in eps],
                                            [[st.state_key for st in e.steps] for e in eps], s.discount,
                                            s.gigpo_omega)
        else:
            adv_per_step = step_advantages([[st.reward.total for st in e.steps] for e in eps], s.discount)
        for e, advs in zip(eps, adv_per_step):
            for st, a in zip(e.steps, advs):
                st.advantage = float(a)  # the viewer shows it beside the step
                smp = st.sample
                if st.prompt is None or not smp.token_ids or smp.logprobs is None or (a == 0.0 and
                                                                                       not keep_zero_advantage):
                    continue
                items.append(step_item(st, a))
    return items, zero


def iteration_metrics(it: int, groups: Sequence[Sequence[Episode]], zero_groups: int) -> dict[str, Any]:
    eps = [e for g in groups for e in g if not e.errored]
    rets = [e.dense_return for e in eps]
    steps = [st for e in eps for st in e.steps]
    return {
        "iteration": it,
        "mean_reward": statistics.fmean(rets) if rets else 0.0,
        "reward_std": statistics.pstdev(rets) if len(rets) > 1 else 0.0,
        "frac_reward_zero_std": zero_groups / len(groups) if groups else 0.0,
        "episode_length": statistics.fmean(len(e.steps) for e in eps) if eps else 0.0,
        "success_rate": statistics.fmean(float(e.success) for e in eps) if eps else 0.0,
        "action_validity": (sum(st.parsed for st in steps) / len(steps)) if steps else 0.0,
        "tokens": sum(len(st.sample.token_ids or ()) for st in steps),
        "episodes": len(eps),
        "errored": sum(e.errored for g in groups for e in g),
        "milestones": statistics.fmean(len(e.milestones) for e in eps) if eps else 0.0,
        # task families: the progress an episode made (the change in its share of checks and subgoals passing),
        # so a stall on a many-step goal shows how far episodes get before any succeeds
        "progress": statistics.fmean(sum(st.reward.parts.get("progress", 0.0) for st in e.steps if st.reward)
                                     for e in eps) if eps else 0.0,
    }


def check_explore(policy: Any, rollouts: Any) -> None:
    """``explore`` draws replies in this process's sampler under the action grammar: refuse, before anything
    starts, a sampler that cannot (a vLLM server, unconstrained decoding) or rollouts that run elsewhere (Ray)."""
    if rollouts is not None:
        raise ConfigError("grpo.explore draws replies in this process's sampler; Ray rollouts (--ray) sample on "
                          "their workers: leave explore at 0 with --ray")
    if not hasattr(policy, "explore") or not getattr(getattr(policy, "decoding", None), "constrained", False):
        raise ConfigError(f"grpo.explore needs the in-process sampler (backend hf) with constrained decoding "
                          f"(decoding.constrained: true, as in the tiny mode); this mode's sampler is "
                          f"{getattr(policy, 'name', type(policy).__name__)}")


def explored(e: Episode) -> bool:
    """Some reply of the episode was drawn by exploration, not by the policy."""
    return any(st.sample.explored for st in e.steps)


def own_successes(episodes: Sequence[Episode]) -> list[bool]:
    """The successes of the policy's own episodes (not errored, no drawn reply): what an evaluation would see."""
    return [e.success for e in episodes if not e.errored and not explored(e)]


def explore_metrics(groups: Sequence[Sequence[Episode]]) -> dict[str, Any]:
    """How much of an iteration exploration drew, and success with and without it (the policy's own is the one
    an evaluation sees)."""
    eps = [e for g in groups for e in g if not e.errored]
    steps = [st for e in eps for st in e.steps]
    drawn = [e for e in eps if explored(e)]
    own = [e for e in eps if not explored(e)]
    return {"share": round(sum(st.sample.explored for st in steps) / len(steps), 4) if steps else 0.0,
            "success_policy": round(statistics.fmean(e.success for e in own), 4) if own else None,
            "success_explored": round(statistics.fmean(e.success for e in drawn), 4) if drawn else None}


def family_success(groups: Sequence[Sequence[Episode]]) -> dict[str, float]:
    """This iteration's success rate per task family (episodes of family instances only)."""
    by: dict[str, list[float]] = {}
    for e in (e for g in groups for e in g if not e.errored):
        fam = success_key(e.task_id)
        if fam != "*":
            by.setdefault(fam, []).append(float(e.success))
    return {f: round(statistics.fmean(v), 4) for f, v in sorted(by.items())}


def site_success(groups: Sequence[Sequence[Episode]]) -> dict[str, float]:
    """This iteration's success rate per site (every episode: one policy trained across sites shows each one)."""
    by: dict[str, list[float]] = {}
    for e in (e for g in groups for e in g if not e.errored):
        by.setdefault(e.site or "?", []).append(float(e.success))
    return {k: round(statistics.fmean(v), 4) for k, v in sorted(by.items())}


class GRPOTrainer:
    """Drives iterations over ``tasks`` with a sampler ``policy`` and a ``learner``. ``sync`` (vLLM) is called with
    each saved adapter directory; ``run`` (a ``RunDir``) receives metrics, episodes and checkpoints."""

    def __init__(self, policy: Any, learner: LoRALearner, tasks: Sequence[Any], settings: GRPOSettings,
                 run: Any, *, reward_config: RewardConfig | None = None, pool: Any = None,
                 sync: Callable[[int, str], Any] | None = None, env_kwargs: dict[str, Any] | None = None,
                 tracker: Any = None, rollouts: Any = None, envs: Sequence[Any] | None = None,
                 search: MCTSSettings | None = None, search_env: Any = None):
        if not tasks:
            raise ConfigError("GRPO needs at least one task")
        self.policy, self.learner, self.tasks, self.s, self.run = policy, learner, list(tasks), settings, run
        self.reward_config = reward_config
        self.pool = pool
        self.sync = sync
        self.env_kwargs = env_kwargs or {}
        self.tracker = tracker  # halo.runtime.tracking.Tracker: --log wandb|tensorboard beside metrics.jsonl
        self.rollouts = rollouts  # runtime.ray.rollouts.RayRollouts: groups run on Ray workers (--ray), not local envs
        self.envs = envs  # envs to roll out on instead of browsers of ``pool`` (a driver's own, or a test's)
        self.sampler = make_sampler(self.tasks, settings.curriculum,
                                    CurriculumSettings(settings.curriculum_window, unlock=settings.ladder_unlock,
                                                       review=settings.ladder_review, goal=settings.ladder_goal,
                                                       goal_steps=settings.ladder_goal_steps,
                                                       goal_last=settings.ladder_goal_last),
                                    settings.seed)
        self.replay = SelfImitation(settings.self_imitation, settings.self_imitation_capacity,
                                    settings.curriculum_window, settings.seed,
                                    settings.self_imitation_draw) if settings.self_imitation else None
        if settings.explore or settings.explore_stuck:  # explore_stuck alone draws replies the same way
            check_explore(policy, rollouts)
        if settings.search_every and rollouts is not None:
            raise ConfigError(f"grpo.search_every {settings.search_every}: the search runs in this process on a "
                              "branchable browser env; with --ray the rollouts' browsers are the workers' (set "
                              "grpo.search_every=0 or drop --ray)")
        if settings.max_staleness:
            from halo.rl.pipeline import check_async

            check_async(policy, learner, rollouts, sync)
        self.hindsight = (Hindsight(policy, settings.hindsight_per_episode, settings.seed) if settings.hindsight
                          else None)
        # grpo.search_every: MCTS (``search``, the mcts: settings) on a failed task, its solving path replayed; the
        # branchable env is the caller's (a test's) or made from the pool in train()
        self.searcher = SearchReplay(search or MCTSSettings(), settings.search_every, self.tasks, search_env,
                                     reward_config) if settings.search_every else None
        self._own: dict[str, deque[bool]] = {}  # family -> recent successes of the policy's own episodes
        self._lengths: dict[str, deque[int]] = {}  # family -> recent episode lengths (explore_per_episode)
        self._skipped_in_row = 0  # updates in a row whose every step was skipped (a non-finite gradient)
        # the run's progress in [0, 1] at an iteration, which the learner's schedules follow: iterations done of
        # ``iterations`` unless a driver with another budget (bench/learning_check.py: CPU time) sets its own
        self.progress_fn: Callable[[int], float] | None = None
        # the policy's own recent episodes (no drawn choice): an entropy penalty is scaled by their success
        self._recent: deque[bool] = deque(maxlen=settings.curriculum_window)

    def recent_success(self) -> float:
        """The policy's own recent success that an entropy penalty is scaled by (``entropy_gate``): over every task,
        or on the ladder's frontier rung (0 before it has an own episode)."""
        if self.s.entropy_gate == "frontier":
            own = self._own.get(self.sampler.frontier)
            return statistics.fmean(own) if own else 0.0
        return statistics.fmean(self._recent) if self._recent else 0.0

    def progress(self, it: int) -> float:
        if self.progress_fn is not None:
            return min(max(float(self.progress_fn(it)), 0.0), 1.0)
        return it / max(1, self.s.iterations - 1)

    def rollout_kwargs(self) -> dict[str, Any]:
        """``run_episode``'s settings for this run's rollouts: the site's state key is read before each step only
        for GiGPO (a request to the site a step), each step's ``/finish`` JSON kept only for hindsight."""
        s = self.s
        return {"reward_config": self.reward_config, "temperature": s.temperature, "max_steps": s.max_steps,
                "state_keys": s.advantage == "gigpo", "keep_state": s.hindsight, "parallel": s.parallel,
                "family_steps": s.family_steps}

    def _check_skipped(self, it: int, skipped: float, epochs: int) -> None:
        """An update whose every step had a non-finite gradient taught nothing; MAX_SKIPPED_UPDATES of them in a row
        stop the run (a ``stopped`` record, then ``RunUnhealthy``) rather than let it roll on unchanged weights."""
        self._skipped_in_row = self._skipped_in_row + 1 if skipped >= epochs else 0
        if self._skipped_in_row >= MAX_SKIPPED_UPDATES:
            from halo.rl.health import RunUnhealthy, error_report

            msg = (f"GRPO iteration {it}: the last {self._skipped_in_row} updates were all skipped for a non-finite "
                   f"gradient (metrics: skipped_steps, nonfinite_items); the run stopped: try a lower grpo.lr")
            if self.run is not None:
                self.run.log_metrics({"iteration": it, "kind": "stopped", "reason": msg})
            raise RunUnhealthy(msg, error_report([]))

    @staticmethod
    def _capped(kw: dict[str, Any], cap: int | None) -> dict[str, Any]:
        """The rollout settings with the sampler's step cap for a task (the ladder's early goal draws), if any."""
        if cap is None:
            return kw
        return {**kw, "max_steps": min(cap, kw["max_steps"]) if kw.get("max_steps") else cap}

    def tasks_for(self, it: int) -> list[Any]:
        return self.sampler.draw(self.s.tasks_per_iteration, it)

    def explore_for(self, task: Any) -> float:
        """``explore``, or with ``explore_adapt`` that times the task family's recent failure rate (the curriculum's
        window; the full rate before its first episode or without a curriculum): exploration where the policy still
        fails, the policy's own samples where it succeeds (they are what sharpens it). ``explore_per_episode``
        divides it by the family's recent mean episode length: about one drawn choice an episode."""
        s = self.s
        family = getattr(task, "family", None)
        lengths = self._lengths.get(family) if s.explore_per_episode else None
        per_step = 1.0 / max(1.0, statistics.fmean(lengths)) if lengths else 1.0  # explore_per_episode
        return s.explore * self._failing(task) * per_step

    def stuck_for(self, task: Any) -> float:
        """``explore_stuck`` times the same failure rate as ``explore_for`` (not spread over the episode: it acts on
        the steps where the policy repeats itself)."""
        return self.s.explore_stuck * self._failing(task) if self.s.explore_stuck else 0.0

    def _failing(self, task: Any) -> float:
        """explore_adapt's factor: the task family's recent failure rate (1 without explore_adapt or before any
        episode of it)."""
        s = self.s
        own = self._own.get(getattr(task, "family", None)) if s.explore_adapt_own else None
        if own:  # explore_adapt_own: the policy's own episodes of the family (the family's until it has any)
            return 1.0 - statistics.fmean(own)
        p = self.sampler.success(task.family) if s.explore_adapt and hasattr(self.sampler, "success") else None
        return 1.0 if p is None else 1.0 - p

    def _record_own(self, task: Any, group: Sequence[Episode]) -> None:
        """The successes of the policy's own episodes (no drawn choice) per family, the curriculum's window long."""
        family = getattr(task, "family", None)
        if family is None:
            return
        window = self._own.setdefault(family, deque(maxlen=self.s.curriculum_window))
        window.extend(own_successes(group))

    def _record_lengths(self, task: Any, group: Sequence[Episode]) -> None:
        """The lengths of the family's episodes, the curriculum's window long (explore_per_episode)."""
        family = getattr(task, "family", None)
        if family is not None:
            self._lengths.setdefault(family, deque(maxlen=self.s.curriculum_window)).extend(
                len(e.steps) for e in group if not e.errored and e.steps)

    async def iterate(self, it: int, envs: Sequence[Any],
                      on_episode: Callable[[Episode], None] | None = None) -> IterationResult:
        """One iteration in turn: its rollouts, then its update."""
        return await self.learn(await self.roll(it, envs, on_episode))

    async def roll(self, it: int, envs: Sequence[Any],
                   on_episode: Callable[[Episode], None] | None = None) -> Rollouts:
        """The iteration's groups: its tasks, then a refill for each zero-variance group (up to
        ``refill_zero_variance``); the curriculum records each group's successes as it ends."""
        s = self.s
        t0 = time.perf_counter()
        groups: list[list[Episode]] = []
        queue, refills = list(self.tasks_for(it)), 0
        kw = self.rollout_kwargs()
        rates: list[float] = []
        try:
            while queue:
                if self.rollouts is not None:  # the pending groups at once, spread over the Ray workers
                    caps = [self.sampler.step_cap(t) for t in queue]  # one step cap a batch: the first task's
                    batch = [t for t, c in zip(queue, caps) if c == caps[0]]
                    queue, cap = [t for t, c in zip(queue, caps) if c != caps[0]], caps[0]
                    batch_groups = await self.rollouts.run_groups(batch, s.group_size, self._capped(kw, cap))
                else:
                    batch = [queue.pop(0)]
                    if s.explore or s.explore_stuck:  # training rollouts only: evaluation samples the policy itself
                        self.policy.explore_per_reply = s.explore_unit == "reply"
                        self.policy.explore_values = s.explore_unit == "value"
                        self.policy.explore = self.explore_for(batch[0])
                        self.policy.explore_stuck = self.stuck_for(batch[0])
                        self.policy.explore_novel = s.explore_novel
                        self.policy.explore_fill = s.explore_fill
                        rates.append(self.policy.explore)
                    batch_groups = [await run_group(envs, self.policy, batch[0], n=s.group_size, on_step=None,
                                                    **self._capped(kw, self.sampler.step_cap(batch[0])))]
                for task, g in zip(batch, batch_groups):
                    groups.append(g)
                    self.sampler.record(task, [e.success for e in g if not e.errored])
                    if s.explore_adapt_own or s.entropy_gate == "frontier":
                        self._record_own(task, g)
                    if s.explore_per_episode:
                        self._record_lengths(task, g)
                    if on_episode is not None:
                        for e in g:
                            on_episode(e)
                    ok = [e.dense_return for e in g if not e.errored]
                    if ok and group_stats(ok).zero_std and refills < s.refill_zero_variance:
                        refills += 1  # no signal in this group: draw another (DAPO's dynamic sampling)
                        queue.append(self.sampler.extra(it, refills))
        finally:
            if s.explore or s.explore_stuck:
                self.policy.explore, self.policy.explore_stuck, self.policy.explore_novel = 0.0, 0.0, False
                self.policy.explore_fill = False
        searched = None if self.searcher is None else await self.searcher.search(it, self.policy, groups)
        return Rollouts(it, groups, refills, rates, time.perf_counter() - t0, searched=searched)

    async def learn(self, ro: Rollouts) -> IterationResult:
        """The update on an iteration's groups (with the versioned, decoupled update when asynchronous), and its
        metrics."""
        s, it, groups, refills, rates, t_roll = self.s, ro.iteration, ro.groups, ro.refills, ro.rates, ro.seconds
        check_iteration(self.run, it, groups, s.max_error_share)  # too many errored: stop before the update
        self._recent.extend(own_successes([e for g in groups for e in g]))
        if hasattr(self.learner, "set_progress"):  # lr and entropy_coef schedules (OptimSettings' *_final)
            self.learner.set_progress(self.progress(it), self.recent_success())
        items, zero = build_items(groups, s, keep_zero_advantage=getattr(self.learner, "entropy_coef", 0.0) != 0)
        replay = None
        if self.replay is not None:  # earlier iterations' successes (this one's are in the groups' advantages)
            replayed, replay = self.replay.replay()
            items = items + replayed
            self.replay.record(groups, self.hindsight)
        searched = ro.searched
        if searched is not None and searched.solved and self.replay is not None:
            self.replay.keep(searched.episode)  # replayed from the next update on, not counted as the policy's own
        t1 = time.perf_counter()
        if s.max_staleness:  # rollouts sample on while it runs: the new weights are published as version it + 1
            stats = await asyncio.to_thread(self.learner.update_versioned, items, s.update_epochs, it + 1)
        else:
            stats = await asyncio.to_thread(self.learner.update, items, s.update_epochs)
        self._check_skipped(it, stats.extra.get("skipped_steps", 0.0), s.update_epochs)
        if self.rollouts is not None and self.sync is None:  # in-process mode: the policy actor samples next
            # (asynchronous: its completions record version it + 1 from then on, as the in-process sampler's do)
            await self.rollouts.sync_weights(self.learner.model, it + 1 if s.max_staleness else None)
        t_upd = time.perf_counter() - t1
        t_save = t_sync = 0.0
        if self.sync is not None:  # vLLM: the new adapter is saved, then hot-loaded (LoraSync; Ray workers follow)
            t2 = time.perf_counter()
            path = str(self.run.path / "checkpoints" / f"adapter_v{it:06d}")
            await asyncio.to_thread(self.learner.save_adapter, path)
            t_save = time.perf_counter() - t2
            r = self.sync(it, path)
            if asyncio.iscoroutine(r):
                await r
            t_sync = time.perf_counter() - t2 - t_save
        m = iteration_metrics(it, groups, zero)
        m.update({"loss": stats.loss, "grad_norm": stats.grad_norm, "clip_frac": stats.clip_frac,
                  "ratio_mean": stats.ratio_mean, "kl": stats.kl, "entropy": stats.entropy,
                  "train_items": stats.items,
                  "dropped_items": int(stats.extra.get("dropped_items", 0)),
                  # items whose logprobs were not finite (dropped) and updates skipped for a non-finite gradient
                  "nonfinite_items": int(stats.extra.get("nonfinite_items", 0)),
                  "skipped_steps": int(stats.extra.get("skipped_steps", 0)),
                  "time_rollout": round(t_roll, 3), "time_update": round(t_upd, 3), "time_save": round(t_save, 3),
                  "time_sync": round(t_sync, 3),
                  "tasks": [g[0].task_id for g in groups if g], "refills": refills,
                  "family_success": family_success(groups), "site_success": site_success(groups), "curriculum": self.sampler.state(),
                  "errors": error_counts(groups), "error_examples": error_examples(groups)})
        if m["nonfinite_items"]:
            m["nonfinite_examples"] = list(getattr(self.learner, "nonfinite", []))
        if hasattr(self.learner, "set_progress"):
            m.update(lr=self.learner.lr, entropy_coef=self.learner.entropy_coef)
        if replay is not None:
            m["self_imitation"] = asdict(replay)
            if self.hindsight is not None:  # this iteration's failed episodes kept as other instances' successes
                m["self_imitation"]["relabelled"] = self.replay.relabelled
        if s.explore:
            m["explore"] = {**explore_metrics(groups), "rate": round(statistics.fmean(rates), 4) if rates else 0.0}
        if searched is not None:
            m["search"] = searched.metrics()
        if self.rollouts is not None:
            m["ray"] = self.rollouts.stats.as_dict()
        if s.max_staleness:
            m["async"] = {**ro.extra, **{k: round(v, 4) for k, v in stats.extra.items() if k.startswith("is_")}}
        return IterationResult(iteration=it, episodes=[e for g in groups for e in g], groups=groups, metrics=m)

    def checkpoints_at(self, it: int) -> bool:
        """Iteration ``it`` ends with a checkpoint: every ``checkpoint_every`` and the last."""
        return (it + 1) % self.s.checkpoint_every == 0 or it == self.s.iterations - 1

    def episodes_to_save(self, res: IterationResult) -> list[tuple[int, list[Episode]]]:
        """(group index, episodes) to write: every one (``all``), the best and worst of each group (``best_worst``),
        or those plus every episode of the first group every ``save_group_every`` iterations (``sample``); with
        every mode but ``none``, each errored episode too (its error must be readable somewhere)."""
        mode, out = self.s.save_episodes, []
        if mode == "none":
            return out
        for gi, g in enumerate(res.groups):
            ok = [e for e in g if not e.errored]
            whole = mode == "all" or (mode == "sample" and gi == 0 and res.iteration % self.s.save_group_every == 0)
            chosen = g if whole else ([max(ok, key=lambda e: e.dense_return), min(ok, key=lambda e: e.dense_return)]
                                      if ok else [])
            chosen = [*chosen, *(e for e in g if e.errored)]
            out.append((gi, list({e.id: e for e in chosen}.values())))
        return out

    def save_episodes(self, res: IterationResult) -> None:
        from halo.rl.rescore import rescore_steps

        chosen = self.episodes_to_save(res)
        rescore_steps(self.learner, [st for _, eps in chosen for e in eps for st in e.steps])  # logprobs after
        for gi, eps in chosen:
            for j, e in enumerate(eps):
                self.run.write_episode(f"it{res.iteration:04d}-g{gi}-{e.task_id.split('.')[-1]}-{j}", e,
                                       extra={"iteration": res.iteration, "group": gi})

    async def train(self, start_iteration: int = 0, progress: Any = None,
                    on_iteration: Callable[[IterationResult], None] | None = None) -> list[dict[str, Any]]:
        """Run iterations ``start_iteration .. iterations-1``; checkpoint every K and at the end."""
        from halo.env.browser import BrowserPool
        from halo.env.env import BrowserEnv
        from halo.rl.checkpoint import save_checkpoint

        s = self.s
        history: list[dict[str, Any]] = []
        async with contextlib.AsyncExitStack() as stack:
            envs: list[Any] = []
            if self.rollouts is not None:  # the workers own the browsers; the actor gets the learner's weights
                # asynchronous: its completions record the starting version
                await self.rollouts.sync_weights(self.learner.model, start_iteration if s.max_staleness else None)
            elif self.envs is not None:
                envs = list(self.envs)
            else:
                pool = self.pool or await stack.enter_async_context(BrowserPool())
                env_kw = {"episode_timeout_s": s.episode_timeout_s, **self.env_kwargs}
                # a group larger than grpo.parallel runs in waves over these
                envs = [BrowserEnv(pool, max_steps=s.max_steps, **env_kw)
                        for _ in range(min(s.group_size, s.parallel))]
                if self.searcher is not None and self.searcher.env is None:  # MCTS restores states: branchable
                    self.searcher.env = BrowserEnv(pool, max_steps=self.searcher.s.max_steps, branchable=True,
                                                   **env_kw)
            if self.searcher is not None and self.searcher.env is None:
                raise ConfigError("grpo.search_every: the search needs a branchable env (BrowserEnv(branchable=True)"
                                  ", or search_env); Ray rollouts have none here")

            def finish(res: IterationResult) -> None:
                it = res.iteration
                self.save_episodes(res)
                # metrics first: a kill between the two re-runs this iteration from the previous checkpoint,
                # whose resume truncates metrics.jsonl back to it (no gap, no repeat)
                self.run.log_metrics(res.metrics)
                if self.tracker is not None:
                    self.tracker.log(res.metrics, it)
                if self.checkpoints_at(it):
                    save_checkpoint(self.run.path, it, self.learner, {"mean_reward": res.metrics["mean_reward"]})
                history.append(res.metrics)
                if on_iteration is not None:
                    on_iteration(res)

            try:
                if s.max_staleness:  # rollouts run ahead of the learner (rl/pipeline.py)
                    from halo.rl.pipeline import run_pipeline

                    await run_pipeline(self, envs, start_iteration, finish)
                else:
                    for it in range(start_iteration, s.iterations):
                        finish(await self.iterate(it, envs))
            finally:
                search_env = [self.searcher.env] if self.searcher is not None and self.searcher.env else []
                for env in envs + search_env:  # the search's env apart: groups run on envs alone
                    with contextlib.suppress(Exception):
                        await env.close()
        return history


def settings_record(s: GRPOSettings, lora: LoRASettings, optim: OptimSettings) -> dict[str, Any]:
    return {"grpo": asdict(s), "lora": asdict(lora), "optim": asdict(optim)}
