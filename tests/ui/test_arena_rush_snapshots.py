"""Snapshots of Code Arena (running: standings, your line, berserk chosen; over: the podium) and of Rush mid-game,
at 80×24 and 60×20 (update with --snapshot-update). The clocks are fixed: the same frame every run."""

from __future__ import annotations

import pytest

from wom_tui.domain.arena import ArenaRules
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.table import SeatHolder
from wom_tui.screens.arena import ArenaScreen
from wom_tui.screens.rush import RushScreen

from .conftest import build_app, wait_for

NOW = 1_000_000.0
SIZES = [(80, 24), (60, 20)]


def seeded_arena(data_dir, *, over: bool):
    """Five players, two games played (one berserk), Alan on fire after two wins."""
    store = Store(data_dir)
    live = store.live
    live.clock = lambda: NOW
    live.start_arena("arena-1", 30, ArenaRules(8, 30.0))
    people = [SeatHolder(name, f"s{i}", name != "Guest 4") for i, name in enumerate(["Alan", "Bea", "Cy", "Dee", "Guest 4"])]
    arena = live.arena()
    for person in people:
        arena = arena.join(person, NOW)
    arena = arena.set_berserk(people[0], True)
    counter = iter(range(100))

    def table(a, b):
        from wom_tui.domain.arena import arena_table
        return arena_table(f"t{next(counter)}", a, b, arena.rules, seed=1, now=NOW, grace=30.0)

    arena, tables = arena.pair(NOW + 2, table)
    arena = arena.finish_game(tables[0].table_id, [(True, 3), (False, 8)], [3, 8], NOW + 60)
    arena = arena.finish_game(tables[1].table_id, [(True, 4), (True, 4)], [4, 4], NOW + 70)
    arena, tables = arena.pair(NOW + 72, table)
    arena = arena.finish_game(tables[0].table_id, [(True, 2), (False, 8)], [2, 8], NOW + 130)
    arena = arena.set_berserk(people[0], True)
    live._swap_arena(lambda current: (arena, [], None))
    return NOW + (1900 if over else 300)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("over", [False, True])
def test_arena(snap_compare, data_dir, size, over):
    now = seeded_arena(data_dir, over=over)
    app = build_app(data_dir)
    app.store.live.clock = lambda: now
    app.store.live.arena_wave = lambda *args, **kwargs: []  # the arena as seeded: no pairing step on screen

    async def run_before(pilot) -> None:
        pilot.app.push_screen(ArenaScreen())
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ArenaScreen) and pilot.app.screen.state is not None
                       and pilot.app.screen.loads >= 1)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_rush(snap_compare, data_dir, size):
    app = build_app(data_dir)

    async def run_before(pilot) -> None:
        clock = [100.0]
        screen = RushScreen(lambda: clock[0])
        pilot.app.push_screen(screen)
        await wait_for(pilot, lambda: pilot.app.screen is screen and bool(screen.query("#rush-clock"))
                       and "3:00" in str(screen.query_one("#rush-clock").render()))
        await pilot.press(*screen.game._code(0).lower(), "enter")  # broken at once
        await pilot.press(*"rrgg", "enter", *"bbyy", "enter")
        clock[0] = 142.0
        await wait_for(pilot, lambda: screen.game.board.attempts_used == 2)
        screen._tick()
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)
