"""Hindsight relabelling (Andrychowicz et al., 2017) of task-family episodes: what an episode did is a success for
the instance that asked for it.

A one-step family's policy clicks one of 36 controls; 1 in 36 is the link its goal names, but about 1 in 5 opens
some department, which another training instance of the same family asks for. The family's own grader says which:
every training instance whose checks all pass on the ``/finish`` state after one of the episode's steps (the final
message left empty, so answer-checked families never match). The episode up to the first step that reached it is
kept (HER's "future" goals: a multi-step episode that passed through another goal's state and wandered on still
achieved it), with its goal replaced and its prompts rebuilt, as a success of that instance for self-imitation's
replay: the agent's own experience read against another goal, never a demonstration. A reply that typed text is
relabelled only where the new goal's grammar allows the same text (under ``text: goal``, one of its phrases: a
label typed for one goal is the success of the goal that quotes that label); held-out (test) instances are never a
target.
"""

from __future__ import annotations

import dataclasses
import random
from functools import lru_cache
from typing import Any

MAX_CANDIDATES = 256  # training instances checked per episode (a family can have 1,500: a sample of them)


@lru_cache(maxsize=64)
def _train_instances(family: str) -> tuple[Any, ...]:
    from halo.tasks.families import get_family

    return tuple(get_family(family).instances("train"))


def achieved(family: str, index: int, state: dict[str, Any], rng: random.Random,
             limit: int = MAX_CANDIDATES) -> list[Any]:
    """Training instances of ``family`` other than instance ``index`` whose checks all pass on ``state``."""
    from halo.tasks.families import get_family

    fam = get_family(family)
    pool = [i for i in _train_instances(family) if i.index != index]
    if len(pool) > limit:
        pool = rng.sample(pool, limit)
    out = []
    for inst in pool:
        checks = fam.grade(state, inst.params, "")
        if checks and all(c.passed for c in checks):
            out.append(inst)
    return out


def _typed_allowed(action: Any, old: Any, obs: Any, policy: Any) -> bool:
    """Whether the text an action typed (a message, a field's value, an option) on ``old`` is one the new goal's
    grammar (``obs``) also allows: a phrase of that goal under ``text: goal``, the phrase at the same position under
    ``goal_refs`` (the reply's tokens name a position), never under free text (the replay's mask is the goal's)."""
    typed = [v for v in (getattr(action, "text", None), getattr(action, "value", None)) if v]
    typed += [v for v in (getattr(action, "options", None) or ()) if v]
    if not typed:
        return True
    cfg = getattr(policy, "prompt_config", None)
    if cfg is None or cfg.text == "free":
        return False
    from halo.policy.action_space import goal_phrases, text_choices

    if cfg.text == "goal_refs":  # the reply names phrases by position: the new goal's must be the same text there
        was = goal_phrases(old.goal, cfg.text_max_chars, cfg.phrase_words)
        new = goal_phrases(obs.goal, cfg.text_max_chars, cfg.phrase_words)
        return all(v in was and was.index(v) < len(new) and new[was.index(v)] == v for v in typed)
    allowed = set(text_choices(obs, cfg.text, cfg.text_max_chars, cfg.phrase_words))
    return all(v in allowed for v in typed)


def _tokens_allowed(policy: Any, grammar: str, token_ids: Any) -> bool:
    """Whether the learner's replay of ``grammar`` (``HFPolicy.grammar_mask``) admits every token of the reply: the
    same text is not always the same tokens' path. Where the new goal's phrases leave one continuation the replay
    forces its longest token ("Kevin"), and a reply sampled token by token under the old goal ("K", "evin") would
    have a forbidden token, a logprob of -inf (the learner drops such an item: a success it cannot replay is none to
    learn from). Suspected in a ladder run whose weights went NaN the iteration after 6 relabels, not confirmed: a
    probe of 9,591 relabels on GoMail's rungs found none. A policy with no ``grammar_mask`` is not checked."""
    mask_of = getattr(policy, "grammar_mask", None)
    if mask_of is None:
        return True
    import math

    mask = mask_of(grammar, token_ids)
    return all(math.isfinite(float(mask[i, t])) for i, t in enumerate(token_ids) if i < mask.shape[0])


def relabel(episode: Any, inst: Any, policy: Any, upto: int | None = None) -> Any | None:
    """``episode`` (its first ``upto`` steps, all by default) as a successful episode of ``inst``: each step's
    observation gets the new goal, its prompt is rebuilt by ``policy`` and its grammar key recomputed; None where a
    step cannot be carried over."""
    from halo.rl.rollout import Episode

    steps = []
    for st in episode.steps[:upto]:
        action = st.sample.action
        if st.prompt is None or not st.sample.token_ids or action is None:
            return None
        obs = dataclasses.replace(st.obs, goal=inst.goal, task_id=inst.id)
        if not _typed_allowed(action, st.obs, obs, policy):
            return None
        sample = dataclasses.replace(st.sample, prompt_tokens=None)  # the sampler never read this prompt
        if sample.grammar is not None:
            sample = dataclasses.replace(sample, grammar=policy.grammar_key(obs))
            if not _tokens_allowed(policy, sample.grammar, sample.token_ids):
                return None
        steps.append(dataclasses.replace(st, obs=obs, prompt=policy.build_prompt(obs), sample=sample))
    if not steps:
        return None
    return Episode(id=f"{episode.id}-as-{inst.index}", task_id=inst.id, site=episode.site, steps=steps, success=True)


class Hindsight:
    """Relabels a finished, failed family episode into the successes it is for another training instance."""

    def __init__(self, policy: Any, per_episode: int = 1, seed: int = 0):
        self.policy, self.per_episode = policy, per_episode
        self.rng = random.Random(seed)

    def __call__(self, episode: Any) -> list[Any]:
        from halo.rl.self_imitation import success_key

        family = success_key(episode.task_id)
        if episode.success or episode.errored or family == "*":
            return []
        states = list(getattr(episode, "step_states", None) or [])
        if len(states) != len(episode.steps):  # no state after each step: the final one only
            states = [None] * (len(episode.steps) - 1) + [getattr(episode, "final_state", None)]
        index = int(episode.task_id.rsplit("-", 1)[1])
        first: dict[int, tuple[Any, int]] = {}  # instance -> (instance, steps that reached it first)
        for k, state in enumerate(states):
            if state is not None:
                for inst in achieved(family, index, state, self.rng):
                    first.setdefault(inst.index, (inst, k + 1))
        found = sorted(first.values(), key=lambda x: x[0].index)
        out = []
        for inst, upto in self.rng.sample(found, min(self.per_episode, len(found))):
            e = relabel(episode, inst, self.policy, upto)
            if e is not None:
                out.append(e)
        return out
