"""One rollout function for every consumer (GRPO, evaluation, MCTS, Tinker): run an episode, record each step.

A group (``run_group``) runs its episodes at most ``parallel`` at once (``grpo.parallel``), in waves when it is
larger. MCTS runs its simulations with the same function from a restored state (``start``: an env snapshot and the
reward calculator as it was there) and takes single steps with ``act``, the body of every step here.

An episode that breaks (browser crash, site down) is kept as data with ``errored=True`` and is left out of training
and success rates; the env is reset for the next one. Training never uses recovery heuristics: the policy's own
mistakes must reach the gradient.
"""

from __future__ import annotations

import asyncio
import copy
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from halo.env.types import Observation, anchor_key
from halo.policy.base import PolicyBackend, Sample
from halo.policy.prompt import Prompt
from halo.rl.rewards import DenseRewardCalculator, RewardBreakdown, RewardConfig


@dataclass
class Step:
    index: int
    obs: Observation  # what the policy saw (its screenshot is the step's picture)
    prompt: Prompt | None  # the exact prompt sampled from (the trainer re-encodes it)
    sample: Sample
    reward: RewardBreakdown
    next_url: str
    error: str | None  # the action's error in the browser, or the parse error
    timings: dict[str, float] = field(default_factory=dict)
    state_key: str | None = None  # the site's key of the state this step was taken from (GiGPO's anchor states)
    advantage: float | None = None  # set by the trainer that learned from this step (GRPO's per-step advantage)
    new_logprobs: tuple[float, ...] | None = None  # the sampled tokens' logprobs after the update (saved episodes)

    @property
    def parsed(self) -> bool:
        return self.sample.action is not None


@dataclass
class Episode:
    id: str
    task_id: str
    site: str
    steps: list[Step] = field(default_factory=list)
    success: bool = False  # REAL's verdict (agisdk's scripts)
    real_reward: float = 0.0
    truncated: bool = False
    errored: bool = False
    error: str | None = None
    final_obs: Observation | None = None
    wall_time: float = 0.0
    milestones: tuple[str, ...] = ()
    grade_details: list[dict[str, Any]] | None = None  # REAL's per-script results (or a family's checks)
    final_state: dict[str, Any] | None = None  # a family episode's last /finish JSON, when asked (keep_state)
    step_states: list[dict[str, Any] | None] = field(default_factory=list)  # after each step, when asked (keep_state)

    @property
    def dense_return(self) -> float:
        return sum(s.reward.total for s in self.steps)

    @property
    def action_validity(self) -> float:
        return sum(s.parsed for s in self.steps) / len(self.steps) if self.steps else 0.0

    @property
    def clean_validity(self) -> float:
        """The share of replies that parsed as written: not repaired, not cut off at the token limit."""
        ok = sum(s.parsed and not s.sample.parsed.repairs and getattr(s.sample, "finish_reason", None) != "length"
                 for s in self.steps)
        return ok / len(self.steps) if self.steps else 0.0


@dataclass(frozen=True)
class Start:
    """Where an episode starts when it does not start from reset: an env snapshot (``BrowserEnv.snapshot``) and the
    dense reward's state there (milestones paid, states seen, progress). Steps are numbered on from the snapshot's,
    and ``max_steps`` counts the steps before it too."""

    snapshot: Any
    rewards: DenseRewardCalculator
    here: bool = False  # the env is at the snapshot's state already (it just took it): no restore


@dataclass
class Outcome:
    """What one step did: the recorded step, the next observation, and how the episode stands."""

    step: Step
    obs: Observation
    done: bool = False
    truncated: bool = False
    success: bool = False
    real_reward: float = 0.0
    graded: bool = False
    errored: str | None = None
    state: dict[str, Any] | None = None  # a task family's /finish JSON after the step (read for its progress)
    grade_details: list[dict[str, Any]] | None = None


async def run_episode(env: Any, policy: PolicyBackend, task: Any, *, reward_config: RewardConfig | None = None,
                      temperature: float | None = None, max_steps: int | None = None,
                      on_step: Callable[[Step], None] | None = None, start: Start | None = None,
                      keep_state: bool = False, state_keys: bool = False, family_steps: bool = False) -> Episode:
    """Reset ``env`` on ``task`` (or restore ``start``) and let ``policy`` act until a terminal action,
    ``max_steps`` or an error.

    An unparseable reply is not executed: the env does not move, the step is recorded with its parse error and
    the ``unparseable`` penalty, and it counts towards ``max_steps`` (else a babbling policy would never end).
    The whole episode has the env's wall-clock deadline (``episode_timeout_s``, BrowserEnv): past it the episode
    is errored with that reason, whatever it was waiting on (the browser, the site or the policy). ``keep_state``
    keeps a task family episode's ``/finish`` JSON after each step and at the end on it (hindsight relabelling
    reads them). ``state_keys``: read the site's state key before each step (``Step.state_key``, GiGPO's anchor
    states); one request to the site a step, so only a learner that groups steps by it asks for it.
    ``family_steps``: a task family's episode takes at most the steps its family needs (``Family.max_steps``), never
    more than ``max_steps``: a ladder's one-step rungs stay one decision long."""
    if family_steps and getattr(task, "family", ""):
        from halo.tasks.families import get_family

        max_steps = min(max_steps or getattr(env, "max_steps", 70), get_family(task.family).max_steps)
    ep = Episode(id=uuid.uuid4().hex[:12], task_id=task.id, site=getattr(task, "site", ""))
    limit_s = getattr(env, "episode_timeout_s", None)
    t0 = time.perf_counter()
    try:
        return await asyncio.wait_for(_run_episode(ep, env, policy, task, reward_config, temperature, max_steps,
                                                   on_step, start, keep_state, state_keys),
                                      limit_s + 5 if limit_s else None)
    except TimeoutError:  # the env's own deadline (checked at each step) usually ends the episode first
        from halo.env.env import episode_deadline_error

        ep.errored, ep.error = True, episode_deadline_error(limit_s)
        ep.wall_time = time.perf_counter() - t0
        return ep


async def _run_episode(ep: Episode, env: Any, policy: PolicyBackend, task: Any, reward_config: RewardConfig | None,
                       temperature: float | None, max_steps: int | None,
                       on_step: Callable[[Step], None] | None, start: Start | None = None,
                       keep_state: bool = False, state_keys: bool = False) -> Episode:
    t0 = time.perf_counter()
    limit = max_steps if max_steps is not None else getattr(env, "max_steps", 70)
    first = 0
    try:
        if start is None:
            rewards = DenseRewardCalculator(reward_config)
            match_capture(env, policy)
            obs = await env.reset(task)
            rewards.set_progress(await _progress(env, task, obs))  # the start state's potential: only changes pay
        else:
            rewards = copy.deepcopy(start.rewards)
            obs = start.snapshot.obs if start.here else await env.restore(start.snapshot)
            first = start.snapshot.step
        for i in range(first, limit):
            key = anchor_key(await env.state_key(), obs) if state_keys and hasattr(env, "state_key") else None
            t_s = time.perf_counter()
            prompt = policy.build_prompt(obs)
            sample = (await policy.sample_prompt(prompt, obs, 1, temperature))[0]
            out = await act(env, task, obs, prompt, sample, rewards, i, state_key=key,
                            policy_s=time.perf_counter() - t_s)
            ep.steps.append(out.step)
            if keep_state:
                ep.step_states.append(out.state)
            if out.errored:
                ep.errored, ep.error = True, out.errored
            if out.graded:
                ep.success, ep.real_reward, ep.grade_details = out.success, out.real_reward, out.grade_details
            if on_step is not None:
                on_step(out.step)
            obs = out.obs
            if ep.errored or out.done:
                break
            if out.truncated or i == limit - 1:
                ep.truncated = True
                break
        ep.final_obs = obs
        if keep_state and not ep.errored and getattr(task, "family", "") and hasattr(env, "finish_json"):
            last = ep.step_states[-1] if ep.step_states else None  # the last step's progress read
            ep.final_state = last if last is not None else await env.finish_json()
    except (asyncio.CancelledError, KeyboardInterrupt):
        raise
    except Exception as e:  # a broken episode is data, not a crash of the whole run
        from halo.rl.health import exception_text

        ep.errored, ep.error = True, exception_text(e)  # never without its reason (an exception with no message)
    ep.wall_time = time.perf_counter() - t0
    ep.milestones = tuple(sorted(rewards.milestones_reached))
    return ep


async def act(env: Any, task: Any, obs: Observation, prompt: Prompt | None, sample: Sample,
              rewards: DenseRewardCalculator, index: int, *, state_key: str | None = None,
              policy_s: float = 0.0) -> Outcome:
    """One step of an episode: execute the sampled action (an unparseable reply is not executed, the env does not
    move), pay the dense reward (``rewards`` is updated), record the step."""
    timings = {"policy": policy_s}
    next_obs, done, truncated, graded, success, real_reward, errored = obs, False, False, False, False, 0.0, None
    details = None
    if sample.action is None:
        info_err = f"unparseable reply: {sample.error}"
        next_obs = _with_error(obs, info_err, index + 1)
    else:
        res = await env.step(sample.action)
        next_obs, done, truncated, info_err = res.observation, res.done, res.truncated, res.info.error
        timings.update(res.info.timings)
        if res.info.errored:
            errored = res.info.error or "the episode errored"
        if res.info.grade is not None:
            graded, success, real_reward = True, res.info.grade.success, res.info.grade.reward
            details = list(res.info.grade.details)
    progress, state = (await _family_state(env, task, next_obs) if sample.action is not None and not errored
                       else (None, None))
    r = rewards.compute_reward(obs, sample.action, next_obs, task, done, success, progress)
    step = Step(index=index, obs=obs, prompt=prompt, sample=sample, reward=r, next_url=next_obs.url,
                error=info_err, timings=timings, state_key=state_key)
    return Outcome(step=step, obs=next_obs, done=done, truncated=truncated, success=success,
                   real_reward=real_reward, graded=graded, errored=errored, grade_details=details, state=state)


def match_capture(env: Any, policy: Any) -> None:
    """Let the env capture screenshots at about the size the policy's prompt keeps (``max_pixels``): Chromium
    draws a small image instead of a full-size one the prompt would shrink anyway. The viewer shows that image."""
    cfg = getattr(policy, "prompt_config", None)
    if cfg is not None and hasattr(env, "screenshot_max_pixels"):
        env.screenshot_max_pixels = cfg.max_pixels


async def _family_state(env: Any, task: Any, page: Observation | None = None
                        ) -> tuple[float | None, dict[str, Any] | None]:
    """A task family's progress (share of its checks, and of its subgoals on ``page``, passing on the site's
    state) and that ``/finish`` state, else (None, None)."""
    if not getattr(task, "family", "") or not hasattr(env, "finish_json"):
        return None, None
    state = await env.finish_json()
    if state is None:
        return None, None
    from halo.tasks.families import progress_of

    return progress_of(task, state, page), state


async def _progress(env: Any, task: Any, page: Observation | None = None) -> float | None:
    """A task family's progress (see ``_family_state``), else None."""
    return (await _family_state(env, task, page))[0]


def _with_error(obs: Observation, error: str, step: int) -> Observation:
    from dataclasses import replace

    return replace(obs, last_action_error=error, step=step)


async def run_group(envs: Sequence[Any], policy: PolicyBackend, task: Any, *, n: int | None = None,
                    parallel: int | None = None, **kw: Any) -> list[Episode]:
    """``n`` episodes of the same task (a GRPO group; default: one per env), at most ``parallel`` of them (default:
    one per env) at once. A group larger than that runs in waves, never all at once: each env takes the next
    episode when its last one ends. The episodes come back in the order they were started."""
    n = len(envs) if n is None else n
    width = min(len(envs), parallel or len(envs), n)
    if n > 0 and width < 1:
        raise ValueError(f"run_group: {n} episodes need at least one env (got {len(envs)}, parallel {parallel})")
    out: list[Episode | None] = [None] * n
    started = 0

    async def lane(env: Any) -> None:
        nonlocal started
        while started < n:
            i, started = started, started + 1
            out[i] = await run_episode(env, policy, task, **kw)

    await asyncio.gather(*(lane(env) for env in envs[:width]))
    return [e for e in out if e is not None]
