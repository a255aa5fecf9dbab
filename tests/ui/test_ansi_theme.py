"""Under Textual's ANSI themes (colours named like ``ansi_yellow``) coloured messages crash nothing.

The random run (bench/fuzz.py, seeds 9 and 10) chose the ansi-dark theme from the command palette,
then a lifeline's message (a "warning") passed the theme's colour name to Rich, which cannot parse it:
the app ended.
"""

from __future__ import annotations

from .test_solo import guess, open_setup, said, start_game
from .conftest import wait_for


async def test_a_lifeline_under_the_ansi_dark_theme_is_said_in_colour(app):
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = "ansi-dark"
        await open_setup(pilot)
        screen = await start_game(pilot)
        await guess(pilot, screen, "0123")
        before = len(said(screen))
        await pilot.press("f2")
        await wait_for(pilot, lambda: len(said(screen)) > before or app._exception is not None)
        assert app._exception is None and app.is_running
        assert "That cost" in said(screen)[-1]


async def test_the_wom_table_under_the_ansi_dark_theme_draws_its_players(make_app, store):
    from wom_tui.screens.wom_game import WomGameScreen

    from .test_wom import open_setup as open_wom_setup, until, wait_turn

    store.register("Alan")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = "ansi-dark"
        await open_wom_setup(pilot)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, WomGameScreen) or app._exception is not None)
        await wait_turn(pilot, app.screen, "Alan")
        await pilot.pause()
        assert app._exception is None and app.is_running
        assert "Alan" in str(app.screen.query_one("#wom-players").render())
