"""Scripted solution of REAL's v2 marrisuite task on REAL-local MarriSuite, in HALO's action space.

TEST FIXTURES ONLY: they prove the task is solvable on the clone and that agisdk's script accepts the result.
They are never training data (HALO trains by online RL only). Today on the site is Thursday, July 18, 2024, so
"next weekend" is Friday July 26 to Sunday July 28."""

from __future__ import annotations

from _shop_helpers import Step, click, fill, say, select


def search(where: str, checkin: str = "", checkout: str = "", rooms: int = 1, guests: int = 1) -> list[Step]:
    """The search form: destination, dates (YYYY-MM-DD), rooms and guests, then Find Hotels."""
    steps = [fill("textbox", "Destination", where)]
    if checkin:
        steps += [fill("textbox", "Check-in", checkin), fill("textbox", "Check-out", checkout)]
    if rooms != 1:
        steps.append(select("Rooms", str(rooms)))
    if guests != 1:
        steps.append(select("Guests", str(guests)))
    return [*steps, click("button", "Find Hotels")]


ORACLES: dict[str, list[Step]] = {
    "marrisuite-8": [*search("Goleta, California", "2024-07-26", "2024-07-28"),
                     say("Here are the hotels available in Goleta, California for next weekend (July 26 to 28): "
                         "Courtyard Santa Barbara Goleta, Residence Inn Santa Barbara Goleta and The Ritz-Carlton "
                         "Bacara.")],
}
