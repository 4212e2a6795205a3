"""BrowserEnv as a ``tinker_cookbook.rl.types.Env``: tokens in, a browser step and a dense reward out.

Each observation becomes a fresh single-turn prompt (system, screenshot, goal, last 5 actions), never a growing
conversation, so a step costs the same number of tokens at turn 1 and at turn 70. ``step(tokens)`` decodes the
reply, parses it with HALO's parser, runs the action in the browser, pays the dense reward
(``halo.rl.rewards``) and says why the episode stopped: ``stop/parse_error`` (when unparseable replies end
episodes), ``stop/max_turns``, ``stop/success`` (REAL's scripts passed) or ``stop/completed`` (the agent ended
the episode without success). A browser that breaks mid-episode is not the policy's doing: the step raises
``EpisodeBrokenError`` so the rollout strategy retries or drops the trajectory instead of training on it.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any

from tinker_cookbook.rl.types import STOP_METRIC_PREFIX, ActionExtra, Env, StepResult, StopReason

import tinker
from halo.env.env import BrowserEnv
from halo.env.types import Observation
from halo.errors import ConfigError, HaloError
from halo.policy.element_ids import aliased
from halo.policy.parse import parse_to_env
from halo.policy.prompt import PromptConfig
from halo.policy.tinker.render import decode_action, render_observation
from halo.rl.rewards import DenseRewardCalculator, RewardConfig
from halo.rl.tinker.browsers import BrowserSlots

SUCCESS = "success"  # stop reason of an episode REAL graded as passed (StopReason has no such value)


class EpisodeBrokenError(HaloError, RuntimeError):
    """The browser or site broke during an episode; the trajectory must not be trained on."""


@dataclass(frozen=True)
class EpisodeSettings:
    """How one episode runs. Plain data (picklable), shared by every env of a run."""

    max_turns: int = 70
    stop_on_parse_error: bool = True  # tinker-cookbook's default: an unparseable reply ends the episode
    prompt: PromptConfig = field(default_factory=PromptConfig)
    image_format: str = "jpeg"  # the browser's screenshot format (the renderer sends JPEG either way)
    action_timeout_ms: int = 5000
    run_id: str = "0"

    def __post_init__(self) -> None:
        if self.max_turns < 1:
            raise ConfigError(f"max_turns must be >= 1, got {self.max_turns}")


class BrowserTinkerEnv(Env):
    """One episode of one task. Single use, like every tinker-cookbook env; holds a browser slot from
    ``initial_observation`` until the episode ends or ``close()``."""

    def __init__(self, task: Any, renderer: Any, slots: BrowserSlots, settings: EpisodeSettings,
                 reward_config: RewardConfig | None = None):
        self.task = task
        self.renderer = renderer
        self.slots = slots
        self.settings = settings
        self.rewards = DenseRewardCalculator(reward_config)
        self.browser: BrowserEnv | None = None
        self.obs: Observation | None = None
        self.turn = 0
        self.success = False
        self.real_reward = 0.0
        self._holding = False
        self._closed = False

    @property
    def stop_condition(self) -> list[int]:
        return self.renderer.get_stop_sequences()

    async def initial_observation(self):
        if self._closed or self.browser is not None:
            raise ConfigError("BrowserTinkerEnv is single-use: make a new env for each episode")
        await self.slots.acquire()
        self._holding = True
        s = self.settings
        try:
            self.browser = BrowserEnv(self.slots.pool, max_steps=s.max_turns, image_format=s.image_format,
                                      action_timeout_ms=s.action_timeout_ms, run_id=s.run_id)
            self.obs = await self.browser.reset(self.task)
            self.rewards.reset()
            model_input, _ = render_observation(self.renderer, self.obs, s.prompt)
        except BaseException as e:
            await self.close()
            if isinstance(e, HaloError) and not isinstance(e, ConfigError):
                raise EpisodeBrokenError(f"{self.task.id}: reset failed: {e}") from e
            raise
        return model_input, self.stop_condition

    async def step(self, action: list[int], *, extra: ActionExtra | None = None) -> StepResult:
        if self.obs is None or self.browser is None:
            raise ConfigError("step() before initial_observation(), or after the episode ended")
        t0 = time.perf_counter()
        obs, s = self.obs, self.settings
        self.turn += 1
        text, ended = decode_action(self.renderer, list(action))
        view = aliased(obs, s.prompt.element_ids)  # the ids the rendered prompt showed
        parsed = parse_to_env(text, view, s.prompt)  # as the policy backends read it (goal refs, the env's ids)
        metrics: dict[str, float | int] = {"turn": self.turn, "parsed": int(parsed.ok),
                                           "repaired": int(bool(parsed.repairs)), "reply_cut": int(not ended),
                                           "ac_tokens": len(action)}
        logs: dict[str, str | int | float] = {"reply": text[:2000], "url": obs.url}
        done = truncated = success = False
        if parsed.action is None:
            error = f"unparseable reply: {parsed.error}"
            next_obs = dataclasses.replace(obs, last_action_error=error, step=self.turn)
            logs["error"] = error
        else:
            try:
                res = await self.browser.step(parsed.action)
            except HaloError as e:
                await self.close()
                raise EpisodeBrokenError(f"{self.task.id} turn {self.turn}: {e}") from e
            if res.info.errored:
                await self.close()
                raise EpisodeBrokenError(f"{self.task.id} turn {self.turn}: {res.info.error}")
            next_obs, done, truncated = res.observation, res.done, res.truncated
            grade = res.info.grade
            if grade is not None:
                success, self.real_reward = grade.success, grade.reward
            metrics["action_error"] = int(res.info.error is not None)
            metrics["time/browser_step"] = res.info.timings.get("total", 0.0)
            logs["action"] = parsed.action.describe()
            if res.info.error:
                logs["error"] = res.info.error
        reward = self.rewards.compute_reward(obs, parsed.action, next_obs, self.task, done, success)
        metrics.update({f"reward/{k}": v for k, v in reward.parts.items()})
        stop = self._stop_reason(parsed.ok, done, success, truncated)
        self.obs = next_obs
        if stop is None:
            next_input, _ = render_observation(self.renderer, next_obs, s.prompt)
            stop_cond = self.stop_condition
        else:
            self.success = success
            metrics[f"{STOP_METRIC_PREFIX}{stop}"] = 1.0
            metrics.update({"success": int(success), "real_reward": self.real_reward, "turns": self.turn,
                            "milestones": len(self.rewards.milestones_reached)})
            await self.close()
            next_input, stop_cond = tinker.ModelInput.empty(), []
        metrics["time/env_step"] = time.perf_counter() - t0
        return StepResult(reward=reward.total, episode_done=stop is not None, next_observation=next_input,
                          next_stop_condition=stop_cond, metrics=metrics, logs=logs)

    def _stop_reason(self, parsed: bool, done: bool, success: bool, truncated: bool) -> str | None:
        if not parsed and self.settings.stop_on_parse_error:
            return str(StopReason.PARSE_ERROR)
        if done:
            return SUCCESS if success else str(StopReason.COMPLETED)
        if truncated or self.turn >= self.settings.max_turns:
            return str(StopReason.MAX_TURNS)
        return None

    async def close(self) -> None:
        """Close the browser context and give the slot back. Idempotent; safe after cancellation."""
        self._closed = True
        browser, self.browser = self.browser, None
        try:
            if browser is not None:
                await browser.close()
        finally:
            if self._holding:
                self._holding = False
                self.slots.release()
