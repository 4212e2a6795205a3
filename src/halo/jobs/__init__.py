"""jobs layer: each job a user runs (grpo, mcts, eval, demo, tinker), the set-up they share (setup) and the checks
at the door (preflight)."""
