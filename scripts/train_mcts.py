#!/usr/bin/env python
"""The original project's MCTS entry point, as a thin wrapper of `halo train mcts`.

Original flags: --policy_url (a vLLM server: samples there, learns locally, hot-loads adapters), --domain (a site:
all its v2 tasks, or any task spec such as omnizon.department@train), --simulations (per decision), --ucb_c,
--episodes (searched episodes). Without --policy_url it trains the in-process `tiny` mode on REAL-local.
Any other `halo train mcts` flag passes through unchanged (e.g. --critic gpt_baseline, --run-name mcts).
"""
import argparse
import sys

from halo.cli import app


def translate(argv: list[str]) -> list[str]:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--policy_url", help="OpenAI-compatible vLLM server, e.g. http://127.0.0.1:8000/v1")
    p.add_argument("--domain", default="gomail", help="site whose v2 tasks to search (or a task spec)")
    p.add_argument("--simulations", type=int, default=None, help="simulations per decision (rl_config: 50)")
    p.add_argument("--ucb_c", type=float, default=None, help="UCB1 exploration constant (rl_config: 1.414)")
    p.add_argument("--episodes", type=int, default=10, help="searched episodes")
    p.add_argument("--mode", default=None, help="policy mode (default: qwen3vl_base with --policy_url, else tiny)")
    args, rest = p.parse_known_args(argv)
    mode = args.mode or ("qwen3vl_base" if args.policy_url else "tiny")
    out = ["train", "mcts", "--tasks", args.domain, "--mode", mode, "--episodes", str(args.episodes)]
    if args.policy_url:
        out += ["--base-url", args.policy_url]
    if args.simulations is not None:
        out += ["--simulations", str(args.simulations)]
    if args.ucb_c is not None:
        out += ["--ucb-c", str(args.ucb_c)]
    return out + rest


if __name__ == "__main__":
    sys.exit(app(translate(sys.argv[1:])))
