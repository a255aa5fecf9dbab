"""A retired name disappears from the scoreboard and the lists of players; where a game must name it (a replay,
the hall of fame) it reads "retired player". Its records stay."""

from __future__ import annotations

from datetime import datetime, timezone

from textual.widgets import DataTable

from wom_tui.domain.halloffame import HallEntry
from wom_tui.domain.users import User
from wom_tui.screens.replay import ReplayScreen, ReplaysScreen
from wom_tui.screens.scoreboard import ScoreboardScreen
from wom_tui.widgets.player_select import PlayerChoice

from .conftest import wait_for
from .screen_text import screen_lines
from .test_shell import board_rows, seed_users
from .test_stats_replays_daily import R5, breaker

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc)


async def test_the_scoreboard_and_the_hall_leave_a_retired_name_out(make_app, store):
    from wom_tui.domain.codes import WOM_RULESET

    seed_users(store, User("Alan", 25, 3), User("Grace", 40, 4))
    store.submit_hall_entry(HallEntry(WOM_RULESET.with_guesses(10), 3, "Grace", False, "2026-11-20"))
    store.retire("Grace", "asked to leave", NOW)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ScoreboardScreen) and app.screen.query(DataTable))
        assert [row[0] for row in board_rows(app.screen)] == ["Alan"]
        await pilot.press("h")  # the hall of fame
        await wait_for(pilot, lambda: any("retired player" in line for line in screen_lines(app)))
        assert not any("Grace" in line for line in screen_lines(app))
    assert store.user("Grace").score == 40  # the records are kept


async def test_replays_name_a_retired_player_so_and_offer_no_filter_for_them(store, app):
    from wom_tui.domain.records import GameRecord

    store.register("Alan")
    store.register("Grace")
    store.record_game(GameRecord("wom", R5, (breaker("Alan", "RGYB", ["RGBY", "RGYB"], points=9),
                                             breaker("Grace", "BYWR", ["BYWR"], points=9)), "2026-11-20T10:00:00+00:00"))
    store.retire("Grace", "", NOW)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplaysScreen) and app.screen.summaries is not None)
        await wait_for(pilot, lambda: any("retired player" in line for line in screen_lines(app)))
        assert not any("Grace" in line for line in screen_lines(app))
        assert not any("Grace" in str(option) for option in app.screen.query_one("#replays-player", PlayerChoice).options)
        app.screen.query_one("#replays-table", DataTable).focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.pause()
        assert any("retired player" in line for line in screen_lines(app)), screen_lines(app)
        assert not any("Grace" in line for line in screen_lines(app))
