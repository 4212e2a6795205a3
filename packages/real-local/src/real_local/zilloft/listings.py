"""Zilloft's homes for sale, at a real market's scale: the 48 fixed listings REAL's v2 zilloft tasks are solved on
(Boston, the San Francisco Bay Area, Long Beach, Los Angeles, San Jose, Sacramento, Southern California; their
ids, addresses and prices never change) and some 740 more generated from a fixed seed (``generate``): dozens of
homes per city and home type, with each city's ZIP codes, streets, price per square foot, ages and home-type mix, so
that a search lists pages of homes and the price, beds and baths, home-type and size filters, sorting and paging
all change what is shown.
"""

from __future__ import annotations

import functools
import hashlib
import random
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

_WORD = re.compile(r"[a-z0-9]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


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
    # more agents per area (the first ten above list the fixed homes; their indexes never change)
    ("Emily Sullivan", "(617) 555-0178", "Gibson Sotheby's International Realty"),
    ("Marcus Lee", "(415) 555-0139", "Vanguard Properties"),
    ("Anita Rao", "(408) 555-0193", "Coldwell Banker Realty"),
    ("Tom Becker", "(916) 555-0120", "Lyon Real Estate"),
    ("Jasmine Ortiz", "(562) 555-0115", "Keller Williams Pacific Estates"),
    ("Daniel Park", "(310) 555-0168", "The Agency"),
    ("Hannah Wright", "(714) 555-0151", "Seven Gables Real Estate"),
    ("Carlos Mendoza", "(858) 555-0144", "Pacific Sotheby's International Realty"),
    ("Grace Thompson", "(206) 555-0187", "Windermere Real Estate"),
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
    neighborhood: str = ""

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

    @functools.cached_property
    def words(self) -> frozenset[str]:
        state = self.state
        regions = " ".join(CITIES[self.city][1])
        return frozenset(_words(f"{self.street} {self.city} {state} {STATE_NAMES.get(state, '')} {self.zip} "
                                f"{regions}"))

    @functools.cached_property
    def rank(self) -> int:
        """"Homes for You" order: a fixed pseudo-random relevance, so the fixed homes are not listed first."""
        return int.from_bytes(hashlib.md5(f"zilloft:{self.id}".encode()).digest()[:6], "big")

    @property
    def baths_text(self) -> str:
        return f"{self.baths:g}"


def _L(id, street, city, zip, price, beds, baths, sqft, home_type, year, agent, dom=7, description=""):
    return Listing(str(id), street, city, zip, price, beds, float(baths), sqft, home_type, year, agent, dom,
                   description)


H, C, T, M, MF = "House", "Condo", "Townhouse", "Manufactured", "Multi-family"

FIXED: tuple[Listing, ...] = (
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

# ---------------------------------------------------------------- the generated market
SEED = 20240718
# city -> (listings, house price per sqft, share of House/Condo/Townhouse/Multi-family/Manufactured, oldest year,
#          newest year, ZIP codes, agents, local streets, neighborhoods)
_MAIN, _SMALL = 78, 12
MARKETS: dict[str, tuple] = {
    "Boston": (_MAIN, 610, (30, 40, 16, 10, 0), 1850, 2021,
               ("02108", "02113", "02114", "02115", "02116", "02118", "02119", "02120", "02121", "02122", "02124",
                "02125", "02126", "02127", "02128", "02129", "02130", "02131", "02132", "02134", "02135", "02136"),
               (0, 10), ("Tremont St", "Commonwealth Ave", "Marlborough St", "Dartmouth St", "Columbus Ave",
                         "Dorchester Ave", "Savin Hill Ave", "Hyde Park Ave", "Centre St",
                         "Adams St", "Bunker Hill St", "Meridian St", "Brighton Ave", "Harvard Ave",
                         "South St", "Boylston St", "Newbury St", "Shawmut Ave", "Warren St", "Blue Hill Ave",
                         "Neponset Ave", "Gallivan Blvd", "Morton St", "Walk Hill St", "Wachusett St", "Eliot St",
                         "Perkins St", "Chestnut Ave", "Green St", "Bennington St", "Saratoga St", "Medford St",
                         "Monument Ave", "Pleasant St", "Tudor St", "Silver St", "Telegraph St", "Thomas Park"),
               ("Back Bay", "South End", "Jamaica Plain", "Dorchester", "South Boston", "Charlestown", "Roslindale",
                "West Roxbury", "Brighton", "East Boston", "Hyde Park", "Beacon Hill")),
    "San Francisco": (104, 810, (36, 38, 12, 10, 4), 1895, 2020,
                      ("94107", "94109", "94110", "94112", "94114", "94115", "94116", "94117", "94118", "94121",
                       "94122", "94123", "94124", "94127", "94131", "94132", "94133", "94134"),
                      (1, 11), ("Noriega St", "Judah St", "Irving St", "Taraval St", "Geary Blvd", "Clement St",
                                "Balboa St", "Fulton St", "Hayes St", "Fell St", "Oak St", "Page St", "Haight St",
                                "Waller St", "Duboce Ave", "Church St", "Sanchez St", "Noe St", "Castro St",
                                "Diamond St", "Valencia St", "Guerrero St", "Dolores St", "Folsom St",
                                "Alabama St", "Florida St", "Bryant St", "Potrero Ave", "De Haro St",
                                "Rhode Island St", "Mission St", "Excelsior Ave", "Geneva Ave", "Ocean Ave",
                                "Holloway Ave", "Monterey Blvd", "Silver Ave", "Bayshore Blvd", "Quesada Ave",
                                "Jerrold Ave", "Lombard St", "Chestnut St", "Union St", "Green St", "Pacific Ave",
                                "Jackson St", "Clay St", "Pine St", "Bush St", "Sutter St",
                                "Vicente St", "Ulloa St", "Wawona St", "Santiago St", "Rivera St"),
                      ("Outer Sunset", "Inner Richmond", "Noe Valley", "Mission District", "Bernal Heights",
                       "Excelsior", "Bayview", "Potrero Hill", "Marina District", "Pacific Heights", "Glen Park",
                       "Ingleside")),
    "Los Angeles": (_MAIN, 590, (38, 28, 14, 12, 8), 1905, 2022,
                    ("90004", "90006", "90008", "90016", "90018", "90019", "90026", "90027", "90029", "90031",
                     "90032", "90034", "90039", "90041", "90042", "90043", "90044", "90047", "90059", "90065",
                     "90066"),
                    (5, 15), ("W Adams Blvd", "S Normandie Ave", "N Figueroa St", "Sunset Blvd", "W Olympic Blvd",
                              "S Crenshaw Blvd", "Hyperion Ave", "Silver Lake Blvd", "Echo Park Ave",
                              "N Eastern Ave", "York Blvd", "Colorado Blvd", "Eagle Rock Blvd", "W 54th St",
                              "W 60th St", "S Western Ave", "S Vermont Ave", "S Hoover St", "Palms Blvd",
                              "Venice Blvd", "Rose Ave", "Glendale Blvd", "Fletcher Dr", "Avenue 50", "Avenue 64",
                              "N Broadway", "Lincoln Park Ave", "Huntington Dr", "W Slauson Ave", "S Budlong Ave",
                              "E 108th St", "E 112th St", "Wilton Pl", "S Manhattan Pl", "Cimarron St",
                              "Rimpau Blvd", "Edgehill Dr", "Los Feliz Blvd", "Griffith Park Blvd",
                              "Micheltorena St"),
                    ("Silver Lake", "Echo Park", "Highland Park", "Eagle Rock", "Leimert Park", "Hyde Park",
                     "Mar Vista", "Palms", "Mid-City", "Koreatown", "Watts", "Atwater Village")),
    "Long Beach": (_MAIN, 480, (42, 30, 12, 10, 6), 1915, 2021,
                   ("90802", "90803", "90804", "90805", "90806", "90807", "90808", "90810", "90813", "90814",
                    "90815"),
                   (4, 14), ("Atlantic Ave", "Cherry Ave", "Termino Ave", "Ximeno Ave", "Bellflower Blvd",
                             "Clark Ave", "Woodruff Ave", "Palo Verde Ave", "Studebaker Rd", "E Broadway",
                             "E 4th St", "E 7th St", "E 10th St", "E Anaheim St", "Pacific Coast Hwy", "Santa Fe Ave",
                             "W Willow St", "E Wardlow Rd", "E Spring St", "Los Coyotes Diagonal",
                             "Lakewood Blvd", "E Harding St", "Cedar Ave", "Pine Ave", "Linden Ave", "Elm Ave",
                             "Gaviota Ave", "Walnut Ave", "Obispo Ave", "Junipero Ave", "Loma Ave", "Roycroft Ave",
                             "Argonne Ave", "Daisy Ave", "Magnolia Ave", "E Ocean Blvd", "E 2nd St", "Redondo Ave"),
                   ("Belmont Shore", "Bixby Knolls", "Los Altos", "California Heights", "Naples", "Alamitos Beach",
                    "North Long Beach", "Wrigley", "Lakewood Village", "El Dorado Park")),
    "San Jose": (_MAIN, 710, (46, 22, 18, 6, 8), 1925, 2023,
                 ("95110", "95112", "95116", "95117", "95118", "95120", "95121", "95122", "95123", "95124", "95125",
                  "95126", "95127", "95128", "95129", "95131", "95132", "95133", "95136", "95148"),
                 (2, 12), ("Meridian Ave", "Hamilton Ave", "Bascom Ave", "Blossom Hill Rd", "Almaden Expy",
                           "Branham Ln", "Camden Ave", "Moorpark Ave", "Stevens Creek Blvd",
                           "Winchester Blvd", "Tully Rd", "Capitol Expy", "Senter Rd", "King Rd", "Alum Rock Ave",
                           "McKee Rd", "Berryessa Rd", "Lundy Ave", "Hostetter Rd", "Piedmont Rd", "White Rd",
                           "Quimby Rd", "Aborn Rd", "Silver Creek Rd", "Yerba Buena Rd", "Santa Teresa Blvd",
                           "Snell Ave", "Cottle Rd", "Lean Ave", "Curtner Ave", "Willow St", "Minnesota Ave",
                           "Lincoln Ave", "Park Ave", "Naglee Ave", "Dana Ave", "Hanchett Ave",
                           "Cherry Ave", "Foxworthy Ave", "Redmond Ave"),
                 ("Willow Glen", "Almaden Valley", "Cambrian Park", "Evergreen", "Berryessa", "Alum Rock",
                  "Blossom Valley", "Rose Garden", "West San Jose", "Santa Teresa", "North Valley", "Downtown")),
    "Sacramento": (_MAIN, 280, (58, 14, 12, 8, 8), 1910, 2023,
                   ("95811", "95814", "95815", "95816", "95817", "95818", "95819", "95820", "95821", "95822",
                    "95823", "95824", "95825", "95826", "95828", "95831", "95833", "95834", "95838"),
                   (3, 13), ("Folsom Blvd", "J St", "H St", "Alhambra Blvd", "Freeport Blvd", "Riverside Blvd",
                             "Land Park Dr", "Broadway", "Franklin Blvd", "Stockton Blvd", "Florin Rd",
                             "Mack Rd", "Fruitridge Rd", "Power Inn Rd", "Watt Ave", "Fair Oaks Blvd", "Howe Ave",
                             "Arden Way", "El Camino Ave", "Marconi Ave", "Northgate Blvd", "Del Paso Blvd",
                             "Truxel Rd", "Gateway Park Blvd", "Natomas Blvd", "Pocket Rd", "Greenhaven Dr",
                             "Windbridge Dr", "Meadowview Rd", "24th St", "35th St", "Elvas Ave", "McKinley Blvd",
                             "Cutter Way", "Carlson Dr", "Sierra Blvd", "Fulton Ave", "Auburn Blvd",
                             "Rio Linda Blvd", "Raley Blvd"),
                   ("East Sacramento", "Land Park", "Curtis Park", "Midtown", "Natomas", "Pocket", "Greenhaven",
                    "Arden-Arcade", "Oak Park", "Tahoe Park", "College Greens", "Del Paso Heights")),
    "San Diego": (_MAIN, 600, (40, 30, 14, 8, 8), 1915, 2023,
                  ("92101", "92102", "92103", "92104", "92105", "92106", "92107", "92109", "92110", "92111",
                   "92113", "92114", "92115", "92116", "92117", "92119", "92120", "92122", "92123", "92126"),
                  (7, 17), ("University Ave", "El Cajon Blvd", "Adams Ave", "Park Blvd", "30th St", 
                            "Mission Gorge Rd", "Clairemont Dr", "Genesee Ave", "Balboa Ave", "Garnet Ave",
                            "Ingraham St", "Voltaire St", "Sunset Cliffs Blvd", "Rosecrans St", "Morena Blvd",
                            "Linda Vista Rd", "Convoy St", "Mira Mesa Blvd", "Black Mountain Rd", "Imperial Ave",
                            "Market St", "Euclid Ave", "Federal Blvd", "Skyline Dr", "Paradise Valley Rd",
                            "Navajo Rd", "Jackson Dr", "Fairmount Ave", "Collwood Blvd", "Montezuma Rd",
                            "Regents Rd", "Governor Dr", "Nobel Dr", "Kearny Villa Rd", "Aero Dr", "Ulric St",
                            "Mt Abernathy Ave", "Cowley Way", "Lamont St"),
                  ("North Park", "Hillcrest", "Normal Heights", "Kensington", "Clairemont", "Point Loma",
                   "Ocean Beach", "Pacific Beach", "Mira Mesa", "Encanto", "Allied Gardens", "University City")),
    # smaller markets: a dozen homes each
    "Cambridge": (_SMALL, 980, (30, 44, 14, 12, 0), 1860, 2019, ("02138", "02139", "02140", "02141"),
                  (0, 10), ("Massachusetts Ave", "Brattle St", "Huron Ave", "Prospect St", "Inman St",
                            "Hampshire St", "Broadway", "Putnam Ave", "Hancock St", "Berkshire St"),
                  ("Harvard Square", "Central Square", "Inman Square", "Porter Square", "East Cambridge")),
    "Oakland": (_SMALL, 480, (50, 20, 12, 14, 4), 1900, 2020,
                ("94601", "94602", "94605", "94606", "94609", "94610", "94611", "94618", "94619"),
                (1, 11), ("Telegraph Ave", "Broadway Ter", "Park Blvd", "MacArthur Blvd", "Fruitvale Ave",
                          "Lakeshore Ave", "Piedmont Ave", "College Ave", "Redwood Rd", "Mountain Blvd",
                          "E 18th St", "International Blvd"),
                ("Rockridge", "Temescal", "Fruitvale", "Dimond District", "Maxwell Park", "Grand Lake")),
    "Hayward": (_SMALL, 480, (56, 18, 14, 4, 8), 1945, 2022, ("94541", "94542", "94544", "94545"), (1, 11),
                ("Mission Blvd", "Tennyson Rd", "Harder Rd", "Jackson St", "Winton Ave", "Hesperian Blvd",
                 "Industrial Pkwy", "Huntwood Ave", "Patrick Ave", "Calaroga Ave"),
                ("Tennyson-Alquire", "Glen Eden", "Schafer Park", "Fairway Park", "Burbank")),
    "Fremont": (_SMALL, 670, (52, 22, 18, 4, 4), 1955, 2023, ("94536", "94538", "94539", "94555"), (2, 12),
                ("Paseo Padre Pkwy", "Fremont Blvd", "Stevenson Blvd", "Thornton Ave", "Mowry Ave",
                 "Grimmer Blvd", "Ardenwood Blvd", "Niles Blvd", "Driscoll Rd", "Deep Creek Rd"),
                ("Mission San Jose", "Ardenwood", "Niles", "Irvington", "Centerville", "Warm Springs")),
    "Palo Alto": (_SMALL, 1750, (56, 24, 16, 4, 0), 1925, 2022, ("94301", "94303", "94306"), (2, 12),
                  ("University Ave", "Middlefield Rd", "Embarcadero Rd", "Louis Rd", "Greer Rd", "Cowper St",
                   "Bryant St", "Ross Rd", "Alma St", "Arastradero Rd"),
                  ("Old Palo Alto", "Crescent Park", "Midtown", "Barron Park", "Professorville")),
    "Daly City": (_SMALL, 670, (58, 22, 14, 6, 0), 1940, 2018, ("94014", "94015"), (1, 11),
                  ("Skyline Blvd", "Southgate Ave", "Hickey Blvd", "John Daly Blvd", "Westlake Ave",
                   "Mission St", "San Pedro Rd", "Gellert Blvd", "St Francis Blvd", "Crestline Ave"),
                  ("Westlake", "Serramonte", "Crocker", "Bayshore", "St Francis Heights")),
    "Carson": (_SMALL, 440, (52, 16, 12, 4, 16), 1950, 2020, ("90745", "90746"), (5, 15),
               ("E Carson St", "S Avalon Blvd", "E Victoria St", "S Main St", "E 223rd St", "E Sepulveda Blvd",
                "S Central Ave", "E Del Amo Blvd", "S Wilmington Ave", "E Dominguez St"),
               ("Dominguez", "Carson Park", "Del Amo", "Lincoln Village")),
    "Pasadena": (_SMALL, 630, (50, 24, 14, 8, 4), 1905, 2022, ("91101", "91103", "91104", "91106", "91107"),
                 (5, 15), ("E Colorado Blvd", "N Lake Ave", "E Villa St", "N Hill Ave", "E Del Mar Blvd",
                           "S Madison Ave", "N Altadena Dr", "E California Blvd", "N Los Robles Ave",
                           "Sierra Madre Blvd"),
                 ("Bungalow Heaven", "Madison Heights", "Playhouse Village", "Hastings Ranch", "Linda Vista")),
    "Huntington Beach": (_SMALL, 660, (50, 24, 16, 2, 8), 1960, 2022, ("92646", "92647", "92648", "92649"),
                         (6, 16), ("Main St", "Beach Blvd", "Goldenwest St", "Edinger Ave", "Brookhurst St",
                                   "Magnolia St", "Garfield Ave", "Atlanta Ave", "Warner Ave", "Springdale St"),
                         ("Downtown", "Huntington Harbour", "Seacliff", "Southeast", "Edwards Hill")),
    "Irvine": (_SMALL, 630, (40, 32, 26, 2, 0), 1972, 2024,
               ("92602", "92603", "92604", "92606", "92612", "92614", "92618", "92620"), (6, 16),
               ("Culver Dr", "Jeffrey Rd", "Yale Loop", "Harvard Ave", "Michelson Dr", "Irvine Center Dr",
                "Portola Pkwy", "Trabuco Rd", "Walnut Ave", "Bison Ave"),
               ("Woodbridge", "Northwood", "University Park", "Turtle Rock", "Portola Springs", "Great Park")),
    "Anaheim": (_SMALL, 480, (52, 20, 14, 6, 8), 1950, 2022,
                ("92801", "92802", "92804", "92805", "92806", "92807"), (6, 16),
                ("W Ball Rd", "N Euclid St", "W Lincoln Ave", "S Harbor Blvd", "E La Palma Ave", "N State College Blvd",
                 "W Katella Ave", "S Brookhurst St", "E Santa Ana Canyon Rd", "W Crescent Ave"),
                ("Anaheim Hills", "West Anaheim", "Colony", "Platinum Triangle", "Downtown")),
    "Escondido": (_SMALL, 380, (54, 16, 12, 4, 14), 1950, 2022, ("92025", "92026", "92027", "92029"),
                  (7, 17), ("E Valley Pkwy", "S Escondido Blvd", "E Grand Ave", "N Broadway", "W Mission Ave",
                            "E Washington Ave", "Citracado Pkwy", "Del Dios Hwy", "N Ash St", "Bear Valley Pkwy"),
                  ("Old Escondido", "Hidden Meadows", "Felicita", "Eureka Springs", "Rancho San Pasqual")),
    "Riverside": (_SMALL, 310, (58, 14, 12, 4, 12), 1920, 2023,
                  ("92501", "92503", "92504", "92505", "92506", "92507", "92508"), (8,),
                  ("Magnolia Ave", "Brockton Ave", "Arlington Ave", "Victoria Ave", "Van Buren Blvd",
                   "Central Ave", "Canyon Crest Dr", "Chicago Ave", "Market St", "La Sierra Ave"),
                  ("Wood Streets", "Canyon Crest", "Arlanza", "Orangecrest", "Mission Grove", "La Sierra")),
    "Austin": (_SMALL, 310, (54, 22, 16, 4, 4), 1935, 2024,
               ("78702", "78703", "78704", "78721", "78723", "78745", "78748", "78751", "78757"), (9,),
               ("S Congress Ave", "S Lamar Blvd", "E Cesar Chavez St", "Manor Rd", "Burnet Rd", "W 45th St",
                "Duval St", "Airport Blvd", "Slaughter Ln", "William Cannon Dr"),
               ("Travis Heights", "Bouldin Creek", "Hyde Park", "Mueller", "Zilker", "Crestview")),
    "Seattle": (_SMALL, 520, (48, 30, 16, 6, 0), 1900, 2024,
                ("98103", "98105", "98107", "98115", "98117", "98118", "98122", "98125", "98126", "98144"),
                (9, 18), ("Greenwood Ave N", "Phinney Ave N", "NW Market St", "NE 65th St", "Rainier Ave S",
                          "California Ave SW", "15th Ave E", "Roosevelt Way NE", "Aurora Ave N", "Beacon Ave S"),
                ("Ballard", "Phinney Ridge", "Green Lake", "Wallingford", "Capitol Hill",
                 "Columbia City", "West Seattle")),
}
_TYPE_ORDER = ("House", "Condo", "Townhouse", "Multi-family", "Manufactured")
_TYPE_PRICE = {"House": 1.0, "Condo": 0.93, "Townhouse": 0.9, "Multi-family": 0.74, "Manufactured": 0.3}
_BEDS = {"House": ((2, 15), (3, 40), (4, 32), (5, 13)), "Condo": ((1, 30), (2, 50), (3, 20)),
         "Townhouse": ((2, 35), (3, 50), (4, 15)), "Multi-family": ((4, 30), (5, 25), (6, 25), (8, 20)),
         "Manufactured": ((1, 15), (2, 50), (3, 35))}
_SQFT = {1: (520, 900), 2: (780, 1350), 3: (1100, 2100), 4: (1550, 2900), 5: (2200, 4200), 6: (2400, 4300),
         8: (3000, 5200)}
_BATHS = {1: (1, 1, 1.5), 2: (1, 1.5, 2, 2), 3: (1.5, 2, 2, 2.5, 3), 4: (2, 2.5, 3, 3, 3.5), 5: (3, 3.5, 4, 4.5),
          6: (3, 4, 4, 5), 8: (4, 5, 6)}
_PARKS = ("Dominguez St", "Pacific Park Ln", "Sunrise Terrace Dr", "Palm Springs Dr",
          "Vista Del Mar Ln", "Country Club Dr", "Lakeview Ter", "Meadowbrook Ln")
_NUMBERS = {"Boston": (1, 420), "Cambridge": (1, 300), "San Francisco": (100, 4999), "Los Angeles": (100, 12999)}


def _nice_price(rng: random.Random, p: float) -> int:
    r = rng.random()
    if r < 0.5:
        return int(round(p / 5000) * 5000)
    if r < 0.8:
        return int(round(p / 10000) * 10000 - 1000)
    return int(round(p / 1000) * 1000 - 100)


def _counts(n: int, shares: tuple[int, ...]) -> list[int]:
    """``n`` split by ``shares`` (largest remainder): exact counts per home type, deterministic."""
    total = sum(shares)
    raw = [n * s / total for s in shares]
    out = [int(x) for x in raw]
    for i in sorted(range(len(raw)), key=lambda i: out[i] - raw[i])[:n - sum(out)]:
        out[i] += 1
    return out


def _place_names() -> list[str]:
    return [*CITIES, *{r for _, regions in CITIES.values() for r in regions}, *STATE_NAMES, *STATE_NAMES.values()]


def _street_ok(street: str, city: str) -> bool:
    """A generated street must not put its home in another place's search (a "Texas St" in San Diego would show
    up under Texas), nor read like an apartment to REAL's scripts (zilloft_2 rejects "apt", "unit", "condo")."""
    low = street.lower()
    if any(w in low for w in ("apt", "unit", "condo", "space", "#")):
        return False
    st = CITIES[city][0]
    base = set(_words(f"{city} {st} {STATE_NAMES.get(st, '')} {' '.join(CITIES[city][1])}"))
    with_street = base | set(_words(street))
    return all(set(_words(p)) <= base or not set(_words(p)) <= with_street for p in _place_names())


def generate(seed: int = SEED, taken: tuple[Listing, ...] = ()) -> tuple[Listing, ...]:
    """The generated homes of every market in ``MARKETS``, the same for the same seed."""
    rng = random.Random(seed)
    streets = {h.street for h in taken}
    ids = {h.id for h in taken}
    out: list[Listing] = []
    for city, (n, ppsf, shares, oldest, newest, zips, agents, names, hoods) in MARKETS.items():
        names = [s for s in names if _street_ok(s, city)]
        zip_factor = {z: rng.lognormvariate(0, 0.16) for z in zips}
        types = [t for t, k in zip(_TYPE_ORDER, _counts(n, shares)) for _ in range(k)]
        rng.shuffle(types)
        lo, hi = _NUMBERS.get(city, (100, 9999))
        for kind in types:
            beds = rng.choices([b for b, _ in _BEDS[kind]], [w for _, w in _BEDS[kind]])[0]
            sqft = round(rng.uniform(*_SQFT[beds]) / 10) * 10
            if kind == "Manufactured":
                sqft = max(min(sqft, rng.randrange(700, 1600, 10)), 320 * beds)
            baths = rng.choice(_BATHS[beds])
            z = rng.choice(zips)
            while True:
                if kind == "Manufactured":
                    street = f"{rng.randint(100, 26999)} {rng.choice(_PARKS)} SPACE {rng.randint(1, 240)}"
                else:
                    street = f"{rng.randint(lo, hi)} {rng.choice(names)}"
                    if kind == "Condo":
                        unit = rng.choice((rng.randint(1, 9), rng.randint(101, 1499)))
                        apt = city in ("Los Angeles", "Long Beach", "San Diego") and rng.random() < 0.6
                        street += f" {'APT' if apt else 'Unit'} {unit}"
                if street not in streets:
                    break
            streets.add(street)
            price = sqft * ppsf * _TYPE_PRICE[kind] * zip_factor[z] * rng.lognormvariate(0, 0.2)
            if kind == "Manufactured":
                price = min(max(price, 59000), 420000)
            year = rng.randint(max(oldest, 1962 if kind == "Manufactured" else 1955 if kind == "Condo" else oldest),
                               newest)
            while True:
                zpid = str(rng.randint(10_000_000, 99_999_999))
                if zpid not in ids:
                    break
            ids.add(zpid)
            out.append(Listing(zpid, street, city, z, _nice_price(rng, price), beds, float(baths), sqft, kind, year,
                               rng.choice(agents), 1 + int(rng.expovariate(1 / 24)), "",
                               hoods[zips.index(z) % len(hoods)]))
    return tuple(out)


LISTINGS: tuple[Listing, ...] = FIXED + generate(taken=FIXED)

BY_ID: dict[str, Listing] = {h.id: h for h in LISTINGS}
assert len(BY_ID) == len(LISTINGS), "duplicate zpid"


HOME_TYPES = (H, T, MF, C, M)
# Zillow's names for the home-type boxes ("Houses", "Townhomes", "Condos/Co-ops" ...); the state keeps the type
TYPE_LABELS = {H: "Houses", T: "Townhomes", MF: "Multi-family", C: "Condos/Co-ops", M: "Manufactured"}
SORTS = (("homes_for_you", "Homes for You"), ("price_high", "Price (High to Low)"),
         ("price_low", "Price (Low to High)"), ("newest", "Newest"), ("beds", "Bedrooms"), ("baths", "Bathrooms"),
         ("sqft", "Square Feet"))
PAGE_SIZE = 24  # homes per results page
_SORT_KEYS = {"homes_for_you": lambda h: h.rank, "price_high": lambda h: (-h.price, h.rank),
              "price_low": lambda h: (h.price, h.rank), "newest": lambda h: (h.days_on_market, h.rank),
              "beds": lambda h: (-h.beds, h.rank), "baths": lambda h: (-h.baths, h.rank),
              "sqft": lambda h: (-h.sqft, h.rank)}


@functools.cache
def _index() -> dict[str, frozenset[str]]:
    """word -> ids of the listings whose address, city, state, ZIP or region holds it."""
    out: dict[str, set[str]] = {}
    for h in LISTINGS:
        for w in h.words:
            out.setdefault(w, set()).add(h.id)
    return {w: frozenset(ids) for w, ids in out.items()}


@functools.cache
def _cities_named(words: frozenset[str]) -> frozenset[str]:
    """The cities a query names whole ("San Jose", "san jose ca", "Boston, Massachusetts"), as Zillow's search box
    resolves a city; empty for streets, ZIP codes and regions."""
    out = set()
    for c, (st, _) in CITIES.items():
        name = set(_words(c))
        if name <= words <= name | set(_words(f"{st} {STATE_NAMES.get(st, '')}")):
            out.add(c)
    return frozenset(out)


def search(location: str = "", min_price: int | None = None, max_price: int | None = None, min_beds: int = 0,
           min_baths: float = 0, min_sqft: int | None = None, max_sqft: int | None = None,
           home_types: tuple[str, ...] = (), sort: str = "homes_for_you", max_beds: int | None = None,
           max_baths: float | None = None) -> list[Listing]:
    """Listings whose address, city, state, ZIP or region holds every word of ``location``, then the filters
    (``max_beds`` / ``max_baths`` equal to the minimum are Zillow's "Use exact match"), in ``sort`` order."""
    words = [w for w in _words(location) if w not in ("usa", "us")]
    if words:
        index = _index()
        ids = functools.reduce(frozenset.intersection, (index.get(w, frozenset()) for w in words))
        out = [h for h in LISTINGS if h.id in ids]
        cities = _cities_named(frozenset(words))
        if cities:  # "San Francisco" is the city, not all of the San Francisco Bay Area
            out = [h for h in out if h.city in cities]
    else:
        out = list(LISTINGS)
    out = [h for h in out if (min_price is None or h.price >= min_price) and (max_price is None or h.price <= max_price)
           and h.beds >= min_beds and h.baths >= min_baths and (max_beds is None or h.beds <= max_beds)
           and (max_baths is None or h.baths <= max_baths) and (min_sqft is None or h.sqft >= min_sqft)
           and (max_sqft is None or h.sqft <= max_sqft) and (not home_types or h.home_type in home_types)]
    out.sort(key=_SORT_KEYS.get(sort, _SORT_KEYS["homes_for_you"]))
    return out


def page_of(homes: list[Listing], page: int) -> tuple[list[Listing], int, int]:
    """The homes on results page ``page`` (from 1, clamped to the pages there are), the page and the page count."""
    pages = max(1, -(-len(homes) // PAGE_SIZE))
    page = min(max(1, page), pages)
    return homes[(page - 1) * PAGE_SIZE:page * PAGE_SIZE], page, pages
