"""REAL-local: self-hosted clones of REAL sites speaking its protocol. Imports nothing else of halo and no ML."""

from real_local.ports import DEFAULT_PORT, SITE_NAMES, site_port, site_urls

__all__ = ["DEFAULT_PORT", "SITE_NAMES", "site_port", "site_urls"]
