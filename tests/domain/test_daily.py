"""The daily code: derivation from the folder's secret, one attempt, leaderboard, share.

The rules: docs/play.md, *The daily code*.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wom_tui.domain.codes import Feedback
from wom_tui.domain.daily import (
    CLASSIC,
    DIGITS,
    GUEST_REFUSAL,
    SOLO_TITLE,
    DailyAttempt,
    DailyRefused,
    check_can_start,
    daily_code,
    daily_share,
    day_of,
    finished,
    format_wait,
    leaderboard,
    share_text,
    solo_share,
    started,
    until_next,
)

SECRET = bytes(range(32))
DAY = date(2026, 11, 23)


def test_the_code_is_the_same_for_the_same_secret_and_day_and_fits_the_rules():
    for puzzle in (CLASSIC, DIGITS):
        code = daily_code(SECRET, DAY, puzzle)
        assert code == daily_code(SECRET, DAY, puzzle)
        assert puzzle.ruleset.parse(code, secret=True) == code
    assert len(daily_code(SECRET, DAY, CLASSIC)) == 4 and set(daily_code(SECRET, DAY, CLASSIC)) <= set("RGBYWK")
    assert len(daily_code(SECRET, DAY, DIGITS)) == 5 and set(daily_code(SECRET, DAY, DIGITS)) <= set("12345678")


def test_the_code_depends_on_the_secret_not_only_the_date():
    other = bytes(32)
    days = [DAY + timedelta(days=n) for n in range(40)]
    mine = [daily_code(SECRET, d, DIGITS) for d in days]
    theirs = [daily_code(other, d, DIGITS) for d in days]
    assert sum(a != b for a, b in zip(mine, theirs)) >= 35
    assert len(set(mine)) >= 35  # a new code (almost always) every day


def test_symbols_come_out_evenly():
    counts = Counter("".join(daily_code(SECRET, DAY + timedelta(days=n), CLASSIC) for n in range(1500)))
    assert set(counts) == set("RGBYWK")
    assert max(counts.values()) - min(counts.values()) < 250  # 1000 each expected


def test_a_short_secret_is_refused():
    with pytest.raises(ValueError):
        daily_code(b"short", DAY, CLASSIC)


def test_days_are_utc_and_the_wait_runs_to_midnight_utc():
    late = datetime(2026, 11, 23, 23, 30, tzinfo=timezone(timedelta(hours=-5)))  # 04:30 UTC the 24th
    assert day_of(late) == date(2026, 11, 24)
    assert until_next(datetime(2026, 11, 23, 21, 52, 30, tzinfo=timezone.utc)) == timedelta(hours=2, minutes=7, seconds=30)
    assert format_wait(timedelta(hours=2, minutes=7, seconds=30)) == "2 h 07 min"
    assert format_wait(timedelta(minutes=3, seconds=4)) == "3 min 04 s"
    assert format_wait(timedelta(seconds=9)) == "9 s"


def attempt(player: str, *, day: str = "2026-11-23", puzzle: str = "classic", started_at: str = "2026-11-23T08:00:00+00:00"):
    return DailyAttempt(day, puzzle, player, started_at)


def test_one_attempt_per_identity_and_day_started_or_finished():
    attempts = started([], attempt("Alan"))
    with pytest.raises(DailyRefused, match="already started"):
        started(attempts, attempt("alan"))
    attempts = finished(attempts, "2026-11-23", "classic", "ALAN",
                        finished_at="2026-11-23T08:05:00+00:00", guesses=5, broke=True, game_id=None)
    with pytest.raises(DailyRefused, match="already played"):
        check_can_start(attempts, "2026-11-23", "classic", "Alan")
    # Another puzzle, another day and another player are free.
    check_can_start(attempts, "2026-11-23", "digits", "Alan")
    check_can_start(attempts, "2026-11-24", "classic", "Alan")
    check_can_start(attempts, "2026-11-23", "classic", "Ada")


def test_a_guest_cannot_play_the_daily_code():
    with pytest.raises(DailyRefused) as refusal:
        check_can_start([], "2026-11-23", "classic", None)
    assert refusal.value.reason == GUEST_REFUSAL


def test_finishing_needs_an_attempt_under_way():
    with pytest.raises(DailyRefused):
        finished([], "2026-11-23", "classic", "Alan", finished_at="2026-11-23T08:05:00+00:00",
                 guesses=5, broke=True, game_id=None)


def test_the_leaderboard_is_fewest_guesses_then_earliest_finish_then_the_rest():
    rows = []
    for name, guesses, broke, at in [("Cy", 5, True, "09:00"), ("Ada", 4, True, "10:00"), ("Bo", 5, True, "08:00"),
                                     ("Di", 10, False, "07:00"), ("Ed", None, None, None)]:
        rows = started(rows, attempt(name))
        if guesses is not None:
            rows = finished(rows, "2026-11-23", "classic", name, finished_at=f"2026-11-23T{at}:00+00:00",
                            guesses=guesses, broke=broke, game_id=None)
    rows = started(rows, attempt("Fay", day="2026-11-22", started_at="2026-11-22T23:00:00+00:00"))
    board = leaderboard(rows, "2026-11-23", "classic")
    assert [(r.place, r.player, r.result) for r in board] == [
        (1, "Ada", "4/10"), (2, "Bo", "5/10"), (3, "Cy", "5/10"), (None, "Di", "X/10"), (None, "Ed", "did not finish"),
    ]
    assert board[1].time == "08:00:00"


def test_the_share_text_has_pegs_never_symbols():
    results = [Feedback(0, 1), Feedback(1, 2), Feedback(2, 0), Feedback(3, 0), Feedback(4, 0)]
    text = daily_share(DAY, CLASSIC, results, broke=True)
    assert text == "Mastermind daily 2026-11-23 · 4 × Classic · 5/10\n○···\n●○○·\n●●··\n●●●·\n●●●●"
    assert not set(text.split("\n", 1)[1]) & set("RGBYWK12345678")
    assert daily_share(DAY, DIGITS, [Feedback(0, 0)] * 10, broke=False).startswith(
        "Mastermind daily 2026-11-23 · 5 × Digits 1–8 · X/10\n·····"
    )


def test_a_solo_share_shows_lifelines_as_such():
    text = share_text(SOLO_TITLE, [None, Feedback(4, 0)], CLASSIC.ruleset, broke=True)
    assert text == "Mastermind solo · 4 × Classic · 2/10\nlifeline\n●●●●"


def test_a_solo_games_rows_share_without_their_symbols():
    rows = [("LIFELINE", Feedback(0, 0)), ("LIFELINE", Feedback(0, 0)), ("RGBY", Feedback(1, 1)), ("RRRR", Feedback(0, 0))]
    text = solo_share(CLASSIC.ruleset, rows, broke=False)
    assert text == "Mastermind solo · 4 × Classic · X/10\nlifeline\nlifeline\n●○··\n····"


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)).filter(lambda p: sum(p) <= 4), min_size=1, max_size=10))
def test_every_grid_line_is_as_long_as_the_code(pairs):
    text = daily_share(DAY, CLASSIC, [Feedback(*p) for p in pairs], broke=False)
    lines = text.split("\n")
    assert len(lines) == len(pairs) + 1
    for (black, white), row in zip(pairs, lines[1:]):
        assert len(row) == 4 and row.count("●") == black and row.count("○") == white


def test_attempts_read_back_strictly():
    good = attempt("Alan").as_json()
    assert DailyAttempt.from_json(good) == attempt("Alan")
    for bad in ({**good, "puzzle": "nope"}, {**good, "guesses": 3}, {**good, "day": "yesterday"},
                {**good, "finished_at": "2026-11-23T09:00:00+00:00", "guesses": 0, "broke": True}, {"day": 1}):
        with pytest.raises((ValueError, TypeError)):
            DailyAttempt.from_json(bad)


# ---- sealed until the day is over everywhere (docs/play.md, *The daily code*)

from wom_tui.domain.daily import is_over, last_over, over_everywhere, sealed_until  # noqa: E402

_dt, _td, _tz = datetime, timedelta, timezone


def test_a_day_is_over_everywhere_when_it_ends_at_utc_minus_12():
    assert over_everywhere("2026-11-23") == _dt(2026, 11, 24, 12, tzinfo=_tz.utc)
    assert not is_over("2026-11-23", _dt(2026, 11, 24, 11, 59, 59, tzinfo=_tz.utc))
    assert is_over("2026-11-23", _dt(2026, 11, 24, 12, tzinfo=_tz.utc))
    assert last_over(_dt(2026, 11, 24, 12, tzinfo=_tz.utc)).isoformat() == "2026-11-23"
    assert last_over(_dt(2026, 11, 24, 11, 59, tzinfo=_tz.utc)).isoformat() == "2026-11-22"


@given(st.datetimes(min_value=_dt(2000, 1, 1), max_value=_dt(2100, 1, 1)), st.integers(0, 200_000))
def test_a_daily_game_is_sealed_from_everyone_but_its_player_until_its_day_is_over(finished, later):
    finished = finished.replace(tzinfo=_tz.utc)
    now = finished + _td(seconds=later)
    stamp = finished.isoformat()
    until = sealed_until("daily", "Ada", stamp, "Bob", now)
    end = over_everywhere(finished.date())
    assert until == (end if now < end else None)
    assert sealed_until("daily", "Ada", stamp, None, now) == until  # nobody proven: sealed as for Bob
    assert sealed_until("daily", "Ada", stamp, "aDA", now) is None  # its player, in any case
    assert sealed_until("solo", "Ada", stamp, "Bob", now) is None


def test_one_attempt_per_key_and_puzzle_and_day():
    key = "SHA256:" + "A" * 43
    attempts = started([], DailyAttempt("2026-11-23", "classic", "Main", "2026-11-23T08:00:00+00:00", key=key))
    with pytest.raises(DailyRefused, match="This key already played"):
        started(attempts, DailyAttempt("2026-11-23", "classic", "Alt", "2026-11-23T09:00:00+00:00", key=key))
    check_can_start(attempts, "2026-11-23", "classic", "Alt")  # on one machine: no key
    check_can_start(attempts, "2026-11-23", "digits", "Alt", key)
    check_can_start(attempts, "2026-11-24", "classic", "Alt", key)
    with pytest.raises(DailyRefused, match="can no longer be started"):
        started([], DailyAttempt("2026-11-23", "classic", "Alt", "2026-11-24T00:00:00+00:00"))
    with pytest.raises(DailyRefused, match="over everywhere"):
        finished(attempts, "2026-11-23", "classic", "Main", finished_at="2026-11-24T12:00:00+00:00",
                 guesses=2, broke=True, game_id=None)


def test_a_variants_share_names_the_variant_and_shows_each_boards_pegs_never_a_symbol():
    import random

    from wom_tui.domain.daily import VARIANT_PUZZLES, variant_share
    from wom_tui.domain.variant_game import daily_variant_game
    from wom_tui.domain.variants import Variant

    game = daily_variant_game(b"s" * 32, date(2026, 11, 23), Variant.QUAD, CLASSIC.ruleset)
    rng = random.Random(1)
    while not game.over:
        game.guess(game.computer_guess("expert", rng))
    rows = [row.answers for row in game.rows]
    text = variant_share("Mastermind daily 2026-11-23", VARIANT_PUZZLES["quad"].title, rows, game.ruleset, game.won)
    head, *grid = text.splitlines()
    assert game.won and head == f"Mastermind daily 2026-11-23 · Quad, 4 × Classic · {game.guesses_used}/9"
    assert len(grid) == game.guesses_used and all(len(line) <= 4 * 4 + 3 for line in grid)
    assert not set("".join(grid)) - set("●○· "), "key pegs only"
    assert grid[-1].endswith("●●●●") and "".join(grid).count("●●●●") == 4, "each board broken once, then blank"
    assert grid[-1].startswith(" "), "a board broken before the last guess is blank on its line"
