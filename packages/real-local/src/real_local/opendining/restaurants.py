"""OpenDining's restaurants (San Francisco): the ones REAL's v2 opendining tasks name (River View Café, Evening
Delight, Crowded Corner), Italian, American, breakfast and Embarcadero places, a spread of ratings (some under 3
and 4 stars), opening hours, reviews, and the slots that are fully booked.

The record a reservation copies (``Restaurant.record()``) has REAL's fields: ``id, name, food_type, rating,
description, imageUrl, location, price``. Descriptions and image names of restaurants outside the Embarcadero
never mention the waterfront (REAL's Embarcadero check reads those words)."""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field

NEIGHBORHOODS = ("Embarcadero", "North Beach", "Haight-Ashbury", "Mission District", "SoMa", "Union Square",
                 "Hayes Valley", "Nob Hill")
CUISINES = ("Italian", "American", "French", "Japanese", "Mexican", "Seafood", "Breakfast & Brunch", "Californian",
            "Steakhouse", "Chinese", "Cafe")
OCCASIONS = ("Birthday", "Anniversary", "Date night", "Business meal", "Celebration")


@dataclass(frozen=True)
class Restaurant:
    id: str
    name: str
    food_type: str
    location: str
    rating: float
    reviews_count: int
    price: str
    opens: int  # minutes after midnight
    closes: int  # last seating
    description: str
    booked: tuple[str, ...] = ()  # times fully booked every day ("5:00 PM")
    max_party: int = 10
    reviews: tuple[tuple[str, int, str], ...] = field(default_factory=tuple)

    @property
    def image(self) -> str:
        return f"/static/img/{self.slug}.jpg"

    @property
    def slug(self) -> str:
        return self.name.lower().replace("é", "e").replace("'", "").replace("&", "and").replace(" ", "-")

    def record(self) -> dict:
        """The restaurant as a reservation stores it (REAL's field names)."""
        return {"id": self.id, "name": self.name, "food_type": self.food_type, "rating": self.rating,
                "description": self.description, "imageUrl": self.image, "location": self.location,
                "price": self.price, "reviews": self.reviews_count}


def _id(name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"opendining/{name}"))


_REVIEWERS = ("Maria G.", "Kevin L.", "Priya S.", "Tom W.", "Aisha K.", "Daniel R.", "Emma H.", "Jorge P.")
_REVIEW_LINES = {
    5: ("Outstanding from start to finish. The staff made our night.", "Best meal I've had this year.",
        "Every dish was perfect; we're already planning our next visit."),
    4: ("Great food and friendly service; a bit loud on weekends.", "Lovely spot. Dessert was the highlight.",
        "Solid menu and good value. Would come back."),
    3: ("Decent food, slow service.", "Fine for a quick meal, nothing special.", "Portions were small for the price."),
    2: ("Cold food and a long wait.", "Disappointing. The table wasn't ready for 30 minutes.",
        "Not worth it; the menu was half unavailable."),
}


def _reviews(name: str, rating: float) -> tuple[tuple[str, int, str], ...]:
    h = int(hashlib.md5(name.encode()).hexdigest()[:8], 16)
    stars = [max(2, min(5, round(rating + d))) for d in (0.3, -0.2, 0.0)]
    return tuple((_REVIEWERS[(h + i) % len(_REVIEWERS)], s, _REVIEW_LINES[s][(h + i) % 3])
                 for i, s in enumerate(stars))


def _r(name, food_type, location, rating, count, price, opens, closes, description, booked=(), max_party=10,
       rid=None) -> Restaurant:
    return Restaurant(rid or _id(name), name, food_type, location, rating, count, price, opens, closes, description,
                      tuple(booked), max_party, _reviews(name, rating))


H = 60
RESTAURANTS: tuple[Restaurant, ...] = (
    _r("River View Café", "Cafe", "Embarcadero", 4.1, 812, "$$", 7 * H, 21 * H,
       "A bright waterfront café by the Ferry Building with views across the water, serving all-day brunch, "
       "salads and coffee.", rid="cd4f81d3-3c75-4c67-b47b-e7f013f6ae9d"),
    _r("Harbor Lights Seafood", "Seafood", "Embarcadero", 4.3, 1290, "$$$", 11 * H + 30, 22 * H,
       "Oysters, cioppino and Dungeness crab on the Embarcadero, steps from Pier 7."),
    _r("Crowded Corner", "American", "Embarcadero", 3.2, 344, "$$", 11 * H, 22 * H,
       "A busy corner bar and grill near the Embarcadero Center: burgers, wings and the game on every screen."),
    _r("Ferry Dock Dogs", "American", "Embarcadero", 2.6, 97, "$", 10 * H, 20 * H,
       "Hot dogs, fries and sodas at a walk-up counter on the Embarcadero promenade.", max_party=4),
    _r("Evening Delight", "French", "Union Square", 4.7, 2051, "$$$$", 17 * H, 22 * H,
       "An intimate French tasting room known for its sunset seating and a seven-course chef's menu.",
       booked=("5:00 PM",)),
    _r("Bella Notte", "Italian", "North Beach", 4.6, 1733, "$$$", 17 * H, 22 * H,
       "Handmade pasta, wood-fired pizza and a long Italian wine list in the heart of North Beach."),
    _r("Trattoria Roma", "Italian", "North Beach", 4.2, 965, "$$", 11 * H + 30, 21 * H + 30,
       "A family-run Italian trattoria serving Roman classics, lunch and dinner, since 1978."),
    _r("Pasta Presto", "Italian", "SoMa", 2.9, 211, "$", 11 * H, 21 * H,
       "Quick Italian pasta bowls and panini for the lunch crowd."),
    _r("The Golden Fork", "American", "Union Square", 4.4, 1502, "$$$", 11 * H, 22 * H + 30,
       "Modern American comfort food: dry-aged burgers, roast chicken and seasonal pies."),
    _r("Liberty Grill", "American", "Hayes Valley", 3.8, 640, "$$", 11 * H, 22 * H,
       "A neighborhood American grill with a big patio, ribs, mac and cheese and local beer."),
    _r("Sunrise Diner", "Breakfast & Brunch", "Mission District", 4.3, 1187, "$", 7 * H, 15 * H,
       "Pancakes, chilaquiles and bottomless coffee from seven in the morning."),
    _r("Morning Glory Bakery", "Breakfast & Brunch", "Nob Hill", 2.7, 158, "$", 7 * H, 14 * H,
       "Pastries, egg sandwiches and espresso to go, with a few tables."),
    _r("Haight Street Kitchen", "Californian", "Haight-Ashbury", 4.0, 702, "$$", 11 * H, 22 * H,
       "Seasonal Californian plates and big communal tables on Haight Street; groups welcome."),
    _r("Psychedelic Taqueria", "Mexican", "Haight-Ashbury", 3.6, 433, "$", 10 * H, 21 * H,
       "Burritos, tacos and aguas frescas in a colorful Haight-Ashbury storefront.", max_party=6),
    _r("Sakura Garden", "Japanese", "Hayes Valley", 4.5, 921, "$$$", 12 * H, 22 * H,
       "Omakase sushi and robata grill in a quiet garden room."),
    _r("Golden Dragon Palace", "Chinese", "Nob Hill", 3.9, 1460, "$$", 10 * H, 21 * H + 30,
       "Dim sum carts at lunch, Peking duck at dinner."),
    _r("Prime & Vine", "Steakhouse", "SoMa", 4.5, 1104, "$$$$", 17 * H, 22 * H + 30,
       "Dry-aged steaks, a raw bar and private rooms for business dinners."),
)

BY_ID: dict[str, Restaurant] = {r.id: r for r in RESTAURANTS}


def fmt_time(minutes: int) -> str:
    h, m = divmod(minutes, 60)
    return f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"


def parse_time(text: str) -> int:
    """'3:00 PM' -> 900. Raises ValueError when it is not a half-hour time."""
    try:
        hm, ampm = text.strip().upper().split()
        h, m = (int(x) for x in hm.split(":"))
        if ampm not in ("AM", "PM") or not (1 <= h <= 12 and m in (0, 30)):
            raise ValueError
    except ValueError:
        raise ValueError(f"Choose a time from the list ({text!r} is not one)") from None
    return (h % 12 + (12 if ampm == "PM" else 0)) * 60 + m


ALL_TIMES = tuple(fmt_time(m) for m in range(6 * H, 23 * H + 1, 30))


def slots(r: Restaurant, around: int, n: int = 5) -> list[tuple[str, bool]]:
    """Up to ``n`` half-hour slots of ``r`` nearest to ``around`` (minutes), in order, with availability."""
    times = list(range(r.opens, r.closes + 1, 30))
    near = sorted(sorted(times, key=lambda t: (abs(t - around), t))[:n])
    return [(fmt_time(t), fmt_time(t) not in r.booked) for t in near]


def search(term: str = "", cuisine: str = "", location: str = "", min_rating: float = 0.0) -> list[Restaurant]:
    words = [w for w in term.lower().split() if w]
    out = []
    for r in RESTAURANTS:
        text = f"{r.name} {r.food_type} {r.location} {r.description}".lower().replace("é", "e")
        if any(w.replace("é", "e") not in text for w in words):
            continue
        if cuisine and r.food_type != cuisine:
            continue
        if location and r.location != location:
            continue
        if r.rating < min_rating:
            continue
        out.append(r)
    return out
