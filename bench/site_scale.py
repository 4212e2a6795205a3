"""REAL-local's first four sites at their issue-16 scale (hundreds of generated records around REAL's own):
p50 page latency (server render + loopback HTTP) and memory per session, with the counts of records, measured in one
run with the page sets and methods of bench/mail_calendar_bench.py (GoMail, GoCalendar) and
bench/shop_sites_bench.py (Omnizon, Zilloft). The numbers those files hold from before the scale change are copied
beside them (other runs, other load: context, not a ratio). Writes bench/results/site_scale.json.

Run: .venv/bin/python bench/site_scale.py [--rounds 30]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

BEFORE_COMMIT = "f7baa07"  # the last commit before the sites grew


def counts() -> dict[str, int]:
    from real_local.gocalendar.seed import seed as calendar_seed
    from real_local.gomail.seed import seed as mail_seed
    from real_local.omnizon.catalog import PRODUCTS
    from real_local.zilloft.listings import LISTINGS

    return {"gomail_emails": len(mail_seed()["email"]["emails"]),
            "gocalendar_events": len(calendar_seed()["calendar"]["events"]),
            "omnizon_products": len(PRODUCTS), "zilloft_listings": len(LISTINGS)}


def before(name: str) -> dict:
    """The committed results file as it was before the scale change (latency and memory only)."""
    out = subprocess.run(["git", "show", f"{BEFORE_COMMIT}:bench/results/{name}"], cwd=ROOT, capture_output=True,
                         text=True, check=False).stdout
    d = json.loads(out) if out else {}
    return {"latency": d.get("latency", {}), "memory": d.get("memory", {}),
            "loadavg_at_start": d.get("machine", {}).get("loadavg_at_start")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "site_scale.json"))
    a = ap.parse_args()
    logging.disable(logging.WARNING)
    import mail_calendar_bench as mc
    import shop_sites_bench as shop

    from real_local.server import SitesServer

    shops = ("omnizon", "zilloft")
    with SitesServer(("gomail", "gocalendar", *shops)) as urls:
        result = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                              "loadavg_at_start": os.getloadavg()},
                  "records": counts(),
                  "latency": {**mc.latency(urls, a.rounds), **shop.latency(urls, a.rounds, shops)},
                  "memory": {**mc.memory_per_session(), **shop.memory_per_session(shops)}}
    prev_mc, prev_shop = before("mail_calendar.json"), before("shop_sites.json")
    result["before_scale_change"] = {
        "commit": BEFORE_COMMIT, "records": {"gomail_emails": 56, "gocalendar_events": 22, "omnizon_products": 61,
                                             "zilloft_listings": 48},
        "latency": {s: (prev_mc["latency"] | prev_shop["latency"]).get(s) for s in ("gomail", "gocalendar", *shops)},
        "memory": {s: (prev_mc["memory"] | prev_shop["memory"]).get(s) for s in ("gomail", "gocalendar", *shops)},
        "loadavg_at_start": {"mail_calendar": prev_mc["loadavg_at_start"], "shop_sites": prev_shop["loadavg_at_start"]}}
    Path(a.out).write_text(json.dumps(result, indent=1))
    for s in ("gomail", "gocalendar", *shops):
        lat, mem = result["latency"][s], result["memory"][s]
        p50 = lat.get("http_p50_ms", lat.get("p50_ms_over_pages"))  # the two benches name it differently
        kib = mem.get("kib_per_session", round(mem.get("bytes_per_session", 0) / 1024, 1))
        print(f"{s:11s} page p50 over loopback HTTP {p50} ms, {kib} KiB per session")
    print("wrote", a.out)


if __name__ == "__main__":
    main()
