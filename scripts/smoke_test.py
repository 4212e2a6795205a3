#!/usr/bin/env python
"""Thin wrapper kept for users of the original project: `python scripts/smoke_test.py ARGS` = `halo smoke ARGS`."""
import sys

from halo.cli import app

if __name__ == "__main__":
    sys.exit(app(["smoke", *sys.argv[1:]]))
