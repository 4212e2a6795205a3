"""agisdk's own env, made as its harness makes it, on REAL-local through one switch (``real_local.hosted``).

    .venv/bin/python bench/agisdk_on_real_local.py [--sites gomail dashdish] [--limit N] [--slow-mo 0]

For every REAL v2 task: ``gym.make("browsergym/v2.<task>")`` exactly as ``agisdk.REAL.harness`` does (the stock
``AbstractWebCloneTask`` with its hosted ``https://real-<site>-...vercel.app`` URL, nothing of agisdk overridden),
inside ``route_hosted(urls)``. The task's scripted solution (tests/sites/oracles_<site>.py, test fixtures, never
training data) is played through agisdk's env and graded by agisdk (expected SUCCESS), then a no-op episode
(``send_msg_to_user`` at once; expected FAILURE). Playwright's own Chromium is not downloadable here: its expected
headless-shell path is linked to Debian's (``debian_chromium_for_playwright``), which a user with Playwright's
browsers installed does not need. ``--slow-mo`` defaults to 0 (agisdk's default of 1000 ms per action is the same
run, ~1 s slower per step). Writes bench/results/agisdk_on_real_local.json.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "sites"))
sys.path.insert(0, str(ROOT / "bench"))


def oracles(site: str) -> dict:
    """``{"v2.<task>": (driver oracle, final message)}`` for a site (Driver-style oracles end with ``finish()``
    of their own message; step-list ones are converted by ``as_driver_oracle``)."""
    from _shop_helpers import as_driver_oracle

    mod = importlib.import_module(f"oracles_{site}")
    out = {}
    for k, v in mod.ORACLES.items():
        tid = k if k.startswith("v2.") else f"v2.{k}"
        out[tid] = as_driver_oracle(v) if isinstance(v, list) else (v, getattr(mod, "MESSAGES", {}).get(k, "Done."))
    return out


def make_env(task_id: str, slow_mo: int):
    """agisdk's env for ``task_id`` as its harness's ``EnvArgs.make_env`` makes it (gym.make on the registered
    ``browsergym/<task>``), with its high-level action set."""
    import agisdk.REAL.browsergym.webclones  # noqa: F401 - registers browsergym/v2.* with gymnasium
    import gymnasium as gym
    from agisdk.REAL.browsergym.core.action.highlevel import HighLevelActionSet

    actions = HighLevelActionSet(subsets=["chat", "bid", "coord", "nav"], strict=False, multiaction=False)
    return gym.make(f"browsergym/{task_id}", disable_env_checker=True, headless=True, slow_mo=slow_mo,
                    wait_for_user_message=False, action_mapping=actions.to_python_code,
                    pw_context_kwargs={"timezone_id": "America/Los_Angeles"})


async def episode(task_id: str, oracle, message: str, slow_mo: int) -> dict:
    """One episode through agisdk's env (``oracle`` None: the no-op), graded by agisdk."""
    import mail_calendar_bench as mcb

    class Found(tuple):
        """``(bid, properties)`` as GymDriver's callers read it, and ``.id``/``.bbox``/``.value`` as HALO's
        Element (the GoCalendar oracles read a box and a field's value)."""

        @property
        def id(self):
            return self[0]

        @property
        def bbox(self):
            return self[1].get("bbox")

        @property
        def value(self):
            for n in self_obs["axtree_object"]["nodes"]:
                if n.get("browsergym_id") == self[0]:
                    return str(n.get("value", {}).get("value", ""))
            return ""

    self_obs: dict = {}

    class Obs(dict):
        viewport = (1280, 720)  # agisdk's default viewport, which make_env keeps

    class Driver(mcb.GymDriver):
        @property
        def obs(self):
            return self._obs

        @obs.setter
        def obs(self, o):
            self._obs = Obs(o)
            self_obs.clear()
            self_obs.update(o)

        def find(self, role, name, exact=False, nth=0):
            return Found(super().find(role, name, exact=exact, nth=nth))

        async def select(self, role, name, option, **kw):
            await self._step(f'select_option("{self.find(role, name, **kw)[0]}", {json.dumps(option)})')

        async def step(self, action):
            """HALO's coordinate click (0..1000 relative) as agisdk's mouse_click in pixels."""
            from halo.env.actions import LeftClick, to_pixels

            if not isinstance(action, LeftClick):
                raise NotImplementedError(f"{type(action).__name__} through agisdk's env")
            x, y = to_pixels(action.x, action.y, *Obs.viewport)
            await self._step(f"mouse_click({x:.1f}, {y:.1f})")

    loop = asyncio.get_running_loop()
    t = time.perf_counter()
    env = await loop.run_in_executor(mcb.GYM_THREAD, make_env, task_id, slow_mo)
    error = None
    try:
        obs, _ = await loop.run_in_executor(mcb.GYM_THREAD, env.reset)
        url = obs.get("url", "")
        d = Driver(env, obs, mcb.GYM_THREAD)
        try:
            if oracle is not None:
                await oracle(d)
            await d.finish(message)
        except Exception as e:  # noqa: BLE001 - recorded: one broken episode must not stop the run
            error = f"{type(e).__name__}: {e}"[:300] + f" (at {d.obs.get('url')}, step {d.steps}, " \
                f"{d.obs.get('last_action_error') or 'no action error'})"[:300]
    except Exception as e:  # noqa: BLE001 - a reset that failed is this task's result
        return {"task": task_id, "success": False, "error": f"reset: {type(e).__name__}: {e}"[:300]}
    finally:
        try:
            await loop.run_in_executor(mcb.GYM_THREAD, env.close)
        except Exception:  # noqa: BLE001 - agisdk's teardown fails after a failed reset; the reset's error is kept
            pass
    return {"task": task_id, "success": d.reward == 1.0, "reward": d.reward, "steps": d.steps, "url": url,
            "error": error, "s": round(time.perf_counter() - t, 2)}


def summary(rows: list[dict], served: int, slow_mo: int) -> dict:
    have = [r for r in rows if r["oracle"].get("error") != "no oracle"]
    return {"tasks": len(rows), "with_oracle": len(have),
            "oracle_success": sum(r["oracle"]["success"] for r in rows),
            "noop_success": sum(r["noop"]["success"] for r in rows),
            "hosted_hosts_seen": sorted({r["noop"]["url"].split("/")[2] for r in rows if r["noop"].get("url")}),
            "connections_served_by_real_local": served, "slow_mo_ms": slow_mo, "rows": rows}


async def run(sites: list[str], limit: int | None, slow_mo: int, only: tuple[str, ...] = (),
              out: Path | None = None) -> dict:
    import mail_calendar_bench as mcb

    from halo.tasks.real import all_task_ids
    from real_local.hosted import route_hosted
    from real_local.server import SitesServer

    mcb.debian_chromium_for_playwright()
    ids = [t for t in all_task_ids("v2") if t.split(".", 1)[1].split("-")[0] in sites and (not only or t in only)][:limit]
    rows: list[dict] = []
    with SitesServer(tuple(sites)) as urls, route_hosted(urls) as router:
        for site in sites:
            ors = oracles(site)
            for tid in [t for t in ids if t.split(".", 1)[1].split("-")[0] == site]:
                oracle, message = ors.get(tid, (None, None))
                good = (await episode(tid, oracle, message, slow_mo)) if oracle is not None else \
                    {"task": tid, "success": False, "error": "no oracle"}
                noop = await episode(tid, None, "Done.", slow_mo)
                rows.append({"task": tid, "oracle": good, "noop": noop})
                print(f"{tid:24s} oracle {'SUCCESS' if good['success'] else 'FAILURE'}  no-op "
                      f"{'SUCCESS' if noop['success'] else 'FAILURE'}  {good.get('error') or ''}", flush=True)
                if out is not None:  # as it goes: a long run cut short keeps what it measured
                    out.write_text(json.dumps({**summary(rows, router.served, slow_mo), "partial": True}, indent=1))
        served = router.served
    return summary(rows, served, slow_mo)


def main() -> None:
    from real_local.ports import SITE_NAMES

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sites", nargs="+", default=list(SITE_NAMES), choices=SITE_NAMES)
    p.add_argument("--limit", type=int, default=None, help="at most this many tasks in all (a quick look)")
    p.add_argument("--slow-mo", type=int, default=0)
    p.add_argument("--tasks", nargs="*", default=[], help="only these task ids (v2.gomail-11)")
    p.add_argument("--out", default="agisdk_on_real_local.json")
    a = p.parse_args()
    t = time.perf_counter()
    path = ROOT / "bench" / "results" / a.out
    out = asyncio.run(run(a.sites, a.limit, a.slow_mo, tuple(a.tasks), path))
    out["wall_s"] = round(time.perf_counter() - t, 1)
    out["when"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    print(f"{out['oracle_success']}/{out['with_oracle']} oracles SUCCESS, {out['noop_success']}/{out['tasks']} "
          f"no-ops SUCCESS, {out['connections_served_by_real_local']} connections to the hosted origins served by REAL-local, {out['wall_s']} s")
    path.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
