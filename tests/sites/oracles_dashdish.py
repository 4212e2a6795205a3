"""Scripted solutions of REAL's v2 dashdish tasks on REAL-local DashDish, in HALO's action space.

TEST FIXTURES ONLY: they prove each task is solvable on the clone and that agisdk's script accepts the result.
They are never training data (HALO trains by online RL only). The totals in the messages are the site's
(subtotal + delivery fee + 10% service fee, min $1.50 + 9.5% tax + 15% tip by default)."""

from __future__ import annotations

from _shop_helpers import Step, click, fill, press, say, select, tap

SEARCH = "Search DashDish"


def search(text: str) -> list[Step]:
    return [fill("textbox", SEARCH, text), press("textbox", SEARCH, "Enter")]


def add(dish: str, size: str | None = None, qty: int = 1) -> list[Step]:
    """Open a dish (a link on the menu or in results), pick its size and quantity, add it to the cart."""
    steps = [click("link", dish)]
    if size:
        steps.append(click("radio", size))
    if qty != 1:
        steps.append(select("Quantity", str(qty)))
    return [*steps, click("button", "Add to cart")]


def checkout(*choices: str) -> list[Step]:
    """From the store page's notice go to checkout, click each choice (a radio: Pickup, Express, No tip, 20%...),
    place the order."""
    return [click("link", "Checkout"), *(click("radio", c) for c in choices), click("button", "Place Order")]


ORACLES: dict[str, list[Step]] = {
    "dashdish-1": [*search("noodles"), *add("Garlic Butter Noodles"), *checkout(),
                   say("Ordered Garlic Butter Noodles from Pho Saigon Noodle House; the total is $18.73.")],
    "dashdish-10": [*search("fries"), *add("French Fries"), *checkout(),
                    say("Ordered small French Fries from Burger Barn for $5.97 in total.")],
    "dashdish-11": [*search("sub"), *add("Italian Sub", "Regular"), *checkout(),
                    say("Ordered a regular Italian Sub from Jersey Subs; total $16.67.")],
    "dashdish-12": [*search("rice"), *add("Chicken Fried Rice"), *checkout(),
                    say("Ordered Chicken Fried Rice from Golden Wok; total $17.14.")],
    "dashdish-17": [tap("link", "Wingstop"), *add("Lemon Pepper Wings"), *add("Original Hot Wings"),
                    *checkout("Express"),
                    say("Ordered Lemon Pepper Wings and Original Hot Wings from Wingstop with Express delivery.")],
    "dashdish-24": [*search("rotisserie chicken sandwich"), *add("Rotisserie Chicken Sandwich"), *checkout(),
                    say("Ordered a Rotisserie Chicken Sandwich from Hen House Rotisserie; total $18.23.")],
    "dashdish-26": [click("link", "Wingstop"), *add("Lemon Pepper Wings", "10 pc Wings"), *checkout("Pickup"),
                    say("Placed a pickup order at Wingstop (10 pc Lemon Pepper Wings), total $15.32.")],
    "dashdish-3": [click("link", "Pizza"), click("link", "Little Caesars"), *add("Classic Pepperoni Pizza"),
                   *checkout(), say("Ordered a Classic Pepperoni Pizza from Little Caesars; total $12.32.")],
    "dashdish-4": [*search("chicken sandwich"), *add("Classic Chicken Sandwich"), *checkout(),
                   say("Ordered a Classic Chicken Sandwich from Coop Chicken; total $10.57.")],
    "dashdish-7": [click("link", "Wingstop"), *add("Lemon Pepper Wings"), *checkout(),
                   say("Ordered 6 pc Lemon Pepper Wings from Wingstop.")],
    "dashdish-8": [*search("Taco Boys"), click("link", "Taco Boys"), *add("Carne Asada Burrito", qty=2),
                   *checkout(), say("Ordered two Carne Asada Burritos from Taco Boys; total $30.56.")],
}
