"""GoCalendar's own family checks; what every site's families keep (instances, graders, oracles played in real
Chromium on three instances per family spread over the space, the untouched calendar refused) is checked in
``test_family_contract.py``. Here: gocalendar.otherday pays its first click (the goal's week shown) as progress.
Its near misses (the side calendar's day instead of the header's, a day or an hour off, the wrong event or title,
played in the browser or edited into a solved /finish JSON) are in ``family_oracles_gocalendar.py``."""

from __future__ import annotations

from halo.tasks.families import get_family


# ---------------------------------------------------------------- generators (no browser)
def test_otherday_pays_its_first_click_as_progress():
    """gocalendar.otherday: the goal's week shown passes one check more than the week shown at the start (the first
    click's progress reward); only its day view passes all."""
    from datetime import date

    fam = get_family("gocalendar.otherday")
    inst = next(i for i in fam.instances("all") if i.params["date"] == "2024-07-23")
    d = date.fromisoformat(inst.params["date"])

    def shown(path: str) -> dict:
        return {"initialfinaldiff": {"updated": {"router": {"location": {"pathname": path}}}},
                "differences": {"events": {"added": {}, "updated": {}, "deleted": {}}}}

    def passed(path: str) -> list[str]:
        return [c.name for c in fam.grade(shown(path), inst.params) if c.passed]

    assert passed("/") == ["no other event changes"]
    assert passed("/r/week/2024/7/21") == ["its week shown", "no other event changes"]
    assert passed(f"/r/day/{d.year}/{d.month}/{d.day}") == ["its week shown", "day shown", "no other event changes"]
    assert passed("/r/day/2024/7/16") == ["no other event changes"]  # the same weekday, the week shown
