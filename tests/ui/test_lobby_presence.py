"""The lobby counts a dropped player's seat grace down beside their name, and says when they are back."""

from __future__ import annotations

import re
from pathlib import Path

from textual.widgets import OptionList, Static

from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.table import SeatHolder
from wom_tui.screens.lobby import LobbyScreen

from .conftest import at_both_sizes, build_app, wait_for
from .screen_text import screen_lines

BETTY = SeatHolder("Betty", "s-betty", True)
ALAN = SeatHolder("Alan", "s-alan", True)


def _rows(app) -> list[str]:
    options = app.screen.query_one("#lobby-tables", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def _started_with_betty_away(live, opener: SeatHolder, seed: int):
    """A two-seat table of ``opener``'s with Betty in the second seat, started: Betty's session is gone, so she
    is away (a seat grace of two minutes)."""
    table = live.create_table(opener, seats=2, seed=seed, grace=120.0)
    live.update_table(table.table_id, lambda t: t.sit(BETTY, 1))
    live.act(table.table_id, lambda t, now: t.start(opener, now))
    return table


async def test_away_with_the_grace_counting_down_then_betty_is_back(data_dir: Path) -> None:
    store = Store(data_dir)
    for name in ("Alan", "Betty"):
        store.register(name)
    live = store.live
    live.join("Alan", True, ALAN.session)
    table = _started_with_betty_away(live, ALAN, seed=4)
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.state is not None,
                       message="lobby")

        async def away(size) -> None:
            await wait_for(pilot, lambda: any("Betty (away, " in row for row in _rows(app)), message=f"Betty away at {size}")
            [row] = [r for r in _rows(app) if "Betty" in r]
            left = re.search(r"Betty \(away, (\d):(\d\d) left\)", row)
            assert left and 100 <= int(left[1]) * 60 + int(left[2]) <= 120
            assert any("Betty (away" in line for line in screen_lines(app)), "said in the row, on screen"

        await at_both_sizes(pilot, away)
        [first] = [r for r in _rows(app) if "Betty" in r]
        await wait_for(pilot, lambda: [r for r in _rows(app) if "Betty" in r] != [first],
                       message="the countdown moves on by itself")
        live.join("Betty", True, BETTY.session)
        live.tick(table.table_id)
        await wait_for(pilot, lambda: "Betty is back." in str(app.screen.query_one("#lobby-message", Static).render()),
                       message="Betty is back")
        assert not any("away" in row for row in _rows(app))


async def test_two_hundred_online_are_counted_in_two_lines_and_the_tables_keep_their_room(data_dir: Path) -> None:
    # An arcade of four servers puts hundreds in the lobby: the list of names must not push the tables, and
    # the line that says where your seat is, off the screen.
    store = Store(data_dir)
    store.register("Alan")
    live = store.live
    for number in range(200):
        live.join(f"Player{number:03d}", False, f"s-{number}")
    live.join("Alan", True, ALAN.session)
    live.create_table(ALAN, seats=2, seed=4)
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.state is not None
                       and "more" in str(app.screen.query_one("#lobby-online", Static).render()), message="lobby")
        for size in ((80, 24), (60, 20)):
            await pilot.resize_terminal(*size)
            lobby = app.screen
            online = lobby.query_one("#lobby-online", Static)
            hint = lobby.query_one("#lobby-hint", Static)
            await wait_for(pilot, lambda: online.size.height <= 2 and hint.region.right <= size[0],
                           message="laid out again at the new size")
            text = str(online.render())
            assert text.startswith("Online (202): Player000, Player001")  # (and this app's own guest)
            assert re.search(r"… and \d+ more   You: Guest", text)
            assert online.size.height <= 2
            tables = lobby.query_one("#lobby-tables", OptionList)
            assert tables.size.height >= 3 and "Alan" in _rows(app)[0]
            assert hint.region.bottom <= size[1] - 1, "the keys' hint is on the screen, above the footer"


async def test_moves_at_a_running_table_are_heard_but_not_redrawn_and_its_end_is_shown(data_dir: Path,
                                                                                        monkeypatch) -> None:
    # Every lobby of an arcade hears every move at every table; a move changes nothing a lobby shows, so the
    # lobby neither reads the table again nor redraws (what costs an arcade of hundreds its CPU). The end of
    # the game changes the row: that one is read and shown. (Alan and Betty never beat here: their presences
    # are kept from going stale, so that a slow machine cannot show them away in between.)
    import wom_tui.domain.store.folder.live as folder_live

    monkeypatch.setattr(folder_live, "PRESENCE_STALE", 3600.0)
    store = Store(data_dir)
    for name in ("Alan", "Betty"):
        store.register(name)
    live = store.live
    live.join("Alan", True, ALAN.session)
    live.join("Betty", True, BETTY.session)
    table = live.create_table(ALAN, seats=2, seed=4, attempts=5)
    live.update_table(table.table_id, lambda t: t.sit(BETTY, 1))
    live.act(table.table_id, lambda t, now: t.start(ALAN, now))
    for person in (ALAN, BETTY):
        live.act(table.table_id, lambda t, now, p=person: t.set_code(p, "RGBY", now))
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.state is not None
                       and app.screen.feed_ready.is_set() and any("playing" in row for row in _rows(app)),
                       message="the lobby shows the running table")
        lobby = app.screen
        assert not any("away" in row for row in _rows(app))
        rows = _rows(app)
        loads = lobby.loads
        for miss in ("RRRR", "GGGG", "BBBB", "WWWW"):
            for person in (ALAN, BETTY):
                heard = lobby.heard
                live.act(table.table_id, lambda t, now, p=person, m=miss: t.guess(p, m, now))
                await wait_for(pilot, lambda n=heard: lobby.heard > n, message="the lobby hears the move")
        await pilot.pause()
        assert lobby.loads == loads, "a move the lobby shows no differently is not read again"
        assert _rows(app) == rows
        for person in (ALAN, BETTY):  # the last attempts: the game is over
            live.act(table.table_id, lambda t, now, p=person: t.guess(p, "KKKK", now))
        await wait_for(pilot, lambda: any("finished" in row for row in _rows(app)), message="the end is shown")
        assert lobby.loads > loads


async def test_someone_back_at_a_table_does_not_hide_the_line_that_says_where_your_seat_is(data_dir: Path) -> None:
    """Alan holds a seat at a running table (from an earlier connection) and opens the lobby: the line says
    where his seat is and how to go back; Betty, away at another table, comes back, and the line still says
    so (it said "Betty is back." instead, and a player who looked then no longer read where to go)."""
    store = Store(data_dir)
    for name in ("Alan", "Betty", "Cleo"):
        store.register(name)
    live = store.live
    cleo = SeatHolder("Cleo", "s-cleo", True)
    live.join("Cleo", True, cleo.session)
    mine = live.create_table(SeatHolder("Alan", "s-alan-before", True), seats=2, seed=4, grace=120.0)
    live.update_table(mine.table_id, lambda t: t.sit(cleo, 1))
    live.act(mine.table_id, lambda t, now: t.start(SeatHolder("Alan", "s-alan-before", True), now))
    theirs = _started_with_betty_away(live, cleo, seed=5)
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.feed_ready.is_set(),
                       message="lobby")
        app.screen.query_one("#lobby-as").value = "Alan"

        def message() -> str:
            return str(app.screen.query_one("#lobby-message", Static).render())

        await wait_for(pilot, lambda: "You still have a seat at Alan's table" in message(), message="the seat said")
        await wait_for(pilot, lambda: any("Betty (away, " in row for row in _rows(app)), message="Betty away")
        live.join("Betty", True, BETTY.session)
        live.tick(theirs.table_id)
        await wait_for(pilot, lambda: not any("Betty (away" in row for row in _rows(app)), message="Betty's row: back")
        assert "You still have a seat at Alan's table" in message()
        assert "Betty is back" not in message()
