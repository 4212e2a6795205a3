"""configs/rl_config.yaml, its one schema: every training setting with its type and range, declared once.

Sections: ``policy`` (the default mode; Tinker's sampling), ``episode``, ``grpo`` (the loop's ``GRPOSettings`` and
the optimizer's ``OptimSettings``), ``lora``, ``rewards`` (``RewardConfig``), ``mcts`` (``MCTSSettings``,
``DPOSettings`` and the MCTS job's own keys). ``load_rl_config`` reads the file, applies overrides (``--set``, then a
command's flags) and builds every section, so a typo or a bad value fails at the door naming the file and the key.
Keys one section takes from another (``grpo.max_steps`` from ``episode.max_steps``, the temperature from the mode's
decoding) are filled in ``RLConfig.for_mode``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field

from halo.config.files import read_yaml, require_config_file
from halo.config.overrides import Override, apply, select
from halo.config.settings import (
    AtLeast1,
    Fraction,
    NonNegative,
    NonNegativeInt,
    Positive,
    PositiveInt,
    Why,
    build,
    field_names,
    settings,
    with_where,
)
from halo.errors import ConfigError
from halo.rl.rewards import RewardConfig

CONFIG_FILE = "configs/rl_config.yaml"
RL_SECTIONS = ("policy", "episode", "grpo", "lora", "rewards", "mcts")

# upper bounds of the sizes a user gives, each with the reason its message gives (issue 45)
MAX_STEPS_WHY = ("an episode keeps every step's observation, screenshot included, until the update; REAL's tasks "
                 "take under 70 steps")
MAX_TOKENS_WHY = "tokens of one reply; a browser action takes under 300"
Steps = Annotated[AtLeast1, Field(le=500), Why(MAX_STEPS_WHY)]
ReplyTokens = Annotated[AtLeast1, Field(le=8192), Why(MAX_TOKENS_WHY)]
MAX_ITERATION_EPISODES = 1024  # (tasks_per_iteration + refill_zero_variance) x group_size


@settings
class PolicySection:
    mode: str | None = None  # the mode `halo train grpo|mcts` run without --mode
    temperature: NonNegative = 0.7  # Tinker's sampling (modes carry their own decoding)
    max_tokens: ReplyTokens = 300


@settings
class EpisodeSection:
    max_steps: Steps = 70
    episode_timeout_s: Positive = 900.0
    history: PositiveInt = 5  # Tinker's prompt (modes carry their own prompt settings)


@settings
class GRPOSettings:
    iterations: AtLeast1 = 10
    tasks_per_iteration: AtLeast1 = 1
    # a group of 1 has no advantage: jobs refuse it unless asked (allow_group_size_one)
    group_size: Annotated[AtLeast1, Field(le=256), Why(
        "a group's episodes, every step's screenshot with them, stay in memory until the update; for more episodes "
        "an iteration, raise tasks_per_iteration")] = 8
    # episodes run at once (each in its own browser context); a larger group runs in waves of this many
    parallel: Annotated[AtLeast1, Field(le=64), Why(
        "each episode at once is a browser context with its own renderer process, 100-300 MB each")] = 8
    max_steps: Steps = 70
    temperature: NonNegative = 0.7
    # episode: one per episode; step: discounted return-to-go per step; gigpo: anchor states
    advantage: Literal["episode", "step", "gigpo"] = "episode"
    gigpo_omega: float = 1.0  # weight of GiGPO's step-level (anchor-state) advantage
    discount: float = 1.0  # in (0, 1]
    skip_zero_std_groups: bool = False
    checkpoint_every: AtLeast1 = 10
    seed: int = 0
    # sample: best+worst per group, whole groups every save_group_every | all | best_worst | none
    save_episodes: Literal["sample", "all", "best_worst", "none"] = "sample"
    save_group_every: AtLeast1 = 5  # "sample": every episode of an iteration's first group every this many iterations
    update_epochs: AtLeast1 = 1  # optimizer steps on each iteration's samples (GRPO's mu; >1 makes the ratio clip bite)
    # auto: learning-progress sampling when every task is a family instance; on | off; ladder: the families as
    # rungs in the task list's order, the next opened when the frontier succeeds ladder_unlock (rl/curriculum.py)
    curriculum: Literal["auto", "on", "off", "ladder"] = "auto"
    curriculum_window: AtLeast1 = 32  # recent episodes per family estimating its success
    ladder_unlock: Fraction = 0.5  # ladder: the frontier's recent success that opens the next rung
    ladder_review: Fraction = 0.3  # ladder: the share of draws the rungs below the frontier take
    ladder_goal: Fraction = 0.0  # ladder: the share of draws the top rung takes before it opens (its first steps)
    ladder_goal_steps: NonNegativeInt = 0  # ladder: those draws' episodes end after this many steps (0: its own cap)
    ladder_goal_last: Fraction = 0.0  # ladder: the top rung's share, whole episodes, once the rung below it leads
    # the success a negative entropy_coef (optim.entropy_coef_final's penalty) is scaled by: the policy's own recent
    # episodes of every task (recent), or of the ladder's frontier, the highest open rung (frontier): a ladder's low
    # rungs, learned, held the penalty near full while the frontier failed, and sharpened a seed onto its failing
    # choices there (stop 64: seeds locked into filling To again and again)
    entropy_gate: Literal["recent", "frontier"] = "recent"
    # a task family's episode takes at most the steps its family needs (1 for a one-step family, 6 for 2-4, 10 for 5+),
    # never more than max_steps: a ladder's low rungs stay short while its top one gets the steps it needs
    family_steps: bool = False
    refill_zero_variance: NonNegativeInt = 0  # extra groups replacing zero-variance ones (DAPO dynamic sampling)
    max_error_share: Fraction = 0.5  # an iteration with more errored episodes than this share stops the run (1: never)
    episode_timeout_s: Positive = 900.0  # wall-clock deadline of one episode (rl_config: episode.episode_timeout_s)
    self_imitation: NonNegativeInt = 0  # own past successful episodes replayed per update (0: off)
    self_imitation_capacity: Annotated[AtLeast1, Field(le=65536), Why(
        "the replay buffer keeps each step with its screenshot in memory")] = 1024  # steps the replay buffer keeps
    # uniform: the replayed successes drawn uniformly from the buffer; weight: in proportion to 1 - their family's
    # recent success, among those above 0 (a ladder's new rung replayed every update, not its learned ones)
    self_imitation_draw: Literal["uniform", "weight"] = "uniform"
    hindsight: bool = False  # failed family episodes replayed as successes of the instances they achieved (needs SIL)
    hindsight_per_episode: AtLeast1 = 1  # instances one failed episode is relabelled for
    explore: float = 0.0  # probability a training reply's choice is drawn uniformly among the grammar's, in [0, 1)
    explore_adapt: bool = False  # explore x (1 - the family's recent success): explore where the policy still fails
    # each choice drawn with that probability, or whole replies; value: whole replies whose enumerated values (the
    # action, its element, the goal phrase) are each drawn uniformly among the page's, not token by token
    explore_unit: Literal["choice", "reply", "value"] = "choice"
    # explore_adapt on the policy's own episodes (no drawn choice): a drawn two-step reply nearly always fails, so the
    # family's success counting them stays low and keeps exploration high however well the policy does
    explore_adapt_own: bool = False
    # the rate per step divided by the family's recent mean episode length (its own window), so that an episode holds
    # about one drawn choice, not one at every step: a multi-step rung's success needs the policy's own choices at
    # the steps it already knows, and a drawn choice at each of them breaks what was learned (rl/grpo.py)
    explore_per_episode: bool = False
    # a training step whose page shows the policy repeating itself (its last action again on the same element:
    # policy.action_space.repeating) is explored with at least this probability, times explore_adapt's failure rate
    # where that is on: where a rung stalls (GoMail's inbox filled with the goal's words again and again) the explorer
    # acts there, not once in an episode
    explore_stuck: Fraction = 0.0
    # explore_unit value: explored clicks favour the page's buttons not yet acted on (one per name), and stuck steps
    # the actions other than the one repeated, go_back aside (policy.action_space.explore_prior's novel tiers)
    explore_novel: bool = False
    # explore_unit value: an explored step's action is fill half the time while the goal quotes a string no field holds
    # yet and a field is empty (action_space.explore_prior's fill tier): a ladder's new rung adds a field to type
    explore_fill: bool = False
    # asynchronous GRPO (rl/pipeline.py): rollouts of the next iterations run while the learner updates, each step
    # sampled at most this many adapter versions (iterations' updates) behind the learner that trains on it; a group
    # older than that is dropped. 0: strictly in turn (rollouts, update, rollouts ...). hf or vLLM modes, not --ray
    max_staleness: Annotated[NonNegativeInt, Field(le=4), Why(
        "each version of lag keeps another iteration's episodes, screenshots included, in memory, and the "
        "importance weights that correct the lag grow with it (AReaL and verl run 1-4)")] = 0
    # every this many iterations, one task the policy's group failed throughout is searched by MCTS (the mcts:
    # section, its step_budget bounding it), and a solving search's path joins the self-imitation replay (the hybrid
    # of issue 41: search finds, GRPO learns; rl/search_replay.py). 0: off. Local rollouts only (not --ray)
    search_every: NonNegativeInt = 0

    def __post_init__(self) -> None:
        if self.search_every and not self.self_imitation:
            raise ConfigError(f"search_every {self.search_every}: a solving search's path is replayed by "
                              "self-imitation; set self_imitation > 0 (e.g. 16) with it")
        if self.hindsight and not self.self_imitation:
            raise ConfigError("hindsight relabels episodes into self-imitation's buffer: set self_imitation > 0 "
                              "(e.g. 16) with it")
        if not 0 <= self.explore < 1:
            raise ConfigError(f"explore must be in [0, 1), got {self.explore}")
        if self.explore_adapt and not self.explore:
            raise ConfigError("explore_adapt scales grpo.explore by each family's failure rate: set explore > 0 "
                              "(e.g. 0.3) with it")
        if self.explore_per_episode and not self.explore:
            raise ConfigError("explore_per_episode spreads grpo.explore over an episode's steps: set explore > 0 "
                              "(e.g. 0.6) with it")
        if self.explore_novel and self.explore_unit != "value":
            raise ConfigError("explore_novel is a prior over whole values: set explore_unit: value with it")
        if self.explore_fill and self.explore_unit != "value":
            raise ConfigError("explore_fill is a prior over whole values: set explore_unit: value with it")
        if self.explore_stuck >= 1:
            raise ConfigError(f"explore_stuck must be in [0, 1), got {self.explore_stuck}")
        if self.explore_adapt_own and not self.explore_adapt:
            raise ConfigError("explore_adapt_own changes which failure rate explore_adapt uses: set explore_adapt "
                              "with it")
        if not 0 < self.discount <= 1:
            raise ConfigError(f"discount must be in (0, 1], got {self.discount}")
        if self.ladder_goal_steps and not (self.curriculum == "ladder" and self.ladder_goal):
            raise ConfigError(f"ladder_goal_steps {self.ladder_goal_steps} caps the episodes of a ladder's top rung "
                              "drawn before it opens: set curriculum: ladder and ladder_goal > 0 (e.g. 0.1) with it")
        if self.ladder_goal_last and self.curriculum != "ladder":
            raise ConfigError(f"ladder_goal_last {self.ladder_goal_last} is a ladder's top-rung share: set "
                              "curriculum: ladder with it")
        if self.entropy_gate == "frontier" and self.curriculum != "ladder":
            raise ConfigError("entropy_gate: frontier scales the entropy penalty by a ladder's frontier rung: set "
                              "curriculum: ladder with it (or entropy_gate: recent)")
        groups = self.tasks_per_iteration + self.refill_zero_variance
        if groups * self.group_size > MAX_ITERATION_EPISODES:
            raise ConfigError(f"(tasks_per_iteration + refill_zero_variance) x group_size must be <= "
                              f"{MAX_ITERATION_EPISODES}, got ({self.tasks_per_iteration} + "
                              f"{self.refill_zero_variance}) x {self.group_size} = {groups * self.group_size} (an "
                              f"iteration's episodes, screenshots included, stay in memory until its update)")


@settings
class OptimSettings:
    lr: Positive = 1e-6
    weight_decay: NonNegative = 0.0
    betas: tuple[float, float] = (0.9, 0.999)  # each in [0, 1)
    max_grad_norm: Positive = 1.0
    clip_eps: Positive = 0.2
    clip_eps_high: Positive | None = None  # the ratio's upper bound, when it differs (DAPO's clip-higher: 0.28)
    # ppo: the clipped surrogate (a token past the bounds gets no gradient); cispo: the importance weight clipped
    # and detached, every token keeping a gradient (MiniMax-M1; rl/loss.py)
    objective: Literal["ppo", "cispo"] = "ppo"
    loss_type: Literal["dr_grpo", "grpo", "token_mean"] = "dr_grpo"
    kl_coef: NonNegative = 0.0
    entropy_coef: NonNegative = 0.0  # bonus on the sampled positions' entropy (grammar-masked): no collapse onto one id
    # schedules: lr and entropy_coef move linearly to these over the run's progress (None: constant). A negative
    # entropy_coef_final turns the bonus into a penalty late in the run: the policy sharpens onto its own choices
    lr_final: NonNegative | None = None
    entropy_coef_final: float | None = None
    max_tokens: ReplyTokens = 300  # dr_grpo's constant normaliser
    # asynchronous GRPO (grpo.max_staleness >= 1): the truncation C of the importance weight
    # min(pi_proximal / pi_sampler, C) that corrects a step sampled by an older adapter (verl's TIS: 2)
    tis_cap: Annotated[float, Field(ge=1, le=100), Why(
        "a weight below 1 would cut on-policy steps; a large one lets one stale token's gradient dominate")] = 2.0
    # rows per training forward, across prompts (prompts left-padded: packed_batch), and at most this many padded
    # tokens in one (prompt + reply, times rows): the tiny model's forward costs about the same for 1 row or 16,
    # an 8B's activations grow with the tokens
    pack_rows: Annotated[AtLeast1, Field(le=1024), Why("rows of one training forward, its activations with them")] = 16
    pack_tokens: Annotated[AtLeast1, Field(le=1 << 20), Why("padded tokens of one training forward, its activations "
                                                             "with them")] = 16384

    def __post_init__(self) -> None:
        if not all(0 <= b < 1 for b in self.betas):
            raise ConfigError(f"betas must be two numbers in [0, 1), got {list(self.betas)}")


@settings
class LoRASettings:
    rank: AtLeast1 = 32
    alpha: AtLeast1 = 64
    dropout: float = 0.0  # in [0, 1)
    target_modules: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj")
    # modules trained in full beside the adapter and saved with it (PEFT's modules_to_save), e.g. ["lm_head"]
    modules_to_save: tuple[str, ...] = ()
    # recompute each layer's activations in the backward pass instead of keeping them all: an update's memory then
    # holds one layer's activations, not every layer's. "auto": on for models over CHECKPOINT_AUTO_PARAMS (an 8B
    # update of grpo.pack_tokens 16384 ran out of an H100's 80 GB without it, 27 GB with it:
    # bench/results/learner_scale_cuda.json); off for the tiny model, whose update it would only slow
    gradient_checkpointing: bool | Literal["auto"] = "auto"

    def __post_init__(self) -> None:
        if not 0 <= self.dropout < 1:
            raise ConfigError(f"dropout must be in [0, 1), got {self.dropout}")
        if not self.target_modules:
            raise ConfigError("target_modules must name at least one module (q_proj, v_proj, ...)")


@settings
class MCTSSettings:
    simulations: Annotated[AtLeast1, Field(le=10_000), Why(
        "each simulation is browser steps, and the search tree keeps every node it made")] = 50  # per decision
    ucb_c: NonNegative = 1.414
    children: Annotated[AtLeast1, Field(le=64), Why(
        "candidate actions sampled at each expanded node, each a branch the tree keeps")] = 5
    alpha: Fraction = 0.5  # weight of the search's own Q in the composite Q (1 - alpha: the critic's)
    # simulation steps past a new node (0: no rollout: a new state is valued by the critic alone, which a progress
    # critic reads for free, and it is expanded only when a simulation first descends into it)
    depth: Annotated[NonNegativeInt, Field(le=500), Why(MAX_STEPS_WHY)] = 10
    max_steps: Steps = 20  # steps of an episode, search path and simulations together
    temperature: NonNegative = 1.0
    step_budget: NonNegativeInt = 0  # env steps per episode, search and simulations together (0: none)
    time_budget_s: NonNegative = 0.0  # wall time per episode (0: none)
    restore: Literal["auto", "fork", "replay"] = "auto"  # how a branch is restored (BrowserEnv.restore)
    # live copies of the states the search returns to (nodes with untried edges), kept by its env (halo.env.keep),
    # so that a restore is a tab switch instead of a page load; each is made in the background, about a page load
    # of browser CPU, which the policy's sampling hides (0: none)
    keep_pages: Annotated[NonNegativeInt, Field(le=256), Why(
        "each kept page is a browser context with the site's page in it (about 30 MB)")] = 8
    # each choice of a node's candidate replies drawn uniformly among the grammar's with this probability (GRPO's
    # explore, in-process constrained modes only): a random-init policy's own samples rarely hold the page's useful
    # actions, so the tree never sees them; rollouts stay the policy's own
    explore: Annotated[float, Field(ge=0.0, lt=1.0)] = 0.0
    # choice: each token choice; reply: a whole reply drawn or not; value: a drawn reply's action, element and text
    # each drawn whole among the page's (grpo.explore_unit's units, policy/explore_values.py: a page's three-digit ids
    # are drawn as often as its one-digit ones, and the explorer's prior on forms and menus applies)
    explore_unit: Literal["choice", "reply", "value"] = "choice"
    # untried: a node's untried edges before any tried one (UCB1); progress: a tried edge whose state the critic values
    # above its parent's is followed first (with depth 0 and a progress critic, the search goes on from the progress it
    # found instead of trying every sibling first; rl/mcts.py ucb_select)
    first_play: Literal["untried", "progress"] = "untried"
    # the first success a simulation meets ends the search: the episode takes the tree's path to it, and the decisions'
    # remaining simulations are left unspent (a tree that found a success has its solved path and its pairs; the
    # CPU goes to the next instance instead of refining the Q of a tree already solved)
    stop_at_success: bool = False


@settings
class DPOSettings:
    beta: Positive = 0.1
    margin: NonNegative = 0.1  # least Q difference between siblings for a pair
    pg_weight: NonNegative = 0.0  # weight of the sibling-GRPO policy-gradient loss beside DPO (0: DPO only)
    # RPO (Pang et al., 2024): this weight times the chosen reply's mean token NLL beside the DPO loss. DPO alone can
    # fit a pair by pushing the rejected reply down, leaving the chosen one no likelier among the node's untried
    # alternatives; the NLL term raises it (0: DPO only)
    nll_weight: NonNegative = 0.0
    # q: pairs of siblings whose Q differ by margin | solved: only a solved path's edge over its siblings that solve
    # nothing (and the policy-gradient part by solving, not Q): rl/dpo.py
    pairs: Literal["q", "solved"] = "q"
    max_pairs: Annotated[AtLeast1, Field(le=65536), Why(
        "pairs of one update, each two replies' prompts with their screenshots")] = 256  # per update, largest first


@settings
class MCTSJobSettings:
    """The MCTS job's own keys of the ``mcts`` section."""

    # none | progress (a task family's own checks: the tiny model's) | same | a mode's name (modes.yaml), e.g. gpt_baseline
    critic: str = "none"
    checkpoint_every: AtLeast1 = 5
    search_timeout_s: NonNegative = 0.0  # --ray: one search's deadline on a worker (0: the time budget + 10 min)


@dataclass(frozen=True)
class RLConfig:
    """rl_config.yaml built: each section as the settings class that reads it, and the file as written."""

    path: Path | None
    raw: dict[str, Any]  # the file with overrides applied, as written (recorded in a run's config.yaml)
    policy: PolicySection
    episode: EpisodeSection
    grpo: GRPOSettings
    optim: OptimSettings
    lora: LoRASettings
    rewards: RewardConfig
    mcts: MCTSSettings
    dpo: DPOSettings
    mcts_job: MCTSJobSettings

    def for_mode(self, temperature: float, max_tokens: int, lr: float | None = None) -> RLConfig:
        """The sections with what they take from elsewhere, where the file leaves it unsaid: the loop's steps and
        deadline from ``episode``, its temperature from the mode's decoding, the optimizer's token normaliser from the
        mode's ``max_tokens``, MCTS's steps and temperature from the loop's; ``lr``: the mode's training rate
        (``train.lr``, for a model the file's tiny-model rate does not fit), which the caller passes only where no
        override set ``grpo.lr``."""
        g = self.raw.get("grpo") or {}
        m = self.raw.get("mcts") or {}
        grpo = dataclasses.replace(
            self.grpo, temperature=temperature,
            max_steps=g.get("max_steps", self.episode.max_steps),
            episode_timeout_s=g.get("episode_timeout_s", self.episode.episode_timeout_s))
        optim = self.optim if "max_tokens" in g else dataclasses.replace(self.optim, max_tokens=max_tokens)
        if lr is not None:
            optim = dataclasses.replace(optim, lr=lr)
        mcts = dataclasses.replace(self.mcts, max_steps=m.get("max_steps", grpo.max_steps),
                                   temperature=m.get("temperature", temperature))
        return dataclasses.replace(self, grpo=grpo, optim=optim, mcts=mcts)


def find_config(path: str | os.PathLike | None = None) -> Path:
    """``path``, else ``$HALO_RL_CONFIG``, else configs/rl_config.yaml here, in the package or in the checkout."""
    return require_config_file(CONFIG_FILE, path, "HALO_RL_CONFIG", "--config", "RL config")


def _split(section: dict[str, Any], classes: Iterable[type], name: str, where: str) -> list[dict[str, Any]]:
    """A section's keys divided among the classes that read it; a key none reads is an error naming it."""
    classes = list(classes)
    known = set().union(*(field_names(c) for c in classes))
    for k in section:
        if k not in known:
            raise ConfigError(with_where(f"{name}: unknown key {k!r}", where))
    return [{k: v for k, v in section.items() if k in field_names(c)} for c in classes]


def build_rl_config(data: dict[str, Any], where: str, path: Path | None = None) -> RLConfig:
    """``data`` (an rl_config mapping) checked whole and built; ``ConfigError`` naming ``where`` and the key."""
    for k, v in data.items():
        if k not in RL_SECTIONS:
            raise ConfigError(with_where(f"unknown section {k!r}; known: {', '.join(RL_SECTIONS)}", where))
        if v is not None and not isinstance(v, dict):
            raise ConfigError(with_where(f"section {k} must be a mapping, got {v!r}", where))
    sec = {k: data.get(k) or {} for k in RL_SECTIONS}
    grpo_v, optim_v = _split(sec["grpo"], (GRPOSettings, OptimSettings), "grpo", where)
    mcts_v, dpo_v, job_v = _split(sec["mcts"], (MCTSSettings, DPOSettings, MCTSJobSettings), "mcts", where)
    try:
        rewards = RewardConfig.from_dict(sec["rewards"])
    except ConfigError as e:
        raise ConfigError(with_where(str(e), where)) from None
    return RLConfig(
        path=path, raw=data,
        policy=build(PolicySection, sec["policy"], where, "policy."),
        episode=build(EpisodeSection, sec["episode"], where, "episode."),
        grpo=build(GRPOSettings, grpo_v, where, "grpo."), optim=build(OptimSettings, optim_v, where, "grpo."),
        lora=build(LoRASettings, sec["lora"], where, "lora."), rewards=rewards,
        mcts=build(MCTSSettings, mcts_v, where, "mcts."), dpo=build(DPOSettings, dpo_v, where, "mcts."),
        mcts_job=build(MCTSJobSettings, job_v, where, "mcts."))


def load_rl_config(path: str | os.PathLike | None = None, overrides: Iterable[Override] = ()) -> RLConfig:
    """rl_config.yaml with the overrides of its sections applied (``--set grpo.lr=1e-5``, flags), built."""
    f = find_config(path)
    data = apply(read_yaml(f), select(overrides, RL_SECTIONS), str(f))
    return build_rl_config(data, str(f), f)
