"""What an explored reply does on a real page, with and without one of the explorer's priors (issue 40).

Opens a family instance's start page on REAL-local (``--task gomail.send_pick-0``), then samples ``--replies``
explored replies (``grpo.explore`` 0.99, ``explore_unit: value``, ``explore_novel``) from the random-init tiny model
in the ladder's tiny_text interface, twice, with and without one prior:

- ``--prior open_choices`` (default): ``action_space.OPEN_CHOICES`` as built, then emptied (a list's options on show no
  longer preferred); a hit is a click on an element of ``--role`` (``option``: an autocomplete's suggestion);
- ``--prior fill``: ``grpo.explore_fill`` on, then off; a hit is a fill of a goal's quoted string that no field holds
  yet into a field that is empty (``--task gomail.send_subject-0``: the subject or the message typed).

Each side's hits and every action's share are written. Nothing trains. Writes bench/results/explore_prior_probe.json
(``--out``).

    .venv/bin/python bench/explore_prior_probe.py [--task gomail.send_pick-0] [--replies 1000] [--role option]
    .venv/bin/python bench/explore_prior_probe.py --prior fill --task gomail.send_subject-0 --out explore_fill_probe.json
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import re
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


async def probe(a, urls) -> dict:
    import torch

    from halo.env.actions import Fill
    from halo.env.browser import BrowserPool
    from halo.env.env import BrowserEnv
    from halo.policy import action_space
    from halo.policy.modes import get_mode, make_policy
    from halo.policy.tiny import build_tiny_model
    from halo.tasks.resolve import resolve_tasks

    d = Path(tempfile.mkdtemp(prefix="halo-probe-")) / "tiny"
    build_tiny_model(d, seed=a.seed)
    torch.manual_seed(a.seed)
    mode = get_mode("tiny_text").with_overrides(
        model=str(d), seed=a.seed, element_roles="by_action", phrase_words=1, fields=True, fields_layout="split",
        element_ids="stable", actions=["click", "fill", "go_back"]).for_training()
    policy = make_policy(mode)
    policy.explore, policy.explore_values, policy.explore_novel = 0.99, True, True
    (task,) = resolve_tasks([a.task], "local", urls)
    out: dict = {"task": a.task, "replies": a.replies, "prior": a.prior, "seed": a.seed}
    if a.prior == "open_choices":
        out["role"] = a.role
    async with BrowserPool() as pool:
        env = BrowserEnv(pool, max_steps=10)
        obs = await env.reset(task)
        await env.close()
    def norm(v: str) -> str:
        return " ".join(v.split()).casefold()

    held = [norm(el.value) for el in obs.elements.values() if el.value]
    untyped = {norm(q) for q in re.findall(r'"([^"]+)"', obs.goal) if not any(norm(q) in h for h in held)}
    empty = {i for i, el in obs.elements.items() if el.role in action_space.TEXT_ROLES and not (el.value or "").strip()}
    targets = {i for i, el in obs.elements.items() if el.role == a.role}
    if a.prior == "fill":
        out["untyped"], out["empty"] = sorted(untyped), sorted(obs.elements[i].name or "" for i in empty)
    else:
        out["targets"] = sorted(el.name or "" for i, el in obs.elements.items() if i in targets)

    def hit(act) -> bool:
        if a.prior == "fill":
            return isinstance(act, Fill) and act.element in empty and norm(act.value) in untyped
        return getattr(act, "element", None) in targets

    saved = action_space.OPEN_CHOICES
    for name, on in (("with", True), ("without", False)):
        if a.prior == "fill":
            policy.explore_fill = on
        else:
            action_space.OPEN_CHOICES = saved if on else ()
        kinds: collections.Counter = collections.Counter()
        hits = explored = 0
        t0 = time.perf_counter()
        prompt = policy.build_prompt(obs)
        for _ in range(0, a.replies, 50):
            for s in await policy.sample_prompt(prompt, obs, 50, 1.0):
                explored += s.explored
                act = s.action
                kinds[type(act).__name__ if act is not None else "invalid"] += 1
                hits += hit(act)
        out[name] = {"hits": hits, "share": round(hits / a.replies, 4), "explored": explored,
                     "actions": dict(kinds), "wall_s": round(time.perf_counter() - t0, 1)}
        print(name, out[name], flush=True)
    action_space.OPEN_CHOICES = saved
    policy.explore_fill = False
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--task", default="gomail.send_pick-0")
    p.add_argument("--replies", type=int, default=1000)
    p.add_argument("--role", default="option")
    p.add_argument("--prior", default="open_choices", choices=("open_choices", "fill"),
                   help="the prior compared on and off (see above)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="explore_prior_probe.json")
    a = p.parse_args()
    if a.replies < 50 or a.replies % 50:
        p.error(f"--replies must be a positive multiple of 50, got {a.replies}")
    from real_local.server import SitesServer

    with SitesServer() as urls:
        res = asyncio.run(probe(a, urls))
    path = ROOT / "bench" / "results" / a.out
    path.write_text(json.dumps(res, indent=2) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
