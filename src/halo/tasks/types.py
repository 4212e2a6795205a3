"""What a task is: ``Task`` (REAL's or a family instance, and where it runs), ``Grade`` (the verdict on its final
state), the train/test split of family instances, and REAL-local's default URLs. Plain data, no browser."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Literal

from halo.errors import ConfigError

TEST_EVERY = 5  # one family instance in five is held out (by a hash of family name and instance number)


# family -> the family whose instances it shares (a ladder's rungs share their top's: instance n is the same goal,
# parameters and split in each, so the top's held-out instances stay unseen); filled as families register
SHARED_INSTANCES: dict[str, str] = {}


def split_of(family: str, index: int) -> str:
    """``"train"`` or ``"test"``: a deterministic ~80/20 split by a hash of the family and instance number."""
    family = SHARED_INSTANCES.get(family, family)
    h = int.from_bytes(hashlib.sha256(f"{family}:{index}".encode()).digest()[:4], "big")
    return "test" if h % TEST_EVERY == 0 else "train"


DEFAULT_VERSION = "v2"
LOCAL_SITES = ("gomail", "gocalendar", "omnizon", "zilloft", "dashdish", "opendining", "udriver", "staynb", "marrisuite",
               "networkin", "topwork")
SitesMode = Literal["remote", "local"]
# REAL tasks no final state can pass: listed (``halo tasks``, ``list_tasks``) for completeness and runnable by id, but
# left out of the task sets training and evaluation take by name (``local``, a site: ``halo.tasks.resolve.resolve_tasks``), as
# an episode there can never be rewarded. Each with the reason.
UNGRADABLE: dict[str, str] = {
    "v2.gocalendar-11": "its eval script (eval_gocalendar_11.py) is empty: agisdk grades every final state FAILURE",
}


@dataclass(frozen=True)
class Task:
    id: str  # canonical: "v2.gomail-1"
    version: str
    name: str  # "gomail-1"
    site: str  # "gomail"
    goal: str
    base_url: str  # where episodes run (no trailing slash)
    remote_url: str  # REAL's own url for this task
    local: bool  # base_url is a REAL-local site
    points: float = 1.0
    eval_scripts: tuple[str, ...] = ()
    protocol: bool = True  # the site speaks REAL's protocol (/config, /finish); False for plain pages
    family: str = ""  # a task family's instance (``halo.tasks.families``): graded by the family, not by agisdk
    index: int = -1  # the instance number within its family
    start_path: str = ""  # where an episode opens under base_url ("/?view=cm&to=..."): a family's start state

    @property
    def start_url(self) -> str:
        """The page an episode opens (base_url, or a family's start page under it)."""
        return self.base_url + self.start_path

    @property
    def graded(self) -> bool:
        """Whether a terminal action gets a verdict (REAL's scripts or a family's checks)."""
        return bool(self.eval_scripts or self.family)

    @property
    def rewardable(self) -> bool:
        """False for a task no final state can pass (``UNGRADABLE``); such a task stays out of task sets."""
        return self.id not in UNGRADABLE

    @property
    def split(self) -> str:
        """``train``/``test`` for a family instance; ``benchmark`` for REAL's own tasks."""
        if not self.family:
            return "benchmark"
        return split_of(self.family, self.index)

    @property
    def number(self) -> int:
        return int(self.name.rsplit("-", 1)[1])


def page_task(url: str, goal: str = "", task_id: str = "page") -> Task:
    """A plain page as a task (tests, benchmarks, demos): no ``/config``, no ``/finish``, no grading."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https", "file", "data", "about") or (parts.scheme in ("http", "https")
                                                                         and not parts.netloc):
        raise ConfigError(f"page_task needs a full URL like http://127.0.0.1:8000/page.html, got {url!r}")
    loopback = (parts.hostname or "") in ("127.0.0.1", "localhost", "::1")
    return Task(id=task_id, version="", name=task_id, site="page", goal=goal, base_url=url, remote_url=url,
                local=loopback, points=0.0, eval_scripts=(), protocol=False)


def default_local_urls(host: str = "127.0.0.1", port: int | None = None) -> dict[str, str]:
    from real_local.ports import site_urls  # sites/ imports nothing of halo; this is the only link

    return site_urls(host=host, port=port)


@dataclass(frozen=True)
class Grade:
    """REAL's verdict on the final state: reward = task points iff every eval passed."""

    success: bool
    reward: float
    details: list[dict[str, Any]] = field(default_factory=list)  # one per eval: script, output, error
    finish_state: dict[str, Any] | None = None
