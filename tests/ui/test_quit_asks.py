"""ctrl+q during a game asks first, as Esc does; elsewhere it quits at once."""

from __future__ import annotations

from wom_tui.screens.confirm import ConfirmScreen
from wom_tui.screens.solo_game import SoloGameScreen
from wom_tui.screens.wom_game import WomGameScreen

from .conftest import wait_for
from .test_solo import guess, open_setup, start_game


async def test_ctrl_q_in_a_solo_game_asks_and_n_stays(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        screen = await start_game(pilot)
        await guess(pilot, screen, "1234")  # a game with a move in it is in progress
        await pilot.press("1", "2", "ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), message="ctrl+q asks first")
        assert app.is_running
        assert "Quit" in str(app.screen.query_one("#confirm-question").render())
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is screen)
        assert app.is_running and screen.query_one("#solo-input").value == "12"
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("escape")  # Esc on the quit question stays: only a deliberate key quits
        await wait_for(pilot, lambda: app.screen is screen)
        assert app.is_running


async def test_ctrl_q_twice_in_a_game_quits(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        await guess(pilot, await start_game(pilot), "1234")
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, message="the second ctrl+q quits")


async def test_ctrl_q_over_help_opened_in_a_game_still_asks(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        await guess(pilot, await start_game(pilot), "1234")
        await pilot.press("f1")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "HelpScreen")
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert app.is_running


async def test_ctrl_q_in_a_wom_game_asks(app, store):
    store.register("Alan")  # a person plays, so the game waits for Alan's code
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await wait_for(pilot, lambda: app.screen.query("#setup-start"))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, WomGameScreen))
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert app.is_running


async def test_ctrl_q_on_the_menu_quits_at_once(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running)


async def test_ctrl_q_before_the_first_guess_quits_at_once(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        screen = await start_game(pilot)
        assert isinstance(screen, SoloGameScreen)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running)
