"""A search result landing after the command palette lost its list crashes nothing.

The random run (bench/fuzz.py, seed 9) ended at event 1188 with Textual's palette worker raising
NoMatches('CommandList') after the palette was closed mid-search. The race itself depends on
timing, so this test puts the palette in the state the late worker found: list gone, flags set.
"""

from __future__ import annotations

from textual.command import CommandList, CommandPalette

from .conftest import wait_for


async def test_a_late_search_result_after_the_list_is_gone_crashes_nothing(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette) and app.screen.query(CommandList))
        palette = app.screen
        await palette.query_one(CommandList).remove()
        palette._list_visible = not palette._list_visible  # what _refresh_command_list does when it lands
        palette._show_busy = not palette._show_busy
        await pilot.pause()
        assert app._exception is None and app.is_running
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, CommandPalette))


async def test_a_search_started_after_the_list_is_gone_crashes_nothing(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette) and app.screen.query(CommandList))
        palette = app.screen
        await palette.query_one(CommandList).remove()
        worker = palette._gather_commands("b")  # the search a key typed just before Esc starts
        await wait_for(pilot, lambda: worker.is_finished)
        assert app._exception is None and app.is_running
