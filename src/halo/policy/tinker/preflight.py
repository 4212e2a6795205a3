"""Ask the Tinker server what it offers before anything starts, and refuse a run it cannot serve.

The SDK's capability call (``tinker.RestClient().get_server_capabilities()``, no training session needed)
answers the models the caller may use, each with ``trainable`` / ``sampleable``. A run whose model the server
does not offer, or offers but cannot train, stops in one line that lists what it does offer: before any site,
browser or training client starts.

Loss functions: the capability answer of tinker 0.38 carries no loss list, so a server's losses are, in order,
the list its answer carries (``supported_loss_fns``, read when an SDK passes one through), ``--server-loss-fns``,
every loss of the SDK for hosted Tinker, and for a self-hosted Tinker API (any other URL) the two SkyRL's
implements: ``cross_entropy`` and ``importance_sampling`` (no KL).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from halo.errors import ConfigError
from halo.policy.tinker.models import RETIRED

API_KEY_ENV = "TINKER_API_KEY"
URL_ENV = "TINKER_BASE_URL"  # the Tinker SDK's own: the service (or a self-hosted Tinker API) to talk to


class MissingApiKeyError(ConfigError):
    """No Tinker key in the environment."""


def require_tinker_api_key(env: dict[str, str] | None = None) -> str:
    """The key, or a ``MissingApiKeyError`` saying how to get one. Call before starting sites or browsers."""
    key = (env if env is not None else os.environ).get(API_KEY_ENV, "").strip()
    if not key:
        raise MissingApiKeyError(
            f"{API_KEY_ENV} is not set, so Tinker cannot be reached; nothing was started. Get a key from the "
            f"Tinker console (https://tinker-console.thinkingmachines.ai), then `export {API_KEY_ENV}=...` and "
            "run again (a self-hosted Tinker API, --tinker-url, takes whatever key it was started with, e.g. "
            "tml-dummy). To try the env and rollouts without Tinker, run the offline test: `pytest tests/tinker`.")
    return key


def check_tinker_reachable(base_url: str | None = None, timeout_s: float = 10.0) -> str:
    """The service URL if it answers HTTP at all (any status), else ``ConfigError``: offline, the Tinker client
    would retry for minutes without a word. Call after the key check, before starting sites or browsers."""
    import httpx
    from tinker.lib.base_url import resolve_base_url

    url = resolve_base_url(base_url)
    try:
        httpx.get(url, timeout=timeout_s)
    except httpx.HTTPError as e:
        raise ConfigError(f"cannot reach Tinker at {url} ({type(e).__name__}: {e}); check the network or proxy, or "
                          f"set --tinker-url / {URL_ENV}; nothing was started") from None
    return url


SELF_HOSTED_LOSS_FNS = ("cross_entropy", "importance_sampling")  # SkyRL's Tinker API (docs/TINKER.md)
HOSTED_HOST_SUFFIXES = ("thinkingmachines.dev", "thinkingmachines.ai")


def hosted_loss_fns() -> tuple[str, ...]:
    """Every loss the Tinker SDK can ask for (hosted Tinker implements them all)."""
    from typing import get_args

    from tinker.types import LossFnType

    return tuple(x for x in get_args(LossFnType) if x != "custom")


def is_hosted(url: str) -> bool:
    host = urlparse(url).hostname or ""
    return any(host == s or host.endswith("." + s) for s in HOSTED_HOST_SUFFIXES)


@dataclass(frozen=True)
class ServerModel:
    name: str
    trainable: bool = True  # the SDK's fields are optional: absent means "not said", taken as yes
    sampleable: bool = True


@dataclass(frozen=True)
class Capabilities:
    """What one Tinker(-API) server offers."""

    url: str
    models: tuple[ServerModel, ...]
    loss_fns: tuple[str, ...]
    loss_source: str  # where loss_fns came from: "server", "--server-loss-fns", "hosted", "self-hosted"

    @property
    def hosted(self) -> bool:
        return is_hosted(self.url)

    def model(self, name: str) -> ServerModel | None:
        return next((m for m in self.models if m.name == name), None)

    def names(self, training: bool = True) -> list[str]:
        return [m.name for m in self.models if (m.trainable if training else m.sampleable)]


def capabilities_from_response(resp: Any, url: str, loss_fns: Sequence[str] | None = None) -> Capabilities:
    """``Capabilities`` from a ``GetServerCapabilitiesResponse`` (or anything shaped like one)."""
    models = []
    for m in getattr(resp, "supported_models", None) or []:
        name = getattr(m, "model_name", None)
        if name:
            models.append(ServerModel(name, getattr(m, "trainable", None) is not False,
                                      getattr(m, "sampleable", None) is not False))
    told = getattr(resp, "supported_loss_fns", None) or (getattr(resp, "model_extra", None) or {}).get(
        "supported_loss_fns")
    if told:
        losses, source = tuple(told), "server"
    elif loss_fns:
        losses, source = tuple(loss_fns), "--server-loss-fns"
    elif is_hosted(url):
        losses, source = hosted_loss_fns(), "hosted"
    else:
        losses, source = SELF_HOSTED_LOSS_FNS, "self-hosted"
    return Capabilities(url, tuple(models), losses, source)


def fetch_capabilities(url: str, api_key: str | None = None, timeout_s: float = 30.0,
                       loss_fns: Sequence[str] | None = None) -> Capabilities:
    """The server's answer to the SDK's capability call. ``ConfigError`` (one line) when it gives none."""
    import tinker

    try:
        resp = tinker.RestClient(base_url=url, api_key=api_key).get_server_capabilities().result(timeout=timeout_s)
    except Exception as e:  # noqa: BLE001 - auth, HTTP status, timeout: all end the run before it starts
        msg = " ".join(str(e).split())[:300]
        raise ConfigError(f"the Tinker server at {url} did not answer its capability call ({type(e).__name__}: "
                          f"{msg}); check TINKER_API_KEY and --tinker-url; nothing was started") from None
    return capabilities_from_response(resp, url, loss_fns)


def check_capabilities(caps: Capabilities, model: str, loss_fn: str | None = None, training: bool = True) -> None:
    """``ConfigError`` in one line when ``caps`` cannot serve this model (to train, or to sample) or loss."""
    where = "hosted Tinker" if caps.hosted else f"the Tinker API at {caps.url}"
    use = "train" if training else "sample"
    offered = caps.names(training)
    m = caps.model(model)
    if m is None or not (m.trainable if training else m.sampleable):
        why = "does not offer" if m is None else f"lists but cannot {use}"
        note = (f"retired from hosted Tinker on {RETIRED[model]}: train it on a self-hosted Tinker API, "
                "--tinker-url" if caps.hosted and model in RETIRED else None)
        listing = ", ".join(offered) if offered else "none"
        raise ConfigError(f"{where} {why} {model} ({note or 'pass another --model'}); models it can {use}: "
                          f"{listing}; nothing was started")
    if training and loss_fn is not None and loss_fn not in caps.loss_fns:
        raise ConfigError(f"{where} does not support --loss-fn {loss_fn} ({caps.loss_source} losses: "
                          f"{', '.join(caps.loss_fns)}); pass one of them; nothing was started")


def preflight(model: str, loss_fn: str | None, base_url: str | None = None, training: bool = True,
              loss_fns: Sequence[str] | None = None,
              fetch: Callable[[str], Capabilities] | None = None) -> Capabilities:
    """Resolve the server URL, ask it its capabilities, check the run against them. ``fetch`` replaces the
    network call (offline tests script the answer)."""
    from tinker.lib.base_url import resolve_base_url

    url = resolve_base_url(base_url)
    caps = fetch(url) if fetch is not None else fetch_capabilities(url, loss_fns=loss_fns)
    check_capabilities(caps, model, loss_fn, training)
    return caps
