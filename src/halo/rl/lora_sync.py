"""Hot-loading each new LoRA adapter into a running vLLM server (runtime LoRA updating).

vLLM serves an adapter under a name; requests pick it with ``model=<name>``. Each update gets a new versioned name
(``<prefix>-v<iteration>``) so no request ever mixes weights; the sampler switches to it, then the previous one is
unloaded. Needs ``vllm serve --enable-lora`` with ``VLLM_ALLOW_RUNTIME_LORA_UPDATING=True`` (``halo serve-policy``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any


@dataclass
class LoraSync:
    """Callable as the GRPO trainer's ``sync(iteration, adapter_dir)``. ``sampler`` is an ``OpenAIPolicy``."""

    sampler: Any
    prefix: str = "halo-grpo"
    loaded: list[str] = field(default_factory=list)

    def name_for(self, iteration: int) -> str:
        return f"{self.prefix}-v{iteration:06d}"

    async def __call__(self, iteration: int, adapter_dir: str) -> str:
        name = self.name_for(iteration)
        await self.sampler.load_lora_adapter(name, adapter_dir)
        self.sampler.server = dataclasses.replace(self.sampler.server, model=name)
        old, self.loaded = self.loaded, [name]
        for n in old:  # after the switch: in-flight requests on the old name have finished (rollouts are done)
            await self.sampler.unload_lora_adapter(n)
        return name
