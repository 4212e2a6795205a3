"""``Finish.merged``: the end state rebuilt from the seed and agisdk's ``initialfinaldiff``, as the sites' graders
(NetworkIn, TopWork, StayNB, UDriver) read it from one place."""

from __future__ import annotations

from halo.tasks.families.base import Finish, index_keyed

SEED = {"app": {"rows": [{"x": 1}, {"x": 2}], "flags": {"c": 1, "d": 2}, "name": "seed"}}
DIFF = {"added": {"app": {"rows": {"2": {"x": 3}}}},
        "updated": {"app": {"rows": {"0": {"x": 9}}, "flags": {"c": 5}, "name": None}},
        "deleted": {"app": {"flags": {"d": None}, "rows": {"1": {"x": None}}}}}


def test_added_then_updated_merge_over_the_seed_and_deleted_keys_leave() -> None:
    f = Finish({"initialfinaldiff": DIFF})
    got = f.merged(index_keyed(SEED["app"]), "app", index_lists=True, deleted=True)
    # a list's items are named by index; an update's None keeps the seed's value; a nested delete takes one key
    assert got == {"rows": {"0": {"x": 9}, "1": {}, "2": {"x": 3}}, "flags": {"c": 5}, "name": "seed"}
    assert f.merged(index_keyed(SEED["app"]), "app", index_lists=True)["flags"] == {"c": 5, "d": 2}


def test_without_a_seed_the_slice_is_what_the_diff_added_and_updated_and_nothing_is_an_empty_object() -> None:
    f = Finish({"initialfinaldiff": {"added": {"ride": {"a": 1, "b": {"c": 2}}}, "updated": {"ride": {"b": {"c": 3}}}}})
    assert f.merged(None, "ride") == {"a": 1, "b": {"c": 3}}
    assert f.merged(None, "user") == {}
    assert Finish({}).merged({"k": 1}) == {"k": 1}
