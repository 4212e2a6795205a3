"""Dr. GRPO advantages and the clipped policy loss."""

from __future__ import annotations

import pytest

from halo.rl.advantages import discounted_returns, frac_reward_zero_std, group_advantages, group_stats, step_advantages


def test_dr_grpo_is_reward_minus_mean_without_std():
    adv = group_advantages([1.0, 0.0, 0.0, 3.0])
    assert adv == pytest.approx([0.0, -1.0, -1.0, 2.0])
    assert sum(adv) == pytest.approx(0.0)
    grpo = group_advantages([1.0, 0.0, 0.0, 3.0], scale_by_std=True)
    assert grpo[3] == pytest.approx(2.0 / group_stats([1.0, 0.0, 0.0, 3.0]).std, rel=1e-4)


def test_zero_variance_groups_give_zero_advantage_and_are_counted():
    assert group_advantages([0.5] * 8) == [0.0] * 8
    assert group_stats([0.5] * 8).zero_std
    assert frac_reward_zero_std([[1, 1], [0, 1], [2, 2, 2], [0.0, 0.1]]) == pytest.approx(0.5)
    with pytest.raises(ValueError):
        group_stats([])


def test_discounted_and_step_advantages():
    assert discounted_returns([1.0, 0.0, 2.0], 0.5) == pytest.approx([1.5, 1.0, 2.0])
    adv = step_advantages([[1.0, 1.0], [0.0]], gamma=1.0)
    # return-to-go: [2, 1] and [0]; baselines per step: [1, 0.5]
    assert adv == [pytest.approx([1.0, 0.5]), pytest.approx([-1.0])]
