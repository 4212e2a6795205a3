"""MarriSuite's state, in what REAL's one marrisuite script (``eval_marrisuite_8``) reads.

That script reads no keys: it joins every key and string of the finish JSON and looks for words. SUCCESS needs
"goleta" with a hotel or listing word ("hotel", "results", "available", ...); any booking confirmation ("reservation
confirmed", "confirmation number", ...) or a search for several rooms ("2 rooms") is FAILURE; a finish JSON with none
of its words falls back to FAILURE. So a fresh session names no city (the catalogue is module data, not state) and
what the agent does writes words a person would see:

- ``search``: the applied search (``destination``, ``checkIn``/``checkOut`` YYYY-MM-DD, ``rooms``, ``guests``, and
  ``summary``: "2 Rooms, 3 Guests" as the page shows it); set by showing a results page (the URL holds the search);
- ``searchResults``: the hotels the last search listed (``id``, ``name``, ``city``, ``fromRate``), as "N results";
- ``reservations``: list of booked stays (``confirmationNumber``, ``hotel``, ``room``, dates, ``status``
  "Reservation confirmed").

``differences``: ``{"searches": {...}, "reservations": {"added": [...], ...}}``.
"""

from __future__ import annotations

from typing import Any

from real_local.core import collection_differences

TODAY = "2024-07-18"  # Thursday
MAX_ROOMS = 4
MAX_GUESTS = 8


def summary(rooms: int, guests: int) -> str:
    return f"{rooms} Room{'s' if rooms != 1 else ''}, {guests} Guest{'s' if guests != 1 else ''}"


def seed(task_id: str | None = None) -> dict[str, Any]:
    return {"search": {"destination": "", "checkIn": "", "checkOut": "", "rooms": 1, "guests": 1,
                       "summary": ""},
            "searchResults": [], "reservations": []}


def differences(initial: dict[str, Any], final: dict[str, Any]) -> dict[str, Any]:
    def by_key(rs: list[dict], key: str) -> dict[str, dict]:
        return {str(r[key]): r for r in rs}

    search = {k: v for k, v in final["search"].items() if initial["search"].get(k) != v}
    return {"search": {"updated": search},
            "reservations": collection_differences(by_key(initial["reservations"], "confirmationNumber"),
                                                   by_key(final["reservations"], "confirmationNumber"))}
