"""A game screen shows the game its snapshot holds: a move made elsewhere (another process, reading the
game's JSON) shows on the screen once the snapshot is set, as the next issues' shared games need."""

from __future__ import annotations

import random

from textual.widgets import Static

from wom_tui.domain.solo import SoloGame
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.wom import WomGame
from wom_tui.screens.confirm import ConfirmScreen

from . import test_wom as wom
from .conftest import wait_for
from .test_solo import guess, open_setup, rows, start_game, turn


async def test_a_move_made_elsewhere_shows_once_the_snapshot_is_set(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        screen = await start_game(pilot)
        await guess(pilot, screen, "0123")
        assert screen.snapshot == screen.game.as_json()
        elsewhere = SoloGame.from_json(screen.snapshot, random.Random(1))
        elsewhere.guess("4567")
        screen.snapshot = elsewhere.as_json()
        await wait_for(pilot, lambda: len(rows(screen)) == 2)
        assert [row[0] for row in rows(screen)] == ["0123", "4567"]
        assert turn(screen) == "Guess #3 of 10"
        await guess(pilot, screen, "8901")  # and play goes on from there
        assert screen.game.guesses_used == 3


async def test_a_wom_move_made_elsewhere_shows_once_the_snapshot_is_set(make_app, store: Store):
    store.register("Alan")
    store.register("Steve")
    async with make_app().run_test(size=(80, 24)) as pilot:
        await wom.open_setup(pilot)
        await wom.choose(pilot, "#seat-select-2", "st")
        screen = await wom.start(pilot)
        await wom.enter_code(pilot, screen, "Alan", "RGBY")
        await wom.enter_code(pilot, screen, "Steve", "KKWW")
        assert await wom.wait_turn(pilot, screen, "Alan") == "guess"
        assert screen.snapshot == screen.game.as_json()
        elsewhere = WomGame.from_json(screen.snapshot, random.Random(1))
        elsewhere.move("KWKW")  # Alan's guess, played by another process
        await pilot.press("escape")  # and it comes while Alan is asked whether to leave
        await wom.until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))
        screen.snapshot = elsewhere.as_json()
        await pilot.press("n")
        # The table goes on from there: Steve is asked (the keyboard handed over), Alan's try is counted.
        assert await wom.wait_turn(pilot, screen, "Steve") == "guess"
        panel = wom.shown(screen.query_one("#wom-players", Static))
        assert panel.splitlines() == ["  Alan  1/10  … guessing", "▶ Steve 0/10  … guessing"]
        await wom.enter_guess(pilot, screen, "Steve", "rgby")
        await wom.until(pilot, lambda: "Steve broke the code in 1 attempt!" in wom.said(screen))
        assert screen.game.board_of(screen.game.players[0]).attempts_used == 1
