"""Live state in the data folder: tables with their live games, who is online, and a change feed.

Layout, beside the store's files (every file ``"schema": 1``, written atomically under the store's
lock, read strictly)::

    tables/<id>.json            {"schema": 1, "table": {...}}   a table and its live game (:mod:`.table`)
    tables/damaged/<id>.json    a table file that could not be read, moved aside byte for byte
    presence/<session>.json     {"schema": 1, "session": ..., "name": ..., "registered": ..., "since": ...}
    presence.changed            empty: touched when a session joins, parts or is collected (for the feed)

Promises:

* :meth:`LiveState.update_table` is a compare-and-swap under the lock: it re-reads the table, runs
  the caller's function on it and writes it back only if it changed, so processes sharing the
  folder never lose an update, and two people taking the last seat cannot both get it.
* A finished game is recorded through :meth:`.store.Store.record_game` exactly once: the table
  first takes a game id (written), then the game is recorded under that id (the store's journal
  makes it all-or-nothing and skips an id already filed), then the table is marked recorded.
  A process killed between any two steps leaves a table the next :meth:`LiveState.sweep` finishes.
* A damaged table file raises :class:`.store.StoreError` naming it; it is moved to
  ``tables/damaged/`` (the table is closed) and every other table and every user is untouched.
* Presence: a session writes its record once and then touches it every
  :data:`HEARTBEAT_INTERVAL` seconds (the file's modification time is the heartbeat, so a
  heartbeat costs no write and wakes no subscriber). A record older than :data:`PRESENCE_STALE`
  is ignored and removed by the next sweep; the seats of its session follow the dropping-out rule.
* :class:`ChangeFeed`: ``changes()`` is an async iterator of :class:`LiveChange` ("something in the
  live state changed"). :class:`FolderFeed` watches the folder with inotify on Linux (its
  descriptor in the event loop: waiting costs nothing), with ``watchfiles`` elsewhere (the data
  folder, ``tables/`` and ``games/``, not ``presence/``, whose heartbeats would wake every
  process: ``presence.changed`` says a session came or went) and falls back to slow polling.
  The same contract can sit on another store later.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
import uuid
import weakref
from collections.abc import AsyncIterator, Callable, Hashable, Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .codes import WOM_RULESET, Ruleset
from .store import (
    PENDING_SUFFIX,
    TMP_SUFFIX,
    StoreError,
    _fsync_folder,
    _load,
    _read_bytes,
    atomic_write,
    encode_document,
    new_game_id,
    parse_document,
    write_beside,
)
from .table import CLOSED, COMPUTER_PACE, FINISHED, SEAT_GRACE, SeatHolder, Table, TableDataError, check_table_id
from .users import NameRejected, check_name, name_key

if TYPE_CHECKING:
    from .store import Store

TABLES_DIR = "tables"
DAMAGED_DIR = "damaged"
PRESENCE_DIR = "presence"

HEARTBEAT_INTERVAL = 2.0
"""Seconds between two heartbeats of a session."""
PRESENCE_STALE = 6.0
"""A session whose heartbeat is older than this is gone."""
KEEP_ENDED = 600.0
"""Seconds a finished (recorded) or closed table stays on file for its results to be read."""
PROBE_PREFIX = ".feed-probe-"
PRESENCE_MARK = "presence.changed"
"""A file beside the folders whose change tells the feed that a session came or went (see :class:`FolderFeed`)."""
SWEPT_PREFIX = ".swept-"
"""Files in ``presence/`` that say a process claimed a beat's sweep (see :meth:`LiveState.claim_sweep`)."""
POLL_INTERVAL = 1.0
"""Seconds between two looks at the folder when file-system notifications are not available."""

_SESSION = re.compile(r"[A-Za-z0-9_.:\-]{1,64}")
_PRESENCE_KEYS = {"schema", "session", "name", "registered", "since"}

T = TypeVar("T")


def new_session_id() -> str:
    """A fresh, unique session id."""
    return uuid.uuid4().hex


def new_table_id() -> str:
    """A unique table id that sorts by creation time."""
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%f-") + uuid.uuid4().hex[:8]


@dataclass(frozen=True)
class Presence:
    """A session that is online: its name (a registered user's or a guest label) and since when."""

    session: str
    name: str
    registered: bool
    since: float
    seen: float
    """The last heartbeat (the record's modification time)."""

    def holder(self) -> SeatHolder:
        """The person of this session, as they sit at a table."""
        return SeatHolder(self.name, self.session, self.registered)


_GUEST_LABEL = re.compile(r"Guest (\d+)")


def guest_label(online: Iterable[Presence], session: str) -> str:
    """``Guest N``: the smallest N that no other online guest session uses."""
    taken = set()
    for presence in online:
        match = _GUEST_LABEL.fullmatch(presence.name)
        if match and not presence.registered and presence.session != session:
            taken.add(int(match.group(1)))
    number = 1
    while number in taken:
        number += 1
    return f"Guest {number}"


def decode_presence(data: dict[str, Any]) -> tuple[str, str, bool, float]:
    """A presence file's content → (session, name, registered, since); ``ValueError`` if bad."""
    if set(data) != _PRESENCE_KEYS:
        extra = sorted(set(data) ^ _PRESENCE_KEYS)[0]
        raise ValueError(f"{'unexpected' if extra in data else 'missing'} field {extra!r}")
    session, name, registered, since = data["session"], data["name"], data["registered"], data["since"]
    if not isinstance(session, str) or _SESSION.fullmatch(session) is None:
        raise ValueError(f"{session!r} is not a session id")
    try:
        check_name(name)
    except NameRejected as exc:
        raise ValueError(f"invalid name {name!r}: {exc.reason}") from None
    if type(registered) is not bool or type(since) not in (int, float):
        raise ValueError("'registered' must be true or false and 'since' a number")
    return session, name, registered, float(since)


def decode_table(data: dict[str, Any]) -> Table:
    """A table file's content → the table; ``ValueError`` with the reason if it is not one."""
    if set(data) != {"schema", "table"}:
        raise ValueError("a table file holds exactly 'schema' and 'table'")
    try:
        return Table.from_json(data["table"])
    except TableDataError as exc:
        raise ValueError(exc.reason) from None


def encode_table(table: Table) -> bytes:
    """A table file's bytes."""
    return encode_document({"table": table.to_json()})


@dataclass(frozen=True)
class Listing:
    """Every table on file, and the damaged table files found (each closed and moved aside)."""

    tables: tuple[Table, ...]
    problems: tuple[StoreError, ...]


# ---------------------------------------------------------------- the change feed


@dataclass(frozen=True)
class LiveChange:
    """Something in the live state changed: re-read what you show."""

    tables: frozenset[str]
    """Ids of the tables created, changed or removed (may be empty)."""
    presence: bool
    """A session came or went."""
    scores: bool
    """Users or finished games changed (scoreboards)."""


class ChangeFeed(Protocol):
    """A store's change feed: async iteration yields a :class:`LiveChange` after each change."""

    def changes(self, stop: asyncio.Event | None = None, ready: asyncio.Event | None = None) -> AsyncIterator[LiveChange]:
        """Changes from now on, until ``stop`` is set or the iteration is closed.

        ``ready`` is set once every later change is sure to be reported: subscribe, wait for
        ``ready``, then read the state, and no change falls in between.
        """
        ...


def _classify(root: Path, paths: Iterable[tuple[str, str]]) -> LiveChange | None:
    """(kind of change, path) pairs from the watcher → one :class:`LiveChange`, or None if nothing counts."""
    tables: set[str] = set()
    presence = scores = False
    for kind, raw in paths:
        path = Path(raw)
        name = path.name
        if name.endswith(TMP_SUFFIX) or name.startswith((".lock", PROBE_PREFIX, SWEPT_PREFIX)):
            continue
        try:
            parts = path.relative_to(root).parts
        except ValueError:
            continue
        if len(parts) == 2 and parts[0] == TABLES_DIR and name.endswith(".json"):
            tables.add(name[: -len(".json")])
        elif parts == (PRESENCE_MARK,) or (len(parts) >= 2 and parts[0] == PRESENCE_DIR and kind != "modified"):
            presence = True  # (a heartbeat only touches a record: never a change)
        elif parts == ("users.json",) or (parts[0] == "games" and not name.endswith(PENDING_SUFFIX)):
            scores = True
    if not (tables or presence or scores):
        return None
    return LiveChange(frozenset(tables), presence, scores)


class FolderFeed:
    """The change feed of a JSON data folder: inotify on Linux, ``watchfiles`` elsewhere, else polling.

    ``watcher`` chooses: ``"auto"`` (the first that works of inotify, ``watchfiles`` and polling),
    or one of ``"inotify"``, ``"watchfiles"``, ``"polling"`` (tests; each still falls back to polling
    when it cannot watch, e.g. past the system's inotify limits).
    """

    WATCHERS = ("auto", "inotify", "watchfiles", "polling")

    def __init__(self, data_dir: str | os.PathLike[str], *, polling: bool = False, watcher: str = "auto",
                 poll_interval: float = POLL_INTERVAL, step_ms: int = 10, debounce_ms: int = 30) -> None:
        """``step_ms`` and ``debounce_ms`` are ``watchfiles``' (not used by inotify, which wakes only
        when something changed and hands over at once what has queued up meanwhile): a batch is
        handed over after ``step_ms`` without another change (the watcher also wakes this often when
        idle), at the latest after ``debounce_ms`` while changes keep coming.
        """
        if watcher not in self.WATCHERS:
            raise ValueError(f"unknown watcher {watcher!r}")
        self.data_dir = Path(data_dir)
        self.watcher = "polling" if polling else watcher
        self.polling = self.watcher == "polling"
        self.poll_interval = poll_interval
        self.step_ms = step_ms
        self.debounce_ms = debounce_ms
        self.used: str | None = None
        """The watcher the last iteration used (tests, benches)."""

    async def changes(self, stop: asyncio.Event | None = None, ready: asyncio.Event | None = None) -> AsyncIterator[LiveChange]:
        """Changes from now on (see :class:`ChangeFeed`)."""
        stop = stop or asyncio.Event()
        ready = ready or asyncio.Event()
        if self.watcher in ("auto", "inotify") and sys.platform == "linux":
            inotify = self._inotify(stop, ready)
            if inotify is not None:
                self.used = "inotify"
                async for change in inotify:
                    yield change
                return
        if self.watcher in ("auto", "watchfiles"):
            try:
                import watchfiles
            except ImportError:  # pragma: no cover - a dependency, but the feed must not need it
                pass
            else:
                self.used = "watchfiles"
                probe = self.data_dir / f"{PROBE_PREFIX}{uuid.uuid4().hex}"
                prober = asyncio.ensure_future(self._probe(probe, ready, stop))
                try:
                    async for batch in watchfiles.awatch(
                        *self._watched(), stop_event=stop, debounce=self.debounce_ms, step=self.step_ms,
                        recursive=False,
                    ):
                        if not ready.is_set() and any(Path(p) == probe for _, p in batch):
                            ready.set()
                        found = _classify(self.data_dir, ((c.name, p) for c, p in batch))
                        if found is not None:
                            yield found
                    return
                except (OSError, RuntimeError):
                    pass  # no notifications here (inotify limit, odd file system): poll instead
                finally:
                    prober.cancel()
                    probe.unlink(missing_ok=True)
        self.used = "polling"
        async for change in self._poll(stop, ready):
            yield change

    def _inotify(self, stop: asyncio.Event, ready: asyncio.Event) -> AsyncIterator[LiveChange] | None:
        """Watch with inotify (``inotify_simple``), its descriptor in the event loop: an idle process
        does nothing at all. None when it cannot (no library, past the inotify limits).

        The watches are in place once ``inotify_add_watch`` returns, so ``ready`` is set then, with no
        probe. Whatever events have queued up when the loop gets to the descriptor are read at once and
        handed over as one change; while the subscriber is busy, further events merge into the next.
        """
        try:
            import inotify_simple
        except ImportError:
            return None
        flags = inotify_simple.flags
        mask = (flags.CREATE | flags.DELETE | flags.MOVED_FROM | flags.MOVED_TO | flags.CLOSE_WRITE
                | flags.ATTRIB | flags.ONLYDIR)
        try:
            notify = inotify_simple.INotify(nonblocking=True)
        except OSError:
            return None
        folders: dict[int, Path] = {}
        try:
            for folder in self._watched():
                folders[notify.add_watch(folder, mask)] = folder
        except OSError:
            notify.close()
            return None
        return self._inotify_changes(notify, folders, mask, stop, ready)

    async def _inotify_changes(self, notify: Any, folders: dict[int, Path], mask: int,
                               stop: asyncio.Event, ready: asyncio.Event) -> AsyncIterator[LiveChange]:
        import inotify_simple

        flags = inotify_simple.flags
        loop = asyncio.get_running_loop()
        wake = asyncio.Event()
        pending: list[tuple[str, str]] = []
        overflow = False

        def readable() -> None:
            nonlocal overflow
            try:
                events = notify.read(timeout=0)
            except OSError:
                return
            for event in events:
                if event.mask & flags.Q_OVERFLOW:
                    overflow = True
                    continue
                folder = folders.get(event.wd)
                if folder is None or not event.name or event.name.endswith(TMP_SUFFIX) \
                        or event.name.startswith((".lock", PROBE_PREFIX)):
                    continue  # (the lock and temporary files change at every write: wake nobody for them)
                path = folder / event.name
                if event.mask & flags.ISDIR:
                    if folder == self.data_dir and event.name in (TABLES_DIR, "games") \
                            and event.mask & (flags.CREATE | flags.MOVED_TO):
                        self._watch_new_folder(notify, folders, mask, path, pending)
                    continue
                if event.mask & (flags.DELETE | flags.MOVED_FROM):
                    kind = "deleted"
                elif event.mask & (flags.CREATE | flags.MOVED_TO):
                    kind = "added"
                else:
                    kind = "modified"
                pending.append((kind, str(path)))
            if pending or overflow:
                wake.set()

        async def relay_stop() -> None:
            await stop.wait()
            wake.set()

        relay = asyncio.ensure_future(relay_stop())
        loop.add_reader(notify.fileno(), readable)
        try:
            ready.set()
            while not stop.is_set():
                await wake.wait()
                wake.clear()
                if stop.is_set():
                    return
                batch, pending[:] = list(pending), []
                if overflow:  # the kernel dropped events: everything may have changed
                    overflow = False
                    batch += [("added", str(path)) for path in self._everything()]
                    found = _classify(self.data_dir, batch)
                    change: LiveChange | None = LiveChange(found.tables if found else frozenset(), True, True)
                else:
                    change = _classify(self.data_dir, batch)
                if change is not None:
                    yield change
        finally:
            loop.remove_reader(notify.fileno())
            relay.cancel()
            notify.close()

    def _watch_new_folder(self, notify: Any, folders: dict[int, Path], mask: int, folder: Path,
                          pending: list[tuple[str, str]]) -> None:
        """``tables/`` or ``games/`` made after the feed started: watch it too, and count what is
        already in it (written before the watch was in place) as new.
        """
        try:
            folders[notify.add_watch(folder, mask)] = folder
            pending.extend(("added", entry.path) for entry in os.scandir(folder))
        except OSError:
            pass

    def _everything(self) -> list[Path]:
        """Every file in the watched folders (after an inotify queue overflow)."""
        found = []
        for folder in self._watched():
            try:
                found += [Path(entry.path) for entry in os.scandir(folder)]
            except OSError:
                continue
        return found

    def _watched(self) -> list[Path]:
        """The folders watched, each without its subfolders: the data folder (``users.json``, the
        presence mark), ``tables/`` and ``games/``. Not ``presence/``: every session touches its
        record every couple of seconds, which would wake every process for nothing (with 24 sessions,
        a dozen times a second each); joining and parting change :data:`PRESENCE_MARK` instead.
        """
        return [self.data_dir] + [folder for folder in (self.data_dir / TABLES_DIR, self.data_dir / "games")
                                  if folder.is_dir()]

    @staticmethod
    async def _probe(probe: Path, ready: asyncio.Event, stop: asyncio.Event) -> None:
        """Touch a probe file until the watcher reports it: from then on, it sees every change."""
        delay = 0.01
        while not ready.is_set() and not stop.is_set():
            probe.touch()
            try:
                await asyncio.wait_for(ready.wait(), delay)
            except asyncio.TimeoutError:
                delay = min(delay * 2, 1.0)
        probe.unlink(missing_ok=True)

    def _snapshot(self) -> dict[str, tuple[int, int]]:
        seen: dict[str, tuple[int, int]] = {}
        for folder in (self.data_dir, self.data_dir / TABLES_DIR, self.data_dir / PRESENCE_DIR, self.data_dir / "games"):
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                try:
                    stat = entry.stat()
                except OSError:
                    continue
                if entry.is_file():
                    # A heartbeat changes only a presence file's time: polling ignores it too.
                    stamp = 0 if folder.name == PRESENCE_DIR else stat.st_mtime_ns
                    seen[entry.path] = (stamp, stat.st_size)
        return seen

    async def _poll(self, stop: asyncio.Event, ready: asyncio.Event) -> AsyncIterator[LiveChange]:
        before = self._snapshot()
        ready.set()
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), self.poll_interval)
            except asyncio.TimeoutError:
                pass
            if stop.is_set():
                return
            after = self._snapshot()
            changed = [("added", p) for p in after.keys() - before.keys()]
            changed += [("deleted", p) for p in before.keys() - after.keys()]
            changed += [("modified", p) for p in after.keys() & before.keys() if after[p] != before[p]]
            before = after
            change = _classify(self.data_dir, changed)
            if change is not None:
                yield change


class _Subscriber:
    """One subscriber of a :class:`SharedFeed`: the changes it has not taken yet, merged into one."""

    def __init__(self) -> None:
        self.wake = asyncio.Event()
        self.tables: set[str] = set()
        self.presence = self.scores = self.pending = False

    def add(self, change: LiveChange) -> None:
        self.tables |= change.tables
        self.presence = self.presence or change.presence
        self.scores = self.scores or change.scores
        self.pending = True
        self.wake.set()

    def take(self) -> LiveChange | None:
        if not self.pending:
            return None
        change = LiveChange(frozenset(self.tables), self.presence, self.scores)
        self.tables, self.presence, self.scores, self.pending = set(), False, False, False
        return change


class SharedFeed:
    """One source feed (one watcher, one LISTEN connection) per event loop, however many screens and
    sessions in the process subscribe: every subscriber gets every change, merged while it is busy.

    The source starts with the first subscriber and stops :data:`LINGER` seconds after the last one
    left (a screen replaced by another re-subscribes at once, without a new watcher). It follows the
    :class:`ChangeFeed` contract: ``ready`` is set once the source reports every change.
    """

    LINGER = 5.0

    def __init__(self, make_source: Callable[[], ChangeFeed]) -> None:
        self._make_source = make_source
        self._subscribers: set[_Subscriber] = set()
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._linger: asyncio.TimerHandle | None = None
        self._error: BaseException | None = None

    def _start(self) -> None:
        if self._linger is not None:
            self._linger.cancel()
            self._linger = None
        if self._task is None or self._task.done() or self._stop.is_set():
            self._ready, self._stop, self._error = asyncio.Event(), asyncio.Event(), None
            self._task = asyncio.ensure_future(self._run(self._ready, self._stop))

    async def _run(self, ready: asyncio.Event, stop: asyncio.Event) -> None:
        try:
            async for change in self._make_source().changes(stop, ready):
                for subscriber in tuple(self._subscribers):
                    subscriber.add(change)
        except Exception as exc:  # noqa: BLE001 - handed to every subscriber, which raises it
            self._error = exc
        finally:
            for subscriber in tuple(self._subscribers):
                subscriber.wake.set()

    def _idle(self) -> None:
        self._linger = None
        if not self._subscribers:
            self._stop.set()

    async def changes(self, stop: asyncio.Event | None = None, ready: asyncio.Event | None = None) -> AsyncIterator[LiveChange]:
        """Changes from now on (see :class:`ChangeFeed`)."""
        stop = stop or asyncio.Event()
        ready = ready or asyncio.Event()
        me = _Subscriber()
        self._subscribers.add(me)
        self._start()
        task, shared_ready = self._task, self._ready

        async def relay_stop() -> None:
            await stop.wait()
            me.wake.set()

        async def relay_ready() -> None:
            await shared_ready.wait()
            ready.set()

        helpers = [asyncio.ensure_future(relay_stop())]
        if shared_ready.is_set():
            ready.set()
        else:
            helpers.append(asyncio.ensure_future(relay_ready()))
        try:
            while not stop.is_set():
                await me.wake.wait()
                me.wake.clear()
                if stop.is_set():
                    return
                change = me.take()
                if change is not None:
                    yield change
                elif task is not None and task.done():
                    if self._error is not None:
                        raise self._error
                    return
        finally:
            for helper in helpers:
                helper.cancel()
            self._subscribers.discard(me)
            if not self._subscribers and self._task is task and self._linger is None:
                self._linger = asyncio.get_running_loop().call_later(self.LINGER, self._idle)


_SHARED: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[Hashable, SharedFeed]] = weakref.WeakKeyDictionary()


def shared_feed(key: Hashable, make_source: Callable[[], ChangeFeed]) -> SharedFeed:
    """The running event loop's :class:`SharedFeed` for ``key`` (made on first use)."""
    feeds = _SHARED.setdefault(asyncio.get_running_loop(), {})
    found = feeds.get(key)
    if found is None:
        found = feeds[key] = SharedFeed(make_source)
    return found


class ProcessFeed:
    """A store's feed as handed to callers: each iteration subscribes to the loop's one shared source."""

    def __init__(self, key: Hashable, make_source: Callable[[], ChangeFeed]) -> None:
        self.key = key
        self.make_source = make_source

    def changes(self, stop: asyncio.Event | None = None, ready: asyncio.Event | None = None) -> AsyncIterator[LiveChange]:
        """Changes from now on (see :class:`ChangeFeed`), through the shared source."""
        return shared_feed(self.key, self.make_source).changes(stop, ready)


# ---------------------------------------------------------------- the live state


class TableRules:
    """What every live store does the same way around :class:`.table.Table`'s rules: bring a table
    up to date, play on it, sweep. A store supplies ``clock``, ``sessions()``, ``_peek(table_id)``
    (the table as kept, None if gone or unreadable), ``update_table`` (its compare-and-swap),
    ``tables()``, and for the sweep ``_sweep_presence()``, ``_remove_ended(tables)`` and
    ``_record_again(table_id)``.
    """

    clock: Callable[[], float]

    def sessions(self) -> list[Presence]:  # pragma: no cover - supplied by the store
        """Sessions online now (the store's)."""
        raise NotImplementedError

    def _peek(self, table_id: str) -> Table | None:  # pragma: no cover - supplied by the store
        raise NotImplementedError

    def update_table(self, table_id: str, change: Callable[[Table], T]) -> T:  # pragma: no cover
        """The store's compare-and-swap of one table."""
        raise NotImplementedError

    def tables(self) -> Listing:  # pragma: no cover - supplied by the store
        """Every table kept, and the ones that could not be read."""
        raise NotImplementedError

    def _sweep_presence(self) -> set[str]:  # pragma: no cover - supplied by the store
        """Remove stale presences; the sessions online."""
        raise NotImplementedError

    def _remove_ended(self, ended: list[Table]) -> set[str]:  # pragma: no cover - supplied by the store
        """Remove those of ``ended`` (closed or recorded) that ended over :data:`KEEP_ENDED` s ago; their ids."""
        raise NotImplementedError

    def _record_again(self, table_id: str) -> StoreError | None:  # pragma: no cover - supplied by the store
        """Retry a recording that failed; the error saying why it fails, or None if it went through."""
        raise NotImplementedError

    def claim_sweep(self, interval: float) -> bool:
        """True if this process should sweep now, False if another process sharing the store swept
        less than ``interval`` seconds ago (and its sweep covered every table). This default: always.
        """
        return True

    def sweep(self) -> Listing:
        """Housekeeping any session may run every few seconds: collect stale presences, bring every
        table up to date (dropped seats, graces, computers, unfinished recordings), and remove
        tables that ended over :data:`KEEP_ENDED` seconds ago. Returns the tables as left.
        """
        live = self._sweep_presence()
        listing = self.tables()
        now = self.clock()
        removed = self._remove_ended([t for t in listing.tables if t.phase == CLOSED or t.recorded])
        kept, problems = [], list(listing.problems)
        for table in listing.tables:
            if table.table_id in removed:
                continue
            change = self._bring_up_to_date(table, live, now)  # on the copy, outside the lock
            if change is None:
                kept.append(table)  # nothing due (or ended): no need for the lock
                continue
            try:
                table = self.update_table(table.table_id, change)
            except LookupError:
                continue
            except StoreError as exc:
                problems.append(exc)
                continue
            if table.phase == FINISHED and not table.recorded:
                problem = self._record_again(table.table_id)
                if problem is not None:
                    problems.append(problem)
            kept.append(table)
        return Listing(tuple(kept), tuple(problems))

    def act(self, table_id: str, action: Callable[[Table, float], T]) -> T:
        """:meth:`update_table` with the clock: notes who is online, does what is due, then
        ``action(table, now)`` — e.g. ``lambda t, now: t.guess(me, "RGBY", now)``.
        """
        now = self.clock()
        live = {p.session for p in self.sessions()}
        moves = self._think_ahead(table_id, live, now)

        def change(table: Table) -> T:
            table.mark_presence(live, now)
            table.tick(now, moves)
            return action(table, now)

        return self.update_table(table_id, change)

    def _think_ahead(self, table_id: str, live: set[str], now: float) -> dict[tuple[int, int], str]:
        """The computers' moves due by ``now``, worked out on a copy outside the lock (a strong
        computer on a large ruleset may think for a second: nobody should wait on the lock for it).
        """
        copy = self._peek(table_id)
        if copy is None:
            return {}
        copy.mark_presence(live, now)
        return copy.tick(now)

    def tick(self, table_id: str) -> Table:
        """Bring one table up to date (presence, graces, computers' moves); the table as written."""
        return self.act(table_id, lambda table, now: table)

    @staticmethod
    def _bring_up_to_date(table: Table, live: set[str], now: float) -> Callable[[Table], Table] | None:
        """For a sweep: the moves due on ``table`` worked out outside any lock, as a change for
        ``update_table``; None if nothing is due (no need to take the lock).
        """
        if table.phase == CLOSED or table.recorded:
            return None
        version = table.version
        table.mark_presence(live, now)
        moves = table.tick(now)
        if table.version == version and table.phase != FINISHED:
            return None

        def change(t: Table) -> Table:
            t.mark_presence(live, now)
            t.tick(now, moves)
            return t
        return change


class LiveState(TableRules):
    """Tables, live games and presence in one data folder, sharing the :class:`.store.Store`'s lock."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self.tables_dir = store.data_dir / TABLES_DIR
        self.damaged_dir = self.tables_dir / DAMAGED_DIR
        self.presence_dir = store.data_dir / PRESENCE_DIR
        for folder in (self.tables_dir, self.presence_dir):
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(folder, f"cannot create the folder ({exc.strerror or exc})") from None
        with self.store._locked():
            for folder in (self.tables_dir, self.presence_dir):
                for path in folder.glob(f"*{TMP_SUFFIX}"):
                    path.unlink(missing_ok=True)
        self._presence_cache: dict[str, tuple[tuple[int, int], tuple[str, str, bool, float] | None]] = {}
        self._table_cache: dict[str, tuple[tuple[int, int, int], Table]] = {}
        """Each table as last read or written here, by its file's inode, time and size (strictly
        read once; handed out as copies)."""

    # ---- plumbing

    def _write(self, path: Path, data: bytes, *, sync_folder: bool = True) -> None:
        try:
            atomic_write(path, data, sync_folder=sync_folder)
        except OSError as exc:
            raise StoreError(path, f"cannot write the file ({exc.strerror or exc})") from None

    def _sync_tables_folder(self) -> None:
        try:
            _fsync_folder(self.tables_dir)
        except OSError as exc:
            raise StoreError(self.tables_dir, f"cannot write the folder ({exc.strerror or exc})") from None

    def claim_sweep(self, interval: float) -> bool:
        """True if this process is the first of those sharing the folder to claim the current beat
        (wall-clock time in steps of ``interval``): the sweep is then its own. Every process with a
        live screen open swept every table every couple of seconds; one sweep covers them all.

        The claim is a file created exclusively in ``presence/`` (which no change feed watches),
        ``.swept-<beat>``; the winner removes the older ones. Processes whose beats straddle a
        step may both sweep, which is harmless (every change is a compare-and-swap).
        """
        beat = int(time.time() // interval)
        mark = self.presence_dir / f"{SWEPT_PREFIX}{beat}"
        try:
            fd = os.open(mark, os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except FileExistsError:
            return False
        except OSError:
            return True  # (cannot say: sweep, as before)
        os.close(fd)
        try:
            for entry in os.scandir(self.presence_dir):
                if entry.name.startswith(SWEPT_PREFIX) and entry.name != mark.name:
                    Path(entry.path).unlink(missing_ok=True)
        except OSError:
            pass
        return True

    def _presence_changed(self) -> None:
        """Tell the change feed that a session came or went (call holding the lock): the presence
        folder is not watched, so that heartbeats wake nobody (see :meth:`FolderFeed._watched`).
        """
        mark = self.store.data_dir / PRESENCE_MARK
        try:
            mark.touch()
        except OSError as exc:
            raise StoreError(mark, f"cannot touch the file ({exc.strerror or exc})") from None

    def table_path(self, table_id: str) -> Path:
        """Where a table's file is."""
        return self.tables_dir / f"{check_table_id(table_id)}.json"

    def _quarantine(self, table_id: str, error: StoreError) -> StoreError:
        """Move a damaged table file aside, byte for byte (call holding the lock); the error to raise."""
        path = self.table_path(table_id)
        target = self.damaged_dir / path.name
        try:
            self.damaged_dir.mkdir(exist_ok=True)
            if target.exists():
                target = self.damaged_dir / f"{table_id}-{uuid.uuid4().hex[:8]}.json"
            os.replace(path, target)
        except FileNotFoundError:
            return error
        except OSError as exc:
            return StoreError(path, f"{error.reason}; it could not be moved aside ({exc.strerror or exc})")
        return StoreError(path, f"{error.reason}. The table is closed; the file was kept as {target}")

    def _load_table(self, table_id: str) -> Table | None:
        """Read a table strictly; a file unchanged since the last read (same inode, time and size:
        every write replaces the file) is not parsed again.
        """
        path = self.table_path(table_id)
        try:
            stat = path.stat()
        except FileNotFoundError:
            self._table_cache.pop(table_id, None)
            return None
        except OSError as exc:
            raise StoreError(path, f"cannot read the file ({exc.strerror or exc})") from None
        key = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        known = self._table_cache.get(table_id)
        if known is not None and known[0] == key:
            return known[1].copy()
        table = _load(path, decode_table)
        if table is None:
            return None
        if table.table_id != table_id:
            raise StoreError(path, f"the file holds table {table.table_id!r}, not {table_id!r}")
        self._table_cache[table_id] = (key, table.copy())
        return table

    def _write_table(self, table: Table) -> None:
        """Write a table (call holding the lock), and keep it as read: this process need not parse
        what it has just written (nobody else can write it before the lock is released). The caller
        fsyncs the tables' folder after releasing the lock (:meth:`_sync_tables_folder`).
        """
        self._write(self.table_path(table.table_id), encode_table(table), sync_folder=False)
        self._cache_written(table)

    def _cache_written(self, table: Table) -> None:
        """Keep ``table``, just written (holding the lock), as read."""
        try:
            stat = self.table_path(table.table_id).stat()
        except OSError:
            self._table_cache.pop(table.table_id, None)
            return
        self._table_cache[table.table_id] = ((stat.st_ino, stat.st_mtime_ns, stat.st_size), table.copy())

    def _table_ids(self) -> list[str]:
        try:
            names = os.listdir(self.tables_dir)
        except OSError as exc:
            raise StoreError(self.tables_dir, f"cannot list the folder ({exc.strerror or exc})") from None
        ids = []
        for name in names:
            if name.endswith(".json"):
                try:
                    ids.append(check_table_id(name[:-5]))
                except TableDataError:
                    continue  # not a table of ours (a stray file someone put there)
        return sorted(ids)

    # ---- presence

    def join(self, name: str, registered: bool, session: str | None = None) -> Presence:
        """Announce a session online (or again, after its record was collected); returns it."""
        session = session or new_session_id()
        holder = SeatHolder(name, session, registered)  # validates
        now = self.clock()
        body = {"session": holder.session, "name": holder.name, "registered": holder.registered, "since": now}
        path = self.presence_dir / f"{session}.json"
        with self.store._locked():
            self._write(path, encode_document(body))
            self._presence_changed()
        return Presence(session, name, registered, now, now)

    def join_guest(self, session: str) -> Presence:
        """Announce a guest session online as ``Guest N`` (:func:`guest_label`), the number chosen and
        written under the lock: two guests arriving at the same instant get two numbers.
        """
        with self.store._locked():
            return self.join(guest_label(self.sessions(), session), False, session)

    def heartbeat(self, presence: Presence) -> None:
        """Keep ``presence`` online: touch its record, or write it again if it was collected."""
        path = self.presence_dir / f"{presence.session}.json"
        try:
            os.utime(path)
        except FileNotFoundError:
            self.join(presence.name, presence.registered, presence.session)
        except OSError as exc:
            raise StoreError(path, f"cannot touch the file ({exc.strerror or exc})") from None

    def part(self, session: str) -> None:
        """A session ending cleanly: its record goes at once (its seats follow the dropping-out rule)."""
        with self.store._locked():
            (self.presence_dir / f"{session}.json").unlink(missing_ok=True)
            self._presence_changed()

    def sessions(self) -> list[Presence]:
        """Sessions online now (fresh heartbeat), oldest first; stale or unreadable records are skipped.

        Freshness compares the records' modification times with the wall clock (the file system's).
        A record is parsed once: a heartbeat keeps its inode and size, a rewrite changes the inode.
        """
        now = time.time()
        found = []
        try:
            entries = list(os.scandir(self.presence_dir))
        except OSError as exc:
            raise StoreError(self.presence_dir, f"cannot list the folder ({exc.strerror or exc})") from None
        cache: dict[str, tuple[tuple[int, int], tuple[str, str, bool, float] | None]] = {}
        for entry in entries:
            if not entry.name.endswith(".json"):
                continue
            try:
                stat = entry.stat()
            except OSError:
                continue
            if now - stat.st_mtime > PRESENCE_STALE:
                continue
            key = (stat.st_ino, stat.st_size)
            known = self._presence_cache.get(entry.name)
            decoded: tuple[str, str, bool, float] | None
            if known is not None and known[0] == key:
                decoded = known[1]
            else:
                try:
                    raw = _read_bytes(Path(entry.path))
                    decoded = decode_presence(parse_document(raw)) if raw is not None else None
                except (StoreError, ValueError):
                    decoded = None
            cache[entry.name] = (key, decoded)
            if decoded is not None and entry.name == f"{decoded[0]}.json":
                found.append(Presence(*decoded, stat.st_mtime))
        self._presence_cache = cache
        return sorted(found, key=lambda p: (p.since, p.session))

    def _collect_presence(self) -> set[str]:
        """Remove stale and unreadable presence records; the live sessions. Takes the lock only
        when there is something to remove.
        """
        live = {p.session for p in self.sessions()}
        stale = []
        for path in self.presence_dir.glob("*.json"):
            try:
                if path.stem not in live and time.time() - path.stat().st_mtime > PRESENCE_STALE:
                    stale.append(path)
            except FileNotFoundError:
                pass
        if stale:
            with self.store._locked():
                for path in stale:
                    try:
                        if time.time() - path.stat().st_mtime > PRESENCE_STALE:  # not touched meanwhile
                            path.unlink()
                    except FileNotFoundError:
                        pass
                    except OSError as exc:
                        raise StoreError(path, f"cannot remove a stale presence ({exc.strerror or exc})") from None
                self._presence_changed()
        return live

    # ---- tables

    def create_table(
        self, creator: SeatHolder, *, seats: int = 2, attempts: int = 10, ruleset: Ruleset = WOM_RULESET,
        seed: int = 0, grace: float = SEAT_GRACE, pace: tuple[float, float] = COMPUTER_PACE,
    ) -> Table:
        """Open a new table with ``creator`` in seat 1; :class:`.table.Refused` for rules it cannot have."""
        table = Table(new_table_id(), creator, seats=seats, attempts=attempts, ruleset=ruleset, seed=seed,
                      now=self.clock(), grace=grace, pace=pace)
        with self.store._locked():
            self._write(self.table_path(table.table_id), encode_table(table))
        return table

    def _peek(self, table_id: str) -> Table | None:
        try:
            return self._load_table(table_id)
        except StoreError:
            return None

    def table(self, table_id: str) -> Table | None:
        """The table as on file now (None if it is gone); :class:`StoreError` naming a damaged file."""
        return self._load_table(table_id)

    def tables(self) -> Listing:
        """Every table on file; damaged files are closed (moved aside) and reported, not raised."""
        tables, problems = [], []
        for table_id in self._table_ids():
            try:
                table = self._load_table(table_id)
            except StoreError:
                with self.store._locked():
                    try:
                        table = self._load_table(table_id)  # a writer may have just fixed it
                    except StoreError as exc:
                        problems.append(self._quarantine(table_id, exc))
                        continue
            if table is not None:
                tables.append(table)
        return Listing(tuple(tables), tuple(problems))

    def update_table(self, table_id: str, change: Callable[[Table], T]) -> T:
        """Compare-and-swap: run ``change`` on the table as it is and write it back if it changed;
        then record its game if it just finished. Returns what ``change`` returned.

        ``change`` raising (e.g. :class:`.table.Refused`) writes nothing. :class:`LookupError` if
        the table is gone; :class:`StoreError` (the table closed) if its file is damaged.

        Every table's moves take the folder's one lock in turn, so it is held for a moment only: the
        change is first worked out on the table as last read and its file written and fsynced beside
        the table's, without the lock; under the lock, if the table is still the one the change saw
        (its version), the new file is renamed into place. Otherwise the change is worked out again
        under the lock, on the table as it is then, and written there. ``change`` may therefore run
        twice, on two copies: it must only change the table it is given. The folder's fsync (the
        rename's own journal commit) comes after the lock, before this returns.
        """
        prepared = self._prepare(table_id, change)
        if prepared is not None:
            version, table, result, written = prepared
            if self._commit(table_id, version, table, written):
                return result
        return self._update_locked(table_id, change)

    def _prepare(self, table_id: str, change: Callable[[Table], T]) -> tuple[int, Table, T, Path] | None:
        """Without the lock: ``change`` on the table as last read, its new file written beside it
        (the version it started from, the changed table, the result, the new file); None when there
        is nothing to write or anything else than a plain change happened (the locked path decides
        those, on the table as it is then).
        """
        try:
            table = self._load_table(table_id)
        except StoreError:
            return None
        if table is None:
            return None
        version = table.version
        try:
            result = change(table)
        except Exception:  # noqa: BLE001 - a refusal, say: decided again under the lock, on the table as it is
            return None
        if table.version == version:
            return None
        try:
            prepared = write_beside(self.table_path(table_id), encode_table(table))
        except OSError:
            return None
        return version, table, result, prepared

    def _commit(self, table_id: str, version: int, table: Table, prepared: Path) -> bool:
        """Under the lock, the prepared file renamed over the table's if nobody changed the table
        since (True), else nothing (False; the prepared file is removed).
        """
        path = self.table_path(table_id)
        with self.store._locked():
            try:
                current = self._load_table(table_id)
            except StoreError:
                current = None
            if current is None or current.version != version:
                prepared.unlink(missing_ok=True)
                return False
            try:
                os.replace(prepared, path)
            except OSError:
                prepared.unlink(missing_ok=True)  # (a starting process may have swept it away)
                return False
            self._cache_written(table)
            self._record_after_move(table)
        self._sync_tables_folder()
        return True

    def _update_locked(self, table_id: str, change: Callable[[Table], T]) -> T:
        written = False
        with self.store._locked():
            try:
                table = self._load_table(table_id)
            except StoreError as exc:
                raise self._quarantine(table_id, exc) from None
            if table is None:
                raise LookupError(f"There is no table {table_id!r} any more.")
            version = table.version
            result = change(table)
            if table.version != version:
                self._write_table(table)  # the folder's fsync after the lock
                written = True
            self._record_after_move(table)
        if written:
            self._sync_tables_folder()
        return result

    def _record_after_move(self, table: Table) -> None:
        """:meth:`_record`, holding the lock, after a move: if it fails, the move stands and the next
        sweep retries the recording and reports why.
        """
        try:
            self._record(table)
        except (StoreError, ValueError):
            pass

    def _record(self, table: Table) -> None:
        """Record a finished game exactly once (call holding the lock, with ``table`` as on file)."""
        if table.phase != FINISHED or table.recorded:
            return
        path = self.table_path(table.table_id)
        if table.game_id is None:
            table.game_id = new_game_id()
            table.version += 1
            self._write(path, encode_table(table))
        registered = {name_key(user.name) for user in self.store.users()}
        self.store.record_game(table.record(registered), game_id=table.game_id)
        table.recorded = True
        table.version += 1
        self._write(path, encode_table(table))

    def _sweep_presence(self) -> set[str]:
        # Without the lock: it reads the records, and takes the lock only to remove stale ones (every
        # process sweeps every couple of seconds; a lock taken for nothing made every guess wait).
        return self._collect_presence()

    def _remove_ended(self, ended: list[Table]) -> set[str]:
        removed = set()
        for table in ended:
            if time.time() - _ended(self.table_path(table.table_id)) > KEEP_ENDED:
                with self.store._locked():
                    self.table_path(table.table_id).unlink(missing_ok=True)
                removed.add(table.table_id)
        return removed

    def _record_again(self, table_id: str) -> StoreError | None:
        """Retry a recording that failed; the error saying why it fails, or None if it went through."""
        path = self.table_path(table_id)
        with self.store._locked():
            try:
                table = self._load_table(table_id)
                if table is not None:
                    self._record(table)
            except StoreError as exc:
                return StoreError(path, f"the game could not be recorded: {exc}")
            except ValueError as exc:
                return StoreError(path, f"the game could not be recorded: {exc}")
        return None

    def feed(self, *, polling: bool = False) -> ChangeFeed:
        """The change feed of this folder (see :class:`FolderFeed`), one watcher per process and
        folder shared by every subscriber (:class:`SharedFeed`).
        """
        folder = self.store.data_dir

        return ProcessFeed(("folder", str(folder.resolve()), polling), lambda: FolderFeed(folder, polling=polling))


def _ended(path: Path) -> float:
    """When a table that ended was last written (the file system's time)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return time.time()


__all__ = [
    "HEARTBEAT_INTERVAL",
    "PRESENCE_STALE",
    "ChangeFeed",
    "FolderFeed",
    "ProcessFeed",
    "SharedFeed",
    "LiveChange",
    "LiveState",
    "Listing",
    "Presence",
    "decode_table",
    "encode_table",
    "new_session_id",
    "new_table_id",
]
