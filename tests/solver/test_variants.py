"""HAL9000 and VIKI play every variant, and Devious keeps its word: checked on 4 × 6 (docs/play.md, *Variants*)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wom_tui.domain.codes import WOM, Feedback, Ruleset
from wom_tui.domain.strategies import fitting, is_consistent
from wom_tui.domain.strategies.space import Shape, enumerate_codes, feedback_keys, partition_counts
from wom_tui.domain.strategies.variants import devious_answer, liar_mask, variant_guess
from wom_tui.domain.variant_game import VariantGame
from wom_tui.domain.variants import Variant

from .helpers import slow_but

CLASSIC = Ruleset(4, WOM, True, 10)
EVERY_CODE = ["".join(c) for c in itertools.product(WOM.symbols, repeat=4)]
FIRST_GUESS_CLASSES = ["RRRR", "RRRG", "RRGG", "RRGB", "RGBY"]
"""Every first guess on 4 × 6 up to a permutation of colours and positions."""


def against_devious(strategy: str, seed: int, first: str | None = None, rules: Ruleset = CLASSIC):
    """A whole game of ``strategy`` against Devious (``first`` played first if given); every answer is
    checked to leave at least one code. Returns the (guess, answer) history, ending in the win.
    """
    history: list[tuple[str, Feedback]] = []
    rng = random.Random(seed)
    while not history or not history[-1][1].solves(4):
        guess = first if first and not history else variant_guess(strategy, Variant.DEVIOUS, rules, [history], rng)
        answer = devious_answer(rules, history, guess, seed)
        history.append((guess, answer))
        assert fitting(rules, history).count()[0] >= 1, f"Devious gave an answer no code fits: {history}"
        assert len(history) <= 12
    return history


def test_devious_answers_every_first_guess_with_the_answer_leaving_the_most_codes():
    shape = Shape(4, 6, True)
    codes = enumerate_codes(4, 6, True)  # the order of EVERY_CODE
    counts = partition_counts(feedback_keys(codes, codes, 6), shape.outcomes)
    counts[:, shape.win_key] = 0
    for guess, most in zip(EVERY_CODE, counts.max(axis=1)):
        answer = devious_answer(CLASSIC, [], guess, 0)
        assert not answer.solves(4)
        assert fitting(CLASSIC, [(guess, answer)]).count() == (most, True)  # some code gives it: the most do


@pytest.mark.parametrize(
    ("strategy", "firsts", "seeds"),
    slow_but([("consistent", tuple(FIRST_GUESS_CLASSES), (0, 1, 2)), ("consistent", tuple(EVERY_CODE), (0,)),
              ("expert", tuple(FIRST_GUESS_CLASSES), (0, 1))],
             fast=[("consistent", tuple(FIRST_GUESS_CLASSES), (0, 1, 2))]),
    ids=["viki-first-guess-classes", "viki-every-first-guess", "hal-first-guess-classes"],
)
def test_every_answer_sequence_devious_gives_fits_some_code(strategy, firsts, seeds):
    # Whatever is guessed first, and then the solver's line (VIKI: any code that still fits; HAL9000: the
    # best split, off its book): Devious always answers consistently, and is cornered only when one code is left.
    for first, seed in itertools.product(firsts, seeds):
        history = against_devious(strategy, seed, first)
        assert fitting(CLASSIC, history[:-1]).count()[0] == 1 or history[-1][0] == first


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_hal9000_never_needs_more_than_five_guesses_against_devious(seed):
    # HAL9000 plays the 5-guess book against Devious: every answer sequence Devious gives is some code's,
    # and the book breaks every code within 5.
    history = against_devious("expert", seed)
    assert len(history) <= 5


@pytest.mark.parametrize(("strategy", "sample"), slow_but([("expert", 1296), ("consistent", 400), ("expert", 60)],
                                                          fast=[("expert", 60)]))
def test_strict_computers_only_play_guesses_that_fit(strategy, sample):
    rules = Variant.STRICT.ruleset(CLASSIC)
    for secret in random.Random(8).sample(EVERY_CODE, sample):
        game = VariantGame(Variant.STRICT, rules, (secret,))
        rng = random.Random(secret)
        while game.awaiting:
            guess = game.computer_guess(strategy, rng)
            assert game.refusal(guess) is None
            game.guess(guess)
        rows = [(a.guess, a.feedback) for a in game.history()]
        assert game.won and all(is_consistent(g, rows[:i]) for i, (g, _) in enumerate(rows))


def test_strict_computers_fit_on_a_bigger_ruleset_too():
    rules = Ruleset(5, WOM, True, 12)
    for strategy, seed in itertools.product(("expert", "consistent"), range(3)):
        game = VariantGame.new(Variant.STRICT, rules, random.Random(seed))
        rng = random.Random(seed)
        while game.awaiting:
            game.guess(game.computer_guess(strategy, rng))
        assert game.won


@pytest.mark.parametrize("strategy", ["expert", "consistent"])
def test_liar_computers_tolerate_the_lie_and_break_the_code(strategy):
    for seed in range(6):
        game = VariantGame.new(Variant.LIAR, CLASSIC, random.Random(seed))
        rng = random.Random(seed)
        index = EVERY_CODE.index(game.secrets[0])
        while game.awaiting:
            game.guess(game.computer_guess(strategy, rng))
            # The code is always among those the solver keeps: every answer but at most one fits it.
            assert liar_mask(game.ruleset, [(a.guess, a.feedback) for a in game.history()])[index]
        assert game.won and game.guesses_used <= 9


@pytest.mark.parametrize(("strategy", "games", "won"), [("expert", 6, 6), ("consistent", 12, 9)])
def test_quad_computers_break_four_codes_in_nine_guesses(strategy, games, won):
    wins = 0
    for seed in range(games):
        game = VariantGame.new(Variant.QUAD, CLASSIC, random.Random(seed))
        rng = random.Random(seed)
        while game.awaiting:
            guess = game.computer_guess(strategy, rng)
            if strategy == "consistent":  # VIKI: always a code that could be one of the open boards'
                assert any(is_consistent(guess, [(a.guess, a.feedback) for a in game.history(b)]) for b in game.open_boards)
            game.guess(guess)
        wins += game.won
    assert wins >= won
