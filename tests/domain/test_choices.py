"""Remembered choices read back: a value the form does not offer falls back to its default."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wom_tui.domain.choices import pick, pick_index

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 15), st.text(max_size=8))


def test_a_value_offered_is_taken_and_anything_else_gives_the_default():
    assert pick({"length": 6}, "length", [4, 5, 6, None], 4) == 6
    assert pick({"length": None}, "length", [4, 5, 6, None], 4) is None
    assert pick({"length": 9}, "length", [4, 5, 6, None], 4) == 4
    assert pick({"length": True}, "length", [0, 1], 0) == 0  # true is not 1
    assert pick({"length": "6"}, "length", [4, 5, 6], 4) == 4
    assert pick({}, "length", [4, 5], 5) == 5
    assert pick([], "length", [4, 5], 5) == 5  # type: ignore[arg-type]
    assert pick_index({"palette": "rainbow"}, "palette", ["digits10", "digits8", "rainbow"], 0) == 2
    assert pick_index({"palette": "nope"}, "palette", ["digits10", "digits8", "rainbow"], 1) == 1


@given(saved=st.dictionaries(st.sampled_from(["a", "b"]), SCALARS), offered=st.lists(SCALARS, min_size=1, max_size=6),
       data=st.data())
def test_what_is_picked_is_always_offered(saved, offered, data):
    default = data.draw(st.sampled_from(offered))
    chosen = pick(saved, "a", offered, default)
    assert any(type(choice) is type(chosen) and choice == chosen for choice in offered)
    assert 0 <= pick_index(saved, "a", offered, offered.index(default)) < len(offered)
