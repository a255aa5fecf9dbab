"""A game screen shows the game its snapshot holds: a move made elsewhere (another process, reading the
game's JSON) shows on the screen once the snapshot is set, as the next issues' shared games need."""

from __future__ import annotations

import random

from wom_tui.domain.solo import SoloGame

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
