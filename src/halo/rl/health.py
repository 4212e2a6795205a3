"""No silent runs: errored episodes counted by reason, and a run stopped when too many of them broke.

``run_episode`` turns every failure (browser, site, policy, grading, a deadline) into an errored episode, and GRPO
and evaluation leave errored episodes out. That keeps one bad episode from killing a night's run, but a run whose
episodes *all* break would otherwise train on nothing, or report a success rate over nothing, and exit 0. So every
GRPO iteration and every evaluation counts its errored episodes by reason (``metrics.jsonl``: ``errored`` and
``errors``; the console), and one where more than ``max_error_share`` (default 0.5) of the episodes errored stops
the run with one paragraph: what failed most, an example, and what to do.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from halo.errors import HaloError

DEFAULT_MAX_ERROR_SHARE = 0.5
EXAMPLE_CHARS = 300

# (reason, test on the lower-cased error), first match wins
_RULES: tuple[tuple[str, Any], ...] = (
    ("episode deadline", lambda e: e.startswith("episode deadline")),
    ("policy", lambda e: e.startswith("policyerror") or "policy server" in e),
    ("grading", lambda e: e.startswith("grading failed")),
    ("step deadline", lambda e: e.startswith("the step did not finish")),
    ("browser", lambda e: e.startswith("browsererror") or "browser" in e[:80]
     or any(c in e for c in ("target crashed", "page crashed", "renderer crashed"))),
    ("site", lambda e: e.startswith(("siteerror", "could not read", "the page did not answer")) or "/finish" in e
     or "answered http" in e or "is the site running" in e),
    ("config", lambda e: e.startswith(("configerror", "tasknotfounderror", "patterntimeout"))),
)

ADVICE = {
    "policy": "The policy server is not answering: check that it is up and serves the mode's model "
              "(`halo smoke --policy-url URL`), or point --base-url at one.",
    "browser": "Chromium keeps dying or hanging: check free memory and /dev/shm, run fewer episodes at once "
               "({fewer}), and run `halo smoke`.",
    "site": "The site is not answering: with --sites local check that nothing else holds REAL-local's ports; with "
            "--sites remote check the network (REAL's sites need internet), e.g. `halo smoke --site-url URL`.",
    "episode deadline": "Episodes ran out of time: find the slow part in the episode files (timings), lower "
                        "max_steps, or raise episode.episode_timeout_s.",
    "step deadline": "Steps stopped answering: the browser or the site hung; run `halo smoke` and check the site.",
    "grading": "REAL's grading (agisdk) failed: check agisdk==0.3.5 with `halo smoke`.",
    "config": "A task or setting is wrong: fix the value the error names.",
}


def error_reason(error: str | None) -> str:
    """A short reason for an errored episode's error: policy, browser, site, grading, episode deadline, step
    deadline, config, or the exception's name (``KeyError: 'x'``, ``TimeoutError (no message) ...``; else
    "other")."""
    e = (error or "").strip().lower()
    for reason, test in _RULES:
        if test(e):
            return reason
    m = re.match(r"([A-Z]\w*)(?::|\s\(no message\)|$)", (error or "").strip())  # an exception's name
    return m.group(1) if m else "other"


def exception_text(e: BaseException) -> str:
    """An exception as an episode's error: ``Name: message``, and where it was raised when it has no message
    (``TimeoutError (no message) at rollout.py:171 in _run_episode``), so that no errored episode is left
    without its reason."""
    msg = str(e)
    if msg:
        return f"{type(e).__name__}: {msg}"
    import traceback

    frames = traceback.extract_tb(e.__traceback__) if e.__traceback__ is not None else []
    where = f" at {frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno} in {frames[-1].name}" if frames else ""
    return f"{type(e).__name__} (no message){where}"


def count_reasons(errors: Iterable[str | None]) -> dict[str, int]:
    """``{reason: count}``, most frequent first."""
    return dict(Counter(error_reason(e) for e in errors).most_common())


@dataclass
class ErrorReport:
    total: int
    errored: int
    by_reason: dict[str, int] = field(default_factory=dict)
    examples: dict[str, str] = field(default_factory=dict)  # the first error of each reason

    @property
    def share(self) -> float:
        return self.errored / self.total if self.total else 0.0

    def too_many(self, max_share: float) -> bool:
        return self.total > 0 and self.share > max_share

    def line(self) -> str:
        """``errored 3/8 (policy 2, browser 1)``, or ``errored 0/8``."""
        parts = ", ".join(f"{r} {n}" for r, n in self.by_reason.items())
        return f"errored {self.errored}/{self.total}" + (f" ({parts})" if parts else "")

    def short_examples(self, limit: int = EXAMPLE_CHARS) -> dict[str, str]:
        """The first error of each reason, cut to ``limit`` characters (for metrics.jsonl and the console)."""
        return {r: x if len(x) <= limit else x[:limit] + f"... ({len(x)} chars)" for r, x in self.examples.items()}

    def paragraph(self, what: str, max_share: float, fewer: str = "--parallel") -> str:
        """The stop message; ``fewer``: the command's way to run fewer episodes at once (its own flags)."""
        top, n = next(iter(self.by_reason.items()), ("other", 0))
        example = self.short_examples().get(top, "")
        advice = ADVICE.get(top, "See the errors in the run's episode files (runs/<name>/episodes/*.jsonl).")
        advice = advice.format(fewer=fewer)
        others = ", ".join(f"{r} {k}" for r, k in list(self.by_reason.items())[1:])
        return (f"{what}: {self.errored} of {self.total} episodes errored ({self.share:.0%}, more than the "
                f"{max_share:.0%} max_error_share allows), so the run stopped rather than go on over what is left. "
                f"Most were '{top}' ({n}{'; then ' + others if others else ''}), for example: {example} "
                f"{advice} To go on despite errors, raise max_error_share (1.0 never stops).")


def error_report(episodes: Sequence[Any]) -> ErrorReport:
    """Count ``episodes`` (``rollout.Episode``: ``errored``, ``error``) by reason."""
    rep = ErrorReport(total=len(episodes), errored=0)
    counts: Counter[str] = Counter()
    for e in episodes:
        if not getattr(e, "errored", False):
            continue
        rep.errored += 1
        r = error_reason(e.error)
        counts[r] += 1
        rep.examples.setdefault(r, f"{getattr(e, 'task_id', '?')}: {e.error}")
    rep.by_reason = dict(counts.most_common())
    return rep


class RunUnhealthy(HaloError):
    """Too many episodes of an iteration or evaluation errored; the message is the paragraph to show."""

    def __init__(self, message: str, report: ErrorReport, result: Any = None):
        super().__init__(message)
        self.report = report
        self.result = result  # what the run had produced (an EvalResult), for the caller to print


def check_iteration(run: Any, iteration: int, groups: Sequence[Sequence[Any]], max_share: float) -> ErrorReport:
    """A GRPO iteration's errored episodes; past ``max_share`` a ``stopped`` record goes to metrics.jsonl (no
    iteration record: nothing was trained) and ``RunUnhealthy`` is raised before the update."""
    rep = error_report([e for g in groups for e in g])
    if rep.too_many(max_share):
        msg = rep.paragraph(f"GRPO iteration {iteration}", max_share,
                            "--parallel, i.e. grpo.parallel, or a smaller --group-size")
        if run is not None:
            run.log_metrics({"iteration": iteration, "kind": "stopped", "episodes": rep.total,
                             "errored": rep.errored, "errors": rep.by_reason, "error_examples": rep.short_examples(),
                             "reason": msg})
        raise RunUnhealthy(msg, rep)
    return rep


def error_counts(groups: Sequence[Sequence[Any]]) -> dict[str, int]:
    return error_report([e for g in groups for e in g]).by_reason


def error_examples(groups: Sequence[Sequence[Any]]) -> dict[str, str]:
    """The first error of each reason of the groups' errored episodes (``task: error``, cut short)."""
    return error_report([e for g in groups for e in g]).short_examples()
