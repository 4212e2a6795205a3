"""Shared by the Omnizon and Zilloft tests: a real REAL-local server for the two sites, plain HTTP sessions that
start a task like REAL's harness does (/config then /finish), and grading through agisdk's evaluator."""

from __future__ import annotations

import httpx

from halo.tasks import get_task, grade


class HttpEpisode:
    """One browser-like session on a site: a cookie jar, started with /config for a task."""

    def __init__(self, base_url: str, task_id: str, run_id: str = "0"):
        self.task_id = task_id
        self.client = httpx.Client(base_url=base_url, follow_redirects=True, timeout=10)
        r = self.client.get("/config", params={"run_id": run_id, "task_id": task_id, "latency": 0})
        r.raise_for_status()

    def finish(self) -> dict:
        r = self.client.get("/finish.json")
        r.raise_for_status()
        return r.json()

    def grade(self, urls: dict[str, str], response: str = "Done"):
        return grade(get_task(self.task_id, sites="local", site_urls=urls), self.finish(), response)

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> "HttpEpisode":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def start_shop_server():
    """REAL-local serving Omnizon and Zilloft on free ports (the caller stops it)."""
    from halo.sites.server import SitesServer

    server = SitesServer(sites=("omnizon", "zilloft"))
    server.start()
    return server
