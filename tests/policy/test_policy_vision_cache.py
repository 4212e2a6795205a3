"""``VisionFeatureCache``: the vision tower runs once per screenshot while its weights are frozen, with the features
the tower itself gives, and steps aside the moment a vision weight can change."""

from __future__ import annotations

import pytest
from policy_helpers import make_obs, screenshot

from halo.policy.base import DecodingConfig
from halo.policy.prompt import PromptConfig

pytestmark = [pytest.mark.ml, pytest.mark.usefixtures("one_torch_thread")]
torch = pytest.importorskip("torch")

SMALL = PromptConfig(max_pixels=64 * 32 * 32, min_pixels=16 * 32 * 32)


@pytest.fixture()
def policy(tiny_model_dir):
    from halo.policy.hf_backend import HFPolicy

    return HFPolicy(tiny_model_dir, decoding=DecodingConfig(temperature=1.0, max_tokens=16, seed=0), prompt=SMALL)


def _images(policy, *sizes):
    """Processor output of one prompt per screenshot size, packed as the learner packs them."""
    from halo.rl.forward import packed_batch

    enc = [policy.encode(policy.build_prompt(make_obs(screenshot=screenshot(w, h)))) for w, h in sizes]
    return packed_batch(enc, [[1]] * len(enc), policy.pad_id).inputs


def test_each_screenshot_goes_through_the_tower_once_with_the_towers_own_features(policy):
    cache = policy.vision_cache
    assert cache is not None and cache.frozen()
    # the first and last are the same screenshot; the order is not symmetric, so features out of order would show
    inputs = _images(policy, (1280, 720), (640, 480), (800, 600), (1280, 720))
    pv, grid = inputs["pixel_values"], inputs["image_grid_thw"]
    with torch.no_grad():
        want = cache.compute(pv, grid, return_dict=True)
        got = cache(pv, grid, return_dict=True)
        assert (cache.misses, cache.hits) == (3, 1)
        again = cache(pv, grid, return_dict=True)
        assert (cache.misses, cache.hits) == (3, 5)
    for out in (got, again):
        assert [e.shape for e in out.pooler_output] == [e.shape for e in want.pooler_output]
        for a, b in zip(out.pooler_output, want.pooler_output):
            assert torch.allclose(a, b, atol=1e-5)
        assert len(out.deepstack_features) == len(want.deepstack_features)
        for a, b in zip(out.deepstack_features, want.deepstack_features):
            assert torch.allclose(a, b, atol=1e-5)
    with torch.no_grad():  # the model's forward through the cache: the same logits as through the tower
        cached = policy.model(**inputs).logits
        cache.max_bytes = 0
        direct = policy.model(**inputs).logits
    assert torch.allclose(cached, direct, atol=1e-5)


def test_it_steps_aside_when_a_vision_weight_can_change_and_keeps_within_its_bytes(policy):
    cache = policy.vision_cache
    inputs = _images(policy, (1280, 720), (640, 480), (800, 600))
    pv, grid = inputs["pixel_values"], inputs["image_grid_thw"]
    p = next(cache.inner.visual.parameters())
    p.requires_grad_(True)
    try:
        with torch.no_grad():
            cache(pv, grid, return_dict=True)
        assert (cache.misses, cache.hits, len(cache.entries)) == (0, 0, 0)
    finally:
        p.requires_grad_(False)
    with torch.no_grad():
        first = cache(pv, grid, return_dict=True)
    one = sum(t.numel() * t.element_size() for t in (first.pooler_output[0], *[d[:len(first.pooler_output[0])]
                                                                            for d in first.deepstack_features]))
    assert len(cache.entries) == 3 and cache.bytes >= 3 * one // 2
    cache.max_bytes = cache.bytes - 1  # one entry over: the oldest goes
    inputs2 = _images(policy, (320, 240))
    with torch.no_grad():
        cache(inputs2["pixel_values"], inputs2["image_grid_thw"], return_dict=True)
    assert cache.bytes <= cache.max_bytes
    oldest = cache._key(pv[:int(grid[0].prod())], grid[0].tolist())
    assert oldest not in cache.entries and len(cache.entries) == 3  # the first screenshot went, the new one came
