"""The REAL v2 tasks REAL-local serves, from its own index (``tasks_v2.json``: id, site, goal and hosted URL of each
of agisdk 0.3.5's 121 v2 tasks), so that ``real-local tasks`` works without agisdk installed. A test checks the
index against agisdk's own task files; grading stays agisdk's (its ``eval_*`` scripts over ``/finish``)."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

INDEX = Path(__file__).with_name("tasks_v2.json")
V1_ID = re.compile(r"v1\.[a-z]+-[0-9]+")


@dataclass(frozen=True)
class RealTask:
    id: str  # "v2.gomail-1"
    site: str  # "gomail"
    goal: str
    hosted_url: str  # where REAL hosts the site (real_local.hosted.route_hosted answers it locally)


@functools.lru_cache(maxsize=1)
def v2_tasks() -> tuple[RealTask, ...]:
    """Every v2 task, by site then number."""
    rows = json.loads(INDEX.read_text(encoding="utf-8"))["tasks"]
    return tuple(RealTask(r["id"], r["site"], r["goal"], r["hosted_url"]) for r in rows)
