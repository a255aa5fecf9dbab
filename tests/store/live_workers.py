"""Processes that share a store's live state (a data folder or a database), as separate wom-tui sessions
or servers would (no UI). ``folder`` is where the store is: a folder or a postgresql:// address.

Each plays the way a screen should: subscribe to the change feed, wait until it is ready, then
loop: bring the table up to date (``live.tick``), act on its own view, and wait for the next
change or for the moment the table says something is due.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

from wom_tui.domain.presence import HEARTBEAT_INTERVAL
from wom_tui.domain.players import viki
from wom_tui.domain.store import open_store
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.domain.table import FINISHED, GUESSING, MAKING, OPEN, Refused, SeatHolder

CTX = multiprocessing.get_context("fork")
TIMEOUT = 60.0


def take_seat(folder: str, table_id: str, name: str, go, results) -> None:
    """Wait for ``go``, then try to take seat 2; report ``(name, "ok" or the reason)``."""
    live = open_store(folder).live
    me = SeatHolder(name, f"s-{name}", True)
    go.wait(TIMEOUT)
    try:
        live.update_table(table_id, lambda t: t.sit(me, 1))
    except Refused as exc:
        results.put((name, exc.reason))
    else:
        results.put((name, "ok"))


def play_seat(folder: str, table_id: str, name: str, seat: int, code: str, results) -> None:
    """Sit in ``seat`` (seat 0: the creator, who starts), set ``code``, break one's own code,
    and report what this seat saw at the end: ``(name, phase, messages, own attempts)``."""
    results.put(asyncio.run(asyncio.wait_for(_play(folder, table_id, name, seat, code), TIMEOUT)))


@contextlib.asynccontextmanager
async def online(live, me: SeatHolder, wakes: Callable[[Any], bool]) -> AsyncIterator[asyncio.Event]:
    """``me`` online as a session does: joined, beating its heart, and watching the change feed; yields the
    event set whenever a change ``wakes`` it. Leaves the lobby on the way out."""
    presence = live.join(me.name, me.registered, me.session)
    stop, ready, arrived = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def watch():
        async for change in live.feed().changes(stop, ready):
            if wakes(change):
                arrived.set()

    async def heartbeat():
        while not stop.is_set():
            await asyncio.to_thread(live.heartbeat, presence)
            try:
                await asyncio.wait_for(stop.wait(), HEARTBEAT_INTERVAL)
            except asyncio.TimeoutError:
                pass

    watcher, beater = asyncio.create_task(watch()), asyncio.create_task(heartbeat())
    await ready.wait()
    try:
        yield arrived
    finally:
        stop.set()
        await asyncio.gather(watcher, beater)
        live.part(me.session)


async def _play(folder: str, table_id: str, name: str, seat: int, code: str):
    store = open_store(folder)
    live = store.live
    me = SeatHolder(name, f"s-{name}", True)
    rng = random.Random(name)
    async with online(live, me, lambda change: table_id in change.tables or change.presence) as arrived:
        if seat:
            live.update_table(table_id, lambda t: t.sit(me, seat))
        while True:
            arrived.clear()
            table = live.tick(table_id)
            view = table.view_for(me)
            try:
                if view.phase == OPEN and seat == 0 and not view.free_seats:
                    live.act(table_id, lambda t, now: t.start(me, now))
                    continue
                if view.phase == MAKING and view.own.code_for:
                    live.act(table_id, lambda t, now: t.set_code(me, code, now))
                    continue
                if view.phase == GUESSING and not view.own.done:
                    guess = viki().make_guess(table.ruleset, view.own.history, rng)
                    live.act(table_id, lambda t, now: t.guess(me, guess, now))
                    continue
            except Refused:
                continue
            if view.phase == FINISHED and table.recorded:
                board = [(u.name, u.score, u.games) for u in store.scoreboard()]
                return name, view.phase, view.results.messages, view.seats[view.you].attempts_used, board
            due = table.next_due()
            wait = 1.0 if due is None else max(0.0, min(1.0, due - live.clock()))
            try:
                await asyncio.wait_for(arrived.wait(), wait)
            except asyncio.TimeoutError:
                pass


def play_forever(folder: str, games) -> None:
    """Alan against HAL9000, table after table, as fast as it goes, publishing how many tables finished."""
    live = open_store(folder).live
    me = SeatHolder("Alan", "s-alan", True)
    live.join(me.name, me.registered, me.session)
    rng = random.Random()
    while True:
        table = live.create_table(me, seats=2, attempts=5, pace=(0.0, 0.0), grace=60.0)
        tid = table.table_id
        live.update_table(tid, lambda t: t.seat_computer(me, 1, "HAL9000"))
        live.act(tid, lambda t, now: t.start(me, now))
        live.act(tid, lambda t, now: t.set_code(me, "RGBY", now))
        while live.tick(tid).phase != FINISHED:
            guess = rng.choice(["RRRR", "GGGG", "BBBB", "KKKK"])
            try:
                live.act(tid, lambda t, now: t.guess(me, guess, now))
            except Refused:
                pass
        games.value += 1


def create_table(folder: str, name: str, results) -> None:
    """Open a table for ``name``; report its id."""
    results.put(open_store(folder).live.create_table(SeatHolder(name, f"s-{name}", True)).table_id)


def play_one_killed_at(folder: str, step: int) -> None:
    """Alan plays one table against HAL9000 and the process kills itself (SIGKILL) just before
    its ``step``-th file write, wherever that falls: seating, a move, or the recording."""
    import os
    import signal

    from wom_tui.domain.store.folder import live as live_module
    from wom_tui.domain.store.folder import store as store_module

    writes = [0]

    def dying(function):
        def wrapper(*args, **kwargs):
            writes[0] += 1
            if writes[0] == step:
                os.kill(os.getpid(), signal.SIGKILL)
            return function(*args, **kwargs)
        return wrapper

    store_module.atomic_write = live_module.atomic_write = dying(store_module.atomic_write)
    live_module.write_beside = dying(live_module.write_beside)  # a move's new file, before its rename
    store_module.FolderStore._file_game = dying(store_module.FolderStore._file_game)
    live = Store(folder).live
    me = SeatHolder("Alan", "s-alan", True)
    live.join(me.name, me.registered, me.session)
    tid = live.create_table(me, seats=2, attempts=5, pace=(0.0, 0.0), seed=step).table_id
    live.update_table(tid, lambda t: t.seat_computer(me, 1, "HAL9000"))
    live.act(tid, lambda t, now: t.start(me, now))
    live.act(tid, lambda t, now: t.set_code(me, "RGBY", now))
    for guess in ("RRRR", "GGGG", "BBBB", "YYYY", "KKKK"):
        live.act(tid, lambda t, now: t.guess(me, guess, now))
    live.part(me.session)
