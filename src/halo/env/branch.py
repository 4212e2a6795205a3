"""Branchable episodes: what ``BrowserEnv.snapshot()`` records and ``restore()`` needs to return to a state.

Two ways back (MCTS explores many branches from one state, so restoring must be cheap):
- **fork** (REAL-local): the site copies the session's server-side state under a new session id
  (``/__halo/fork``, reached only by the env's request client); a fresh context gets that session, rebuilds the
  tab's history, opens the URL of the page's document and replays the actions taken on that document since it
  loaded (an open dialog, typed text: UI state that lives only in the page);
- **replay** (REAL's remote sites, or when a fork is gone): reset the task and replay every action from the start.

A restore by fork is checked against the snapshot (same element ids, roles and names, same state key); where it
differs, the env falls back to replay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from halo.env.actions import Action
from halo.env.types import Observation
from halo.errors import SiteError

RESTORE_METHODS = ("auto", "fork", "replay")


class RestoreDiverged(SiteError):
    """A restored page does not match its snapshot (the site or the page is not deterministic there)."""


@dataclass(frozen=True)
class Snapshot:
    """An episode's state, restorable any number of times, in any ``BrowserEnv`` on the same sites.

    ``actions``: every action since reset (replay); ``since_nav``: those taken on the current document (fork);
    ``sid``: the site's frozen copy of the session (REAL-local only); ``obs``: the observation at the state."""

    task: Any
    obs: Observation
    step: int
    actions: tuple[Action | dict[str, Any], ...]
    since_nav: tuple[Action, ...]
    history: tuple[str, ...]
    doc_url: str
    doc_start_id: int
    history_urls: tuple[str, ...] = ()
    sid: str | None = None
    state_key: str | None = None
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    @property
    def forkable(self) -> bool:
        return self.sid is not None


def same_page(a: Observation, b: Observation) -> str | None:
    """Where two observations of one state differ (element ids, roles, names, URL), or None."""
    if a.url != b.url:
        return f"url {b.url} != {a.url}"
    ea = {k: (e.role, e.name) for k, e in a.elements.items()}
    eb = {k: (e.role, e.name) for k, e in b.elements.items()}
    if ea != eb:
        diff = sorted(set(ea.items()) ^ set(eb.items()))[:4]
        return f"elements differ ({len(ea)} vs {len(eb)}; e.g. {diff})"
    return None
