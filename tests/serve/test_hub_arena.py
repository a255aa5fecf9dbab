"""Code Arena's pairing loop in the server's hub (docs/arcade.md, *Code Arena*): a scheduled arena starts on its
own, players join it through the hub, and the hub pairs them into live tables; what a game may not do (start an
arena, run the pairing) it cannot ask the hub for.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from wom_tui.domain.arena import ArenaRefused
from wom_tui.domain.store import open_store
from wom_tui.domain.store.remote import HubStore
from wom_tui.domain.table import MAKING, SeatHolder
from wom_tui.serve.hub import Hub
from wom_tui.settings import Settings

from .conftest import WAIT

ANN = SeatHolder("Ann", "ann-session", True)
BEN = SeatHolder("Ben", "ben-session", True)


async def arena_when(game: HubStore, check):
    """The arena as the game reads it through the hub, once ``check(arena)`` holds (bounded)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while True:
        arena = await asyncio.to_thread(game.live.arena)  # (off the loop: the hub runs on it)
        if arena is not None and check(arena):
            return arena
        assert loop.time() < deadline, "the hub did not get there in time"
        await asyncio.sleep(0.1)


async def test_a_scheduled_arena_starts_and_its_players_are_paired_by_the_hub(tmp_path: Path) -> None:
    # A hub of its own: its settings hold the arena's schedule (once an hour, 10 minutes, 60 s a guess).
    store = open_store(tmp_path / "data")
    for name in ("Ann", "Ben"):
        store.register(name)
    settings = Settings(data_dir=tmp_path / "data", seed=3, arena_every=1.0, arena_minutes=10,
                        arena_rules="attempts=6,clock=60")
    hub = Hub(store, pool=2, settings=settings)
    hub.arena_interval = 0.2  # (the rules' 2 s between pairings, shortened)
    path = str(tmp_path / "hub.sock")
    await hub.start(path)
    try:
        ann, ben = await asyncio.to_thread(HubStore, path), await asyncio.to_thread(HubStore, path)
        arena = await arena_when(ann, lambda arena: True)
        assert (arena.minutes, arena.rules.attempts, arena.rules.guess_clock) == (10, 6, 60.0)
        for game, person in ((ann, ANN), (ben, BEN)):
            await asyncio.to_thread(game.live.join, person.name, True, person.session)
            await asyncio.to_thread(game.live.join_arena, person)
        arena = await arena_when(ann, lambda arena: len(arena.entrants) == 2 and all(e.table_id for e in arena.entrants))
        (game,) = arena.games
        table = await asyncio.to_thread(ben.live.table, game.table_id)
        assert table.phase == MAKING and sorted(table.names) == ["Ann", "Ben"] and table.attempts == 6
        # Berserk is chosen before a game is paired: refused now, with the reason, across the wire.
        with pytest.raises(ArenaRefused, match="started"):
            await asyncio.to_thread(ann.live.arena_berserk, ANN, True)
        # A game cannot start an arena nor run the pairing: the hub serves no such call.
        for name in ("start_arena", "arena_wave"):
            with pytest.raises(AttributeError):
                getattr(ann.live, name)
        ann.close()
        ben.close()
    finally:
        await hub.close()
