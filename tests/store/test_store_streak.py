"""One player's daily attempts, read for the streak, on both backends."""

from __future__ import annotations

from datetime import date, timedelta

from wom_tui.domain.daily import DailyAttempt, streak


def start_and_finish(store, player: str, day: date, broke: bool, puzzle: str = "classic") -> None:
    stamp = day.isoformat()
    store.start_daily(DailyAttempt(stamp, puzzle, player, f"{stamp}T08:00:00+00:00"))
    store.finish_daily(stamp, puzzle, player, finished_at=f"{stamp}T08:05:00+00:00", guesses=5, broke=broke,
                       game_id=None)


def test_a_players_attempts_are_read_alone_oldest_day_first_across_a_year_end(store_factory):
    store = store_factory()
    first = date(2025, 12, 30)
    for n in range(4):  # 30 December to 2 January, in a shuffled order
        start_and_finish(store, "Alan", first + timedelta(days=(n * 3) % 4), True)
    start_and_finish(store, "Betty", first, False)
    start_and_finish(store, "Alan", first + timedelta(days=1), False, "digits")
    store.start_daily(DailyAttempt("2026-01-03", "classic", "Alan", "2026-01-03T07:00:00+00:00"))  # left, unfinished
    mine = store_factory().daily_attempts_of("ALAN")
    assert [(a.day, a.puzzle) for a in mine] == [
        ("2025-12-30", "classic"), ("2025-12-31", "classic"), ("2025-12-31", "digits"), ("2026-01-01", "classic"),
        ("2026-01-02", "classic"), ("2026-01-03", "classic")]
    assert {a.player for a in mine} == {"Alan"}
    assert store.daily_attempts_of("Nobody") == []
    # Today's attempt, started and left, is spent: lost, it ends the streak (issue 35's daily item, docs/play.md).
    assert (streak(mine, "classic", "2026-01-03").current, streak(mine, "classic", "2026-01-03").best) == (0, 4)
    assert (streak(mine, "classic", "2026-01-04").current, streak(mine, "classic", "2026-01-04").best) == (0, 4)
