"""Invite and rematch on screen: Alan invites Bea from the lobby, she sees it at once (and is nudged), and
accepting starts the table; at a finished table, a (again) opens the same seats, Bea accepts from her lobby
and the new table starts. A second a changes nothing."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.table import FINISHED, MAKING, SeatHolder
from wom_tui.screens.live_table import LiveTableScreen
from wom_tui.screens.lobby import InviteScreen, LobbyScreen

from .conftest import build_app, wait_for


def _message(app) -> str:
    return str(app.screen.query_one("#lobby-message", Static).render())


async def _as(pilot, name: str) -> None:
    app = pilot.app
    await pilot.press("l")
    await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.feed_ready.is_set(), message="lobby")
    app.screen.query_one("#lobby-as").value = name
    await wait_for(pilot, lambda: app.together.presence is not None and app.together.presence.name == name,
                   message=f"playing as {name}")


async def test_an_invitation_reaches_bea_at_once_and_accepting_starts_the_table(data_dir: Path) -> None:
    store = Store(data_dir)
    for name in ("Alan", "Bea"):
        store.register(name)
    alan, bea = build_app(data_dir), build_app(data_dir)
    async with alan.run_test(size=(80, 24)) as a, bea.run_test(size=(60, 20)) as b:
        await _as(a, "Alan")
        await _as(b, "Bea")
        await wait_for(a, lambda: alan.screen.state is not None
                       and [p.name for p in alan.screen.state.online if p.name != "Alan"] == ["Bea"],
                       message="Alan sees Bea online")
        await a.press("i")
        await wait_for(a, lambda: isinstance(alan.screen, InviteScreen), message="whom to invite")
        await a.press("enter")
        await wait_for(a, lambda: isinstance(alan.screen, LiveTableScreen) and alan.screen.view is not None,
                       message="Alan at his table")
        await wait_for(b, lambda: "Alan invites you to a table" in _message(bea), message="Bea sees the invitation")
        assert getattr(bea, "nudges", 0) == 1
        await b.press("a", "a")  # one key too many: the second finds no invitation, and says so
        await wait_for(b, lambda: isinstance(bea.screen, LiveTableScreen) and bea.screen.view is not None,
                       message="Bea at the table")
        await wait_for(a, lambda: alan.screen.view.phase == MAKING, message="the table started by itself")
        assert len(store.live.tables().tables) == 1


async def test_again_at_a_finished_table_opens_the_same_seats_and_starts_when_bea_accepts(data_dir: Path) -> None:
    store = Store(data_dir)
    for name in ("Alan", "Bea"):
        store.register(name)
    live = store.live
    alan_holder, bea_holder = SeatHolder("Alan", "old-a", True), SeatHolder("Bea", "old-b", True)
    table = live.create_table(alan_holder, seats=2, seed=9, pace=(0.0, 0.0))
    live.update_table(table.table_id, lambda t: t.sit(bea_holder, 1))
    live.act(table.table_id, lambda t, now: t.start(alan_holder, now))
    for person in (alan_holder, bea_holder):
        live.act(table.table_id, lambda t, now, p=person: t.leave(p, now))
    assert live.table(table.table_id).phase == FINISHED
    alan, bea = build_app(data_dir), build_app(data_dir)
    async with alan.run_test(size=(80, 24)) as a, bea.run_test(size=(80, 24)) as b:
        await _as(a, "Alan")
        await _as(b, "Bea")
        await wait_for(a, lambda: alan.screen.state is not None and alan.screen.state.tables, message="listed")
        await a.press("enter")
        await wait_for(a, lambda: isinstance(alan.screen, LiveTableScreen) and alan.screen.view is not None,
                       message="Alan at the finished table")
        await a.press("a")
        await wait_for(a, lambda: isinstance(alan.screen, LiveTableScreen) and alan.screen.table_id != table.table_id
                       and alan.screen.view is not None, message="Alan at the rematch")
        rematch_id = alan.screen.table_id
        assert live.table(table.table_id).rematch_id == rematch_id
        await wait_for(b, lambda: "Alan invites you to a table" in _message(bea), message="Bea offered the rematch")
        await b.press("a")
        await wait_for(a, lambda: alan.screen.view.phase == MAKING, message="the rematch started")
        assert live.table(rematch_id).names == ("Alan", "Bea")
        assert len(live.tables().tables) == 2
