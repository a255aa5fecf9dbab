"""What a hub reads and writes on PostgreSQL for the changes and heartbeats of its sessions (docs/arcade.md,
*The hub*): a table it wrote itself comes back on the feed with its version and is not read again, while
another server's write is read once and pushed; the heartbeats of all its sessions in one window are one write.
"""

from __future__ import annotations

import asyncio

from wom_tui.domain.moves import SetCode, Sit, Start
from wom_tui.domain.presence import Presence
from wom_tui.domain.store import open_store
from wom_tui.domain.store.remote import HubStore, read_message
from wom_tui.domain.store.wire import Call, Reply, frame, to_wire
from wom_tui.domain.table import SeatHolder
from wom_tui.serve import hub as hub_module
from wom_tui.serve.hub import Hub

from .conftest import until
from .test_hub import _raw

ANN = SeatHolder("Ann", "ann-session", True)
BEN = SeatHolder("Ben", "ben-session", True)


async def test_a_hub_reads_back_only_what_others_wrote_and_writes_its_sessions_heartbeats_at_once(
    postgres_server, tmp_path, monkeypatch
) -> None:
    url = postgres_server.new_database()
    store = open_store(url)
    elsewhere = open_store(url)  # another server's hub, on the same database
    hub = Hub(store, pool=3)
    path = str(tmp_path / "hub.sock")
    await hub.start(path)
    try:
        game = await asyncio.to_thread(HubStore, path)
        stop, ready = asyncio.Event(), asyncio.Event()
        changes = game.live.feed().changes(stop, ready)
        step = asyncio.ensure_future(anext(changes))
        await ready.wait()
        table = await asyncio.to_thread(game.live.create_table, ANN, seats=2, seed=5)
        table = await asyncio.to_thread(game.live.play, table.table_id, Sit(BEN, 1))
        table = await asyncio.to_thread(game.live.play, table.table_id, Start(ANN))
        # Another server's move: read once, and pushed to the game as written there. (The feed keeps the
        # order of commits: by then this hub's own three writes have come back on it, each with its version.)
        theirs = await asyncio.to_thread(elsewhere.live.play, table.table_id, SetCode(BEN, "RGBY"))
        await until(lambda: (seen := game.live.pushed.get(table.table_id)) is not None and seen.version == theirs.version)
        # Its own three writes were not read back, only the other server's move: PostgreSQL may deliver a
        # commit's notice before the write that caused it has returned to the hub, and the hub then waits for
        # its own write rather than read the table for nothing. (Notices close together come as one: the
        # hub's own may all be merged into the other server's, so how many were spared is not fixed.)
        assert hub.table_reads == 1
        # Twelve sessions beating at once: one write for all of them, each answered once it is written.
        monkeypatch.setattr(hub_module, "HEARTBEAT_WINDOW", 1.0)  # (all twelve reach the hub well within it)
        beats = [Presence(f"s{number}", f"Guest {number + 1}", False, 0.0, 0.0) for number in range(12)]
        socks = [await asyncio.to_thread(_raw, path) for _ in beats]
        writes = hub.heartbeat_writes
        for number, (sock, presence) in enumerate(zip(socks, beats)):
            sock.sendall(frame(Call(number, "live.heartbeat", [to_wire(presence)])))
        answers = [await asyncio.to_thread(read_message, sock) for sock in socks]
        assert all(isinstance(answer, Reply) for answer in answers)
        assert hub.heartbeat_writes == writes + 1
        assert {p.session for p in await asyncio.to_thread(elsewhere.live.sessions)} >= {p.session for p in beats}
        for sock in socks:
            sock.close()
        stop.set()
        step.cancel()
        await changes.aclose()
    finally:
        await hub.close()
        elsewhere.close()
