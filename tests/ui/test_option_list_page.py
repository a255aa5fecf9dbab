"""Page Up/Down on a list that has not been laid out yet (the random run, bench/fuzz.py, seed 9)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import OptionList

import wom_tui.app  # noqa: F401  (installs the workaround, as the game does)


class Lists(App[None]):
    def compose(self) -> ComposeResult:
        yield OptionList(*(f"option {n}" for n in range(30)), id="lines")


async def test_page_down_before_the_list_is_laid_out_moves_and_crashes_nothing():
    app = Lists()
    async with app.run_test(size=(60, 20)) as pilot:
        options = app.query_one("#lines", OptionList)
        fresh = OptionList(*(f"more {n}" for n in range(30)))
        fresh.display = False  # not laid out yet: none of its lines is known (however fast the machine)
        await app.mount(fresh)
        fresh.highlighted = 0
        fresh.action_page_down()
        assert fresh.highlighted == 1
        fresh.display = True
        await pilot.pause()
        fresh.action_page_down()  # once laid out, a whole page as usual
        assert fresh.highlighted is not None and fresh.highlighted > 2
        assert app.is_running and options.highlighted is not None
