"""Today's daily code started and left: the day shows × (the attempt is spent), the Play button is gone and
a second p says why on the screen; the streak's legend names every mark it shows, ○ too (issue 35, item 13)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from textual.widgets import Button

from wom_tui.domain.daily import day_of
from wom_tui.screens.confirm import ConfirmScreen
from wom_tui.screens.daily import DailyGameScreen, DailyScreen

from .conftest import wait_for
from .screen_text import screen_lines
from .test_daily_streak import played, streak_shown
from .test_stats_replays_daily import a_wrong_guess, open_daily, text_of, today


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_a_left_attempt_is_marked_lost_and_play_is_not_offered(store, app, size):
    store.register("Alan")
    played(store, "Alan", day_of(datetime.now(timezone.utc)) - timedelta(days=1), True)
    async with app.run_test(size=size) as pilot:
        await open_daily(pilot, "Alan")
        await wait_for(pilot, lambda: "Streak 1" in streak_shown(app))
        marks, legend = streak_shown(app).splitlines()[1:3]
        assert marks.endswith("■○") and "○ to play" in legend, "today's mark is in the legend"
        assert any("○ to play" in line for line in screen_lines(app)), "the legend fits the screen"
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, DailyGameScreen))
        await pilot.press(*a_wrong_guess(store), "enter")
        await wait_for(pilot, lambda: store.daily_attempts_on(today()))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, DailyScreen))
        screen = app.screen
        await wait_for(pilot, lambda: "no second try" in text_of(app, "#daily-status"))
        assert streak_shown(app).splitlines()[1].endswith("■×"), "today: spent, not still to play"
        assert "Streak 0 · best 1" in streak_shown(app)
        assert not screen.query_one("#daily-play", Button).display, "no Play button for a spent attempt"
        assert "p Play" not in screen_lines(app)[-1], "nor a p key in the footer"
        await pilot.press("p")  # one key too many: it says why, on the screen
        await wait_for(pilot, lambda: any("already started" in str(n.message) for n in app._notifications))
        assert isinstance(app.screen, DailyScreen) and len(store.daily_attempts_on(today())) == 1
