"""Computer breaks your code: answers a person gives by hand are checked, and a wrong one is found."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wom_tui.domain.codes import DIGITS10, WOM, Feedback, Ruleset, feedback
from wom_tui.domain.computer_breaks import ComputerBreaksGame, InvalidAnswer, check_answer
from wom_tui.domain.strategies import all_codes, corrections

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


def test_every_correction_that_resolves_a_contradiction_is_offered_the_likeliest_first():
    # The person's code is RRGG; they answered RGBY with nothing (it earns 1 black, 1 white).
    game = ComputerBreaksGame(Ruleset(4, WOM, True, 10))
    game.offer("RGBY")
    game.answer(0, 0)
    game.offer("WWWK")
    game.answer(0, 0)
    analysis = game.think()
    assert analysis.conflict == 0
    assert analysis.blame(game.history) == (
        "Correcting one of the answers to guesses #1 and #2 makes them fit again; only you know which is wrong. "
        "The likeliest: guess #1 scores 1 black, 0 white. Pick one from the list.")
    offered = [(c.index, tuple(c.feedback)) for c in analysis.corrections]
    assert offered[:2] == [(0, (1, 0)), (1, (1, 0))]  # one peg slipped: the likeliest
    assert (0, (1, 1)) in offered  # the truth is among them
    game.apply(analysis)
    assert game.offered == analysis.corrections and game.fixing == 0
    truth = offered.index((0, (1, 1)))
    assert game.take(truth) == Feedback(1, 1) and game.fixing is None and game.offered == ()


def test_the_blame_of_the_report_offers_the_true_answer_not_only_the_one_leaving_most_codes():
    """Code GGYK; #1 was scored 1 black 0 white instead of 0 black 1 white. The old rule blamed #2 alone."""
    game = ComputerBreaksGame(Ruleset(4, WOM, True, 10))
    for guess, (black, white) in (("RRGB", (1, 0)), ("RYYW", (1, 0)), ("KKYB", (1, 1)), ("RKKK", (1, 0))):
        game.offer(guess)
        game.answer(black, white)
    assert feedback("GGYK", "RRGB") == (0, 1) and feedback("GGYK", "RYYW") == (1, 0)
    analysis = game.analyse(game.history, 0)
    offered = [(c.index, tuple(c.feedback)) for c in analysis.corrections]
    assert (0, (0, 1)) in offered and offered.index((0, (0, 1))) < 3
    assert {index for index, _ in offered} == {0, 1, 2, 3}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 5), st.data())
def test_the_corrections_offered_are_exactly_those_that_resolve(seed, n, data):
    ruleset = Ruleset(4, WOM, True, 10)
    rng = random.Random(seed)
    secret = ruleset.random_code(rng)
    history = [(g, feedback(secret, g)) for g in (ruleset.random_code(rng) for _ in range(n))]
    wrong = data.draw(st.integers(0, n - 1))
    black = data.draw(st.integers(0, 4))
    history[wrong] = (history[wrong][0], Feedback(black, data.draw(st.integers(0, 4 - black))))
    offered = corrections(ruleset, history)
    if any(all(feedback(code, g) == fb for g, fb in history) for code in all_codes(ruleset)):
        assert offered == ()
        return
    expected = set()
    codes = list(all_codes(ruleset))
    for index, (guess, was) in enumerate(history):
        # Brute force: every code that fits the other answers earns some answer to this guess.
        others = [*history[:index], *history[index + 1:]]
        earned: dict[Feedback, int] = {}
        for code in codes:
            if all(feedback(code, g) == fb for g, fb in others):
                earned[feedback(code, guess)] = earned.get(feedback(code, guess), 0) + 1
        expected |= {(index, tuple(fb), n) for fb, n in earned.items() if fb != was}
    assert {(c.index, tuple(c.feedback), c.codes[0]) for c in offered} == expected
    assert all(c.codes[1] for c in offered)
    assert (wrong, tuple(feedback(secret, history[wrong][0]))) in {(c.index, tuple(c.feedback)) for c in offered}
    slips = [c.slip for c in offered]
    assert slips == sorted(slips)


def test_equal_answers_are_all_offered():
    game = ComputerBreaksGame(Ruleset(4, WOM, True, 10))
    for guess in ("RRGG", "BBYY", "WWKK"):
        game.offer(guess)
        game.answer(0, 0)
    analysis = game.analyse(game.history, 0)
    assert {c.index for c in analysis.corrections[:3]} == {0, 1, 2}
    assert analysis.blame(game.history).startswith(
        "Correcting one of the answers to guesses #1, #2 and #3 makes them fit again;")


def test_a_correction_offered_survives_writing_and_reading_back():
    game = ComputerBreaksGame(Ruleset(4, WOM, True, 10))
    game.offer("RRGG")
    game.answer(0, 0)
    game.offer("RRGG")
    game.answer(1, 0)
    game.analyse_from = 0
    game.apply(game.think())
    assert game.offered
    again = ComputerBreaksGame.from_json(game.as_json())
    assert again.offered == game.offered and again.fixing == game.fixing


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
