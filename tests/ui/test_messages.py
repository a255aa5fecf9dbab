"""Messages (F8 on any screen): every notice of the session kept, to read again as plain lines (issue 36;
docs/play.md, *Messages*). A toast goes after a few seconds; a screen reader may never have reached it.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from textual.widgets import OptionList

from wom_tui.domain.moderation import Broadcast
from wom_tui.screens.menu import MenuScreen
from wom_tui.screens.messages import EMPTY, MessagesScreen

from .conftest import build_app, wait_for
from .screen_text import screen_text
from .test_focus_cursor import placed
from .test_solo import open_setup, start_game

NOON = time.mktime((2026, 11, 29, 12, 4, 0, 0, 0, -1))
"""A fixed local time for the snapshots' lines (12:04)."""


async def test_a_notice_lands_in_the_messages_and_f8_reads_it_anywhere(app) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("f8")
        await wait_for(pilot, lambda: isinstance(app.screen, MessagesScreen))
        assert EMPTY in screen_text(app), "nothing yet: it says so"
        app.notify("Alan invites you to [b]table 3[/b]", title="Your move")  # markup: kept as the words shown
        await wait_for(pilot, lambda: app.screen.lines_shown() and isinstance(app.focused, OptionList),
                       message="a notice that comes while the messages are open is added at once")
        assert app.screen.lines_shown()[0].endswith("Your move: Alan invites you to table 3")
        assert EMPTY not in screen_text(app)
        await pilot.press("f8")  # again: nothing more opens
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))

        await open_setup(pilot)
        game = await start_game(pilot)
        app.show_broadcast(Broadcast.make("restart in <5> minutes [red]", "Root", datetime.now(UTC)))
        game.notify("That guess is too short", severity="warning")
        await wait_for(pilot, lambda: len(app.message_history) == 3)
        await pilot.press("f8")  # from a game, its guess field focused: F8 is not a symbol typed
        await wait_for(pilot, lambda: isinstance(app.screen, MessagesScreen))
        lines = app.screen.lines_shown()
        assert [line[6:] for line in lines] == [
            "Your move: Alan invites you to table 3",
            "Operator: restart in <5> minutes [red]",
            "Warning: That guess is too short",
        ]
        messages = app.screen.query_one(OptionList)
        assert app.focused is messages and messages.highlighted == 2, "the newest is highlighted"
        assert (await placed(pilot)).y == messages.content_region.y + 2, "the terminal cursor on it"
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is game)


def _seeded(data_dir):
    app = build_app(data_dir)
    notices = [
        ("Bob invites you to his table (4 pegs, 6 colours): the lobby has it.", "Invitation", "information"),
        ("Set your code at Bob's table: every seat is filled.", "Your move", "information"),
        ("restart in 5 minutes", "Operator", "broadcast"),
        ("The theme could not be remembered: the data folder is read-only", "", "warning"),
    ]
    for minute, (text, title, kind) in enumerate(notices):
        app.message_history.add(text, title=title, kind=kind, at=NOON + 60 * minute)
    return app


@pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=["80x24", "60x20"])
def test_messages_snapshot(snap_compare, data_dir, size) -> None:
    async def run_before(pilot) -> None:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, MenuScreen))
        await pilot.press("f8")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, MessagesScreen) and pilot.app.focused is not None)

    assert snap_compare(_seeded(data_dir), terminal_size=size, run_before=run_before)
