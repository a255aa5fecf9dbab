"""Playing together: two app instances on one data folder meet in the lobby and play a table."""

from __future__ import annotations

import threading
from pathlib import Path

from textual.widgets import OptionList, Static

from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.screens.live_table import LiveTableScreen
from wom_tui.screens.lobby import LobbyScreen
from wom_tui.screens.menu import MenuScreen
from wom_tui.screens.seat_waiting import SeatWaitingScreen

from .burst import send_burst
from .conftest import build_app, wait_for


def _text(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def _tables(app) -> list[str]:
    options = app.screen.query_one("#lobby-tables", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def _seats(app) -> list[str]:
    options = app.screen.query_one("#table-seats", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def _focused(app) -> str | None:
    return app.focused.id if app.focused is not None else None


async def _open_lobby(pilot) -> None:
    await pilot.press("l")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen) and pilot.app.screen.feed_ready.is_set(),
                   message="lobby open and watching")


async def _table_with_hal(pilot) -> None:
    """From the main menu: a new two-seat table, HAL9000 in the free seat (not started)."""
    await _open_lobby(pilot)
    await _new_table_with(pilot, "h", "HAL9000")


async def _new_table_with(pilot, key: str, computer: str) -> str:
    """From the lobby: a new two-seat table, ``computer`` seated by its ``key`` in the free seat (not
    started); the table's id."""
    app = pilot.app
    await pilot.press("n")
    await pilot.pause()
    await pilot.press("enter")  # "Open table" is focused first
    await wait_for(pilot, lambda: isinstance(app.screen, LiveTableScreen) and app.screen.view is not None,
                   message="at the new table")
    await pilot.press(key)  # the free seat is highlighted first
    await wait_for(pilot, lambda: computer in _seats(app)[1], message=f"{computer} seated")
    return app.screen.table_id


async def test_lobby_shows_a_table_another_instance_opens(data_dir: Path) -> None:
    """Without a key press, the lobby of one instance lists the table another instance opened."""
    watcher, maker = build_app(data_dir), build_app(data_dir)
    async with watcher.run_test(size=(80, 24)) as w, maker.run_test(size=(80, 24)) as m:
        await _open_lobby(w)
        assert "No tables yet" in _tables(watcher)[0]
        await _open_lobby(m)
        await wait_for(w, lambda: len(watcher.screen.state.online) == 2 if watcher.screen.state else False,
                       message="both sessions online")
        await m.press("n")
        await m.pause()
        await m.press("enter")  # "Open table" is focused first
        await wait_for(m, lambda: isinstance(maker.screen, LiveTableScreen) and maker.screen.view is not None,
                       message="the maker at its table")
        maker_name = maker.together.me().name
        await wait_for(w, lambda: any(f"{maker_name}'s table" in row for row in _tables(watcher)),
                       message="the watcher's lobby lists the new table by itself")
        assert "1 free seat" in _tables(watcher)[0]


async def test_two_instances_play_a_table_with_hal_to_the_results(data_dir: Path) -> None:
    """Alan opens a 3-seat table, Bea sits, Alan adds HAL9000 and starts; both set codes, guess on
    their own boards, and both see the results at the end; the game is in the store once."""
    store = Store(data_dir)
    store.register("Alan")
    store.register("Bea")
    alan_app, bea_app = build_app(data_dir), build_app(data_dir)
    async with alan_app.run_test(size=(80, 24)) as a, bea_app.run_test(size=(80, 24)) as b:
        for pilot, name in ((a, "Alan"), (b, "Bea")):
            await _open_lobby(pilot)
            pilot.app.screen.query_one("#lobby-as").value = name
            await wait_for(pilot, lambda p=pilot, n=name: p.app.together.presence is not None
                           and p.app.together.presence.name == n, message=f"{name} plays as {name}")
        await a.press("n")
        await a.pause()
        alan_app.screen.query_one("#new-seats").value = 3
        await a.pause()
        await a.click("#new-create")
        await wait_for(a, lambda: isinstance(alan_app.screen, LiveTableScreen) and alan_app.screen.view is not None,
                       message="Alan at his table")
        table_id = alan_app.screen.table_id
        await wait_for(b, lambda: any("Alan's table" in row for row in _tables(bea_app)), message="Bea sees it")
        await b.press("enter")
        await wait_for(b, lambda: isinstance(bea_app.screen, LiveTableScreen) and bea_app.screen.view is not None,
                       message="Bea at the table")
        await b.press("s", "s")  # the first free seat (2) is highlighted; a second s is refused without harm
        await wait_for(a, lambda: "Bea" in _seats(alan_app)[1], message="Alan sees Bea sit")
        await a.press("down", "h")
        await wait_for(a, lambda: "HAL9000" in _seats(alan_app)[2], message="HAL9000 seated")
        await a.press("g")
        await wait_for(a, lambda: alan_app.screen.view.phase == "making", message="code making")
        await wait_for(b, lambda: bea_app.screen.view.phase == "making", message="Bea sees code making")
        # Each sets a code on their own terminal. Alan's second Enter in the same burst, while his code is
        # still on its way to the store (held here), sets nothing more and says nothing about it.
        await wait_for(a, lambda: _focused(alan_app) == "code-input", message="Alan asked for his code")
        live = alan_app.screen.wom.store.live
        code_on_its_way, set_code = threading.Event(), live.act
        live.act = lambda *args, **kwargs: (code_on_its_way.wait(10), set_code(*args, **kwargs))[1]
        send_burst(alan_app, *"RGBY", "enter", "enter")
        await a.pause()
        code_on_its_way.set()
        await wait_for(a, lambda: store.live.table(table_id).to_json()["seats"][0]["code"] is not None,
                       message="Alan's code is set")
        await wait_for(a, lambda: not [w for w in alan_app.workers if w.group == "act" and not w.is_finished],
                       message="nothing more on its way")
        assert "already" not in _text(alan_app, "#table-message")
        await wait_for(b, lambda: _focused(bea_app) == "code-input", message="Bea asked for her code")
        await b.press(*"YYWW", "enter")
        await wait_for(a, lambda: alan_app.screen.view.phase == "guessing", message="guessing begins")
        await wait_for(b, lambda: bea_app.screen.view.phase == "guessing", message="Bea guesses too")
        await wait_for(b, lambda: _focused(bea_app) == "guess-input", message="Bea asked for a guess")
        await wait_for(a, lambda: _focused(alan_app) == "guess-input", message="Alan asked for a guess")
        # Bea guesses: Alan's panel shows her attempt count, never her guess.
        # A second Enter in the same burst plays nothing more, even while the first guess is still on
        # its way to the store (held here, as a slow disk holds it).
        live = bea_app.screen.wom.store.live
        on_its_way, play = threading.Event(), live.act
        live.act = lambda *args, **kwargs: (on_its_way.wait(10), play(*args, **kwargs))[1]
        send_burst(bea_app, *"RRRR", "enter", "enter")
        await b.pause()
        on_its_way.set()
        await wait_for(a, lambda: "1/10" in _seats(alan_app)[1], message="Alan's panel shows Bea's attempt")
        assert "RRRR" not in " ".join(_seats(alan_app))
        await wait_for(b, lambda: not bea_app.screen.query_one("#guess-input").value, message="Bea's entry cleared")
        assert "1/10" in _seats(bea_app)[1] and "1/10" in _seats(alan_app)[1]
        # Play every possible guess until each board is done (both know only their feedback).
        table = store.live.table(table_id)
        codes = {name: code for name, code in zip(("Alan", "Bea", "HAL9000"), [s["code"] for s in table.to_json()["seats"]])}
        await a.press(*codes["HAL9000"], "enter")  # Alan breaks HAL9000's code (seat 3 makes for seat 1)
        await b.press(*codes["Alan"], "enter")  # Bea breaks Alan's code
        await wait_for(a, lambda: alan_app.screen.view.phase == "finished", timeout=30, message="the game ends")
        await wait_for(b, lambda: bea_app.screen.view.phase == "finished", message="Bea sees the end")
        for app in (alan_app, bea_app):
            assert "broke" in _text(app, "#table-message") or "points" in _text(app, "#table-message")
        await wait_for(a, lambda: store.live.table(table_id).recorded, message="recorded")
        games = store.games()
        assert len(games) == 1
        players = {p.name: p for p in games[0].players}
        assert players["Alan"].broke and players["Bea"].broke
        # Back in the lobby the finished table, whose results Bea saw, is listed no more, and nobody is
        # offered a seat at it.
        await b.press("escape")
        await wait_for(b, lambda: isinstance(bea_app.screen, LobbyScreen) and bea_app.screen.state is not None
                       and "No tables yet" in _tables(bea_app)[0], message="Bea back in the lobby")
        assert "still have a seat" not in _text(bea_app, "#lobby-message")


async def _as(pilot, name: str) -> None:
    await _open_lobby(pilot)
    pilot.app.screen.query_one("#lobby-as").value = name
    await wait_for(pilot, lambda: pilot.app.together.presence is not None and pilot.app.together.presence.name == name,
                   message=f"playing as {name}")


async def test_a_dropped_player_comes_back_a_spectator_watches_and_esc_leaves(data_dir: Path) -> None:
    """Bea's session ends mid-game: her seat shows away; she comes back on a new session to the same
    board. Cy watches (no entry, the panel only). Alan leaves with Esc, confirmed: his seat shows as
    left and the game goes on to the results, which the spectator sees too."""
    store = Store(data_dir)
    for name in ("Alan", "Bea", "Cy"):
        store.register(name)
    alan_app, bea_app, cy_app = build_app(data_dir), build_app(data_dir), build_app(data_dir)
    async with alan_app.run_test(size=(80, 24)) as a, cy_app.run_test(size=(80, 24)) as c:
        await _as(a, "Alan")
        await _as(c, "Cy")
        await a.press("n")
        await a.pause()
        await a.press("enter")
        await wait_for(a, lambda: isinstance(alan_app.screen, LiveTableScreen) and alan_app.screen.view is not None)
        table_id = alan_app.screen.table_id
        async with bea_app.run_test(size=(80, 24)) as b:
            await _as(b, "Bea")
            await wait_for(b, lambda: any("Alan's table" in row for row in _tables(bea_app)))
            await b.press("enter")
            await wait_for(b, lambda: isinstance(bea_app.screen, LiveTableScreen) and bea_app.screen.view is not None)
            await b.press("s")
            await wait_for(a, lambda: "Bea" in _seats(alan_app)[1], message="Bea seated")
            await a.press("g")
            await wait_for(a, lambda: _focused(alan_app) == "code-input")
            await a.press(*"RGBY", "enter")
            await wait_for(b, lambda: _focused(bea_app) == "code-input")
            await b.press(*"WWKK", "enter")
            await wait_for(b, lambda: _focused(bea_app) == "guess-input", message="Bea guesses")
            await b.press(*"RRRR", "enter")
            await wait_for(a, lambda: "1/10" in _seats(alan_app)[1], message="Bea's attempt on Alan's panel")
            # Cy watches the running table.
            await wait_for(c, lambda: any("playing" in row for row in _tables(cy_app)), message="Cy sees it running")
            await c.press("enter")
            await wait_for(c, lambda: isinstance(cy_app.screen, LiveTableScreen) and cy_app.screen.view is not None)
            assert cy_app.screen.view.you is None
            assert "watching" in _text(cy_app, "#table-message")
            assert not any(entry.display for entry in cy_app.screen.query("PegInput"))
            await wait_for(c, lambda: "1/10" in _seats(cy_app)[1], message="Cy sees Bea's progress")
            await c.press(*"RGBY", "enter")  # a spectator's keys play nothing
        # Bea's session is over: her seat is away, not gone.
        await wait_for(a, lambda: "(away)" in _seats(alan_app)[1], timeout=30, message="Bea shown away")
        bea_again = build_app(data_dir)
        async with bea_again.run_test(size=(80, 24)) as b2:
            # On arrival (this data folder remembers Bea as the one who played last), the seat is offered
            # over the menu; she turns to the menu first, and the lobby offers it again.
            await wait_for(b2, lambda: isinstance(bea_again.screen, SeatWaitingScreen), message="the seat offered on arrival")
            await b2.press("escape")
            await wait_for(b2, lambda: isinstance(bea_again.screen, MenuScreen))
            await _as(b2, "Bea")
            await wait_for(b2, lambda: "still have a seat" in _text(bea_again, "#lobby-message"),
                           message="the lobby offers Bea her seat back")
            await b2.press("enter")
            await wait_for(b2, lambda: isinstance(bea_again.screen, LiveTableScreen)
                           and bea_again.screen.view is not None and bea_again.screen.view.you == 1)
            board = bea_again.screen.view.own
            assert [attempt.guess for attempt in board.history] == ["RRRR"]
            await wait_for(a, lambda: "(away)" not in _seats(alan_app)[1], message="Bea back on Alan's panel")
            # Alan leaves with Esc: asked first; n stays, Esc stays, y leaves.
            await a.press("escape")
            await a.pause()
            await a.press("n")
            await a.pause()
            assert isinstance(alan_app.screen, LiveTableScreen)
            await a.press("escape")
            await a.pause()
            await a.press("escape")
            await a.pause()
            assert isinstance(alan_app.screen, LiveTableScreen)
            await a.press("escape")
            await a.pause()
            await a.press("y")
            await wait_for(a, lambda: isinstance(alan_app.screen, LobbyScreen), message="Alan back in the lobby")
            await wait_for(b2, lambda: "left" in _seats(bea_again)[0], message="Bea sees Alan left")
            await wait_for(b2, lambda: _focused(bea_again) == "guess-input")
            await b2.press(*"RGBY", "enter")
            await wait_for(b2, lambda: bea_again.screen.view.phase == "finished", message="the game ends")
            await wait_for(c, lambda: cy_app.screen.view.phase == "finished", message="Cy sees the results")
            assert cy_app.screen.view.results is not None
            # The results table, the same for the spectator: each code revealed, attempts, points, rating change.
            for app in (bea_again, cy_app):
                await wait_for(c, lambda app=app: "+" in _text(app, "#table-results"), message="rating changes")
                lines = _text(app, "#table-results").splitlines()
                assert lines[0].split() == ["Player", "Code", "Broke", "Points", "Rating"]
                alan, bea = lines[1].split(), lines[2].split()
                assert alan[:2] == ["Alan", "WWKK"] and alan[2:4] == ["no", "(0)"]
                assert bea[:4] == ["Bea", "RGBY", "in", "2"] and bea[5].startswith("+")
                assert alan[5].startswith("-")
        await wait_for(a, lambda: store.live.table(table_id).recorded, message="recorded")
        (game,) = store.games()
        players = {p.name: p for p in game.players}
        assert players["Bea"].broke and not players["Alan"].broke


async def test_at_60x20_the_table_leaves_its_messages_room_to_be_read(data_dir: Path) -> None:
    """On a 60×20 terminal the seats and the board give way so that the messages are wrapped to the panel
    they are shown in, never cut off at its edge."""
    from wom_tui.widgets.message_log import MessageLog

    app = build_app(data_dir)
    async with app.run_test(size=(60, 20)) as pilot:
        await _table_with_hal(pilot)
        await pilot.press("g")
        log = app.screen.query_one(MessageLog)
        await wait_for(pilot, lambda: app.screen.view.phase == "making" and log.lines_said, message="the start announced")
        await pilot.pause()
        shown = log.scrollable_content_region.width
        assert shown >= 12, f"the messages are wrapped to 12 columns but {shown} show"
        assert all(line.cell_length <= shown for line in log.lines), "a message runs past the panel's edge"


async def test_a_table_is_watched_once_and_leaving_it_stops_the_sweeps(data_dir: Path) -> None:
    """The lobby and a table on show each read a change once (one subscription to the change feed, one
    refresher), and once its watcher has gone back to the lobby the process no longer sweeps the
    live state for it (the table screen subscribed twice and joined the sweeper twice, so that every
    change was read twice and the sweeps went on after it was left)."""
    import asyncio

    from wom_tui.domain.store import feed as live_module
    from wom_tui.domain.table import SeatHolder
    from wom_tui.screens.together import housekeeper_for

    store = Store(data_dir)
    store.register("Alan")
    store.live.create_table(SeatHolder("Alan", "alan-session", True), seats=2)
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_lobby(pilot)
        await wait_for(pilot, lambda: any("Alan's table" in row for row in _tables(app)), message="the table listed")
        live = app.store.live
        shared = live_module._SHARED[asyncio.get_running_loop()][live.feed().key]
        keeper = housekeeper_for(live)
        await wait_for(pilot, lambda: app.notices.ready.is_set(), message="the session's notices watcher listens")
        # (one subscriber is the session's notices watcher, screens/notices.py: it listens on every screen)
        in_lobby = (len(shared._subscribers) - 1, len(keeper.lives))
        assert in_lobby == (1, 1), "the lobby subscribed to the change feed or joined the sweeper more than once"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveTableScreen) and app.screen.view is not None
                       and app.screen.feed_ready.is_set(), message="watching the table")
        screen = app.screen
        assert len(shared._subscribers) - 1 == in_lobby[0] + 1, "the table screen subscribed to the change feed more than once"
        assert len(keeper.lives) == in_lobby[1] + 1, "the table screen joined the sweeper more than once"
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and not screen.is_attached,
                       message="back in the lobby")
        assert len(keeper.lives) == in_lobby[1], "the sweeps for the table went on after it was left"


async def test_after_a_table_could_not_be_read_the_guess_entry_comes_back_with_the_keys(data_dir: Path) -> None:
    """A read of the table that fails (the message names the file, the entries go) and the next that
    works: the guess entry is back and has the keys, so that typing plays a guess again."""
    from wom_tui.domain.store import StoreError

    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await _table_with_hal(pilot)
        await pilot.press("g")
        await wait_for(pilot, lambda: _focused(app) == "code-input", message="asked for a code")
        await pilot.press(*"RGBY", "enter")
        await wait_for(pilot, lambda: _focused(app) == "guess-input", message="asked for a guess")
        screen, live = app.screen, app.store.live
        real_table, real_tick = live.table, live.tick

        def unreadable(table_id):
            raise StoreError(live.table_path(table_id), "cannot read the file (Input/output error)")

        # Every read fails, the timer's too (HAL9000's moves, due at a human pace, read the table by a tick).
        live.table = live.tick = unreadable
        screen.poke()
        await wait_for(pilot, lambda: "Input/output error" in _text(app, "#table-message"), message="the failure said")
        await wait_for(pilot, lambda: _focused(app) != "guess-input", message="the hidden entry lost the keys")
        live.table, live.tick = real_table, real_tick
        screen.poke()
        await wait_for(pilot, lambda: screen.view is not None, message="the table read again")
        await wait_for(pilot, lambda: _focused(app) == "guess-input", message="the guess entry has the keys again")
        await pilot.press(*"WWKK", "enter")
        await wait_for(pilot, lambda: "1/10" in _seats(app)[0], message="the guess played")


async def _open_table_of(pilot, seats: int) -> None:
    """From the main menu: a new table of ``seats`` seats, this session in seat 1."""
    app = pilot.app
    await _open_lobby(pilot)
    await pilot.press("n")
    await wait_for(pilot, lambda: app.screen.query("#new-seats"))
    app.screen.query_one("#new-seats").value = seats
    await pilot.pause()
    app.screen.query_one("#new-create").focus()
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, LiveTableScreen) and app.screen.view is not None,
                   message="at the new table")


async def test_h_and_v_act_on_the_highlighted_seat_and_the_highlight_never_wraps(data_dir: Path) -> None:
    """At a table of three, ↓↓ stays on seat 3 (it went round to seat 1, and h then said "Seat 1 was just
    taken by Alan"); h and v fill the highlighted seat; on a taken seat they say whose it is."""
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_table_of(pilot, 3)
        seats = app.screen.query_one("#table-seats", OptionList)
        assert _focused(app) == "table-seats" and seats.highlighted == 1  # the first free seat
        await pilot.press("down", "down", "h")
        await wait_for(pilot, lambda: "HAL9000" in _seats(app)[2], message="HAL9000 in seat 3")
        assert "free seat" in _seats(app)[1] and "just taken" not in _text(app, "#table-message")
        await pilot.press("up", "up", "up", "v")  # one ↑ too many: seat 1, the player's own
        await wait_for(pilot, lambda: "Seat 1 is yours" in _text(app, "#table-message"), message="told whose seat")
        assert "free seat" in _seats(app)[1] and "VIKI" not in " ".join(_seats(app))
        await pilot.press("down", "v")
        await wait_for(pilot, lambda: "VIKI" in _seats(app)[1], message="VIKI in seat 2")


async def test_a_finished_table_leaves_the_lobby_once_its_player_saw_the_results(data_dir: Path) -> None:
    """Alan comes back to a table he dropped out of ("You still have a seat"), breaks HAL9000's code and
    reads the results: back in the lobby that table is gone, so is the line about his seat, and Enter
    goes to the open table (the finished one kept both, and Enter went back to it)."""
    from wom_tui.domain.codes import WOM_RULESET
    from wom_tui.domain.presence import new_session_id
    from wom_tui.domain.table import SeatHolder

    store = Store(data_dir)
    store.register("Alan")
    live = store.live
    alan_before = SeatHolder("Alan", new_session_id(), True)
    played = live.create_table(alan_before, seats=2, attempts=10, ruleset=WOM_RULESET, seed=5, pace=(0.0, 0.0))
    live.act(played.table_id, lambda t, now: t.seat_computer(alan_before, 1, "HAL9000"))
    live.act(played.table_id, lambda t, now: t.start(alan_before, now))
    live.act(played.table_id, lambda t, now: t.set_code(alan_before, "RGBY", now))
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_lobby(pilot)
        app.screen.query_one("#lobby-as").value = "Alan"
        await wait_for(pilot, lambda: "still have a seat" in _text(app, "#lobby-message"), message="Alan's seat offered")
        guest = live.join_guest(new_session_id())
        other = live.create_table(SeatHolder(guest.name, guest.session, False), seats=2)
        await wait_for(pilot, lambda: len(_tables(app)) == 2, message="the other table listed")
        await pilot.press("enter")
        await wait_for(pilot, lambda: _focused(app) == "guess-input", message="back at his seat, asked for a guess")
        hal_code = live.table(played.table_id).to_json()["seats"][1]["code"]
        await pilot.press(*hal_code, "enter")
        await wait_for(pilot, lambda: app.screen.view.phase == "finished", timeout=30, message="the results")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.state is not None
                       and all(v.table_id != played.table_id for v in app.screen.state.tables),
                       message="the finished table gone from Alan's lobby")
        assert "still have a seat" not in _text(app, "#lobby-message")
        tables = app.screen.query_one("#lobby-tables", OptionList)
        assert tables.highlighted_option is not None and tables.highlighted_option.id == other.table_id
    assert live.table(played.table_id) is not None  # kept for others to read (docs/play.md says how long)


async def _in_the_lobby_with_a_code_to_set(pilot, app) -> str:
    """A table with HAL9000 started (codes being set), left for the lobby by the palette: the lobby offers the
    seat back. The table's id."""
    from .test_leaving import run_palette_command

    await _table_with_hal(pilot)
    table_id = app.screen.table_id
    await pilot.press("g")
    await wait_for(pilot, lambda: app.screen.view.phase == "making", message="code making")
    await run_palette_command(pilot, "Lobby")
    await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen)
                   and "still have a seat" in _text(app, "#lobby-message"), message="the seat is offered")
    return table_id


def _code_set(data_dir: Path, table_id: str) -> str | None:
    return Store(data_dir).live.table(table_id).to_json()["seats"][0]["code"]


async def test_a_code_typed_the_moment_the_table_asks_for_it_is_kept(data_dir: Path, monkeypatch) -> None:
    """Back at a started table from the lobby, the screen's first view asks for a code; keys that arrive
    with that frame (a fast typist, or SSH packing them) reach the code entry, not whatever had the focus
    before it. They were lost when the focus came only after the next repaint, and the table waited for
    the code until its clock drew one."""
    app = build_app(data_dir)
    typed: list[LiveTableScreen] = []
    show_play = LiveTableScreen._show_play

    def show_and_type(screen: LiveTableScreen, view, before) -> None:
        show_play(screen, view, before)
        if screen._wants == "code" and not typed:
            typed.append(screen)
            send_burst(app, *"RGBY", "enter")  # queued before the app runs again: with the frame

    async with app.run_test(size=(80, 24)) as pilot:
        table_id = await _in_the_lobby_with_a_code_to_set(pilot, app)
        monkeypatch.setattr(LiveTableScreen, "_show_play", show_and_type)
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(typed), message="back at the table, asked for a code")
        await wait_for(pilot, lambda: _code_set(data_dir, table_id) is not None, timeout=10,
                       message="the code typed with the frame is set")
        assert _code_set(data_dir, table_id) == "RGBY"


async def test_a_code_typed_with_the_enter_that_opens_the_table_is_kept(data_dir: Path) -> None:
    """Enter in the lobby and the code after it, in one burst (SSH packs a fast typist's keys): the keys after
    the Enter wait for the table's first view, which asks for the code, rather than reach the seat list the
    screen shows while it reads the table (they moved its highlight, and the code was never set)."""
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        table_id = await _in_the_lobby_with_a_code_to_set(pilot, app)
        send_burst(app, "enter", *"RGBY", "enter")
        await wait_for(pilot, lambda: _code_set(data_dir, table_id) is not None, timeout=10,
                       message="the code typed with the Enter is set")
        assert _code_set(data_dir, table_id) == "RGBY"
        assert isinstance(app.screen, LiveTableScreen) and app.screen.view.phase in ("making", "guessing")


async def test_keys_typed_after_a_move_wait_for_it_a_burst_seats_hal_then_starts(data_dir: Path) -> None:
    """`h g` in one burst (SSH packs a fast typist's keys): the start waits for HAL9000's seat, rather than reach
    the store first and be refused because a seat was still free, and the game starts; then a guess typed right
    after the code's Enter goes to the guess entry, not into the code entry being cleared."""
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_lobby(pilot)
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter")  # "Open table" is focused first
        await wait_for(pilot, lambda: isinstance(app.screen, LiveTableScreen) and app.screen.view is not None,
                       message="at the new table")
        table_id = app.screen.table_id
        send_burst(app, "h", "g")
        await wait_for(pilot, lambda: app.screen.view.phase != "open", timeout=10, message="the game started")
        assert "HAL9000" in _seats(app)[1]
        await wait_for(pilot, lambda: _focused(app) == "code-input", message="asked for a code")
        send_burst(app, *"RGBY", "enter", *"WWKK", "enter")
        await wait_for(pilot, lambda: Store(data_dir).live.table(table_id).to_json()["seats"][0]["guesses"],
                       timeout=10, message="the guess typed after the code is played")
        seat = Store(data_dir).live.table(table_id).to_json()["seats"][0]
        assert seat["code"] == "RGBY" and [g[0] if isinstance(g, list) else g for g in seat["guesses"]][:1] == ["WWKK"]
