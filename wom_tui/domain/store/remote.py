"""A served game's store: its server's hub, reached over a local socket (docs/arcade.md, *The hub*).

:class:`HubStore` is a :class:`.api.Store` whose every method is a :class:`.wire.Call` to the hub, which owns
the real store (one connection pool, one change feed) for every session of the server; its ``live`` plays
table moves as values (:meth:`HubLive.play`) and its change feed is the hub's, pushed to the game with the
tables written (so that a screen showing one reads nothing to repaint). A game imports neither psycopg nor a
file watcher. If the hub does not answer, each call is a :class:`.api.StoreError` saying so in words, and the
next call tries again (a restarted hub is found at the same socket).
"""

from __future__ import annotations

import asyncio
import contextlib
import select
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any, cast

from .api import ChangeFeed, LiveChange, StoreError
from .feed import ProcessFeed
from .wire import (
    CALL_LIMIT, HEADER, PROTOCOL, REPLY_LIMIT, Call, Change, Failure, Hello, Ready, Reply, Subscribe, WireError, decode,
    frame, live_change, methods, raise_failure, to_wire,
)

if TYPE_CHECKING:
    from ..moves import TableMove
    from ..table import Table
    from .api import Live, Store

HUB_TIMEOUT = 30.0
"""Seconds a game waits for the hub's answer before telling the player it does not answer."""
RECONNECT_PAUSE = 0.5
"""Seconds between two tries of a change feed to reach a hub that went away."""
DOWN = "the arcade's hub is not answering (it may be restarting): try again in a moment"
"""What a player reads when the hub is gone."""


def _read_exactly(sock: socket.socket, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            raise ConnectionResetError("the hub closed the connection")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_message(sock: socket.socket, limit: int = REPLY_LIMIT) -> Any:
    """One message from a blocking socket."""
    (size,) = HEADER.unpack(_read_exactly(sock, HEADER.size))
    if size > limit:
        raise WireError(f"a message of {size} bytes")
    return decode(_read_exactly(sock, size))


class HubStore:
    """The store of a game served by a hub at the Unix socket ``path`` (see the module)."""

    quick_reads = False

    def __init__(self, path: str, *, timeout: float = HUB_TIMEOUT) -> None:
        self.path = path
        self.timeout = timeout
        self._idle: list[socket.socket] = []
        self._lock = threading.Lock()
        self._ids = iter(range(1, 1 << 62))
        self.location = "the arcade's hub"
        self.calls = 0
        """Calls made (tests and benches)."""
        sock = self._connect()  # the hub's Hello says where the arcade is; an unreachable hub is said now
        self._idle.append(sock)
        self._live = HubLive(self)

    def _connect(self) -> socket.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        try:
            sock.connect(self.path)
            hello = read_message(sock)
        except (OSError, WireError) as exc:
            sock.close()
            raise StoreError(self.location, f"{DOWN} ({getattr(exc, 'strerror', None) or exc})") from None
        if not isinstance(hello, Hello) or hello.protocol != PROTOCOL:
            sock.close()
            raise StoreError(self.location, "the arcade's hub speaks another version of its protocol")
        self.location = hello.location
        return sock

    def _take(self) -> socket.socket:
        with self._lock:
            while self._idle:
                sock = self._idle.pop()
                # A connection the hub closed meanwhile (it restarted) reads as ready: drop it, take another.
                readable, _, _ = select.select([sock], [], [], 0)
                if not readable:
                    return sock
                sock.close()
        return self._connect()

    def call(self, name: str, args: tuple[Any, ...] = (), kwargs: dict[str, Any] | None = None) -> Any:
        """Run the store method ``name`` at the hub; what it returns, or the exception it raised."""
        method = methods()[name]
        message = Call(next(self._ids), name, [to_wire(value) for value in args],
                       {key: to_wire(value) for key, value in (kwargs or {}).items()})
        data = frame(message)
        if len(data) > CALL_LIMIT:
            raise ValueError("that is too long to keep")
        sock = self._take()
        try:
            sock.sendall(data)
            answer = read_message(sock)
        except (OSError, WireError) as exc:
            sock.close()
            raise StoreError(self.location, f"{DOWN} ({getattr(exc, 'strerror', None) or exc})") from None
        with self._lock:
            self._idle.append(sock)
        self.calls += 1
        if isinstance(answer, Failure) and answer.id == message.id:
            raise_failure(answer)
        if not isinstance(answer, Reply) or answer.id != message.id:
            raise StoreError(self.location, "the arcade's hub gave an answer to another question")
        try:
            return method.result(answer.value)
        except WireError as exc:
            raise StoreError(self.location, f"the arcade's hub answered with something unreadable ({exc})") from None

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("_") or name not in methods():
            raise AttributeError(name)

        def call(*args: Any, **kwargs: Any) -> Any:
            return self.call(name, args, kwargs)

        call.__name__ = name
        return call

    @property
    def live(self) -> Live:
        """Tables, presence, the quick-match queue and the change feed, through the hub."""
        return cast("Live", self._live)

    def close(self) -> None:
        """Close every connection to the hub."""
        with self._lock:
            for sock in self._idle:
                sock.close()
            self._idle.clear()

    def __repr__(self) -> str:
        return f"HubStore({self.path!r})"


class HubLive:
    """``store.live`` of a :class:`HubStore`: every method a call to the hub; the feed is the hub's."""

    quick_reads = False

    def __init__(self, store: HubStore) -> None:
        self._store = store
        self.clock: Callable[[], float] = time.time
        self.pushed: dict[str, Table] = {}
        """The tables as the hub last pushed them with a change (of those this game reads), while the feed is
        subscribed: what :meth:`table` gives without asking."""
        self.interested: set[str] = set()
        """The tables this game read or played at: the pushed copies it keeps."""
        self.subscribed = False
        self._feed = ProcessFeed(("hub", store.path), lambda: HubFeed(store, self))

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("_") or "live." + name not in methods():
            raise AttributeError(name)

        def call(*args: Any, **kwargs: Any) -> Any:
            return self._store.call("live." + name, args, kwargs)

        call.__name__ = name
        return call

    def table(self, table_id: str) -> Table | None:
        """The table as the hub last pushed it (no question asked), else as the hub reads it now."""
        self.interested.add(table_id)
        pushed = self.pushed.get(table_id) if self.subscribed else None
        if pushed is not None:
            return pushed.copy()
        found = cast("Table | None", self._store.call("live.table", (table_id,)))
        if found is not None:
            self._keep(found)
        return found

    def at_hand(self, table_id: str) -> bool:
        """True when the hub has pushed this table as it stands: reading it costs no question (on any loop)."""
        return self.subscribed and table_id in self.pushed

    def play(self, table_id: str, move: TableMove) -> Table:
        """Play ``move`` at the hub (one read-modify-write there); the table as written."""
        table = cast("Table", self._store.call("live.play", (table_id, move)))
        self._keep(table)
        return table

    def _keep(self, table: Table) -> None:
        self.interested.add(table.table_id)
        if not self.subscribed:
            return
        known = self.pushed.get(table.table_id)
        if known is None or known.version <= table.version:
            self.pushed[table.table_id] = table.copy()

    def match_wave(self, rating_of: Any, seed: int, **kwargs: Any) -> list[Table]:
        """Run a quick-match wave if one is due; the hub reads the ratings itself (a function does not travel)."""
        return cast("list[Table]", self._store.call("live.match_wave", (seed,), kwargs))

    def claim_sweep(self, interval: float) -> bool:
        """False: the hub sweeps the live state itself for every session of the server."""
        return False

    def feed(self, *, polling: bool = False) -> ChangeFeed:
        """The hub's change feed (one subscription per game, shared by its screens)."""
        return self._feed


class HubFeed:
    """One subscription to the hub's changes: the tables pushed with them are kept for :meth:`HubLive.table`.

    If the hub goes away, the feed tries again every :data:`RECONNECT_PAUSE` seconds and, once back, reports
    that everything may have changed (screens read again what they show); it never ends on its own.
    """

    def __init__(self, store: HubStore, live: HubLive) -> None:
        self._store = store
        self._live = live

    async def _subscribe(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        reader, writer = await asyncio.open_unix_connection(self._store.path, limit=1 << 20)
        try:
            hello = await _read(reader)
            if not isinstance(hello, Hello) or hello.protocol != PROTOCOL:
                raise WireError("not the hub's protocol")
            writer.write(frame(Subscribe(1)))
            await writer.drain()
            if not isinstance(await _read(reader), Ready):
                raise WireError("the hub did not take the subscription")
        except BaseException:
            writer.close()
            raise
        return reader, writer

    async def changes(self, stop: asyncio.Event | None = None, ready: asyncio.Event | None = None) -> AsyncIterator[LiveChange]:
        """Changes from now on (see :class:`.api.ChangeFeed`)."""
        stop = stop or asyncio.Event()
        ready = ready or asyncio.Event()
        writer: asyncio.StreamWriter | None = None
        lost = False
        try:
            while not stop.is_set():
                if writer is None:
                    try:
                        reader, writer = await self._subscribe()
                    except (OSError, WireError, asyncio.IncompleteReadError):
                        with contextlib.suppress(asyncio.TimeoutError):
                            await asyncio.wait_for(stop.wait(), RECONNECT_PAUSE)
                        continue
                    self._live.subscribed = True
                    ready.set()
                    if lost:
                        self._live.pushed.clear()
                        yield LiveChange(frozenset(), True, True, moderation=True, queue=True)
                next_message = asyncio.ensure_future(_read(reader))
                stopped = asyncio.ensure_future(stop.wait())
                try:
                    await asyncio.wait({next_message, stopped}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    stopped.cancel()
                if not next_message.done():
                    next_message.cancel()
                    return
                try:
                    message = next_message.result()
                except (OSError, WireError, asyncio.IncompleteReadError):
                    writer.close()
                    writer, lost = None, True
                    self._live.subscribed = False
                    self._live.pushed.clear()
                    continue
                if isinstance(message, Change):
                    yield self._take(message)
        finally:
            self._live.subscribed = False
            self._live.pushed.clear()
            if writer is not None:
                writer.close()

    def _take(self, message: Change) -> LiveChange:
        from ..table import Table
        from .wire import from_wire

        pushed = self._live.pushed
        for table_id in message.tables:
            pushed.pop(table_id, None)
        for data in message.tables_now:
            try:
                if data["v"]["id"] not in self._live.interested:
                    continue
            except (TypeError, KeyError):
                continue
            try:
                table = from_wire(Table, data)
            except WireError:
                continue
            pushed[table.table_id] = table
        return live_change(message)


async def _read(reader: asyncio.StreamReader) -> Any:
    (size,) = HEADER.unpack(await reader.readexactly(HEADER.size))
    if size > REPLY_LIMIT:
        raise WireError(f"a message of {size} bytes")
    return decode(await reader.readexactly(size))


def connect(path: str) -> Store:
    """The store of a game served through the hub at ``path``; :class:`.api.StoreError` if it does not answer."""
    return cast("Store", HubStore(path))


__all__ = ["DOWN", "HUB_TIMEOUT", "HubFeed", "HubLive", "HubStore", "connect", "read_message"]
