"""What every training job sets up the same way (halo.jobs.setup): with a vLLM mode that names an adapter, the local
learner of GRPO and of MCTS starts from that adapter, so its updates continue the weights vLLM samples with (the
MCTS job once built its learner from the base weights alone)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.ml


@pytest.fixture
def trained_adapter(tiny_model, tmp_path):
    """A LoRA adapter of the tiny model whose B matrices are all 0.01 (a fresh adapter's are 0)."""
    import torch

    from halo.policy.hf_backend import HFPolicy
    from halo.rl.config import LoRASettings
    from halo.rl.learner import LoRALearner

    learner = LoRALearner(HFPolicy(tiny_model), LoRASettings(rank=4, alpha=8))
    with torch.no_grad():
        for n, p in learner.model.named_parameters():
            if "lora_B" in n:
                p.fill_(0.01)
    path = tmp_path / "adapter"
    learner.save_adapter(str(path))
    return str(path)


async def _no_server(mode, tasks):  # the vLLM server's preflight: no server runs in this test
    return None


@pytest.mark.parametrize("job_kind", ["grpo", "mcts"])
async def test_the_learner_starts_from_the_vllm_modes_adapter(job_kind, tiny_model, trained_adapter, tmp_path,
                                                              monkeypatch):
    import torch

    from halo.jobs import preflight
    from halo.jobs.grpo import GRPOJob, setup_grpo
    from halo.jobs.mcts import MCTSJob, setup_mcts
    from halo.policy.modes import mode_flags

    monkeypatch.setattr(preflight, "preflight", _no_server)
    kw = dict(tasks=["omnizon.department@train"], mode="tiny_vllm", learner_model=tiny_model,
              runs_dir=str(tmp_path / "runs"), overrides=mode_flags(model=tiny_model, adapter=trained_adapter))
    if job_kind == "grpo":
        setup = await setup_grpo(GRPOJob(**kw))
    else:
        setup = await setup_mcts(MCTSJob(episodes=1, **kw))
    try:
        assert setup.sync is not None  # the vLLM path: a local learner, adapters hot-loaded
        b = [p for n, p in setup.learner.model.named_parameters() if "lora_B" in n]
        assert b and all(torch.equal(p, torch.full_like(p, 0.01)) for p in b)
        assert all(p.requires_grad for p in b)  # and it trains them
    finally:
        await setup.sampler.aclose()
