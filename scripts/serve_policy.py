#!/usr/bin/env python
"""Thin wrapper kept for users of the original project: `python scripts/serve_policy.py ARGS` =
`halo serve-policy ARGS`."""
import sys

from halo.cli import app

if __name__ == "__main__":
    sys.exit(app(["serve-policy", *sys.argv[1:]]))
