"""Where REAL-local serves each site: one process, one loopback port per site (each site its own origin, as on REAL)."""

from __future__ import annotations

SITE_NAMES = ("gomail", "gocalendar", "omnizon", "zilloft", "dashdish", "opendining", "udriver", "staynb", "marrisuite",
              "networkin", "topwork")
DEFAULT_HOST = "127.0.0.1"
# base port; each site gets base + its offset: gomail 8701, gocalendar 8702, omnizon 8703, zilloft 8704,
# dashdish 8705, opendining 8706, udriver 8707, staynb 8708, marrisuite 8709, networkin 8710, topwork 8711
DEFAULT_PORT = 8700
PORT_OFFSETS = {**{s: i + 1 for i, s in enumerate(SITE_NAMES[:9])}, "networkin": 10, "topwork": 11}


def site_port(site: str, port: int | None = None) -> int:
    """Port of ``site`` given the server's base port (``halo sites --port``)."""
    if site not in SITE_NAMES:
        raise KeyError(f"REAL-local has no site {site!r}; it serves {', '.join(SITE_NAMES)}")
    return (DEFAULT_PORT if port is None else port) + PORT_OFFSETS[site]


def site_urls(host: str = DEFAULT_HOST, port: int | None = None) -> dict[str, str]:
    return {s: f"http://{host}:{site_port(s, port)}" for s in SITE_NAMES}
