"""bench/field_choice_probe.py: the ladder's field choice alone (which empty field to type into), graded and learned."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(_ROOT / "tests" / "policy"))
_spec = importlib.util.spec_from_file_location("field_choice_probe", _ROOT / "bench" / "field_choice_probe.py")
fcp = importlib.util.module_from_spec(_spec)
sys.modules["field_choice_probe"] = fcp  # its dataclass looks its module up
_spec.loader.exec_module(fcp)

from policy_helpers import make_obs  # noqa: E402

from halo.env.actions import Click, Fill  # noqa: E402
from halo.env.types import Element  # noqa: E402

GOAL = 'Write an email to Kevin Moore titled "Invoice": "The invoice was paid this morning."'


def page(kind: str):
    """A compose window as send_body (Subject filled) or send_title (Message Body filled) opens it."""
    subject, body = ("Invoice", "") if kind == "body" else ("", "The invoice was paid this morning.")
    return make_obs(goal=GOAL, last_actions=(), elements={
        "5": Element("5", "textbox", "Search mail", (10, 10, 200, 30), value=""),
        "8": Element("8", "button", "Compose", (10, 60, 120, 40)),
        "180": Element("180", "button", "Remove Kevin Moore", (500, 150, 20, 20)),
        "181": Element("181", "textbox", "To recipients", (500, 150, 280, 30), value=""),
        "184": Element("184", "textbox", "Subject", (500, 200, 280, 40), value=subject),
        "185": Element("185", "textbox", "Message Body", (500, 250, 280, 200), value=body),
        "186": Element("186", "button", "Send", (500, 460, 80, 30))})


def test_the_right_reply_fills_the_empty_field_with_its_string():
    # the subject "Invoice" is a word of the body: the value typed is told by the field's whole value, not a part
    assert fcp.right_answer(page("body"), "body") == ("185", "the invoice was paid this morning.")
    assert fcp.right_answer(page("title"), "title") == ("184", "invoice")
    with pytest.raises(SystemExit, match="empty Subject field"):  # a page the probe cannot grade, said so
        fcp.right_answer(page("body"), "title")

    class S:  # a sampled reply as the probe reads it: its parsed action
        def __init__(self, action):
            self.action = action

    right = fcp.right_answer(page("title"), "title")
    assert fcp.outcome(S(Fill("184", "Invoice")), right) == "right"
    assert fcp.outcome(S(Fill("185", "Invoice")), right) == "wrong field"
    assert fcp.outcome(S(Fill("184", "Kevin")), right) == "wrong value"
    assert fcp.outcome(S(Click("186")), right) == "not a fill"
    assert fcp.outcome(S(None), right) == "not a fill"
    # a click page (send_click: every field filled): Send is right, a fill or another click is not
    send = fcp.right_answer(page("title"), "click")
    assert send == ("186", None)
    assert [fcp.outcome(S(a), send) for a in (Click("186"), Click("5"), Fill("184", "Invoice"), None)] == [
        "right", "wrong element", "a fill", "other"]
    # the inbox (send_compose's start page): Compose is right, Send is not
    compose = fcp.right_answer(page("title"), "compose")
    assert compose == ("8", None)
    assert [fcp.outcome(S(a), compose) for a in (Click("8"), Click("186"))] == ["right", "wrong element"]


@pytest.mark.slow
def test_a_run_samples_grades_and_updates_through_the_learner(tiny_model, tmp_path):
    """Three updates from the real tiny model on both kinds of page: each update's groups graded, the phases kept,
    and the adapter moved by HALO's learner (the probe's numbers come from this path)."""
    import torch

    (tmp_path / "tiny-seed0").symlink_to(tiny_model)
    pages = {"body": [page("body")], "title": [page("title")]}
    cfg = fcp.Config(objective="ppo", replay=4)
    torch.set_num_threads(1)
    r = fcp.run("test", cfg, 0, pages, 3, tmp_path)
    assert r["updates"] == 3 and [c["update"] for c in r["curve"]] == [1, 2, 3] and r["kinds"] == ["body", "title"]
    assert all(c["phase"] == 1 and 0 <= c["body"] <= 1 and "title" not in c for c in r["curve"])
    assert r["lower_updates"] is None and r["upper_updates"] is None and r["cpu_s"] > 0
    sup = fcp.run("test", fcp.Config(objective="supervised", replay=0), 0, pages, 2, tmp_path)
    assert sup["updates"] == 2
    # more than two kinds: phase 1 the lowest alone, each later phase the newest beside one below it
    pages["click"] = [page("title")]
    fcp.TARGET, target = 0.0, fcp.TARGET  # every kind counts as learned once its window is full: the phases advance
    try:
        three = fcp.run("test", cfg, 0, pages, 40, tmp_path, ("click", "body", "title"))
    finally:
        fcp.TARGET = target
    phases = [c["phase"] for c in three["curve"]]
    assert phases[0] == 1 and 2 in phases and phases[-1] == 3 and phases == sorted(phases)
    assert all(set(c) & {"click", "body", "title"} == {"click"} for c in three["curve"] if c["phase"] == 1)
    # phase 2: the newest (body) beside the one below (click); phase 3: title beside click or body
    assert all({"click", "body"} <= set(c) and "title" not in c for c in three["curve"] if c["phase"] == 2)
    assert all("title" in c and len(set(c) & {"click", "body"}) == 1 for c in three["curve"] if c["phase"] == 3)
    assert three["lower_updates"] == phases.index(3) and three["upper_updates"] is not None


@pytest.mark.slow
def test_which_weights_train_is_one_setting(tiny_model, tmp_path):
    """``train``: the adapter and head (the ladder's), the token embeddings beside them, or every weight; what is
    trainable is what the optimizer holds."""
    (tmp_path / "tiny-seed0").symlink_to(tiny_model)

    def trainable(train: str) -> tuple[set[str], int, int]:
        _, learner = fcp.build(fcp.Config(train=train), 0, tmp_path)
        names = {n for n, p in learner.model.named_parameters() if p.requires_grad}
        held = sum(p.numel() for g in learner.optimizer.param_groups for p in g["params"])
        return names, held, sum(p.numel() for p in learner.model.parameters())

    lora, held, _ = trainable("lora")
    assert any("lora_A" in n for n in lora) and any("lm_head" in n for n in lora)
    assert not any("embed_tokens" in n for n in lora) and not any("mlp" in n for n in lora)
    embed, held_e, _ = trainable("embed")
    assert any("embed_tokens" in n for n in embed) and lora < embed and held_e > held
    full, held_f, total = trainable("full")
    assert any("mlp" in n for n in full) and held_f == total
