"""Gradient checkpointing in the learner (``lora.gradient_checkpointing``): the same update as without it (it only
recomputes activations); "auto" (the default) turns it on for models over 1B parameters only."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "policy"))  # policy_helpers, run alone too

pytestmark = [pytest.mark.ml]
torch = pytest.importorskip("torch")


def _update(tiny_model, checkpointing: bool):
    from test_learner_packing import _items, _policy

    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.learner import LoRALearner

    torch.manual_seed(0)
    policy = _policy(tiny_model)
    items = _items(policy)
    learner = LoRALearner(policy, LoRASettings(rank=4, alpha=8, gradient_checkpointing=checkpointing),
                          OptimSettings(lr=1e-2, pack_rows=4))
    base = learner.model.get_base_model()
    seen = []
    layer = base.model.language_model.layers[0]
    layer.register_forward_pre_hook(lambda m, i: seen.append(torch.is_grad_enabled() and base.training))
    grads, step = [], learner.optimizer.step
    learner.optimizer.step = lambda: grads.append([p.grad.clone() for p in learner.params]) or step()
    stats = [learner.update(items) for _ in range(2)]
    return base, grads, stats, seen


def test_checkpointing_gives_the_same_update(tiny_model):
    base0, g0, s0, seen0 = _update(tiny_model, False)
    base1, g1, s1, seen1 = _update(tiny_model, True)
    assert not base0.is_gradient_checkpointing and base1.is_gradient_checkpointing
    # recomputed in the backward pass: the checkpointed layer starts once more per training forward (pre-hook: the
    # recomputation stops as soon as it has what the backward needs, before a forward hook would run)
    assert sum(seen1) > sum(seen0) > 0
    assert len(g0) == len(g1) == 2
    for a, b in zip(g0, g1):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert torch.allclose(x, y, atol=1e-6, rtol=1e-4)
    assert [s.loss for s in s1] == pytest.approx([s.loss for s in s0], abs=1e-6)
    assert any(float(x.abs().sum()) > 0 for x in g1[-1])  # the updates were not empty


def test_auto_turns_it_on_by_model_size(tiny_model, monkeypatch):
    from test_learner_packing import _policy

    from halo.rl import learner as lr

    # "auto", the default: the tiny model stays as it was
    tiny = lr.LoRALearner(_policy(tiny_model), lr.LoRASettings(rank=4, alpha=8))
    assert tiny.checkpointing is False and not tiny.model.get_base_model().is_gradient_checkpointing
    monkeypatch.setattr(lr, "CHECKPOINT_AUTO_PARAMS", 1000)  # as if it were an 8B
    big = lr.LoRALearner(_policy(tiny_model), lr.LoRASettings(rank=4, alpha=8))
    assert big.checkpointing is True and big.model.get_base_model().is_gradient_checkpointing


def test_checkpointing_setting_is_read_from_rl_config():
    from halo.config.overrides import Override
    from halo.errors import ConfigError
    from halo.rl.config import load_rl_config

    cfg = load_rl_config(None)
    assert cfg.raw["lora"]["gradient_checkpointing"] == "auto"  # written in configs/rl_config.yaml
    on = load_rl_config(None, [Override(("lora", "gradient_checkpointing"), True)])
    assert on.lora.gradient_checkpointing is True
    with pytest.raises(ConfigError, match="gradient_checkpointing"):
        load_rl_config(None, [Override(("lora", "gradient_checkpointing"), "sometimes")])
