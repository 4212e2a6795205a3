"""The learner at Qwen3-VL-8B's size on one GPU: does an update fit in memory, and how long does it take, with and
without gradient checkpointing (``lora.gradient_checkpointing``) and at several ``grpo.pack_tokens``.

No hub weights here: random weights in Qwen3-VL-8B-Instruct's architecture (text: 36 layers of 4096, MLP 12288,
32 query / 8 KV heads of 128, vocabulary 151,936; vision: 27 blocks of 1152, MLP 4304, 16 heads, deepstack at
8/16/24; 8.8B parameters) with the tiny model's tokenizer and processor (its 5,120 tokens inside the 151,936 rows, as
Qwen pads its own), saved as a model directory and loaded by ``HFPolicy`` as HALO loads any. Prompts as the 8B modes
build them (``PromptConfig()``: a 1280x720 screenshot -> 880 visual tokens, Qwen's tool-calling system prompt);
replies sampled by the in-process sampler under the tool-call grammar; then ``LoRALearner.update`` (rank 32 on
q/k/v/o, as ``configs/rl_config.yaml``) on them with GRPO advantages. Reports the sampler-vs-learner logprob gap (the
max over the first reply's tokens; the mean and max over the tokens of every reply drawn where the grammar left a
choice) and, per setting, peak GPU memory and seconds per update, or the out-of-memory error. The sampling time is HF
``generate``'s, not vLLM's (which samples for the 8B modes). Writes ``bench/results/learner_scale_<device>.json``.

Run (GPU): python bench/learner_scale_check.py --device cuda
Smoke test of the script (CPU, a small model of the same family):
  python bench/learner_scale_check.py --device cpu --dtype float32 --small --out learner_scale_smoke.json
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import io
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QWEN3_VL_8B = {"hidden": 4096, "intermediate": 12288, "layers": 36, "heads": 32, "kv_heads": 8, "head_dim": 128,
               "vocab": 151936, "v_depth": 27, "v_hidden": 1152, "v_intermediate": 4304, "v_heads": 16,
               "deepstack": [8, 16, 24], "v_positions": 2304}
SMALL = {"hidden": 256, "intermediate": 512, "layers": 2, "heads": 4, "kv_heads": 2, "head_dim": 64, "vocab": 8192,
         "v_depth": 2, "v_hidden": 128, "v_intermediate": 256, "v_heads": 4, "deepstack": [0], "v_positions": 256}


def build_model_dir(out: Path, size: dict, device: str, dtype: str) -> float:
    """A Qwen3-VL directory of ``size`` with random weights and the tiny model's tokenizer and processor; returns
    the parameter count in billions."""
    import torch
    from transformers import AutoConfig, GenerationConfig, Qwen3VLForConditionalGeneration

    from halo.policy.tiny import build_tiny_model

    tiny = out.parent / "tiny"
    build_tiny_model(tiny, seed=0)
    cfg = AutoConfig.from_pretrained(tiny)
    half = size["head_dim"] // 2
    t = cfg.text_config
    t.hidden_size, t.intermediate_size, t.num_hidden_layers = size["hidden"], size["intermediate"], size["layers"]
    t.num_attention_heads, t.num_key_value_heads, t.head_dim = size["heads"], size["kv_heads"], size["head_dim"]
    t.vocab_size = size["vocab"]
    t.rope_parameters = {**t.rope_parameters, "mrope_section": [half * 3 // 8, half * 5 // 16, half * 5 // 16]}
    v = cfg.vision_config
    v.depth, v.hidden_size, v.intermediate_size = size["v_depth"], size["v_hidden"], size["v_intermediate"]
    v.num_heads, v.out_hidden_size, v.num_position_embeddings = size["v_heads"], size["hidden"], size["v_positions"]
    v.deepstack_visual_indexes = size["deepstack"]
    previous = torch.get_default_dtype()
    torch.set_default_dtype(getattr(torch, dtype))
    try:
        with torch.device(device):  # initialised where it will run: seconds on a GPU, not minutes on a CPU
            model = Qwen3VLForConditionalGeneration(cfg)
    finally:
        torch.set_default_dtype(previous)
    n = sum(p.numel() for p in model.parameters()) / 1e9
    model.generation_config = GenerationConfig.from_pretrained(tiny)
    model.save_pretrained(out)
    del model
    for f in tiny.iterdir():  # tokenizer, processor, chat template; not the weights, the config or the tiny marker
        if f.is_file() and not f.name.startswith(("model", "config.json", "HALO_TINY", "generation_config")):
            shutil.copy(f, out / f.name)
    return n


def observation(k: int):
    """A 1280x720 page of 36 links and a goal naming one (what the 8B prompt holds: screenshot, goal, URL)."""
    from PIL import Image, ImageDraw

    from halo.env.types import Element, Observation

    img = Image.new("RGB", (1280, 720), (245, 245, 245))
    draw = ImageDraw.Draw(img)
    els = {}
    for i in range(1, 37):
        x, y = 40 + 200 * ((i - 1) % 6), 60 + 100 * ((i - 1) // 6)
        draw.rectangle((x, y, x + 160, y + 40), outline=(30, 30, 120))
        draw.text((x + 10, y + 12), f"Department {i}", fill=(0, 0, 0))
        els[str(i)] = Element(str(i), "link", f"Department {i}", (x, y, 160, 40))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return Observation(screenshot=buf.getvalue(), image_format="png", axtree="", elements=els,
                       url="http://127.0.0.1:8701/", goal=f"Open Department {k % 36 + 1}.", step=0)


def peak_gib(device: str) -> float | None:
    import torch

    return round(torch.cuda.max_memory_allocated() / 2 ** 30, 2) if device.startswith("cuda") else None


async def run(a, path: Path) -> dict:
    import torch

    from halo.policy.base import DecodingConfig
    from halo.policy.hf_backend import HFPolicy
    from halo.policy.prompt import PromptConfig
    from halo.rl.advantages import group_advantages
    from halo.rl.config import LoRASettings, OptimSettings
    from halo.rl.forward import token_logprobs, training_batch
    from halo.rl.learner import LoRALearner, TrainItem, set_gradient_checkpointing

    torch.manual_seed(0)
    size = SMALL if a.small else QWEN3_VL_8B
    cuda = a.device.startswith("cuda")
    out: dict = {"device": a.device, "dtype": a.dtype, "size": "small" if a.small else "Qwen3-VL-8B architecture",
                 "architecture": size, "torch": torch.__version__,
                 "gpu": torch.cuda.get_device_name() if cuda else None}
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp) / "model"
        t0 = time.perf_counter()
        out["params_b"] = round(build_model_dir(d, size, a.device, a.dtype), 3)
        out["build_and_save_s"] = round(time.perf_counter() - t0, 1)
        print(f"built {out['params_b']}B parameters in {out['build_and_save_s']} s", flush=True)
        if cuda:
            torch.cuda.empty_cache()
            torch.cuda.reset_peak_memory_stats()
        t0 = time.perf_counter()
        pol = HFPolicy(d, decoding=DecodingConfig(temperature=1.0, max_tokens=a.max_tokens, constrained=True,
                                                  jump_forward=True, seed=0),
                       prompt=PromptConfig(text_max_chars=a.text_chars), dtype=a.dtype, device=a.device,
                       max_batch=a.group * a.prompts)
        out["load_s"] = round(time.perf_counter() - t0, 1)
        out["weights_gib"] = peak_gib(a.device)
        reqs = [(o, pol.build_prompt(o)) for o in (observation(k) for k in range(a.prompts))]
        out["prompt_tokens"] = [int(pol.encode(p)["input_ids"].shape[1]) for _, p in reqs]
        t0 = time.perf_counter()
        outs = await asyncio.gather(*(pol.sample_prompt(p, o, a.group) for o, p in reqs))
        if cuda:
            torch.cuda.synchronize()
        out["sample_s"] = round(time.perf_counter() - t0, 2)
        items = []
        for (o, p), samples in zip(reqs, outs):
            r = [float(len(s.token_ids) % 3 == 0) for s in samples]  # any split of the group: timing, not learning
            r[0], r[1] = 1.0, 0.0
            for s, adv in zip(samples, group_advantages(r)):
                if s.token_ids and s.sampler_logprobs is not None:
                    items.append(TrainItem(prompt=p, token_ids=tuple(s.token_ids),
                                           sampler_logprobs=tuple(s.sampler_logprobs), advantage=adv,
                                           grammar=s.grammar, prompt_tokens=s.prompt_tokens))
        out["items"] = len(items)
        out["reply_tokens"] = [len(it.token_ids) for it in items]
        s = outs[0][0]
        with torch.no_grad():  # the learner's logprobs of the sampled tokens against the sampler's
            b = training_batch(pol.encode(reqs[0][1]), [s.token_ids], pol.pad_id)
            m = pol.grammar_mask(s.grammar, s.token_ids)
            lp = token_logprobs(pol.model, b, 1.0, m)[0, b.prompt_len - 1:b.prompt_len - 1 + len(s.token_ids)]
        out["max_logprob_gap_sampler_vs_learner"] = max(abs(float(x) - y) for x, y in
                                                        zip(lp.float().cpu(), s.sampler_logprobs))
        gaps = []  # every reply's: |learner - sampler| at each token drawn where the grammar left a choice
        vocab = pol.model.get_output_embeddings().weight.shape[0]
        with torch.no_grad():  # a prompt's replies in one forward, as the learner packs them
            for (o, p), samples in zip(reqs, outs):
                rows = [s for s in samples if s.token_ids and s.sampler_logprobs is not None]
                if not rows:
                    continue
                b = training_batch(pol.encode(p), [s.token_ids for s in rows], pol.pad_id)
                L = max(len(s.token_ids) for s in rows)
                m = torch.zeros((len(rows), L, vocab))
                for r, s in enumerate(rows):
                    g = pol.grammar_mask(s.grammar, s.token_ids)
                    m[r, :g.shape[0]] = g
                lp = token_logprobs(pol.model, b, 1.0, m)[:, b.prompt_len - 1:b.prompt_len - 1 + L].float().cpu()
                choice = torch.isfinite(m).sum(-1) > 1
                gaps += [abs(float(lp[r, j]) - s.sampler_logprobs[j]) for r, s in enumerate(rows)
                         for j in range(len(s.token_ids)) if choice[r, j]]
        out["choice_tokens"] = len(gaps)
        out["mean_logprob_gap_sampler_vs_learner"] = statistics.fmean(gaps) if gaps else None
        out["max_logprob_gap_all_replies"] = max(gaps, default=None)
        path.write_text(json.dumps(out, indent=1) + "\n")
        learner = LoRALearner(pol, LoRASettings(rank=32, alpha=64), OptimSettings(lr=1e-6, max_tokens=a.max_tokens))
        out["trainable_params_m"] = round(learner.trainable_parameters / 1e6, 2)
        out["updates"] = []
        for spec in a.settings.split(","):
            ckpt, pack = spec.split(":")
            row: dict = {"gradient_checkpointing": ckpt == "on", "pack_tokens": int(pack)}
            set_gradient_checkpointing(learner.model, row["gradient_checkpointing"])
            learner.optim_cfg = dataclasses.replace(learner.optim_cfg, pack_tokens=int(pack))
            row["forwards"] = len(learner._micro_batches(items))
            if cuda:
                torch.cuda.empty_cache()
                torch.cuda.reset_peak_memory_stats()
            times = []
            try:
                for _ in range(a.repeats):
                    t0 = time.perf_counter()
                    st = learner.update(items)
                    if cuda:
                        torch.cuda.synchronize()
                    times.append(time.perf_counter() - t0)
                mean = statistics.fmean(times[1:] or times)  # after the warm-up
                row.update(s_per_update=round(mean, 2), first_s=round(times[0], 2),
                           s_per_item=round(mean / len(items), 3),
                           tokens=st.tokens, grad_norm=round(st.grad_norm, 4), peak_gib=peak_gib(a.device))
            except torch.cuda.OutOfMemoryError as e:
                row.update(oom=str(e).split("\n")[0][:240], peak_gib=peak_gib(a.device))
                learner.optimizer.zero_grad(set_to_none=True)
                learner.model.eval()
            gc.collect()
            if cuda:
                torch.cuda.empty_cache()
            print(json.dumps(row), flush=True)
            out["updates"].append(row)
            path.write_text(json.dumps(out, indent=1) + "\n")  # a later setting that kills the process loses nothing
    return out


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cuda")
    p.add_argument("--dtype", default="bfloat16")
    p.add_argument("--small", action="store_true", help="a small model of the same family (test the script)")
    p.add_argument("--prompts", type=int, default=4, help="prompts (pages) per update")
    p.add_argument("--group", type=int, default=8, help="replies sampled per prompt")
    p.add_argument("--max-tokens", type=int, default=96)
    p.add_argument("--text-chars", type=int, default=32, help="bound on typed text (PromptConfig.text_max_chars)")
    p.add_argument("--repeats", type=int, default=2, help="updates per setting (the first also warms up)")
    p.add_argument("--settings", default="on:16384,off:4096,on:65536,off:16384",
                   help="comma-separated checkpointing:pack_tokens, measured in this order")
    p.add_argument("--out", default=None, help="file name under bench/results/, or an absolute path")
    a = p.parse_args()
    path = ROOT / "bench" / "results" / (a.out or f"learner_scale_{a.device.split(':')[0]}.json")
    res = asyncio.run(run(a, path))
    path.write_text(json.dumps(res, indent=1) + "\n")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
