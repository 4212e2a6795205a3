"""tasks layer: what a task is (types), REAL's tasks (real), task families (families), resolving specs."""
