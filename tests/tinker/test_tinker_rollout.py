"""tinker-cookbook's own rollout code (``do_group_rollout``) through HALO's group builder on REAL-local, offline:
the local TokenCompleter (the tiny Qwen3-VL) stands in for Tinker's sampling service."""

from __future__ import annotations

import pickle

import pytest
from tinker_cookbook.rl.rollouts import do_group_rollout
from tinker_helpers import ScriptedCompleter, fast_source

import tinker
from halo.rl.rewards import Shaping
from halo.rl.tinker.dataset import BrowserGroupBuilder

pytestmark = [pytest.mark.browser, pytest.mark.ml]
TASK = "v2.gomail-14"  # "Clear all my emails that are visible please!"


@pytest.fixture(scope="module")
def completer(tiny_dir):
    from halo.policy.tinker.local_completer import LocalTokenCompleter

    return LocalTokenCompleter(tiny_dir, max_tokens=24, temperature=1.0, seed=0)


def image_chunks(ob: tinker.ModelInput) -> list:
    return [c for c in ob.chunks if isinstance(c, tinker.types.ImageChunk)]


def check_transition_tokens(tr) -> None:
    assert tr.ob.length > 0 and len(image_chunks(tr.ob)) == 1, "each prompt holds exactly one screenshot"
    assert len(tr.ac.tokens) > 0 and len(tr.ac.logprobs) == len(tr.ac.tokens)
    assert all(lp <= 0.0 for lp in tr.ac.logprobs)


async def test_unparseable_replies_stop_with_parse_error(completer, tiny_dir, site_urls, chromium, close_slots):
    builder = BrowserGroupBuilder(TASK, 2, fast_source(tiny_dir, site_urls, max_turns=3))
    builder = pickle.loads(pickle.dumps(builder))  # what a remote rollout worker receives
    group = await do_group_rollout(builder, completer)

    assert len(group.trajectories_G) == 2
    for traj in group.trajectories_G:
        assert traj.stop_reason == "parse_error"
        assert len(traj.transitions) == 1
        tr = traj.transitions[0]
        check_transition_tokens(tr)
        assert tr.episode_done
        assert tr.metrics["parsed"] == 0 and tr.metrics["stop/parse_error"] == 1.0
        assert tr.metrics["success"] == 0 and tr.metrics["turns"] == 1
        assert tr.reward == pytest.approx(Shaping().unparseable) == tr.metrics["reward/unparseable"]
        assert "no tool call" in tr.logs["error"]
        assert traj.final_ob.length == 0
    assert group.get_total_rewards() == pytest.approx([Shaping().unparseable] * 2)
    assert builder._envs == []  # cleanup closed every env it made


async def test_constrained_policy_acts_until_max_turns(constrained_completer, tiny_dir, site_urls, chromium,
                                                       close_slots):
    policy = constrained_completer
    builder = BrowserGroupBuilder(TASK, 2, fast_source(tiny_dir, site_urls, max_turns=2, max_concurrent=1))
    envs_made = []
    make = builder.make_envs

    async def spy():
        envs = await make()
        envs_made.extend(envs)
        return envs

    builder.make_envs = spy
    group = await do_group_rollout(builder, policy)

    slots = envs_made[0].slots
    assert slots.max_concurrent == 1 and slots.peak == 1 and slots.in_use == 0
    assert all(e.browser is None for e in envs_made), "every browser context was closed"
    for traj in group.trajectories_G:
        assert traj.stop_reason in ("max_turns", "completed", "success")
        last = traj.transitions[-1]
        assert last.metrics[f"stop/{traj.stop_reason}"] == 1.0
        if traj.stop_reason == "max_turns":
            assert len(traj.transitions) == 2
        for tr in traj.transitions:
            check_transition_tokens(tr)
            assert tr.metrics["parsed"] == 1 and "reward/valid_action" in tr.metrics
            parts = {k: v for k, v in tr.metrics.items() if k.startswith("reward/")}
            assert tr.reward == pytest.approx(sum(parts.values()))
            assert tr.logs["action"]
        assert [t.metrics["turn"] for t in traj.transitions] == list(range(1, len(traj.transitions) + 1))
        assert not any(t.episode_done for t in traj.transitions[:-1]) and last.episode_done
    lengths = [t.ob.length for traj in group.trajectories_G for t in traj.transitions]
    # a fresh prompt each step: lengths differ by the last actions and errors, never by a whole earlier prompt
    assert max(lengths) - min(lengths) < min(lengths) / 4, f"prompts must not accumulate: {lengths}"

    # what tinker-cookbook's trainer makes of them: one datum per step (fresh prompts are not prefixes), each
    # with its screenshot, the sampled tokens as targets and the group-centred advantage on them only
    from tinker_cookbook.rl.data_processing import assemble_training_data, compute_advantages

    advantages = compute_advantages([group])
    data, meta = assemble_training_data([group], advantages)
    transitions = [t for traj in group.trajectories_G for t in traj.transitions]
    assert len(data) == len(transitions) == len(meta)
    for datum, tr in zip(data, transitions, strict=True):
        assert len(image_chunks(datum.model_input)) == 1
        mask = datum.loss_fn_inputs["mask"].to_torch()
        assert int(mask.sum()) == len(tr.ac.tokens)
    total = group.get_total_rewards()
    assert advantages[0].tolist() == pytest.approx([r - sum(total) / len(total) for r in total])

    # and what its logging makes of them (images in the prompts must not trip it)
    from tinker_cookbook.rl.metric_util import compute_trajectory_metrics
    from tinker_cookbook.rl.rollout_logging import RolloutSummaryGroup, serialize_rollout_summaries_from_groups
    from tinker_cookbook.rl.train import print_group

    from halo.policy.tinker.render import load_renderer

    m = compute_trajectory_metrics([group], [builder.logging_tags()])
    assert m["env/all/total_episodes"] == 2 and m["env/all/parsed"] == 1.0
    assert m["env/all/reward/total"] == pytest.approx(sum(total) / 2)
    print_group(group, load_renderer("qwen3_vl_instruct", tiny_dir).tokenizer)
    records = serialize_rollout_summaries_from_groups(
        split="train", iteration=0, groups_P=[RolloutSummaryGroup(group, builder.logging_tags(), 0)])
    assert len(records) == 2


async def test_scripted_solution_stops_with_success(tiny_dir, site_urls, chromium, close_slots):
    from halo.policy.tinker.render import load_renderer

    renderer = load_renderer("qwen3_vl_instruct", tiny_dir)
    script = [("checkbox", "Select all"), ("button", "Delete"), "I moved every visible email to the trash."]
    builder = BrowserGroupBuilder(TASK, 1, fast_source(tiny_dir, site_urls, max_turns=5, include_axtree=True))
    group = await do_group_rollout(builder, ScriptedCompleter(renderer, script))

    (traj,) = group.trajectories_G
    assert traj.stop_reason == "success", [t.logs for t in traj.transitions]
    assert len(traj.transitions) == 3
    last = traj.transitions[-1]
    assert last.metrics["success"] == 1 and last.metrics["real_reward"] == 1.0
    assert last.metrics["reward/success"] == Shaping().success
    assert last.logs["action"].startswith("send_msg_to_user")
    assert all(t.metrics["action_error"] == 0 for t in traj.transitions)
    assert group.get_total_rewards()[0] == pytest.approx(sum(t.reward for t in traj.transitions))


async def test_broken_site_is_an_error_not_a_trajectory(completer, tiny_dir, chromium, close_slots):
    import socket

    from tinker_cookbook.rl.rollout_strategy import RetryOnFailure

    from halo.rl.tinker.env import EpisodeBrokenError

    with socket.socket() as s:  # GoMail "served" on a port nobody listens on
        s.bind(("127.0.0.1", 0))
        dead = {"gomail": f"http://127.0.0.1:{s.getsockname()[1]}"}
    builder = BrowserGroupBuilder(TASK, 2, fast_source(tiny_dir, dead, max_concurrent=2))
    made = []
    make = builder.make_envs

    async def spy():
        envs = await make()
        made.extend(envs)
        return envs

    builder.make_envs = spy
    calls = completer.calls
    with pytest.raises(EpisodeBrokenError, match="reset failed.*is the site running"):
        await do_group_rollout(builder, completer, strategy=RetryOnFailure(max_retries=1))
    assert len(made) == 4  # the group, then one retry's fresh group
    assert made[0].slots.in_use == 0 and all(e.browser is None for e in made)
    assert completer.calls == calls  # nothing was sampled for an episode that never started
