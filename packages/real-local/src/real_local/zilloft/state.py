"""Zilloft's state tree and mutations, in the layout REAL's zilloft scripts read.

- ``config.zilloft``: written by ``/config`` (the scripts want ``initialfinaldiff.added.config.zilloft.run_id``);
- ``router.location.pathname``: the page last rendered (a listing's ``/homedetails/.../<zpid>_zpid/``), as
  REAL's clones keep their router in the store; task families grade "open the listing" by it;
- ``filters``: the search box (``searchQuery``) and the price / beds / baths / square-feet / home-type filters, flat
  keys as REAL's scripts read them (zilloft_10 and zilloft_23 look for ``maxPrice`` and ``minBeds``); Zillow's "Use
  exact match" sets ``maxBeds`` (``maxBaths``) to the minimum, so "exactly 3 bedrooms" is ``minBeds: 3, maxBeds: 3``
  (no boolean key with "bed" in its name: the scripts would read ``True`` as one bedroom); ``homeTypes`` lists the
  ticked types ("House", "Townhouse", ...; shown as Zillow's "Houses", "Townhomes", ...); ``sort``;
  ``searchInputValue`` is what a search box holds as the user types (before submitting), as Omnizon's;
- ``tourRequests.requestTourList``: ``[{id, createdAt, homeId, requestTourData: {options: [{option, date, time}],
  formValues: {name, email, phone, message, wantFinancingInformation}, shareInfoDetails}}]``;
- ``tourRequests.contactAgentList``: ``[{id, createdAt, homeId, contactAgentData: {formValues, selectedDate:
  {date, time}}}]``;
- ``savedHomes.homes``: ``[{id}]``.

``differences`` holds ``requestTours``, ``contactAgents`` and ``savedHomes`` (dicts keyed by id). The site's clock
is fixed at Thursday 2024-07-18 (tasks say "tomorrow" and "July 19th"); ``createdAt`` carries it, and
zilloft_14 reads "today" from the first ``createdAt`` it meets, so every record starts with ``id, createdAt``.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from real_local.core import Session, collection_differences
from real_local.zilloft.listings import BY_ID

TODAY = dt.date(2024, 7, 18)
TOUR_DAYS = 14
TIMES = tuple(f"{h if h <= 12 else h - 12}:{m:02d} {'AM' if h < 12 else 'PM'}"
              for h in range(9, 19) for m in (0, 30) if not (h == 18 and m == 30))
TOUR_TYPES = {"in-person": "In person", "video-chat": "Video chat"}
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_PHONE = re.compile(r"^[0-9()+\-. ]{7,20}$")
MAX_TEXT = 1000


class RequestError(ValueError):
    """A request form is incomplete or malformed; the message says which field and how to fix it."""


def tour_dates() -> list[dt.date]:
    return [TODAY + dt.timedelta(days=i) for i in range(1, TOUR_DAYS + 1)]


def seed(task_id: str | None) -> dict[str, Any]:
    return {
        "config": {},
        "router": {"location": {"pathname": "/"}},
        "filters": {"searchQuery": "", "searchInputValue": "", "minPrice": None, "maxPrice": None, "minBeds": 0,
                    "maxBeds": None, "minBaths": 0, "maxBaths": None, "minSqft": None, "maxSqft": None,
                    "homeTypes": [], "sort": "homes_for_you"},
        "tourRequests": {"requestTourList": [], "contactAgentList": []},
        "savedHomes": {"homes": []},
    }


def on_config(s: Session) -> None:
    s.state["config"]["zilloft"] = {"run_id": s.run_id, "task_id": s.task_id or "", "latency": s.latency}


def differences(initial: dict[str, Any], final: dict[str, Any]) -> dict[str, Any]:
    def by_id(records):
        return {str(r["id"]): r for r in records}

    tr_i, tr_f = initial["tourRequests"], final["tourRequests"]
    return {
        "requestTours": collection_differences(by_id(tr_i["requestTourList"]), by_id(tr_f["requestTourList"]),
                                               keyed=True),
        "contactAgents": collection_differences(by_id(tr_i["contactAgentList"]), by_id(tr_f["contactAgentList"]),
                                                keyed=True),
        "savedHomes": collection_differences(by_id(initial["savedHomes"]["homes"]),
                                             by_id(final["savedHomes"]["homes"]), keyed=True),
    }


def _created_at(state: dict[str, Any]) -> str:
    n = len(state["tourRequests"]["requestTourList"]) + len(state["tourRequests"]["contactAgentList"])
    return f"{TODAY.isoformat()}T17:{n % 60:02d}:00.000Z"


def _text(body: dict[str, Any], key: str, required: bool = True) -> str:
    v = body.get(key, "")
    if not isinstance(v, str):
        raise RequestError(f"{key} must be text, got {type(v).__name__}")
    v = v.strip()
    if required and not v:
        raise RequestError(f"fill in your {key}")
    if len(v) > MAX_TEXT:
        raise RequestError(f"{key} is too long ({len(v)} characters; at most {MAX_TEXT})")
    return v


def _contact(body: dict[str, Any]) -> dict[str, str]:
    name, email, phone = _text(body, "name"), _text(body, "email"), _text(body, "phone")
    if not _EMAIL.match(email):
        raise RequestError(f"email {email!r} is not an email address (like name@example.com)")
    if not _PHONE.match(phone):
        raise RequestError(f"phone {phone!r} is not a phone number (like 555-123-4567)")
    return {"name": name, "email": email, "phone": phone, "message": _text(body, "message")}


def _blank(v: Any) -> bool:
    return v is None or (isinstance(v, str) and not v.strip())


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def check_complete(body: dict[str, Any], fields: tuple[str, ...] = ("date", "time", "name", "email", "phone",
                                                                      "message")) -> None:
    """Every empty field of a request form named at once, in the form's words (an empty form used to get
    ``date None is not one of the offered days``)."""
    pick = [f"a {k}" for k in ("date", "time") if k in fields and _blank(body.get(k))]
    fill = [k for k in ("name", "email", "phone", "message") if k in fields and _blank(body.get(k))]
    parts = []
    if pick:
        parts.append(f"choose {_and(pick)}")
    if fill:
        parts.append(f"fill in your {_and(fill)}")
    if parts:  # "choose a date and a time, and fill in your name, email and phone", as a form says it
        raise RequestError(", and ".join(parts))


def _date_time(body: dict[str, Any]) -> tuple[str, str]:
    date, time = body.get("date"), body.get("time")
    valid = [d.isoformat() for d in tour_dates()]
    if date not in valid:
        raise RequestError(f"date {date!r} is not one of the offered days ({valid[0]} to {valid[-1]}): pick a day")
    if time not in TIMES:
        raise RequestError(f"time {time!r} is not an offered time ({TIMES[0]} to {TIMES[-1]}): pick a time")
    return date, time


def _home(home_id: Any):
    h = BY_ID.get(str(home_id))
    if h is None:
        raise RequestError(f"there is no home {home_id!r} on Zilloft; open a listing and use its form")
    return h


def add_tour_request(state: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    h = _home(body.get("homeId"))
    check_complete(body)
    date, time = _date_time(body)
    option = body.get("tourType", "in-person")
    if option not in TOUR_TYPES:
        raise RequestError(f"tour type {option!r} is not one of {', '.join(TOUR_TYPES)}")
    form = _contact(body)
    lst = state["tourRequests"]["requestTourList"]
    rec = {"id": f"tour-{h.id}-{len(lst) + 1}", "createdAt": _created_at(state), "homeId": h.id,
           "requestTourData": {
               "options": [{"option": option, "date": date, "time": time}],
               "formValues": {**form, "wantFinancingInformation": bool(body.get("wantFinancingInformation"))},
               "shareInfoDetails": {"shareWithAgent": True, "agentName": h.agent_info[0]}}}
    lst.append(rec)
    return rec


def add_contact_agent(state: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    h = _home(body.get("homeId"))
    check_complete(body)
    date, time = _date_time(body)
    form = _contact(body)
    lst = state["tourRequests"]["contactAgentList"]
    rec = {"id": f"contact-{h.id}-{len(lst) + 1}", "createdAt": _created_at(state), "homeId": h.id,
           "contactAgentData": {"formValues": form, "selectedDate": {"date": date, "time": time},
                                "agentName": h.agent_info[0]}}
    lst.append(rec)
    return rec


def toggle_saved(state: dict[str, Any], home_id: Any) -> bool:
    """Save or unsave a home; returns whether it is saved now."""
    h = _home(home_id)
    homes = state["savedHomes"]["homes"]
    if any(x["id"] == h.id for x in homes):
        state["savedHomes"]["homes"] = [x for x in homes if x["id"] != h.id]
        return False
    homes.append({"id": h.id})
    return True


def is_saved(state: dict[str, Any], home_id: str) -> bool:
    return any(x["id"] == home_id for x in state["savedHomes"]["homes"])


_PRICE = re.compile(r"^\$?\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*([kKmM])?\+?$")


def parse_price(raw: str | None, name: str) -> int | None:
    """'500000', '$500,000', '500k', '1.1M' -> int; '' -> None; anything else raises RequestError."""
    if raw is None or not raw.strip() or raw.strip().lower() in ("no min", "no max", "any"):
        return None
    m = _PRICE.match(raw.strip())
    if not m:
        raise RequestError(f"{name} {raw!r} is not a price: type a number like 500000, $500,000, 500k or 1.1M")
    v = float(m.group(1).replace(",", ""))
    v *= {"k": 1e3, "m": 1e6}.get((m.group(2) or "").lower(), 1)
    return round(v)
