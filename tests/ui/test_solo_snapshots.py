"""Visual regression snapshots of solo setup, the solo game and "computer breaks your code" at 80×24."""

from __future__ import annotations

from textual.widgets import DataTable

from wom_tui.screens.computer_breaks import ComputerBreaksScreen
from wom_tui.screens.solo_setup import SoloSetupScreen
from wom_tui.screens.solo_game import SoloGameScreen

from .conftest import build_app, no_blink, wait_for
from .test_solo import open_setup, play_to_win, start_game

SIZE = (80, 24)
NARROW = (60, 20)


def test_solo_setup(snap_compare, data_dir, size=SIZE):
    async def run_before(pilot) -> None:
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SoloSetupScreen))
        await pilot.pause()

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_solo_game(snap_compare, data_dir, size=SIZE):
    async def run_before(pilot) -> None:
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SoloSetupScreen))
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SoloGameScreen))
        screen = pilot.app.screen
        table = screen.query_one("#solo-history", DataTable)
        for code in ("0123", "4567"):
            before = table.row_count
            await pilot.press(*code, "enter")
            await wait_for(pilot, lambda: table.row_count > before)
        await pilot.press("f3")
        await wait_for(pilot, lambda: table.row_count == 4)
        await pilot.press(*"89")
        await pilot.pause()

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_computer_breaks_game(snap_compare, data_dir, size=SIZE):
    async def run_before(pilot) -> None:
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SoloSetupScreen))
        await pilot.click("#solo-mode-1")
        await wait_for(pilot, lambda: pilot.app.screen.query_one("#solo-mode-1").value, message="computer breaks chosen")
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ComputerBreaksScreen))
        screen = pilot.app.screen
        await pilot.press(*"7307", "enter")
        await wait_for(pilot, lambda: screen.phase == "over")
        await no_blink(pilot)

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_computer_breaks_by_hand_answer(snap_compare, data_dir, size=SIZE):
    async def run_before(pilot) -> None:
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SoloSetupScreen))
        for option in ("#solo-mode-1", "#solo-scoring-1"):
            pilot.app.screen.query_one(option).scroll_visible(animate=False)  # (at 60×20 the setup scrolls)
            await pilot.pause()
            await pilot.click(option)
            await wait_for(pilot, lambda: pilot.app.screen.query_one(option).value, message=f"{option} chosen")
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ComputerBreaksScreen))
        screen = pilot.app.screen
        await wait_for(pilot, lambda: screen.phase == "answer")
        await pilot.press("0", "2", "enter")
        await wait_for(pilot, lambda: screen.phase == "answer" and screen.game.guesses_used == 1)
        await no_blink(pilot)

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


# ---------------------------------------------------------------- the same screens at 60×20


def test_solo_won_hall_name(snap_compare, data_dir, size=SIZE):
    """A guest broke the code with a record: the hall of fame asks a name over the finished game."""
    from wom_tui.domain.codes import WOM_RULESET
    from wom_tui.screens.solo_game import HallNameScreen

    async def run_before(pilot) -> None:
        await open_setup(pilot)
        await pilot.click("#solo-palette-3")  # WoM colours
        screen = await start_game(pilot)
        await play_to_win(pilot, screen, WOM_RULESET)
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HallNameScreen), message="a guest is asked a name")
        await no_blink(pilot)

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_solo_won_hall_name_60x20(snap_compare, data_dir):
    """The hall of fame's question, at 60×20: the name field and its buttons show."""
    test_solo_won_hall_name(snap_compare, data_dir, size=NARROW)


def test_resume_offer(snap_compare, data_dir, size=SIZE):
    """The next start after a solo game was left mid-way: the offer to resume it, over the menu."""
    import asyncio

    from wom_tui.screens.solo_resume import ResumeScreen

    from .test_solo_resume import _two_guesses_then_gone

    asyncio.run(_two_guesses_then_gone(data_dir))

    async def run_before(pilot) -> None:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ResumeScreen), message="resume offered at start")
        await pilot.pause()

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_resume_offer_60x20(snap_compare, data_dir):
    """The offer to resume, at 60×20: the game it names and its three answers show."""
    test_resume_offer(snap_compare, data_dir, size=NARROW)


def test_solo_setup_60x20(snap_compare, data_dir):
    """Solo setup, at 60×20: everything needed to play shows."""
    test_solo_setup(snap_compare, data_dir, size=NARROW)


def test_solo_game_60x20(snap_compare, data_dir):
    """Solo game, at 60×20: everything needed to play shows."""
    test_solo_game(snap_compare, data_dir, size=NARROW)


def test_computer_breaks_game_60x20(snap_compare, data_dir):
    """Computer breaks game, at 60×20: everything needed to play shows."""
    test_computer_breaks_game(snap_compare, data_dir, size=NARROW)


def test_computer_breaks_by_hand_answer_60x20(snap_compare, data_dir):
    """Computer breaks by hand answer, at 60×20: everything needed to play shows."""
    test_computer_breaks_by_hand_answer(snap_compare, data_dir, size=NARROW)
