"""How many codes remain, and which hand-given answer is likely wrong (the flip mode's needs)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wom_tui.domain.codes import Feedback, feedback
from wom_tui.domain.strategies import (
    all_codes,
    count_consistent,
    find_inconsistency,
    is_consistent,
    make_strategy,
    suspects,
)
from wom_tui.domain.strategies import space

from .helpers import play, ruleset


def brute_count(rules, history) -> int:
    return sum(1 for code in all_codes(rules) if is_consistent(code, history))


def test_nothing_known_means_every_code_remains():
    assert count_consistent(ruleset(4, 6), []) == (1296, True)
    assert count_consistent(ruleset(5, 10, repeats=False), []) == (30240, True)


@settings(max_examples=25, deadline=None)
@given(length=st.integers(1, 4), colours=st.sampled_from([6, 8]), repeats=st.booleans(), seed=st.integers(0, 2**32))
def test_small_counts_are_exact(length, colours, repeats, seed):
    rules = ruleset(length, colours, repeats)
    rng = random.Random(seed)
    secret = rules.random_code(rng)
    history = play(make_strategy("consistent"), rules, secret, rng)[:3]
    assert count_consistent(rules, history) == (brute_count(rules, history), True)


def test_a_space_joined_from_halves_counts_exactly_when_narrowed():
    rules = ruleset(6, 8)  # 262 144 codes: past the enumeration limit, so built from halves
    rng = random.Random(3)
    secret = rules.random_code(rng)
    history = play(make_strategy("expert"), rules, secret, rng)[:2]
    codes = space.enumerate_codes(6, 8, True)
    keep = np.ones(len(codes), bool)
    for guess, fb in history:
        g = np.array([rules.palette.symbols.index(ch) for ch in guess], dtype=np.uint8)
        keys = space.keys_against(g, codes, space.colour_counts(codes, 8))
        keep &= keys == fb.black * 7 + fb.black + fb.white
    assert count_consistent(rules, history) == (int(keep.sum()), True)


def test_huge_spaces_give_an_estimate_close_to_the_truth(monkeypatch):
    rules = ruleset(6, 8)
    history = [("112233", Feedback(1, 1))]
    exact, is_exact = count_consistent(rules, history)
    assert is_exact
    space._joined.cache_clear()
    monkeypatch.setattr(space, "PAIR_LIMIT", 1_000)
    estimate, is_exact = count_consistent(rules, history)
    space._joined.cache_clear()
    assert not is_exact
    assert abs(estimate - exact) <= 0.05 * exact


def test_eight_by_ten_is_estimated_not_listed():
    rules = ruleset(8, 10)
    n, exact = count_consistent(rules, [("00112233", Feedback(1, 2))])
    assert not exact
    assert 1_000_000 < n < 100_000_000


def test_a_consistent_history_has_no_suspect():
    rules = ruleset(4, 6)
    history = play(make_strategy("expert"), rules, "RGBY", random.Random(1))
    assert find_inconsistency(rules, history) is None


@pytest.mark.parametrize(("length", "colours", "repeats"), [(4, 6, True), (5, 8, True), (8, 10, True), (6, 10, False)])
def test_a_wrong_answer_is_named(length, colours, repeats):
    rules = ruleset(length, colours, repeats)
    rng = random.Random(length + colours)
    secret = rules.random_code(rng)
    strategy = make_strategy("consistent")
    history = []
    # Answer honestly until few codes remain, then slip on the next answer so that nothing fits.
    while True:
        guess = strategy.next_guess(rules, history, rng)
        fb = feedback(secret, guess)
        assert not fb.solves(length)
        n, exact = count_consistent(rules, [*history, (guess, fb)])
        if exact and n <= 5:
            break
        history.append((guess, fb))
    slips = [
        Feedback(b, w)
        for b in range(length + 1)
        for w in range(length + 1 - b)
        if (b, w) != fb and count_consistent(rules, [*history, (guess, Feedback(b, w))])[0] == 0
    ]
    assert slips
    slipped = [*history, (guess, slips[0])]
    assert find_inconsistency(rules, slipped) == len(history)
    assert find_inconsistency(rules, [*history, (guess, fb)]) is None


def test_the_suspect_is_the_answer_whose_removal_leaves_the_most_codes():
    # The secret is RRGG: the first answer was the slip (it earns 1 black, 1 white), not the second.
    rules = ruleset(4, 6)
    history = [("RGBY", Feedback(0, 0)), ("WWWK", Feedback(0, 0))]
    # Without #1 the 256 codes of R, G, B, Y remain; without #2 only the 16 of W and K.
    assert count_consistent(rules, history[1:]) == (256, True)
    assert count_consistent(rules, history[:1]) == (16, True)
    assert suspects(rules, history) == (0,)
    assert find_inconsistency(rules, history) == 0


def test_answers_equally_likely_wrong_are_all_named_and_the_latest_is_offered():
    rules = ruleset(4, 6)
    history = [
        ("RRGG", Feedback(0, 0)),
        ("BBYY", Feedback(0, 0)),
        ("WWKK", Feedback(0, 0)),  # no colour at all: impossible with the two answers before
    ]
    # Removing any one of the three leaves the 16 codes of two colours: all three are named.
    assert suspects(rules, history) == (0, 1, 2)
    assert find_inconsistency(rules, history) == 2
    assert suspects(rules, history[:2]) == ()
    assert find_inconsistency(rules, history[:2]) is None


def test_a_contradiction_that_no_single_fix_explains_names_where_it_began():
    rules = ruleset(1, 6)
    history = [("R", Feedback(0, 0)), ("R", Feedback(1, 0)), ("R", Feedback(0, 0))]
    assert find_inconsistency(rules, history) == 1
    assert suspects(rules, history) == (1,)
