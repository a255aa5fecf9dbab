"""The data folder's live state: tables with their live games, who is online, and a change feed.

Layout, beside the store's files (every file ``"schema": 1``, written atomically under the store's
lock, read strictly)::

    tables/<id>.json            {"schema": 1, "table": {...}}   a table and its live game (:mod:`.table`)
    tables/damaged/<id>.json    a table file that could not be read, moved aside byte for byte
    presence/<session>.json     {"schema": 1, "session": ..., "name": ..., "registered": ..., "since": ...}
    presence.changed            empty: touched when a session joins, parts or is collected (for the feed)
    queue.json                  {"schema": 1, "queue": {...}}   the quick-match queue (:mod:`...matchmaking`),
                                read and written whole under the lock (a wave holds it while it seats)
    arena.json                  {"schema": 1, "arena": {...}}   the newest Code Arena (:mod:`...arena`), read and
                                written whole under the lock (a pairing holds it while it seats)
    arenas/<id>.json            the same, one per arena over (moved there as the next one starts): read only
                                for results, never by the pairing loop

Promises:

* :meth:`FolderLive.update_table` is a compare-and-swap under the lock: it re-reads the table, runs
  the caller's function on it and writes it back only if it changed, so processes sharing the
  folder never lose an update, and two people taking the last seat cannot both get it.
* A finished game is recorded through :meth:`.store.FolderStore.record_game` exactly once: the table
  first takes a game id (written), then the game is recorded under that id (the store's journal
  makes it all-or-nothing and skips an id already filed), then the table is marked recorded.
  A process killed between any two steps leaves a table the next :meth:`FolderLive.sweep` finishes.
* A damaged table file raises :class:`.api.StoreError` naming it; it is moved to
  ``tables/damaged/`` (the table is closed) and every other table and every user is untouched.
* Presence: a session writes its record once and then touches it every
  :data:`HEARTBEAT_INTERVAL` seconds (the file's modification time is the heartbeat, so a
  heartbeat costs no write and wakes no subscriber). A record older than :data:`PRESENCE_STALE`
  is ignored and removed by the next sweep; the seats of its session follow the dropping-out rule.
* The change feed (:class:`..api.ChangeFeed`): ``changes()`` is an async iterator of
  :class:`..api.LiveChange` ("something in the live state changed"). :class:`.feed.FolderFeed`
  watches the folder with inotify on Linux (its descriptor in the event loop: waiting costs
  nothing), with ``watchfiles`` elsewhere (the data folder, ``tables/`` and ``games/``, not
  ``presence/``, whose heartbeats would wake every process: ``presence.changed`` says a session
  came or went) and falls back to slow polling.
"""

from __future__ import annotations

import os
import re
import time
import uuid
from dataclasses import replace
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol, TypeVar

from ...arena import Arena
from ...matchmaking import MatchQueue
from ...presence import PRESENCE_STALE, Presence, Whereabouts, guest_label, new_session_id
from ...table import FINISHED, OPEN, SeatHolder, Table, TableDataError, check_table_id
from ...users import NameRejected, check_name, name_key
from ..api import ChangeFeed, Listing, Records, StoreError, Users
from ..arenas import ArenaKeeping
from ..documents import encode_document, new_game_id, parse_document
from ..feed import ProcessFeed
from ..tables import KEEP_ENDED, TableRules
from .feed import FolderFeed
from .files import (
    ARENA_FILE,
    ARENAS_DIR,
    DAMAGED_DIR,
    PRESENCE_DIR,
    PRESENCE_MARK,
    SWEPT_PREFIX,
    TABLES_DIR,
    TMP_SUFFIX,
    atomic_write,
    fsync_folder,
    read_bytes,
    read_document,
    write_beside,
)

_SESSION = re.compile(r"[A-Za-z0-9_.:\-]{1,64}")
_PRESENCE_KEYS = {"schema", "session", "name", "registered", "since"}
_WHEREABOUTS_KEYS = frozenset({"address", "key", "transport", "screen"})

T = TypeVar("T")


class LockedFolder(Users, Records, Protocol):
    """What the live state needs of its data folder's store (:class:`.store.FolderStore`): where the
    folder is, its one lock, and its users and game records (a finished table's game is recorded there).
    """

    data_dir: Path

    def _locked(self) -> AbstractContextManager[None]:
        """The folder's lock, held for the ``with`` block; :class:`StoreError` if it cannot be had."""


def decode_presence(data: dict[str, Any]) -> Presence:
    """A presence file's content → the presence (``seen`` 0: the file's time says it); ``ValueError`` if bad.
    A record written before whereabouts were kept has none.
    """
    keys = set(data)
    if not _PRESENCE_KEYS <= keys or keys - _PRESENCE_KEYS - _WHEREABOUTS_KEYS:
        extra = sorted((keys - _WHEREABOUTS_KEYS) ^ _PRESENCE_KEYS)[0]
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
    return Presence(session, name, registered, float(since), 0.0, Whereabouts.from_json(data))


def decode_table(data: dict[str, Any]) -> Table:
    """A table file's content → the table; ``ValueError`` with the reason if it is not one."""
    if set(data) != {"schema", "table"}:
        raise ValueError("a table file holds exactly 'schema' and 'table'")
    try:
        return Table.from_json(data["table"])
    except TableDataError as exc:
        raise ValueError(exc.reason) from None


def decode_queue(data: dict[str, Any]) -> MatchQueue:
    """The queue file's content → the queue; ``ValueError`` with the reason if it is not one."""
    if set(data) != {"schema", "queue"}:
        raise ValueError("the queue file holds exactly 'schema' and 'queue'")
    try:
        return MatchQueue.from_json(data["queue"])
    except TableDataError as exc:
        raise ValueError(exc.reason) from None


QUEUE_FILE = "queue.json"


def decode_arena(data: dict[str, Any]) -> Arena:
    """An arena file's content → the arena; ``ValueError`` with the reason if it is not one."""
    if set(data) != {"schema", "arena"}:
        raise ValueError("an arena file holds exactly 'schema' and 'arena'")
    try:
        return Arena.from_json(data["arena"])
    except TableDataError as exc:
        raise ValueError(exc.reason) from None


def encode_arena(arena: Arena) -> bytes:
    """An arena file's bytes."""
    return encode_document({"arena": arena.as_json()})


def encode_table(table: Table) -> bytes:
    """A table file's bytes."""
    return encode_document({"table": table.to_json()})



class FolderLive(TableRules, ArenaKeeping):
    """Tables, live games and presence in one data folder, sharing its store's lock."""

    quick_reads = True

    def __init__(self, store: LockedFolder, *, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self.tables_dir = store.data_dir / TABLES_DIR
        self.damaged_dir = self.tables_dir / DAMAGED_DIR
        self.presence_dir = store.data_dir / PRESENCE_DIR
        for folder in (self.tables_dir, self.presence_dir):
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError.from_os(folder, "cannot create the folder", exc) from None
        with self.store._locked():
            for folder in (self.tables_dir, self.presence_dir):
                for path in folder.glob(f"*{TMP_SUFFIX}"):
                    path.unlink(missing_ok=True)
        self._presence_cache: dict[str, tuple[tuple[int, int], Presence | None]] = {}
        self._table_cache: dict[str, tuple[tuple[int, int, int], Table]] = {}
        """Each table as last read or written here, by its file's inode, time and size (strictly
        read once; handed out as copies)."""

    # ---- plumbing

    def _write(self, path: Path, data: bytes, *, sync_folder: bool = True) -> None:
        try:
            atomic_write(path, data, sync_folder=sync_folder)
        except OSError as exc:
            raise StoreError.from_os(path, "cannot write the file", exc) from None

    def _sync_tables_folder(self) -> None:
        try:
            fsync_folder(self.tables_dir)
        except OSError as exc:
            raise StoreError.from_os(self.tables_dir, "cannot write the folder", exc) from None

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
            raise StoreError.from_os(mark, "cannot touch the file", exc) from None

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
            raise StoreError.from_os(path, "cannot read the file", exc) from None
        key = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        known = self._table_cache.get(table_id)
        if known is not None and known[0] == key:
            return known[1].copy()
        table = read_document(path, decode_table)
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
            raise StoreError.from_os(self.tables_dir, "cannot list the folder", exc) from None
        ids = []
        for name in names:
            if name.endswith(".json"):
                try:
                    ids.append(check_table_id(name[:-5]))
                except TableDataError:
                    continue  # not a table of ours (a stray file someone put there)
        return sorted(ids)

    # ---- presence

    def join(self, name: str, registered: bool, session: str | None = None, where: Whereabouts | None = None) -> Presence:
        """Announce a session online (or again, after its record was collected); returns it."""
        session = session or new_session_id()
        SeatHolder(name, session, registered)  # validates
        now = self.clock()
        presence = Presence(session, name, registered, now, now, where or Whereabouts())
        with self.store._locked():
            self._write_presence(presence)
            self._presence_changed()
        return presence

    def _write_presence(self, presence: Presence, *, sync_folder: bool = True) -> None:
        body = {"session": presence.session, "name": presence.name, "registered": presence.registered,
                "since": presence.since, **presence.where.as_json()}
        self._write(self.presence_dir / f"{presence.session}.json", encode_document(body), sync_folder=sync_folder)

    def join_guest(self, session: str, where: Whereabouts | None = None) -> Presence:
        """Announce a guest session online as ``Guest N`` (:func:`guest_label`), the number chosen and
        written under the lock: two guests arriving at the same instant get two numbers.
        """
        with self.store._locked():
            return self.join(guest_label(self.sessions(), session), False, session, where)

    def report_screen(self, presence: Presence) -> None:
        """Rewrite the record with ``presence.where`` (a new file: its time is the heartbeat); no feed wakes."""
        path = self.presence_dir / f"{presence.session}.json"
        if not path.exists():
            self.join(presence.name, presence.registered, presence.session, presence.where)
            return
        self._write_presence(presence, sync_folder=False)  # a screen's name: not worth a folder sync

    def heartbeat(self, presence: Presence) -> None:
        """Keep ``presence`` online: touch its record, or write it again if it was collected."""
        path = self.presence_dir / f"{presence.session}.json"
        try:
            os.utime(path)
        except FileNotFoundError:
            self.join(presence.name, presence.registered, presence.session, presence.where)
        except OSError as exc:
            raise StoreError.from_os(path, "cannot touch the file", exc) from None

    def heartbeats(self, presences: Sequence[Presence]) -> None:
        """:meth:`heartbeat` for each of ``presences`` (a hub's batch; the folder has no cheaper way)."""
        for presence in presences:
            self.heartbeat(presence)

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
            raise StoreError.from_os(self.presence_dir, "cannot list the folder", exc) from None
        cache: dict[str, tuple[tuple[int, int], Presence | None]] = {}
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
            decoded: Presence | None
            if known is not None and known[0] == key:
                decoded = known[1]
            else:
                try:
                    raw = read_bytes(Path(entry.path))
                    decoded = decode_presence(parse_document(raw)) if raw is not None else None
                except (StoreError, ValueError):
                    decoded = None
            cache[entry.name] = (key, decoded)
            if decoded is not None and entry.name == f"{decoded.session}.json":
                found.append(replace(decoded, seen=stat.st_mtime))
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
                        raise StoreError.from_os(path, "cannot remove a stale presence", exc) from None
                self._presence_changed()
        return live

    # ---- tables

    def _insert(self, table: Table, admit: Callable[[list[Table]], None]) -> None:
        with self.store._locked():
            admit([t for t in self._readable_tables() if t.phase == OPEN])
            self._write(self.table_path(table.table_id), encode_table(table), sync_folder=False)
            self._cache_written(table)
        self._sync_tables_folder()

    def _readable_tables(self) -> list[Table]:
        """Every table that reads (holding the lock): a damaged one is the sweep's to move aside."""
        tables = []
        for table_id in self._table_ids():
            try:
                table = self._load_table(table_id)
            except StoreError:
                continue
            if table is not None:
                tables.append(table)
        return tables

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

    # ---- the quick-match queue

    def match_queue(self) -> MatchQueue:
        """The quick-match queue as on file (empty if none); a damaged file counts as empty and is
        replaced by the next change (a queue is minutes of waiting, not a record worth refusing play for).
        """
        try:
            return read_document(self.store.data_dir / QUEUE_FILE, decode_queue) or MatchQueue()
        except StoreError:
            return MatchQueue()

    def _swap_queue(self, change: Callable[[MatchQueue], tuple[MatchQueue, list[Table], T]]) -> T:
        """Under the lock: the queue read, changed, written, then the new tables written (the queue
        first: a process killed in between leaves tickets naming a missing table, which their screens
        take for "wait again", never a player seated at two tables).
        """
        path = self.store.data_dir / QUEUE_FILE
        with self.store._locked():
            queue = self.match_queue()
            new, tables, result = change(queue)
            if new != queue:
                self._write(path, encode_document({"queue": new.as_json()}))
            for table in tables:
                self._write_table(table)
        if tables:
            self._sync_tables_folder()
        return result

    # ---- Code Arena (store/arenas.py)

    def arena(self) -> Arena | None:
        """The newest arena (arena.json; the ones over are not read); :class:`.api.StoreError` naming a damaged
        file (its results are not silently replaced).
        """
        return read_document(self.store.data_dir / ARENA_FILE, decode_arena)

    def arenas(self) -> list[Arena]:
        """Every arena kept, oldest first (those over in arenas/, then the newest)."""
        folder = self.store.data_dir / ARENAS_DIR
        try:
            names = sorted(name for name in os.listdir(folder) if name.endswith(".json"))
        except FileNotFoundError:
            names = []
        except OSError as exc:
            raise StoreError.from_os(folder, "cannot list the folder", exc) from None
        past = [arena for name in names if (arena := read_document(folder / name, decode_arena)) is not None]
        current = self.arena()
        return sorted(past, key=lambda a: (a.starts_at, a.arena_id)) + ([current] if current is not None else [])

    def _swap_arena(self, change: Callable[[Arena | None], tuple[Arena | None, list[Table], T]]) -> T:
        """Under the lock: the newest arena read, changed, written (a new one moves the one before to arenas/
        first), then the new tables written.
        """
        path = self.store.data_dir / ARENA_FILE
        with self.store._locked():
            current = self.arena()
            new, tables, result = change(current)
            if new is not None and new != current:
                if current is not None and new.arena_id != current.arena_id:
                    folder = self.store.data_dir / ARENAS_DIR
                    try:
                        folder.mkdir(exist_ok=True)
                    except OSError as exc:
                        raise StoreError.from_os(folder, "cannot create the folder", exc) from None
                    self._write(folder / f"{current.arena_id}.json", encode_arena(current))
                self._write(path, encode_arena(new))
            for table in tables:
                self._write_table(table)
        if tables:
            self._sync_tables_folder()
        return result

    def feed(self, *, polling: bool = False) -> ChangeFeed:
        """The change feed of this folder (see :class:`FolderFeed`), one watcher per process and
        folder shared by every subscriber (:class:`~wom_tui.domain.store.feed.SharedFeed`).
        """
        folder = self.store.data_dir

        return ProcessFeed(("folder", str(folder.resolve()), polling), lambda: FolderFeed(folder, polling=polling))


def _ended(path: Path) -> float:
    """When a table that ended was last written (the file system's time)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return time.time()


__all__ = ["QUEUE_FILE", "decode_arena", "encode_arena", "FolderLive", "LockedFolder", "decode_queue", "decode_table", "encode_table"]
