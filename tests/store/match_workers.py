"""Processes waiting for a quick match on a shared store (a data folder or a postgresql:// address), as
separate sessions or servers would (no UI): join, enqueue, then run due waves and wait on the change feed
until seated. Each reports ``(name, table id, the table's names)``.
"""

from __future__ import annotations

import asyncio

from wom_tui.domain.store import open_store
from wom_tui.domain.table import SeatHolder

from .live_workers import CTX, TIMEOUT, online

__all__ = ["CTX", "TIMEOUT", "wait_for_match"]


def unrated(name: str) -> float | None:
    return None


def wait_for_match(where: str, name: str, go, results, interval: float = 0.3, fill_after: float = 600.0) -> None:
    """Wait for ``go``, then queue as ``name`` until seated; put ``(name, table id, names)`` on ``results``."""
    go.wait(TIMEOUT)
    results.put(asyncio.run(asyncio.wait_for(_wait(where, name, interval, fill_after), TIMEOUT)))


async def _wait(where: str, name: str, interval: float, fill_after: float):
    store = open_store(where)
    live = store.live
    me = SeatHolder(name, f"s-{name}", True)
    try:
        async with online(live, me, lambda change: change.queue or change.tables) as arrived:
            live.enqueue(me, fill_after=fill_after)
            while True:
                arrived.clear()
                live.match_wave(unrated, seed=hash(name) & 0xFFFF, interval=interval)
                ticket = live.match_queue().ticket(me.session)
                if ticket is None:
                    # Dropped by another process's wave as gone (this one's heartbeat came late, on a busy
                    # machine): queue again, as the quick match screen does (screens/quick_match.py).
                    live.enqueue(me, fill_after=fill_after)
                    continue
                if ticket.table_id is not None:
                    table = live.table(ticket.table_id)
                    if table is not None:  # (the folder writes the queue, then the tables: it may be on its way)
                        live.leave_queue(me.session)
                        return name, ticket.table_id, table.names
                try:
                    await asyncio.wait_for(arrived.wait(), interval)
                except asyncio.TimeoutError:
                    pass
    finally:
        store.close()
