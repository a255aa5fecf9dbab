"""An invitation, and a table's start asking for your code, reach a player on any screen — the main menu, a
solo game — with the bell, once (issue 35, item 8)."""

from __future__ import annotations

import random

import pytest

from wom_tui.app import WomApp
from wom_tui.domain.identity import Identity
from wom_tui.domain.presence import new_session_id
from wom_tui.domain.store import open_store
from wom_tui.domain.table import SeatHolder
from wom_tui.screens.menu import MenuScreen

from .conftest import make_options, wait_for
from .test_solo import open_setup, start_game

FP = "SHA256:" + "N" * 43


def bea(data_dir) -> WomApp:
    store = open_store(data_dir)
    store.register("Bea", key=FP)
    store.register("Alan")
    options = make_options(data_dir, served=True, session_id="bea-1", client_address="192.0.2.9", transport="ssh")
    return WomApp(store, random.Random(1), options, Identity.key(FP).signed_in_as("Bea"))


def told(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


@pytest.mark.parametrize("where", ["menu", "solo game"])
async def test_an_invitation_and_the_start_reach_any_screen(data_dir, where) -> None:
    app = bea(data_dir)
    live = open_store(data_dir).live
    alan = SeatHolder("Alan", new_session_id(), True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and getattr(app, "notices", None)
                       and app.together.me() is not None)
        if where == "solo game":
            await open_setup(pilot)
            await start_game(pilot)
        table = live.invite(alan, "Bea", seed=3)
        await wait_for(pilot, lambda: any("Alan invites you to a table" in text for text in told(app)),
                       message="the invitation reaches Bea")
        assert app.nudges == 1, "the bell rang once"
        bea_there = app.together.me()
        live.act(table.table_id, lambda t, now: t.accept(bea_there, now))  # (as from her lobby)
        await wait_for(pilot, lambda: any("has started: set the code" in text for text in told(app)),
                       message="the start reaches Bea")
        assert app.nudges == 2
        live.act(table.table_id, lambda t, now: t.set_code(alan, "RGBY", now))  # a change: nothing new to say
        await pilot.pause()
        assert app.nudges == 2
