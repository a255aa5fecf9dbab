"""The decoding board: a code set once, never readable until the end (seed 004)."""

from __future__ import annotations

import pytest

from wom_tui.domain.board import DecodingBoard
from wom_tui.domain.codes import WOM_RULESET, Feedback, InvalidCode
from wom_tui.domain.game import GameStateError


def board(attempts=5, secret="BYWR"):
    b = DecodingBoard(WOM_RULESET.with_guesses(attempts))
    if secret is not None:
        b.set_secret(secret)
    return b


def test_the_code_can_be_set_only_once():
    b = board()
    with pytest.raises(GameStateError):
        b.set_secret("RRRR")
    assert b.is_set


def test_the_code_is_not_readable_from_outside():
    b = board()
    public = [name for name in dir(b) if not name.startswith("_")]
    for name in public:
        value = getattr(b, name)
        if not callable(value):
            assert value != "BYWR" and "BYWR" not in repr(value), name
    assert "BYWR" not in repr(b)
    assert not hasattr(b, "secret") and not hasattr(b, "code")
    with pytest.raises(GameStateError):
        b.reveal()


def test_an_invalid_code_is_refused_and_leaves_the_board_unset():
    b = board(secret=None)
    with pytest.raises(InvalidCode):
        b.set_secret("BTWRA")
    assert not b.is_set
    b.set_secret("bywr")
    assert b.guess("BYWR") == (4, 0)


def test_guesses_answer_feedback_and_keep_history():
    b = board()
    assert b.guess("BRWG") == Feedback(2, 1)
    assert b.guess("gwkg") == Feedback(0, 1)
    assert b.history == (("BRWG", (2, 1)), ("GWKG", (0, 1)))
    assert b.history[0].guess == "BRWG" and b.history[0].feedback.text == "K K W"
    assert (b.attempts_allowed, b.attempts_used, b.attempts_left) == (5, 2, 3)
    assert not (b.solved or b.out_of_attempts or b.finished)


def test_an_invalid_guess_costs_nothing():
    b = board()
    with pytest.raises(InvalidCode):
        b.guess("BGY")
    assert b.attempts_used == 0 and b.history == ()


def test_guessing_before_the_code_is_set_is_an_error():
    with pytest.raises(GameStateError):
        board(secret=None).guess("RGBY")


def test_solving_finishes_the_board_and_allows_reveal():
    b = board()
    b.guess("BGYY")
    b.guess("BYWR")
    assert b.solved and b.finished and not b.out_of_attempts
    assert b.reveal() == "BYWR"
    with pytest.raises(GameStateError):
        b.guess("BYWR")


def test_running_out_of_attempts():
    b = board(attempts=5)
    for _ in range(5):
        b.guess("KKKK")
    assert b.out_of_attempts and b.finished and not b.solved
    assert b.attempts_left == 0
    with pytest.raises(GameStateError):
        b.guess("BYWR")
    assert b.reveal() == "BYWR"


def test_a_last_attempt_that_breaks_the_code_is_solved_not_out():
    b = board(attempts=5)
    for _ in range(4):
        b.guess("KKKK")
    b.guess("BYWR")
    assert b.solved and not b.out_of_attempts
