# ruff: noqa: C408, ISC004 - data tables: dict(...) rows and model names wrapped across lines
"""Omnizon's catalogue at a shop's scale: several hundred products generated from a fixed seed, beside the 61 fixed
products REAL's scripts name (``catalog.CORE_PRODUCTS``).

Product lines (laptops, smartphones, tablets, headphones, monitors, office chairs, sofas, luggage, ...) are drawn from
brand and model tables with Amazon-style titles ("Lenovo IdeaPad Slim 3 15 Laptop, 15.6" FHD Display, Intel Core
i5-1335U, 16GB RAM, 512GB SSD, Windows 11 Home"), prices within each line's range, ratings, review counts, list
prices on some, colours. Everything is a pure function of ``SEED``: the same catalogue on every machine and run.

What is never generated, so that REAL's v2 tasks keep exactly the answers their scripts accept: cooking pots (212 and
215 are omnizon-13's), packs of sports balls (114), neck or travel pillows (167, 170), PS5 controllers (16), aprons
(91), silverware sets (230, 231) and 40-inch desks (159). ``tests/sites/test_omnizon_data.py`` pins it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

SEED = 20240718
FIRST_ID = 300  # generated ids are 300, 301, ... (the fixed products hold ids below 300)

E, G, K, S, F, T, H, O = ("Electronics", "Video Games", "Home & Kitchen", "Sports & Outdoors", "Furniture", "Travel",
                          "Health & Household", "Office Products")

# The few products REAL's v1 omnizon tasks name, with v1's ids where they are free here (v1's 51 is not).
V1_NAMED: tuple[dict[str, Any], ...] = (
    dict(id="15", title="Marshall Emberton II Portable Bluetooth Speaker, Black & Brass", category=E, price=169.99,
         rating=4.7, reviews=9120, brand="Marshall", list_price=179.99, kind="speaker", color="#2a2622",
         keywords="speaker speakers bluetooth portable wireless audio",
         bullets=("30+ hours of portable playtime", "IP67 dust and water resistant", "True Stereophonic 360 sound")),
    dict(id="21", title="Apple iPhone 15 Pro, 128GB, Natural Titanium - Unlocked (Renewed)", category=E, price=749.0,
         rating=4.4, reviews=6120, brand="Apple", list_price=None, kind="phone", color="#8c8577",
         keywords="smartphone smartphones phone phones cell mobile iphone unlocked",
         bullets=("A17 Pro chip", "48MP main camera", "Titanium design")),
    dict(id="22", title="SAMSUNG Galaxy S24 Ultra Cell Phone, 256GB AI Smartphone, Unlocked Android, 200MP Camera, "
         "Titanium Black", category=E, price=1119.99, rating=4.6, reviews=3471, brand="SAMSUNG", list_price=1299.99,
         kind="phone", color="#2b2b2e", keywords="smartphone smartphones phone phones cell mobile galaxy android",
         bullets=("200MP camera with 100x Space Zoom", "Built-in S Pen", "Titanium frame")),
    dict(id="23", title="SAMSUNG Galaxy Z Fold 6 Cell Phone, 256GB AI Smartphone, Unlocked Android, Foldable, Silver "
         "Shadow", category=E, price=1899.99, rating=4.3, reviews=812, brand="SAMSUNG", list_price=None,
         kind="phone", color="#b9bcc2", keywords="smartphone smartphones phone phones cell mobile galaxy android "
         "foldable fold", bullets=("7.6-inch foldable main screen", "Galaxy AI", "IP48 water resistance")),
    dict(id="61", title="Michael Kors Oversized Slim Runway Men's Watch, Stainless Steel, Gold Tone", category=T,
         price=154.0, rating=4.6, reviews=12030, brand="Michael Kors", list_price=250.0, kind="watch",
         color="#c8a04a", keywords="watch watches men analog gold", bullets=("44mm case", "Mineral crystal",
                                                                            "Water resistant to 50 m")),
)


def _price(r: random.Random, lo: float, hi: float) -> float:
    """A shop price between lo and hi, on a usual ending (.99, .95, .00, .49)."""
    v = math.exp(r.uniform(math.log(lo), math.log(hi)))
    end = r.choice((0.99, 0.99, 0.99, 0.95, 0.49, 0.0))
    base = math.floor(v)
    if v > 300 and r.random() < 0.6:
        base = int(v // 10 * 10 - 1) if end else int(v // 10 * 10)
    return round(max(1.0, base + end), 2)


def _rating(r: random.Random) -> float:
    return round(min(4.9, max(3.3, r.gauss(4.4, 0.28))), 1)


def _reviews(r: random.Random) -> int:
    return int(math.exp(r.uniform(2.5, 10.6)))


def _color(r: random.Random, palette: tuple[str, ...]) -> str:
    return r.choice(palette)


NEUTRAL = ("#1d1d1f", "#2b2b2e", "#3a3d42", "#8e9297", "#b9bcc2", "#d9dadc", "#f1f1f1")
BRIGHT = ("#1e5fbf", "#b22222", "#2e8b57", "#6c4aa0", "#e46b1e", "#d4a017", "#16808a", "#c2185b", "#455a64")
WOOD = ("#8b6b4a", "#5b4636", "#b49a7a", "#3e2f25", "#d2b48c", "#6e5a48")
FABRIC = ("#5d6d7e", "#8a8d91", "#2f3e4e", "#a0522d", "#556b2f", "#7b6d8d", "#c9b79c", "#34495e", "#9e2a2b")

Spec = dict[str, Any]


# ---------------------------------------------------------------- product lines
def _laptops(r: random.Random) -> list[Spec]:
    models = {
        "Dell": ["Inspiron 15 3530", "Inspiron 14 5440", "XPS 13 9340", "XPS 14 9440", "Latitude 7440", "Vostro 3520",
                 "G15 5530 Gaming"],
        "HP": ["Pavilion 15", "Envy x360 14", "EliteBook 840 G10", "Victus 15 Gaming", "OmniBook X 14", "15 Essential"],
        "Lenovo": ["IdeaPad Slim 3 15", "ThinkPad E14 Gen 5", "Yoga 7i 16", "Legion 5 Gen 8 Gaming", "IdeaPad 1 14",
                   "ThinkPad X1 Carbon Gen 11"],
        "ASUS": ["Vivobook 15", "Zenbook 14 OLED", "ROG Strix G16 Gaming", "TUF Gaming A15", "Chromebook Plus CX34"],
        "Acer": ["Aspire 5", "Swift Go 14", "Nitro V 15 Gaming", "Chromebook 314", "Aspire 3 Spin 14"],
        "Apple": ["MacBook Air 13-inch M2", "MacBook Air 15-inch M3", "MacBook Pro 14-inch M3"],
        "Microsoft": ["Surface Laptop 5", "Surface Laptop Go 3"],
        "MSI": ["Thin GF63 Gaming", "Katana 15 Gaming", "Modern 14"],
        "SAMSUNG": ["Galaxy Book4 Pro", "Galaxy Book3 360"],
        "Razer": ["Blade 14 Gaming"], "LG": ["gram 16"], "Gigabyte": ["G5 Gaming"],
    }
    out = []
    for brand, names in models.items():
        for name in names:
            apple = brand == "Apple"
            gaming = "Gaming" in name
            chrome = "Chromebook" in name
            sizes = [w[-2:] for w in name.replace("-inch", "").split() if w[-2:] in ("13", "14", "15", "16")]
            screen = {"13": "13.6" if apple else "13.3", "14": "14", "15": "15.3" if apple else "15.6",
                      "16": "16"}[sizes[0]] if sizes else r.choice(["14", "15.6", "16"])
            if apple:
                cpu, os_ = name.split()[-1] + " chip", "macOS"
            elif chrome:
                cpu, os_ = r.choice(["Intel Core i3-N305", "MediaTek Kompanio 520", "Intel Celeron N4500"]), "ChromeOS"
            else:
                cpu = r.choice(["Intel Core i5-1335U", "Intel Core i7-1355U", "Intel Core Ultra 7 155H",
                                "AMD Ryzen 5 7530U", "AMD Ryzen 7 7730U", "Intel Core i5-12450H",
                                "Intel Core i7-13620H", "AMD Ryzen 7 8845HS"])
                os_ = r.choice(["Windows 11 Home", "Windows 11 Home", "Windows 11 Pro"])
            ram = r.choice([8, 16, 16, 32]) if not chrome else r.choice([4, 8])
            ssd = r.choice(["256GB", "512GB", "512GB", "1TB"]) if not chrome else r.choice(["64GB eMMC", "128GB"])
            gpu = r.choice([", NVIDIA GeForce RTX 4050", ", NVIDIA GeForce RTX 4060", ", RTX 4070"]) if gaming else ""
            disp = r.choice(["FHD", "FHD Touchscreen", "2.8K OLED", "WUXGA", "QHD 165Hz" if gaming else "FHD IPS"])
            title = (f"{brand} {name} Laptop, {screen}\" {'Liquid Retina' if apple else disp} Display, {cpu}, "
                     f"{ram}GB {'Unified Memory' if apple else 'RAM'}, {ssd} {'SSD' if 'eMMC' not in ssd else ''}"
                     f"{gpu}, {os_}").replace(" ,", ",")
            premium = apple or any(w in name for w in ("XPS", "X1 Carbon", "Blade", "Zenbook", "Surface", "Galaxy Book4",
                                                       "gram", "Yoga", "EliteBook", "Envy"))
            base = 260 + ram * 14 + {"256GB": 0, "512GB": 60, "1TB": 160}.get(ssd, -60)
            base *= 1.9 if premium else 1.45 if gaming else 0.55 if chrome else 1.0
            price = _price(r, base * 0.9, base * 1.15)
            out.append(dict(title=title, category=E, brand=brand, price=price, kind="laptop",
                            color=_color(r, NEUTRAL if not apple else ("#c9cbce", "#2e3033", "#e3d9c6", "#3b4658")),
                            keywords="laptop laptops notebook computer pc" + (" gaming" if gaming else "")
                            + (" chromebook" if chrome else "") + (" macbook mac" if apple else ""),
                            bullets=(f"{screen}-inch {disp} display", f"{cpu}", f"{ram}GB memory and {ssd} storage",
                                     "Backlit keyboard and fingerprint reader" if not apple else "Up to 18 hours of "
                                     "battery life")))
    return out


def _phones(r: random.Random) -> list[Spec]:
    models = {
        "SAMSUNG": ["Galaxy S24", "Galaxy S24+", "Galaxy S23 FE", "Galaxy A15 5G", "Galaxy A35 5G", "Galaxy A54 5G",
                    "Galaxy Z Flip 6"],
        "Apple": ["iPhone 15", "iPhone 15 Plus", "iPhone 14", "iPhone 13 (Renewed)", "iPhone SE (3rd Gen)"],
        "Google": ["Pixel 8", "Pixel 8 Pro", "Pixel 8a", "Pixel 7a"],
        "Motorola": ["moto g 5G (2024)", "moto g Power 5G", "moto g Stylus", "edge (2024)", "razr (2023)"],
        "OnePlus": ["12", "12R", "Nord N30 5G"],
        "Nokia": ["G310 5G", "C300"], "TCL": ["40 XL", "50 XE 5G"], "Sony": ["Xperia 10 V"],
        "Nothing": ["Phone (2a)"], "BLU": ["View 5 Pro"], "Tracfone": ["Samsung Galaxy A03s Prepaid"],
    }
    out = []
    for brand, names in models.items():
        for name in names:
            storage = r.choice(["64GB", "128GB", "128GB", "256GB", "512GB"])
            flagship = name in ("Galaxy S24", "Galaxy S24+", "Galaxy Z Flip 6", "iPhone 15", "iPhone 15 Plus",
                                "Pixel 8", "Pixel 8 Pro", "12", "razr (2023)")
            lo, hi = (699, 1199) if flagship else (99, 499)
            colour = r.choice(["Black", "Graphite", "Blue", "Mint", "Lavender", "Cream", "Silver", "Green", "Pink"])
            extra = r.choice(["5G", "Dual SIM", "6.1\" Display", "6.7\" Display", "50MP Camera", "All-Day Battery"])
            title = f"{brand} {name} Smartphone, {storage}, {colour}, {extra} - Unlocked"
            if brand == "Apple":
                title = f"Apple {name}, {storage}, {colour} - Unlocked"
            out.append(dict(title=title, category=E, brand=brand, price=_price(r, lo, hi), kind="phone",
                            color=_color(r, NEUTRAL + BRIGHT),
                            keywords="smartphone smartphones phone phones cell mobile unlocked"
                            + (" iphone" if brand == "Apple" else " android"),
                            bullets=(f"{storage} storage", extra, "Fast charging", "Works with all major carriers")))
    return out


def _simple(noun_kw: str, category: str, kind: str, rows: dict[str, list[str]], fmt: Callable[[random.Random, str,
            str], str], price: tuple[float, float], palette: tuple[str, ...], bullets: tuple[str, ...]
            ) -> Callable[[random.Random], list[Spec]]:
    """A product line from a brand -> models table and a title format."""
    def make(r: random.Random) -> list[Spec]:
        out = []
        for brand, names in rows.items():
            for name in names:
                out.append(dict(title=fmt(r, brand, name), category=category, brand=brand,
                                price=_price(r, *price), kind=kind, color=_color(r, palette), keywords=noun_kw,
                                bullets=tuple(r.sample(bullets, 3))))
        return out
    return make


_tablets = _simple(
    "tablet tablets ipad android", E, "tablet",
    {"Apple": ["iPad (10th Generation)", "iPad Air 11-inch (M2)", "iPad mini (A17 Pro)"],
     "SAMSUNG": ["Galaxy Tab S9 FE", "Galaxy Tab A9+", "Galaxy Tab S9"], "Amazon": ["Fire HD 10", "Fire Max 11"],
     "Lenovo": ["Tab M11", "Tab P12"], "TCL": ["Tab 10 Gen 2"], "OnePlus": ["Pad"]},
    lambda r, b, n: f"{b} {n} Tablet, {r.choice(['10.9', '11', '10.1', '8.3', '12.4'])}-inch Display, "
                    f"{r.choice(['64GB', '128GB', '256GB'])}, Wi-Fi, {r.choice(['Blue', 'Gray', 'Silver', 'Pink'])}",
    (79, 799), NEUTRAL + BRIGHT, ("All-day battery", "Stereo speakers", "Front and back cameras", "Kid-friendly "
                                  "parental controls", "Supports stylus"))

_headphones = _simple(
    "headphones over-ear wireless bluetooth", E, "headphones",
    {"Sony": ["WH-CH720N", "WH-CH520", "ULT WEAR"], "Bose": ["QuietComfort Ultra", "QuietComfort 45"],
     "JBL": ["Tune 770NC", "Live 660NC"], "Beats": ["Solo 4"], "Sennheiser": ["Momentum 4", "Accentum"],
     "Audio-Technica": ["ATH-M50x", "ATH-M20x"], "Anker": ["Soundcore Life Q30", "Soundcore Space One"],
     "Skullcandy": ["Hesh ANC", "Crusher Evo"], "Philips": ["TAH4205"], "OneOdio": ["Studio Pro 10"],
     "Monoprice": ["BT-300ANC"]},
    lambda r, b, n: f"{b} {n} {r.choice(['Wireless Noise Canceling', 'Wireless', 'Bluetooth', 'Studio Monitor'])} "
                    f"{r.choice(['Over-Ear', 'On-Ear'])} Headphones - {r.choice(['Black', 'White', 'Blue', 'Sand'])}",
    (19, 429), NEUTRAL + BRIGHT, ("Up to 50 hours of battery", "Active noise cancellation", "Multipoint Bluetooth",
                                  "Foldable design", "Built-in microphone for calls", "Fast charging"))

_earbuds = _simple(
    "earbuds earphones wireless bluetooth", E, "earbuds",
    {"Apple": ["AirPods Pro (2nd Generation)", "AirPods 4"], "SAMSUNG": ["Galaxy Buds2 Pro", "Galaxy "
     "Buds FE"], "Sony": ["WF-1000XM5", "WF-C700N"], "JBL": ["Vibe Beam", "Tune Flex"], "Jabra": ["Elite 4"],
     "Soundcore": ["Liberty 4 NC", "P20i"], "Beats": ["Studio Buds +", "Fit Pro"], "Google": ["Pixel Buds Pro"],
     "Bose": ["QuietComfort Earbuds II"], "Raycon": ["Everyday Earbuds"]},
    lambda r, b, n: f"{b} {n} True Wireless Earbuds, " + r.choice(['Noise Cancelling', 'Bluetooth 5.3',
                                                                     'IPX4 Sweat Resistant', 'Wireless Charging Case']),
    (19, 279), NEUTRAL + BRIGHT, ("Up to 30 hours with the case", "Touch controls", "Water resistant",
                                  "Transparency mode", "Custom ear tips"))

_speakers = _simple(
    "speaker speakers bluetooth portable wireless audio", E, "speaker",
    {"JBL": ["Flip 6", "Charge 5", "Go 3", "Clip 4"], "Bose": ["SoundLink Flex", "SoundLink Micro"],
     "Sony": ["SRS-XB100", "ULT Field 1"], "Ultimate Ears": ["WONDERBOOM 4", "BOOM 3"], "Anker": ["Soundcore 2",
     "Soundcore Motion 300"], "Marshall": ["Willen", "Middleton"], "Tribit": ["StormBox Micro 2"],
     "Amazon": ["Echo Pop"], "Sonos": ["Roam 2"]},
    lambda r, b, n: f"{b} {n} Portable Bluetooth Speaker, {r.choice(['Waterproof', 'IP67', 'Deep Bass', '360 Sound'])}"
                    f", {r.choice(['Black', 'Blue', 'Red', 'Squad Camo', 'Teal'])}",
    (24, 399), NEUTRAL + BRIGHT, ("12+ hours of playtime", "IP67 waterproof and dustproof", "PartyBoost pairing",
                                  "USB-C charging", "Built-in speakerphone"))

_watches = _simple(
    "smartwatch watch watches fitness tracker", E, "watch",
    {"Apple": ["Watch Series 9 GPS 41mm", "Watch SE (2nd Gen) 40mm"], "SAMSUNG": ["Galaxy Watch6 40mm",
     "Galaxy Watch6 Classic 47mm"], "Garmin": ["Forerunner 165", "Venu Sq 2", "Instinct 2 Solar"],
     "Fitbit": ["Charge 6", "Versa 4"], "Amazfit": ["GTR 4", "Bip 5"], "Google": ["Pixel Watch 2"],
     "Fossil": ["Gen 6 Smartwatch"], "Timex": ["Weekender 38mm Analog"], "Casio": ["G-Shock GA2100"]},
    lambda r, b, n: (f"{b} {n}{'' if 'Watch' in n else ' Watch'} with "
                     + r.choice(['Heart Rate Monitor', 'GPS', 'Sleep Tracking', 'Blood Oxygen', 'Fitness Tracking'])
                     + ", " + r.choice(['Black', 'Silver', 'Rose Gold', 'Olive'])),
    (39, 449), NEUTRAL + BRIGHT, ("Always-on display", "Up to 7 days of battery", "Water resistant to 50 m",
                                  "Sleep and stress tracking", "Built-in GPS"))

_cameras = _simple(
    "camera cameras photography digital", E, "camera",
    {"Canon": ["EOS Rebel T7 DSLR", "EOS R50 Mirrorless", "PowerShot G7 X Mark III"], "Sony": ["Alpha a6400 Mirrorless",
     "ZV-1F Vlog"], "Nikon": ["Z50 Mirrorless", "COOLPIX P950"], "Fujifilm": ["X-T30 II", "Instax Mini 12 Instant"],
     "GoPro": ["HERO12 Black"], "Kodak": ["PIXPRO FZ55"]},
    lambda r, b, n: f"{b} {n} Camera {r.choice(['with 18-55mm Lens', 'Body Only', 'Kit', '4K Video', ''])}".strip(),
    (69, 1299), NEUTRAL, ("24.2MP sensor", "4K video", "Wi-Fi and Bluetooth", "Flip-out screen", "Image stabilization"))

_monitors = _simple(
    "monitor monitors display screen computer", E, "monitor",
    {"SAMSUNG": ["Odyssey G5 27\" Curved Gaming", "ViewFinity S6 32\" 4K", "T35F 24\""],
     "LG": ["UltraGear 27GP850 27\" Gaming", "27UP850N 27\" 4K", "29WP500 29\" UltraWide"],
     "Dell": ["S2722QC 27\" 4K USB-C", "SE2422H 24\"", "Alienware AW3423DWF 34\" QD-OLED Gaming"],
     "ASUS": ["VA24EHE 24\"", "TUF Gaming VG27AQ 27\""], "Acer": ["Nitro KG241Y 23.8\" Gaming", "SB220Q 21.5\""],
     "KTC": ["24 inch 1500R Curved Gaming"], "VILVA": ["Portable 15.6\" for Laptop"], "HP": ["M27f 27\" FHD"],
     "BenQ": ["GW2480 24\""], "Sceptre": ["C275W 27\" Curved"]},
    lambda r, b, n: f"{b} {n} Monitor, {r.choice(['FHD 1080p', 'QHD 1440p', 'IPS', '165Hz', '75Hz', 'HDR10'])}, "
                    f"{r.choice(['HDMI', 'USB-C', 'Eye Care', 'Adjustable Tilt'])}",
    (89, 899), NEUTRAL, ("Ultra-thin bezels", "AMD FreeSync", "Flicker-free", "VESA mountable", "Built-in speakers"))

_tvs = _simple(
    "tv tvs television smart 4k", E, "tv",
    {"TCL": ["43-Inch Class S4 4K", "55-Inch Q6 QLED"], "Hisense": ["50-Inch A6 4K", "65-Inch U8 Mini-LED"],
     "SAMSUNG": ["55-Inch Crystal UHD CU7000", "65-Inch QN90C Neo QLED"], "LG": ["48-Inch OLED evo C3"],
     "Sony": ["65-Inch BRAVIA XR X90L"], "Amazon": ["Fire TV 50\" Omni Series 4K"], "VIZIO": ["40-Inch D-Series FHD"],
     "Insignia": ["32-Inch F20 HD"]},
    lambda r, b, n: f"{b} {n} Smart TV {r.choice(['with Alexa', 'with Google TV', '(2023 Model)', 'with Dolby Vision'])}",
    (119, 2199), NEUTRAL, ("4K Ultra HD", "Dolby Vision HDR", "Voice remote", "Apple AirPlay", "Game mode"))

_accessories = _simple(
    "charger cable usb-c accessories phone", E, "",
    {"Anker": ["Nano 3 30W USB C Charger", "737 Power Bank 24,000mAh", "USB C to USB C Cable 6ft (2 Pack)"],
     "Belkin": ["BoostCharge 3-in-1 Wireless Charging Stand", "USB-C to Lightning Cable"],
     "Apple": ["20W USB-C Power Adapter", "MagSafe Charger"], "SAMSUNG": ["45W Super Fast Wall Charger"],
     "UGREEN": ["65W USB C Charger 4-Port", "USB C Hub 7-in-1"], "SanDisk": ["128GB Ultra microSDXC Card",
     "1TB Extreme Portable SSD"], "Logitech": ["MX Keys S Wireless Keyboard", "MX Master 3S Wireless Mouse"],
     "TP-Link": ["Deco X20 Mesh Wi-Fi 6 System", "Archer AX21 Wi-Fi 6 Router"]},
    lambda r, b, n: f"{b} {n}", (9, 199), NEUTRAL + BRIGHT,
    ("Compact and travel-friendly", "Fast charging", "Universal compatibility", "18-month warranty", "Durable build"))

_controllers = _simple(
    "gaming controller controllers gamepad", G, "controller",
    {"Microsoft": ["Xbox Wireless Controller - Robot White", "Xbox Elite Wireless Controller Series 2"],
     "Nintendo": ["Joy-Con (L)/(R) - Neon Red/Neon Blue"], "8BitDo": ["Ultimate Bluetooth Controller for Switch and "
     "PC", "Pro 2 Bluetooth Controller"], "PowerA": ["Enhanced Wireless Controller for Nintendo Switch"],
     "Turtle Beach": ["Recon Controller for Xbox"], "Razer": ["Wolverine V2 Chroma for Xbox"],
     "GameSir": ["G7 SE Wired Controller for Xbox"], "Logitech G": ["F310 Wired Gamepad for PC"]},
    lambda r, b, n: f"{b} {n}", (19, 179), NEUTRAL + BRIGHT,
    ("Hall effect sticks", "Remappable back buttons", "Textured grips", "Low-latency wireless", "3.5 mm audio jack"))

_gaming_gear = _simple(
    "gaming keyboard mouse headset pc accessories", G, "",  # "": the title decides (keyboard, mouse, headset)
    {"Razer": ["BlackWidow V4 Mechanical Gaming Keyboard", "DeathAdder Essential Gaming Mouse",
               "BlackShark V2 X Gaming Headset"],
     "Corsair": ["K70 RGB Pro Mechanical Gaming Keyboard", "Harpoon RGB Gaming Mouse", "HS55 Stereo Gaming Headset"],
     "SteelSeries": ["Apex 3 TKL Gaming Keyboard", "Rival 3 Gaming Mouse", "Arctis Nova 1 Gaming Headset"],
     "Logitech G": ["G915 TKL Wireless Gaming Keyboard", "G502 HERO Gaming Mouse", "G435 Wireless Gaming Headset"],
     "HyperX": ["Alloy Origins Core Gaming Keyboard", "Pulsefire Haste Gaming Mouse"],
     "Redragon": ["M711 Cobra Gaming Mouse", "K617 Fizz 60% Gaming Keyboard"], "Glorious": ["Model O Gaming Mouse"]},
    lambda r, b, n: f"{b} {n}, {r.choice(['RGB Backlit', 'Wired', 'Wireless', 'Lightweight', 'Programmable'])}",
    (19, 229), NEUTRAL + BRIGHT, ("Per-key RGB lighting", "Onboard memory", "Braided cable", "Ergonomic design",
                                  "Esports-grade sensor"))

_consoles = _simple(
    "gaming console consoles video game", G, "console",
    {"Microsoft": ["Xbox Series X 1TB Console", "Xbox Series S 512GB Console"], "Nintendo": ["Switch OLED Model",
     "Switch Lite - Turquoise"], "Valve": ["Steam Deck OLED 512GB Handheld"], "ASUS": ["ROG Ally Handheld Gaming "
     "Console"], "Meta": ["Quest 2 128GB VR Headset"]},
    lambda r, b, n: f"{b} {n}", (199, 649), NEUTRAL + BRIGHT,
    ("4K gaming", "Fast load times", "Backward compatible", "Includes one controller", "HDR"))

_pans = _simple(
    "pan pans skillet frying cookware kitchen nonstick", K, "pan",
    {"T-fal": ["Ultimate Hard Anodized Nonstick Fry Pan, 12 Inch"], "Lodge": ["Cast Iron Skillet, 12 Inch"],
     "Calphalon": ["Classic Stainless Steel Fry Pan, 10 Inch"], "Tramontina": ["Professional Aluminum Fry Pan, 10 "
     "Inch"], "HexClad": ["Hybrid Nonstick Fry Pan, 12 Inch"], "All-Clad": ["D3 Stainless Fry Pan, 10 Inch"],
     "Cuisinart": ["Chef's Classic Nonstick Skillet, 8 Inch"], "GreenPan": ["Valencia Pro Ceramic Nonstick Frying Pan"],
     "Made In": ["Carbon Steel Wok, 13 Inch"], "Nordic Ware": ["Half Sheet Baking Pan (2 Pack)"]},
    lambda r, b, n: f"{b} {n}", (14, 179), NEUTRAL, ("Oven safe to 500 F", "Even heating", "Induction compatible",
                                                     "Dishwasher safe", "Riveted stainless handle"))

_coffee = _simple(
    "coffee maker machine espresso kitchen appliance", K, "appliance",
    {"Breville": ["Barista Express Espresso Machine", "Bambino Plus Espresso Machine"], "De'Longhi": ["Magnifica "
     "Evo Automatic Espresso Machine", "Stilosa Manual Espresso Machine", "Dinamica Automatic Espresso Machine"],
     "Philips": ["3200 Series Fully Automatic Espresso Machine"], "Keurig": ["K-Elite Single Serve Coffee Maker",
     "K-Supreme Coffee Maker"], "Nespresso": ["Vertuo Next Coffee and Espresso Machine"], "Mr. Coffee": ["12-Cup "
     "Programmable Coffee Maker"], "Cuisinart": ["DCC-3200 14-Cup Coffee Maker"], "Hamilton Beach": ["FlexBrew "
     "Trio Coffee Maker"], "Gevi": ["Automatic Espresso Machine 20 Bar"], "CASABREWS": ["Automatic Espresso "
     "Machine with Milk Frother"]},
    lambda r, b, n: f"{b} {n}, {r.choice(['Black', 'Stainless Steel', 'Silver', 'Red'])}", (29, 899),
    NEUTRAL + ("#b22222",), ("Built-in grinder", "Milk frother", "Programmable brew", "Removable water tank",
                             "15-bar pump"))

_small_appliances = _simple(
    "kitchen appliance small", K, "appliance",
    {"Ninja": ["AF101 Air Fryer, 4 Quart", "Professional Blender 1000W", "Foodi 8-in-1 XL Pressure Cooker"],
     "COSORI": ["Pro LE Air Fryer, 5 Quart"], "Vitamix": ["E310 Explorian Blender"], "KitchenAid": ["Artisan "
     "Stand Mixer, 5 Quart"], "Hamilton Beach": ["2-Slice Toaster"], "Hamilton Beach Pro": ["Slow Cooker, 7 Quart"], "BLACK+DECKER": ["4-Slice Toaster Oven"], "Zojirushi": ["Rice Cooker and Warmer, 5.5 Cup"],
     "Toshiba": ["Countertop Microwave Oven, 1.2 Cu Ft"]},
    lambda r, b, n: f"{b} {n}", (24, 449), NEUTRAL + BRIGHT,
    ("Dishwasher-safe parts", "Easy-clean", "Compact footprint", "Multiple presets", "1-year warranty"))

_kettles = _simple(
    "kettle tea electric kitchen", K, "kettle",
    {"COSORI": ["Electric Gooseneck Kettle"], "Fellow": ["Stagg EKG Electric Kettle"], "Chefman": ["Electric Kettle "
     "1.8 Liter"], "Mueller": ["Ultra Kettle 1.7L"], "Le Creuset": ["Enamel on Steel Whistling Kettle"],
     "OXO": ["Brew Classic Tea Kettle"]},
    lambda r, b, n: f"{b} {n}, {r.choice(['Stainless Steel', 'Matte Black', 'Glass', 'Cerise'])}", (19, 199),
    NEUTRAL + BRIGHT, ("Boils in minutes", "Auto shut-off", "Variable temperature", "Cool-touch handle"))

_drinkware = _simple(
    "mug tumbler cup drinkware bottle", K, "mug",
    {"Stanley": ["Quencher H2.0 Tumbler, 40 oz", "Classic Legendary Mug, 16 oz"], "YETI": ["Rambler 20 oz Tumbler",
     "Rambler 14 oz Mug"], "Hydro Flask": ["Wide Mouth Water Bottle, 32 oz"], "Owala": ["FreeSip Water Bottle, 24 oz"],
     "Contigo": ["Autoseal Travel Mug, 16 oz"], "Ember": ["Temperature Control Smart Mug 2"],
     "Zojirushi": ["Stainless Steel Travel Mug, 16 oz"]},
    lambda r, b, n: f"{b} {n}, {r.choice(['Charcoal', 'Cream', 'Navy', 'Rose Quartz', 'Seafoam'])}", (14, 149),
    BRIGHT + NEUTRAL, ("Keeps drinks cold 24 hours", "Leakproof lid", "Dishwasher safe", "BPA free"))

_balls = _simple(
    "ball sports", S, "ball",
    {"Wilson": ["Evolution Indoor Game Basketball", "NCAA Replica Football", "AVP Soft Play Volleyball"],
     "Spalding": ["TF-1000 Legacy Indoor Basketball"], "Molten": ["BG4500 Basketball", "V5M5000 Volleyball"],
     "Nike": ["Strike Soccer Ball", "Elite Championship Basketball"], "adidas": ["Champions League Club Soccer "
     "Ball"], "Baden": ["Perfection Volleyball"], "Select": ["Numero 10 Soccer Ball"]},
    lambda r, b, n: f"{b} {n}, {r.choice(['Official Size', 'Size 5', 'Size 7', 'Youth Size'])}", (12, 89),
    ("#d2691e", "#f5f5f5", "#7a3e1d", "#e46b1e", "#1e5fbf"), ("Composite leather cover", "Deep channel design",
                                                               "Indoor and outdoor play", "Butyl bladder"))

_fitness = _simple(
    "fitness exercise workout gym", S, "dumbbell",
    {"Bowflex": ["SelectTech 552 Adjustable Dumbbells"], "CAP Barbell": ["Cast Iron Kettlebell, 25 lb",
     "Rubber Coated Hex Dumbbell, 20 lb"], "Amazon Basics": ["Vinyl Hand Weight Dumbbell Set, 20 lb",
     "Cast Iron Kettlebell, 35 lb"], "Yes4All": ["Adjustable Dumbbells, 40 lb"], "Fitness Gear": ["Hex Dumbbell, "
     "15 lb"]},
    lambda r, b, n: f"{b} {n}", (19, 429), ("#222", "#2e8b57", "#6c4aa0", "#b22222", "#1e5fbf"),
    ("Non-slip grip", "Color-coded", "Compact storage", "Home gym ready"))

_mats = _simple(
    "yoga mat fitness exercise", S, "mat",
    {"Manduka": ["PRO Yoga Mat 6mm"], "Liforme": ["Yoga Mat"], "BalanceFrom": ["GoYoga All-Purpose 1/2-Inch Extra "
     "Thick Yoga Mat"], "Amazon Basics": ["1/2-Inch Extra Thick Exercise Yoga Mat"], "Lululemon": ["The Mat 5mm"],
     "TriggerPoint": ["GRID Foam Roller"], "Retrospec": ["Solana Yoga Mat 1\" Thick"]},
    lambda r, b, n: f"{b} {n}, {r.choice(['Purple', 'Black', 'Teal', 'Pink', 'Blue'])}", (14, 139),
    ("#6c4aa0", "#16808a", "#c2185b", "#1e5fbf", "#222"), ("Non-slip surface", "Carrying strap", "Extra cushioning",
                                                           "Latex-free"))

_outdoor = _simple(
    "camping hiking outdoor", S, "luggage",
    {"Osprey": ["Talon 22 Men's Hiking Backpack", "Daylite Plus Daypack"], "Coleman": ["Sundome Camping Tent, 4 "
     "Person"], "CamelBak": ["M.U.L.E. Hydration Pack"], "REI Co-op": ["Trail 25 Pack"], "TETON": ["Scout 3400 "
     "Internal Frame Backpack"]},
    lambda r, b, n: f"{b} {n}", (29, 189), BRIGHT, ("Water resistant", "Padded straps", "Hydration compatible",
                                                    "Lightweight"))

_desks = _simple(
    "desk computer office table", F, "desk",
    {"FEZIBO": ["55 x 24 Inch Height Adjustable Electric Standing Desk"], "Flexispot": ["EN1 Electric Standing Desk, "
     "48 x 30 Inch"], "Sauder": ["Harbor View Computer Desk with Hutch"], "ODK": ["Small Computer Desk, 27.5 Inch"],
     "Bestier": ["L Shaped Gaming Desk, 63 Inch"], "Mr IRONSTONE": ["L-Shaped Desk, 50.8 Inch"],
     "VASAGLE": ["Computer Writing Desk, 47.2 Inch"], "Tribesigns": ["Executive Desk, 63 Inch"],
     "GreenForest": ["Folding Desk, 31.5 Inch"], "CubiCubi": ["Study Writing Desk, 47 Inch"],
     "SHW": ["Vista Corner Desk with Shelves"], "Walker Edison": ["Modern Glass Top Computer Desk, 51 Inch"]},
    lambda r, b, n: f"{b} {n}, {r.choice(['Rustic Brown', 'Black', 'White', 'Walnut', 'Oak', 'Espresso'])}",
    (49, 399), WOOD + ("#222", "#f1f1f1"), ("Sturdy steel frame", "Easy assembly", "Cable management",
                                            "Adjustable leveling feet", "Scratch-resistant top"))

_chairs = _simple(
    "chair office desk ergonomic", F, "chair",
    {"Herman Miller": ["Aeron Ergonomic Office Chair", "Sayl Office Chair"], "Steelcase": ["Series 1 Office Chair"],
     "HON": ["Ignition 2.0 Task Chair"], "Hbada": ["Ergonomic Office Chair with Lumbar Support"],
     "SIHOO": ["Doro C300 Ergonomic Office Chair"], "GTRACING": ["Gaming Chair with Footrest"],
     "Branch": ["Ergonomic Chair"], "Staples": ["Hyken Mesh Task Chair"], "Marsail": ["Ergonomic Mesh Office Chair"],
     "Serta": ["Big and Tall Executive Office Chair"], "Flash Furniture": ["Mid-Back Mesh Swivel Task Chair"]},
    lambda r, b, n: f"{b} {n}, {r.choice(['Black', 'Gray', 'Graphite', 'Blue', 'White'])}", (59, 1399),
    FABRIC + NEUTRAL, ("Adjustable lumbar support", "Breathable mesh back", "4D armrests", "Tilt lock",
                       "Supports up to 300 lb"))

_sofas = _simple(
    "sofa couch living room", F, "sofa",
    {"Rivet": ["Revolve Modern Upholstered Sofa, 80\""], "Zinus": ["Jackie Sofa Couch", "Josh Loveseat"],
     "HONBAY": ["Convertible Sectional Sofa L Shaped Couch"], "Novogratz": ["Brittany Sofa Futon"],
     "Christopher Knight Home": ["Mid-Century Modern Fabric Sofa"], "Stone & Beam": ["Lauren Down-Filled Sofa, 89\""],
     "Walker Edison": ["Tufted Loveseat, 60 Inch"], "Serta": ["Copenhagen 61\" Loveseat"],
     "DHP": ["Emily Futon Couch"]},
    lambda r, b, n: f"{b} {n}, {r.choice(['Gray', 'Navy Blue', 'Beige', 'Green Velvet', 'Charcoal', 'Rust'])}",
    (199, 1499), FABRIC, ("Solid wood frame", "High-density foam cushions", "Easy assembly", "Removable covers"))

_beds = _simple(
    "bed frame platform bedroom", F, "bed",
    {"Zinus": ["Mia Modern Studio Platform Bed Frame, Full"], "Allewie": ["Queen Bed Frame with Wooden Headboard"],
     "IKIFLY": ["Twin Metal Platform Bed Frame"], "Novilla": ["Queen Size Upholstered Bed Frame"],
     "DHP": ["Rose Metal Bed Frame, Queen"], "SHA CERLIN": ["King Size Bed Frame with Storage Drawers"],
     "Amazon Basics": ["Kids Twin Wooden Bed Frame"], "Linenspa": ["Queen Upholstered Platform Bed Frame"]},
    lambda r, b, n: f"{b} {n}, {r.choice(['Dark Gray', 'Black', 'Beige', 'Walnut', 'White'])}", (89, 599),
    FABRIC + WOOD, ("No box spring needed", "Wood slat support", "Noise-free design", "Under-bed storage space"))

_shelves = _simple(
    "bookshelf bookcase shelf storage", F, "shelf",
    {"Sauder": ["Beginnings 5-Shelf Bookcase"], "VASAGLE": ["Industrial 5-Tier Bookshelf"], "IKEA": ["BILLY Bookcase"],
     "Furinno": ["Turn-N-Tube 5-Tier Corner Shelf"], "Nathan James": ["Theo 5-Shelf Ladder Bookcase"],
     "HOOBRO": ["Tall Bookshelf, 6-Tier"], "Prepac": ["Elite 4-Door Storage Cabinet"]},
    lambda r, b, n: f"{b} {n}, {r.choice(['White', 'Black', 'Rustic Brown', 'Oak'])}", (39, 249), WOOD,
    ("Adjustable shelves", "Anti-tip kit", "Easy assembly", "Engineered wood"))

_lamps = _simple(
    "lamp light lighting", F, "lamp",
    {"Brightech": ["Sky LED Torchiere Floor Lamp", "Montage Modern Floor Lamp"], "Simple Designs": ["Mini Table "
     "Lamp"], "TaoTronics": ["LED Desk Lamp with USB Port"], "BenQ": ["e-Reading LED Desk Lamp"], "Addlon": ["Floor "
     "Lamp for Living Room"], "Amazon Basics": ["Metal Desk Lamp"]},
    lambda r, b, n: f"{b} {n}, {r.choice(['Black', 'White', 'Brass', 'Silver'])}", (19, 199),
    ("#1d1d1f", "#f1f1f1", "#c8a04a", "#8e9297", "#16808a"), ("Dimmable", "Energy-saving LED", "Adjustable head",
                                                              "Touch control"))

_luggage = _simple(
    "luggage suitcase travel", T, "luggage",
    {"Samsonite": ["Freeform Hardside Expandable Luggage, Medium 24\"", "Omni PC Hardside Spinner 28\""],
     "Amazon Basics": ["Hardside Spinner Luggage, 26-Inch"], "Travelpro": ["Maxlite 5 Softside Carry-On"],
     "Coolife": ["Luggage 3 Piece Set Suitcase"], "SWISSGEAR": ["Sion Softside Expandable Luggage"],
     "Delsey": ["Helium Aero Hardside Carry-On"], "Monos": ["Carry-On Plus"], "Away": ["The Bigger Carry-On"],
     "American Tourister": ["Stratum XLT Expandable Hardside"]},
    lambda r, b, n: f"{b} {n}, {r.choice(['Black', 'Navy', 'Teal', 'Silver', 'Rose Gold', 'Green'])}", (59, 399),
    BRIGHT + NEUTRAL, ("Spinner wheels", "TSA-approved lock", "Expandable", "Scratch-resistant shell"))

_travel_gear = _simple(
    "travel backpack bag accessories", T, "luggage",
    {"MATEIN": ["Travel Laptop Backpack, 17 Inch"], "Osprey": ["Farpoint 40 Travel Pack"], "BAGSMART": ["Toiletry "
     "Bag"], "Veken": ["8 Set Packing Cubes"], "EPICKA": ["Universal Travel Adapter"], "Zero Grid": ["Passport "
     "Holder Wallet"], "Bagail": ["Packing Cubes, 6 Set"], "Herschel": ["Novel Duffle Bag"]},
    lambda r, b, n: f"{b} {n}, {r.choice(['Black', 'Gray', 'Navy', 'Olive'])}", (12, 129), BRIGHT + NEUTRAL,
    ("Lightweight", "Water-resistant fabric", "Organizes everything", "Fits under the seat"))

_personal = _simple(
    "personal care household", H, "bottle",
    {"Dove": ["Deep Moisture Body Wash, 20 oz (Pack of 4)"], "Olay": ["Ultra Moisture Body Wash, 22 oz"],
     "Head & Shoulders": ["Classic Clean Shampoo, 2-in-1"], "Tide": ["PODS Laundry Detergent, 81 Count"],
     "Cetaphil": ["Daily Facial Cleanser, 16 oz"], "CeraVe": ["Moisturizing Cream, 19 oz"],
     "Nature Made": ["Vitamin D3 2000 IU, 220 Softgels"], "Lysol": ["Disinfectant Spray, 19 oz (Pack of 2)"],
     "Method": ["All-Purpose Cleaner, 28 oz"], "Neutrogena": ["Hydro Boost Water Gel"]},
    lambda r, b, n: f"{b} {n}", (6, 39), BRIGHT + ("#f1f1f1",), ("Dermatologist recommended", "Fresh scent",
                                                                 "Value pack", "Cruelty free"))

_office = _simple(
    "office supplies school", O, "box",
    {"Post-it": ["Super Sticky Notes, 3x3 in, 24 Pads"], "Sharpie": ["Permanent Markers, Fine Point, 24 Count"],
     "BIC": ["Cristal Xtra Smooth Ballpoint Pens, 40 Count"], "Five Star": ["Spiral Notebook, 5 Subject"],
     "HP": ["Printer Paper 8.5 x 11, 20 lb, 3 Ream Case"], "Swingline": ["Stapler, Commercial Desk Stapler"],
     "Scotch": ["Heavy Duty Shipping Packaging Tape, 6 Rolls"], "Amazon Basics": ["Desk Organizer"],
     "Brother": ["HL-L2350DW Compact Monochrome Laser Printer"], "Epson": ["EcoTank ET-2800 Wireless Printer"]},
    lambda r, b, n: f"{b} {n}", (5, 279), BRIGHT + NEUTRAL, ("Everyday essentials", "Bulk pack", "Smooth writing",
                                                            "Office and school"))

LINES: tuple[Callable[[random.Random], list[Spec]], ...] = (
    _laptops, _phones, _tablets, _headphones, _earbuds, _speakers, _watches, _cameras, _monitors, _tvs,
    _accessories, _controllers, _gaming_gear, _consoles, _pans, _coffee, _small_appliances, _kettles, _drinkware,
    _balls, _fitness, _mats, _outdoor, _desks, _chairs, _sofas, _beds, _shelves, _lamps, _luggage, _travel_gear,
    _personal, _office,
)


def generate(seed: int = SEED) -> list[dict[str, Any]]:
    """Every generated product as a dict of ``Product`` fields (ids from ``FIRST_ID``), in a shop's order: the lines
    interleaved, so a department's list mixes brands and kinds as a store's does."""
    r = random.Random(seed)
    made: list[list[Spec]] = [line(random.Random(r.getrandbits(64))) for line in LINES]
    for lst in made:  # brands mixed within a line, as a store lists them
        random.Random(r.getrandbits(64)).shuffle(lst)
    order: list[Spec] = []
    while any(made):
        for lst in made:
            if lst:
                order.append(lst.pop(0))
    out = []
    for i, spec in enumerate(order):
        pr = random.Random(r.getrandbits(64))
        p = spec["price"]
        lp = None
        if pr.random() < 0.38:
            lp = round(math.ceil(p * pr.uniform(1.08, 1.45)) - 0.01, 2)
        out.append(dict(id=str(FIRST_ID + i), title=" ".join(spec["title"].split()), category=spec["category"],
                        price=p, rating=_rating(pr), reviews=_reviews(pr), brand=spec["brand"], list_price=lp,
                        kind=spec["kind"], color=spec["color"], keywords=spec["keywords"],
                        bullets=tuple(spec["bullets"])))
    return [dict(d) for d in V1_NAMED] + out
