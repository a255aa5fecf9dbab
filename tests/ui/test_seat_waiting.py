"""Coming back mid-game (a dropped SSH connection, a new one): the menu says the seat is waiting and Enter goes
back to the table; Esc stays on the menu (issue 35, item 9)."""

from __future__ import annotations

import random


from wom_tui.app import WomApp
from wom_tui.domain.codes import WOM_RULESET
from wom_tui.domain.identity import Identity
from wom_tui.domain.presence import new_session_id
from wom_tui.domain.store import open_store
from wom_tui.domain.table import SeatHolder
from wom_tui.screens.live_table import LiveTableScreen
from wom_tui.screens.menu import MenuScreen
from wom_tui.screens.seat_waiting import SeatWaitingScreen

from .conftest import at_both_sizes, make_options, wait_for
from .screen_text import screen_text
from .test_together import _focused

FP = "SHA256:" + "S" * 43


def game_under_way(data_dir) -> str:
    """Alan (an earlier session, dropped) at a started table against HAL9000, his code set."""
    store = open_store(data_dir)
    store.register("Alan", key=FP)
    live = store.live
    before = SeatHolder("Alan", new_session_id(), True)
    table = live.create_table(before, seats=2, attempts=10, ruleset=WOM_RULESET, seed=5, pace=(0.0, 0.0))
    live.act(table.table_id, lambda t, now: t.seat_computer(before, 1, "HAL9000"))
    live.act(table.table_id, lambda t, now: t.start(before, now))
    live.act(table.table_id, lambda t, now: t.set_code(before, "RGBY", now))
    return table.table_id


def alan_again(data_dir) -> WomApp:
    options = make_options(data_dir, served=True, session_id="s2", client_address="192.0.2.1", transport="ssh")
    return WomApp(open_store(data_dir), random.Random(1), options, Identity.key(FP).signed_in_as("Alan"))


async def test_back_mid_game_the_seat_is_offered_and_enter_goes_back(data_dir) -> None:
    table_id = game_under_way(data_dir)
    app = alan_again(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        async def offered(size) -> None:
            # (The screen is current before its words are drawn: wait for them, as a person would.)
            await wait_for(pilot, lambda: isinstance(app.screen, SeatWaitingScreen)
                           and "You still have a seat at Alan's table." in screen_text(app),
                           message=f"the seat is offered at {size}")
            assert "Go back" in screen_text(app)

        await at_both_sizes(pilot, offered)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveTableScreen) and app.screen.table_id == table_id)
        await wait_for(pilot, lambda: _focused(app) == "guess-input", message="back at his seat, asked for a guess")


async def test_esc_stays_on_the_menu(data_dir) -> None:
    game_under_way(data_dir)
    app = alan_again(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SeatWaitingScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))


async def test_nothing_is_offered_without_a_game_under_way(data_dir) -> None:
    open_store(data_dir).register("Alan", key=FP)
    app = alan_again(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and getattr(app, "together", None))
        await pilot.press("s")  # the menu takes keys at once: no dialog over it
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ScoreboardScreen")
