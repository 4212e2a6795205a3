"""Observation and policy builders shared by the policy and RL tests."""

from __future__ import annotations

import io

from halo.env.types import Element, Observation


def screenshot(width: int = 1280, height: int = 720, fmt: str = "JPEG") -> bytes:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (width, height), (240, 240, 240))
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, width, 40], fill=(50, 50, 120))
    d.rectangle([500, 300, 780, 360], fill=(30, 144, 255))
    d.text((560, 320), "Sign in", fill=(255, 255, 255))
    buf = io.BytesIO()
    img.save(buf, format=fmt)
    return buf.getvalue()


def make_obs(**kw) -> Observation:
    elements = {"12": Element("12", "button", "Sign in", (500, 300, 280, 60)),
                "13": Element("13", "textbox", "Email", (500, 200, 280, 40), value="")}
    base = dict(screenshot=screenshot(), image_format="jpeg",
                axtree='[12] button "Sign in"\n[13] textbox "Email"', elements=elements,
                url="http://127.0.0.1:9000/login", goal="Sign in with jane@example.com", step=2,
                last_actions=("left_click(500, 300)", "type('jane@example.com')"), task_id="test.login")
    base.update(kw)
    return Observation(**base)


def constrained_tiny_policy(tiny_model, seed: int = 3):
    """The tiny mode's bounded interface (no reply can be cut off) with forced text emitted (jump_forward)."""
    import torch

    from halo.policy.base import DecodingConfig
    from halo.policy.hf_backend import HFPolicy
    from halo.policy.prompt import PromptConfig

    torch.set_num_threads(1)
    return HFPolicy(tiny_model, decoding=DecodingConfig(temperature=1.0, max_tokens=128, constrained=True, seed=seed,
                                                        jump_forward=True),
                    prompt=PromptConfig(max_pixels=4096 * 4, min_pixels=4096, actions=("click", "go_back",
                                        "send_msg_to_user"), elements="visible", text="goal", text_max_chars=24,
                                        single_tool=True))


def learner_on_two_replies(tiny_model, seed: int, **optim):
    """A fresh tiny HFPolicy (one thread), its prompt on ``make_obs()``, two replies it sampled and a LoRA learner on
    it (rank 8, ``OptimSettings(**optim)``): the setting of the learner's one-prompt update tests."""
    import asyncio

    import torch

    from halo.policy.base import DecodingConfig
    from halo.policy.hf_backend import HFPolicy
    from halo.policy.prompt import PromptConfig
    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.learner import LoRALearner

    torch.set_num_threads(1)
    policy = HFPolicy(tiny_model, decoding=DecodingConfig(temperature=1.0, max_tokens=24, seed=seed),
                      prompt=PromptConfig(max_pixels=4096 * 4, min_pixels=4096))
    obs = make_obs()
    prompt = policy.build_prompt(obs)
    a, b = asyncio.run(policy.sample_actions(obs, 2, 1.0))
    learner = LoRALearner(policy, LoRASettings(rank=8, alpha=16), OptimSettings(**optim), temperature=1.0)
    return policy, prompt, a, b, learner
