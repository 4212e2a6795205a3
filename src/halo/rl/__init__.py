"""rl layer."""
