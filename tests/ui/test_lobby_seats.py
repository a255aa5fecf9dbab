"""Leaving a table's screen by another way than Esc keeps the seat visibly, and one session holds at
most one table it opened and has not started (the palette route that opened unlimited tables)."""

from __future__ import annotations

from textual.widgets import OptionList, Static

from wom_tui.domain.table import CLOSED, OPEN
from wom_tui.screens.live_table import LiveTableScreen
from wom_tui.screens.lobby import LobbyScreen
from wom_tui.screens.menu import MenuScreen

from .conftest import wait_for
from .test_leaving import run_palette_command


def _message(app) -> str:
    return str(app.screen.query_one("#lobby-message", Static).render())


def _open_tables(store) -> list:
    return [t for t in store.live.tables().tables if t.phase == OPEN]


async def _lobby(pilot) -> LobbyScreen:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen) and pilot.app.screen.state is not None,
                   message="in the lobby")
    return pilot.app.screen


async def _new_table(pilot) -> None:
    await pilot.press("n")
    await wait_for(pilot, lambda: pilot.app.screen.__class__.__name__ == "NewTableScreen", message="the dialog")
    await pilot.press("enter")


async def test_the_palette_route_keeps_one_table_and_the_lobby_says_where_the_seat_is(app, store):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await _lobby(pilot)
        await _new_table(pilot)
        await wait_for(pilot, lambda: isinstance(app.screen, LiveTableScreen) and app.screen.view is not None,
                       message="at the new table")
        await run_palette_command(pilot, "Lobby")
        await _lobby(pilot)
        await run_palette_command(pilot, "Main menu")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), message="back at the main menu")
        assert any("kept your seat" in str(n.message) for n in app._notifications), "the kept seat is said"
        for _ in range(2):  # the same route again: no second table
            await pilot.press("l")
            screen = await _lobby(pilot)
            await wait_for(pilot, lambda: "You still have a seat at" in _message(app), message="the seat is named")
            assert "Enter to go back, x to close it" in _message(app)
            await _new_table(pilot)
            await wait_for(pilot, lambda: "already have a table" in _message(app), message="the second is refused")
            assert app.screen is screen
            assert len(_open_tables(store)) == 1
            await run_palette_command(pilot, "Main menu")
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        # x leaves (here: closes) the table the lobby names, and then another may be opened
        await pilot.press("l")
        await _lobby(pilot)
        await wait_for(pilot, lambda: "You still have a seat at" in _message(app))
        await pilot.press("x")
        await wait_for(pilot, lambda: not _open_tables(store), message="the table closed")
        assert [t.phase for t in store.live.tables().tables] == [CLOSED]
        await wait_for(pilot, lambda: "You left" in _message(app))
        await _new_table(pilot)
        await wait_for(pilot, lambda: isinstance(app.screen, LiveTableScreen), message="a new table")
        assert len(_open_tables(store)) == 1


async def test_escape_from_the_table_asks_and_leaving_there_frees_the_lobby(app, store):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await _lobby(pilot)
        await _new_table(pilot)
        await wait_for(pilot, lambda: isinstance(app.screen, LiveTableScreen) and app.screen.view is not None)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ConfirmScreen", message="asked")
        await pilot.press("y")
        screen = await _lobby(pilot)
        await wait_for(pilot, lambda: not _open_tables(store))
        assert "You still have a seat" not in _message(app)
        tables = screen.query_one("#lobby-tables", OptionList)
        assert tables.option_count == 1 and "No tables yet" in str(tables.get_option_at_index(0).prompt)


async def test_a_served_address_at_its_cap_is_told_why(make_app, store):
    from wom_tui.domain.table import SeatHolder

    for n in range(2):
        store.live.create_table(SeatHolder(f"Guest {n + 5}", f"{n:032x}", False), origin="192.0.2.4", per_address=2)
    app = make_app(client_address="192.0.2.4", max_open_tables_per_address=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await _lobby(pilot)
        await _new_table(pilot)
        await wait_for(pilot, lambda: "Your address already has 2 tables" in _message(app), message="refused")
        assert len(_open_tables(store)) == 2
