"""Points for World of Mastermind (docs/play.md, *World of Mastermind*, step 4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wom_tui.domain.scoring import Breakdown, breakdown, breaking_points, making_points


def test_the_seed_example_is_four_plus_five_is_nine():
    points = breakdown("Alan", 5, used=2, broke=True, breaker_used=5, breaker_broke=False)
    assert (points.breaking, points.making, points.total) == (4, 5, 9)
    assert points.message == "Alan receives 4 + 5 = 9 points."


def test_the_ten_attempt_examples_from_the_seed():
    assert breaking_points(10, 3, True) == 8
    assert making_points(10, 9, True) == 8
    assert breaking_points(10, 10, False) + making_points(10, 10, False) == 10


def test_breaking_on_the_first_attempt_earns_the_most():
    assert breaking_points(7, 1, True) == 7
    assert breaking_points(7, 7, True) == 1
    assert making_points(7, 1, True) == 0


def test_one_point_is_singular():
    assert Breakdown("Bo", 1, 0).message == "Bo receives 1 + 0 = 1 point."


@pytest.mark.parametrize("args", [(5, 6, False), (5, -1, False), (5, 0, True)])
def test_impossible_attempt_counts_are_refused(args):
    with pytest.raises(ValueError):
        breaking_points(*args)
    with pytest.raises(ValueError):
        making_points(*args)


@st.composite
def outcomes(draw):
    allowed = draw(st.integers(5, 10))
    broke = draw(st.booleans())
    used = draw(st.integers(1, allowed)) if broke else allowed
    return allowed, used, broke


@given(outcomes(), outcomes())
def test_total_is_breaking_plus_making_and_within_bounds(mine, theirs):
    allowed, used, broke = mine
    _, breaker_used, breaker_broke = theirs
    breaker_used = min(breaker_used, allowed)
    b = breakdown("Alan", allowed, used, broke, breaker_used, breaker_broke)
    assert b.total == b.breaking + b.making
    assert b.message == f"Alan receives {b.breaking} + {b.making} = {b.total} point{'s' if b.total != 1 else ''}."
    assert 0 <= b.breaking <= allowed and 0 <= b.making <= allowed
    # breaking sooner never earns less; a breaker who fails always earns the maker the most
    if broke and used > 1:
        assert breaking_points(allowed, used - 1, True) > b.breaking
    assert making_points(allowed, allowed, False) >= b.making
