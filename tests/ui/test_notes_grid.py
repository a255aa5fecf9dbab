"""The notes grid (F4): mark a symbol ruled out or certain per slot, by key and by mouse; kept for resume."""

from __future__ import annotations

import pytest

from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.notes import Note
from wom_tui.screens.solo_game import SoloGameScreen
from wom_tui.screens.solo_resume import ResumeScreen
from wom_tui.widgets.notes_grid import NotesGrid
from wom_tui.widgets.player_select import PlayerChoice

from .conftest import build_app, wait_for
from .screen_text import screen_lines
from .test_solo import open_setup, start_game

SIZES = [(80, 24), (60, 20)]


@pytest.mark.parametrize("size", SIZES)
async def test_notes_are_marked_by_key_and_click_kept_for_resume_and_change_nothing_in_the_game(data_dir, size):
    Store(data_dir).register("Alan")  # (a guest's game is never kept: notes are kept with a player's)
    app = build_app(data_dir)
    async with app.run_test(size=size) as pilot:
        setup = await open_setup(pilot)
        setup.query_one("#solo-player", PlayerChoice).value = "Alan"
        await wait_for(pilot, lambda: setup.query_one("#solo-player", PlayerChoice).chosen == "Alan")
        screen = await start_game(pilot)
        grid = screen.query_one("#solo-notes", NotesGrid)
        assert not grid.display
        if size == (80, 24):  # (at 60×20 the footer is cut after F2: the help says F4)
            await wait_for(pilot, lambda: any("F4 Notes" in line for line in screen_lines(app)),
                           message="the footer says F4 Notes")
        await pilot.press("f4")
        await wait_for(pilot, lambda: grid.display and grid.has_focus)
        symbols = screen.game.ruleset.palette.symbols  # digits 0–9 by default
        await pilot.press("down", "right", "right", "space")  # slot 2, the third symbol: ruled out
        await pilot.press("7", "x", "x")  # typing a symbol jumps to its column; twice: certain
        await pilot.press("up", "left", "left", "left", "left", "left", "left", "left", "left", "left", "space")
        assert screen.game.notes.marks == {(1, symbols[2]): Note.OUT, (1, "7"): Note.SURE, (0, symbols[0]): Note.OUT}
        assert app.screen.region.contains_region(grid.region), "the whole grid is on screen"
        lines = "\n".join(screen_lines(app))
        assert "×" in lines and "✓" in lines, "the notes are on screen"
        # A click on a cell marks it: slot 4's first symbol (the content starts inside the border and padding).
        assert await pilot.click(grid, offset=(2 + 3, 1 + 4))
        assert screen.game.notes.note(3, symbols[0]) is Note.OUT
        await pilot.press("escape")  # back to the guess, the notes stay in view
        await wait_for(pilot, lambda: screen.query_one("#solo-input").has_focus)
        assert grid.display and isinstance(app.screen, SoloGameScreen)
        await pilot.press(*("1" * screen.game.ruleset.length), "enter")
        await wait_for(pilot, lambda: screen.game.guesses_used == 1)
        await pilot.press("f4", "f4")  # into the notes, and F4 again hides them
        await wait_for(pilot, lambda: not grid.display and screen.query_one("#solo-input").has_focus)
        kept = app.store.solo_in_progress("local")
        assert kept is not None and kept["notes"]["sure"][1] == "7"
        marks = dict(screen.game.notes.marks)
    again = build_app(data_dir)
    async with again.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, ResumeScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(again.screen, SoloGameScreen))
        grid = again.screen.query_one("#solo-notes", NotesGrid)
        assert grid.display and grid.notes.marks == marks  # a resumed game shows its notes
        game_screen = again.screen
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: type(again.screen).__name__ in ("ConfirmScreen", "AskScreen"))
        await pilot.press("y")
        await wait_for(pilot, lambda: again.screen is game_screen and game_screen.game.guesses_used == 0)
        assert not game_screen.game.notes and not grid.notes.marks  # a new game: empty notes


async def test_notes_never_change_what_the_game_says(data_dir):
    """The same seed and the same guesses give the same feedback and messages with or without notes."""
    said = []
    for with_notes in (False, True):
        app = build_app(data_dir / str(with_notes))
        async with app.run_test(size=(80, 24)) as pilot:
            await open_setup(pilot)
            screen = await start_game(pilot)
            if with_notes:
                await pilot.press("f4", "space", "right", "x", "x", "escape")
            for guess in ("0123", "4567"):
                await pilot.press(*guess, "enter")
            await wait_for(pilot, lambda: screen.game.guesses_used == 2)
            said.append(([row.feedback for row in screen.game.history], screen.messages.lines_said[-3:]))
    assert said[0] == said[1]
