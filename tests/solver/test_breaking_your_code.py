"""HAL9000 breaking a person's code plays only codes that fit every answer so far (README, *The computer players*).

Moved here from the domain tests: these play whole solver games (seconds), while tests/domain keeps to
the rules (milliseconds).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wom_tui.domain.codes import DIGITS10, PALETTES, Ruleset
from wom_tui.domain.computer_breaks import ComputerBreaksGame
from wom_tui.domain.strategies import is_consistent


@settings(max_examples=25, deadline=None)
@given(
    length=st.integers(3, 5),
    palette=st.sampled_from(["wom", "digits8"]),
    repeats=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_every_guess_hal9000_makes_fits_every_answer_so_far(length, palette, repeats, seed):
    ruleset = Ruleset(length, PALETTES[palette], repeats, 10)
    rng = random.Random(seed)
    game = ComputerBreaksGame(ruleset, ruleset.random_code(rng))
    while not game.over:
        guess = game.think(game.history, rng)
        assert is_consistent(guess, game.history), f"{guess} contradicts {game.history}"
        game.offer(guess)
    assert game.broke, f"HAL9000 did not break a {ruleset.describe()} code: {game.history}"


@pytest.mark.parametrize("seed", range(3))
def test_an_eight_symbol_code_of_ten_digits_is_broken_with_consistent_guesses(seed):
    ruleset = Ruleset(8, DIGITS10, True, 12)
    rng = random.Random(seed)
    game = ComputerBreaksGame(ruleset, ruleset.random_code(rng))
    while not game.over:
        guess = game.think(game.history, rng)
        assert is_consistent(guess, game.history)
        game.offer(guess)
    assert game.broke


