"""Notes at a live table (F4): the player's own, kept in the session, never in the table others read."""

from __future__ import annotations

from pathlib import Path

import pytest

from wom_tui.domain.notes import Note
from wom_tui.screens.live_table import LiveTableScreen
from wom_tui.widgets.notes_grid import NotesGrid

from .burst import send_burst
from .conftest import build_app, wait_for
from .screen_text import screen_lines
from .test_together import _table_with_hal


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_notes_at_a_table_are_private_and_last_the_session(data_dir: Path, size) -> None:
    app = build_app(data_dir)
    async with app.run_test(size=size) as pilot:
        await _table_with_hal(pilot)
        screen = app.screen
        await pilot.press("g")
        await wait_for(pilot, lambda: screen.query("#code-input") and screen.query_one("#code-input").has_focus)
        await pilot.press(*"RGBY", "enter")
        await wait_for(pilot, lambda: screen.query("#guess-input") and screen.query_one("#guess-input").has_focus,
                       message="guessing")
        # F4 and the marks in one burst (slot 1: K ruled out; slot 2: G certain): the keys after F4 are the
        # notes', though the grid is mounted only now.
        send_burst(app, "f4", "k", "space", "down", "g", "x", "x")
        await wait_for(pilot, lambda: screen.query("#table-notes") and screen.query_one("#table-notes").has_focus)
        grid = screen.query_one("#table-notes", NotesGrid)
        await wait_for(pilot, lambda: grid.notes.marks == {(0, "K"): Note.OUT, (1, "G"): Note.SURE},
                       message="the marks typed with F4")
        assert screen.region.contains_region(grid.region), "the whole grid is on screen"
        assert any("✓" in line for line in screen_lines(app))
        await pilot.press("escape")
        await wait_for(pilot, lambda: screen.query_one("#guess-input").has_focus, message="back to the guess")
        table_id = screen.table_id
        kept = "".join(path.read_text() for path in data_dir.rglob("*.json"))
        assert "sure" not in kept and '"notes"' not in kept  # nothing of them in the table's file
        await pilot.press("escape")  # leave the table (it asks), and come back: the notes are still there
        await wait_for(pilot, lambda: not isinstance(app.screen, LiveTableScreen) or app.screen is not screen)
        if type(app.screen).__name__ in ("ConfirmScreen", "AskScreen"):
            await pilot.press("y")
        await wait_for(pilot, lambda: not any(isinstance(s, LiveTableScreen) for s in app.screen_stack))
        app.push_screen(LiveTableScreen(table_id))
        await wait_for(pilot, lambda: isinstance(app.screen, LiveTableScreen) and app.screen.view is not None)
        await pilot.press("f4")
        await wait_for(pilot, lambda: app.screen.query("#table-notes"))
        assert app.screen.query_one("#table-notes", NotesGrid).notes.marks == {(0, "K"): Note.OUT,
                                                                             (1, "G"): Note.SURE}
