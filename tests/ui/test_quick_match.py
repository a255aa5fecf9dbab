"""Quick match on screen: two apps on one data folder pair into one started table; alone, the computers
fill it; Esc stops waiting; bursts and one key too many change nothing; 80×24 and 60×20."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.table import MAKING, SeatHolder
from wom_tui.screens.live_table import LiveTableScreen
from wom_tui.screens.lobby import LobbyScreen
from wom_tui.screens.menu import MenuScreen
from wom_tui.screens.quick_match import QuickMatchScreen

from .burst import send_burst
from .conftest import build_app, wait_for
from .screen_text import screen_text


@pytest.fixture(autouse=True)
def quick_waves(monkeypatch):
    monkeypatch.setattr(QuickMatchScreen, "wave_interval", 0.2)
    monkeypatch.setattr(QuickMatchScreen, "straggler_hold", 0.5)


def waiting(app) -> bool:
    """True once the app shows the quick-match wait with its ticket taken."""
    return isinstance(app.screen, QuickMatchScreen) and app.screen.ticket is not None


def at_table(app) -> bool:
    return isinstance(app.screen, LiveTableScreen) and app.screen.view is not None


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_two_players_pressing_q_on_the_menu_sit_at_one_started_table(data_dir: Path, size) -> None:
    store = Store(data_dir)
    alan_app, bea_app = build_app(data_dir), build_app(data_dir)
    async with alan_app.run_test(size=size) as a, bea_app.run_test(size=size) as b:
        await a.press("q")
        await wait_for(a, lambda: isinstance(alan_app.screen, QuickMatchScreen) and alan_app.screen.ticket is not None,
                       message="Alan waits")
        await wait_for(a, lambda: "Looking for players" in screen_text(alan_app)
                       and "HAL9000 or VIKI fill the table in 0:" in screen_text(alan_app), message="the wait is said")
        assert "Esc: stop waiting" in screen_text(alan_app)
        await b.press("q")
        await wait_for(a, lambda: at_table(alan_app), message="Alan seated")
        await wait_for(b, lambda: at_table(bea_app), message="Bea seated")
        assert alan_app.screen.table_id == bea_app.screen.table_id
        table = store.live.table(alan_app.screen.table_id)
        assert table.phase == MAKING and sorted(table.names) == sorted(
            [alan_app.together.me().name, bea_app.together.me().name])
        assert alan_app.nudges == 1 and bea_app.nudges == 1  # found: the bell rang once each, with the reason
        await wait_for(a, lambda: store.live.match_queue().tickets == (), message="the queue emptied")


async def test_alone_after_the_fill_time_a_computer_takes_the_seat(data_dir: Path) -> None:
    app = build_app(data_dir, fill_after=0.5)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), message="lobby")
        await pilot.press("q")
        await wait_for(pilot, lambda: at_table(app), message="seated with a computer")
        assert set(app.screen.view.seats[1].name for _ in [0]) <= {"HAL9000", "VIKI"}
        assert "Quick match found" in "".join(str(n.message) for n in app._notifications)


async def test_c_asks_for_the_computers_at_once_and_a_burst_of_keys_seats_once(data_dir: Path) -> None:
    store = Store(data_dir)
    app = build_app(data_dir, fill_after=600)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("q")
        await wait_for(pilot, lambda: waiting(app), message="waiting")
        send_burst(app, "c", "c", "c", "q")
        await wait_for(pilot, lambda: at_table(app), message="seated with a computer")
        tables = store.live.tables().tables
        assert len(tables) == 1 and tables[0].seat_count == 2


async def test_escape_stops_waiting_and_leaves_the_queue(data_dir: Path) -> None:
    store = Store(data_dir)
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        await wait_for(pilot, lambda: waiting(app), message="waiting")
        assert len(store.live.match_queue().waiting) == 1
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, QuickMatchScreen), message="back")
        await wait_for(pilot, lambda: store.live.match_queue().tickets == (), message="out of the queue")
        assert store.live.tables().tables == ()


async def test_an_escape_that_crosses_the_wave_seating_the_player_leaves_that_table_too(data_dir: Path,
                                                                                        monkeypatch) -> None:
    # Bea's process runs the wave that seats Alan with her between two of Alan's screen's reads; Alan presses
    # Esc before his screen has read it. He is back at the menu, and his seat is given up at once: Bea reads
    # that he left and plays on, instead of waiting for his code while he plays something else.
    store = Store(data_dir)
    bea = SeatHolder("Bea", "s-bea", False)
    app = build_app(data_dir, fill_after=600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        await wait_for(pilot, lambda: waiting(app), message="Alan waits")
        # His screen shows nothing more from here (the wave falls between what it showed and his Esc): no new
        # read, and a read already under way shown as nothing.
        monkeypatch.setattr(app.screen, "poke", lambda: None)
        monkeypatch.setattr(app.screen, "show", lambda state: None)
        store.live.join("Bea", False, bea.session)
        store.live.enqueue(bea)
        tables: list = []
        for _ in range(10):  # (a group of two waits for a straggler: the wave after seats it)
            tables = tables or store.live.match_wave(lambda name: None, seed=1, interval=0.0, hold=0.0)
        [table] = tables
        alan = app.together.me().name
        assert sorted(table.names) == sorted([alan, "Bea"])
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), message="Alan back at the menu")
        await wait_for(pilot, lambda: any(seat.gone for seat in store.live.table(table.table_id).view_for(bea).seats),
                       message="Alan's seat given up")
        seen_by_bea = store.live.table(table.table_id).view_for(bea)
        assert {seat.name: seat.gone for seat in seen_by_bea.seats} == {alan: True, "Bea": False}
        assert any(f"{alan} left the game" in line for line in seen_by_bea.log)
        assert store.live.match_queue().ticket(app.together.session) is None


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_q_by_habit_opens_quick_match_which_says_how_to_leave_and_esc_leaves_at_once(data_dir: Path, size) -> None:
    # q was Quit on the menu before it was quick match: a player pressing it by habit must not be stuck.
    store = Store(data_dir)
    app = build_app(data_dir)
    async with app.run_test(size=size) as pilot:
        await pilot.press("q")
        await wait_for(pilot, lambda: waiting(app), message="waiting")
        await wait_for(pilot, lambda: "Esc: stop waiting" in screen_text(app), message="the way out is said")
        assert "Esc" in screen_text(app).splitlines()[-1] or "Esc: stop waiting" in screen_text(app)
        await pilot.press("q")  # one key too many: still waiting, once
        assert len(store.live.match_queue().waiting) == 1
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, QuickMatchScreen), message="back at the menu")
        await wait_for(pilot, lambda: store.live.match_queue().tickets == (), message="out of the queue")
        await pilot.press("x")
        await wait_for(pilot, lambda: not app.is_running, message="x quits")


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_a_burst_of_q_escape_leaves_nobody_queued_behind_the_players_back(data_dir: Path, size) -> None:
    # Esc may land before the waiting screen's first read has joined the queue: the player is back at the
    # menu and must not be left waiting, to be seated with the next player at a table they never see.
    store = Store(data_dir)
    alan_app, bea_app = build_app(data_dir), build_app(data_dir, fill_after=600)
    async with alan_app.run_test(size=size) as a, bea_app.run_test(size=size) as b:
        send_burst(alan_app, "q", "escape")
        await wait_for(a, lambda: isinstance(alan_app.screen, MenuScreen),
                       message="Alan back at the menu")
        # The ticket a first read may have taken goes in a thread of its own as the screen closes ("wom-leave-queue"):
        # Bea comes after it is gone. (On a machine loaded enough to hold that thread back, a wave of hers could
        # otherwise seat her with Alan for the moment before his seat is left: Guest 1 left the game.)
        await wait_for(a, lambda: not any(thread.name == "wom-leave-queue" for thread in threading.enumerate())
                       and not store.live.match_queue().waiting, message="Alan out of the queue")
        await b.press("q")
        await wait_for(b, lambda: isinstance(bea_app.screen, QuickMatchScreen) and bea_app.screen.loads >= 8,
                       message="Bea's screen has looked at the queue through several waves")
        assert isinstance(bea_app.screen, QuickMatchScreen) and bea_app.screen.seated_at is None
        assert [t.holder.name for t in store.live.match_queue().waiting] == [bea_app.together.me().name]
        assert store.live.tables().tables == ()
        assert isinstance(alan_app.screen, MenuScreen)


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_a_burst_q_escape_x_ends_the_session_cleanly(data_dir: Path, size) -> None:
    app = build_app(data_dir)
    async with app.run_test(size=size) as pilot:
        send_burst(app, "q", "escape", "x")
        await wait_for(pilot, lambda: not app.is_running, message="the burst quits")
    assert app._exception is None


def flat(app) -> str:
    """The screen's words as one line (a narrow terminal wraps them anywhere)."""
    return " ".join(" ".join(line.strip(" │╭╮╰╯─") for line in screen_text(app).splitlines()).split())


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_a_pair_is_shown_who_they_play_and_a_straggler_joins_them(data_dir: Path, size, monkeypatch) -> None:
    monkeypatch.setattr(QuickMatchScreen, "straggler_hold", 600.0)  # held while the test looks
    store = Store(data_dir)
    apps = [build_app(data_dir) for _ in range(3)]
    async with apps[0].run_test(size=size) as a, apps[1].run_test(size=size) as b, apps[2].run_test(size=size) as c:
        names = []
        for app, pilot in zip(apps[:2], (a, b)):
            await pilot.press("q")
            await wait_for(pilot, lambda app=app: isinstance(app.screen, QuickMatchScreen) and app.screen.ticket,
                           message="waiting")
            names.append(app.screen.ticket.holder.name)
        alan, bea = names
        await wait_for(a, lambda: f"Found: you play {bea}." in flat(apps[0]), message="Alan sees Bea")
        await wait_for(b, lambda: f"Found: you play {alan}." in flat(apps[1]), message="Bea sees Alan")
        assert "a seat is kept for one more" in flat(apps[0])
        await c.press("q")  # just too late for the wave: joins them rather than wait alone
        await wait_for(c, lambda: isinstance(apps[2].screen, QuickMatchScreen) and apps[2].screen.ticket,
                       message="Cy waits")
        cy = apps[2].screen.ticket.holder.name
        await wait_for(c, lambda: f"Found: you play {alan}, {bea}." in flat(apps[2]), message="Cy joins")
        await wait_for(a, lambda: f"Found: you play {bea}, {cy}." in flat(apps[0]), message="Alan sees Cy")
        assert [len(m) for m in store.live.match_queue().held.values()] == [3]
        assert store.live.tables().tables == ()


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_m_keeps_the_wait_while_replays_are_open_and_the_match_ready_reaches_that_screen(data_dir: Path,
                                                                                              size) -> None:
    # Issue 35 item 8: "your match is ready" reaches a player on any screen.
    from wom_tui.screens.quick_match import MatchReadyScreen
    from wom_tui.screens.replay import ReplaysScreen

    store = Store(data_dir)
    alan_app, bea_app = build_app(data_dir, fill_after=600), build_app(data_dir, fill_after=600)
    async with alan_app.run_test(size=size) as a, bea_app.run_test(size=size) as b:
        await a.press("q")
        await wait_for(a, lambda: isinstance(alan_app.screen, QuickMatchScreen) and alan_app.screen.ticket is not None,
                       message="Alan waits")
        assert "m: wait from the menu" in flat(alan_app)
        await a.press("m")
        await wait_for(a, lambda: isinstance(alan_app.screen, MenuScreen), message="Alan back at the menu")
        await wait_for(a, lambda: "In the quick-match queue" in screen_text(alan_app), message="the badge says so")
        await a.press("v")
        await wait_for(a, lambda: isinstance(alan_app.screen, ReplaysScreen), message="Alan looks at replays")
        await wait_for(a, lambda: "In the quick-match queue" in screen_text(alan_app), message="the badge there too")
        assert [t.holder.name for t in store.live.match_queue().waiting] == [alan_app.together.me().name]
        await b.press("q")
        await wait_for(a, lambda: isinstance(alan_app.screen, MatchReadyScreen), message="told on the replays")
        bea = bea_app.together.me().name
        await wait_for(a, lambda: f"Your quick match is ready: you play {bea}."
                       in " ".join(flat(alan_app).replace("█", " ").split()), message="drawn")
        assert alan_app.nudges == 1  # the bell, once
        assert "Enter to sit" in "".join(str(n.message) for n in alan_app._notifications)
        assert "In the quick-match queue" not in screen_text(alan_app)
        await a.press("enter")
        await wait_for(a, lambda: at_table(alan_app), message="Enter sits Alan")
        await wait_for(b, lambda: at_table(bea_app), message="Bea seated")
        assert alan_app.screen.table_id == bea_app.screen.table_id
        await wait_for(a, lambda: store.live.match_queue().tickets == (), message="the queue emptied")


async def test_a_wait_kept_off_its_screen_goes_back_to_it_esc_there_leaves_and_quitting_leaves(data_dir: Path) -> None:
    store = Store(data_dir)
    app = build_app(data_dir, fill_after=600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        await wait_for(pilot, lambda: waiting(app), message="waiting")
        since = app.screen.ticket.since
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen), message="menu")
        await pilot.press("q")  # back to the same wait, the time waited kept
        await wait_for(pilot, lambda: isinstance(app.screen, QuickMatchScreen) and app.screen.loads > 0,
                       message="the queue again")
        assert store.live.match_queue().ticket(app.together.session).since == since
        await wait_for(pilot, lambda: "In the quick-match queue" not in screen_text(app), message="no badge here")
        await pilot.press("escape")
        await wait_for(pilot, lambda: store.live.match_queue().tickets == (), message="Esc left the queue")
        for leave_by in ("palette", "quitting"):
            await pilot.press("q")
            await wait_for(pilot, lambda: waiting(app), message="waiting again")
            await pilot.press("m")
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and app.quick_wait is not None,
                           message="menu")
            await wait_for(pilot, lambda: len(store.live.match_queue().waiting) == 1, message="queued")
            if leave_by == "palette":
                await pilot.press("ctrl+p", *"leave the queue")
                await wait_for(pilot, lambda: "Stop waiting for a quick match" in screen_text(app), message="offered")
                await pilot.press("enter")
                await wait_for(pilot, lambda: store.live.match_queue().tickets == (), message="the palette left it")
                await wait_for(pilot, lambda: "In the quick-match queue" not in screen_text(app), message="no badge")
        await pilot.press("x")  # quit the app, queued
        await wait_for(pilot, lambda: not app.is_running, message="x quits")
    assert store.live.match_queue().tickets == ()


async def test_a_player_waiting_off_the_screen_who_opens_a_table_by_hand_leaves_the_queue(data_dir: Path) -> None:
    # Waiting elsewhere (m), then opening a table in the lobby: the next wave must not seat the player a
    # second time, at a quick-match table they would never see.
    store = Store(data_dir)
    app = build_app(data_dir, fill_after=600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        await wait_for(pilot, lambda: waiting(app), message="waiting")
        await pilot.press("m")
        await wait_for(pilot, lambda: "In the quick-match queue" in screen_text(app), message="waiting from the menu")
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), message="the lobby")
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen.query("#new-create"), message="the new table form")
        await pilot.press("enter", "enter")  # (a second Enter opens no second table)
        await wait_for(pilot, lambda: at_table(app), message="at the table opened")
        await wait_for(pilot, lambda: store.live.match_queue().tickets == (), message="out of the queue")
        assert "You left the quick-match queue" in "".join(str(n.message) for n in app._notifications)
        assert "In the quick-match queue" not in screen_text(app)
        assert len(store.live.tables().tables) == 1
