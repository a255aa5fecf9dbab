"""Solo resume: a registered player's solo game in progress survives the app going away without cleaning up.

The offer is a dialog over the menu with its keys in the footer; a resumed game shows its messages and
the coach's notes again; "later" leaves the offer on the solo setup; a guest's game is never kept.
"""

from __future__ import annotations

import random
from pathlib import Path

from textual.widgets import Button
from textual.widgets._footer import FooterKey

from wom_tui.app import WomApp
from wom_tui.domain.identity import Identity
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.screens.daily import DailyScreen
from wom_tui.screens.menu import MenuScreen
from wom_tui.screens.solo_game import SoloGameScreen
from wom_tui.screens.solo_resume import ResumeScreen
from wom_tui.screens.solo_setup import SoloSetupScreen
from wom_tui.widgets.player_select import PlayerChoice

from .conftest import build_app, make_options, wait_for
from .test_solo import open_setup, rows, start_game

FP = "SHA256:" + "D" * 43


async def as_alan(pilot) -> SoloSetupScreen:
    """Open the solo setup and choose the registered player Alan."""
    setup = await open_setup(pilot)
    setup.query_one("#solo-player", PlayerChoice).value = "Alan"
    await wait_for(pilot, lambda: setup.query_one("#solo-player", PlayerChoice).chosen == "Alan")
    return setup


async def _two_guesses_then_gone(data_dir: Path, *, coach: bool = False) -> dict:
    """Alan opens a solo game, plays two guesses, and the app goes away mid-game (no Esc, no quit)."""
    Store(data_dir).register("Alan")
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await as_alan(pilot)
        if coach:
            await pilot.click("#solo-coach-1")
        screen = await start_game(pilot)
        length = screen.game.ruleset.length
        for guess in ("1" * length, "2" * length):
            await pilot.press(*guess, "enter")
        await wait_for(pilot, lambda: screen.game.guesses_used == 2, message="two guesses played")
        if coach:
            await wait_for(pilot, lambda: len(screen.game.coach_notes) == 2, message="the coach spoke twice")
            await wait_for(pilot, lambda: len(app.store.solo_in_progress("local")["coach_notes"]) == 2,
                           message="the coach's notes are kept with the game")
        return screen.game.as_json()


def footer_keys(screen) -> list[str]:
    return [key.key for key in screen.query(FooterKey)]


async def test_the_offer_is_a_centred_dialog_over_the_menu_with_its_keys_in_the_footer(data_dir: Path) -> None:
    await _two_guesses_then_gone(data_dir)
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResumeScreen), message="resume offered at start")
        screen = app.screen
        assert isinstance(app.screen_stack[-2], MenuScreen)
        await wait_for(pilot, lambda: {"escape", "y", "d"} <= set(footer_keys(screen)), message="the footer")
        dialog = screen.query_one("#confirm-dialog")
        await wait_for(pilot, lambda: dialog.region.width > 0)
        left, right = dialog.region.x, 80 - dialog.region.right
        top, bottom = dialog.region.y, 24 - dialog.region.bottom
        assert abs(left - right) <= 1 and left > 5, dialog.region
        assert abs(top - bottom) <= 2 and top > 2, dialog.region


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
        # The game's messages are back: each guess and its answer, in order.
        said = app.screen.messages.lines_said
        await wait_for(pilot, lambda: any(line.startswith("Resumed where you left it") for line in said))
        guesses = [line for line in said if line.startswith("Guess #")]
        assert [line.split(":")[0] for line in guesses] == ["Guess #1", "Guess #2"]
        assert guesses[0].startswith(f"Guess #1: {left['rows'][0][0]} → ")


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
        await as_alan(pilot)
        screen = await start_game(pilot)
        await pilot.press(*("1" * screen.game.ruleset.length), "enter")
        await wait_for(pilot, lambda: again.store.solo_in_progress("local") is not None, message="kept after a move")
        await pilot.press("escape", "y")
        await wait_for(pilot, lambda: not isinstance(again.screen, SoloGameScreen), message="left the game")
    assert again.store.solo_in_progress("local") is None


async def test_later_leaves_the_offer_first_on_the_solo_setup(data_dir: Path) -> None:
    left = await _two_guesses_then_gone(data_dir)
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResumeScreen))
        await pilot.press("escape")  # later
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        setup = await open_setup(pilot)
        button = setup.query_one("#solo-resume", Button)
        await wait_for(pilot, lambda: setup.focused is button, message="Resume your game is the first choice")
        assert str(button.label).startswith("r Resume your game") and "guess 3 of" in str(button.label)
        assert "r" in footer_keys(setup)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SoloGameScreen), message="back in the game")
        assert app.screen.game.as_json()["secret"] == left["secret"] and app.screen.game.guess_number == 3
        await pilot.press("escape", "y")  # leave it on purpose: no more offer on the setup
        await wait_for(pilot, lambda: app.screen is setup)
        await wait_for(pilot, lambda: not setup.query_one("#solo-resume-row").display)
        assert "r" not in footer_keys(setup)
        await pilot.press("r")  # a stray r does nothing
        assert app.screen is setup


async def test_a_resumed_game_keeps_the_coach_and_its_notes(data_dir: Path) -> None:
    await _two_guesses_then_gone(data_dir, coach=True)
    again = build_app(data_dir)
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, ResumeScreen), message="resume offered at start")
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(again.screen, SoloGameScreen), message="back in the game")
        screen = again.screen
        assert "coach on" in str(screen.query_one("#solo-info").render())
        said = screen.messages.lines_said
        await wait_for(pilot, lambda: len([x for x in said if x.startswith("Coach:")]) == 2,
                       message="the coach's notes of the first two guesses are shown again")
        await pilot.press(*("3" * screen.game.ruleset.length), "enter")
        await wait_for(pilot, lambda: len([x for x in said if x.startswith("Coach:")]) == 3,
                       message="the coach speaks after the resumed game's next guess")


async def test_a_guests_game_is_never_kept(data_dir: Path) -> None:
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        screen = await start_game(pilot)
        assert screen.game.player == "Guest"
        await pilot.press(*("1" * screen.game.ruleset.length), "enter")
        await wait_for(pilot, lambda: screen.game.guesses_used == 1)
        assert app.store.solo_in_progress("local") is None


def served_app(data_dir: Path, identity: Identity) -> WomApp:
    options = make_options(data_dir, served=True)
    return WomApp(Store(data_dir), random.Random(options.seed), options, identity)


async def test_a_signed_in_player_is_the_default_and_a_burst_plays_as_them(data_dir: Path) -> None:
    Store(data_dir).register("Ada", key=FP)
    app = served_app(data_dir, Identity.key(FP, "Ada"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"op1234", "enter")  # the solo setup, play, a guess: all in one burst
        await wait_for(pilot, lambda: isinstance(app.screen, SoloGameScreen) and app.screen.game.guesses_used == 1,
                       message="the burst played a guess")
        game = app.screen.game
        assert (game.player, game.is_user) == ("Ada", True)
        kept = app.store.solo_in_progress("user:ada")
        assert kept is not None and kept["player"] == "Ada"
        await pilot.press("escape", "y")  # leave the game (Esc asks, y goes)
        await wait_for(pilot, lambda: isinstance(app.screen, SoloSetupScreen))
        setup = app.screen
        assert setup.query_one("#solo-player", PlayerChoice).chosen == "Ada"
        # Choosing Guest plays as a guest, and a guest's game is not kept.
        setup.query_one("#solo-player", PlayerChoice).value = ""
        await wait_for(pilot, lambda: setup.query_one("#solo-player", PlayerChoice).chosen is None)
        setup.query_one("#solo-mode").focus()
        await pilot.press("p", *"1234", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SoloGameScreen) and app.screen.game.guesses_used == 1)
        assert app.screen.game.player == "Guest"
        assert app.store.solo_in_progress("user:ada") is None
        await pilot.press("escape", "y", "escape")  # leave the game (y), then the setup
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        # The daily code opens on the signed-in player too.
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, DailyScreen))
        assert app.screen.identity == "Ada"


async def test_a_guests_game_kept_by_an_older_version_is_not_offered(data_dir: Path) -> None:
    from wom_tui.domain.codes import SOLO_RULESET
    from wom_tui.domain.solo import SoloGame

    game = SoloGame(SOLO_RULESET, "1234", random.Random(1))
    game.guess("5678")
    Store(data_dir).keep_solo("local", game.as_json())
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.store.solo_in_progress("local") is None, message="the guest's game dropped")
        assert isinstance(app.screen, MenuScreen)
        setup = await open_setup(pilot)
        assert not setup.query_one("#solo-resume-row").display
