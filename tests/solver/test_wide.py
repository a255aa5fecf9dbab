"""HAL9000 on 5 × 8: the whole decision tree written offline (sampled here; the bench plays all 32,768)."""

import random

from wom_tui.domain.codes import DIGITS8, Feedback, Ruleset, feedback
from wom_tui.domain.strategies import make_strategy, wide
from wom_tui.domain.strategies.space import Shape

from .helpers import play


def test_the_5x8_book_breaks_sampled_secrets_within_seven_guesses_without_leaving_it():
    rng = random.Random(15)
    rules = Ruleset(5, DIGITS8, True, 10)
    for _ in range(400):
        secret = rules.random_code(rng)
        history: list[tuple[str, Feedback]] = []
        while not history or not history[-1][1].solves(5):
            guess = wide.lookup(Shape(5, 8, True), history, DIGITS8.symbols)
            assert guess is not None, f"the book has no guess after {history}"
            history.append((guess, feedback(secret, guess)))
            assert len(history) <= wide.MAX_GUESSES


def test_hal9000_plays_the_5x8_book_and_leaves_it_only_for_answers_it_cannot_hold():
    rules = Ruleset(5, DIGITS8, True, 10)
    expert = make_strategy("expert")
    history = play(expert, rules, "12345", random.Random(0))
    assert [g for g, _ in history[:1]] == [wide.lookup(Shape(5, 8, True), [], DIGITS8.symbols)]
    assert len(history) <= wide.MAX_GUESSES
    # Answers no code could give together: off the book, HAL9000 still answers with a valid code.
    first = history[0][0]
    odd = [(first, Feedback(0, 0)), (first, Feedback(1, 0))]
    assert wide.lookup(Shape(5, 8, True), odd, DIGITS8.symbols) is None
    guess = expert.next_guess(rules, odd, random.Random(0))
    assert len(guess) == 5 and set(guess) <= set(DIGITS8.symbols)
