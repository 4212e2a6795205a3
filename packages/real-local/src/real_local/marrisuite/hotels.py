"""MarriSuite's hotels: a fixed catalogue (module data, never in the session's state, so a fresh session names no
city), rooms and nightly rates, and the destination search."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Room:
    code: str
    name: str
    rate: int  # USD per night


@dataclass(frozen=True)
class Hotel:
    id: str
    name: str
    brand: str
    city: str  # "Goleta, California"
    address: str
    stars: float
    rooms: tuple[Room, ...]

    @property
    def from_rate(self) -> int:
        return min(r.rate for r in self.rooms)


def _rooms(base: int) -> tuple[Room, ...]:
    return (Room("K", "Guest room, 1 King", base), Room("QQ", "Guest room, 2 Queen", base + 20),
            Room("S", "Suite, 1 King, sofa bed", base + 90))


HOTELS = (
    Hotel("sbago", "Courtyard Santa Barbara Goleta", "Courtyard", "Goleta, California", "401 Storke Rd, Goleta, CA 93117", 4.4, _rooms(219)),
    Hotel("sbagr", "Residence Inn Santa Barbara Goleta", "Residence Inn", "Goleta, California", "6350 Hollister Ave, Goleta, CA 93117", 4.6, _rooms(249)),
    Hotel("sbabg", "The Ritz-Carlton Bacara, Santa Barbara", "Ritz-Carlton", "Goleta, California", "8301 Hollister Ave, Goleta, CA 93117", 4.8, _rooms(689)),
    Hotel("sbasb", "Santa Barbara Marriott Beachfront", "Marriott", "Santa Barbara, California", "9 Castillo St, Santa Barbara, CA 93101", 4.5, _rooms(399)),
    Hotel("sbaca", "Canary Hotel Santa Barbara", "Autograph Collection", "Santa Barbara, California", "31 W Carrillo St, Santa Barbara, CA 93101", 4.3, _rooms(359)),
    Hotel("sfodt", "San Francisco Marriott Marquis", "Marriott", "San Francisco, California", "780 Mission St, San Francisco, CA 94103", 4.2, _rooms(289)),
    Hotel("sfoun", "Union Square Courtyard San Francisco", "Courtyard", "San Francisco, California", "761 Post St, San Francisco, CA 94109", 4.0, _rooms(209)),
    Hotel("laxdt", "JW Marriott Los Angeles L.A. LIVE", "JW Marriott", "Los Angeles, California", "900 W Olympic Blvd, Los Angeles, CA 90015", 4.5, _rooms(339)),
    Hotel("laxsm", "Le Merigot Santa Monica", "Autograph Collection", "Santa Monica, California", "1740 Ocean Ave, Santa Monica, CA 90401", 4.4, _rooms(379)),
    Hotel("nycmq", "New York Marriott Marquis", "Marriott", "New York, New York", "1535 Broadway, New York, NY 10036", 4.3, _rooms(319)),
    Hotel("nyctb", "Times Square EDITION", "EDITION", "New York, New York", "701 7th Ave, New York, NY 10036", 4.6, _rooms(529)),
    Hotel("sanmv", "San Diego Marriott Mission Valley", "Marriott", "San Diego, California", "8757 Rio San Diego Dr, San Diego, CA 92108", 4.2, _rooms(229)),
)
BY_ID = {h.id: h for h in HOTELS}
CITIES = tuple(dict.fromkeys(h.city for h in HOTELS))
STATES = {"california": "CA", "new york": "NY"}


def _norm(s: str) -> str:
    return " ".join(s.lower().replace(",", " ").split())


def search(destination: str) -> list[Hotel]:
    """Hotels whose city (or city and state) matches what was typed: "Goleta", "Goleta, California", "goleta ca".
    A state alone ("California") lists every hotel there."""
    q = _norm(destination)
    if not q:
        return []
    out = []
    for h in HOTELS:
        city, state = (_norm(x) for x in h.city.split(",", 1))
        forms = {city, state, f"{city} {state}", f"{city} {STATES.get(state, '').lower()}"}
        if q in forms or _norm(h.name) == q:
            out.append(h)
    return out
