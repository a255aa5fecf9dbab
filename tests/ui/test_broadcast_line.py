"""The operator's broadcast line has a line of its own: it pushes the screen down instead of covering its first
line (a solo game's "Guess #1 of 10"), and the badge stays clear of it (issue 35, item 11)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from wom_tui.app import WomApp
from wom_tui.domain.identity import Identity
from wom_tui.domain.moderation import Broadcast
from wom_tui.domain.store import open_store
from wom_tui.screens.menu import MenuScreen
from wom_tui.widgets.broadcast import BroadcastLine
from wom_tui.widgets.whoami import WhoAmI

from .conftest import make_options, wait_for
from .screen_text import screen_lines
from .test_solo import open_setup, start_game

FP = "SHA256:" + "B" * 43
LINE = "restart in 5 minutes"


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_broadcast_line_covers_nothing(data_dir, size) -> None:
    store = open_store(data_dir)
    store.register("Alan", key=FP)
    options = make_options(data_dir, served=True, session_id="s1", client_address="192.0.2.1", transport="ssh")
    app = WomApp(store, random.Random(1), options, Identity.key(FP).signed_in_as("Alan"))
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        await open_setup(pilot)
        screen = await start_game(pilot)
        await wait_for(pilot, lambda: any("Guess #1 of 10" in line for line in screen_lines(app)))
        first = screen_lines(app)[:3]
        app.show_broadcast(Broadcast.make(LINE, "Root", datetime.now(UTC)))
        await wait_for(pilot, lambda: any(f"Operator: {LINE}" in line for line in screen_lines(app)))
        badge = screen.query_one(WhoAmI)
        line = screen.query_one(BroadcastLine)
        await wait_for(pilot, lambda: not badge.region.overlaps(line.region))
        lines = screen_lines(app)
        assert lines[0].startswith(f" Operator: {LINE}")
        assert "Guess #1 of 10" in lines[1], "the game's first line is under the broadcast, not covered"
        assert lines[1:3] == first[:2], "the screen moved down a line whole, badge and all"
        assert "Alan" in screen_lines(app)[badge.region.y]
        await pilot.click(BroadcastLine)  # hidden: the game has its first line back
        await wait_for(pilot, lambda: "Guess #1 of 10" in screen_lines(app)[0])
        assert badge.region.y == 0
