"""Scripted solutions of REAL's v2 omnizon tasks on REAL-local Omnizon, in HALO's action space.

TEST FIXTURES ONLY: they prove each task is solvable on the clone and that agisdk's script accepts the result.
They are never training data (HALO trains by online RL only)."""

from __future__ import annotations

from _shop_helpers import Step, click, fill, press, say, select, tap

SEARCH = "Search Omnizon"


def search(query: str) -> list[Step]:
    return [fill("textbox", SEARCH, query), press("textbox", SEARCH, "Enter")]


def add_from_results(title_prefix: str) -> list[Step]:
    """The result card's own "Add to cart" button (lands on the cart page)."""
    return [click("button", f"Add to cart: {title_prefix}", prefix=True)]


def add_from_product(title_prefix: str, quantity: int = 1) -> list[Step]:
    steps = [click("link", title_prefix, prefix=True)]
    if quantity != 1:
        steps.append(select("Quantity", str(quantity)))
    return steps + [click("button", "Add to Cart")]


CHECKOUT: list[Step] = [tap("link", "Proceed to checkout"), tap("button", "Place your order")]

ORACLES: dict[str, list[Step]] = {
    "omnizon-13": [*search("cooking pot"), *add_from_product("Cuisinart 8-Quart"), *CHECKOUT,
                   say("I ordered the Cuisinart 8-Quart stainless steel stockpot for your party.")],
    "omnizon-15": [*search("sports balls pack"), *add_from_product("Franklin Sports Youth Ball Pack"), *CHECKOUT,
                   say("Ordered the Franklin Sports 4-ball pack (soccer, basketball, football, volleyball).")],
    "omnizon-17": [*search("neck pillow"), *add_from_product("Cabeau Evolution S3"), *CHECKOUT,
                   say("I ordered one Cabeau memory foam neck pillow.")],
    "omnizon-24": [*search("ps5 controller"), *add_from_product("PlayStation DualSense", quantity=2), *CHECKOUT,
                   say("The PS5 controller is the DualSense Wireless Controller ($69.99); I ordered 2.")],
    "omnizon-25": [*search("apron"), *add_from_results("Hudson Durable Goods"),
                   *search("cooking pot"), *add_from_results("Cuisinart 8-Quart"), *CHECKOUT,
                   say("Ordered an apron and a cooking pot.")],
    "omnizon-28": [*search("silverware set"), *add_from_product("Amazon Basics 20-Piece"), *CHECKOUT,
                   say("I bought a 20-piece silverware set.")],
    "omnizon-29": [*search("40 inch desk"), *add_from_results("Coleshome 40 Inch"),
                   *search("office chair"), *add_from_results("Amazon Basics Low-Back"), *CHECKOUT,
                   say("Ordered the Coleshome 40 inch desk and an Amazon Basics office chair.")],
    "omnizon-3": [*search("headphones"), click("link", "$25 to $50"), *add_from_product("Soundcore by Anker Q20i"),
                  *CHECKOUT, say("Ordered the Soundcore Q20i headphones for $49.99.")],
    "omnizon-30": [*search("queen bed frame"), *add_from_product("Amazon Basics Metal Platform Bed Frame"),
                   *CHECKOUT, say("I bought a queen size metal platform bed frame.")],
    "omnizon-9": [*search("gaming"), *add_from_results("Logitech G203"), *CHECKOUT,
                  say("I bought a Logitech G203 gaming mouse for $29.99.")],
}
