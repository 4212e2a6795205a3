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


def test_a_tiny_mode_builds_its_model_on_first_use_for_training_as_eval_does(tmp_path, monkeypatch):
    """`halo train grpo --mode tiny_text` on a fresh clone: the tiny model is built where the mode names it (as `halo
    eval` and `halo demo` build it), not a 'cannot load a processor' error; a mode of another family is left alone."""
    from halo.jobs import setup
    from halo.policy import tiny
    from halo.policy.modes import get_mode
    from halo.rl.config import load_rl_config

    built = []

    def fake_build(model_dir, log=print):  # the real build takes ~30 s; the call and its place are what is tested
        built.append(str(model_dir))
        raise RuntimeError("stop before the policy loads")

    monkeypatch.setattr(tiny, "ensure_tiny_model", fake_build)
    for name in ("tiny", "tiny_text"):
        mode = get_mode(name).with_overrides(model=str(tmp_path / name))
        assert tiny.is_tiny_mode(mode)
        with pytest.raises(RuntimeError, match="stop before"):
            setup.make_learning(mode, load_rl_config(), tmp_path / "run", temperature=1.0, job="GRPO")
    assert built == [str(tmp_path / "tiny"), str(tmp_path / "tiny_text")]
    assert not tiny.is_tiny_mode(get_mode("tiny_vllm")) and not tiny.is_tiny_mode(get_mode("qwen3vl_base"))
    tiny.ensure_mode_model(get_mode("tiny_vllm"))
    assert len(built) == 2
