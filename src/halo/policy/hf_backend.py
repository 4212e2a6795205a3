"""In-process Qwen3-VL with transformers (a local directory or a cached hub id), optionally with a LoRA adapter.

Sampled tokens come back with their logprobs computed exactly as a trainer computes them: the sampler's raw
logits (``generate(output_logits=True)``) and the learner's teacher-forced forward (``halo.rl.forward``) give the
same numbers (tested to <= 1e-4).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import random
import threading
from typing import Any, Callable, Sequence

from halo.env.types import Observation
from halo.errors import PolicyError
from halo.policy.base import Completion, DecodingConfig, PolicyBackend
from halo.policy.prompt import Prompt, PromptConfig
from halo.policy.vision_cache import VisionFeatureCache


def load_model(path: str | os.PathLike, adapter: str | os.PathLike | None = None, dtype: str = "float32",
               device: str = "cpu"):
    """The Qwen3-VL model (and the PEFT adapter on top, if given), in eval mode."""
    import torch
    from transformers import AutoModelForImageTextToText

    try:
        model = AutoModelForImageTextToText.from_pretrained(path, dtype=getattr(torch, dtype)).to(device).eval()
        model.requires_grad_(False)  # a policy's weights: a learner adds (and trains) LoRA weights of its own
    except OSError as e:
        raise PolicyError(f"cannot load the model from {path!s} ({e}); build the tiny one with "
                          "`halo model tiny DIR`, or give a downloaded Qwen3-VL directory") from None
    if adapter:
        from peft import PeftModel

        if not os.path.isfile(os.path.join(adapter, "adapter_config.json")):
            raise PolicyError(f"no PEFT adapter at {adapter!s} (adapter_config.json missing); train one with "
                              "`halo train ...` or drop --adapter")
        model = PeftModel.from_pretrained(model, adapter).eval()
    return model


VISION_TOKENS = ("<|image_pad|>", "<|video_pad|>", "<|vision_start|>", "<|vision_end|>")


def vision_token_ids(tokenizer: Any) -> frozenset[int]:
    """Ids of Qwen-VL's vision placeholders: never sampled, and never trained on as completion tokens."""
    ids = set()
    for t in VISION_TOKENS:
        i = tokenizer.convert_tokens_to_ids(t)
        if isinstance(i, int) and i != tokenizer.unk_token_id:
            ids.add(i)
    return frozenset(ids)


class ForcedTokens:
    """Where the grammar admits exactly one continuation (a tool call's syntax), only the longest vocabulary token
    that starts it stays allowed: forced text costs a few decode steps instead of one per character a random model
    happens to pick, and it is no choice of the policy (probability 1, no gradient). Sampler and trainer apply the
    same rule (``HFPolicy.grammar_mask`` replays it)."""

    def __init__(self, tokenizer_info: Any):
        self.by_bytes: dict[bytes, int] = {}
        special = set(tokenizer_info.special_token_ids)
        for i, b in enumerate(tokenizer_info.decoded_vocab):
            if b and i not in special:
                self.by_bytes.setdefault(b, i)
        self.longest = max((len(b) for b in self.by_bytes), default=1)

    def token_for(self, matcher: Any, allowed: Callable[[int], bool] | None = None) -> int | None:
        """The one token to emit next, or None where the policy has a choice. ``allowed``: whether the matcher's
        own bitmask admits a token; the longest admitted one is taken. xgrammar's mask can be narrower than the
        bytes: inside an enum's string, after "Co" of "Coffee", it admits "f" but not the vocabulary's "ffe", and a
        forced token the mask refused left a row with nothing allowed (its token was then 0, which the matcher
        rejected: an AssertionError in xgrammar's processor, seen in an MCTS run)."""
        jump = matcher.find_jump_forward_string().encode()
        for n in range(min(len(jump), self.longest), 0, -1):
            t = self.by_bytes.get(jump[:n])
            if t is not None and (allowed is None or allowed(t)):
                return t
        return None


class _GrammarProcessor:
    """xgrammar's masking plus ``ForcedTokens``. xgrammar masks scores in place, and transformers keeps the same
    tensor as the "raw" logits it returns: it gets a copy, so the reported logprobs stay the model's own."""

    def __init__(self, inner: Any, forced: ForcedTokens | None):
        self.inner, self.forced = inner, forced

    def __call__(self, input_ids, scores):
        import torch

        out = self.inner(input_ids, scores.clone())
        if self.forced is not None:
            for row, m in enumerate(self.inner.matchers):
                if m.is_terminated():
                    continue
                t = self.forced.token_for(m, lambda i, r=out[row]: bool(torch.isfinite(r[i])))
                if t is not None:
                    keep = out[row, t].clone()
                    out[row] = float("-inf")
                    out[row, t] = keep
        return out


class _Explore:
    """Exploration in sampling: at each choice (a step where the grammar allows more than one token), with
    probability ``share`` the token is drawn uniformly among the allowed ones instead of from the policy, a mixture
    (1 - share) * policy + share * uniform per choice, so ids the policy's mass has left are still tried while the
    choices it has learned (click, not the final message) mostly stay its own. Each step's normaliser of the masked
    policy distribution is kept: ``sampler_logprobs`` are then the policy's own logprobs of what was drawn, and a
    trainer's ratio starts at 1 (the policy gradient on the policy's log-probability, as for replayed episodes).
    ``per_reply``: the draw is made once per reply, and a drawn reply takes every choice uniformly while the others
    are wholly the policy's: a multi-step episode then has whole steps of its own (per choice, a reply of three
    choices at 0.3 has one drawn in two, and a two-step chain of the policy's would rarely run intact). ``share``
    may be one per row (``HFPolicy.explore_stuck``)."""

    def __init__(self, share: float | Sequence[float], temperature: float, generator: Any, stop_ids: Sequence[int],
                 per_reply: bool = False, values: Sequence[Any] | None = None, start: int = 0,
                 decode: Callable[[Sequence[int]], str] | None = None):
        self.share, self.temperature, self.generator = share, temperature, generator
        self.stop_ids = sorted(stop_ids)  # ending with one stop token or another is no choice
        self.per_reply = per_reply or values is not None
        # explore_unit value (policy/explore_values.py): per row a ValueDraw; a drawn reply's enumerated values are
        # drawn whole (the reply so far is input_ids[row, start:], spelt by ``decode``)
        self.values, self.start, self.decode = values, start, decode
        self._tok: dict[int, str] = {}
        self.rows: Any = None  # per_reply: (B,) True for the replies drawn uniformly
        self.lse: list[Any] = []  # per generated step: (B,) logsumexp of the masked logits / temperature
        self.drawn: list[Any] = []  # per generated step: (B,) True where a real choice was drawn uniformly

    def __call__(self, input_ids, scores):
        import torch

        self.lse.append(torch.logsumexp(scores.float() / self.temperature, -1))
        allowed = torch.isfinite(scores)
        stops = allowed[:, self.stop_ids].sum(-1)
        options = allowed.sum(-1) - stops + (stops > 0).long()
        share = self.share if isinstance(self.share, (int, float)) else torch.tensor(self.share)
        if self.per_reply:
            if self.rows is None:
                self.rows = torch.rand(scores.shape[0], generator=self.generator) < share
            pick = self.rows
        else:
            pick = torch.rand(scores.shape[0], generator=self.generator) < share
        pick = pick.to(scores.device) & (options > 1)
        self.drawn.append(pick)
        if bool(pick.any()):
            uniform = torch.where(allowed, torch.zeros_like(scores), torch.full_like(scores, float("-inf")))
            if self.values is not None:
                for r in pick.nonzero().flatten().tolist():
                    t = self._value_token(r, input_ids, allowed)
                    if t is not None:
                        uniform[r] = float("-inf")
                        uniform[r, t] = 0.0
            scores = torch.where(pick[:, None], uniform, scores)
        return scores

    def _value_token(self, row: int, input_ids: Any, allowed: Any) -> int | None:
        draw = self.values[row] if self.values is not None else None
        if draw is None or self.decode is None:
            return None
        text = self.decode(input_ids[row, self.start:].tolist())
        ids = allowed[row].nonzero().flatten().tolist()
        return draw.token(text, ids, self._one)

    def _one(self, t: int) -> str:
        if t not in self._tok:
            assert self.decode is not None
            self._tok[t] = self.decode([t])
        return self._tok[t]


def _repeat_rows(enc: Any, n: int) -> dict[str, Any]:
    """One prompt's processor output as ``n`` rows (generate's own expansion serves sampling only, and sampling runs
    as greedy over ``_Sampler``'s draw): every tensor repeated along its batch dimension, the image's patches and
    grid once per row."""
    import torch

    if n == 1:
        return dict(enc)
    out = {}
    for k, v in enc.items():
        if not hasattr(v, "repeat"):
            out[k] = v
        elif k in ("pixel_values", "pixel_values_videos"):
            out[k] = torch.cat([v] * n, 0)
        else:
            out[k] = v.repeat(n, *([1] * (v.dim() - 1)))
    return out


class _Suppress:
    """``suppress_tokens`` as one indexed write (transformers' processor rebuilds an ``isin`` over the vocabulary at
    every step: ~4% of a tiny generate call)."""

    def __init__(self, ids: Sequence[int]):
        import torch

        self.ids = torch.tensor(sorted(ids), dtype=torch.long)

    def __call__(self, input_ids, scores):  # out of place: generate returns this tensor as the raw logits
        return scores.index_fill(1, self.ids.to(scores.device), float("-inf"))


class _Sampler:
    """The last processor of a sampling call: draws each row's token from the processed scores (temperature, then
    transformers' top-k/top-p warpers where set) by inverse CDF, records its logprob under that distribution, and
    leaves only that token for generate's argmax (generate runs greedy). ``torch.multinomial`` on the CPU costs
    ~1 ms a step for 8 rows whatever the grammar allows (18% of a tiny generate call); a cumsum and one uniform per
    row draw from the same distribution. Seeded like generate's sampling (torch's global generator)."""

    def __init__(self, temperature: float, top_k: int = 0, top_p: float = 1.0):
        from transformers.generation.logits_process import TopKLogitsWarper, TopPLogitsWarper

        self.temperature = temperature
        self.warpers = ([TopKLogitsWarper(top_k)] if top_k > 0 else []) + ([TopPLogitsWarper(top_p)] if top_p < 1
                                                                            else [])
        self.logprobs: list[Any] = []  # per generated step: (B,) logprob of the drawn token

    def __call__(self, input_ids, scores):
        import torch

        s = scores.float() if self.temperature == 1.0 else scores.float() / self.temperature
        for w in self.warpers:
            s = w(input_ids, s)
        probs = torch.softmax(s, -1)  # (log_softmax and exp cost ~4x as much over a vocabulary mostly -inf)
        cdf = probs.cumsum(-1)
        total = cdf[:, -1:]
        u = (1.0 - torch.rand(total.shape, device=s.device)) * total  # in (0, total]: never a zero-mass token
        tok = torch.searchsorted(cdf, u).squeeze(1).clamp_(max=s.shape[-1] - 1)
        empty = ~(total.squeeze(1) > 0)
        if bool(empty.any()):  # a row with nothing allowed (it has ended): generate pads it
            tok = torch.where(empty, s.argmax(-1), tok)
        self.logprobs.append(probs.gather(1, tok[:, None]).squeeze(1).log())
        out = torch.full_like(scores, float("-inf"))
        return out.scatter_(1, tok[:, None], 0.0)


class HFPolicy(PolicyBackend):
    """Qwen3-VL in this process. Generation runs in a worker thread, one call at a time."""

    name = "hf"

    def __init__(self, model_path: str | os.PathLike, adapter: str | os.PathLike | None = None,
                 decoding: DecodingConfig | None = None, prompt: PromptConfig | None = None, threads: int | None = None,
                 dtype: str = "float32", device: str = "cpu", max_batch: int = 1):
        super().__init__(decoding, prompt)
        import torch

        from halo.policy.processor import load_processor

        if threads:
            torch.set_num_threads(threads)
        self.model_path, self.adapter = str(model_path), (str(adapter) if adapter else None)
        try:
            self.processor = load_processor(model_path)
        except OSError as e:
            raise PolicyError(f"cannot load a processor from {model_path!s} ({e}); build the tiny model with "
                              "`halo model tiny DIR`, or give a downloaded Qwen3-VL directory") from None
        self.model = load_model(model_path, adapter, dtype, device)
        self.device = device
        # the vision tower once per screenshot while its weights are frozen (hashing the patches is cheap on the
        # host; a GPU model would copy them off the device for the key)
        self.vision_cache = VisionFeatureCache.install(self.model) if str(device) == "cpu" else None
        tok = self.processor.tokenizer
        gc = self.model.generation_config
        eos = gc.eos_token_id if gc.eos_token_id is not None else tok.eos_token_id
        self.eos_ids = set(eos if isinstance(eos, list) else [eos])
        self.pad_id = tok.pad_token_id if tok.pad_token_id is not None else next(iter(self.eos_ids))
        # a sampled vision placeholder would break the teacher-forced forward (image tokens != image features)
        self.vision_ids = vision_token_ids(tok)
        self._lock = threading.Lock()
        # the adapter version the weights are at, recorded on each completion (asynchronous GRPO sets it, under the
        # lock, with each update it publishes; None: not versioned)
        self.weights_version: int | None = None
        self._grammar = None
        self._forced: ForcedTokens | None = None
        self._calls = 0
        # share of sampled replies drawn by _Explore (a trainer sets it for its rollouts; evaluation samples at 0)
        self.explore = 0.0
        self.explore_per_reply = False  # the draw made once per reply, not at each choice (_Explore.per_reply)
        self.explore_values = False  # a drawn reply's enumerated values drawn whole (policy/explore_values.py)
        self.explore_stuck = 0.0  # the explore share of a reply to a page where the policy repeats itself (at least)
        self.explore_novel = False  # explored values favour what the episode has not tried (action_space.explore_prior)
        self.explore_fill = False  # explored actions favour fill while a quoted goal string is untyped (explore_prior)
        self._explore_gen = None  # torch.Generator, seeded from the decoding seed on first use
        self.max_batch = max_batch
        self.batch_wait_s = 0.01
        self._pending: list[Any] = []
        self._batcher: asyncio.Task | None = None

    # ------------------------------------------------------------ encoding
    def encode(self, prompt: Prompt):
        """Processor output for one prompt (batch 1): input_ids, attention_mask, mm_token_type_ids, pixels."""
        text = self.processor.apply_chat_template(prompt.hf_messages(), tokenize=False, add_generation_prompt=True)
        cfg = self.prompt_config
        enc = self.processor(text=[text], images=[prompt.pil_image()], return_tensors="pt",
                             size={"shortest_edge": cfg.min_pixels, "longest_edge": cfg.max_pixels})
        return enc.to(self.device)

    # ------------------------------------------------------------ sampling
    async def complete(self, prompt: Prompt, obs: Observation, n: int, temperature: float) -> list[Completion]:
        """Requests that arrive together (the episodes of a group, each at its own step) are sampled in one
        generate call, up to ``max_batch`` rows: a small model's decode step costs the same for 1 row or 8."""
        if self.max_batch <= 1:
            return await asyncio.to_thread(self._complete_sync, prompt, obs, n, temperature)
        fut = asyncio.get_running_loop().create_future()
        self._pending.append((prompt, obs, n, temperature, fut))
        if self._batcher is None or self._batcher.done():
            self._batcher = asyncio.create_task(self._drain())
        return await fut

    async def _drain(self) -> None:
        await asyncio.sleep(self.batch_wait_s)  # let the requests of concurrent episodes arrive
        while self._pending:
            t = self._pending[0][3]
            batch, rows = [], 0
            for r in list(self._pending):
                if r[3] == t and (not batch or rows + r[2] <= self.max_batch):
                    batch.append(r)
                    rows += r[2]
                    self._pending.remove(r)
            try:
                outs = await asyncio.to_thread(self._complete_batch_sync, [(p, o, n) for p, o, n, _, _ in batch], t)
            except Exception as e:  # noqa: BLE001 - every waiting episode gets the error, none waits forever
                for *_, fut in batch:
                    if not fut.done():
                        fut.set_exception(e)
                continue
            for (*_, fut), out in zip(batch, outs):
                if not fut.done():
                    fut.set_result(out)
            await asyncio.sleep(0)

    def _tool_grammar(self):
        from halo.policy.grammar import ToolCallGrammar

        if self._grammar is None:
            vocab = self.model.get_output_embeddings().weight.shape[0]
            self._grammar = ToolCallGrammar(self.processor.tokenizer, vocab_size=vocab,
                                            stop_token_ids=sorted(self.eos_ids))
            self._forced = ForcedTokens(self._grammar.tokenizer_info) if self.decoding.jump_forward else None
        return self._grammar

    def _logits_processors_for(self, observations: Sequence[Observation]) -> list:
        """The grammar processor for a batch: one compiled grammar per row (each page has its own element ids)."""
        if not self.decoding.constrained:
            return []
        import xgrammar as xgr

        g = self._tool_grammar()
        compiled = [g.compile(json.loads(self.grammar_key(o))) for o in observations]
        return [_GrammarProcessor(xgr.contrib.hf.LogitsProcessor(compiled if len(compiled) > 1 else compiled[0]),
                                  self._forced)]

    def grammar_mask(self, grammar: str, token_ids: Sequence[int]):
        """Additive logit mask (0 / -inf, shape [len(token_ids), vocab]) of what the grammar allowed at each step of
        a constrained completion, replayed with xgrammar's matcher: a trainer adds it to its logits so that its
        logprobs are those of the distribution actually sampled (grammar-forced tokens then carry no gradient)."""
        import torch
        import xgrammar as xgr

        vocab = self.model.get_output_embeddings().weight.shape[0]
        matcher = xgr.GrammarMatcher(self._tool_grammar().compile(json.loads(grammar)))
        bitmask = xgr.allocate_token_bitmask(1, vocab)
        mask = torch.zeros((len(token_ids), vocab), dtype=torch.float32)
        forced = self._forced
        for i, tok in enumerate(token_ids):
            if matcher.is_terminated():
                break
            matcher.fill_next_token_bitmask(bitmask)
            xgr.apply_token_bitmask_inplace(mask[i:i + 1], bitmask)
            t = forced.token_for(matcher, lambda j, r=mask[i]: bool(torch.isfinite(r[j]))) if forced is not None \
                else None
            if t is not None:
                mask[i] = float("-inf")
                mask[i, t] = 0.0
            if not matcher.accept_token(int(tok)):
                break
        if self.vision_ids:  # suppressed in sampling too (see __init__)
            mask[:, sorted(self.vision_ids)] = float("-inf")
        return mask

    def _complete_sync(self, prompt: Prompt, obs: Observation, n: int, temperature: float) -> list[Completion]:
        return self._complete_batch_sync([(prompt, obs, n)], temperature)[0]

    def encode_batch(self, prompts: Sequence[Prompt]):
        """Processor output for several prompts, left-padded (one generate call samples them all)."""
        if len(prompts) == 1:
            return self.encode(prompts[0])
        cfg = self.prompt_config
        texts = [self.processor.apply_chat_template(p.hf_messages(), tokenize=False, add_generation_prompt=True)
                 for p in prompts]
        tok = self.processor.tokenizer
        side, tok.padding_side = tok.padding_side, "left"
        try:
            enc = self.processor(text=texts, images=[p.pil_image() for p in prompts], return_tensors="pt",
                                 padding=True, size={"shortest_edge": cfg.min_pixels, "longest_edge": cfg.max_pixels})
        finally:
            tok.padding_side = side
        return enc.to(self.device)

    def _complete_batch_sync(self, reqs: Sequence[tuple[Prompt, Observation, int]],
                             temperature: float) -> list[list[Completion]]:
        """One generate call for several requests (``n`` rows each); completions per request, in order."""
        import torch
        from transformers import LogitsProcessorList

        d = self.decoding
        rows = [(p, o) for p, o, n in reqs for _ in range(n)]
        with self._lock, torch.no_grad():
            enc = self.encode_batch([p for p, _ in rows]) if len(reqs) > 1 else _repeat_rows(self.encode(reqs[0][0]),
                                                                                             reqs[0][2])
            P = enc["input_ids"].shape[1]
            prompt_lens = enc["attention_mask"].sum(1).tolist()
            if d.seed is not None:
                torch.manual_seed(d.seed + self._calls)
            self._calls += 1
            sampling = temperature > 0
            procs = self._logits_processors_for([o for _, o in rows])
            explorer = None
            if sampling and d.constrained and (self.explore > 0 or self.explore_stuck > 0):
                from halo.policy.action_space import explore_prior, page_schema, repeating

                if self._explore_gen is None:
                    self._explore_gen = torch.Generator()
                    self._explore_gen.manual_seed(d.seed if d.seed is not None else random.getrandbits(63))
                values = None
                if self.explore_values:  # each row's own page: its schema's values, drawn with the explorer's seed
                    from halo.policy.explore_values import ValueDraw

                    seed = int(torch.randint(0, 2**62, (1,), generator=self._explore_gen))
                    values = [ValueDraw(page_schema(o, self.prompt_config), random.Random(seed + i),
                                        prefer=explore_prior(o, self.prompt_config, novel=self.explore_novel,
                                                             fill=self.explore_fill))
                              for i, (_, o) in enumerate(rows)]
                share: float | list[float] = self.explore
                if self.explore_stuck > 0:  # a row whose page shows the policy repeating itself: explored more
                    share = [max(self.explore, self.explore_stuck) if repeating(o) else self.explore for _, o in rows]
                tok = self.processor.tokenizer
                explorer = _Explore(share, temperature, self._explore_gen, self.eos_ids,
                                    self.explore_per_reply, values=values, start=P,
                                    decode=lambda ids: tok.decode(ids, skip_special_tokens=False))
                procs = procs + [explorer]
            if self.vision_ids:
                procs = [_Suppress(self.vision_ids), *procs]
            sampler = _Sampler(temperature, d.top_k, d.top_p) if sampling else None
            if sampler is not None:
                procs = procs + [sampler]
            gp = next((q for q in procs if isinstance(q, _GrammarProcessor)), None)
            prefix = self._forced_prefix(gp, len(rows), d.max_tokens - 1) if gp is not None else []
            k = len(prefix)
            # generate runs greedy: _Sampler draws the token. Explicit values override a hub generation_config
            # (Qwen's top_k=20, top_p=0.8, ...): RL needs the distribution the logprobs describe
            kw: dict[str, Any] = dict(do_sample=False, max_new_tokens=d.max_tokens - k,
                                      output_logits=True, output_scores=d.constrained and sampler is None,
                                      return_dict_in_generate=True, pad_token_id=self.pad_id,
                                      logits_processor=LogitsProcessorList(procs), temperature=None, top_p=None,
                                      top_k=None, repetition_penalty=1.0)
            pre_logits = None
            if k:  # the forced opening in one forward (the prompt's), generate goes on from its cache
                enc, pre_logits = self._prefill_prefix(enc, prefix)
            out = self.model.generate(**enc, **kw)
            version = self.weights_version  # the weights this generate call used (an update waits for the lock)
        seqs = out.sequences[:, P:]  # the prefix (if any) and what generate added
        logits = torch.stack(out.logits, 1).float()  # raw logits, before any processor (B, T, V)
        if pre_logits is not None:
            logits = torch.cat([pre_logits, logits], 1)
        if sampling and temperature != 1.0:
            logits = logits / temperature
        lps = torch.log_softmax(logits, -1).gather(-1, seqs.unsqueeze(-1)).squeeze(-1)
        scores, drawn = None, None
        if d.constrained:  # the grammar changes the sampling distribution: keep its logprobs beside the model's
            gen = seqs[:, k:]
            if sampler is not None:
                scores = torch.stack(sampler.logprobs, 1)
            else:  # greedy: the grammar-masked scores generate kept
                scores = torch.log_softmax(torch.stack(out.scores, 1).float(), -1).gather(
                    -1, gen.unsqueeze(-1)).squeeze(-1)
            if explorer is not None:  # the policy's masked logprobs of what the uniform draw picked
                own = logits[:, k:].gather(-1, gen.unsqueeze(-1)).squeeze(-1) - torch.stack(explorer.lse, 1)
                drawn = torch.stack(explorer.drawn, 1)  # (B, T): steps drawn uniformly
                scores = torch.where(drawn, own, scores)
                drawn = torch.cat([torch.zeros_like(seqs[:, :k], dtype=torch.bool), drawn], 1)
            scores = torch.cat([torch.zeros(seqs[:, :k].shape, dtype=scores.dtype, device=scores.device), scores],
                               1)  # forced: log 1
            scores = scores.tolist()
        results: list[Completion] = []
        for i, (row, lp) in enumerate(zip(seqs.tolist(), lps.tolist())):
            end = next((j + 1 for j, t in enumerate(row) if t in self.eos_ids), None)
            ids = row[:end] if end else row
            text = self.processor.tokenizer.decode(ids, skip_special_tokens=True)
            c = Completion(text=text, token_ids=tuple(ids), logprobs=tuple(lp[:len(ids)]),
                           finish_reason="stop" if end else "length",
                           prompt_tokens=int(prompt_lens[min(i, len(prompt_lens) - 1)]), version=version)
            if scores is not None:
                c = dataclasses.replace(c, sampler_logprobs=tuple(scores[i][:len(ids)]),
                                        grammar=self.grammar_key(rows[i][1]),
                                        explored=drawn is not None and bool(drawn[i, :len(ids)].any()))
            results.append(c)
        out_by_req, k = [], 0
        for _, _, n in reqs:
            out_by_req.append(results[k:k + n])
            k += n
        return out_by_req

    def _forced_prefix(self, gp: _GrammarProcessor, rows: int, limit: int) -> list[int]:
        """The tokens the grammar forces at the start of every row's reply (``ForcedTokens``: a tool call's opening,
        about half of a tiny-mode reply's tokens), with the grammar processor's matchers advanced past them; empty
        without jump-forward. Generating them one decode step each cost as much as the rest of the reply."""
        import torch
        import xgrammar as xgr

        inner = gp.inner
        if gp.forced is None or inner.matchers:
            return []
        grammars = inner.compiled_grammars if len(inner.compiled_grammars) > 1 else inner.compiled_grammars * rows
        matchers = [xgr.GrammarMatcher(g) for g in grammars]
        bitmask = xgr.allocate_token_bitmask(1, inner.full_vocab_size)
        mask = torch.zeros((1, inner.full_vocab_size), dtype=torch.float32)

        def forced(m: Any) -> int | None:  # the sampler's rule: the longest token the matcher's mask admits
            m.fill_next_token_bitmask(bitmask)
            mask.zero_()
            xgr.apply_token_bitmask_inplace(mask, bitmask)
            return gp.forced.token_for(m, lambda i: bool(torch.isfinite(mask[0, i])))

        prefix: list[int] = []
        while len(prefix) < limit and not matchers[0].is_terminated():
            t = forced(matchers[0])
            if t is None or any(forced(m) != t for m in matchers[1:]):
                break
            if not all(m.accept_token(t) for m in matchers):
                raise PolicyError(f"the grammar refused the token it forces ({t})")
            prefix.append(t)
        if prefix:
            inner.matchers, inner.batch_size, inner.compiled_grammars = matchers, rows, grammars
            inner.token_bitmask = xgr.allocate_token_bitmask(rows, inner.full_vocab_size)
        return prefix

    def _prefill_prefix(self, enc: Any, prefix: Sequence[int]) -> tuple[dict[str, Any], Any]:
        """The prompt and a forced prefix through the model in one forward: (generate's inputs, which continue from
        that cache with the prefix's last token; the raw logits [B, k, V] that predicted the prefix's tokens)."""
        import torch

        B, k = enc["input_ids"].shape[0], len(prefix)
        dev = enc["input_ids"].device
        pre = torch.tensor(list(prefix), dtype=torch.long, device=dev).expand(B, k)
        longer = {"input_ids": torch.cat([enc["input_ids"], pre], 1)}
        for name, fill in (("attention_mask", 1), ("mm_token_type_ids", 0)):  # the prefix: attended, text
            if name in enc:
                longer[name] = torch.cat([enc[name], torch.full((B, k), fill, dtype=enc[name].dtype, device=dev)], 1)
        images = {n: enc[n] for n in ("pixel_values", "image_grid_thw") if n in enc}
        first = self.model(**{n: v[:, :-1] for n, v in longer.items()}, **images, use_cache=True, logits_to_keep=k)
        return {**longer, "past_key_values": first.past_key_values}, first.logits.float()
