"""UDriver's places (San Francisco): every pickup and drop-off REAL's v2 udriver tasks name, with REAL's ids and
identifiers where its scripts read them (Club X 201, Fox Plaza Apartments 723, 388 Beale 739, Amber India 52,
1 Hotel San Francisco 699, 100 Van Ness 717, AI Electronics Center 370/RF1, 333 Fremont Apartments 733/DLO,
22nd & Irving 129/SPR), plus look-alikes that are wrong answers (Chase Center is no bank, Golden Gate Park is no
apartment). ``basePrice`` is each place's share of a fare: a ride costs (pickup + drop-off base price) times the
ride type's multiplier, less its discount (``RIDE_TYPES``, REAL's ``config.udriver.cars``)."""

from __future__ import annotations

from dataclasses import dataclass

CITY, STATE, COUNTRY = "San Francisco", "CA", "USA"


@dataclass(frozen=True)
class Place:
    id: int
    identifier: str
    name: str
    street: str
    zip: str
    base: float
    category: str

    def record(self) -> dict:
        """The place as the ride state stores it (REAL's field names)."""
        addr = f"{self.street}, {CITY}, {STATE} {self.zip}"
        return {"id": self.id, "identifier": self.identifier, "name": self.name, "address": addr,
                "formattedAddress": f"{addr}, {COUNTRY}", "category": self.category, "basePrice": self.base,
                "addressComponents": {"street": self.street, "city": CITY, "state": STATE, "zipCode": self.zip,
                                      "country": COUNTRY}}


PLACES: tuple[Place, ...] = (
    Place(201, "CLX", "Club X", "1000 Harrison St", "94103", 11.50, "Nightlife"),
    Place(723, "FPA", "Fox Plaza Apartments", "1390 Market St", "94102", 9.00, "Residential"),
    Place(739, "BEA", "388 Beale Street", "388 Beale St", "94105", 8.75, "Residential"),
    Place(52, "AMB", "Amber India Restaurant", "25 Yerba Buena Ln", "94103", 10.25, "Restaurant"),
    Place(699, "OHS", "1 Hotel San Francisco", "8 Mission St", "94105", 9.50, "Hotel"),
    Place(717, "VNS", "100 Van Ness Ave", "100 Van Ness Ave", "94102", 8.50, "Office"),
    Place(370, "RF1", "AI Electronics Center.com", "1500 Folsom St", "94103", 7.25, "Shopping"),
    Place(733, "DLO", "333 Fremont Apartments", "333 Fremont St", "94105", 8.25, "Residential"),
    Place(742, "TRK", "201 Turk Street Apartments", "201 Turk St", "94102", 7.75, "Residential"),
    Place(129, "SPR", "22nd & Irving", "2101 Irving St", "94122", 9.75, "Intersection"),
    Place(611, "S11", "7-Eleven (Irving St)", "1899 Irving St", "94122", 5.50, "Convenience store"),
    Place(612, "S12", "7-Eleven (Geary Blvd)", "5000 Geary Blvd", "94118", 7.50, "Convenience store"),
    Place(304, "CAS", "1001 Castro Street", "1001 Castro St", "94114", 10.00, "Residential"),
    Place(318, "PST", "1030 Post Street Apartments", "1030 Post St", "94109", 9.25, "Residential"),
    Place(405, "CHS", "1000 Chestnut St", "1000 Chestnut St", "94109", 8.00, "Residential"),
    Place(406, "RTF", "Rooftop 25", "25 Lusk St", "94107", 9.50, "Nightlife"),
    Place(512, "AAH", "Aaha Indian Cuisine", "1221 Polk St", "94109", 6.75, "Restaurant"),
    Place(513, "CLH", "Casa Loma Hotel", "610 Fillmore St", "94117", 7.00, "Hotel"),
    Place(620, "GGA", "Golden Gate Apartments", "2550 Van Ness Ave", "94109", 8.50, "Residential"),
    Place(621, "CB1", "Chase Bank (Union Square)", "201 Powell St", "94102", 7.25, "Bank"),
    Place(622, "CB2", "Chase Bank (Financial District)", "560 Mission St", "94105", 8.00, "Bank"),
    Place(623, "CHC", "Chase Center", "1 Warriors Way", "94158", 11.00, "Arena"),
    Place(624, "GGP", "Golden Gate Park", "501 Stanyan St", "94117", 9.00, "Park"),
    Place(701, "C26", "Club 26 Mix", "3024 Mission St", "94110", 10.75, "Nightlife"),
    Place(702, "SFO", "San Francisco International Airport (SFO)", "780 S Airport Blvd", "94128", 24.00, "Airport"),
    Place(703, "HOM", "Home: 1250 Ocean Ave", "1250 Ocean Ave", "94112", 9.00, "Saved place"),
    Place(704, "WRK", "Work: 500 Howard St", "500 Howard St", "94105", 8.25, "Saved place"),
)
BY_ID: dict[int, Place] = {p.id: p for p in PLACES}

# REAL's config.udriver.cars: fare = (pickup + drop-off base price) * multiplier * (1 - discount)
RIDE_TYPES: dict[str, dict] = {
    "UdriverX": {"multiplier": 1.0, "discount": 0.0, "seats": 4, "eta": 4,
                 "description": "Affordable rides, all to yourself"},
    "UdriverGreen": {"multiplier": 1.05, "discount": 0.1, "seats": 4, "eta": 7,
                     "description": "Electric and hybrid cars, 10% off"},
    "UdriverXL": {"multiplier": 1.6, "discount": 0.0, "seats": 6, "eta": 6,
                  "description": "Affordable rides for groups up to 6"},
    "UdriverBlack": {"multiplier": 2.2, "discount": 0.0, "seats": 4, "eta": 9,
                     "description": "Premium rides in luxury cars"},
}


def find_places(text: str) -> list[Place]:
    """Places matching what was typed: an exact name first; else every place whose name or street holds all the
    typed words (street/st, avenue/ave, & / and, 22/22nd read alike)."""
    t = text.strip().lower()
    if not t:
        return []
    exact = [p for p in PLACES if p.name.lower() == t]
    if exact:
        return exact

    def words(s: str) -> list[str]:
        s = s.lower().replace("&", " ").replace(",", " ").replace("-", " ").replace("/", " ").replace("(", " ")
        s = s.replace(")", " ").replace(".", " ")
        out = []
        for w in s.split():
            w = {"street": "st", "avenue": "ave", "and": "", "apartments": "apartment", "the": ""}.get(w, w)
            w = w[:-2] if w[:-2].isdigit() and w[-2:] in ("st", "nd", "rd", "th") else w
            w = w.rstrip("s") if len(w) > 3 and not w.isdigit() else w
            if w:
                out.append(w)
        return out

    want = words(t)
    if want == ["711"] or want == ["7", "11"]:
        want = ["7", "eleven"]
    def has(have: set[str], w: str) -> bool:  # "indian" finds "india", "apartment" "apartments"
        return w in have or (len(w) >= 4 and any(h.startswith(w) or (len(h) >= 4 and w.startswith(h))
                                                 for h in have))

    hits = []
    for p in PLACES:
        have = set(words(f"{p.name} {p.street} {CITY} {STATE}"))
        if all(has(have, w) for w in want):
            hits.append(p)
    return hits


def fare(pickup: Place, dropoff: Place, ride_type: str) -> dict:
    cfg = RIDE_TYPES[ride_type]
    pre = (pickup.base + dropoff.base) * cfg["multiplier"]
    return {"type": ride_type, "priceWithoutDiscount": round(pre, 2),
            "finalPrice": round(pre * (1 - cfg["discount"]), 2), "discount": cfg["discount"],
            "seats": cfg["seats"], "eta": cfg["eta"]}
