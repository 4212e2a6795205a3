"""Dense rewards along scripted runs on REAL-local: every oracle solution, and a seeded random policy on the same
tasks. Used by test_rewards_along_oracles.py and bench/reward_check.py (which writes the distributions)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from halo.env import actions as A
from halo.rl.config import load_rl_config
from halo.rl.rewards import RewardConfig, RewardedEnv
from halo.tasks.real import get_task


def all_oracles() -> dict[str, object]:
    """``{canonical task id: oracle}``: async functions of a Driver (gomail, gocalendar) or step lists."""
    import oracles_dashdish
    import oracles_gocalendar
    import oracles_gomail
    import oracles_marrisuite
    import oracles_networkin
    import oracles_omnizon
    import oracles_opendining
    import oracles_staynb
    import oracles_topwork
    import oracles_udriver
    import oracles_zilloft

    out: dict[str, object] = {}
    for mod in (oracles_gomail, oracles_gocalendar, oracles_omnizon, oracles_zilloft, oracles_dashdish,
                oracles_opendining, oracles_udriver, oracles_staynb, oracles_marrisuite,
                oracles_networkin, oracles_topwork):
        for k, v in mod.ORACLES.items():
            out[k if k.startswith("v2.") else f"v2.{k}"] = v
    return out


@dataclass
class RewardRun:
    task_id: str
    policy: str  # "oracle" | "random"
    returns: list[float]  # cumulative, after each step
    parts: list[dict[str, float]]
    milestones: list[str]
    success: bool
    steps: int = 0
    extra: dict = field(default_factory=dict)

    @property
    def final(self) -> float:
        return self.returns[-1] if self.returns else 0.0


def reward_config() -> RewardConfig:
    return load_rl_config().rewards


def _record(task_id: str, policy: str, env: RewardedEnv, res) -> RewardRun:
    g = res.info.grade if res is not None else None
    return RewardRun(task_id=task_id, policy=policy, returns=env.returns, parts=[r.parts for r in env.rewards],
                     milestones=sorted(env.calc.milestones_reached), success=bool(g and g.success),
                     steps=len(env.rewards))


async def oracle_run(pool, urls: dict[str, str], task_id: str, oracle, config: RewardConfig) -> RewardRun:
    from _shop_helpers import run_oracle
    from site_helpers import Driver

    from halo.env.env import BrowserEnv

    task = get_task(task_id, sites="local", site_urls=urls)
    env = RewardedEnv(BrowserEnv(pool, max_steps=60), config)
    try:
        if callable(oracle) and not isinstance(oracle, list):
            d = Driver(env, await env.reset(task))
            await oracle(d)
            res = await d.finish("Done.")
        else:
            res = await run_oracle(env, task, oracle)
        return _record(task_id, "oracle", env, res)
    finally:
        await env.close()


def random_action(rng: random.Random) -> A.Action:
    """A policy that knows the action space and nothing else: mostly clicks anywhere, some typing and scrolling."""
    r = rng.random()
    if r < 0.7:
        return A.LeftClick(rng.randint(0, 1000), rng.randint(0, 1000))
    if r < 0.8:
        return A.Type(rng.choice(["hello", "test", "abc", "2024", "search"]))
    if r < 0.9:
        return A.Scroll(rng.choice([-500, -200, 200, 500]))
    return A.Key((rng.choice(["Enter", "Tab", "Escape"]),))


async def random_run(pool, urls: dict[str, str], task_id: str, steps: int, seed: int,
                     config: RewardConfig) -> RewardRun:
    from halo.env.env import BrowserEnv

    rng = random.Random(seed)
    task = get_task(task_id, sites="local", site_urls=urls)
    env = RewardedEnv(BrowserEnv(pool, max_steps=steps + 1), config)
    try:
        await env.reset(task)
        res = None
        for _ in range(max(steps - 1, 0)):
            res = await env.step(random_action(rng))
            if res.done:
                break
        if res is None or not res.done:
            res = await env.step(A.SendMsgToUser("Done."))
        return _record(task_id, "random", env, res)
    finally:
        await env.close()
