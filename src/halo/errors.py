"""One exception root for HALO; each error says what happened and what to do next."""

from __future__ import annotations


class HaloError(Exception):
    """Base of every error HALO raises on purpose."""


class ConfigError(HaloError, ValueError):
    """A setting, flag or config file value is wrong."""


class ActionError(HaloError, ValueError):
    """An action is malformed or out of range (never raised by the parser, which returns errors as data)."""


class TaskNotFoundError(HaloError, KeyError):
    """A task id is not in the registry."""

    def __str__(self) -> str:  # KeyError quotes its message; keep it readable
        return str(self.args[0]) if self.args else "task not found"


class BrowserError(HaloError, RuntimeError):
    """The browser could not be launched or died."""


class SiteError(HaloError, RuntimeError):
    """A site (REAL remote or REAL-local) did not answer as REAL's protocol expects."""


class PolicyError(HaloError, RuntimeError):
    """A policy backend failed (server unreachable, bad response, model missing)."""
