"""Drop-down lists open on a click anywhere on their row (the value as well as the ▼), also while another
list is open: that click closes the other list and opens this one, as in any form."""

from __future__ import annotations

import pytest
from textual.widgets import Select

from wom_tui.screens.lobby import LobbyScreen, NewTableScreen
from wom_tui.screens.wom_setup import WomSetupScreen
from wom_tui.widgets.choice import Choice, ChoiceRow

from .burst import terminal_click
from .conftest import wait_for

SIZES = pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=["80x24", "60x20"])


async def _table_form(pilot) -> NewTableScreen:
    app = pilot.app
    await pilot.press("l")
    await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.state is not None, message="lobby")
    await pilot.press("n")
    await wait_for(pilot, lambda: isinstance(app.screen, NewTableScreen) and app.screen.query("#new-create"))
    return app.screen


@SIZES
@pytest.mark.parametrize("part", ["#label", ".down-arrow"], ids=["value", "arrow"])
async def test_the_table_forms_selects_open_on_a_click_also_while_another_is_open(app, size, part):
    async with app.run_test(size=size) as pilot:
        form = await _table_form(pilot)
        seats, clock = form.query_one("#new-seats", Select), form.query_one("#new-clock", Select)
        await terminal_click(pilot, seats.query_one(part))
        await wait_for(pilot, lambda: seats.expanded, message="a click on the closed Seats opens it")
        await terminal_click(pilot, clock.query_one(part))
        await wait_for(pilot, lambda: not seats.expanded, timeout=10, message="Seats closes")
        await wait_for(pilot, lambda: clock.expanded, timeout=10,
                       message=f"a click on the clock's {part} while Seats was open opens the clock")
        if clock.query_one("SelectOverlay").region.overlaps(clock.query_one("SelectCurrent").region):
            return  # (at 60×20 the list opens upwards over its own row: a click there is on the list)
        await terminal_click(pilot, clock.query_one("#label" if part == "#label" else ".up-arrow"))
        await wait_for(pilot, lambda: not clock.expanded, timeout=10, message="a second click closes it")
        for _ in range(5):
            await pilot.pause()
        assert not clock.expanded, "the second click closed the list and opened it again (textual#4489)"


@SIZES
async def test_the_wom_setups_seats_open_on_a_click_also_while_another_is_open(app, store, size):
    store.register("Alan")
    async with app.run_test(size=size) as pilot:
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, WomSetupScreen) and app.screen.query("#setup-start"))
        setup = app.screen
        # The second seat's list drops below it (at 60×20 over nothing the test needs), the first seat is above.
        first, second = setup.query_one("#seat-select-2", Choice), setup.query_one("#seat-select-1", Choice)
        await terminal_click(pilot, first.query_one(ChoiceRow))
        await wait_for(pilot, lambda: first.expanded, message="a click on the seat's name opens its list")
        await terminal_click(pilot, second.query_one(ChoiceRow))
        await wait_for(pilot, lambda: second.expanded and not first.expanded, timeout=10,
                       message="a click on the other seat while the first list was open opens the other")
        await terminal_click(pilot, second.query_one(ChoiceRow))
        await wait_for(pilot, lambda: not second.expanded, timeout=10, message="a second click closes it")
        for _ in range(5):
            await pilot.pause()
        assert not second.expanded, "the second click closed the list and opened it again"


@SIZES
async def test_the_table_forms_clock_shows_each_choice_on_one_line(app, size):
    """"No clock" and "300 s/guess" fit their drop-down (they wrapped onto a second line, cut by the row)."""
    async with app.run_test(size=size) as pilot:
        form = await _table_form(pilot)
        clock = form.query_one("#new-clock", Select)
        await wait_for(pilot, lambda: clock.query_one("#label").region.height > 0)
        assert clock.query_one("#label").region.height == 1, "the chosen clock wraps"
        repeats = form.query_one("#new-repeats")
        assert "Repeats" in str(repeats.label) and repeats.region.width >= len("Repeats") + 8
        clock.focus()
        await pilot.press("enter")
        overlay = clock.query_one("SelectOverlay")
        # Laid out on the screen a moment before its lines are measured: read it once they are.
        await wait_for(pilot, lambda: clock.expanded and overlay.region.height > 0 and overlay.virtual_size.height > 0)
        assert overlay.virtual_size.height == overlay.option_count, "a clock's entry wraps in the list"
