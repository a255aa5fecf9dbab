"""Issue 35, item 17: the small things players found (each test says which)."""

from __future__ import annotations

import threading

from textual.widgets import DataTable

from wom_tui.domain.presence import Presence, Whereabouts, online_names, screen_words
from wom_tui.domain.store import open_store
from wom_tui.screens.lobby import LobbyScreen
from wom_tui.screens.menu import MenuScreen
from wom_tui.screens.operator import OperatorScreen

from .conftest import at_both_sizes, wait_for
from .screen_text import screen_lines, screen_text
from .test_operator import PLAYER_FP, served_app

def alan_twice(data_dir):
    """Alan online over SSH and in a browser at once (two sessions), their heartbeats kept by a thread."""
    store = open_store(data_dir)
    if store.user("Alan") is None:
        store.register("Alan", key=PLAYER_FP)
    online = [store.live.join("Alan", True, "alan-ssh", Whereabouts("198.51.100.7", PLAYER_FP, "ssh", "SoloGame")),
              store.live.join("Alan", True, "alan-web", Whereabouts("198.51.100.7", None, "web", "LiveTable"))]
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(1.0):
            for presence in online:
                store.live.heartbeat(presence)

    thread = threading.Thread(target=beat, daemon=True)
    thread.start()
    return stop, thread


def test_online_is_each_person_once_and_each_guest_their_own():
    def p(session, name, registered):
        return Presence(session, name, registered, 0.0, 0.0)
    sessions = [p("a", "Alan", True), p("b", "Guest 1", False), p("c", "alan", True), p("d", "Guest 1", False)]
    assert online_names(sessions) == ["Alan", "Guest 1", "Guest 1"]


def test_screens_are_named_in_words():
    assert screen_words("SoloGame") == "Solo game" and screen_words("LiveTable") == "At a table"
    assert screen_words("Menu") == "Main menu" and screen_words("SomethingNew") == "Something new"


async def test_a_player_on_ssh_and_in_a_browser_is_online_once(data_dir, make_app) -> None:
    stop, thread = alan_twice(data_dir)
    try:
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("l")
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.state is not None
                           and len(app.screen.state.online) >= 3)

            async def once(size) -> None:
                await wait_for(pilot, lambda: "Online (2)" in screen_text(app), message=f"at {size}")
                line = next(line for line in screen_lines(app) if "Online (2)" in line)
                assert line.count("Alan") == 1

            await at_both_sizes(pilot, once)
    finally:
        stop.set()
        thread.join(10)


async def test_the_operator_screen_names_screens_in_words(data_dir) -> None:
    stop, thread = alan_twice(data_dir)
    try:
        app = served_app(data_dir, operator=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
            await pilot.press("a")
            await wait_for(pilot, lambda: isinstance(app.screen, OperatorScreen)
                           and app.screen.query_one(DataTable).row_count >= 2)
            table = app.screen.query_one(DataTable)
            cells = {str(table.get_row_at(row)[3]) for row in range(table.row_count)}
            assert {"Solo game", "At a table"} <= cells and "SoloGame" not in cells

            async def in_words(size) -> None:
                await wait_for(pilot, lambda: "Solo game" in screen_text(app) and "SoloGame" not in screen_text(app),
                               message=f"the screens in words on the screen at {size}")

            await at_both_sizes(pilot, in_words)
    finally:
        stop.set()
        thread.join(10)


async def test_a_live_solo_history_says_what_a_lifeline_told(app) -> None:
    from .test_solo import open_setup, said, start_game

    async with app.run_test(size=(80, 24)) as pilot:
        await open_setup(pilot)
        screen = await start_game(pilot)
        await pilot.press("f2")  # reveal a symbol
        await wait_for(pilot, lambda: said(screen)[-1].startswith("The code contains "))
        symbol = said(screen)[-1].removeprefix("The code contains ")[0]

        async def told(size) -> None:
            shown = f"lifeline: has {symbol}" if size == (80, 24) else f"⚑ has {symbol}"  # (60 columns: narrow)
            await wait_for(pilot, lambda: shown in screen_text(app), message=f"{shown!r} at {size}")

        await at_both_sizes(pilot, told)


async def test_live_table_results_split_points_into_breaking_and_making(data_dir) -> None:
    from wom_tui.domain.store.folder.store import FolderStore

    from .conftest import build_app
    from .test_results_unrated import results
    from .test_together import _focused, _new_table_with, _open_lobby

    store = FolderStore(data_dir)
    store.register("Alan")
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_lobby(pilot)
        app.screen.query_one("#lobby-as").value = "Alan"
        await wait_for(pilot, lambda: app.together.presence is not None and app.together.presence.name == "Alan")
        table_id = await _new_table_with(pilot, "v", "VIKI")
        await pilot.press("g")
        await wait_for(pilot, lambda: _focused(app) == "code-input")
        await pilot.press(*"RGBY", "enter")
        await wait_for(pilot, lambda: app.screen.view.phase == "guessing" and _focused(app) == "guess-input")
        viki_code = store.live.table(table_id).to_json()["seats"][1]["code"]
        await pilot.press(*viki_code, "enter")  # broken at once: 10 + 1 − 1 = 10 for breaking
        await wait_for(pilot, lambda: app.screen.view.phase == "finished")
        await wait_for(pilot, lambda: "Alan" in results(app))
        final = {row.name: row for row in app.screen.view.final}
        alan = final["Alan"]
        assert (alan.breaking, alan.making) == (10, alan.points - 10)

        async def split(size) -> None:
            await wait_for(pilot, lambda: f"10+{alan.making}={alan.points}" in screen_text(app),
                           message=f"Alan's points split, on the screen at {size}")
            line = next(line for line in results(app).splitlines() if line.startswith("Alan"))
            assert f"10+{alan.making}={alan.points}" in line

        await at_both_sizes(pilot, split)


async def test_the_lobby_line_shows_a_table_s_clock(data_dir, make_app) -> None:
    from wom_tui.domain.presence import new_session_id
    from wom_tui.domain.table import SeatHolder

    live = open_store(data_dir).live
    guest = live.join_guest(new_session_id())
    live.create_table(SeatHolder(guest.name, guest.session, False), seats=2, guess_clock=30.0)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.state is not None
                       and app.screen.state.tables)
        from wom_tui.screens.lobby import table_line

        assert "30 s a guess" in str(table_line(app.screen.state.tables[0], False))

        async def row(size) -> None:
            await wait_for(pilot, lambda: any(f"{guest.name}'s table" in line for line in screen_lines(app)),
                           message=f"the table's row at {size}")
            if size == (80, 24):  # (at 60 columns the row's end is cut with an ellipsis, as the rules are)
                assert any("30 s a guess" in line for line in screen_lines(app)), "seen in the lobby's row"

        await at_both_sizes(pilot, row)


async def test_replays_keep_the_players_readable_at_60_columns(store, app) -> None:
    from wom_tui.domain.codes import WOM_RULESET, Ruleset
    from wom_tui.domain.game import GameKind
    from wom_tui.domain.records import GameRecord
    from wom_tui.screens.replay import ReplaysScreen

    from .test_stats_replays_daily import breaker, seed_games

    seed_games(store)
    store.record_game(GameRecord(GameKind.COMPUTER_BREAKS.value, Ruleset(5, WOM_RULESET.palette, True, 10),
                                 (breaker("HAL9000", "RRGGB", ["RRGGB"], is_user=False),), "2026-11-23T10:00:00+00:00"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplaysScreen) and app.screen.summaries is not None)

        async def readable(size) -> None:
            await wait_for(pilot, lambda: "HAL9000 ✓1" in screen_text(app), message=f"the players whole at {size}")
            assert "Alan ✓2" in screen_text(app) and "HAL9000 ✗" in screen_text(app)  # (wrapped, never cut)

        await at_both_sizes(pilot, readable)
