"""HALO-Agent: online RL for browser agents on REAL."""

__version__ = "0.1.0"
