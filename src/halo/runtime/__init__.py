"""runtime layer: run directories (runs), experiment trackers (tracking), rollout workers on Ray (ray)."""
