"""tinker layer."""
