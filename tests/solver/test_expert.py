"""HAL9000 on the classic game: the books it plays from, against every one of the 1296 secrets."""

import itertools
import random

import pytest

from wom_tui.domain.codes import RAINBOW, WOM, Feedback, Ruleset, feedback
from wom_tui.domain.strategies import book, is_consistent, make_strategy
from wom_tui.domain.strategies.space import Shape

from .helpers import play

EVERY_SECRET = ["".join(s) for s in itertools.product(WOM.symbols, repeat=4)]


def play_from_book(secret: str, name: str) -> list[tuple[str, Feedback]]:
    """Play ``secret`` with the book ``name`` alone; fails if the book has no guess for a position it reaches."""
    history: list[tuple[str, Feedback]] = []
    while not history or not history[-1][1].solves(4):
        guess = book.lookup(Shape(4, 6, True), history, WOM.symbols, consistent_only=name == book.CONSISTENT,
                            within_five=name == book.WITHIN_FIVE)
        assert guess is not None, f"the book has no guess after {history}"
        history.append((guess, feedback(secret, guess)))
        assert len(history) <= 10
    return history


@pytest.mark.parametrize(
    ("name", "total", "worst"),
    [(book.OPTIMAL, 5625, 6), (book.WITHIN_FIVE, 5626, 5), (book.CONSISTENT, 5660, 6)],
)
def test_the_book_breaks_every_secret_with_the_optimal_total(name, total, worst):
    games = [play_from_book(secret, name) for secret in EVERY_SECRET]
    lengths = [len(game) for game in games]
    assert sum(lengths) == total
    assert max(lengths) == worst
    if name == book.OPTIMAL:
        assert lengths.count(6) == 1  # Koyama & Lai: one code takes a 6th guess, and that saves one in all
    # Every position the book holds is one some secret reaches: nothing stale, nothing missing.
    reached = {book._path_key([(g, fb.black, fb.white) for g, fb in game[:i]]) for game in games for i in range(len(game))}
    assert len(reached) == len(book.load_book(name))
    if name == book.CONSISTENT:
        for game in games:
            assert all(is_consistent(guess, game[:i]) for i, (guess, _) in enumerate(game))


@pytest.mark.parametrize(
    ("name", "options"),
    [(book.OPTIMAL, {}), (book.WITHIN_FIVE, {"within_five": True}), (book.CONSISTENT, {"consistent_only": True})],
)
def test_hal9000_plays_the_book_on_the_classic_game(name, options):
    rules = Ruleset(4, WOM, True, 10)
    expert = make_strategy("expert", **options)
    for secret in random.Random(5).sample(EVERY_SECRET, 60):
        assert play(expert, rules, secret, random.Random(0)) == play_from_book(secret, name)


def test_the_book_serves_every_six_symbol_palette():
    rules = Ruleset(4, RAINBOW, True, 10)
    expert = make_strategy("expert")
    lengths = [len(play(expert, rules, "".join(s), random.Random(0))) for s in itertools.product("ROYGBV", repeat=4)]
    assert max(lengths) == 6
    assert sum(lengths) == 5625


def test_a_game_of_five_guesses_is_played_from_the_five_guess_book():
    # The optimum may need a 6th guess: in a game that allows 5, HAL9000 still never loses.
    rules = Ruleset(4, WOM, True, 5)
    expert = make_strategy("expert")
    six = next(s for s in EVERY_SECRET if len(play_from_book(s, book.OPTIMAL)) == 6)
    assert play(expert, rules, six, random.Random(0)) == play_from_book(six, book.WITHIN_FIVE)
    assert len(play_from_book(six, book.WITHIN_FIVE)) <= 5


def test_a_game_too_short_for_the_consistent_book_is_still_played_consistently():
    rules = Ruleset(4, WOM, True, 5)  # the consistent book may need 6 guesses
    assert book.lookup(Shape(4, 6, True), [], WOM.symbols, consistent_only=True, guesses=5) is None
    expert = make_strategy("expert", consistent_only=True)
    history = play(expert, rules, "RRGG", random.Random(2))
    assert all(is_consistent(guess, history[:i]) for i, (guess, _) in enumerate(history))
    assert history[-1][0] == "RRGG"


@pytest.mark.slow
def test_searching_the_consistent_book_again_gives_the_shipped_book():
    searched, total = book.build_book(book.CONSISTENT)
    assert total == 5660
    assert searched == book.load_book(book.CONSISTENT)


@pytest.mark.slow
def test_searching_the_optimal_book_again_gives_the_shipped_book():
    # The exact search (branch and bound over every code as a guess, symmetry) with a 6-guess cap.
    searched, total = book.build_book(book.OPTIMAL)
    assert total == 5625
    assert searched == book.load_book(book.OPTIMAL)


@pytest.mark.slow
def test_a_seventh_guess_allowed_saves_nothing():
    # The optimum with a 7-guess cap is still 5,625: allowing a longer game does not beat the shipped book.
    _, total = book.build_book(book.OPTIMAL, depth=7)
    assert total == 5625
