"""Code Arena on screen: two players on one data folder join, are paired into one started table and taken to
it; back from it, the standings; berserk and pause; a burst of keys joins once; nothing on when no arena is on;
the podium once it is over. 80×24 and 60×20."""

from __future__ import annotations

from pathlib import Path

import pytest

from wom_tui.domain.arena import ArenaRules
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.table import MAKING
from wom_tui.screens.arena import ArenaScreen
from wom_tui.screens.live_table import LiveTableScreen

from .burst import send_burst
from .conftest import build_app, wait_for
from .screen_text import screen_text


@pytest.fixture(autouse=True)
def quick_pairing(monkeypatch):
    monkeypatch.setattr(ArenaScreen, "pairing_interval", 0.2)


def at_table(app) -> bool:
    return isinstance(app.screen, LiveTableScreen) and app.screen.view is not None


async def open_arena(app, pilot) -> ArenaScreen:
    app.call_later(app.action_arena)  # (in the app's own context: two apps run in this test's task)
    await wait_for(pilot, lambda: isinstance(app.screen, ArenaScreen) and app.screen.state is not None,
                   message="the arena screen read the arena")
    return app.screen


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_two_players_join_are_paired_and_come_back_to_the_standings(data_dir: Path, size) -> None:
    store = Store(data_dir)
    store.live.start_arena("arena-1", 30, ArenaRules(8, 30.0))
    alan_app, bea_app = build_app(data_dir), build_app(data_dir)
    async with alan_app.run_test(size=size) as a, bea_app.run_test(size=size) as b:
        await open_arena(alan_app, a)
        assert "Code Arena:" in screen_text(alan_app) and "8 attempts, 30 s a guess" in screen_text(alan_app)
        assert "j to join" in screen_text(alan_app)
        send_burst(alan_app, "j", "j", "b")  # one join, however many times pressed; berserk for the next game
        await wait_for(a, lambda: "berserk next game" in screen_text(alan_app), message="Alan joined, berserk")
        assert len(store.live.arena().entrants) == 1
        await open_arena(bea_app, b)
        await b.press("j")
        await wait_for(a, lambda: at_table(alan_app), message="Alan taken to his table")
        await wait_for(b, lambda: at_table(bea_app), message="Bea taken to hers")
        assert alan_app.screen.table_id == bea_app.screen.table_id
        table = store.live.table(alan_app.screen.table_id)
        assert table.phase == MAKING and table.guess_clock == 30.0 and len(table.berserk) == 1
        assert alan_app.nudges == 1 and "Code Arena: you play" in "".join(str(n.message) for n in alan_app._notifications)
        # Leaving the table (Esc, then yes: the game is given up) is back in the arena, shown still in that game
        # until it ends; the same table is not opened again.
        await a.press("escape")
        await wait_for(a, lambda: "y" in {b.key for b in alan_app.screen.BINDINGS if hasattr(b, "key")},
                       message="asked to confirm")
        await a.press("y")
        await wait_for(a, lambda: isinstance(alan_app.screen, ArenaScreen), message="back in the arena")
        await wait_for(a, lambda: "playing a game" in screen_text(alan_app), message="shown playing")
        assert not at_table(alan_app)


async def test_pause_and_no_arena(data_dir: Path) -> None:
    store = Store(data_dir)
    app = build_app(data_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_arena(app, pilot)
        assert "No arena yet" in screen_text(app)
        await pilot.press("j")  # nothing on: said, nothing written
        await wait_for(pilot, lambda: any("no arena" in str(n.message) for n in app._notifications), message="said")
        assert store.live.arenas() == []
        store.live.start_arena("arena-1", 30, ArenaRules())
        await pilot.press("j")
        await wait_for(pilot, lambda: "waiting for an opponent" in screen_text(app), message="waiting")
        await pilot.press("p")
        await wait_for(pilot, lambda: "paused: j to play again" in screen_text(app), message="paused")
        assert store.live.arena().entrants[0].paused
        await pilot.press("j")
        await wait_for(pilot, lambda: "waiting for an opponent" in screen_text(app), message="back in")
        # Leaving the arena screen pauses the player: nobody is paired who is not there to see it.
        await pilot.press("escape")
        await wait_for(pilot, lambda: store.live.arena().entrants[0].paused, message="paused on the way out")


async def test_the_podium_once_it_is_over(data_dir: Path) -> None:
    store = Store(data_dir)
    clock = [1_000_000.0]
    store.live.clock = lambda: clock[0]
    store.live.start_arena("arena-1", 5, ArenaRules())
    from wom_tui.domain.table import SeatHolder

    for name in ("Alan", "Bea"):
        store.live.join(name, True, f"s-{name}")
        store.live.join_arena(SeatHolder(name, f"s-{name}", True))
    clock[0] += 3
    (table,) = store.live.arena_wave(1)
    arena = store.live.arena()
    store.live._swap_arena(lambda current: (current.finish_game(table.table_id, [(True, 2), (False, 8)], [2, 8],
                                                                clock[0] + 60), [], None))
    clock[0] += 400
    app = build_app(data_dir)
    app.store.live.clock = lambda: clock[0]
    async with app.run_test(size=(60, 20)) as pilot:
        await open_arena(app, pilot)
        text = screen_text(app)
        assert "Code Arena is over" in text and "Podium: 1st" in text and "2nd" in text
        assert arena.arena_id == "arena-1"


async def test_the_menu_and_the_lobby_show_the_arena_with_its_countdown_and_c_opens_it(data_dir: Path) -> None:
    # One app at 80×24, resized to 60×20 once in the lobby: the countdown ticks, turns into "left", then goes.
    from wom_tui.screens.lobby import LobbyScreen
    from wom_tui.screens.menu import MenuScreen

    clock = [1_000_000.0]
    store = Store(data_dir)
    store.live.clock = lambda: clock[0]
    store.live.start_arena("arena-1", 30, ArenaRules(), starts_in=3000.0)
    app = build_app(data_dir)
    app.store.live.clock = lambda: clock[0]
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "c   Code Arena starts in 50:00" in screen_text(app), message="the countdown")
        await wait_for(pilot, lambda: "x   Quit" in screen_text(app), message="every entry still in view (refitted)")
        clock[0] += 1
        await wait_for(pilot, lambda: "c   Code Arena starts in 49:59" in screen_text(app), message="it ticks")
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ArenaScreen), message="the arena")
        await pilot.press("escape", "l")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen)
                       and "Code Arena starts in 49:59 — press c to see it" in screen_text(app), message="the lobby's line")
        line = app.screen.query_one("#lobby-arena")
        await pilot.resize_terminal(60, 20)
        clock[0] += 3000
        await wait_for(pilot, lambda: "Code Arena: 29:59 left — press c to join" in screen_text(app), message="on now")
        assert line.region.height == 1
        clock[0] += 1800
        await wait_for(pilot, lambda: not line.display and "Code Arena" not in screen_text(app), message="gone")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and "Code Arena" not in screen_text(app)
                       and "x   Quit" in screen_text(app), message="gone from the menu too")


async def test_my_stats_show_the_arenas_a_player_finished(data_dir: Path) -> None:
    from wom_tui.domain.table import SeatHolder

    store = Store(data_dir)
    for name in ("Alan", "Bea"):
        store.register(name)
    clock = [1_000_000.0]
    store.live.clock = lambda: clock[0]
    store.live.start_arena("arena-1", 5, ArenaRules())
    for name in ("Alan", "Bea"):
        store.live.join(name, True, f"s-{name}")
        store.live.join_arena(SeatHolder(name, f"s-{name}", True))
    clock[0] += 3
    (table,) = store.live.arena_wave(1)
    alan = table.names.index("Alan")
    boards = [(True, 2), (False, 8)] if alan == 0 else [(False, 8), (True, 2)]
    store.live._swap_arena(lambda current: (current.finish_game(table.table_id, boards, [b[1] for b in boards],
                                                                clock[0] + 60), [], None))
    clock[0] += 400
    # The game as the store recorded it names its arena: My stats counts it, Replays labels it.
    from dataclasses import replace

    from wom_tui.domain.codes import WOM_RULESET
    from wom_tui.domain.records import GameRecord

    from .test_stats_replays_daily import breaker

    duel = GameRecord("wom", WOM_RULESET.with_guesses(8), (breaker("Alan", "RGYB", ["RGBY", "RGYB"], points=7),
                                                           breaker("Bea", "BYWR", ["RRGG"] * 8, points=1)),
                      "2026-11-20T10:00:00+00:00")
    store.record_game(replace(duel, hot_seat=False, table_id=table.table_id, arena="arena-1"))
    store.record_game(replace(duel, finished_at="2026-11-20T11:00:00+00:00", hot_seat=True))  # no label
    app = build_app(data_dir)
    app.store.live.clock = lambda: clock[0]
    async with app.run_test(size=(80, 24)) as pilot:
        app.call_later(app.action_stats, "Alan")
        await wait_for(pilot, lambda: "Code Arena: 1 played, 1 game · best 1st" in screen_text(app),
                       message="the arena line")
        assert "1 on the podium · last 1st of 2, 2" in screen_text(app)  # (the line wraps at 80 columns)
        app.call_later(app.action_replays)
        await wait_for(pilot, lambda: "Arena" in screen_text(app) and "WoM" in screen_text(app), message="labelled")
        await pilot.press("end", "enter")  # the oldest: the arena's game
        await wait_for(pilot, lambda: "WoM · Code Arena arena-1 ·" in screen_text(app), message="the replay says so")


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_fullest_served_menu_still_fits_with_the_arena_entry(data_dir: Path, size) -> None:
    # An operator signed in over SSH (the most entries a menu has), an arena on: every entry, Quit last, in view.
    import random

    from wom_tui.app import WomApp
    from wom_tui.domain.identity import Identity
    from wom_tui.domain.store import open_store
    from wom_tui.screens.menu import MenuScreen
    from textual.widgets import OptionList

    from .conftest import make_options

    key = "SHA256:" + "A" * 43
    store = open_store(data_dir)
    store.register("Alan", key=key)
    store.live.start_arena("arena-1", 30, ArenaRules())
    options = make_options(data_dir, served=True, operator=True, session_id="s1", client_address="192.0.2.1",
                           transport="ssh")
    app = WomApp(store, random.Random(1), options, Identity.key(key).signed_in_as("Alan"))
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and "Code Arena:" in screen_text(app),
                       message="the arena's entry")
        menu = app.screen.query_one("#menu-options", OptionList)
        await wait_for(pilot, lambda: menu.region.height == menu.option_count and "x   Quit" in screen_text(app),
                       message="every entry in view")
