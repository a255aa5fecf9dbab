"""Visual regression snapshots of the World of Mastermind screens at 80×24 (update with --snapshot-update)."""

from __future__ import annotations

from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.screens.wom_results import WomResultsScreen, start_game

from wom_tui.screens.wom_game import WomGameScreen, WomSetup

from .conftest import build_app
from .test_wom import enter_code, enter_guess, open_setup, until, wait_turn

SIZE = (80, 24)
NARROW = (60, 20)


def register(data_dir, *names: str) -> None:
    store = Store(data_dir)
    for name in names:
        store.register(name)


SCRIPT = ("RRGB", "YYGG", "KKWW", "WWKK", "BBBB")
"""What the computer plays in these snapshots, so that tuning its strategy never changes a picture."""


def scripted(ruleset, history, rng) -> str:
    return SCRIPT[len(history)]


async def seat(pilot, *names: str, attempts: int = 5) -> WomGameScreen:
    """Sit ``names`` at a table straight away (the setup screen has its own snapshot and tests)."""
    app = pilot.app
    await pilot.press("p")
    await until(pilot, lambda: app.screen.query("#setup-start"))
    screen = start_game(app, WomSetup(names, attempts))
    for player in screen.game.players:
        if player.is_computer:
            player.strategy.next_guess = scripted
    app.push_screen(screen)
    await until(pilot, lambda: isinstance(app.screen, WomGameScreen))
    return app.screen


def test_setup(snap_compare, data_dir, size=SIZE):
    register(data_dir, "Alan", "Steve")

    async def run_before(pilot) -> None:
        await open_setup(pilot)

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_code_making_masked(snap_compare, data_dir, size=SIZE):
    register(data_dir, "Alan", "Steve")

    async def run_before(pilot) -> None:
        screen = await seat(pilot, "Alan", "Steve", "HAL9000")
        await wait_turn(pilot, screen, "Alan")
        await pilot.press("r", "g", "b")

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_hand_over(snap_compare, data_dir, size=SIZE):
    register(data_dir, "Alan", "Steve")

    async def run_before(pilot) -> None:
        screen = await seat(pilot, "Alan", "Steve", "HAL9000")
        await enter_code(pilot, screen, "Alan", "RGBY", paste=True)
        await until(pilot, lambda: screen.awaiting == ("handover", "Steve"))

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_guessing(snap_compare, data_dir, size=SIZE):
    register(data_dir, "Alan", "Steve")

    async def run_before(pilot) -> None:
        screen = await seat(pilot, "Alan", "Steve", "HAL9000")
        await enter_code(pilot, screen, "Alan", "RGBY", paste=True)
        await enter_code(pilot, screen, "Steve", "KKWW", paste=True)
        await enter_guess(pilot, screen, "Alan", "RRGG", paste=True)
        await enter_guess(pilot, screen, "Steve", "RGBB", paste=True)
        await enter_guess(pilot, screen, "Alan", "GGBB", paste=True)
        await wait_turn(pilot, screen, "Steve")
        await pilot.press("x")  # a symbol outside the palette, shown on a grey peg

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_leave_question(snap_compare, data_dir, size=SIZE):
    """Esc in a game in progress: "Leave this game?" over the board."""
    from wom_tui.screens.confirm import ConfirmScreen

    register(data_dir, "Alan")

    async def run_before(pilot) -> None:
        screen = await seat(pilot, "Alan", "HAL9000")
        await enter_code(pilot, screen, "Alan", "RGBY", paste=True)
        await wait_turn(pilot, screen, "Alan")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        await pilot.pause()

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_results(snap_compare, data_dir, size=SIZE):
    register(data_dir, "Alan", "Steve")

    async def run_before(pilot) -> None:
        # The game is played through the domain (its flow has its own transcript tests); the picture
        # is of the results screen it ends on.
        app = pilot.app
        await pilot.press("p")
        await until(pilot, lambda: app.screen.query("#setup-start"))
        table = start_game(app, WomSetup(("Alan", "Steve", "HAL9000"), 5))
        game = table.game
        game.players[2].strategy.next_guess = scripted
        hal_code = [game.move(code) for code in ("RGBY", "KKWW", None)][-1].debug_code
        typed = {"Alan": iter(["WWKK" if hal_code != "WWKK" else "RRRR", hal_code]), "Steve": iter(["RGBY"])}
        while game.awaiting is not None:
            game.move(None if game.awaiting.computer else next(typed[game.awaiting.player]))
        app.push_screen(WomResultsScreen(table.setup, game, table.saver))
        await until(pilot, lambda: isinstance(app.screen, WomResultsScreen), message="results")

    assert snap_compare(build_app(data_dir, debug=True), terminal_size=size, run_before=run_before)


# ---------------------------------------------------------------- the same screens at 60×20


def test_setup_60x20(snap_compare, data_dir):
    """Setup, at 60×20: everything needed to play shows."""
    test_setup(snap_compare, data_dir, size=NARROW)


def test_code_making_masked_60x20(snap_compare, data_dir):
    """Code making masked, at 60×20: everything needed to play shows."""
    test_code_making_masked(snap_compare, data_dir, size=NARROW)


def test_hand_over_60x20(snap_compare, data_dir):
    """Hand over, at 60×20: everything needed to play shows."""
    test_hand_over(snap_compare, data_dir, size=NARROW)


def test_guessing_60x20(snap_compare, data_dir):
    """Guessing, at 60×20: everything needed to play shows."""
    test_guessing(snap_compare, data_dir, size=NARROW)


def test_results_60x20(snap_compare, data_dir):
    """Results, at 60×20: everything needed to play shows."""
    test_results(snap_compare, data_dir, size=NARROW)


def test_leave_question_60x20(snap_compare, data_dir):
    """"Leave this game?", at 60×20: the question and both answers show."""
    test_leave_question(snap_compare, data_dir, size=NARROW)
