"""Messages said while the notes grid (F4) covers the log are wrapped to the log's width when it comes back,
not to the dozen columns a hidden log measured (issue 35, item 16)."""

from __future__ import annotations


from wom_tui.widgets.message_log import MessageLog
from wom_tui.widgets.notes_grid import NotesGrid

from .conftest import at_both_sizes, build_app, wait_for
from .screen_text import screen_lines
from .test_solo import open_setup, start_game


async def test_messages_said_under_the_notes_keep_the_log_s_width(data_dir):
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        screen = await start_game(pilot)
        log = screen.query_one(MessageLog)
        grid = screen.query_one("#solo-notes", NotesGrid)
        await pilot.press("f4")
        await wait_for(pilot, lambda: grid.display and grid.has_focus)
        await pilot.press("escape")  # back to the guess, the notes stay in view (and the log hidden)
        await wait_for(pilot, lambda: screen.query_one("#solo-input").has_focus)
        said = len(log.lines_said)
        await pilot.press(*("1" * screen.game.ruleset.length), "enter")
        await wait_for(pilot, lambda: len(log.lines_said) > said)
        await pilot.press("f4", "f4")  # into the notes and out: the messages are back
        await wait_for(pilot, lambda: not grid.display and log.display and log.region.width)
        guess = log.lines_said[said]
        assert guess.startswith("Guess #1: 1111 → ")
        shown = "→ " + guess.partition(" → ")[2]  # what follows the arrow, never split (it fits: 20 columns)

        async def on_one_line(size) -> None:
            await wait_for(pilot, lambda: any(shown in line for line in screen_lines(app)),
                           message=f"{shown!r} on one line of the log at {size}")

        await at_both_sizes(pilot, on_one_line)
