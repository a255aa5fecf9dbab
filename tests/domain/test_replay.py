"""Replays: stepping guess by guess, every board, and the coach's count (docs/play.md, *My stats and replays*)."""

from __future__ import annotations

from wom_tui.domain.codes import DIGITS10, WOM, Feedback, Ruleset, feedback
from wom_tui.domain.records import GameRecord, PlayerRecord
from wom_tui.domain.replay import Replay, remaining_text
from wom_tui.domain.strategies import all_codes, is_consistent

R5 = Ruleset(4, WOM, True, 5)


def played(secret: str, guesses: list[str], ruleset: Ruleset) -> tuple[tuple[str, Feedback], ...]:
    return tuple((g, feedback(secret, g)) for g in guesses)


def wom_record() -> GameRecord:
    alan = played("RGYB", ["RGBY", "RGYB"], R5)
    hal = played("BYWR", ["RRGG", "BBYY", "WWKK", "BYWK", "BYWW"], R5)
    return GameRecord("wom", R5, (
        PlayerRecord("Alan", True, True, 2, alan, 4, 5),
        PlayerRecord("HAL9000", False, False, 5, hal, 0, 0),
    ), "2026-11-23T10:00:00+00:00")


def test_stepping_shows_each_board_as_it_was_and_stops_at_both_ends():
    replay = Replay(wom_record())
    # Every replay opens before the first guess, whatever its kind.
    assert len(replay.boards) == 2 and replay.rounds == 5 and replay.step == 0
    assert replay.title() == "Before the first guess · 5 rounds"
    assert [len(replay.rows(b)) for b in (0, 1)] == [0, 0]
    assert replay.forward() and replay.step == 1
    assert [len(replay.rows(b)) for b in (0, 1)] == [1, 1]
    assert replay.forward() and replay.step == 2
    assert replay.broke_by(0) and not replay.broke_by(1)
    for _ in range(10):
        replay.forward()
    assert replay.step == 5 and not replay.forward()
    assert [len(replay.rows(b)) for b in (0, 1)] == [2, 5]  # Alan stopped once broken
    replay.go_to(-3)
    assert replay.step == 0 and replay.rows(0) == () and not replay.back()
    assert replay.title().startswith("Before the first guess")
    replay.go_to(3)
    assert replay.title() == "Round 3 of 5"


def test_the_count_is_the_number_of_codes_that_still_fit():
    replay = Replay(wom_record())
    for board in (0, 1):
        history = [(g, fb) for g, fb in replay.boards[board].guesses]
        for n in range(1, len(history) + 1):
            expected = sum(1 for code in all_codes(R5) if is_consistent(code, history[:n]))
            assert replay.count_after(board, n) == (expected, True)
    assert replay.count_after(0, 2) == (1, True)  # broken: only the code itself fits
    assert replay.count_after(0, 0) is None


def test_counts_are_computed_once_and_lifelines_are_skipped():
    calls = []

    def counter(ruleset, history, clues):
        calls.append(list(history))
        return (len(history), True)

    ruleset = Ruleset(4, DIGITS10, True, 10)
    guesses = (("1234", Feedback(1, 0)), ("LIFELINE", Feedback(0, 0)), ("LIFELINE", Feedback(0, 0)), ("5678", Feedback(4, 0)))
    record = GameRecord("solo", ruleset, (PlayerRecord("Guest", False, True, 4, guesses),))
    replay = Replay(record, counter)
    replay.go_to(4)
    assert replay.counts_now() == [(2, True)]
    assert replay.rows(0)[1].is_lifeline
    replay.counts_now()
    assert calls == [[("1234", Feedback(1, 0)), ("5678", Feedback(4, 0))]]


def test_a_solo_replay_opens_before_the_first_guess_and_says_what_each_lifeline_revealed():
    from wom_tui.domain.clues import Clue

    ruleset = Ruleset(4, DIGITS10, True, 10)
    guesses = (("1234", Feedback(1, 0)), ("LIFELINE", Feedback(0, 0)), ("LIFELINE", Feedback(0, 0)),
               ("LIFELINE", Feedback(0, 0)), ("5678", Feedback(4, 0)))
    record = GameRecord("solo", ruleset, (PlayerRecord("Guest", False, True, 5, guesses,
                                                       clues=((1, Clue("5", 0)), (3, Clue("8"))),),))
    replay = Replay(record)
    assert replay.step == 0 and replay.title() == "Before the first guess · 5 rounds"
    replay.go_to(5)
    assert [row.lifeline_text for row in replay.rows(0)] == [
        "", "LIFELINE: 5 at position 1", "LIFELINE (cont.)", "LIFELINE: contains 8", ""]
    # The count after the lifelines uses what they told.
    expected = sum(1 for code in all_codes(ruleset)
                   if is_consistent(code, [guesses[0]]) and code[0] == "5" and "8" in code)
    assert replay.count_after(0, 4) == (expected, True)


def test_a_flip_game_shows_only_the_computers_board():
    ruleset = Ruleset(4, WOM, True, 10)
    record = GameRecord("flip", ruleset, (
        PlayerRecord("Alan", True, False, 0, ()),
        PlayerRecord("HAL9000", False, True, 2, played("RGBY", ["RRGG", "RGBY"], ruleset)),
    ))
    assert [p.name for p in Replay(record).boards] == ["HAL9000"]


def test_remaining_text():
    assert remaining_text((1, True)) == "1 code still possible"
    assert remaining_text((12345, False)) == "about 12,345 codes still possible"
    assert remaining_text(None) == ""


def test_a_live_tables_replay_shows_every_board_also_of_a_seat_that_left_before_guessing():
    from wom_tui.domain.table import FINISHED

    from .test_table import ALAN, BEA, running

    t = running(BEA, codes={"Alan": "RGBY", "Bea": "KKWW"})
    t.guess(ALAN, "KKWW", 1.0)  # Alan breaks Bea's code at once
    t.leave(BEA, 2.0)  # Bea leaves before her first guess: the game ends
    assert t.phase == FINISHED
    replay = Replay(t.record(registered={"alan", "bea"}), counter=lambda ruleset, history: (1, True))
    assert [board.name for board in replay.boards] == ["Alan", "Bea"]
    replay.go_to(replay.rounds)
    assert replay.rows(1) == () and not replay.broke_by(1)
    assert [row.guess for row in replay.rows(0)] == ["KKWW"] and replay.broke_by(0)
    # Bea's code, never broken, shows at the end; Alan's broken one is his last guess (issue 35 item 17).
    assert replay.secret_shown(1) == (True, "RGBY") and replay.secret_shown(0) == (False, None)
    assert replay.secret_shown(1, step=0) == (False, None)


def test_an_unbroken_code_shows_once_its_board_is_over_and_an_older_record_says_it_was_not_kept():
    from wom_tui.domain.codes import WOM_RULESET

    hal = PlayerRecord("HAL9000", False, False, 3, (("RRGG", Feedback(0, 0)),) * 3, secret="BYWK")
    alan = PlayerRecord("Alan", True, False, 1, (("RGBY", Feedback(0, 1)),), secret="KKWW")
    replay = Replay(GameRecord("wom", WOM_RULESET, (alan, hal)), counter=lambda ruleset, history, clues: (1, True))
    assert [replay.secret_shown(b, step=1) for b in (0, 1)] == [(True, "KKWW"), (False, None)]
    assert replay.secret_shown(1, step=3) == (True, "BYWK")
    older = Replay(GameRecord("wom", WOM_RULESET, (PlayerRecord("Alan", True, False, 1, alan.guesses),)))
    assert older.secret_shown(0, step=1) == (True, None)
    solo = Replay(GameRecord("solo", WOM_RULESET, (alan,)))
    assert solo.secret_shown(0, step=1) == (False, None)
