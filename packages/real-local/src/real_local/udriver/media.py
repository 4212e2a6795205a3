"""UDriver's maps, drawn by ``real_local.imagery.maps`` (offline, deterministic, cached): the city map beside the
ride form (``/maps/city.jpg``, your location pinned) and a ride's route from pickup to drop-off
(``/maps/route/<pickup id>-<dropoff id>.jpg``) on the options and trip pages. Each place has a fixed spot on the map
(``spot``), module data only, never in the session's state."""

from __future__ import annotations

import hashlib

from real_local.imagery.cache import route_map
from real_local.udriver.places import BY_ID

SIZE = (760, 560)  # the map panel
ROUTE_SIZE = (640, 520)
CONTENT_TYPE = "image/jpeg"
HOME = 703  # "Home: 1250 Ocean Ave", where the rider is


def spot(pid: int) -> tuple[float, float]:
    """Where place ``pid`` lies on the map (fractions; clear of the bay)."""
    h = hashlib.sha256(f"udriver-place-{pid}".encode()).digest()
    return 0.08 + 0.6 * h[0] / 255, 0.18 + 0.72 * h[1] / 255


def city() -> bytes:
    return route_map((spot(HOME),), *SIZE)


def route(key: str) -> bytes | None:
    """``key`` "<pickup id>-<dropoff id>": the route map; None if either is no place."""
    try:
        a, b = (int(v) for v in key.split("-"))
    except ValueError:
        return None
    if a not in BY_ID or b not in BY_ID:
        return None
    return route_map((spot(a), spot(b)), *ROUTE_SIZE)
