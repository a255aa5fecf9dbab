"""Everything a solo player was told counts: the lifelines' clues as much as the answers.

The coach, a replay and the record all count the codes that fit every answer *and* every clue
(docs/play.md, *Solo: break the computer's code*); checked against brute force over every code.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wom_tui.domain.clues import Clue, all_hold
from wom_tui.domain.codes import DIGITS10, WOM, Ruleset, feedback
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.domain.replay import Replay
from wom_tui.domain.solo import LifelinePolicy, SoloGame
from wom_tui.domain.store.documents import check_game_json
from wom_tui.domain.strategies import all_codes, count_consistent, is_consistent
from wom_tui.domain.strategies import space

SMALL = (Ruleset(4, WOM, True, 10), Ruleset(4, WOM, False, 10), Ruleset(5, WOM, True, 10))


def brute_force(ruleset: Ruleset, history, clues) -> int:
    """Every code the ruleset allows that gives every answer and agrees with every clue."""
    return sum(1 for code in all_codes(ruleset)
               if all(feedback(code, g) == fb for g, fb in history) and all_hold(code, clues))


moves = st.lists(st.one_of(st.just("F2"), st.just("F3"), st.integers(0, 10**6)), max_size=8)


def play(game: SoloGame, plan, ruleset: Ruleset) -> None:
    """Guesses and lifelines in the order planned, as a player would (refused lifelines cost nothing)."""
    for move in plan:
        if game.over:
            return
        if move == "F2":
            game.lifeline(1)
        elif move == "F3":
            game.lifeline(2)
        else:
            game.guess(ruleset.random_code(random.Random(move)))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SMALL), st.integers(0, 10**6), moves, st.sampled_from(list(LifelinePolicy)))
def test_the_coach_counts_what_fits_every_answer_and_every_clue(ruleset, seed, plan, policy):
    rng = random.Random(seed)
    game = SoloGame(ruleset, ruleset.random_code(rng), rng, policy)
    play(game, plan, ruleset)
    for rows in range(1, game.guesses_used + 1):
        if game.history[rows - 1].is_lifeline:
            continue
        after, clues = game.known_after(rows)
        before, _ = game.known_after(rows - 1)
        expected = brute_force(ruleset, after, clues)
        count = f"{expected:,} codes remain possible." if expected != 1 else "1 code remains possible."
        line = game.coach_line(rows)
        assert line.endswith(count), (line, expected)
        guess = game.history[rows - 1].guess
        could = is_consistent(guess, before) and all(c.holds(guess) for c in clues)
        assert ("could have been the code" in line) == could
    # The record keeps the clues, and a replay counts with them at every step.
    if game.over:
        record = check_game_json(game.record().as_json())
        replay = Replay(record)
        player = replay.boards[0] if replay.boards else None
        for step in range(1, replay.rounds + 1):
            rows_now = player.guesses[:step]
            history = [(g, fb) for g, fb in rows_now if g != "LIFELINE"]
            assert replay.count_after(0, step) == (brute_force(ruleset, history, player.clues_before(step)), True)


def test_the_count_of_the_report_contains_0_and_0_at_position_3():
    """After "contains 0" and "0 at position 3" on 4 digits, only codes with 0 third fit."""
    ruleset = Ruleset(4, DIGITS10, True, 10)
    for seed in range(100):  # the first seed whose lifelines tell what the player in the report was told
        game = SoloGame(ruleset, "5304", random.Random(seed), LifelinePolicy.EACH_ONCE)
        if game.lifeline(1).message == "The code contains 0." and game.lifeline(2).message == (
                "The code has 0 at position 3."):
            break
    game.guess("1122")
    game.guess("3456")
    _, clues = game.known_after(game.guesses_used)
    assert game.coach_line(game.guesses_used).endswith(
        f"{brute_force(ruleset, game.known_after(game.guesses_used)[0], clues):,} codes remain possible.")
    # Without the clues the count would be larger: the clues narrow it.
    without = count_consistent(ruleset, game.known_after(game.guesses_used)[0])[0]
    assert brute_force(ruleset, game.known_after(game.guesses_used)[0], clues) < without


@pytest.mark.parametrize("ruleset", SMALL)
def test_the_halves_join_agrees_with_brute_force_when_there_are_clues(ruleset, monkeypatch):
    """Spaces too big to list are joined from halves: a revealed position narrows its half."""
    monkeypatch.setattr(space, "ENUM_LIMIT", 0)
    rng = random.Random(5)
    for _ in range(12):
        secret = ruleset.random_code(rng)
        history = [(g, feedback(secret, g)) for g in (ruleset.random_code(rng) for _ in range(rng.randint(0, 2)))]
        position = rng.randrange(ruleset.length)
        clues = [Clue(secret[position], position), Clue(rng.choice(secret))]
        assert count_consistent(ruleset, history, clues) == (brute_force(ruleset, history, clues), True)


def test_a_clue_as_json_and_in_a_record():
    ruleset = Ruleset(4, DIGITS10, True, 10)
    rows = (("LIFELINE", (0, 0)), ("1234", (4, 0)))
    data = GameRecord("solo", ruleset, (PlayerRecord("Guest", False, True, 2, ()),)).as_json()
    data["players"][0]["guesses"] = [[g, b, w] for g, (b, w) in rows]
    data["players"][0]["clues"] = [[0, "1", None]]
    record = check_game_json(data)
    assert record.players[0].clue_at(0) == Clue("1")
    data["players"][0]["clues"] = [[1, "1", None]]  # a clue on a row that was a guess
    with pytest.raises(ValueError):
        check_game_json(data)
    data["players"][0]["clues"] = [[0, "x", None]]  # not a symbol of the palette
    with pytest.raises(ValueError):
        check_game_json(data)
    data["players"][0]["clues"] = [[0, "11", None]]  # not one symbol
    with pytest.raises(ValueError, match="a clue must be"):
        check_game_json(data)
    assert PlayerRecord.from_json(record.players[0].as_json()) == record.players[0]  # Clue.as_json read back
