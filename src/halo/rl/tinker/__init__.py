"""Tinker, the training side: HALO's BrowserEnv as tinker-cookbook environments, their browsers and dataset
(docs/TINKER.md)."""
