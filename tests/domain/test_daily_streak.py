"""The daily streak: current and best runs of codes broken on consecutive days, and the last 30 days' marks."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from wom_tui.domain.codes import Feedback
from wom_tui.domain.daily import CLASSIC, HISTORY_DAYS, DailyAttempt, DayMark, daily_share, streak

OUTCOMES = ("broke", "lost", "left", "missed")


def attempt(day: date, outcome: str, puzzle: str = "classic") -> DailyAttempt:
    started = f"{day.isoformat()}T09:00:00+00:00"
    if outcome == "left":
        return DailyAttempt(day.isoformat(), puzzle, "Alan", started)
    return DailyAttempt(day.isoformat(), puzzle, "Alan", started, f"{day.isoformat()}T09:05:00+00:00",
                        4 if outcome == "broke" else 10, outcome == "broke", None)


def played(start: date, outcomes: list[str]) -> list[DailyAttempt]:
    return [attempt(start + timedelta(days=n), outcome) for n, outcome in enumerate(outcomes) if outcome != "missed"]


def test_a_streak_runs_across_the_end_of_a_month_and_a_year():
    year_end = played(date(2025, 12, 29), ["broke"] * 6)  # 29 December to 3 January
    assert streak(year_end, "classic", "2026-01-03").current == 6
    month_end = played(date(2028, 2, 27), ["broke"] * 4)  # through a leap day into March
    assert (streak(month_end, "classic", "2028-03-01").current, streak(month_end, "classic", "2028-03-01").best) == (4, 4)


def test_today_still_to_play_keeps_yesterdays_streak_and_a_missed_day_ends_it():
    attempts = played(date(2026, 3, 1), ["broke", "broke", "broke"])
    assert streak(attempts, "classic", "2026-03-04").current == 3  # today not played yet
    assert streak(attempts, "classic", "2026-03-04").history[-1] is DayMark.TO_PLAY
    after_a_gap = streak(attempts, "classic", "2026-03-05")
    assert (after_a_gap.current, after_a_gap.best) == (0, 3)
    assert after_a_gap.history[-2:] == (DayMark.MISSED, DayMark.TO_PLAY)


def test_a_code_not_broken_or_an_attempt_left_ends_the_streak():
    assert streak(played(date(2026, 3, 1), ["broke", "broke", "lost"]), "classic", "2026-03-03").current == 0
    left_yesterday = played(date(2026, 3, 1), ["broke", "broke", "left"])
    assert streak(left_yesterday, "classic", "2026-03-04").current == 0
    assert streak(left_yesterday, "classic", "2026-03-04").history[-2] is DayMark.NOT_BROKEN
    # Today's attempt started and left is spent (no second try): it ends the streak today, marked ×.
    left_today = streak(left_yesterday, "classic", "2026-03-03")
    assert (left_today.current, left_today.best, left_today.history[-1]) == (0, 2, DayMark.NOT_BROKEN)


def test_other_puzzles_and_days_after_today_do_not_count():
    attempts = [*played(date(2026, 3, 1), ["broke", "broke"]), attempt(date(2026, 3, 3), "broke", "digits"),
                attempt(date(2026, 3, 9), "broke")]
    result = streak(attempts, "classic", "2026-03-03")
    assert (result.current, result.best) == (2, 2)
    assert streak(attempts, "digits", "2026-03-03").current == 1


def test_the_history_is_the_last_thirty_days_with_today_last():
    today = date(2026, 1, 10)
    result = streak(played(today - timedelta(days=39), ["broke"] * 38 + ["lost"]), "classic", today)
    assert len(result.history) == HISTORY_DAYS == len(result.marks)
    assert result.marks == "■" * 28 + "×○"
    assert (result.current, result.best) == (0, 38)


def test_the_share_line_says_the_streak():
    text = daily_share("2026-11-23", CLASSIC, [Feedback(1, 1), Feedback(4, 0)], True,
                       streak(played(date(2026, 11, 21), ["broke"] * 3), "classic", "2026-11-23"))
    assert text.splitlines()[0] == "Mastermind daily 2026-11-23 · 4 × Classic · 2/10 · streak 3"
    assert daily_share("2026-11-23", CLASSIC, [Feedback(4, 0)], True).splitlines()[0].endswith("1/10")


def model(outcomes: list[str], today_index: int) -> tuple[int, int]:
    """Current and best counted the slow way: day by day."""
    won = [outcome == "broke" for outcome in outcomes[: today_index + 1]]
    best = run = 0
    for day_won in won:
        run = run + 1 if day_won else 0
        best = max(best, run)
    current, index = 0, today_index
    if outcomes[today_index] == "missed":
        index -= 1  # today still to play: counted from yesterday
    while index >= 0 and won[index]:
        current, index = current + 1, index - 1
    return current, best


@given(
    start=st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 1, 1)),
    outcomes=st.lists(st.sampled_from(OUTCOMES), min_size=1, max_size=120),
    data=st.data(),
)
def test_current_and_best_agree_with_counting_day_by_day(start, outcomes, data):
    today_index = data.draw(st.integers(0, len(outcomes) - 1))
    today = start + timedelta(days=today_index)
    result = streak(played(start, outcomes), "classic", today)
    assert (result.current, result.best) == model(outcomes, today_index)
    assert 0 <= result.current <= result.best
    assert len(result.history) == HISTORY_DAYS
    shown = {day: outcome for day, outcome in ((start + timedelta(days=n), o) for n, o in enumerate(outcomes))}
    for back, mark in enumerate(reversed(result.history)):
        outcome = shown.get(today - timedelta(days=back), "missed")
        expected = {"broke": DayMark.BROKE, "lost": DayMark.NOT_BROKEN, "left": DayMark.NOT_BROKEN,
                    "missed": DayMark.MISSED}[outcome]
        if back == 0 and outcome == "missed":
            expected = DayMark.TO_PLAY
        assert mark is expected


@given(start=st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 1, 1)), run=st.integers(1, 400))
def test_a_run_of_broken_days_is_as_long_as_its_days_whatever_months_it_crosses(start, run):
    attempts = played(start, ["broke"] * run)
    today = start + timedelta(days=run - 1)
    assert (streak(attempts, "classic", today).current, streak(attempts, "classic", today).best) == (run, run)
    assert streak(attempts, "classic", today + timedelta(days=2)).current == 0
