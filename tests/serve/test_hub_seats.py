"""The hub plays a move only for the seat of the game that sends it (docs/arcade.md, *The hub*).

Who a game is comes from its server (the key it verified, the name a browser tab signed in as, or a guest),
never from what the game says: a game that names another player's seat in a move is refused, its
connection kept, and the others play on as if nothing was tried.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from wom_tui.domain.moves import Guess, SetCode, Sit, Start
from wom_tui.domain.store import open_store
from wom_tui.domain.store.remote import HubStore
from wom_tui.domain.table import GUESSING, Refused, SeatHolder
from wom_tui.serve import hub as hub_module
from wom_tui.serve.hub import Hub, Vouched

ANN = SeatHolder("Ann", "ann-session", True)
GUEST = SeatHolder("Guest 1", "guest-session", False)
MALLORY_KEY = "SHA256:" + "M" * 43

ROGUE = """
import sys
from wom_tui.domain.moves import Guess
from wom_tui.domain.store.remote import HubStore
from wom_tui.domain.table import Refused, SeatHolder
store = HubStore(sys.argv[1])
print("connected", flush=True)
sys.stdin.readline()  # until the test has vouched for this process (or chosen not to)
for name, session, registered in (("Ann", "ann-session", True), ("Guest 1", "guest-session", False)):
    try:
        store.live.play(sys.argv[2], Guess(SeatHolder(name, session, registered), "KKKK"))
        print("played", flush=True)
    except Refused as exc:
        print("refused:", exc.reason, flush=True)
print("still connected:", store.live.table(sys.argv[2]) is not None, flush=True)
"""


async def _rogue(path: str, table_id: str, vouch: Vouched | None, hub: Hub) -> list[str]:
    """A game process of its own (the hub knows a game by its process) that tries to play others' seats."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", ROGUE, path, table_id, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert process.stdin is not None and process.stdout is not None
    assert await process.stdout.readline() == b"connected\n"
    if vouch is not None:
        hub.vouch(process.pid, vouch)
    process.stdin.write(b"go\n")
    output = (await process.stdout.read()).decode().splitlines()
    await process.wait()
    return output


async def test_a_game_naming_another_players_seat_is_refused_and_the_table_plays_on(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(hub_module, "VOUCH_WAIT", 0.2)  # a game nobody vouches for: refused after this wait
    store = open_store(tmp_path / "data")
    store.register("Ann")
    store.register("Mallory", key=MALLORY_KEY)
    hub = Hub(store, pool=2, vouching=True)
    path = str(tmp_path / "hub.sock")
    await hub.start(path)
    try:
        # This process is Ann's browser tab, as its server vouched; a guest plays from it too (its own session).
        hub.vouch(os.getpid(), Vouched(name="Ann"))
        games = await asyncio.to_thread(HubStore, path)
        await asyncio.to_thread(games.live.join_guest, GUEST.session)
        table = await asyncio.to_thread(games.live.create_table, ANN, seats=2, seed=5)
        for move in (Sit(GUEST, 1), Start(ANN), SetCode(ANN, "RGBY"), SetCode(GUEST, "WWKK")):
            table = await asyncio.to_thread(games.live.play, table.table_id, move)
        assert table.phase == GUESSING
        # Mallory's game (her key verified by the server) names Ann's seat, then the guest's session.
        said = await _rogue(path, table.table_id, Vouched(key=MALLORY_KEY), hub)
        assert said == ["refused: That seat is Ann's: this session plays as Mallory.",
                        "refused: That seat is another session's.", "still connected: True"]
        # A game the server never vouched for names nobody.
        said = await _rogue(path, table.table_id, None, hub)
        assert said[0].startswith("refused: This game is not one the server started")
        assert hub.refused == 4 and hub.cut_off == 0
        # Nothing was written; Ann and the guest play on, each from the seat that is theirs.
        kept = await asyncio.to_thread(games.live.table, table.table_id)
        assert kept is not None and kept.version == table.version
        after = await asyncio.to_thread(games.live.play, table.table_id, Guess(ANN, "RRGG"))
        after = await asyncio.to_thread(games.live.play, table.table_id, Guess(GUEST, "BBYY"))
        assert [len(seat.guesses) for seat in after._seats] == [1, 1]
        # Ann's own seat named as a guest's session by this process, though, is refused: it is Ann's name that counts.
        with pytest.raises(Refused, match="is Bob's: this session plays as Ann"):
            await asyncio.to_thread(games.live.play, table.table_id, Guess(SeatHolder("Bob", "ann-session", True), "RRRR"))
    finally:
        await hub.close()
