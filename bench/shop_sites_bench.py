"""Benchmark REAL-local's shop-like sites (Omnizon, Zilloft, DashDish, OpenDining, UDriver, StayNB, MarriSuite,
TopWork, NetworkIn): p50 page latency, memory per session, and the oracle episodes' steps/s through BrowserEnv. Writes
bench/results/shop_sites.json (``--sites`` runs some of them and merges their rows into the file).

    .venv/bin/python bench/shop_sites_bench.py [--rounds 30] [--sites dashdish opendining] [--agisdk]

Latency is measured over real loopback HTTP (server render + transport) with one keep-alive client; memory per
session with tracemalloc over sessions created and mutated in-process; steps/s by replaying every oracle of
tests/sites/oracles_<site>.py in real Chromium (one env at a time), each graded by agisdk's scripts;
with ``--agisdk`` the same sequences also run through agisdk's own BrowserGym env (slow_mo 0), driven by the
GymDriver of bench/mail_calendar_bench.py (the GoMail/GoCalendar comparison), so the two files compare alike.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "sites"), str(ROOT / "bench")]

PAGES = {
    "omnizon": ["/", "/search?q=cooking+pot", "/search?q=headphones&min=25&max=100", "/product/212", "/cart",
                "/checkout", "/orders"],
    "zilloft": ["/", "/search?searchQuery=California&maxPrice=900000&minBeds=3&minBaths=0",
                "/search?searchQuery=Boston%2C+MA", "/homedetails/15004", "/myzilloft/saved-homes"],
    "dashdish": ["/", "/search?q=noodles", "/search?cuisine=Pizza", "/store/wingstop",
                 "/store/wingstop/item/wingstop-1", "/cart", "/checkout", "/orders"],
    "opendining": ["/", "/search?cuisine=Italian&time=3%3A00+PM", "/search?location=Embarcadero",
                   "/restaurant/cd4f81d3-3c75-4c67-b47b-e7f013f6ae9d?date=2025-09-29&time=3%3A00+PM&party=5",
                   "/booking?rid=cd4f81d3-3c75-4c67-b47b-e7f013f6ae9d&date=2025-09-29&time=3%3A00+PM&party=5",
                   "/reservations"],
    "udriver": ["/", "/ride/options", "/wallet", "/activity"],
    "staynb": ["/", ("/s/Rome%2C%20Italy/homes?checkin=2025-01-03&checkout=2025-01-05&adults=4&bedrooms=2"
                     "&amenities=Wifi"), "/s/Nearby/homes", "/rooms/1040", "/wishlists"],
    "marrisuite": ["/", "/search?destination=California",
                   "/search?destination=Goleta%2C+California&checkIn=2024-07-26&checkOut=2024-07-28",
                   "/hotels/sbago", "/hotels/sbago/book?room=K"],
    "topwork": ["/", "/talent?q=python&available=1", "/freelancers/danielkim", "/freelancers/danielkim/hire",
                "/messages/alexrodriguez", "/jobs", "/jobs/new"],
    "networkin": ["/", "/search/results/all?keywords=software+engineer",
                  "/search/results/people?keywords=tech&location=New+York", "/in/oliviamartinez",
                  "/in/oliviamartinez/connect", "/mynetwork", "/messaging/thread/emilydavis", "/events/intern-demo-day",
                  "/company/microsoft"],
}
# per site: the task its sessions start, and the requests that set a session up before pages are timed
SETUP = {
    "omnizon": ("v2.omnizon-13", [("/cart/add", {"id": "212", "quantity": "1"})]),
    "zilloft": ("v2.zilloft-9", []),
    "dashdish": ("v2.dashdish-7", [("/cart/add", {"dishId": "wingstop-1", "size": "6 pc Wings", "quantity": "1"})]),
    "opendining": ("v2.opendining-12", []),
    "udriver": ("v2.udriver-3", [("/ride/search", {"pickup": "Club X", "dropoff": "Rooftop 25", "time": "Now",
                                                   "date": "7/18/2024"})]),
    "staynb": ("v2.staynb-14", []),
    "marrisuite": ("v2.marrisuite-8", []),
    "topwork": ("v2.topwork-14", [("/freelancers/ashleycampbell/save", {"next": "/saved"})]),
    "networkin": ("v2.networkin-10", [("/in/ryanmiller/connect", {"action": "plain"})]),
}


def _mutate(site: str, state: dict) -> None:
    """A small change of the kind each site's pages make (so a session holds its copy-on-write state)."""
    if site == "omnizon":
        state["cart"]["items"].append({"id": "212", "quantity": 1, "price": 44.99})
    elif site == "zilloft":
        state["filters"]["searchQuery"] = "Boston, MA"
    elif site == "dashdish":
        from real_local.dashdish.state import cart_add
        cart_add(state, "wingstop-1", "6 pc Wings", 1)
    elif site == "opendining":
        state["search"]["term"] = "Italian"
    elif site == "udriver":
        from real_local.udriver.places import BY_ID
        from real_local.udriver.state import materialize, set_locations
        materialize(state)
        set_locations(state, BY_ID[201], BY_ID[723])
    elif site == "staynb":
        from real_local.staynb.state import materialize
        materialize(state)
        state["search"]["destination"] = "Rome, Italy"
    elif site == "marrisuite":
        state["search"].update(destination="Goleta, California", checkIn="2024-07-26", checkOut="2024-07-28")
    elif site == "topwork":
        state["saved"]["savedFreelancerIds"].append("ashleycampbell")
    elif site == "networkin":
        state["contactList"].append("ryanmiller")
        state["connectionGrades"]["ryanmiller"] = 1


def latency(urls: dict[str, str], rounds: int, sites: tuple[str, ...]) -> dict:
    out = {}
    for site in sites:
        paths = PAGES[site]
        with httpx.Client(base_url=urls[site], follow_redirects=True) as c:
            task_id, setup = SETUP[site]
            c.get("/config", params={"task_id": task_id, "run_id": "0"})
            for path, data in setup:
                assert c.post(path, data=data).status_code == 200, (site, path)
            per_page = {}
            for p in paths:
                c.get(p)  # warm the template cache
                ms = []
                for _ in range(rounds):
                    t = time.perf_counter()
                    r = c.get(p)
                    ms.append((time.perf_counter() - t) * 1000)
                    assert r.status_code == 200, (p, r.status_code)
                per_page[p] = {"p50_ms": round(statistics.median(ms), 2), "bytes": len(r.content)}
        everything = [v["p50_ms"] for v in per_page.values()]
        out[site] = {"p50_ms_over_pages": round(statistics.median(everything), 2), "pages": per_page}
    return out


def memory_per_session(sites: tuple[str, ...], n: int = 300) -> dict:
    from real_local.core import build_app
    from real_local.server import load_spec

    out = {}
    for site in sites:
        store = build_app(load_spec(site)).state.store
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for i in range(n):
            s = store.new(task_id=SETUP[site][0], run_id=str(i))
            _mutate(site, s.state)
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        grown = sum(st.size_diff for st in after.compare_to(before, "filename"))
        out[site] = {"sessions": n, "bytes_per_session": round(grown / n)}
    return out


def _oracles(site: str) -> dict:
    import importlib

    return importlib.import_module(f"oracles_{site}").ORACLES


async def oracle_speed(urls: dict[str, str], sites: tuple[str, ...]) -> dict:
    from _shop_helpers import run_oracle

    from halo.env.browser import BrowserPool
    from halo.env.env import BrowserEnv
    from halo.tasks.real import get_task

    out = {}
    async with BrowserPool() as pool:
        env = BrowserEnv(pool, max_steps=60)
        for site in sites:
            oracles = _oracles(site)
            steps = successes = 0
            step_s = episode_s = 0.0
            for name, oracle in sorted(oracles.items()):
                task = get_task(name, sites="local", site_urls=urls)
                t0 = time.perf_counter()
                result = await run_oracle(env, task, oracle)
                episode_s += time.perf_counter() - t0
                step_s += time.perf_counter() - t0 - env.reset_timings.get("total", 0.0)
                steps += result.observation.step
                successes += bool(result.info.grade and result.info.grade.success)
            out[site] = {"episodes": len(oracles), "successes": successes, "steps": steps,
                         "steps_per_s": round(steps / step_s, 2), "episodes_per_min": round(
                             60 * len(oracles) / episode_s, 1)}
        await env.close()
    return out


async def driver_runs(urls: dict[str, str], slow_mo: int | None, agisdk: bool, sites: tuple[str, ...]) -> list[dict]:
    """Every oracle through conftest's Driver on HALO's BrowserEnv, or through agisdk's env (``agisdk=True``)."""
    from _shop_helpers import as_driver_oracle

    oracles = {k: v for site in sites for k, v in _oracles(site).items()}
    rows = []
    if agisdk:
        import mail_calendar_bench as mcb

        class ShopGymDriver(mcb.GymDriver):
            async def select(self, role, name, option, **kw):
                await self._step(f'select_option("{self.find(role, name, **kw)[0]}", {json.dumps(option)})')

        loop = asyncio.get_running_loop()
        for name in sorted(oracles):
            oracle, message = as_driver_oracle(oracles[name])
            env = await loop.run_in_executor(mcb.GYM_THREAD, mcb._gym_env, f"v2.{name}",
                                             urls[name.split("-")[0]], slow_mo)
            t = time.perf_counter()
            obs, _ = await loop.run_in_executor(mcb.GYM_THREAD, env.reset)
            reset_s = time.perf_counter() - t
            d, error = ShopGymDriver(env, obs, mcb.GYM_THREAD), None
            try:
                await oracle(d)
                await d.finish(message)
            except Exception as e:  # noqa: BLE001 - recorded: one broken episode must not stop the bench
                error = f"{type(e).__name__}: {e}"[:300]
            rows.append({"task": name, "steps": d.steps, "step_s": round(d.step_s, 3), "reset_s": round(reset_s, 3),
                         "success": d.reward == 1.0, "error": error})
            await loop.run_in_executor(mcb.GYM_THREAD, env.close)
        return rows
    from site_helpers import Driver

    from halo.env.browser import BrowserPool
    from halo.env.env import BrowserEnv
    from halo.tasks.real import get_task

    async with BrowserPool() as pool:
        for name in sorted(oracles):
            oracle, message = as_driver_oracle(oracles[name])
            env = BrowserEnv(pool)
            t = time.perf_counter()
            d = Driver(env, await env.reset(get_task(name, sites="local", site_urls=urls)))
            reset_s, t, error, success = time.perf_counter() - t, time.perf_counter(), None, False
            try:
                await oracle(d)
                res = await d.finish(message)
                success = bool(res.info.grade and res.info.grade.success)
            except Exception as e:  # noqa: BLE001 - recorded, as above
                error = f"{type(e).__name__}: {e}"[:300]
            rows.append({"task": name, "steps": d.steps, "step_s": round(time.perf_counter() - t, 3),
                         "reset_s": round(reset_s, 3), "success": success, "error": error})
            await env.close()
    return rows


def summary(rows: list[dict]) -> dict:
    steps, secs = sum(r["steps"] for r in rows), sum(r["step_s"] for r in rows)
    return {"episodes": len(rows), "successes": sum(r["success"] for r in rows), "steps": steps,
            "step_seconds": round(secs, 2), "steps_per_s": round(steps / secs, 2) if secs else None,
            "reset_p50_s": round(statistics.median(r["reset_s"] for r in rows), 3) if rows else None}


async def compare(urls: dict[str, str], sites: tuple[str, ...]) -> dict:
    import mail_calendar_bench as mcb

    mcb.debian_chromium_for_playwright()
    halo = await driver_runs(urls, None, agisdk=False, sites=sites)
    gym0 = await driver_runs(urls, 0, agisdk=True, sites=sites)
    out = {"halo_browserenv": summary(halo), "agisdk_slow_mo_0": summary(gym0),
           "episodes": {"halo_browserenv": halo, "agisdk_slow_mo_0": gym0}}
    h, g = out["halo_browserenv"]["steps_per_s"], out["agisdk_slow_mo_0"]["steps_per_s"]
    out["ratio_halo_vs_agisdk_slow_mo_0"] = round(h / g, 2) if h and g else None
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--no-browser", action="store_true", help="skip the oracle replay (no Chromium needed)")
    ap.add_argument("--agisdk", action="store_true", help="also replay the oracles through agisdk's BrowserGym env")
    ap.add_argument("--sites", nargs="+", choices=sorted(PAGES), default=list(PAGES),
                    help="sites to run; their rows replace theirs in --out, the other sites' rows are kept")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "shop_sites.json"))
    args = ap.parse_args()
    sites = tuple(args.sites)

    from real_local.server import SitesServer

    out = Path(args.out)
    res = json.loads(out.read_text()) if out.exists() and set(sites) != set(PAGES) else {}
    with SitesServer(sites=sites) as urls:
        res["machine"] = {"python": platform.python_version(), "cpus": __import__("os").cpu_count()}
        res.setdefault("latency", {}).update(latency(urls, args.rounds, sites))
        res.setdefault("memory", {}).update(memory_per_session(sites))
        if not args.no_browser:
            res.setdefault("oracles_browserenv", {}).update(asyncio.run(oracle_speed(urls, sites)))
        if args.agisdk:  # the original pair keeps its key; other site sets get their own
            key = "env_comparison_shop" if sites == ("omnizon", "zilloft") else f"env_comparison_{'+'.join(sites)}"
            res[key] = asyncio.run(compare(urls, sites))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=2) + "\n")
    print(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
