"""Tinker's env reads a reply as the policy backends do (``halo.policy.parse.parse_to_env``): the action that reaches
the browser holds the goal phrase a ``#n`` reference names, on the env's element id under stable ids."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from halo.env import actions as A
from halo.env.types import Element, Observation
from halo.errors import HaloError
from halo.policy.element_ids import stable_ids
from halo.policy.prompt import PromptConfig, tool_call_text

pytestmark = pytest.mark.ml


class RecordingBrowser:
    """Stands in for the browser at its step: records the action, then breaks the episode (nothing else is under
    test here)."""

    def __init__(self):
        self.actions: list = []

    async def step(self, action):
        self.actions.append(action)
        raise HaloError("recorded")

    async def close(self):
        pass


def test_the_tinker_env_types_the_goal_phrase_into_the_envs_element(tiny_dir):
    from halo.policy.tinker.render import load_renderer
    from halo.rl.tinker.env import BrowserTinkerEnv, EpisodeBrokenError, EpisodeSettings

    from tinker_helpers import FAST_PROMPT

    els = {"181": Element("181", "button", "Remove Peter Green", (500, 100, 80, 24)),
           "182": Element("182", "textbox", "To recipients", (500, 130, 200, 24), value=""),
           "184": Element("184", "textbox", "Subject", (500, 190, 200, 24), value="")}
    obs = Observation(screenshot=b"", image_format="jpeg", axtree="", elements=els, url="http://127.0.0.1:1/",
                      goal='Email Peter with the subject "Budget" saying "See you at 3 PM."', step=0,
                      task_id="gomail.send")
    cfg = PromptConfig(max_pixels=FAST_PROMPT.max_pixels, min_pixels=FAST_PROMPT.min_pixels, element_ids="stable",
                       text="goal_refs")
    renderer = load_renderer("qwen3_vl_instruct", tiny_dir)
    env = BrowserTinkerEnv(SimpleNamespace(id="gomail.send-1"), renderer, None, EpisodeSettings(prompt=cfg))
    browser = RecordingBrowser()
    env.obs, env.browser = obs, browser
    reply = tool_call_text(A.Fill(stable_ids(els)["184"], "#1"))
    tokens = renderer.tokenizer.encode(reply, add_special_tokens=False) + list(renderer.get_stop_sequences())
    with pytest.raises(EpisodeBrokenError, match="recorded"):
        asyncio.run(env.step(tokens))
    assert browser.actions == [A.Fill("184", "Budget")]
