#!/usr/bin/env python
"""Thin wrapper kept for users of the original project: `python scripts/eval.py ARGS` = `halo eval ARGS`."""
import sys

from halo.cli import app

if __name__ == "__main__":
    sys.exit(app(["eval", *sys.argv[1:]]))
