"""The hub: one process per server that owns the store for every session (docs/arcade.md, *The hub*).

``wom-tui serve`` starts it (:class:`HubProcess`) before any game and restarts it if it dies. It opens the
store once, with a connection pool of ``--db-pool`` connections, listens for changes once (one ``LISTEN``, or
one folder watcher) and answers the server's games over a Unix socket in a private folder, in the typed
protocol of :mod:`wom_tui.domain.store.wire`: store calls by name with their values, table moves as values
(applied with the table's rules in one read-modify-write, :meth:`.tables.TableRules.play`), and every change
pushed to each subscribed game with the tables written, merged while a game is slow to read (never dropped).
It sweeps the live state itself (no game does), and runs Code Arena's pairing loop (:meth:`Hub._arenas`: the
arena's games scored as they end, its waiting players paired, a scheduled arena started; docs/arcade.md).

A game is who its server verified, never what it says: the server tells the hub each game's process and the
identity it signed in as (the SSH key it proved, or the name a browser tab's cookie stands for, or a guest),
on the hub's standard input, which no game holds (:meth:`HubProcess.vouch`). A call that names a person (a
move's seat holder, a table's creator, a presence, a session) is refused unless that person is the calling
game's: a registered name must be the one its key or tab signs in as, a guest's session the one it joined as
(:meth:`Hub._check`).

A connection that sends what is not the protocol, or more than :data:`CALL_RATE` calls a second (a burst of
:data:`CALL_BURST`), or one process's beyond :data:`CONNECTIONS_PER_GAME`, is cut off alone, with a line in the log; each connection's calls run one at a time,
so no game takes more than one of the pool's connections.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import logging
import os
import shutil
import signal
import socket
import struct
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..domain.store import Store, StoreError
from ..domain.store.api import Listing, LiveChange, rating_of
from ..domain.store.wire import (
    CALL_LIMIT, HEADER, PROTOCOL, Call, Change, Hello, Ready, Reply, Subscribe, WireError, change_message, decode,
    failure_of, frame, methods, to_wire,
)
from ..domain.moves import MOVES
from ..domain.presence import HEARTBEAT_INTERVAL, Presence
from ..domain.table import Refused, SeatHolder, Table
from ..domain.users import name_key
from ..settings import Settings
from .logsafe import log_formatter

if TYPE_CHECKING:
    from .warmparent import WarmChild, WarmParent

log = logging.getLogger("wom_tui.hub")

CALL_RATE = 200.0
"""Calls a second one connection may make on average (a person's game makes a few)."""
CALL_BURST = 400.0
"""Calls one connection may make at once before :data:`CALL_RATE` holds it."""
CONNECTIONS_PER_GAME = 16
"""Connections one process may hold to the hub at once (a game uses one, a few while its screens overlap)."""
HEARTBEAT_WINDOW = 0.25
"""Seconds the hub gathers its sessions' heartbeats before writing them all at once (the sessions beat on one
clock, :data:`.presence.HEARTBEAT_INTERVAL`, so one window catches most of a beat's)."""
SWEEP_INTERVAL = 2.0
"""Seconds between two sweeps of the live state by the hub (while any game listens)."""
HUB_SOCKET = "hub.sock"
VOUCH_WAIT = 10.0
"""Seconds a call naming a person waits for the server to say who the calling game is (it learns the game's
process id as the game starts, and the game may call first)."""
SESSION_ARGUMENTS = frozenset({"live.part", "live.leave_queue", "live.fill_now", "live.join_guest"})
"""Calls whose ``session`` argument is the caller's own session."""
USER_CHANGES = frozenset({"register", "bind_key", "unbind_key", "redeem_link_code", "retire"})
"""Calls after which the names the hub knows for each key are read again."""


@dataclass(frozen=True)
class Vouched:
    """Who the server verified a game process to be: the holder of ``key`` (its registered name read from the
    store), a browser tab signed in as ``name``, a guest (neither), or the server itself (``server``: trusted).
    """

    key: str | None = None
    name: str | None = None
    server: bool = False


class _Subscriber:
    """One game's subscription: the changes not sent yet, merged into one while the game reads slowly."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self.wake = asyncio.Event()
        self.tables: dict[str, Table | None] = {}
        self.presence = self.scores = self.moderation = self.queue = False

    def add(self, change: LiveChange, tables_now: dict[str, Table]) -> None:
        for table_id in change.tables:
            table, waiting = tables_now.get(table_id), self.tables.get(table_id)
            if table is None or waiting is None or waiting.version <= table.version:  # (the newer stays)
                self.tables[table_id] = table
        self.presence |= change.presence
        self.scores |= change.scores
        self.moderation |= change.moderation
        self.queue |= change.queue
        self.wake.set()

    def take(self) -> Change:
        now = [table for table in self.tables.values() if table is not None]
        change = LiveChange(frozenset(self.tables), self.presence, self.scores, moderation=self.moderation, queue=self.queue)
        self.tables = {}
        self.presence = self.scores = self.moderation = self.queue = False
        return change_message(change, now)


class Hub:
    """The store of every session of one server, served on a Unix socket (see the module)."""

    arena_interval: float | None = None
    """Seconds between two steps of Code Arena's pairing loop (None: the rules' PAIRING_INTERVAL; tests shorten it)."""

    def __init__(self, store: Store, *, pool: int, settings: Settings | None = None, vouching: bool = False) -> None:
        self.store = store
        self.settings = settings
        """The server's settings (the arena's schedule, the graces, the seed); None: the defaults, no schedule."""
        self.vouching = vouching
        """True: a call naming a person is refused unless the server vouched for the calling process
        (:meth:`vouch`); False (a hub of the tests' own): any process is trusted."""
        self._vouched: dict[int, Vouched] = {}
        self._vouch_waits: dict[int, asyncio.Event] = {}
        self._key_names: dict[int, str | None] = {}
        """The registered name each vouched key signs in as, read once (again if a call names another)."""
        self._owners: dict[str, int] = {}
        """Each session id claimed, and the process whose it is."""
        self.refused = 0
        """Calls refused for naming a person not the caller's."""
        self._beats: dict[str, Presence] = {}
        self._beats_written: asyncio.Future[None] | None = None
        """The write of the heartbeats gathered in this window (each caller waits for it)."""
        self._beats_writing: asyncio.Future[None] | None = None
        """The heartbeats' write under way (a session parting waits for it: a beat written after the part
        would bring the session back online until it went stale)."""
        self.heartbeats = self.heartbeat_writes = 0
        self.held_beats = 0
        """Heartbeats the hub wrote for a connected game that was late to beat (see :meth:`_hold_presences`)."""
        self._present: dict[str, tuple[object, Presence, float]] = {}
        """Each session a connected game keeps online: the connection it joined or beat on, its presence as last
        sent, when it last beat."""
        self.live = store.live
        self.live.known = {}  # type: ignore[attr-defined]  # (TableRules: the hub keeps the tables it wrote)
        self.live.online = None  # type: ignore[attr-defined]
        # The games' requests take at most pool - 1 of the pool's connections at once, the change feed's reads the
        # last one: a read that sends a change on never waits for a connection behind the games' requests.
        self._executor = ThreadPoolExecutor(max_workers=max(1, pool - 1), thread_name_prefix="hub-store")
        self._feed_reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hub-feed")
        """Where the tables a change names are read: never queued behind the games' requests."""
        self._subscribers: set[_Subscriber] = set()
        self._feed_ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task[Any]] = []
        self._server: asyncio.AbstractServer | None = None
        self._listing: dict[str, Table] | None = None
        """Every table as the hub last read or wrote it, kept fresh from the change feed (None: read it anew)."""
        self._written: dict[str, int] = {}
        """Each table's version as the hub last pushed it (a change reported for it again is not read again)."""
        self._writing: collections.Counter[str] = collections.Counter()
        """Table writes under way, by table ("" for a new table): the feed may report one before it returns."""
        self._deferred: dict[str, int] = {}
        """Tables the feed named while the hub was writing them, with the version named (sent on after)."""
        self.calls = 0
        self.moves = 0
        """Moves played (each reads its table once, in its read-modify-write)."""
        self.table_reads = 0
        """Tables read to push them to the games (benches)."""
        self.asked_reads = 0
        """Tables a game asked for that the hub did not keep, read from the store."""
        self.ahead_reads = 0
        """Tables read for the computers to think ahead (the hub had no copy)."""
        self.reads_spared = 0
        """Changed tables the feed named at a version the hub had already (mostly its own writes): not read."""
        peek = self.live._peek  # type: ignore[attr-defined]

        def counted_peek(table_id: str) -> Table | None:
            self.ahead_reads += 1
            return peek(table_id)

        self.live._peek = counted_peek  # type: ignore[attr-defined]
        self.cut_off = 0
        self._connections: dict[asyncio.Task[Any], asyncio.StreamWriter] = {}
        self._per_process: dict[int, int] = {}

    async def start(self, path: str) -> None:
        """Listen on ``path`` and start the change feed and the sweeps."""
        self._server = await asyncio.start_unix_server(self._connection, path, limit=CALL_LIMIT + HEADER.size)
        os.chmod(path, 0o600)
        self._tasks.append(asyncio.ensure_future(self._watch()))
        self._tasks.append(asyncio.ensure_future(self._sweep()))
        self._tasks.append(asyncio.ensure_future(self._arenas()))
        self._tasks.append(asyncio.ensure_future(self._hold_presences()))

    def summary(self) -> str:
        """What the hub did, for its log line as it stops (bench/scale.py reads it)."""
        return (f"hub: {self.calls} requests, {self.moves} moves; table reads: {self.moves + self.ahead_reads} on "
                f"the moves' way ({self.ahead_reads} to think ahead), {self.table_reads} to send changes on, "
                f"{self.asked_reads} asked by games; {self.cut_off} connection(s) cut off, {self.refused} call(s) "
                f"naming another's seat refused; {self.reads_spared} change(s) at hand not read; {self.heartbeats} heartbeats "
                f"in {self.heartbeat_writes} writes ({self.held_beats} held for games late to beat)")

    async def close(self) -> None:
        """Stop listening and close the store."""
        log.info("%s", self.summary())
        self._stop.set()
        if self._server is not None:
            self._server.close()
        for task in self._tasks:
            task.cancel()
        for writer in self._connections.values():
            writer.close()
        if self._connections:
            await asyncio.wait(list(self._connections), timeout=2)
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._feed_reader.shutdown(wait=False, cancel_futures=True)
        self.store.close()

    async def _run(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: function(*args, **kwargs))

    # ---- the change feed and its fan-out

    async def _watch(self) -> None:
        """One feed for the server; each change to every subscriber, the changed tables read once."""
        while not self._stop.is_set():
            try:
                async for change in self.live.feed().changes(self._stop, self._feed_ready):
                    await self._fan_out(change)
            except StoreError as error:
                log.warning("the change feed failed (%s); listening again", error)
                self._everything_changed()
                await asyncio.sleep(1.0)

    def _everything_changed(self) -> None:
        self._feed_ready.clear()
        self._listing = None
        self.live.online = None  # type: ignore[attr-defined]
        self.live.known.clear()  # type: ignore[attr-defined]
        self._written.clear()
        self._deferred.clear()  # (everything is read again)
        self._push(LiveChange(frozenset(), True, True, moderation=True, queue=True), {})

    async def _fan_out(self, change: LiveChange) -> None:
        if change.presence:
            self.live.online = None  # type: ignore[attr-defined]
        if change.presence and change.scores and change.moderation and not change.tables:
            # The feed listened again after losing the database: anything may have changed meanwhile.
            self._listing = None
            self.live.known.clear()  # type: ignore[attr-defined]
            self._written.clear()
        tables_now: dict[str, Table] = {}
        if change.tables:
            fresh = set()
            versions = dict(change.versions)
            for table_id in change.tables:
                if self._own_write_under_way(table_id):
                    # PostgreSQL may deliver a commit's notice before the write that caused it has returned to
                    # the hub: read now, the table would be read for nothing. It is looked at again when the
                    # hub's write to it returns (:meth:`_own_writes_returned`), without holding up the rest.
                    noticed = versions.get(table_id, 1 << 62)
                    self._deferred[table_id] = max(self._deferred.get(table_id, -1), noticed)
                    continue
                if self._written.get(table_id, -1) >= versions.get(table_id, 1 << 62):
                    self.reads_spared += 1  # the hub wrote this version itself, or has read it: nothing to read
                    continue
                if not self._subscribers and self._listing is None:
                    self.live.known.pop(table_id, None)  # type: ignore[attr-defined]
                    self._written.pop(table_id, None)
                    continue
                try:
                    found = await asyncio.get_running_loop().run_in_executor(self._feed_reader, self.live.table, table_id)
                except StoreError:
                    self.live.known.pop(table_id, None)  # type: ignore[attr-defined]
                    self._listing = None
                    fresh.add(table_id)  # the games read it and show the problem
                    continue
                self.table_reads += 1
                if found is None:
                    self.live.known.pop(table_id, None)  # type: ignore[attr-defined]
                    self._written.pop(table_id, None)
                    if self._listing is not None:
                        self._listing.pop(table_id, None)
                    fresh.add(table_id)
                    continue
                if found.version <= self._written.get(table_id, -1):
                    # The hub pushed this very version when it wrote it, or a later one: a read that began before
                    # the hub's own write returned after it, and must not send the older table after the newer.
                    continue
                if self._listing is not None:
                    self._listing[table_id] = found
                self.live.known[table_id] = found  # type: ignore[attr-defined]
                self._written[table_id] = found.version
                tables_now[table_id] = found
                fresh.add(table_id)
            change = LiveChange(frozenset(fresh), change.presence, change.scores, moderation=change.moderation,
                                queue=change.queue)
        if change.tables or change.presence or change.scores or change.moderation or change.queue:
            self._push(change, tables_now)

    def _push(self, change: LiveChange, tables_now: dict[str, Table]) -> None:
        for subscriber in self._subscribers:
            subscriber.add(change, tables_now)

    def _own_write_under_way(self, table_id: str) -> bool:
        """True while the hub writes this table (or creates a table, and this one is new to it)."""
        return bool(self._writing[table_id] or (self._writing[""] and table_id not in self._written))

    def _own_writes_returned(self) -> None:
        """After a write of the hub's own returned: the changes the feed named meanwhile for tables no longer
        being written, and not superseded by what the hub wrote, are sent on (read once, as any other).
        """
        due = {table_id: version for table_id, version in self._deferred.items()
               if not self._own_write_under_way(table_id)}
        for table_id in due:
            del self._deferred[table_id]
        later = {table_id: version for table_id, version in due.items() if self._written.get(table_id, -1) < version}
        if later:
            versions = tuple((table_id, version) for table_id, version in later.items() if version < 1 << 62)
            task = asyncio.ensure_future(self._fan_out(LiveChange(frozenset(later), False, False, versions=versions)))
            self._tasks.append(task)
            task.add_done_callback(self._tasks.remove)

    def _table_write(self, name: str, args: list[Any], kwargs: dict[str, Any]) -> str | None:
        """The table a call writes ("" for new ones, or one not known before the call), or None for a call that
        writes no table.
        """
        if name in ("live.play", "live.tick") and args and isinstance(args[0], str):
            return args[0]
        if name in ("live.create_table", "live.invite", "live.match_wave"):
            return ""
        if name == "live.leave_queue" and kwargs.get("unseen"):
            return ""  # (the table a wave seated the session at, if any)
        return None

    def wrote(self, table: Table) -> None:
        """A table the hub has just written: to every subscriber at once, without waiting for the feed."""
        if self._written.get(table.table_id, -1) >= table.version:
            return
        self._written[table.table_id] = table.version
        if self._listing is not None:
            self._listing[table.table_id] = table
        self._push(LiveChange(frozenset({table.table_id}), False, False), {table.table_id: table})

    async def _send_changes(self, subscriber: _Subscriber) -> None:
        writer = subscriber.writer
        while not writer.is_closing():
            await subscriber.wake.wait()
            subscriber.wake.clear()
            writer.write(frame(subscriber.take()))
            await writer.drain()  # a game slow to read: its changes merge meanwhile, none is dropped

    async def _sweep(self) -> None:
        """Housekeeping for every session of the server: stale presences, graces, computers' moves."""
        while not self._stop.is_set():
            await asyncio.sleep(SWEEP_INTERVAL - time.time() % SWEEP_INTERVAL)
            if not self._subscribers:
                continue
            try:
                if await self._run(self.live.claim_sweep, SWEEP_INTERVAL):
                    await self._run(self.live.sweep)
            except (StoreError, OSError, ValueError, LookupError) as error:
                log.debug("sweep: %s", error)

    async def _arenas(self) -> None:
        """Code Arena's pairing loop (:meth:`..domain.store.arenas.ArenaKeeping.arena_wave`), every
        :data:`~wom_tui.domain.arena.PAIRING_INTERVAL` seconds: a scheduled arena started when one is due
        (``--arena-every``), the games that ended scored, who waits paired. Servers sharing a store each run it:
        the store's lock or transaction makes each pairing once.
        """
        import random

        from pathlib import Path

        from ..domain.arena import PAIRING_INTERVAL, ArenaRefused, new_arena_id, parse_rules, scheduled_due

        settings = self.settings or Settings(data_dir=Path(), seed=0)
        draw = random.Random(settings.seed)
        interval = self.arena_interval or PAIRING_INTERVAL
        while not self._stop.is_set():
            await asyncio.sleep(interval)
            try:
                if settings.arena_every is not None:
                    latest = await self._run(self.live.arena)
                    now = self.live.clock()
                    if scheduled_due(latest, now, settings.arena_every):
                        with contextlib.suppress(ArenaRefused):  # another server started it first
                            await self._run(self.live.start_arena, new_arena_id(now), settings.arena_minutes,
                                            parse_rules(settings.arena_rules))
                tables = await self._run(self.live.arena_wave, draw.getrandbits(48), interval=interval,
                                         grace=settings.seat_grace)
                for table in tables:
                    self.wrote(table)
            except (StoreError, OSError, ValueError, LookupError) as error:
                log.warning("arena: %s", error)

    # ---- one connection

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        pid = _peer(writer)
        who = f"the game of process {pid}" if pid else "a game"
        task = asyncio.current_task()
        assert task is not None
        self._connections[task] = writer
        self._per_process[pid] = self._per_process.get(pid, 0) + 1
        tokens, last = CALL_BURST, time.monotonic()
        try:
            writer.write(frame(Hello(PROTOCOL, self.store.location, False)))
            await writer.drain()
            if pid and self._per_process[pid] > CONNECTIONS_PER_GAME:
                raise WireError(f"more than {CONNECTIONS_PER_GAME} connections at once")
            while True:
                try:
                    (size,) = HEADER.unpack(await reader.readexactly(HEADER.size))
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                if size > CALL_LIMIT:
                    raise WireError(f"a message of {size} bytes")
                message = decode(await reader.readexactly(size))
                now = time.monotonic()
                tokens = min(CALL_BURST, tokens + (now - last) * CALL_RATE) - 1
                last = now
                if tokens < 0:
                    raise WireError(f"more than {CALL_RATE:.0f} calls a second")
                if isinstance(message, Subscribe):
                    await self._subscribed(message, reader, writer)
                    return
                if not isinstance(message, Call):
                    raise WireError(f"a {type(message).__name__} is not a game's to send")
                writer.write(frame(await self._answer(message, pid)))
                await writer.drain()
        except WireError as error:
            self.cut_off += 1
            log.warning("cut off %s: %s", who, error)
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self._connections.pop(task, None)
            self._per_process[pid] -= 1
            if not self._per_process[pid]:
                del self._per_process[pid]
            for session in [session for session, held in self._present.items() if held[0] is task]:
                del self._present[session]  # (its game is gone: its presence goes stale as it should)
            writer.close()

    async def _answer(self, call: Call, pid: int = 0) -> Reply | Any:
        method = methods().get(call.method)
        if method is None:
            raise WireError(f"no method {call.method!r}")
        args, kwargs = method.arguments(call.args, call.kwargs)
        self.calls += 1
        name = call.method
        if name == "live.claim_sweep":
            return Reply(call.id, False)
        if self.vouching:
            try:
                await self._check(pid, name, dict(zip(method.params, args)) | kwargs)
            except Refused as exc:
                self.refused += 1
                log.warning("refused %s from the game of process %d: %s", name, pid, exc.reason)
                return failure_of(call.id, exc, self.store.location)
            except StoreError as exc:
                return failure_of(call.id, exc, self.store.location)
        kept = self._kept(name, args)
        if kept is not None:
            return Reply(call.id, to_wire(kept[0]))
        target = self.live if method.live else self.store
        function = getattr(target, method.name)
        if name == "live.match_wave":
            store = self.store
            args = [lambda name: rating_of(store, name), *args]
        if name == "live.heartbeat" and isinstance(args[0] if args else None, Presence) and not kwargs:
            self._present[args[0].session] = (asyncio.current_task(), args[0], time.monotonic())
            try:
                await self._heartbeat(args[0])
            except Exception as exc:  # noqa: BLE001 - logged by the batch; the game reads a failure
                return failure_of(call.id, exc, self.store.location)
            return Reply(call.id, None)
        if name == "live.play":
            self.moves += 1
        elif name == "live.table":
            self.asked_reads += 1
        if name == "live.part" and args:
            self._present.pop(args[0], None)  # (not beaten for again, by the hub or in the window's write)
            self._beats.pop(args[0], None)
            if self._beats_writing is not None:
                await asyncio.wait([self._beats_writing])
        writing = self._table_write(name, args, kwargs)
        if writing is not None:
            self._writing[writing] += 1
        try:
            try:
                result = await self._run(function, *args, **kwargs)
            except Exception as exc:
                if not isinstance(exc, (StoreError, ValueError, LookupError)):
                    log.exception("%s failed", name)
                return failure_of(call.id, exc, self.store.location)
            if writing is not None:
                for table in result if isinstance(result, list) else (result,):
                    if isinstance(table, Table):
                        self.wrote(table)
        finally:
            if writing is not None:
                self._writing[writing] -= 1
                if not self._writing[writing]:
                    del self._writing[writing]
                if self._deferred:
                    self._own_writes_returned()
        if name in USER_CHANGES:
            self._key_names.clear()
        elif name in ("live.join", "live.join_guest") and isinstance(result, Presence):
            if pid:
                self._owners.setdefault(result.session, pid)
            self._present[result.session] = (asyncio.current_task(), result, time.monotonic())
        elif name in ("live.tables", "live.sweep") and isinstance(result, Listing) and not result.problems \
                and self._feed_ready.is_set():
            self._listing = {table.table_id: table for table in result.tables}
        try:
            return Reply(call.id, to_wire(result))
        except WireError as exc:  # the hub's own fault, not the game's
            log.exception("%s: cannot send its answer", name)
            return failure_of(call.id, exc, self.store.location)

    async def _heartbeat(self, presence: Presence) -> None:
        """Keep ``presence`` online in the window's one write for every session of the server (returns once
        it is written).
        """
        self.heartbeats += 1
        await asyncio.shield(self._beat(presence))

    def _beat(self, presence: Presence) -> asyncio.Future[None]:
        """``presence`` in this window's write (the write, which starts one if none is gathering)."""
        self._beats[presence.session] = presence
        if self._beats_written is None:
            self._beats_written = asyncio.get_running_loop().create_future()
            asyncio.get_running_loop().call_later(HEARTBEAT_WINDOW, lambda: asyncio.ensure_future(self._write_beats()))
        return self._beats_written

    async def _hold_presences(self) -> None:
        """Beat for every session whose game is still connected but late to beat itself.

        A game beats every :data:`HEARTBEAT_INTERVAL` seconds and is gone once it has missed a few. On a machine
        running hundreds of games (each at a lower priority than the hub: serve/forkserver.py) a game busy
        drawing, or waiting for a core, can miss them while its player is there: everyone's lobby then showed
        that player away, their seat's grace counting down on every screen each second, which made the machine
        busier still. The hub knows better: a game whose connection is open is running. A game that parts, or
        whose connections all close (it ended, or was killed), is not beaten for any more.
        """
        while not self._stop.is_set():
            await asyncio.sleep(HEARTBEAT_INTERVAL)
            now = time.monotonic()
            for _connection, presence, beat in list(self._present.values()):
                if now - beat >= HEARTBEAT_INTERVAL:
                    self.held_beats += 1
                    self._beat(presence)  # (a failed write is logged and retrieved in :meth:`_write_beats`)

    async def _write_beats(self) -> None:
        beats, written = list(self._beats.values()), self._beats_written
        self._beats, self._beats_written = {}, None
        assert written is not None
        if self._stop.is_set() or not beats:  # (the hub closed meanwhile, its store with it; or all parted)
            written.set_result(None)
            return
        self._beats_writing = written
        heartbeats = getattr(self.live, "heartbeats", None)
        try:
            self.heartbeat_writes += 1
            if heartbeats is not None:
                await self._run(heartbeats, beats)
            else:
                for presence in beats:
                    await self._run(self.live.heartbeat, presence)
        except Exception as exc:
            if not isinstance(exc, (StoreError, ValueError, LookupError)):
                log.exception("heartbeats failed")
            written.set_exception(exc)
            written.exception()  # (retrieved: a window nobody waits for any more is not an "unretrieved" error)
        else:
            written.set_result(None)
        finally:
            if self._beats_writing is written:
                self._beats_writing = None

    # ---- who a game is

    def vouch(self, pid: int, vouched: Vouched) -> None:
        """The server says the game of process ``pid`` is ``vouched`` (its verified identity)."""
        self._vouched[pid] = vouched
        self._key_names.pop(pid, None)
        event = self._vouch_waits.pop(pid, None)
        if event is not None:
            event.set()

    def forget(self, pid: int) -> None:
        """The game of process ``pid`` ended: its identity and its sessions go with it."""
        self._vouched.pop(pid, None)
        self._key_names.pop(pid, None)
        for session in [session for session, owner in self._owners.items() if owner == pid]:
            del self._owners[session]

    async def _who(self, pid: int) -> Vouched:
        """Who the server says process ``pid`` is (waiting a moment for a game that called before its server
        said); :class:`.table.Refused` if nobody vouched for it.
        """
        found = self._vouched.get(pid)
        if found is None and pid:
            event = self._vouch_waits.setdefault(pid, asyncio.Event())
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(event.wait(), VOUCH_WAIT)
            found = self._vouched.get(pid)
        if found is None:
            raise Refused("This game is not one the server started: the arcade does not know who plays it.")
        return found

    async def _signed_in_as(self, pid: int, vouched: Vouched, fresh: bool) -> str | None:
        if vouched.name is not None or vouched.key is None:
            return vouched.name
        if fresh or pid not in self._key_names:
            user = await self._run(self.store.user_for_key, vouched.key)
            self._key_names[pid] = user.name if user is not None else None
        return self._key_names[pid]

    async def _check(self, pid: int, method: str, arguments: dict[str, Any]) -> None:
        """Refuse (:class:`.table.Refused`) a call that names a person other than the calling game's own:
        a registered name its key or tab does not sign in as, or a session another game joined as.
        """
        people: list[tuple[str | None, bool, str | None]] = []
        for value in arguments.values():
            if isinstance(value, MOVES):
                value = getattr(value, "holder", None)
            if isinstance(value, (SeatHolder, Presence)):
                people.append((value.name, value.registered, value.session))
        if method == "live.join":
            people.append((arguments.get("name"), bool(arguments.get("registered")), arguments.get("session")))
        elif method in SESSION_ARGUMENTS and isinstance(arguments.get("session"), str):
            people.append((None, False, arguments["session"]))
        if not people:
            return
        vouched = await self._who(pid)
        if vouched.server:
            return
        for name, registered, session in people:
            if registered and name is not None:
                own = await self._signed_in_as(pid, vouched, fresh=False)
                if own is None or name_key(own) != name_key(name):
                    own = await self._signed_in_as(pid, vouched, fresh=True)  # signed in since?
                if own is None or name_key(own) != name_key(name):
                    raise Refused(f"That seat is {name}'s: this session plays as {own or 'a guest'}.")
            elif session is not None:
                owner = self._owners.setdefault(session, pid)
                if owner != pid:
                    raise Refused("That seat is another session's.")

    def _kept(self, name: str, args: list[Any]) -> tuple[Any] | None:
        """What the hub can answer from the tables it keeps fresh (the feed is live), without a read."""
        if not self._feed_ready.is_set():
            return None
        if name == "live.table":
            found = self.live.known.get(args[0])  # type: ignore[attr-defined]
            if found is None and self._listing is not None:
                found = self._listing.get(args[0])
            return (found,) if found is not None else None  # (one not kept: read, it may be brand new)
        if name in ("live.tables", "live.sweep") and self._listing is not None:
            # (A game's sweep: the hub sweeps on its own beat for every session, so a game only reads.)
            return (Listing(tuple(self._listing[key] for key in sorted(self._listing)), ()),)
        return None

    async def _subscribed(self, message: Subscribe, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await self._feed_ready.wait()
        subscriber = _Subscriber(writer)
        self._subscribers.add(subscriber)
        writer.write(frame(Ready(message.id)))
        sender = asyncio.ensure_future(self._send_changes(subscriber))
        try:
            if await reader.read(1):
                raise WireError("a subscription carries nothing from the game")
        finally:
            self._subscribers.discard(subscriber)
            sender.cancel()


def _peer(writer: asyncio.StreamWriter) -> int:
    """The connecting process's id, as the kernel gives it (``SO_PEERCRED``; 0 if it cannot say)."""
    sock = writer.get_extra_info("socket")
    try:
        pid, _uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
    except (OSError, AttributeError):
        return 0
    return int(pid)


# ---------------------------------------------------------------- the process


async def _serve(settings: Settings, path: str, server: int) -> int:
    from ..settings import open_store

    try:
        store = open_store(settings, pool=settings.db_pool)
    except StoreError as error:
        print(f"error {error}", flush=True)
        return 1
    hub = Hub(store, pool=settings.db_pool, settings=settings, vouching=True)
    await hub.start(path)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)

    def hear_the_server() -> None:
        """The server's word on each game (one JSON line each), until it closes our standard input."""
        for line in sys.stdin:
            try:
                said = json.loads(line)
                pid = int(said["pid"])
                vouched = None if said.get("gone") else Vouched(said.get("key"), said.get("name"),
                                                                bool(said.get("server")))
            except (ValueError, KeyError, TypeError):
                log.warning("the server said what the hub does not understand: %r", line[:200])
                continue
            loop.call_soon_threadsafe(hub.forget if vouched is None else hub.vouch, *((pid,) if vouched is None else
                                                                                     (pid, vouched)))
        loop.call_soon_threadsafe(server_gone)

    gone = False  # the server went without stopping us (killed): its hub goes too, with its socket's folder

    def server_gone() -> None:
        nonlocal gone
        gone = True
        stop.set()

    threading.Thread(target=hear_the_server, name="hub-server", daemon=True).start()
    # The server's end closes our standard input; its pid is watched as well (a pidfd, readable once it has
    # ended): the hub may be the warm parent's child, not the server's.
    try:
        watched: int | None = os.pidfd_open(server)
    except ProcessLookupError:
        watched = None
        server_gone()
    if watched is not None:
        loop.add_reader(watched, server_gone)
    print("ready", flush=True)
    await stop.wait()
    if watched is not None:
        loop.remove_reader(watched)
        os.close(watched)
    await hub.close()
    if gone:
        # The server is gone (killed: it did not stop us): so is its hub, and the folder it made for our
        # socket, which it can no longer remove (nobody else starts a hub there).
        shutil.rmtree(os.path.dirname(path), ignore_errors=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m wom_tui.serve.hub SOCKET``, the settings as JSON on stdin (the server starts it)."""
    parser = argparse.ArgumentParser(prog="wom_tui.serve.hub")
    parser.add_argument("socket")
    parser.add_argument("--server", type=int, default=None, metavar="PID",
                        help="the server's pid: the hub ends with it (default: this process's parent)")
    options = parser.parse_args(argv)
    settings = Settings.from_json(json.loads(sys.stdin.readline()))
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(log_formatter(settings.log_format))  # one log with the server's, in its format
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)  # (forked: not the warm parent's)
    return asyncio.run(_serve(settings, options.socket, options.server or os.getppid()))


class ForkedHub:
    """The hub as the warm parent forked it, with what :class:`HubProcess` uses of an asyncio Process: ``pid``,
    ``stdin``, ``stdout``, ``returncode``, ``wait()``, ``terminate()`` and ``kill()``.
    """

    def __init__(self, child: WarmChild, stdin: asyncio.StreamWriter, stdout: asyncio.StreamReader) -> None:
        self.child, self.stdin, self.stdout = child, stdin, stdout
        self.pid = child.pid

    @classmethod
    async def fork(cls, warm: WarmParent, path: str) -> ForkedHub:
        """Ask ``warm`` to fork the hub listening at ``path``, on two new pipes (OSError if it cannot)."""
        loop = asyncio.get_running_loop()
        hub_in, ours_out = os.pipe()
        ours_in, hub_out = os.pipe()
        try:
            child = await warm.spawn_hub(hub_in, hub_out, path, dict(os.environ))
        except BaseException:
            os.close(ours_out)
            os.close(ours_in)
            raise
        finally:
            os.close(hub_in)
            os.close(hub_out)
        stdout = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdout), open(ours_in, "rb", buffering=0))
        transport, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, open(ours_out, "wb", buffering=0))
        stdin = asyncio.StreamWriter(transport, protocol, None, loop)
        hub = cls(child, stdin, stdout)
        child._done.add_done_callback(lambda _: stdin.close())
        return hub

    @property
    def returncode(self) -> int | None:
        """Its exit status once it has ended (negative: the signal), else None."""
        return self.child.returncode

    async def wait(self) -> int:
        """Wait for it to end; its exit status."""
        return await self.child.wait()

    def terminate(self) -> None:
        """SIGTERM: it closes its store and ends."""
        self.child.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL."""
        self.child.send_signal(signal.SIGKILL)


class HubProcess:
    """The server's side of its hub: start it, watch it, start it again if it dies (docs/serve.md)."""

    RESTART_DELAYS = (0.0, 0.5, 1.0, 2.0, 5.0)

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.folder = tempfile.mkdtemp(prefix="wom-hub-")
        self.path = os.path.join(self.folder, HUB_SOCKET)
        self.warm: WarmParent | None = None
        """The server's warm parent, which forks the hub when it is up (it has imported what the hub runs);
        else the hub is a fresh interpreter."""
        self.process: asyncio.subprocess.Process | ForkedHub | None = None
        self.up = False
        """True while the hub answers (the server seats no new player while it does not)."""
        self.restarts = 0
        self._closing = False
        self._watcher: asyncio.Task[None] | None = None
        self._games: dict[int, dict[str, Any]] = {}
        """What the server told the hub of each running game (told again to a restarted hub)."""

    async def start(self) -> None:
        """Start the hub and wait until it listens; ``OSError`` with its reason if it cannot."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        process = await self._launch()
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(self.settings.as_json()).encode() + b"\n")
        # The server's own calls are trusted; then every running game, as verified (a restarted hub knows nobody).
        for said in ({"pid": os.getpid(), "server": True}, *self._games.values()):
            process.stdin.write(json.dumps(said).encode() + b"\n")
        await process.stdin.drain()  # (the pipe stays open: the server says who each new game is on it)
        line = (await process.stdout.readline()).decode(errors="replace").strip()
        if line != "ready":
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
            raise OSError(line.removeprefix("error ") or f"the hub stopped (status {process.returncode})")
        self.process = process
        self.up = True
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.ensure_future(self._watch())

    async def _launch(self) -> asyncio.subprocess.Process | ForkedHub:
        """The hub forked by the warm parent if it is up (a few milliseconds), else a fresh interpreter (about
        0.2 CPU-seconds of imports).
        """
        warm = self.warm
        if warm is not None and warm.up:
            try:
                return await ForkedHub.fork(warm, self.path)
            except OSError as error:
                log.info("the warm parent could not fork the hub (%s): starting it on its own", error)
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "wom_tui.serve.hub", self.path, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, start_new_session=True,
        )

    def vouch(self, pid: int, *, key: str | None = None, name: str | None = None) -> None:
        """Tell the hub that the game of process ``pid`` is the holder of the verified SSH ``key``, or the browser
        tab signed in as ``name``, or a guest (neither): the persons its calls may name (see the module).
        """
        said = {"pid": pid, "key": key, "name": name}
        self._games[pid] = said
        self._say(said)

    def forget(self, pid: int) -> None:
        """The game of process ``pid`` ended (its process id may be another game's next)."""
        if self._games.pop(pid, None) is not None:
            self._say({"pid": pid, "gone": True})

    def _say(self, said: dict[str, Any]) -> None:
        process = self.process
        if process is None or process.stdin is None or process.returncode is not None:
            return  # told to the next hub as it starts
        with contextlib.suppress(OSError, RuntimeError):
            process.stdin.write(json.dumps(said).encode() + b"\n")

    async def _watch(self) -> None:
        while not self._closing:
            process = self.process
            assert process is not None
            status = await process.wait()
            if self._closing:
                return
            self.up = False
            log.error("the hub stopped (status %s): no new player is seated until it is back", status)
            for delay in (*self.RESTART_DELAYS, *([self.RESTART_DELAYS[-1]] * 1000)):
                await asyncio.sleep(delay)
                if self._closing:
                    return
                try:
                    await self.start_again()
                    break
                except OSError as error:
                    log.error("the hub cannot start again: %s", error)

    async def start_again(self) -> None:
        """Start a new hub at the same socket (its games find it at their next call)."""
        await self.start()
        self.restarts += 1
        log.info("the hub is back (restart %d)", self.restarts)

    async def close(self) -> None:
        """Stop the hub and remove its folder."""
        self._closing = True
        if self._watcher is not None:
            self._watcher.cancel()
        process = self.process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 5)
            except asyncio.TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                with contextlib.suppress(asyncio.TimeoutError):  # (a forked hub's end is told by its warm parent)
                    await asyncio.wait_for(process.wait(), 5)
        shutil.rmtree(self.folder, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
