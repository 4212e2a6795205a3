"""A tiny Qwen3-VL, built offline and deterministically, so every model path (sampling, logprobs, LoRA, eval)
runs on a laptop CPU. Random weights (~1M parameters) and a byte-level BPE tokenizer trained here on a synthetic
corpus of agent-like text, with Qwen's special tokens; a few MB on disk (REFERENCE.md §4).

The in-process path loads an image-only processor (Qwen3-VL's video processor needs torchvision, which it avoids);
the directory still holds what vLLM's loader expects of a Qwen3-VL checkpoint (``standard_processor_files``), so one
model serves both.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

VOCAB_SIZE = 5120  # room for the words of REAL-local's sites and for every number 0-999 as one token
HIDDEN = 64
TINY_FORMAT = 2  # 2: element ids 0-999 are single tokens (HALO_TINY.json without "format" is 1)

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>",
                  "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>",
                  "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>"]
PLAIN_ADDED_TOKENS = ["<tool_call>", "</tool_call>", "<think>", "</think>"]  # Qwen marks these special=False
QWEN_PRETOKENIZE = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
                    r"|\s*[\r\n]+|\s+(?!\S)|\s+")
# Qwen splits numbers digit by digit; the tiny tokenizer keeps up to three digits together (as Llama 3's does), so
# an element id is one token: digit by digit, ids 1 and 10-19 share their first token and "11" repeats it, and a
# model learning from random weights cannot tell those choices apart (bench/decision_probe.py).
TINY_PRETOKENIZE = QWEN_PRETOKENIZE.replace(r"|\p{N}|", r"|\p{N}{1,3}|")

# A Qwen-style chat template (images only): every message content is a list of parts.
CHAT_TEMPLATE = (
    "{%- for message in messages -%}"
    "{{- '<|im_start|>' + message['role'] + '\\n' -}}"
    "{%- if message['content'] is string -%}{{- message['content'] -}}"
    "{%- else -%}{%- for part in message['content'] -%}"
    "{%- if part['type'] == 'image' or 'image' in part or 'image_url' in part -%}"
    "{{- '<|vision_start|><|image_pad|><|vision_end|>' -}}"
    "{%- elif 'text' in part -%}{{- part['text'] -}}{%- endif -%}"
    "{%- endfor -%}{%- endif -%}"
    "{{- '<|im_end|>\\n' -}}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n' -}}{%- endif -%}"
)

_WORDS = ("click type scroll press key drag wait done answer open the a an to of in on for with button search box "
          "menu email inbox send reply calendar event product cart order home listing tour agent message "
          "goal task action coordinate element field select option link page url you are assistant user system "
          "helpful please find and then into from is it this that at by previous step current tree").split()
_ACTIONS = ("left_click", "double_click", "type", "scroll", "key", "click", "fill", "send_msg_to_user", "terminate")


def _site_texts() -> list[str]:
    """Text the tiny model meets on REAL-local (names, subjects, products, addresses, roles) and in its prompt, so
    the tokenizer encodes it in whole words: a prompt of a few hundred tokens, not thousands of characters.

    Only the records REAL's own data has (56 emails, 22 events, 61 products, 48 homes), not the hundreds generated
    around them: the tokenizer (and so a seed's tiny model) stays the one the learning checks measured as the sites
    grow (same vocabulary as before they did, checked), and the goals' words keep their tokens."""
    from real_local.gocalendar.seed import real_events
    from real_local.gomail.seed import REAL_EMAILS
    from real_local.omnizon.catalog import CORE_PRODUCTS
    from real_local.zilloft.listings import FIXED

    out = []
    for e in REAL_EMAILS.values():
        out += [f"{e['name']} {e['subject']}", e["from"]]
    for e in real_events().values():
        out += [f"{e['title']} {e.get('location') or ''} {e.get('description') or ''}"]
    out += [f"{p.title} {p.category} {p.brand}" for p in CORE_PRODUCTS]
    out += [f"{x.street} {x.city} {x.home_type}" for x in FIXED]
    out += ["Goal: Current URL: http://127.0.0.1:8701/ Step: 0 Previous actions: none Elements: Previous actions "
            "(oldest first): Last action failed: What is the next action? Reply with one tool call.",
            "button link textbox searchbox checkbox radio combobox option menuitem tab gridcell row listbox"]
    return [t for t in out if t.strip()]


def _corpus(rng: random.Random, n: int = 20000):
    texts = _site_texts()
    for _ in range(40):  # enough repeats that their words become tokens
        yield from texts
    for _ in range(2000):  # compact tool calls of the action space (the grammar's separators)
        act = rng.choice(("click", "fill", "go_back", "send_msg_to_user", "select_option", "press", "hover"))
        args = {"action": act, "element": str(rng.randint(1, 400))} if act != "go_back" else {"action": act}
        yield '<tool_call>\n' + json.dumps({"name": "browser", "arguments": args}) + '\n</tool_call>'
    for _ in range(30):  # every element id 0-999 becomes one token
        yield from (f"[{i}] " for i in range(1000))
    syllables = [c + v for c in "bcdfghjklmnprstvwz" for v in ("a", "e", "i", "o", "u", "ou", "ea")]
    pseudo = ["".join(rng.choice(syllables) for _ in range(rng.randint(1, 4))) for _ in range(3000)]
    for _ in range(n):
        r = rng.random()
        if r < 0.3:
            args = {"action": rng.choice(_ACTIONS), "coordinate": [rng.randint(0, 1000), rng.randint(0, 1000)]}
            yield '<tool_call>\n' + json.dumps({"name": "computer_use", "arguments": args}) + '\n</tool_call>'
        elif r < 0.4:
            yield f'[{rng.randint(1, 300)}] {rng.choice(["button", "link", "textbox"])} "{rng.choice(pseudo)}"'
        else:
            k = rng.randint(3, 20)
            s = " ".join(rng.choice(_WORDS) if rng.random() < 0.5 else rng.choice(pseudo) for _ in range(k))
            yield s.capitalize() + (". " + str(rng.randint(0, 99999)) + "\n" if rng.random() < 0.3 else ".")


def build_tokenizer(seed: int = 0, vocab_size: int = VOCAB_SIZE):
    """Train the byte-level BPE on the synthetic corpus and wrap it as a fast HF tokenizer with the template."""
    from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE(unk_token=None, fuse_unk=False, byte_fallback=False))
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(TINY_PRETOKENIZE), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False, trim_offsets=False),
    ])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=2, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=[])
    tok.train_from_iterator(_corpus(random.Random(seed)), trainer)
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in SPECIAL_TOKENS])
    tok.add_tokens([AddedToken(t, special=False, normalized=False) for t in PLAIN_ADDED_TOKENS])
    return PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>", bos_token=None, unk_token=None,
        model_max_length=32768, padding_side="left", clean_up_tokenization_spaces=False,
        chat_template=CHAT_TEMPLATE)


def build_processor(tokenizer):
    from transformers import Qwen2VLImageProcessorPil

    from halo.policy.processor import ImageOnlyQwen3VLProcessor

    images = Qwen2VLImageProcessorPil(patch_size=16, temporal_patch_size=2, merge_size=2, image_mean=[0.5] * 3,
                                      image_std=[0.5] * 3, size={"shortest_edge": 64 * 32 * 32,
                                                                 "longest_edge": 1280 * 720})
    return ImageOnlyQwen3VLProcessor(image_processor=images, tokenizer=tokenizer, chat_template=CHAT_TEMPLATE)


def build_model(tokenizer, seed: int = 0, hidden: int = HIDDEN, init_std: float | None = None):
    import torch
    from transformers import Qwen3VLConfig, Qwen3VLForConditionalGeneration

    ids = {t: tokenizer.convert_tokens_to_ids(t) for t in SPECIAL_TOKENS}
    cfg = Qwen3VLConfig(
        text_config=dict(
            vocab_size=len(tokenizer), hidden_size=hidden, intermediate_size=2 * hidden, num_hidden_layers=2,
            num_attention_heads=4, num_key_value_heads=2, head_dim=hidden // 4, max_position_embeddings=8192,
            rope_parameters={"rope_type": "default", "rope_theta": 5_000_000.0,
                             "mrope_section": [hidden // 16, hidden // 32, hidden // 32], "mrope_interleaved": True},
            initializer_range=init_std or 0.02,
            tie_word_embeddings=False, pad_token_id=ids["<|endoftext|>"], bos_token_id=ids["<|endoftext|>"],
            eos_token_id=ids["<|im_end|>"]),
        vision_config=dict(depth=2, hidden_size=hidden, intermediate_size=2 * hidden, num_heads=4, patch_size=16,
                           spatial_merge_size=2, temporal_patch_size=2, out_hidden_size=hidden,
                           num_position_embeddings=256, deepstack_visual_indexes=[0]),
        image_token_id=ids["<|image_pad|>"], video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"], vision_end_token_id=ids["<|vision_end|>"],
        tie_word_embeddings=False)
    torch.manual_seed(seed)
    model = Qwen3VLForConditionalGeneration(cfg).eval()
    # transformers' init (std 0.02) leaves a 64-wide model's logits within about +-1 whatever its hidden state:
    # with a frozen head, no adapter could make any reply more than ~2x likelier than another. A head of std
    # 0.5/sqrt(hidden) gives logits of std ~0.5: LoRA on the layers can steer them over several units, and the
    # random policy's first choices stay near uniform (at 1/sqrt(hidden), one seed ended half its episodes at once).
    with torch.no_grad():
        model.lm_head.weight.normal_(0.0, 0.5 * hidden ** -0.5)
    gc = model.generation_config
    gc.eos_token_id = [ids["<|im_end|>"], ids["<|endoftext|>"]]
    gc.pad_token_id = gc.bos_token_id = ids["<|endoftext|>"]
    gc.do_sample, gc.temperature, gc.top_p, gc.top_k = True, 1.0, 1.0, 0
    return model


def build_tiny_model(out_dir: str | os.PathLike, seed: int = 0, hidden: int = HIDDEN,
                     init_std: float | None = None) -> Path:
    """Build and save the tiny model, tokenizer and processor into ``out_dir``; same seed, same files."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    tokenizer = build_tokenizer(seed)
    processor = build_processor(tokenizer)
    model = build_model(tokenizer, seed, hidden, init_std)
    model.save_pretrained(out)
    processor.save_pretrained(out)
    standard_processor_files(out, processor.image_processor)
    (out / "HALO_TINY.json").write_text(json.dumps({"seed": seed, "vocab": len(tokenizer), "hidden": hidden,
                                                    "params": sum(p.numel() for p in model.parameters()),
                                                    "format": TINY_FORMAT}))
    return out


def ensure_tiny_model(model_dir: str | os.PathLike, log=print) -> Path:
    """The tiny model at ``model_dir``: built on first use (seconds, offline), and rebuilt with its own seed and width
    when an earlier HALO built it in an older format (say, before element ids were single tokens). A directory HALO
    did not build is never touched."""
    d = Path(model_dir)
    meta = d / "HALO_TINY.json"
    if meta.is_file():
        info = json.loads(meta.read_text())
        if info.get("format", 1) == TINY_FORMAT:
            return d
        log(f"rebuilding the tiny Qwen3-VL in {d}: it was built in format {info.get('format', 1)}, "
            f"this HALO's is {TINY_FORMAT}")
        return build_tiny_model(d, seed=info.get("seed", 0), hidden=info.get("hidden", HIDDEN))
    if (d / "config.json").is_file():
        return d
    log(f"building the tiny Qwen3-VL in {d} (once; ~30 s)")
    return build_tiny_model(d)


def is_tiny_mode(mode) -> bool:
    """A mode of the tiny family (``tiny``, ``tiny_text``: in-process, named tiny...), whose model HALO builds."""
    return mode.backend == "hf" and mode.name.split("_")[0] == "tiny"


def ensure_mode_model(mode, log=print) -> None:
    """A tiny mode's model built on first use, as ``halo demo`` and ``halo eval`` build it, so that training a tiny
    mode on a fresh clone needs no step first; any other mode's model is left to loading (and its clear error)."""
    if is_tiny_mode(mode):
        ensure_tiny_model(mode.model, log)


def standard_processor_files(out: Path, images) -> None:
    """What vLLM (``AutoProcessor``) reads from a Qwen3-VL directory: ``processor_class: Qwen3VLProcessor`` (not
    HALO's image-only subclass, unknown to other programs) and a ``video_preprocessor_config.json``, with the same
    patch, merge and normalisation as the images (vLLM serves with ``--limit-mm-per-prompt video=0``)."""
    for name in ("processor_config.json", "tokenizer_config.json"):
        f = out / name
        if f.is_file():
            cfg = json.loads(f.read_text())
            cfg["processor_class"] = "Qwen3VLProcessor"
            f.write_text(json.dumps(cfg, indent=2, sort_keys=True) + "\n")
    video = {"video_processor_type": "Qwen3VLVideoProcessor", "processor_class": "Qwen3VLProcessor",
             "patch_size": images.patch_size, "temporal_patch_size": images.temporal_patch_size,
             "merge_size": images.merge_size, "image_mean": list(images.image_mean),
             "image_std": list(images.image_std), "size": {"shortest_edge": 128 * 32 * 32,
                                                           "longest_edge": 768 * 32 * 32},
             "do_sample_frames": True, "fps": 2, "min_frames": 4, "max_frames": 768}
    (out / "video_preprocessor_config.json").write_text(json.dumps(video, indent=2, sort_keys=True) + "\n")


def is_tiny_model(path: str | os.PathLike) -> bool:
    return (Path(path) / "HALO_TINY.json").is_file()
