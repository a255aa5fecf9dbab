"""The scoreboard sorts from the keyboard, and the footer shows how."""

from __future__ import annotations

from textual.widgets import DataTable

from wom_tui.domain.users import User
from wom_tui.screens.scoreboard import ScoreboardScreen

from .conftest import wait_for
from .screen_text import screen_lines
from .test_shell import board_rows, seed_users


async def test_keys_sort_by_each_column_and_again_reverses(make_app, store):
    seed_users(store, User("bob", 9, 1), User("Alan", 25, 3), User("Cy", 1, 4), User("Ada", 9, 2), User("Dee"))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ScoreboardScreen) and app.screen.query(DataTable))
        screen = app.screen
        await wait_for(pilot, lambda: screen.query_one("#board-table", DataTable).row_count == 5)
        names = lambda: [row[0] for row in board_rows(screen)]  # noqa: E731
        await pilot.press("n")
        await wait_for(pilot, lambda: names() == ["Ada", "Alan", "bob", "Cy", "Dee"])
        await pilot.press("n")
        await wait_for(pilot, lambda: names() == ["Dee", "Cy", "bob", "Alan", "Ada"])
        await pilot.press("g")
        await wait_for(pilot, lambda: names() == ["Cy", "Alan", "Ada", "bob", "Dee"])
        await pilot.press("a")
        await wait_for(pilot, lambda: [row[3] for row in board_rows(screen)] == ["9.0", "8.3", "4.5", "0.3", "0.0"])
        await pilot.press("s")
        await wait_for(pilot, lambda: names() == ["Alan", "Ada", "bob", "Cy", "Dee"])
        assert isinstance(app.screen, ScoreboardScreen)


async def test_the_footer_shows_the_sort_keys(make_app, store):
    seed_users(store, User("Alan", 25, 3))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ScoreboardScreen) and app.screen.query(DataTable))
        await pilot.pause()
        footer = screen_lines(app)[-1]
        for shown in ("n Name", "s Score", "g Games", "a Avg"):
            assert shown in footer, footer
