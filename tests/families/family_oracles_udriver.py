"""Scripted solutions of UDriver's task families (TEST FIXTURES ONLY: never training data), and near misses.

``ORACLES[family](d, params)`` solves any instance through BrowserEnv, finding elements by role and name in the
current Observation (``d`` is ``tests/sites/site_helpers.py``'s Driver). ``VERIFIED[family]`` names the parameters
its grader must hold the episode to: the tests grade a solved /finish JSON against the same parameters with one of
them changed (another place, ride type, payment, day, time or amount) and expect a failure.
``BROWSER_NEAR_MISSES`` are wrong-but-close episodes played in the browser.
"""

from __future__ import annotations

from halo.env import actions as A
from halo.tasks.families.udriver import PAY_OPTIONS, PRESETS, TYPES, place_typed

TODAY = "7/18/2024"  # what the pickup date field holds to start with


async def select(d, name: str, label: str) -> None:
    await d.step(A.SelectOption(d.find("combobox", name, exact=True).id, (label,)))


async def places(d, p, time: str | None = None, date: str | None = None) -> None:
    """The ride form: both places, a pickup time and date where scheduled, then "See prices"."""
    await d.fill("textbox", "Pickup location", place_typed(p["pickup"]), exact=True)
    await d.fill("textbox", "Dropoff location", place_typed(p["dropoff"]), exact=True)
    if time:
        await select(d, "Pickup time", time)
    if date and date != TODAY:
        await d.fill("textbox", "Pickup date", date, exact=True)
    await d.click("button", "See prices", exact=True)


async def ride_type(d, t: str) -> None:
    if t != "UdriverX":  # the options page starts on UdriverX
        await d.click("radio", t, exact=True)


async def screen(d, p):
    await d.click("link", p["screen"].capitalize(), exact=True)


async def prices(d, p):
    await places(d, p)
    await ride_type(d, p["type"])


async def topup(d, p):
    await d.click("link", "Wallet", exact=True)
    if p["amount"] in PRESETS:
        await d.click("radio", f"${p['amount']:g}", exact=True)
    else:
        await d.fill("textbox", "Other amount", f"{p['amount']:g}", exact=True)
    await d.click("button", "Add credits", exact=True)


async def ride(d, p):
    await places(d, p)
    await ride_type(d, p["type"])
    if p["payment"] != "wallet":  # UDriver Credits are the default payment
        await select(d, "Payment method", PAY_OPTIONS[p["payment"]])
    await d.click("button", "Request ride", exact=True)


async def schedule(d, p):
    await places(d, p, time=p["time"], date=p["date"])
    await ride_type(d, p["type"])
    await d.click("button", "Schedule ride", exact=True)


ORACLES = {"udriver.screen": screen, "udriver.prices": prices, "udriver.topup": topup, "udriver.ride": ride,
           "udriver.schedule": schedule}

VERIFIED = {"udriver.screen": ("screen",), "udriver.prices": ("pickup", "dropoff", "type"),
            "udriver.topup": ("amount",), "udriver.ride": ("pickup", "dropoff", "type", "payment"),
            "udriver.schedule": ("pickup", "dropoff", "date", "time", "type")}


# ---------------------------------------------------------------- near misses played in the browser
def other_type(t: str) -> str:
    return TYPES[(TYPES.index(t) + 1) % len(TYPES)]


async def wrong_screen(d, p):
    await screen(d, {"screen": "activity" if p["screen"] == "wallet" else "wallet"})


async def wrong_type(d, p):
    await ride(d, {**p, "type": other_type(p["type"]), "payment": "1"})


async def reversed_route(d, p):
    await ride(d, {**p, "pickup": p["dropoff"], "dropoff": p["pickup"]})


async def prices_only(d, p):
    """The ride priced but never requested."""
    await prices(d, p)


async def wrong_amount(d, p):
    await topup(d, {"amount": p["amount"] + 5 if p["amount"] <= 495 else p["amount"] - 5})


async def booked_now(d, p):
    """The scheduled ride's route and type, requested now instead."""
    await ride(d, {**p, "payment": "1"})


BROWSER_NEAR_MISSES = {"udriver.screen": wrong_screen, "udriver.ride": wrong_type, "udriver.topup": wrong_amount,
                       "udriver.schedule": booked_now}
EXTRA_BROWSER_NEAR_MISSES = [("udriver.ride", reversed_route), ("udriver.ride", prices_only)]


# ---------------------------------------------------------------- near misses edited into a solved /finish JSON
def extra_trip(state: dict) -> None:
    """Another ride taken as well (an unwanted change every UDriver family refuses)."""
    trips = state["differences"].setdefault("trips", {"added": {}})["added"]
    trips["9"] = {"id": "trip-1099", "pickup": {"id": 703, "name": "Home: 1250 Ocean Ave"},
                  "destination": {"id": 702, "name": "San Francisco International Airport (SFO)"},
                  "car": {"type": "UdriverX", "finalPrice": 33.0}, "paymentMethod": {"id": "1"},
                  "status": "completed"}
