"""Omnizon's product catalogue: fixed ids, names and prices, plus the search and filters over it.

REAL's v2 omnizon scripts hard-code product ids (cooking pots 212/215, sports-ball pack 114, neck pillows 167/170,
PS5 controller 16, gaming devices 16/192/193, apron 91, 40-inch desk 159): those products exist here with those
ids, among 61 fixed products (``CORE_PRODUCTS``; the others are distractors chosen so that search and filters matter:
a flower pot, single balls, desks of other sizes, headphones on both sides of a price range, ...). Beside them, a
shop's scale of products generated from a fixed seed (``generated``: laptops, smartphones, tablets, monitors, sofas,
luggage, ... across the same eight departments), so that searches return pages of results. ``PRODUCTS`` is the
whole catalogue, the fixed products first (the "Featured" order).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from real_local.omnizon.generated import generate

PAGE_SIZE = 24  # results per search page (Amazon's grid shows 16 to 48)
CATEGORIES = ("Electronics", "Video Games", "Home & Kitchen", "Sports & Outdoors", "Furniture", "Travel",
              "Health & Household", "Office Products")


@dataclass(frozen=True)
class Product:
    id: str
    title: str
    category: str
    price: float
    rating: float
    reviews: int
    brand: str
    bullets: tuple[str, ...] = ()
    list_price: float | None = None
    keywords: str = ""
    color: str = "#8aa"
    prime: bool = True
    kind: str = ""  # the kind of picture (``real_local.imagery.products.KINDS``); "" lets the title decide

    @property
    def words(self) -> frozenset[str]:
        w = _WORDS_OF.get(self.id)
        if w is None or w[0] is not self:
            return frozenset(_tokens(f"{self.title} {self.brand} {self.category} {self.keywords}"))
        return w[1]

    @property
    def stars_pct(self) -> int:
        return round(self.rating / 5 * 100)


def _p(id, title, category, price, rating, reviews, brand, bullets=(), list_price=None, keywords="", color="#8aa"):
    return Product(str(id), title, category, float(price), float(rating), int(reviews), brand, tuple(bullets),
                   list_price, keywords, color)


K, E, G, S, F, T, H, O = CATEGORIES[2], CATEGORIES[0], CATEGORIES[1], CATEGORIES[3], CATEGORIES[4], CATEGORIES[5], \
    CATEGORIES[6], CATEGORIES[7]

CORE_PRODUCTS: tuple[Product, ...] = (
    # ---- video games and gaming devices (16, 192, 193 are what omnizon_9 / omnizon_24 accept)
    _p(16, "PlayStation DualSense Wireless Controller for PS5 - Midnight Black", G, 69.99, 4.8, 48213, "Sony",
       ("Haptic feedback and adaptive triggers", "Built-in microphone and headset jack", "USB-C charging"),
       74.99, "ps5 playstation gamepad gaming controller controllers console", "#1d1f2b"),
    _p(192, "Logitech G203 Wired Gaming Mouse, 8,000 DPI, RGB Lighting", G, 29.99, 4.6, 91877, "Logitech",
       ("8,000 DPI sensor", "6 programmable buttons", "LIGHTSYNC RGB"), 39.99,
       "gaming mouse device pc accessories", "#3a3f58"),
    _p(193, "Nintendo Switch Pro Controller", G, 64.99, 4.8, 31544, "Nintendo",
       ("Motion controls and HD rumble", "40 hours of battery", "amiibo support"), None,
       "gaming controller gamepad switch device", "#b22222"),
    _p(17, "Xbox Core Wireless Gaming Controller - Carbon Black", G, 54.99, 4.7, 60431, "Microsoft",
       ("Xbox Series X|S, Xbox One, Windows", "Textured grip", "Bluetooth"), 59.99,
       "xbox gamepad gaming controller controllers", "#2f6f2f"),
    _p(18, "PowerA Enhanced Wired Controller for Xbox Series X|S", G, 29.99, 4.5, 20110, "PowerA",
       ("Mappable advanced gaming buttons", "3.5 mm audio jack", "10 ft USB-C cable"), None,
       "xbox gamepad gaming controller wired", "#444c66"),
    _p(194, "PlayStation 5 Console - Slim", G, 449.99, 4.8, 12875, "Sony",
       ("1TB SSD", "Ultra-high speed SSD", "Includes DualSense controller"), 499.99,
       "ps5 playstation console gaming", "#e9ecf2"),
    _p(195, "Redragon K552 Mechanical Gaming Keyboard, RGB, 87 Keys", G, 39.99, 4.5, 72209, "Redragon",
       ("Tenkeyless design", "Red switches", "Splash-proof"), None, "gaming keyboard mechanical", "#222"),
    _p(196, "Meta Quest 3 128GB VR Headset", G, 499.99, 4.6, 8620, "Meta",
       ("Mixed reality", "Snapdragon XR2 Gen 2", "Touch Plus controllers"), None,
       "vr virtual reality headset gaming device", "#f3f3f3"),
    # ---- headphones and electronics (omnizon_3 wants headphones priced strictly between $24 and $100)
    _p(41, "Sony WH-1000XM5 Wireless Noise Canceling Headphones", E, 329.99, 4.6, 21980, "Sony",
       ("Industry-leading noise canceling", "30-hour battery", "Multipoint connection"), 399.99,
       "headphones over-ear wireless bluetooth", "#2b2b2b"),
    _p(42, "Soundcore by Anker Q20i Hybrid Active Noise Cancelling Headphones", E, 49.99, 4.5, 38841, "Soundcore",
       ("40H playtime in ANC mode", "Hi-Res audio", "Bluetooth 5.0"), 59.99,
       "headphones over-ear wireless bluetooth noise cancelling", "#1b3b6f"),
    _p(43, "JBL Tune 510BT Wireless On-Ear Headphones - Blue", E, 29.95, 4.5, 96105, "JBL",
       ("JBL Pure Bass sound", "40-hour battery", "Speed charge"), 49.95,
       "headphones on-ear wireless bluetooth", "#1e5fbf"),
    _p(44, "Panasonic RP-HT161 Lightweight Wired Headphones", E, 14.99, 4.3, 15030, "Panasonic",
       ("Lightweight design", "Deep bass", "3.5 mm plug"), None, "headphones over-ear wired", "#888"),
    _p(45, "Beats Studio Pro Wireless Headphones - Black", E, 249.99, 4.5, 11278, "Beats",
       ("Personalized spatial audio", "Up to 40 hours", "USB-C lossless audio"), 349.99,
       "headphones over-ear wireless bluetooth", "#111"),
    _p(46, "Sennheiser HD 280 PRO Closed-Back Studio Headphones", E, 89.95, 4.6, 8410, "Sennheiser",
       ("32 dB ambient noise attenuation", "Rotating ear cups", "Studio monitoring"), 99.95,
       "headphones wired studio monitor", "#333"),
    _p(47, "Apple AirPods (2nd Generation) Wireless Earbuds", E, 89.0, 4.7, 510332, "Apple",
       ("Quick access to Siri", "24 hours with charging case", "Effortless setup"), 129.0,
       "earbuds earphones wireless bluetooth", "#fafafa"),
    _p(48, "TOZO T6 True Wireless Earbuds, IPX8 Waterproof", E, 19.99, 4.3, 210551, "TOZO",
       ("Touch control", "IPX8 waterproof", "Wireless charging case"), 39.99, "earbuds earphones wireless", "#222"),
    _p(49, "HyperX Cloud II Gaming Headset - 7.1 Surround Sound", E, 79.99, 4.6, 70113, "HyperX",
       ("7.1 virtual surround", "Memory foam ear cushions", "Detachable mic"), 99.99,
       "headphones gaming headset wired", "#9b1c1c"),
    _p(50, "Amazon Echo Dot (5th Gen) Smart Speaker with Alexa", E, 49.99, 4.7, 140221, "Amazon",
       ("Improved audio", "Voice control your smart home", "Temperature sensor"), None,
       "smart speaker alexa", "#223344"),
    _p(51, "Anker USB C Charger 40W, 2-Port Fast Charger", E, 25.99, 4.7, 30120, "Anker",
       ("Charges two devices", "Compact design", "USB-C PD"), None, "charger usb-c phone", "#f0f0f0"),
    _p(52, "Fire TV Stick 4K with Alexa Voice Remote", E, 39.99, 4.7, 201334, "Amazon",
       ("4K Ultra HD streaming", "Wi-Fi 6", "Dolby Vision"), 49.99, "streaming tv stick", "#333"),
    # ---- home & kitchen (cooking pots 212/215, apron 91, silverware sets)
    _p(212, "Cuisinart 8-Quart Stainless Steel Stockpot with Cover, Cooking Pot", K, 44.99, 4.7, 18633,
       "Cuisinart", ("Mirror-finish stainless steel", "Aluminum encapsulated base", "Oven safe to 550 F"), 59.99,
       "pot pots cooking stockpot stock soup kitchen cookware", "#c0c4cc"),
    _p(215, "T-fal Nonstick 5-Quart Dutch Oven Cooking Pot with Lid", K, 34.99, 4.6, 9874, "T-fal",
       ("Titanium nonstick interior", "Riveted handles", "Dishwasher safe"), 42.99,
       "pot pots cooking dutch oven soup kitchen cookware", "#38393d"),
    _p(216, "Ceramic Flower Pot Planter Set of 3 with Drainage", K, 27.99, 4.5, 5120, "Greaner",
       ("Indoor plant pots", "Drainage holes and saucers", "Modern matte finish"), None,
       "pot pots planter plant flower garden", "#e6d3b3"),
    _p(217, "Hiware Glass Teapot with Removable Infuser, 1000ml", K, 19.99, 4.6, 21455, "Hiware",
       ("Borosilicate glass", "Stovetop safe", "Loose leaf tea"), None, "teapot tea kettle", "#d8eef0"),
    _p(218, "Lodge 10.25 Inch Cast Iron Skillet", K, 24.9, 4.7, 160772, "Lodge",
       ("Pre-seasoned", "Use in the oven, on the stove, on the grill", "Made in USA"), None,
       "skillet pan frying cookware kitchen", "#1c1c1c"),
    _p(219, "Calphalon 10-Inch Nonstick Frying Pan", K, 39.99, 4.6, 7530, "Calphalon",
       ("Hard-anodized aluminum", "Stay-cool handle", "Oven safe"), None, "pan frying skillet cookware", "#2d2d2d"),
    _p(91, "Hudson Durable Goods Professional Kitchen Apron with Pockets", K, 21.99, 4.6, 25310,
       "Hudson Durable Goods", ("Heavy-duty cotton canvas", "Adjustable neck strap", "Towel loop and pockets"),
       None, "apron cooking kitchen chef bbq", "#6b4f3a"),
    _p(92, "OXO Good Grips Silicone Oven Mitt", K, 14.95, 4.7, 12005, "OXO",
       ("Heat resistant to 600 F", "Magnet for storage", "Dishwasher safe"), None, "oven mitt kitchen", "#333"),
    _p(230, "Amazon Basics 20-Piece Stainless Steel Flatware Silverware Set, Service for 4", K, 19.99, 4.6,
       61877, "Amazon Basics", ("20 pieces: forks, knives, spoons", "Dishwasher safe", "Mirror finish"), None,
       "silverware flatware cutlery set spoons forks knives utensils", "#d9dde3"),
    _p(231, "Lenox Portola 65-Piece Silverware Flatware Set, Service for 12", K, 89.99, 4.7, 3021, "Lenox",
       ("65 pieces including serving set", "18/10 stainless steel", "Gift box"), 129.99,
       "silverware flatware cutlery set spoons forks", "#e7e7e7"),
    _p(232, "Bamboo Cooking Utensils Set, 6-Piece Wooden Spoons", K, 15.99, 4.6, 11301, "Riveira",
       ("Natural bamboo", "Nonstick safe", "Includes spatulas"), None, "wooden spoons utensils kitchen", "#caa472"),
    _p(233, "Keurig K-Mini Single Serve Coffee Maker", K, 79.99, 4.5, 90277, "Keurig",
       ("Brews 6-12 oz", "Fits anywhere", "Cord storage"), 99.99, "coffee maker machine", "#101010"),
    _p(234, "Instant Pot Duo 7-in-1 Electric Pressure Cooker, 6 Quart", K, 89.99, 4.7, 162113, "Instant Pot",
       ("Pressure cooker, slow cooker, rice cooker", "13 one-touch programs", "Dishwasher-safe lid"), 99.95,
       "pressure cooker multicooker electric", "#c9c9c9"),
    # ---- sports (114 is the pack omnizon_15 accepts)
    _p(114, "Franklin Sports Youth Ball Pack - Soccer, Basketball, Football and Volleyball (4 Pack)", S, 49.99,
       4.6, 4120, "Franklin Sports", ("Four official-style balls", "Includes pump and needles", "Ages 6+"), 59.99,
       "sports balls ball pack set football basketball soccer volleyball", "#e46b1e"),
    _p(115, "Spalding NBA Street Outdoor Basketball, Size 7", S, 24.99, 4.7, 70332, "Spalding",
       ("Durable rubber cover", "Outdoor play", "Official size"), None, "basketball ball", "#d2691e"),
    _p(116, "Wilson NFL Super Grip Composite Football", S, 21.99, 4.7, 28711, "Wilson",
       ("Composite leather", "Official size", "Super grip"), None, "football ball", "#7a3e1d"),
    _p(117, "adidas Unisex Tiro Club Soccer Ball", S, 17.0, 4.6, 19004, "adidas",
       ("Machine-stitched", "TPU cover", "Size 5"), None, "soccer ball", "#f5f5f5"),
    _p(118, "Gaiam Essentials Thick Yoga Mat, 72 x 24 Inch", S, 21.98, 4.6, 90101, "Gaiam",
       ("2/5 inch thick", "Non-slip texture", "Carrying strap"), None, "yoga mat fitness exercise", "#6c4aa0"),
    _p(119, "Amazon Basics Neoprene Dumbbell Hand Weights, Pair", S, 19.99, 4.7, 140300, "Amazon Basics",
       ("Neoprene coating", "Color-coded weights", "Hexagon shape"), None, "dumbbells weights fitness", "#2e8b57"),
    # ---- travel (neck pillows 167/170)
    _p(167, "trtl Travel Neck Pillow - Scientifically Proven Super Soft Neck Support", T, 44.99, 4.3, 30871,
       "trtl", ("Machine washable", "Lightweight at 5.3 oz", "Adjustable support"), None,
       "neck pillow travel airplane support comfortable", "#4a6f8a"),
    _p(170, "Cabeau Evolution S3 Memory Foam Neck Pillow for Travel", T, 39.99, 4.4, 24118, "Cabeau",
       ("Memory foam", "Adjustable clasp", "Compact travel case"), None,
       "neck pillow travel memory foam airplane comfortable", "#7a8a9a"),
    _p(171, "Coop Home Goods Original Adjustable Bed Pillow, Queen", H, 69.99, 4.4, 66015, "Coop Home Goods",
       ("Adjustable memory foam fill", "Washable cover", "Queen size"), None, "bed pillow sleeping", "#f3f1ea"),
    _p(172, "Everlasting Comfort Lumbar Support Pillow for Office Chair", H, 39.95, 4.4, 44018,
       "Everlasting Comfort", ("Memory foam", "Adjustable strap", "Back pain relief"), None,
       "lumbar back cushion pillow chair support", "#3c3c3c"),
    _p(173, "Samsonite Winfield 2 Hardside Carry-On Luggage, 20-Inch", T, 129.99, 4.6, 40888, "Samsonite",
       ("Spinner wheels", "Polycarbonate shell", "TSA lock"), 179.99, "luggage suitcase carry-on travel", "#1f3f6f"),
    _p(174, "Mavogel Cotton Sleep Eye Mask", T, 9.99, 4.5, 51022, "Mavogel",
       ("Light blocking", "Soft cotton", "Adjustable strap"), None, "sleep mask travel eye", "#222"),
    # ---- furniture (40-inch desk 159, office chairs, bed frames)
    _p(159, "Coleshome 40 Inch Computer Desk, Modern Simple Style Home Office Writing Desk", F, 59.99, 4.5,
       18260, "Coleshome", ("40 x 18 inch tabletop", "Sturdy metal frame", "Easy assembly"), 79.99,
       "desk computer office table 40 inch writing", "#8b6b4a"),
    _p(158, "SHW Home Office 55-Inch Large Computer Desk", F, 119.99, 4.5, 9040, "SHW",
       ("55 x 24 inch", "Steel frame", "Walnut finish"), None, "desk computer office table 55 inch", "#5b4636"),
    _p(157, "Sweetcrispy 32 Inch Small Computer Desk", F, 39.99, 4.4, 6115, "Sweetcrispy",
       ("32 inch small desk", "Headphone hook", "Easy assembly"), None, "desk computer office table 32 inch", "#b49a7a"),
    _p(156, "FEZIBO 48 x 24 Inch Electric Standing Desk", F, 179.99, 4.5, 12050, "FEZIBO",
       ("Height adjustable", "Memory presets", "Splice board"), 229.99, "desk standing electric office 48 inch", "#222"),
    _p(160, "Sihoo M18 Ergonomic Office Chair with Lumbar Support", F, 139.99, 4.3, 15800, "Sihoo",
       ("Breathable mesh back", "Adjustable headrest", "Lumbar support"), 169.99,
       "office chair ergonomic desk chair mesh", "#303030"),
    _p(161, "Amazon Basics Low-Back Computer Task Office Desk Chair", F, 64.99, 4.3, 70211, "Amazon Basics",
       ("Swivel with casters", "Adjustable height", "Mesh back"), None, "office chair desk task chair", "#1a1a1a"),
    _p(162, "Furmax Gaming Chair Racing Style High Back Office Chair", F, 89.99, 4.2, 25533, "Furmax",
       ("Racing style", "Lumbar pillow", "Reclining"), None, "gaming chair office chair racing", "#b01e1e"),
    _p(180, "ZINUS Shalini Upholstered Platform Bed Frame, Queen", F, 219.99, 4.4, 60012, "ZINUS",
       ("Queen size", "Wood slat support", "No box spring needed"), 279.0,
       "bed frame queen platform upholstered", "#6e7074"),
    _p(181, "Amazon Basics Metal Platform Bed Frame with Tool-Free Assembly, Queen", F, 79.99, 4.5, 84310,
       "Amazon Basics", ("Queen size", "14 inch height for storage", "Steel frame"), None,
       "bed frame queen metal platform", "#2b2b2b"),
    _p(182, "Novilla King Size Bed Frame with Headboard", F, 189.99, 4.4, 3300, "Novilla",
       ("King size", "Upholstered headboard", "Wood slats"), None, "bed frame king upholstered headboard", "#807a70"),
    _p(183, "Mellow Twin Metal Platform Bed Frame", F, 69.99, 4.5, 12200, "Mellow",
       ("Twin size", "Steel slats", "Easy assembly"), None, "bed frame twin metal platform", "#333"),
    _p(184, "Zinus 12 Inch Green Tea Memory Foam Mattress, Queen", F, 299.0, 4.5, 150330, "ZINUS",
       ("Queen mattress", "Green tea infused", "CertiPUR-US"), None, "mattress queen memory foam bed", "#e9efe6"),
    # ---- health & household, office
    _p(200, "Dove Men+Care Body Wash, Extra Fresh, 18 Fl Oz (Pack of 3)", H, 17.97, 4.8, 40210, "Dove",
       ("Pack of 3", "Moisturizing", "Fresh scent"), None, "body wash soap", "#1f4e79"),
    _p(201, "Bounty Quick Size Paper Towels, 12 Family Rolls", H, 31.49, 4.8, 92010, "Bounty",
       ("12 family rolls", "2x more absorbent", "Select-a-size"), None, "paper towels household", "#f7f7f7"),
    _p(202, "Pilot G2 Premium Gel Roller Pens, Fine Point, 12 Pack", O, 14.29, 4.8, 73011, "Pilot",
       ("12 black pens", "Retractable", "Comfortable grip"), None, "pens office writing", "#202020"),
    _p(203, "Amazon Basics Multipurpose Copy Printer Paper, 8.5 x 11 Inch, 500 Sheets", O, 9.99, 4.8, 128001,
       "Amazon Basics", ("500 sheets", "92 bright", "20 lb"), None, "paper printer office", "#fafafa"),
)

PRODUCTS: tuple[Product, ...] = CORE_PRODUCTS + tuple(Product(**d) for d in generate())
CORE_IDS: frozenset[str] = frozenset(p.id for p in CORE_PRODUCTS)
BY_ID: dict[str, Product] = {p.id: p for p in PRODUCTS}
assert len(BY_ID) == len(PRODUCTS), "duplicate product id"

_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def _stem(w: str) -> str:
    """Fold simple English plurals (pots -> pot, boxes -> box, accessories -> accessory)."""
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith(("ches", "shes", "xes", "sses")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us")):
        return w[:-1]
    return w


def _tokens(text: str) -> list[str]:
    out = []
    for w in _WORD.findall(text.lower()):
        out.append(_stem(w))
        if "-" in w:
            out.extend(_stem(p) for p in w.split("-"))
    return out


_WORDS_OF: dict[str, tuple[Product, frozenset[str]]] = {
    p.id: (p, frozenset(_tokens(f"{p.title} {p.brand} {p.category} {p.keywords}"))) for p in PRODUCTS}
_INDEX: dict[str, set[int]] = {}  # word -> positions in PRODUCTS of the products holding it
for _i, _p in enumerate(PRODUCTS):
    for _w in _WORDS_OF[_p.id][1]:
        _INDEX.setdefault(_w, set()).add(_i)


@dataclass
class SearchResult:
    products: list[Product]
    exact: bool  # False when no product matched every word and the list holds partial matches
    total: int = 0
    categories: list[tuple[str, int]] = field(default_factory=list)


def search(query: str = "", category: str = "", min_price: float | None = None, max_price: float | None = None,
           min_rating: float | None = None, sort: str = "featured") -> SearchResult:
    """Products matching every word of ``query`` (plurals folded), then the filters. If no product matches every
    word, the ones matching most words are shown (as Amazon does) and ``exact`` is False."""
    words = _tokens(query)
    in_dept = not category or category == "All"
    exact = True
    if words:
        sets = [_INDEX.get(w, set()) for w in words]
        idx = set.intersection(*sets)
        pos = sorted(i for i in idx if in_dept or PRODUCTS[i].category == category)
        if not pos:  # no product holds every word: the ones holding most of them
            exact = False
            counts: dict[int, int] = {}
            for st in sets:
                for i in st:
                    if in_dept or PRODUCTS[i].category == category:
                        counts[i] = counts.get(i, 0) + 1
            best = max(counts.values(), default=0)
            pos = sorted(i for i, n in counts.items() if n == best)
        pool = [PRODUCTS[i] for i in pos]
    else:
        pool = [p for p in PRODUCTS if in_dept or p.category == category]
    cats: dict[str, int] = {}
    for p in pool:
        cats[p.category] = cats.get(p.category, 0) + 1
    if min_price is not None:
        pool = [p for p in pool if p.price >= min_price]
    if max_price is not None:
        pool = [p for p in pool if p.price <= max_price]
    if min_rating is not None:
        pool = [p for p in pool if p.rating >= min_rating]
    if sort == "price-asc":
        pool.sort(key=lambda p: p.price)
    elif sort == "price-desc":
        pool.sort(key=lambda p: -p.price)
    elif sort == "rating":
        pool.sort(key=lambda p: (-p.rating, -p.reviews))
    elif sort == "reviews":
        pool.sort(key=lambda p: -p.reviews)
    return SearchResult(products=pool, exact=exact, total=len(pool), categories=sorted(cats.items()))
