"""Where gomail.send stalls (issue 40): from each prefix of its scripted solution, how often a uniformly exploring
tiny_text policy reaches each further subgoal within the family's remaining step cap.

    .venv/bin/python bench/send_stage_rates.py [--episodes 24] [--explore 1.0] [--seed 0]

The prefixes (none; compose open; the recipient chosen; the subject typed; the message typed) are played by the
family's oracle (tests/families/family_oracles_gomail.py's steps, a test fixture) for this MEASUREMENT only: nothing
here trains, and no training path starts from an oracle's state. From each prefix, the random-init tiny model in
tiny_text (without send_msg_to_user, so every episode runs its steps) acts with ``explore`` (1.0: every choice
uniform among the grammar's allowed tokens), and each episode records the subgoals it newly reaches and whether it
succeeds. Writes bench/results/send_stage_rates.json: a five-step goal needs each stage in turn, so the product of
the stage rates is what random exploration offers a learner.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import dataclasses
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "sites"))
STAGES = ["start", "compose open", "recipient chosen", "subject typed", "message typed"]


async def prefix(d, p, k: int) -> None:
    """The oracle's first ``k`` stages (measurement only)."""
    if k >= 1:
        await d.click_xy("button", "Compose")
    if k >= 2:
        await d.fill("textbox", "To recipients", p["name"].split()[0])
        await d.click("option", p["name"])
    if k >= 3:
        await d.fill("textbox", "Subject", p["subject"], exact=True)
    if k >= 4:
        await d.fill("textbox", "Message Body", p["body"])


async def main(a: argparse.Namespace) -> dict:
    import torch
    from site_helpers import Driver

    from halo.env.browser import BrowserPool
    from halo.env.env import BrowserEnv
    from halo.policy.hf_backend import HFPolicy
    from halo.policy.modes import get_mode
    from halo.policy.tiny import build_tiny_model
    from halo.tasks.families import family_task, get_family
    from halo.tasks.families.base import Finish
    from real_local.server import SitesServer

    fam = get_family("gomail.send")
    mode = get_mode("tiny_text")
    actions = tuple(x for x in mode.prompt_config().actions if x != "send_msg_to_user")
    out: dict = {"family": fam.name, "episodes_per_stage": a.episodes, "explore": a.explore, "seed": a.seed,
                 "mode": "tiny_text", "actions": list(actions), "step_cap": fam.max_steps, "stages": {}}
    with tempfile.TemporaryDirectory() as tmp:
        torch.manual_seed(a.seed)
        build_tiny_model(Path(tmp) / "tiny", seed=a.seed)
        pol = HFPolicy(str(Path(tmp) / "tiny"), decoding=mode.decoding_config(),
                       prompt=dataclasses.replace(mode.prompt_config(), actions=actions))
        pol.explore = a.explore
        insts = fam.instances("train", a.episodes)
        with SitesServer(("gomail",)) as urls:
            async with BrowserPool() as pool:
                for k, name in enumerate(STAGES):
                    hits: collections.Counter = collections.Counter()
                    wins, steps_left = 0, fam.max_steps - k - (1 if k >= 2 else 0)
                    for inst in insts:
                        env = BrowserEnv(pool, max_steps=30, end_on_success=True)
                        try:
                            d = Driver(env, await env.reset(family_task(inst, urls)))
                            await prefix(d, inst.params, k)
                            obs = d.obs
                            had = {c.name for c in fam.subgoals(Finish(await env.finish_json()), inst.params, obs)
                                   if c.passed}
                            new: set[str] = set()
                            for _ in range(steps_left):
                                s = (await pol.sample_actions(obs, 1))[0]
                                if s.action is None:
                                    break
                                r = await env.step(s.action)
                                obs = r.observation
                                new |= {c.name for c in fam.subgoals(Finish(await env.finish_json()), inst.params,
                                                                     obs) if c.passed} - had
                                if r.info.grade is not None and r.info.grade.success:
                                    wins += 1
                                    break
                                if r.done or r.truncated:
                                    break
                            hits.update(new)
                        finally:
                            await env.close()
                    out["stages"][f"after {name}"] = {
                        "steps_left": steps_left, "success": round(wins / a.episodes, 3),
                        "new_subgoals": {g: round(v / a.episodes, 3) for g, v in sorted(hits.items())}}
                    print(f"after {name:18s} {out['stages'][f'after {name}']}", flush=True)
    return out


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--episodes", type=int, default=24, help="episodes from each prefix")
    p.add_argument("--explore", type=float, default=1.0, help="share of choices drawn uniformly (1.0: all)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="send_stage_rates.json")
    a = p.parse_args()
    t = time.perf_counter()
    res = asyncio.run(main(a))
    res["wall_s"] = round(time.perf_counter() - t, 1)
    res["when"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    (ROOT / "bench" / "results" / a.out).write_text(json.dumps(res, indent=1))
    print("wrote", a.out)
