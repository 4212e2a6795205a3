"""Zilloft's homes for sale: fixed listings in the cities and price ranges REAL's v2 zilloft tasks ask about
(Boston, the San Francisco Bay Area, Long Beach, Los Angeles, San Jose, Sacramento, Southern California), each
with enough near-misses (too dear, too few bedrooms, condos) that the filters matter. Plain data, no randomness.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# city -> (state, regions it belongs to; "California" etc. are searchable words, not only the state code)
CITIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "Boston": ("MA", ("Greater Boston", "Massachusetts", "Suffolk County")),
    "Cambridge": ("MA", ("Greater Boston", "Massachusetts", "Middlesex County")),
    "San Francisco": ("CA", ("San Francisco Bay Area", "Bay Area", "Northern California", "California")),
    "Oakland": ("CA", ("San Francisco Bay Area", "Bay Area", "East Bay", "Northern California", "California")),
    "San Jose": ("CA", ("San Francisco Bay Area", "Bay Area", "South Bay", "Silicon Valley", "Northern California",
                        "California")),
    "Hayward": ("CA", ("San Francisco Bay Area", "Bay Area", "East Bay", "Northern California", "California")),
    "Fremont": ("CA", ("San Francisco Bay Area", "Bay Area", "East Bay", "Northern California", "California")),
    "Palo Alto": ("CA", ("San Francisco Bay Area", "Bay Area", "Silicon Valley", "Northern California",
                         "California")),
    "Daly City": ("CA", ("San Francisco Bay Area", "Bay Area", "Peninsula", "Northern California", "California")),
    "Sacramento": ("CA", ("Sacramento County", "Northern California", "California")),
    "Los Angeles": ("CA", ("Los Angeles County", "Los Angeles Area", "Southern California", "SoCal", "California")),
    "Long Beach": ("CA", ("Los Angeles County", "Los Angeles Area", "Southern California", "SoCal", "California")),
    "Carson": ("CA", ("Los Angeles County", "Los Angeles Area", "Southern California", "SoCal", "California")),
    "Pasadena": ("CA", ("Los Angeles County", "Los Angeles Area", "Southern California", "SoCal", "California")),
    "Huntington Beach": ("CA", ("Orange County", "Southern California", "SoCal", "California")),
    "Irvine": ("CA", ("Orange County", "Southern California", "SoCal", "California")),
    "Anaheim": ("CA", ("Orange County", "Southern California", "SoCal", "California")),
    "San Diego": ("CA", ("San Diego County", "Southern California", "SoCal", "California")),
    "Escondido": ("CA", ("San Diego County", "Southern California", "SoCal", "California")),
    "Riverside": ("CA", ("Inland Empire", "Riverside County", "Southern California", "SoCal", "California")),
    "Austin": ("TX", ("Travis County", "Texas")),
    "Seattle": ("WA", ("King County", "Washington")),
}
STATE_NAMES = {"CA": "California", "MA": "Massachusetts", "TX": "Texas", "WA": "Washington"}

AGENTS: tuple[tuple[str, str, str], ...] = (
    ("Maria Gonzalez", "(617) 555-0131", "Coldwell Banker Realty"),
    ("David Chen", "(415) 555-0172", "Compass"),
    ("Priya Patel", "(408) 555-0118", "Intero Real Estate Services"),
    ("James O'Connor", "(916) 555-0154", "Keller Williams Realty"),
    ("Ashley Nguyen", "(562) 555-0190", "Coldwell Banker Coastal Alliance"),
    ("Robert Kim", "(213) 555-0147", "Redfin"),
    ("Lauren Brooks", "(949) 555-0163", "First Team Real Estate"),
    ("Michael Davis", "(619) 555-0125", "Berkshire Hathaway HomeServices"),
    ("Sofia Ramirez", "(951) 555-0109", "eXp Realty of California"),
    ("Kevin Walsh", "(512) 555-0186", "Realty Austin"),
)


@dataclass(frozen=True)
class Listing:
    id: str  # zpid
    street: str
    city: str
    zip: str
    price: int
    beds: int
    baths: float
    sqft: int
    home_type: str  # House | Condo | Townhouse | Manufactured | Multi-family
    year_built: int
    agent: int  # index into AGENTS
    days_on_market: int = 7
    description: str = ""

    @property
    def state(self) -> str:
        return CITIES[self.city][0]

    @property
    def full_address(self) -> str:
        return f"{self.street}, {self.city}, {self.state} {self.zip}"

    @property
    def message(self) -> str:
        """The request's default message, in the format REAL's scripts parse."""
        return f"I am interested in {self.full_address}."

    @property
    def slug(self) -> str:
        return re.sub(r"[^A-Za-z0-9]+", "-", self.full_address).strip("-")

    @property
    def url(self) -> str:
        return f"/homedetails/{self.slug}/{self.id}_zpid/"

    @property
    def agent_info(self) -> tuple[str, str, str]:
        return AGENTS[self.agent]

    @property
    def words(self) -> set[str]:
        state = self.state
        regions = " ".join(CITIES[self.city][1])
        return set(_words(f"{self.street} {self.city} {state} {STATE_NAMES.get(state, '')} {self.zip} {regions}"))

    @property
    def baths_text(self) -> str:
        return f"{self.baths:g}"


def _L(id, street, city, zip, price, beds, baths, sqft, home_type, year, agent, dom=7, description=""):
    return Listing(str(id), street, city, zip, price, beds, float(baths), sqft, home_type, year, agent, dom,
                   description)


H, C, T, M, MF = "House", "Condo", "Townhouse", "Manufactured", "Multi-family"

LISTINGS: tuple[Listing, ...] = (
    # Boston, MA (zilloft_14: under $1M, then contact an agent)
    _L(59001, "45 Beacon St", "Boston", "02108", 2450000, 4, 3.5, 3100, T, 1890, 0, 12),
    _L(59002, "18 Dorchester St", "Boston", "02127", 879000, 3, 2, 1620, T, 1905, 0, 5),
    _L(59003, "312 Centre St", "Boston", "02130", 749000, 3, 1.5, 1480, H, 1920, 0, 9),
    _L(59004, "77 Appleton St", "Boston", "02116", 1350000, 2, 2, 1210, C, 1870, 0, 21),
    _L(59005, "9 Sumner St", "Boston", "02125", 629000, 2, 1, 980, C, 1915, 0, 3),
    _L(59006, "140 Bowdoin St", "Boston", "02122", 965000, 4, 2, 2050, H, 1910, 0, 15),
    _L(59007, "25 Magazine St", "Cambridge", "02139", 1490000, 3, 2.5, 1900, H, 1895, 0, 8),
    # San Francisco Bay Area (zilloft_15: under $1M with 3+ beds; most of SF is over $1M)
    _L(15001, "230 Anderson St", "San Francisco", "94110", 1495000, 3, 2, 1680, H, 1912, 1, 6),
    _L(15002, "88 Carl St", "San Francisco", "94117", 1190000, 2, 1, 1100, C, 1925, 1, 11),
    _L(15003, "1454 Thomas Ave", "San Francisco", "94124", 975000, 3, 2, 1350, H, 1948, 1, 4),
    _L(15004, "3510 Lyon Ave", "Oakland", "94601", 849000, 3, 2, 1420, H, 1938, 1, 10),
    _L(15005, "672 62nd St", "Oakland", "94609", 699000, 2, 1, 960, H, 1922, 1, 2),
    _L(15006, "25160 Cypress Ave", "Hayward", "94544", 895000, 4, 2, 1580, H, 1957, 1, 18),
    _L(15007, "4120 Bidwell Dr", "Fremont", "94538", 1399000, 4, 2.5, 1870, H, 1964, 2, 7),
    _L(15008, "2150 Waverley St", "Palo Alto", "94301", 3850000, 4, 3, 2400, H, 1936, 2, 30),
    _L(15009, "311 Westlake Ave", "Daly City", "94014", 1080000, 3, 2, 1300, H, 1946, 1, 9),
    # San Jose (zilloft_5: contact an agent in San Jose)
    _L(95001, "1822 Curtner Ave", "San Jose", "95125", 1450000, 4, 2, 1760, H, 1953, 2, 5),
    _L(95002, "988 Story Rd", "San Jose", "95122", 939000, 3, 2, 1290, H, 1961, 2, 13),
    _L(95003, "455 S 4th St", "San Jose", "95112", 615000, 2, 2, 1010, C, 2004, 2, 20),
    _L(95004, "3278 Rocky Mountain Dr", "San Jose", "95127", 1180000, 4, 2.5, 2010, H, 1979, 2, 2),
    # Sacramento (zilloft_6: $500k - $1.1M with 4+ beds and 2+ baths)
    _L(95801, "5320 Carlson Dr", "Sacramento", "95819", 879000, 4, 2.5, 2240, H, 1956, 3, 6),
    _L(95802, "7612 Windbridge Dr", "Sacramento", "95831", 649000, 4, 2, 1980, H, 1978, 3, 11),
    _L(95803, "2816 Marshall Way", "Sacramento", "95818", 1325000, 5, 3, 2900, H, 1924, 3, 16),
    _L(95804, "4418 San Juan Ave", "Sacramento", "95820", 429000, 3, 1, 1150, H, 1950, 3, 4),
    _L(95805, "1101 Arden Way", "Sacramento", "95815", 359000, 2, 2, 990, C, 1985, 3, 25),
    # Long Beach (zilloft_2: a 3 bed 2 bath house; condos have a Unit/APT in the address)
    _L(90801, "3521 Gale Ave", "Long Beach", "90810", 729000, 3, 2, 1410, H, 1952, 4, 3),
    _L(90802, "6140 E Los Santos Dr", "Long Beach", "90815", 1095000, 3, 2, 1720, H, 1955, 4, 8),
    _L(90803, "1500 E Ocean Blvd Unit 1204", "Long Beach", "90802", 549000, 2, 2, 1060, C, 1982, 4, 14),
    _L(90804, "444 W Ocean Blvd APT 1611", "Long Beach", "90802", 499000, 1, 1, 790, C, 2006, 4, 19),
    _L(90805, "5938 Lime Ave", "Long Beach", "90805", 659000, 2, 1, 910, H, 1947, 4, 6),
    _L(90806, "2720 Clark Ave", "Long Beach", "90815", 989000, 4, 3, 2020, H, 1953, 4, 10),
    # Los Angeles area (zilloft_3: under $350k with 2+ beds, 1+ baths; zilloft_22: SoCal under $1M)
    _L(90001, "1547 E 118th St", "Los Angeles", "90059", 339000, 2, 1, 860, H, 1923, 5, 9),
    _L(90002, "21112 S Figueroa St SPACE 47", "Carson", "90745", 229000, 2, 1, 1040, M, 1972, 5, 12),
    _L(90003, "3818 W 59th Pl", "Los Angeles", "90043", 789000, 3, 2, 1390, H, 1926, 5, 4),
    _L(90004, "1010 S Ardmore Ave APT 204", "Los Angeles", "90006", 329000, 1, 1, 640, C, 1964, 5, 27),
    _L(90005, "4566 Lexington Ave", "Los Angeles", "90029", 1249000, 3, 2, 1500, H, 1911, 5, 2),
    _L(90006, "9120 S Hobart Blvd", "Los Angeles", "90047", 615000, 3, 1, 1180, H, 1940, 5, 15),
    _L(90007, "1755 N Allen Ave", "Pasadena", "91104", 1395000, 4, 3, 2150, H, 1931, 5, 7),
    # Orange County, San Diego, Inland Empire (Southern California)
    _L(92601, "17252 Roosevelt Ln", "Huntington Beach", "92649", 1650000, 4, 3, 2300, H, 1968, 6, 5),
    _L(92602, "8 Cartwright", "Irvine", "92612", 985000, 3, 2.5, 1540, T, 1979, 6, 9),
    _L(92603, "1314 W Chalet Ave", "Anaheim", "92804", 879000, 3, 2, 1390, H, 1958, 6, 12),
    _L(92101, "4025 Kansas St", "San Diego", "92104", 949000, 3, 2, 1320, H, 1927, 7, 3),
    _L(92102, "700 Front St APT 1402", "San Diego", "92101", 769000, 2, 2, 1150, C, 2004, 7, 18),
    _L(92103, "1950 Gamble Ln", "Escondido", "92029", 829000, 4, 3, 2240, H, 1987, 7, 6),
    _L(92501, "3621 Mulberry St", "Riverside", "92501", 489000, 3, 2, 1280, H, 1948, 8, 4),
    _L(92502, "6775 Streeter Ave", "Riverside", "92504", 599000, 4, 2, 1830, H, 1962, 8, 8),
    # elsewhere (searching by state or "California" must not catch these)
    _L(78701, "1207 Romeria Dr", "Austin", "78757", 689000, 3, 2, 1600, H, 1962, 9, 6),
    _L(98101, "4215 Dayton Ave N", "Seattle", "98103", 999000, 3, 1.5, 1580, H, 1909, 9, 4),
)

BY_ID: dict[str, Listing] = {h.id: h for h in LISTINGS}
assert len(BY_ID) == len(LISTINGS), "duplicate zpid"

_WORD = re.compile(r"[a-z0-9]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


HOME_TYPES = (H, C, T, M, MF)
SORTS = (("homes_for_you", "Homes for You"), ("price_high", "Price (High to Low)"), ("price_low", "Price (Low to High)"),
         ("newest", "Newest"), ("sqft", "Square Feet"), ("beds", "Bedrooms"))


def search(location: str = "", min_price: int | None = None, max_price: int | None = None, min_beds: int = 0,
           min_baths: float = 0, min_sqft: int | None = None, max_sqft: int | None = None,
           home_types: tuple[str, ...] = (), sort: str = "homes_for_you") -> list[Listing]:
    """Listings whose address, city, state, ZIP or region holds every word of ``location``, then the filters."""
    words = [w for w in _words(location) if w not in ("usa", "us")]
    out = [h for h in LISTINGS if all(w in h.words for w in words)]
    if min_price is not None:
        out = [h for h in out if h.price >= min_price]
    if max_price is not None:
        out = [h for h in out if h.price <= max_price]
    out = [h for h in out if h.beds >= min_beds and h.baths >= min_baths]
    if min_sqft is not None:
        out = [h for h in out if h.sqft >= min_sqft]
    if max_sqft is not None:
        out = [h for h in out if h.sqft <= max_sqft]
    if home_types:
        out = [h for h in out if h.home_type in home_types]
    key = {"price_high": lambda h: -h.price, "price_low": lambda h: h.price, "newest": lambda h: h.days_on_market,
           "sqft": lambda h: -h.sqft, "beds": lambda h: -h.beds}.get(sort)
    if key is not None:
        out.sort(key=key)
    return out
