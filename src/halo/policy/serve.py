"""The ``vllm serve`` command for a mode: LoRA enabled with runtime updating, so trainers can hot-load adapters
(``POST /v1/load_lora_adapter``), context length and GPU memory share from the mode's ``serve`` settings."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from dataclasses import dataclass

from halo.errors import ConfigError, PolicyError
from halo.policy.modes import ModeConfig


@dataclass(frozen=True)
class ServeCommand:
    argv: list[str]
    env: dict[str, str]  # added to the environment

    def shell(self) -> str:
        envs = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env.items())
        return f"{envs} {shlex.join(self.argv)}".strip()


def vllm_command(mode: ModeConfig) -> ServeCommand:
    if mode.backend != "openai" or mode.server.kind != "vllm":
        raise ConfigError(f"mode {mode.name} is not served by vLLM (backend {mode.backend}, "
                          f"server kind {mode.server.kind}); choose qwen3vl_base, qwen3vl_grpo or qwen3vl_mcts")
    s = mode.serve
    argv = ["vllm", "serve", mode.model, "--host", s.host, "--port", str(s.port),
            "--max-model-len", str(s.max_model_len), "--gpu-memory-utilization", str(s.gpu_memory_utilization),
            "--tensor-parallel-size", str(s.tensor_parallel_size),
            "--limit-mm-per-prompt", json.dumps({"image": 1, "video": 0}),
            "--generation-config", "vllm",  # sampling defaults from the request, not the hub's generation_config
            "--logprobs-mode", "processed_logprobs",  # after temperature: log_softmax(logits / T), as hf_backend
            "--enable-lora", "--max-lora-rank", str(s.max_lora_rank), "--max-loras", str(s.max_loras)]
    if mode.adapter:
        argv += ["--lora-modules", f"{mode.lora_name or 'adapter'}={mode.adapter}"]
    argv += list(s.extra_args)
    return ServeCommand(argv=argv, env={"VLLM_ALLOW_RUNTIME_LORA_UPDATING": "True"})


def run(cmd: ServeCommand) -> int:
    """Run the server in the foreground until it exits (Ctrl-C stops it)."""
    if shutil.which(cmd.argv[0]) is None:
        raise PolicyError("vllm is not installed here: on a GPU machine run `pip install -e '.[gpu]'` "
                          "(vLLM >= 0.11 for Qwen3-VL), or use --dry-run to print the command")
    try:
        return subprocess.call(cmd.argv, env={**os.environ, **cmd.env})
    except KeyboardInterrupt:
        return 130
