"""Dense rewards on real pages: along oracle solutions the return rises at milestones and peaks at success, and a
random policy on the same task earns less. One task per site, chosen so that together they reach every milestone
of rl_config.yaml (bench/reward_check.py runs every oracle and writes the distributions)."""

from __future__ import annotations

import pytest
from reward_runs import all_oracles, oracle_run, random_run, reward_config

pytestmark = pytest.mark.browser

# task -> the milestones its oracle must reach (every rule of the site, one task per site)
EXPECTED = {
    "v2.gomail-4": {"compose_opened", "recipient_filled", "subject_filled", "send_visible", "sent"},
    "v2.gocalendar-4": {"create_clicked", "title_entered", "datetime_set", "save_clicked", "event_created"},
    "v2.omnizon-3": {"search_results", "product_page", "add_to_cart", "cart_page", "checkout_started"},
    "v2.zilloft-2": {"search_done", "filters_applied", "listing_viewed", "request_sent"},
    "v2.dashdish-17": {"store_browsed", "item_opened", "added_to_cart", "checkout_opened", "order_placed"},
    "v2.opendining-17": {"restaurants_listed", "restaurant_page", "slot_chosen", "occasion_set",
                         "reserved_or_notified"},
    "v2.udriver-15": {"dropoff_entered", "prices_shown", "ride_chosen", "booked_or_wallet_updated"},
    "v2.staynb-14": {"destination_entered", "dates_entered", "results_shown", "filters_applied"},
    "v2.marrisuite-8": {"destination_entered", "dates_entered", "results_shown"},
    "v2.networkin-6": {"searched", "profile_or_page", "form_opened", "text_written", "done"},
    "v2.topwork-7": {"talent_searched", "profile_viewed", "form_opened", "message_written", "sent_or_posted"},
}


def test_expected_milestones_are_the_configured_ones():
    cfg = reward_config()
    for task_id, names in EXPECTED.items():
        site = task_id.split(".")[1].rsplit("-", 1)[0]
        assert names == {m.name for m in cfg.milestones[site]}, site


@pytest.mark.parametrize("task_id", sorted(EXPECTED))
async def test_oracle_return_rises_at_milestones_and_peaks_at_success(task_id, sites_pool, site_urls):
    if task_id.split(".")[1].rsplit("-", 1)[0] not in site_urls:
        pytest.skip("site does not import")
    cfg = reward_config()
    run = await oracle_run(sites_pool, site_urls, task_id, all_oracles()[task_id], cfg)
    assert run.success, f"{task_id}: the oracle must pass REAL's script"
    assert set(run.milestones) == EXPECTED[task_id], f"{task_id}: reached {run.milestones}"
    for i, parts in enumerate(run.parts):
        if any(k.startswith("milestone/") for k in parts):
            before = run.returns[i - 1] if i else 0.0
            assert run.returns[i] > before, f"step {i} reached a milestone but the return fell: {parts}"
    assert run.parts[-1].get("success") == cfg.shaping.success
    assert run.final == max(run.returns), "the return must peak at the successful end"

    random_finals = [(await random_run(sites_pool, site_urls, task_id, run.steps, seed, cfg)).final
                     for seed in (0, 1)]
    assert max(random_finals) < run.final, f"random {random_finals} vs oracle {run.final}"
