"""Solo resume: a solo game in progress survives the app going away without cleaning up."""

from __future__ import annotations

from pathlib import Path

from wom_tui.screens.menu import MenuScreen
from wom_tui.screens.solo_game import SoloGameScreen
from wom_tui.screens.solo_resume import ResumeScreen

from .conftest import build_app, wait_for
from .test_solo import open_setup, rows, start_game


async def _two_guesses_then_gone(data_dir: Path) -> dict:
    """Open a solo game, play two guesses, and let the app go away mid-game (no Esc, no quit)."""
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        screen = await start_game(pilot)
        length = screen.game.ruleset.length
        for guess in ("1" * length, "2" * length):
            await pilot.press(*guess, "enter")
        await wait_for(pilot, lambda: screen.game.guesses_used == 2, message="two guesses played")
        return screen.game.as_json()


async def test_a_game_left_mid_way_is_offered_at_the_next_start_and_resumes_at_guess_3(data_dir: Path) -> None:
    left = await _two_guesses_then_gone(data_dir)
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResumeScreen), message="resume offered at start")
        await pilot.press("enter")  # Resume is focused
        await wait_for(pilot, lambda: isinstance(app.screen, SoloGameScreen), message="back in the game")
        game = app.screen.game
        assert game.guess_number == 3
        assert [row[0] for row in rows(app.screen)] == [left["rows"][0][0], left["rows"][1][0]]
        assert game.as_json()["secret"] == left["secret"]  # the same secret
        assert "Guess #3 of" in str(app.screen.query_one("#solo-turn").render())


async def test_dropping_the_offer_or_leaving_on_purpose_forgets_the_game(data_dir: Path) -> None:
    await _two_guesses_then_gone(data_dir)
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResumeScreen))
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), message="dropped: the menu")
    assert app.store.solo_in_progress("local") is None
    # Leaving a game with Esc (confirmed) is on purpose too: nothing is offered next time.
    again = build_app(data_dir)
    async with again.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        screen = await start_game(pilot)
        await pilot.press(*("1" * screen.game.ruleset.length), "enter")
        await wait_for(pilot, lambda: again.store.solo_in_progress("local") is not None, message="kept after a move")
        await pilot.press("escape", "y")
        await wait_for(pilot, lambda: not isinstance(again.screen, SoloGameScreen), message="left the game")
    assert again.store.solo_in_progress("local") is None


async def test_a_resumed_game_keeps_the_coach_the_player_chose(data_dir: Path) -> None:
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        await pilot.click("#solo-coach-1")
        screen = await start_game(pilot)
        await pilot.press(*("1" * screen.game.ruleset.length), "enter")
        await wait_for(pilot, lambda: app.store.solo_in_progress("local") is not None, message="kept after a move")
    again = build_app(data_dir)
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, ResumeScreen), message="resume offered at start")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(again.screen, SoloGameScreen), message="back in the game")
        screen = again.screen
        assert "coach on" in str(screen.query_one("#solo-info").render())
        await pilot.press(*("2" * screen.game.ruleset.length), "enter")
        await wait_for(pilot, lambda: any(line.startswith("Coach:") for line in screen.messages.lines_said),
                       message="the coach speaks after the resumed game's next guess")
