"""Playing whole games between a strategy and a secret, for the solver tests."""

from __future__ import annotations

import random

import pytest

from wom_tui.domain.codes import DIGITS8, DIGITS10, WOM, Feedback, Ruleset, feedback

PALETTE_OF = {6: WOM, 8: DIGITS8, 10: DIGITS10}


def slow_but(params, fast):
    """``params`` for pytest.mark.parametrize, each marked ``slow`` (``make test-all``) but those in ``fast``,
    which ``make test`` runs: one quick proof per strategy and ruleset kind, the whole table in test-all."""
    return [p if p in fast else pytest.param(*p, marks=pytest.mark.slow) for p in params]


def ruleset(length: int, colours: int, repeats: bool = True, guesses: int = 20) -> Ruleset:
    """A ruleset by numbers: 6, 8 or 10 colours pick the wom, digits8 or digits10 palette."""
    return Ruleset(length, PALETTE_OF[colours], repeats, guesses)


def play(strategy, rules: Ruleset, secret: str, rng: random.Random, limit: int = 200):
    """Let ``strategy`` break ``secret``; the list of (guess, feedback) it played, ending in the win."""
    history: list[tuple[str, Feedback]] = []
    while len(history) < limit:
        guess = strategy.next_guess(rules, history, rng)
        assert len(guess) == rules.length and set(guess) <= set(rules.palette.symbols)
        fb = feedback(secret, guess)
        history.append((guess, fb))
        if fb.solves(rules.length):
            break
    return history
