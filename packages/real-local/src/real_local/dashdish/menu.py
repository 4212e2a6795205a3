"""DashDish's restaurants and menus: the chains and dishes REAL's v2 dashdish tasks name (Wingstop's wings, Taco
Boys, pizza, subs, noodles, rice, chicken sandwiches, fries), each with prices, sizes and a description.

Every dish is a ``Dish`` with an id unique across the site (``<restaurant>-<n>``); a dish's ``sizes`` are its options
as ``(label, extra price)``; the first is the default."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Dish:
    id: str
    name: str
    price: float
    description: str
    category: str
    sizes: tuple[tuple[str, float], ...] = ()
    popular: bool = False


@dataclass(frozen=True)
class Restaurant:
    id: str
    name: str
    cuisines: tuple[str, ...]
    rating: float
    reviews: int
    eta: str  # "20-30 min"
    distance: float  # miles
    delivery_fee: float
    address: str
    dishes: tuple[Dish, ...] = field(default_factory=tuple)

    @property
    def categories(self) -> list[str]:
        return list(dict.fromkeys(d.category for d in self.dishes))


def _r(rid, name, cuisines, rating, reviews, eta, distance, fee, address, dishes) -> Restaurant:
    return Restaurant(rid, name, tuple(cuisines), rating, reviews, eta, distance, fee, address,
                      tuple(Dish(f"{rid}-{i + 1}", *d) for i, d in enumerate(dishes)))


WING_SIZES = (("6 pc Wings", 0.0), ("10 pc Wings", 5.00), ("15 pc Wings", 10.50))

RESTAURANTS: tuple[Restaurant, ...] = (
    _r("wingstop", "Wingstop", ("Chicken", "Wings", "American", "Fast Food"), 4.5, 2140, "20-30 min", 1.2, 1.99,
       "2150 W Sunset Blvd, Los Angeles, CA", [
           ("Lemon Pepper Wings", 8.99, "Classic bone-in wings tossed in our zesty lemon pepper dry rub.", "Wings",
            WING_SIZES, True),
           ("Original Hot Wings", 8.99, "Classic bone-in wings in our signature Original Hot sauce.", "Wings",
            WING_SIZES, True),
           ("Garlic Parmesan Wings", 8.99, "Bone-in wings with a rich garlic parmesan dry rub.", "Wings", WING_SIZES),
           ("Mango Habanero Wings", 8.99, "Sweet mango heat with habanero peppers, on classic bone-in wings.",
            "Wings", WING_SIZES),
           ("Hickory Smoked BBQ Boneless Wings", 7.99, "Boneless wings in a smoky, sweet BBQ sauce.", "Boneless",
            WING_SIZES),
           ("Atomic Boneless Wings", 7.99, "Boneless wings in our hottest habanero sauce. Not for the faint of heart.",
            "Boneless", WING_SIZES),
           ("Chicken Sandwich", 6.99, "Crispy chicken breast, pickles and ranch on a toasted bun.", "Sandwiches"),
           ("Seasoned Fries", 3.49, "Hand-cut fries tossed in our signature sweet and salty seasoning.", "Sides",
            (("Regular", 0.0), ("Large", 1.50))),
           ("Veggie Sticks", 1.99, "Fresh-cut carrot and celery sticks.", "Sides"),
           ("Ranch Dip", 1.29, "Made in-house daily.", "Dips"),
       ]),
    _r("taco-boys", "Taco Boys", ("Mexican", "Tacos"), 4.6, 880, "25-35 min", 2.4, 2.49,
       "418 S Main St, Los Angeles, CA", [
           ("Carne Asada Burrito", 10.49, "Grilled steak, pinto beans, rice, pico de gallo and guacamole.",
            "Burritos", (), True),
           ("Al Pastor Tacos (3)", 8.99, "Marinated pork with pineapple, onion and cilantro on corn tortillas.",
            "Tacos", (), True),
           ("Fish Tacos (3)", 9.49, "Beer-battered cod, cabbage slaw and chipotle crema.", "Tacos"),
           ("Chicken Quesadilla", 8.49, "Grilled chicken and melted jack cheese in a flour tortilla.",
            "Quesadillas"),
           ("Chips & Guacamole", 4.99, "Fresh tortilla chips with house-made guacamole.", "Sides"),
           ("Horchata", 2.99, "Cinnamon rice milk drink.", "Drinks", (("Medium", 0.0), ("Large", 1.00))),
       ]),
    _r("little-caesars", "Little Caesars", ("Pizza", "Italian", "Fast Food"), 4.2, 1530, "15-25 min", 1.8, 0.99,
       "901 Vermont Ave, Los Angeles, CA", [
           ("Classic Pepperoni Pizza", 7.49, "Our classic large pepperoni pizza, ready when you are.", "Pizza",
            (("Large", 0.0), ("Extra Large", 3.00)), True),
           ("Classic Cheese Pizza", 6.49, "Mozzarella and muenster on our signature sauce.", "Pizza",
            (("Large", 0.0), ("Extra Large", 3.00))),
           ("ExtraMostBestest Pepperoni Pizza", 8.49, "Extra pepperoni and extra cheese.", "Pizza"),
           ("Crazy Bread", 3.49, "Eight breadsticks brushed with butter and garlic, topped with parmesan.", "Sides"),
           ("Caesar Wings (8 pc)", 7.99, "Oven-roasted wings, Buffalo or BBQ.", "Sides"),
       ]),
    _r("jersey-subs", "Jersey Subs", ("Sandwiches", "Subs", "Deli"), 4.7, 990, "20-30 min", 1.5, 1.49,
       "77 Ocean Park Blvd, Santa Monica, CA", [
           ("Italian Sub", 10.99, "Provolone, ham, prosciuttini, cappacuolo, salami and pepperoni, Mike's Way.",
            "Cold Subs", (("Regular", 0.0), ("Giant", 6.00)), True),
           ("Turkey & Provolone Sub", 10.49, "Sliced-to-order turkey breast and provolone.", "Cold Subs",
            (("Regular", 0.0), ("Giant", 6.00))),
           ("Philly Cheesesteak Sub", 12.49, "Grilled steak, onions, peppers and white American cheese.",
            "Hot Subs", (("Regular", 0.0), ("Giant", 6.00))),
           ("Kettle Chips", 1.99, "Sea salt kettle-cooked potato chips.", "Sides"),
           ("Fountain Drink", 2.29, "Coke, Diet Coke, Sprite or lemonade.", "Drinks"),
       ]),
    _r("pho-saigon", "Pho Saigon Noodle House", ("Vietnamese", "Noodles", "Asian"), 4.4, 640, "30-40 min", 3.1,
       2.99, "3202 Wilshire Blvd, Los Angeles, CA", [
           ("Beef Pho", 13.95, "Rice noodles in a slow-simmered beef broth with rare steak and brisket.", "Pho",
            (("Regular", 0.0), ("Large", 2.00)), True),
           ("Chicken Pho", 12.95, "Rice noodles in a clear chicken broth with shredded chicken.", "Pho",
            (("Regular", 0.0), ("Large", 2.00))),
           ("Garlic Butter Noodles", 11.50, "Egg noodles tossed in garlic butter and parmesan.", "Noodles"),
           ("Lemongrass Chicken Vermicelli", 13.50, "Cold vermicelli with grilled lemongrass chicken and herbs.",
            "Noodles"),
           ("Spring Rolls (2)", 5.95, "Shrimp, pork, lettuce and herbs in rice paper, peanut sauce.", "Starters"),
           ("Vietnamese Iced Coffee", 4.75, "Dark roast coffee with sweetened condensed milk.", "Drinks"),
       ]),
    _r("golden-wok", "Golden Wok", ("Chinese", "Asian", "Rice"), 4.3, 1120, "25-35 min", 2.0, 1.99,
       "1010 N Broadway, Los Angeles, CA", [
           ("Chicken Fried Rice", 10.95, "Wok-fried rice with chicken, egg, peas and carrots.", "Rice", (), True),
           ("Beef & Broccoli Rice Bowl", 12.50, "Tender beef and broccoli in brown sauce over steamed rice.", "Rice"),
           ("Orange Chicken Bowl", 11.95, "Crispy orange chicken over steamed white rice.", "Rice"),
           ("Shrimp Lo Mein", 12.95, "Soft egg noodles stir-fried with shrimp and vegetables.", "Noodles"),
           ("Hot and Sour Soup", 4.50, "Tofu, mushrooms and bamboo shoots in a tangy broth.", "Soups"),
           ("Egg Rolls (2)", 3.95, "Crispy rolls with cabbage and pork.", "Starters"),
       ]),
    _r("coop-chicken", "Coop Chicken", ("Chicken", "Sandwiches", "American", "Fast Food"), 4.6, 2410, "15-25 min",
       0.9, 0.99, "5500 Santa Monica Blvd, Los Angeles, CA", [
           ("Classic Chicken Sandwich", 6.49, "A breaded chicken breast with pickles on a toasted buttered bun.",
            "Sandwiches", (), True),
           ("Spicy Chicken Sandwich", 6.99, "A spicy breaded chicken breast with pickles on a toasted bun.",
            "Sandwiches"),
           ("Grilled Chicken Club", 9.29, "Grilled chicken, colby jack, bacon, lettuce and tomato.", "Sandwiches"),
           ("Chicken Nuggets (8 ct)", 5.29, "Bite-sized pieces of breaded chicken breast.", "Entrees"),
           ("Waffle Potato Fries", 2.99, "Waffle-cut potatoes cooked in canola oil.", "Sides",
            (("Medium", 0.0), ("Large", 0.80))),
           ("Fresh Lemonade", 2.69, "Made with real lemons.", "Drinks"),
       ]),
    _r("hen-house", "Hen House Rotisserie", ("Chicken", "American", "Comfort Food"), 4.3, 560, "25-35 min", 2.7,
       2.49, "240 N La Brea Ave, Los Angeles, CA", [
           ("Rotisserie Chicken Sandwich", 11.49,
            "Hand-carved rotisserie chicken, cheddar and garlic aioli on ciabatta.", "Sandwiches", (), True),
           ("Half Rotisserie Chicken", 14.99, "A half chicken, slow-roasted over open flame, with two sides.",
            "Plates"),
           ("Quarter White Chicken", 10.49, "Rotisserie breast and wing with one side.", "Plates"),
           ("Mashed Potatoes", 3.79, "Creamy mashed potatoes with gravy.", "Sides"),
           ("Mac & Cheese", 3.99, "Baked macaroni and cheddar.", "Sides"),
       ]),
    _r("burger-barn", "Burger Barn", ("Burgers", "American", "Fast Food"), 4.1, 3050, "10-20 min", 0.6, 0.99,
       "1800 Sawtelle Blvd, Los Angeles, CA", [
           ("Double Cheeseburger", 5.99, "Two beef patties, American cheese, pickles, onions, ketchup, mustard.",
            "Burgers", (), True),
           ("Bacon Barn Burger", 8.49, "Quarter-pound patty with bacon, cheddar and barn sauce.", "Burgers"),
           ("Crispy Chicken Sandwich", 6.29, "Crispy chicken fillet with mayo and lettuce.", "Sandwiches"),
           ("French Fries", 2.79, "Golden, crispy, lightly salted.", "Sides",
            (("Small", 0.0), ("Medium", 0.70), ("Large", 1.20)), True),
           ("Chili Cheese Fries", 4.49, "Fries smothered in beef chili and cheddar.", "Sides"),
           ("Vanilla Shake", 3.99, "Hand-spun vanilla soft serve.", "Drinks"),
       ]),
    _r("sakura", "Sakura Sushi & Ramen", ("Japanese", "Sushi", "Noodles", "Asian"), 4.5, 720, "30-45 min", 3.6,
       3.49, "123 Astronaut E S Onizuka St, Los Angeles, CA", [
           ("Tonkotsu Ramen", 15.50, "Pork bone broth, chashu, soft egg and ramen noodles.", "Ramen", (), True),
           ("Spicy Miso Ramen", 15.95, "Miso broth with chili oil, ground pork and ramen noodles.", "Ramen"),
           ("Salmon Teriyaki Bowl", 16.50, "Grilled salmon with teriyaki glaze over steamed rice.", "Rice Bowls"),
           ("California Roll", 7.95, "Crab, avocado and cucumber, 8 pieces.", "Sushi"),
           ("Edamame", 4.50, "Steamed soybeans with sea salt.", "Starters"),
       ]),
)

BY_ID: dict[str, Restaurant] = {r.id: r for r in RESTAURANTS}
DISHES: dict[str, tuple[Restaurant, Dish]] = {d.id: (r, d) for r in RESTAURANTS for d in r.dishes}
CUISINES: tuple[str, ...] = ("Chicken", "Wings", "Pizza", "Mexican", "Sandwiches", "Noodles", "Chinese", "Japanese",
                             "Burgers", "Fast Food", "Vietnamese", "Asian")


def search(query: str = "", cuisine: str = "") -> tuple[list[Restaurant], list[tuple[Restaurant, Dish]]]:
    """Restaurants matching the query (name, cuisine, or a dish) and the cuisine filter, and the matching dishes."""
    q = query.strip().lower()
    words = [w for w in q.replace("-", " ").split() if w]

    def hit(text: str) -> bool:
        t = text.lower()
        return all(w in t or w.rstrip("s") in t for w in words)

    rests, dishes = [], []
    for r in RESTAURANTS:
        if cuisine and cuisine not in r.cuisines:
            continue
        ds = [d for d in r.dishes if hit(f"{d.name} {d.description} {d.category}")] if words else []
        if not words or hit(f"{r.name} {' '.join(r.cuisines)}") or ds:
            rests.append(r)
        dishes.extend((r, d) for d in ds)
    return rests, dishes
