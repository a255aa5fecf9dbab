"""Snapshots of the notes grid (F4) in a solo game and on the daily screen's streak, at 80×24 and 60×20."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from wom_tui.screens.solo_game import SoloGameScreen
from wom_tui.screens.solo_setup import SoloSetupScreen

from .conftest import build_app, wait_for


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
def test_solo_game_with_notes(snap_compare, data_dir, size):
    async def run_before(pilot) -> None:
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SoloSetupScreen))
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, SoloGameScreen))
        table = pilot.app.screen.query_one("#solo-history", DataTable)
        await pilot.press(*"0123", "enter")
        await wait_for(pilot, lambda: table.row_count == 1)
        await pilot.press("f4", "space", "down", "5", "x", "x", "down", "right", "space")
        await pilot.pause()

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)
