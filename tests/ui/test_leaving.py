"""Leaving a game is always a choice: the mouse passing by never leaves, the palette asks first."""

from __future__ import annotations

from textual.command import CommandList, CommandPalette
from textual.widgets import DataTable

from wom_tui.screens.confirm import ConfirmScreen
from wom_tui.screens.scoreboard import ScoreboardScreen
from wom_tui.screens.solo_game import SoloGameScreen
from wom_tui.screens.wom_game import WomGameScreen
from wom_tui.widgets.message_log import MessageLog
from wom_tui.widgets.peg_input import PegInput

from .conftest import wait_for


async def solo_game_under_way(pilot) -> SoloGameScreen:
    """Open a solo game from the menu and play one guess, so that leaving would lose it."""
    await pilot.press("o")
    await wait_for(pilot, lambda: pilot.app.screen.__class__.__name__ == "SoloSetupScreen")
    await pilot.press("p")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, SoloGameScreen))
    screen = pilot.app.screen
    await pilot.press(*"0123", "enter")
    await wait_for(pilot, lambda: screen.game.guesses_used == 1)
    return screen


async def run_palette_command(pilot, title: str) -> None:
    """Open the command palette, type a command's title and run it, as a person would."""
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, CommandPalette))
    await pilot.press(*title)
    hits = pilot.app.screen.query_one(CommandList)
    # The palette searches in the background: wait until the command is the highlighted hit.
    await wait_for(
        pilot,
        lambda: hits.highlighted is not None and title in str(hits.get_option_at_index(hits.highlighted).prompt),
        message=f"the palette offers {title!r}",
    )
    await pilot.press("enter")


async def test_moving_the_mouse_over_a_game_never_leaves_it(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await solo_game_under_way(pilot)
        for target in (DataTable, MessageLog, PegInput, DataTable, PegInput):
            await pilot.hover(target)
            await pilot.pause()
        assert pilot.app.screen is screen
        assert screen.game.guesses_used == 1


async def test_moving_the_mouse_over_the_scoreboard_keeps_it_open(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ScoreboardScreen))
        screen = pilot.app.screen
        for offset in ((5, 5), (40, 10), (70, 20), (10, 2)):
            await pilot.hover(offset=offset)
            await pilot.pause()
        assert pilot.app.screen is screen


async def test_the_palette_main_menu_asks_before_leaving_a_solo_game(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await solo_game_under_way(pilot)
        await run_palette_command(pilot, "Main menu")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), message="it asks first")
        await pilot.press("n")
        await wait_for(pilot, lambda: pilot.app.screen is screen)
        assert screen.game.guesses_used == 1


async def test_the_palette_main_menu_asks_before_leaving_a_wom_game(app, store):
    store.register("Alan")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await wait_for(pilot, lambda: pilot.app.screen.__class__.__name__ == "WomSetupScreen")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, WomGameScreen))
        screen = pilot.app.screen
        await run_palette_command(pilot, "Main menu")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), message="it asks first")
        await pilot.press("y")  # y confirms (Esc would stay)
        await wait_for(pilot, lambda: pilot.app.screen is not screen and not isinstance(pilot.app.screen, ConfirmScreen))
        assert screen.game.phase == "abandoned"
        assert store.user("Alan").games == 0
