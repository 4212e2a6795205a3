#!/usr/bin/env python
"""The original project's online-GRPO entry point, as a thin wrapper of `halo train grpo`.

Original flags: --policy_url (a vLLM server: samples there, learns locally, hot-loads adapters), --domain (a site:
all its v2 tasks), --num_generations (group size), --episodes (total episodes: iterations = episodes /
num_generations), --lr, --loss_type dr_grpo. Without --policy_url it trains the in-process `tiny` mode.
Any other `halo train grpo` flag passes through unchanged (e.g. --sites remote, --run-name x).
"""
import argparse
import sys

from halo.cli import app


def translate(argv: list[str]) -> list[str]:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--policy_url", help="OpenAI-compatible vLLM server, e.g. http://127.0.0.1:8000/v1")
    p.add_argument("--domain", default="gomail", help="site whose v2 tasks to train on")
    p.add_argument("--num_generations", type=int, default=8, help="episodes per group")
    p.add_argument("--episodes", type=int, default=80, help="total training episodes")
    p.add_argument("--lr", type=float, default=None)
    p.add_argument("--loss_type", default="dr_grpo", choices=["dr_grpo", "grpo", "token_mean"])
    p.add_argument("--mode", default=None, help="policy mode (default: qwen3vl_grpo with --policy_url, else tiny)")
    args, rest = p.parse_known_args(argv)
    mode = args.mode or ("qwen3vl_base" if args.policy_url else "tiny")
    out = ["train", "grpo", "--tasks", args.domain, "--mode", mode, "--group-size", str(args.num_generations),
           "--iterations", str(max(1, args.episodes // args.num_generations)), "--loss-type", args.loss_type]
    if args.policy_url:
        out += ["--base-url", args.policy_url]
    if args.lr is not None:
        out += ["--lr", str(args.lr)]
    return out + rest


if __name__ == "__main__":
    sys.exit(app(translate(sys.argv[1:])))
