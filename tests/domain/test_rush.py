"""Rush's rules (wom_tui/domain/rush.py): the clock, the run's bonuses, the lost code's penalty, the score."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wom_tui.domain.game import Status
from wom_tui.domain.rush import (
    LOST_PENALTY, RUSH_ATTEMPTS, RUSH_SECONDS, RushGame, RushRefused, RushScore, next_bonus, run_bonus,
)


def answer(game: RushGame) -> str:
    return game._code(len(game.codes))  # the code being broken (the test peeks)


def test_a_rush_transcript_breaks_runs_bonuses_and_a_lost_code() -> None:
    game = RushGame(7)
    assert game.time_left(0.0) == RUSH_SECONDS and game.deadline() is None  # the clock waits for a guess
    first = answer(game)
    move = game.guess("RRRR" if first != "RRRR" else "GGGG", 10.0)
    assert game.deadline() == 10.0 + RUSH_SECONDS and not move.broke
    move = game.guess(first, 20.0)
    assert move.broke and move.code == first and move.seconds == 0.0  # a run of 1: no bonus yet
    move = game.guess(answer(game), 30.0)
    assert move.broke and move.seconds == 15.0 and game.time_left(30.0) == RUSH_SECONDS + 15.0 - 20.0
    assert next_bonus(game.run) == (4, 20.0)
    move = game.skip(40.0)
    assert move.lost and move.seconds == -LOST_PENALTY and game.run == 0 and game.best_run == 2
    wrong = "RRRR" if answer(game) != "RRRR" else "GGGG"
    for _ in range(RUSH_ATTEMPTS - 1):
        assert not game.guess(wrong, 50.0).lost
    assert game.guess(wrong, 50.0).lost  # out of guesses: lost, −10 s
    assert game.score() == RushScore(2, 2 + 1 + RUSH_ATTEMPTS, 2)
    left = game.time_left(60.0)
    assert left == RUSH_SECONDS + 15.0 - 20.0 - 50.0
    with pytest.raises(RushRefused, match="Only R, G, B, Y, W and K"):
        game.guess("RGBO", 61.0)
    with pytest.raises(RushRefused, match="Time is up"):
        game.guess("RGBY", 60.0 + left)
    assert game.status(1000.0) == Status.FINISHED and game.ended_at == 10.0 + RUSH_SECONDS + 15.0 - 20.0


def test_skip_before_the_clock_starts_is_refused() -> None:
    with pytest.raises(RushRefused, match="first"):
        RushGame(1).skip(0.0)


def test_bonuses_are_the_storm_like_steps() -> None:
    assert [run_bonus(n) for n in range(1, 13)] == [0, 15, 0, 20, 0, 25, 0, 30, 0, 30, 0, 30]


def test_the_codes_follow_from_the_seed() -> None:
    assert answer(RushGame(3)) == answer(RushGame(3))
    assert len({answer(RushGame(s)) for s in range(20)}) > 5


def test_scores_compare_codes_then_guesses() -> None:
    assert RushScore(5, 30, 3).beats(RushScore(4, 10, 4)) and RushScore(5, 29, 1).beats(RushScore(5, 30, 5))
    assert not RushScore(5, 30, 1).beats(RushScore(5, 30, 1)) and RushScore(0, 0, 0).beats(None)
    with pytest.raises(ValueError):
        RushScore.from_json({"broken": -1, "guesses": 0, "best_run": 0})


@settings(max_examples=100)
@given(st.integers(0, 10**6), st.lists(st.tuples(st.sampled_from(["right", "wrong", "skip", "bad"]),
                                                 st.floats(0, 30)), max_size=60))
def test_properties_of_any_rush(seed: int, steps: list[tuple[str, float]]) -> None:
    game, now = RushGame(seed), 0.0
    for kind, wait in steps:
        now += wait
        before = (game.bonus, game.score(), game.time_left(now))
        try:
            if kind == "right":
                game.guess(answer(game), now)
            elif kind == "wrong":
                game.guess("RRRR" if answer(game) != "RRRR" else "GGGG", now)
            elif kind == "skip":
                game.skip(now)
            else:
                game.guess("RG", now)
        except RushRefused:
            assert (game.bonus, game.score()) == before[:2]  # a refusal changes nothing
        # The clock only moves by the rules: bonuses and penalties add up from the codes.
        expected = sum(-LOST_PENALTY if not broke else 0.0 for _, broke, _ in game.codes)
        run, bonus = 0, 0.0
        for _, broke, _ in game.codes:
            run = run + 1 if broke else 0
            bonus += run_bonus(run) if broke else 0.0
        assert game.bonus == expected + bonus
        again = RushGame.from_json(json.loads(json.dumps(game.as_json())))
        assert again.as_json() == game.as_json() and again.score() == game.score()
        assert again.bonus == game.bonus and again.run == game.run
