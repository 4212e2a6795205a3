"""page_alerts: the texts a site writes into its alert regions, read back from the observation's tree."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "policy"))
from policy_helpers import make_obs  # noqa: E402

from halo.env import actions as A  # noqa: E402
from halo.env.alerts import MAX_ALERT_CHARS, page_alerts  # noqa: E402
from halo.rl.rewards import DenseRewardCalculator, RewardConfig, Shaping  # noqa: E402

COMPOSE = '''[180] textbox "To recipients"
[185] button "Send" focused
[187] alert
  StaticText "Please specify at least one recipient."
[190] button "Discard draft"'''


def test_an_alerts_text_is_the_static_text_under_it_up_to_its_next_sibling():
    assert page_alerts(make_obs(axtree=COMPOSE)) == ("Please specify at least one recipient.",)
    nested = ('  [7] alert\n    [8] heading "Error"\n    StaticText "The address \\"x y\\" was not recognized."\n'
              '    [9] button "Dismiss"\n  StaticText "after the alert"')
    assert page_alerts(make_obs(axtree=nested)) == ('Error The address "x y" was not recognized.',)


def test_named_alerts_empty_ones_and_other_roles():
    tree = ('[1] alert "Session expired"\n[2] alert\n[3] status\n  StaticText "Saved"\n'
            '[4] alertdialog\n  StaticText "Discard this draft?"\n[5] button "alert"')
    assert page_alerts(make_obs(axtree=tree)) == ("Session expired", "Discard this draft?")
    assert page_alerts(make_obs(axtree="")) == ()
    long = '[1] alert\n  StaticText "' + "x" * 500 + '"'
    assert page_alerts(make_obs(axtree=long)) == ("x" * MAX_ALERT_CHARS,)


@pytest.mark.parametrize("charge", [-0.3, 0.0])
def test_the_alert_shaping_charges_a_step_that_brings_a_new_alert(charge):
    """Only a new alert is charged (the same one still shown after the next step is not); 0 charges nothing."""
    calc = DenseRewardCalculator(RewardConfig(shaping=Shaping(alert=charge)))
    quiet, refused = make_obs(axtree='[185] button "Send"'), make_obs(axtree=COMPOSE)
    first = calc.compute_reward(quiet, A.Click("185"), refused, None, False, False)
    again = calc.compute_reward(refused, A.Click("180"), refused, None, False, False)
    assert first.parts.get("alert") == (charge or None) and "alert" not in again.parts
