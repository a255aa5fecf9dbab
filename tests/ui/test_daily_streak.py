"""The daily screen and the share line show the player's streak and the last 30 days."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
from textual.widgets import Static

from wom_tui.domain.daily import CLASSIC, DailyAttempt, daily_code, day_of
from wom_tui.screens.daily import DailyGameScreen, DailyScreen
from wom_tui.widgets.player_select import PlayerChoice

from .conftest import wait_for
from .screen_text import screen_lines
from .test_stats_replays_daily import open_daily

SIZES = [(80, 24), (60, 20)]


def played(store, player: str, day: date, broke: bool, puzzle: str = "classic") -> None:
    stamp = day.isoformat()
    store.start_daily(DailyAttempt(stamp, puzzle, player, f"{stamp}T08:00:00+00:00"))
    store.finish_daily(stamp, puzzle, player, finished_at=f"{stamp}T08:05:00+00:00", guesses=4, broke=broke,
                       game_id=None)


def streak_shown(app) -> str:
    return str(app.screen.query_one("#daily-streak", Static).render())


@pytest.mark.parametrize("size", SIZES)
async def test_the_daily_screen_shows_the_streak_and_breaking_today_extends_it_in_the_share_line(
        store, app, size):
    store.register("Alan")
    store.register("Betty")
    today = day_of(datetime.now(timezone.utc))
    for back in (6, 5, 4):  # three in a row, then a code not broken, a missed day, and two in a row
        played(store, "Alan", today - timedelta(days=back), True)
    played(store, "Alan", today - timedelta(days=3), False)
    for back in (2, 1):
        played(store, "Alan", today - timedelta(days=back), True)
    played(store, "Alan", today - timedelta(days=1), False, "digits")  # the other puzzle has its own streak
    played(store, "Betty", today - timedelta(days=1), True)
    code = daily_code(store.daily_secret(), today, CLASSIC)
    async with app.run_test(size=size) as pilot:
        await open_daily(pilot, "Alan")
        await wait_for(pilot, lambda: "Streak 2 · best 3" in streak_shown(app))
        assert streak_shown(app).splitlines()[1].startswith("·" * 23 + "■■■×■■○")
        assert any("Streak 2 · best 3" in line for line in screen_lines(app)), "the streak is on screen"
        assert any("·■■■×■■○" in line for line in screen_lines(app)), "the 30 days fit the screen"
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, DailyGameScreen))
        await pilot.press(*code.lower(), "enter")
        await wait_for(pilot, lambda: app.screen.share_text is not None)
        assert app.screen.share_text.splitlines()[0] == f"Mastermind daily {today.isoformat()} · 4 × Classic · 1/10 · streak 3"
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, DailyScreen) and "Streak 3" in streak_shown(app))
        assert streak_shown(app).splitlines()[1].startswith("·" * 23 + "■■■×■■■")


async def test_a_guest_sees_no_streak_and_another_player_sees_their_own(store, app):
    store.register("Alan")
    store.register("Betty")
    played(store, "Betty", day_of(datetime.now(timezone.utc)) - timedelta(days=1), True)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_daily(pilot, None)
        assert not app.screen.query_one("#daily-streak").display
        app.screen.query_one("#daily-player", PlayerChoice).value = "Betty"
        await wait_for(pilot, lambda: "Streak 1 · best 1" in streak_shown(app))
        app.screen.query_one("#daily-player", PlayerChoice).value = "Alan"
        await wait_for(pilot, lambda: "Streak 0 · best 0" in streak_shown(app))
