"""The seeds' command words typed at the solo guess prompt point to the keys that work."""

from __future__ import annotations

import pytest

from wom_tui.domain.commands import LEAVE_HINT, LIFELINE_HINT, NEW_GAME_HINT

from .burst import send_burst
from .conftest import wait_for
from .test_solo import open_setup, rows, said, start_game


@pytest.mark.parametrize(("word", "hint"), [("reset", NEW_GAME_HINT), ("quit", LEAVE_HINT), ("lifeline#3", LIFELINE_HINT)])
async def test_a_command_word_says_what_works_instead_and_costs_nothing(app, word, hint):
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        screen = await start_game(pilot)
        send_burst(app, *word, "enter")
        await wait_for(pilot, lambda: hint in said(screen), message=f"{word!r} gets the hint")
        assert not any("Only 0" in line for line in said(screen))
        assert rows(screen) == []
