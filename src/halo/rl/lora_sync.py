"""Hot-loading each new LoRA adapter into a running vLLM server (runtime LoRA updating), and the adapter version of
every request the sampler makes.

vLLM serves an adapter under a name; requests pick it with ``model=<name>``. Each update gets a new versioned name
(``<prefix>-v<iteration>``) so no request ever mixes weights; the sampler switches to it for its next requests.
Needs ``vllm serve --enable-lora`` with ``VLLM_ALLOW_RUNTIME_LORA_UPDATING=True`` (``halo serve-policy``).

Versions (as ``rl/pipeline.py`` numbers them): the name loaded after iteration i's update is version i + 1; the
name the sampler starts with (the mode's base model or adapter, or on a resume the adapter loaded from the
checkpoint) is the run's starting version (0, or the iteration it resumes at: ``begin``). The sampler takes a name
and its version for each request (``acquire``, in ``OpenAIPolicy.complete``) and records that version on the
request's completions, so an episode that spans an update records the version of each of its steps.

Retiring names (asynchronous GRPO samples while a sync loads the next adapter): every request holds a reference on
the name it was sent with from before it is sent until its answer (or failure) is in (``acquire`` / ``release``).
A name this sync loaded is unloaded as soon as it is no longer the current name and no request holds it: at the
switch for names already idle, else when the last request on it ends. An episode takes the current name afresh at
each step, so no step of an unfinished episode can use a name once it is retired (its next step uses the current
one); nothing else may use a retired name. The starting name is not this sync's and is never unloaded. In turn
(``max_staleness`` 0) no request is in flight at a sync, so the previous name goes at the switch, as before.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass
class LoraSync:
    """Callable as the GRPO trainer's ``sync(iteration, adapter_dir)``. ``sampler`` is an ``OpenAIPolicy``; the sync
    attaches itself as the sampler's ``lora_versions``, through which each request acquires and releases its name."""

    sampler: Any
    prefix: str = "halo-grpo"
    loaded: list[str] = field(default_factory=list)  # names this sync loaded and has not unloaded yet
    versions: dict[str, int] = field(default_factory=dict)  # served name -> adapter version
    in_use: Counter[str] = field(default_factory=Counter)  # name -> requests in flight on it
    unloaded: list[str] = field(default_factory=list)  # names retired so far, in order (for metrics and tests)

    def __post_init__(self) -> None:
        self.versions.setdefault(self.sampler.server.model, 0)
        self.sampler.lora_versions = self

    @property
    def current(self) -> str:
        return self.sampler.server.model

    @property
    def version(self) -> int | None:
        """The version of the name the sampler's next request uses."""
        return self.versions.get(self.current)

    def name_for(self, iteration: int) -> str:
        return f"{self.prefix}-v{iteration:06d}"

    def begin(self, version: int) -> None:
        """The run starts (or resumes) sampling at ``version`` with the current name."""
        self.versions[self.current] = version

    def acquire(self, name: str) -> int | None:
        """A request is about to be sent with ``model=name``: hold the name, and return its version."""
        self.in_use[name] += 1
        return self.versions.get(name)

    async def release(self, name: str) -> None:
        """The request on ``name`` is over (answered or failed): let the name go, and unload it if it was the last
        request on a retired name."""
        self.in_use[name] -= 1
        if self.in_use[name] <= 0:
            del self.in_use[name]
            await self._retire([name])

    async def _retire(self, names: list[str]) -> None:
        """Unload those of ``names`` this sync loaded that are neither current nor held by a request. Each is taken
        off ``loaded`` before the await, so a concurrent release or sync never unloads it twice."""
        idle = [n for n in names if n in self.loaded and n != self.current and not self.in_use.get(n)]
        for n in idle:
            self.loaded.remove(n)
        for n in idle:
            await self.sampler.unload_lora_adapter(n)
            self.unloaded.append(n)

    async def __call__(self, iteration: int, adapter_dir: str) -> str:
        name = self.name_for(iteration)
        await self.sampler.load_lora_adapter(name, adapter_dir)
        self.versions[name] = iteration + 1
        self.loaded = [*(n for n in self.loaded if n != name), name]
        self.sampler.server = dataclasses.replace(self.sampler.server, model=name)
        await self._retire(list(self.loaded))  # the names no request holds go now, the others at their last release
        return name
