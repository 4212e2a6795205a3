"""StayNB's destinations and listings: every place REAL's v2 staynb tasks search (Austria, Delhi, Miami, Rome,
San Jose in Costa Rica, Provence, Vancouver, San Francisco, Paris, Cape Town, and "Nearby"), with look-alike
destinations that are wrong answers (San Jose, California; Vancouver, Washington; Paris, Texas).

Each destination has six listings built from one deterministic pattern, so every destination offers a spread of
rooms (1 to 4 bedrooms), guest limits and amenity sets; rooms are REAL's ``{bedrooms, beds, bathrooms}``."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

DESTINATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # canonical name, the towns its listings are in
    ("Nearby", ("Sausalito, California", "Oakland, California", "Berkeley, California")),
    ("Austria", ("Vienna, Austria", "Salzburg, Austria", "Innsbruck, Austria")),
    ("Delhi, India", ("New Delhi, India", "Delhi, India")),
    ("Miami, Florida", ("Miami Beach, Florida", "Miami, Florida")),
    ("Rome, Italy", ("Rome, Italy",)),
    ("San Jose, Costa Rica", ("San Jose, Costa Rica", "Escazu, Costa Rica")),
    ("San Jose, California", ("San Jose, California",)),
    ("Provence, France", ("Aix-en-Provence, France", "Avignon, France", "Gordes, France")),
    ("Vancouver, Canada", ("Vancouver, British Columbia, Canada",)),
    ("Vancouver, Washington", ("Vancouver, Washington",)),
    ("San Francisco, California", ("San Francisco, California",)),
    ("Paris, France", ("Paris, France",)),
    ("Paris, Texas", ("Paris, Texas",)),
    ("Cape Town, South Africa", ("Cape Town, South Africa", "Camps Bay, South Africa")),
)
NAMES = tuple(n for n, _ in DESTINATIONS)
AMENITIES = ("Wifi", "Kitchen", "Washer", "Dryer", "Air conditioning", "Heating", "Pool", "Hot tub", "Free parking",
             "EV charger", "Gym", "TV", "Dedicated workspace", "Pets allowed")
KINDS = ("Entire rental unit", "Private room", "Entire condo", "Entire cottage", "Entire villa", "Entire loft")

# the pattern every destination's six listings follow: bedrooms, beds, baths, max guests, amenities, $/night base
_PATTERN = (
    (3, 4, 2, 6, ("Wifi", "Kitchen", "Washer", "Air conditioning", "Heating", "Free parking", "Pool", "TV")),
    (1, 1, 1, 2, ("Wifi", "Kitchen", "Heating", "Washer")),
    (2, 2, 1, 4, ("Wifi", "Air conditioning", "Free parking", "TV", "Dedicated workspace")),
    (2, 3, 1, 5, ("Kitchen", "Heating", "Free parking", "Pets allowed")),
    (4, 5, 3, 8, ("Wifi", "Pool", "Hot tub", "Air conditioning", "Free parking", "Gym", "Kitchen", "EV charger")),
    (1, 2, 1, 3, ("Wifi", "Kitchen", "Dryer", "Heating")),
)
_ADJ = ("Sunny", "Charming", "Modern", "Cozy", "Spacious", "Stylish", "Quiet", "Bright")
_NOUN = {"Entire rental unit": "apartment", "Private room": "room", "Entire condo": "condo",
         "Entire cottage": "cottage", "Entire villa": "villa", "Entire loft": "loft"}
_HOSTS = ("Anna", "Marco", "Priya", "Lucas", "Amara", "Sofia", "Kenji", "Elena", "Thabo", "Camille")


@dataclass(frozen=True)
class Listing:
    id: str
    title: str
    destination: str
    location: str
    kind: str
    bedrooms: int
    beds: int
    bathrooms: int
    max_guests: int
    amenities: tuple[str, ...]
    price: int  # per night, USD
    rating: float
    reviews: int
    host: str

    def record(self) -> dict:
        """The listing as wishlists and bookings store it (REAL's ``rooms`` block)."""
        return {"id": self.id, "title": self.title, "location": self.location, "type": self.kind,
                "rooms": {"bedrooms": self.bedrooms, "beds": self.beds, "bathrooms": self.bathrooms},
                "maxGuests": self.max_guests, "amenities": list(self.amenities), "price": self.price,
                "rating": self.rating}


def _build() -> tuple[Listing, ...]:
    out = []
    for d, (dest, towns) in enumerate(DESTINATIONS):
        for i, (bd, beds, ba, guests, amen) in enumerate(_PATTERN):
            h = int(hashlib.md5(f"{dest}/{i}".encode()).hexdigest()[:8], 16)
            kind = KINDS[i]
            town = towns[i % len(towns)]
            title = f"{_ADJ[h % len(_ADJ)]} {_NOUN[kind]} in {town.split(',')[0]}"
            out.append(Listing(f"{1000 + 10 * d + i}", title, dest, town, kind, bd, beds, ba, guests, amen,
                               60 + 35 * bd + h % 70, round(4.2 + (h % 8) / 10, 2), 12 + h % 300,
                               _HOSTS[h % len(_HOSTS)]))
    return tuple(out)


LISTINGS = _build()
BY_ID = {x.id: x for x in LISTINGS}


def resolve(where: str) -> list[str]:
    """Canonical destinations for what was typed: the exact one, else those whose name holds every typed word
    ("near me" finds Nearby, "rome" finds Rome, Italy, "san jose" finds both San Joses)."""
    t = where.strip().lower()
    if not t:
        return []
    for n in NAMES:
        if n.lower() == t:
            return [n]
    words = [w for w in t.replace(",", " ").split() if w not in ("me", "around", "places", "in")]
    if "near" in words:
        return ["Nearby"]
    return [n for n in NAMES if words and all(w in n.lower().replace(",", " ").split() or
                                              any(p.startswith(w) for p in n.lower().replace(",", " ").split())
                                              for w in words)]


def search(dest: str, guests: int = 0, amenities: tuple[str, ...] = (), bedrooms: int = 0, beds: int = 0,
           bathrooms: int = 0) -> list[Listing]:
    return [x for x in LISTINGS if x.destination == dest and x.max_guests >= guests and x.bedrooms >= bedrooms
            and x.beds >= beds and x.bathrooms >= bathrooms and all(a in x.amenities for a in amenities)]
