"""Validation at the door: every config value and flag checked before any model, browser or site starts.

A bad value must fail in seconds with the key, the value and the fix, never an hour later inside AdamW or at the
first successful episode. The CLI commands and ``halo.train`` call these:

- ``check_types``: a dataclass's values have its fields' types (``lr: fast``, ``lora.rank: [1, 2]``);
- ``check_rl_config`` / ``check_training``: ranges (lr > 0, a known loss type, group size >= 2 unless allowed, ...);
- ``load_yaml``: YAML where ``1e-5`` is a number (PyYAML's YAML 1.1 reads it as the string "1e-5");
- ``resolve_task_refs``: task ids, site names and family specs resolved (``--tasks gomial`` fails here);
- ``check_runs_dir``: the runs directory is writable;
- preflights of the external services a job needs, each failing in seconds with the URL and the fix:
  ``check_policy_server`` (an OpenAI-compatible / vLLM mode) and ``check_sites_reachable`` (``--sites remote``).
"""

from __future__ import annotations

import asyncio
import math
import os
import re
import tempfile
import types
import typing
from pathlib import Path
from typing import Any, Iterable, Sequence
from urllib.parse import urlsplit

import yaml

from halo.errors import ConfigError, PolicyError, SiteError

LOSS_TYPES = ("dr_grpo", "grpo", "token_mean")
PREFLIGHT_TIMEOUT_S = 5.0
RL_SECTIONS = ("policy", "episode", "grpo", "lora", "rewards", "mcts")
EPISODE_KEYS = ("max_steps", "history", "episode_timeout_s")


# ---------------------------------------------------------------- YAML
class _Loader(yaml.SafeLoader):
    """SafeLoader that reads ``1e-5`` and ``3E+2`` as floats, as YAML 1.2 and every user do."""


_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
                    |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
                    |\.[0-9_]+(?:[eE][-+]?[0-9]+)?
                    |[-+]?\.(?:inf|Inf|INF)
                    |\.(?:nan|NaN|NAN))$""", re.X),
    list("-+0123456789."))


def load_yaml(text: str) -> Any:
    return yaml.load(text, Loader=_Loader)


# ---------------------------------------------------------------- types
def _type_name(t: Any) -> str:
    return {int: "an integer", float: "a number", str: "a string", bool: "true or false"}.get(t, str(t))


def _check_value(v: Any, t: Any, where: str) -> None:
    origin, args = typing.get_origin(t), typing.get_args(t)
    if t is Any or t is None:
        return
    if origin in (typing.Union, types.UnionType):
        if v is None and type(None) in args:
            return
        errors = []
        for a in args:
            if a is type(None):
                continue
            try:
                _check_value(v, a, where)
                return
            except ConfigError as e:
                errors.append(str(e))
        raise ConfigError(errors[0] if len(errors) == 1 else f"{where}: {v!r} has none of the types {t}")
    if origin is typing.Literal:
        if v not in args:
            raise ConfigError(f"{where} must be one of {', '.join(map(repr, args))}, got {v!r}")
        return
    if origin in (tuple, list):
        if not isinstance(v, (list, tuple)):
            raise ConfigError(f"{where} must be a list, got {v!r} ({type(v).__name__})")
        if origin is tuple and args and args[-1] is not Ellipsis and len(v) != len(args):
            raise ConfigError(f"{where} must be a list of {len(args)} values, got {v!r}")
        elem = [args[0]] * len(v) if origin is list or (args and args[-1] is Ellipsis) else list(args)
        for i, (x, a) in enumerate(zip(v, elem)):
            _check_value(x, a, f"{where}[{i}]")
        return
    if origin is dict:
        if not isinstance(v, dict):
            raise ConfigError(f"{where} must be a mapping, got {v!r} ({type(v).__name__})")
        return
    if t is bool:
        ok = isinstance(v, bool)
    elif t is int:
        ok = isinstance(v, int) and not isinstance(v, bool)
    elif t is float:
        ok = isinstance(v, (int, float)) and not isinstance(v, bool)
        if ok and not math.isfinite(v):
            raise ConfigError(f"{where} must be a finite number, got {v!r}")
    elif t is str:
        ok = isinstance(v, str)
    else:
        return  # a type this check does not know: the dataclass's own checks apply
    if not ok:
        hint = " (quote-free numbers like 1e-5 are numbers; 'fast' is not)" if t is float and isinstance(v, str) else ""
        raise ConfigError(f"{where} must be {_type_name(t)}, got {v!r} ({type(v).__name__}){hint}")


def check_types(cls: type, values: dict[str, Any], where: str) -> None:
    """Each of ``values`` (field name -> value) has the type ``cls``'s field declares; ``ConfigError`` naming
    ``where.key`` otherwise. Unknown keys are left to the caller."""
    hints = typing.get_type_hints(cls)
    for k, v in values.items():
        if k in hints:
            _check_value(v, hints[k], f"{where}.{k}" if where else k)


# ---------------------------------------------------------------- rl_config and settings
def check_rl_config(cfg: dict[str, Any], where: str = "rl_config") -> None:
    """Sections and the ``episode`` section (the other sections are checked when they are built)."""
    for k, v in cfg.items():
        if k not in RL_SECTIONS:
            raise ConfigError(f"{where}: unknown section {k!r}; known: {', '.join(RL_SECTIONS)}")
        if v is not None and not isinstance(v, dict):
            raise ConfigError(f"{where}: section {k} must be a mapping, got {v!r}")
    ep = cfg.get("episode") or {}
    unknown = set(ep) - set(EPISODE_KEYS)
    if unknown:
        raise ConfigError(f"{where} episode: unknown keys {sorted(unknown)}; known: {', '.join(EPISODE_KEYS)}")
    for k, t in (("max_steps", int), ("history", int), ("episode_timeout_s", float)):
        if k in ep:
            _check_value(ep[k], t, f"{where} episode.{k}")
            if not ep[k] > 0:
                raise ConfigError(f"{where} episode.{k} must be > 0, got {ep[k]}")


def _positive(v: Any, where: str, zero_ok: bool = False) -> None:
    if not (v >= 0 if zero_ok else v > 0):
        raise ConfigError(f"{where} must be {'>= 0' if zero_ok else '> 0'}, got {v}")


def check_training(settings: Any, optim: Any, lora: Any, *, allow_group_size_one: bool = False) -> None:
    """Ranges of GRPO's settings (``GRPOSettings``, ``OptimSettings``, ``LoRASettings``, types already checked)."""
    if optim.loss_type not in LOSS_TYPES:
        raise ConfigError(f"loss_type must be one of {', '.join(LOSS_TYPES)}, got {optim.loss_type!r}")
    _positive(optim.lr, "lr (learning rate)")
    _positive(optim.clip_eps, "clip_eps")
    _positive(optim.max_grad_norm, "max_grad_norm")
    _positive(optim.kl_coef, "kl_coef", zero_ok=True)
    _positive(optim.entropy_coef, "entropy_coef", zero_ok=True)
    if optim.lr_final is not None:
        _positive(optim.lr_final, "lr_final", zero_ok=True)
    _positive(optim.weight_decay, "weight_decay", zero_ok=True)
    _positive(optim.max_tokens, "max_tokens")
    _positive(optim.pack_rows, "pack_rows")
    _positive(optim.pack_tokens, "pack_tokens")
    if not all(0 <= b < 1 for b in optim.betas):
        raise ConfigError(f"betas must be two numbers in [0, 1), got {optim.betas}")
    _positive(lora.rank, "lora rank")
    _positive(lora.alpha, "lora alpha")
    if not 0 <= lora.dropout < 1:
        raise ConfigError(f"lora dropout must be in [0, 1), got {lora.dropout}")
    if not lora.target_modules:
        raise ConfigError("lora target_modules must name at least one module (q_proj, v_proj, ...)")
    if settings.group_size < 2 and not allow_group_size_one:
        raise ConfigError(f"group_size {settings.group_size}: GRPO's advantage is an episode's return minus its "
                          f"group's mean, so a group of 1 learns nothing; use --group-size 2 or more (or pass "
                          f"--allow-group-size-one to run it anyway)")
    _positive(settings.temperature, "temperature", zero_ok=True)
    _positive(settings.episode_timeout_s, "episode_timeout_s")


# ---------------------------------------------------------------- tasks, runs dir
def resolve_task_refs(refs: Sequence[str], sites: str, goal: str | None = None) -> list[Any]:
    """Resolve ``refs`` as the job will (REAL-local at its default URLs; the job serves them on its own ports)."""
    from halo.eval import resolve_tasks

    if sites not in ("local", "remote"):
        raise ConfigError(f"--sites must be 'local' or 'remote', got {sites!r}")
    return resolve_tasks(list(refs), sites, None, goal=goal)


def check_runs_dir(path: str | os.PathLike) -> Path:
    p = Path(path)
    try:
        p.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=p, prefix=".halo-write-check-"):
            pass
    except OSError as e:
        raise ConfigError(f"runs directory {p} is not writable ({e.strerror or e}); pass --runs-dir a directory "
                          f"you can write to") from None
    return p


# ---------------------------------------------------------------- preflights
async def check_policy_server(mode: Any) -> None:
    """An OpenAI-compatible mode's server answers ``GET /models`` (and serves the model, for vLLM) within seconds;
    ``PolicyError`` with the URL and the fix otherwise. In-process (``hf``) modes need nothing."""
    if getattr(mode, "backend", "hf") == "hf":
        return
    from halo.policy.modes import make_policy

    policy = make_policy(mode)
    try:
        await asyncio.wait_for(policy.check(), PREFLIGHT_TIMEOUT_S * 2 + 1)
    except TimeoutError:
        raise PolicyError(f"the policy server at {mode.server.base_url} did not answer GET /models within "
                          f"{PREFLIGHT_TIMEOUT_S * 2:.0f} s; check it (`halo smoke --policy-url "
                          f"{mode.server.base_url}`) or start one with `halo serve-policy --mode {mode.name}`") from None
    finally:
        await policy.aclose()


def _site_origins(tasks: Iterable[Any]) -> list[str]:
    out: list[str] = []
    for t in tasks:
        url = getattr(t, "base_url", "")
        if (getattr(t, "local", False) and getattr(t, "protocol", True)) or not url.startswith(("http://", "https://")):
            continue  # REAL-local: the job serves it itself
        p = urlsplit(url)
        origin = f"{p.scheme}://{p.netloc}"
        if origin not in out:
            out.append(origin)
    return out


async def check_sites_reachable(tasks: Iterable[Any], timeout: float = PREFLIGHT_TIMEOUT_S) -> None:
    """Every remote site (and http page) the tasks use answers within ``timeout`` (any HTTP status: the site is
    up); ``SiteError`` naming the unreachable URLs and the fix otherwise. ``file://`` pages must exist."""
    import httpx

    tasks = list(tasks)
    for t in tasks:
        url = getattr(t, "base_url", "")
        if url.startswith("file://") and not Path(urlsplit(url).path).exists():
            raise ConfigError(f"page {url} does not exist")
    origins = _site_origins(tasks)
    if not origins:
        return

    async def probe(client: httpx.AsyncClient, origin: str) -> str | None:
        try:
            await client.get(origin + "/", timeout=timeout)
            return None
        except httpx.HTTPError as e:
            return f"{origin} ({type(e).__name__}{': ' + str(e) if str(e) else ''})"

    async with httpx.AsyncClient(follow_redirects=False) as client:
        bad = [b for b in await asyncio.gather(*(probe(client, o) for o in origins)) if b]
    if bad:
        raise SiteError(f"cannot reach {len(bad)} of the {len(origins)} sites these tasks use within {timeout:.0f} s: "
                        f"{'; '.join(bad[:4])}. REAL's remote sites need internet access: check the network or "
                        f"proxy, or run the same task ids on REAL-local with --sites local")


async def preflight(mode: Any, tasks: Sequence[Any]) -> None:
    """Every external service a job needs, concurrently: the policy server and remote sites."""
    for r in await asyncio.gather(check_policy_server(mode), check_sites_reachable(tasks), return_exceptions=True):
        if isinstance(r, BaseException):
            raise r


async def validate_grpo_job(job: Any, cfg: dict[str, Any], mode: Any, settings: Any, optim: Any, lora: Any) -> None:
    """Everything ``halo train grpo`` (``halo.train.setup_grpo``) needs, checked before the model loads, the run
    directory is written or a browser or site starts."""
    check_rl_config(cfg)
    check_training(settings, optim, lora, allow_group_size_one=getattr(job, "allow_group_size_one", False))
    check_runs_dir(job.runs_dir)
    if lora.modules_to_save and mode.backend != "hf":
        raise ConfigError(f"lora.modules_to_save {list(lora.modules_to_save)}: a vLLM server hot-loads LoRA "
                          f"adapters only, not fully trained modules; train them with an in-process (hf) mode such "
                          f"as tiny, or leave lora.modules_to_save empty for mode {mode.name}")
    if getattr(settings, "explore", 0) and (mode.backend != "hf" or not mode.decoding_config().constrained
                                            or getattr(job, "ray", None) is not None):
        raise ConfigError(f"grpo.explore {settings.explore}: exploration draws replies in HALO's own sampler under the "
                          f"action grammar, so it needs an in-process (hf) mode with decoding.constrained (as tiny) "
                          f"and no --ray; mode {mode.name} is {mode.backend}"
                          f"{'' if mode.decoding_config().constrained else ', unconstrained'}")
    tasks = resolve_task_refs(job.tasks, job.sites)
    await preflight(mode, tasks)
