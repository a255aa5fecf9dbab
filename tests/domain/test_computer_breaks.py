"""Computer breaks your code: answers a person gives by hand are checked, and a wrong one is found."""

from __future__ import annotations

import random

import pytest

from wom_tui.domain.codes import DIGITS10, WOM, Ruleset
from wom_tui.domain.computer_breaks import ComputerBreaksGame, InvalidAnswer, check_answer

SECRET = "7307"


def test_answers_no_guess_could_earn_are_refused():
    ruleset = Ruleset(4, DIGITS10, True, 10)
    assert check_answer(ruleset, 2, 2) == (2, 2)
    for black, white, reason in [
        (3, 1, "3 black and 1 white cannot happen"),
        (5, 0, "Black must be a number from 0 to 4."),
        (0, 5, "White must be a number from 0 to 4."),
        (2, 3, "Black and white together can be at most 4."),
    ]:
        try:
            check_answer(ruleset, black, white)
        except InvalidAnswer as refusal:
            assert refusal.reason.startswith(reason)
        else:
            raise AssertionError(f"{black}, {white} accepted")


def test_flip_game_by_hand_names_the_wrong_answer():
    game = ComputerBreaksGame(Ruleset(4, DIGITS10, True, 10))
    game.offer("0123")
    game.answer(0, 2)
    game.offer("0123")
    game.answer(1, 0)  # the same guess cannot earn another answer
    assert game.conflict() == 1
    game.correct(1, 0, 2)
    assert game.conflict() is None and not game.broke
    game.offer(SECRET)
    game.answer(4, 0)
    assert game.broke and game.result_message() == "HAL9000 broke your code in 3 guesses."


def test_the_answer_blamed_is_the_one_whose_removal_leaves_the_most_codes():
    # The person's code is RRGG; they answered RGBY with nothing (it earns 1 black, 1 white).
    game = ComputerBreaksGame(Ruleset(4, WOM, True, 10))
    game.offer("RGBY")
    game.answer(0, 0)
    game.offer("WWWK")
    game.answer(0, 0)
    analysis = game.analyse(game.history, 0)
    assert analysis.conflict == 0 and game.conflict() == 0
    assert analysis.blame(game.history) == "The answer to guess #1 (RGBY: 0 black, 0 white) is likely wrong. Correct it below."


def test_answers_equally_likely_wrong_are_all_named():
    game = ComputerBreaksGame(Ruleset(4, WOM, True, 10))
    for guess in ("RRGG", "BBYY", "WWKK"):
        game.offer(guess)
        game.answer(0, 0)
    analysis = game.analyse(game.history, 0)
    assert analysis.conflict == 2
    assert analysis.blame(game.history) == (
        "The answers to guesses #1, #2 and #3 are equally likely wrong. Correct guess #3 below, or pick another row."
    )


def test_a_finished_flip_game_becomes_a_record_the_store_keeps(tmp_path):
    from wom_tui.domain.board import GameStateError
    from wom_tui.domain.store.folder.store import FolderStore as Store

    game = ComputerBreaksGame(Ruleset(4, DIGITS10, True, 10), SECRET)
    rng = random.Random(4)
    with pytest.raises(GameStateError):
        game.record("Ada", True)
    while not game.over:
        game.offer(game.think(game.history, rng))
    store = Store(tmp_path)
    store.register("Ada")
    store.record_game(game.record("Ada", True))
    (kept,) = Store(tmp_path).games()
    assert kept.kind == "flip" and kept.players[0].guesses == game.history
    assert store.user("Ada").games == 0, "only World of Mastermind games count on the scoreboard"
