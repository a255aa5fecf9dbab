"""Table moves as values (wom_tui/domain/moves.py, ``Live.play``), on both backends, in this process and through
a hub (docs/arcade.md, *The hub*): the same game, the same refusals (nothing written), a computer's moves done
on the way, and a hub's served game reaching the same rows.
"""

from __future__ import annotations

import asyncio

import pytest

from wom_tui.domain.moves import Guess, Leave, SeatComputer, SetCode, Sit, Start, Tick
from wom_tui.domain.store import open_store
from wom_tui.domain.store.remote import HubStore
from wom_tui.domain.table import FINISHED, GUESSING, Refused, SeatHolder
from wom_tui.serve.hub import Hub

from .test_live import kept, where  # noqa: F401 - the fixture, on both backends

ANN = SeatHolder("Alan", "s-alan", True)
BEA = SeatHolder("Bea", "s-bea", True)


@pytest.fixture
def store(where):  # noqa: F811
    store = open_store(where)
    store.register("Alan")
    store.register("Bea")
    yield store
    store.close()


def _a_game(live) -> None:
    table = live.create_table(ANN, seats=2, seed=3)
    live.play(table.table_id, Sit(BEA, 1))
    live.play(table.table_id, Start(ANN))
    live.play(table.table_id, SetCode(ANN, "RGBY"))
    assert live.play(table.table_id, SetCode(BEA, "WWKK")).phase == GUESSING
    live.play(table.table_id, Guess(BEA, "RGBY"))
    for code in ("RRRR", "WWKK"):
        last = live.play(table.table_id, Guess(ANN, code))
    assert last.phase == FINISHED and last.recorded


def test_a_whole_table_is_played_with_moves_as_values_and_recorded_once(store) -> None:
    _a_game(store.live)
    assert len(store.games()) == 1
    assert {user.name: user.games for user in store.users()} == {"Alan": 1, "Bea": 1}


def test_a_refused_move_says_why_and_writes_nothing(store) -> None:
    table = store.live.create_table(ANN, seats=2)
    before = kept(store)
    with pytest.raises(Refused, match="already"):
        store.live.play(table.table_id, Sit(ANN, 1))
    with pytest.raises(Refused):
        store.live.play(table.table_id, Guess(ANN, "RGBY"))
    assert kept(store) == before


def test_with_the_tables_kept_as_a_hub_keeps_them_the_computer_still_plays_its_moves(store) -> None:
    live = store.live
    live.known, live.online = {}, None  # as the hub sets them
    table = live.create_table(ANN, seats=2, seed=4, pace=(0.0, 0.0))
    live.play(table.table_id, SeatComputer(ANN, 1, "HAL9000"))
    live.play(table.table_id, Start(ANN))
    played = live.play(table.table_id, SetCode(ANN, "RGBY"))
    assert played.phase == GUESSING and table.table_id in live.known
    after = live.play(table.table_id, Tick())
    assert after.version >= played.version
    left = live.play(table.table_id, Leave(ANN))
    assert left.seat_of(ANN) is None or left.phase == FINISHED


async def test_a_game_through_a_hub_on_either_backend_writes_what_it_would_in_process(store, tmp_path) -> None:
    hub = Hub(store, pool=2)
    path = str(tmp_path / "hub.sock")
    await hub.start(path)
    try:
        client = await asyncio.to_thread(HubStore, path)
        await asyncio.to_thread(_a_game, client.live)
        assert [(r.kind, r.winner if hasattr(r, "winner") else None) for r in store.games()] \
            == [(r.kind, r.winner if hasattr(r, "winner") else None) for r in await asyncio.to_thread(client.games)]
        assert {user.name: user.games for user in await asyncio.to_thread(client.users)} == {"Alan": 1, "Bea": 1}
        client.close()
    finally:
        await hub.close()
