"""Tinker, the policy side: the backend that samples on Tinker, its models, renderers, preflight and an offline
completer at the Tinker boundary (docs/TINKER.md)."""
