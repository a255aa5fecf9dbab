"""Live state in PostgreSQL: tables with their live games, who is online, and a change feed (LISTEN/NOTIFY).

The same interface as the data folder's :class:`..folder.live.FolderLive` (``store.live``, the
:class:`..api.Live` role), so servers on several machines sharing one database see the same tables.
The rules of a table stay in :mod:`wom_tui.domain.table`, and what is done around them (``act``,
``tick``, what a sweep brings up to date) in :class:`..tables.TableRules`, shared by both stores.
Tables (schema migration 3, :mod:`.migrations`)::

    wom_tables           id, state (the table's JSON), updated_at
    wom_damaged_tables   a row that could not be read, moved aside as it was (the table is closed)
    wom_presence         session, name, registered, since, seen (the last heartbeat, the database's clock),
                         address, key, transport, screen (what the Operator screen lists)
    wom_match_queue      session, ticket (JSON): the quick-match queue (migration 6, :mod:`...matchmaking`)
    wom_match_wave       one row: when the last wave ran; a change of the queue locks it first

Promises:

* :meth:`PostgresLive.update_table` is a compare-and-swap in one transaction: ``SELECT … FOR
  UPDATE`` locks the table's row, the caller's function runs on it, and it is written back only if
  it changed. Two servers taking the last seat: one gets it, the other is refused.
* A finished game is recorded exactly once: the table's move, the game row with everyone's points
  and the table marked recorded are one transaction (the recording in a savepoint: if it fails,
  the move stands and the next sweep retries it, reporting why). A game already kept under the
  table's game id is never counted again.
* Presence: ``join`` writes a row, a heartbeat sets ``seen = now()`` (the database's clock, the
  same for every server). A row older than :data:`wom_tui.domain.presence.PRESENCE_STALE` seconds is ignored and
  removed by the next sweep.
* The change feed: triggers send ``NOTIFY wom_live`` for a table written, a session joining or
  leaving (not a heartbeat) and users or games changing; :class:`PostgresFeed` LISTENs on a
  connection of its own. A notification is delivered when its transaction commits, so a
  subscriber that re-reads after a change sees it. The payload names the schema, so two arcades in
  one database do not wake each other.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

import psycopg
from psycopg.types.json import Jsonb

from ...arena import Arena
from ...matchmaking import MatchQueue, Ticket, paired_as_json, paired_from_json
from ...presence import PRESENCE_STALE, Presence, Whereabouts, guest_label, new_session_id
from ...records import GameRecord
from ...table import FINISHED, OPEN, SeatHolder, Table, TableDataError, check_table_id
from ...users import name_key
from ..api import ChangeFeed, LiveChange, Listing, StoreError
from ..arenas import ArenaKeeping
from ..documents import new_game_id
from ..feed import ProcessFeed
from ..tables import KEEP_ENDED, TableRules
from .errors import DatabaseError, driver_reason

T = TypeVar("T")

CHANNEL = "wom_live"


class Database(Protocol):
    """What the live state needs of its store (:class:`.store.PostgresStore`): the database, its
    transactions, and recording a finished game inside one.
    """

    url: str
    database: str

    def _transaction(self, work: Callable[[psycopg.Connection[Any], int], T]) -> T:
        """Run ``work(conn, attempt)`` in one transaction, retrying it when the connection is lost."""

    def _read(self, query: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of one query."""

    def _bad_row(self, table: str, key: object, reason: str) -> DatabaseError:
        """The error naming a row that failed validation."""

    def _record_in(self, conn: psycopg.Connection[Any], record: GameRecord, game_id: str) -> str:
        """Keep a checked game and apply its points in the caller's transaction (once per game id)."""


_STALE = f"now() - interval '{PRESENCE_STALE} seconds'"
_JOIN = ("INSERT INTO wom_presence (session, name, registered, since, address, key, transport, screen) "
         "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
         "ON CONFLICT (session) DO UPDATE SET name = EXCLUDED.name, registered = EXCLUDED.registered, "
         "since = EXCLUDED.since, seen = now(), address = EXCLUDED.address, key = EXCLUDED.key, "
         "transport = EXCLUDED.transport, screen = EXCLUDED.screen")
"""A session announced online, or again (session, name, registered, since, then its whereabouts)."""


def _join_row(presence: Presence) -> tuple[Any, ...]:
    where = presence.where
    return (presence.session, presence.name, presence.registered, presence.since, where.address, where.key,
            where.transport, where.screen)
_GUEST_JOIN_LOCK = 0x574F4D47  # "WOMG": the advisory lock guests joining take in turn (see join_guest)
_OPENING_LOCK = 0x574F4D54  # "WOMT": the advisory lock tables being opened take in turn (see _insert)


def _classify(schema: str, payloads: Iterable[str]) -> LiveChange | None:
    """NOTIFY payloads ("<schema> t <id> <version>", "<schema> t <id>", "<schema> p", "<schema> s",
    "<schema> m", "<schema> q") → one change, or None if none is ours.
    """
    tables: set[str] = set()
    versions: dict[str, int] = {}
    unversioned: set[str] = set()
    presence = scores = moderation = queue = False
    for payload in payloads:
        where, _, rest = payload.partition(" ")
        if where != schema:
            continue
        if rest.startswith("t "):
            table_id, _, version = rest[2:].partition(" ")
            tables.add(table_id)
            if not version.isdigit():
                unversioned.add(table_id)  # removed (or not a table): whoever shows it reads it
            elif versions.get(table_id, -1) < int(version):
                versions[table_id] = int(version)  # (the last written, of several in one transaction or window)
        elif rest == "p":
            presence = True
        elif rest == "s":
            scores = True
        elif rest == "m":
            moderation = True
        elif rest == "q":
            queue = True
    if not (tables or presence or scores or moderation or queue):
        return None
    return LiveChange(frozenset(tables), presence, scores, moderation=moderation, queue=queue,
                      versions=tuple(sorted((key, value) for key, value in versions.items() if key not in unversioned)))


class PostgresFeed:
    """The change feed of a database: LISTEN on a connection of its own (see :class:`..api.ChangeFeed`)."""

    def __init__(self, url: str, database: str, *, step: float = 0.003, wake: float = 0.25,
                 reconnect_pause: float = 1.0) -> None:
        """``step``: notifications arriving this close together are handed over as one change (one
        transaction's arrive together anyway);
        ``wake``: how often an idle subscriber checks ``stop``.
        """
        self.url = url
        self.database = database
        self.step = step
        self.wake = wake
        self.reconnect_pause = reconnect_pause

    async def _listen(self) -> tuple[psycopg.AsyncConnection[Any], str]:
        try:
            conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True, connect_timeout=5)
            await conn.execute(f"LISTEN {CHANNEL}")
            row = await (await conn.execute("SELECT current_schema()")).fetchone()
        except psycopg.Error as exc:
            raise DatabaseError(self.database, f"cannot listen for changes ({driver_reason(exc)})") from None
        return conn, str(row[0]) if row else "public"

    async def changes(self, stop: asyncio.Event | None = None, ready: asyncio.Event | None = None) -> AsyncIterator[LiveChange]:
        """Changes from now on, until ``stop`` is set. After a lost connection the feed listens
        again and reports that everything may have changed (notifications sent meanwhile are lost).
        """
        stop = stop or asyncio.Event()
        ready = ready or asyncio.Event()
        conn, schema = await self._listen()
        ready.set()  # LISTEN has returned: every later commit is notified to this connection
        try:
            while not stop.is_set():
                try:
                    payloads = [n.payload async for n in conn.notifies(timeout=self.wake, stop_after=1)]
                    if not payloads:
                        continue
                    payloads += [n.payload async for n in conn.notifies(timeout=self.step)]
                except psycopg.OperationalError:
                    await conn.close()
                    while not stop.is_set():
                        try:
                            await asyncio.wait_for(stop.wait(), self.reconnect_pause)
                            return
                        except asyncio.TimeoutError:
                            pass
                        try:
                            conn, schema = await self._listen()
                            break
                        except StoreError:
                            continue
                    yield LiveChange(frozenset(), True, True, moderation=True, queue=True)
                    continue
                change = _classify(schema, payloads)
                if change is not None:
                    yield change
        finally:
            await conn.close()


class PostgresLive(TableRules, ArenaKeeping):
    """Tables, live games and presence in the store's database (see the module's promises)."""

    quick_reads = False

    def __init__(self, store: Database, *, clock: Callable[[], float] | None = None) -> None:
        self.store = store
        self.clock = clock or time.time

    # ---- plumbing

    def _bad_row(self, table_id: str, reason: str) -> StoreError:
        return self.store._bad_row("wom_tables", table_id, reason)

    def _decode(self, table_id: str, state: Any) -> Table:
        try:
            table = Table.from_json(state)
        except TableDataError as exc:
            raise self._bad_row(table_id, exc.reason) from None
        if table.table_id != table_id:
            raise self._bad_row(table_id, f"the row holds table {table.table_id!r}")
        return table

    def _quarantining(self, table_id: str, error: StoreError) -> Callable[[psycopg.Connection[Any], int], StoreError]:
        """The transaction's work that moves a damaged table aside (see :meth:`_quarantine`)."""
        return lambda conn, _attempt: self._quarantine(conn, table_id, error)

    def _quarantine(self, conn: psycopg.Connection[Any], table_id: str, error: StoreError) -> StoreError:
        """Move a damaged row aside as it was (in the caller's transaction); the error to report."""
        conn.execute("INSERT INTO wom_damaged_tables (id, state, reason) "
                     "SELECT id, state, %s FROM wom_tables WHERE id = %s", (str(error), table_id))
        conn.execute("DELETE FROM wom_tables WHERE id = %s", (table_id,))
        return self._bad_row(table_id, f"{error.reason.split(': ', 1)[-1]}. The table is closed; the row was "
                                       "kept in wom_damaged_tables")

    def _write(self, conn: psycopg.Connection[Any], table: Table) -> None:
        conn.execute("INSERT INTO wom_tables (id, state) VALUES (%s, %s) ON CONFLICT (id) DO UPDATE "
                     "SET state = EXCLUDED.state, updated_at = now()", (table.table_id, Jsonb(table.to_json())))

    # ---- presence

    def join(self, name: str, registered: bool, session: str | None = None, where: Whereabouts | None = None) -> Presence:
        """Announce a session online (or again, after its row was collected); returns it."""
        session = session or new_session_id()
        SeatHolder(name, session, registered)  # validates
        now = self.clock()
        presence = Presence(session, name, registered, now, now, where or Whereabouts())
        self.store._transaction(lambda conn, _: conn.execute(_JOIN, _join_row(presence)))
        return presence

    def join_guest(self, session: str, where: Whereabouts | None = None) -> Presence:
        """Announce a guest session online as ``Guest N`` (:func:`wom_tui.domain.presence.guest_label`), the number chosen
        and written in one transaction that guests joining at once take in turn (an advisory lock):
        two guests arriving at the same instant get two numbers.
        """
        SeatHolder("Guest 1", session, False)  # validates the session id
        now = self.clock()

        def join(conn: psycopg.Connection[Any], _: int) -> str:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_GUEST_JOIN_LOCK,))
            rows = conn.execute(f"SELECT session, name, registered FROM wom_presence WHERE seen > {_STALE}").fetchall()
            name = guest_label((Presence(s, n, r, 0.0, 0.0) for s, n, r in rows), session)
            conn.execute(_JOIN, _join_row(Presence(session, name, False, now, now, where or Whereabouts())))
            return name
        name = self.store._transaction(join)
        return Presence(session, name, False, now, now, where or Whereabouts())

    def heartbeat(self, presence: Presence) -> None:
        """Keep ``presence`` online (``seen = now()``, which notifies nobody), or join again if collected."""
        touched = self.store._transaction(lambda conn, _: conn.execute(
            "UPDATE wom_presence SET seen = now() WHERE session = %s", (presence.session,)).rowcount)
        if not touched:
            self.join(presence.name, presence.registered, presence.session, presence.where)

    def heartbeats(self, presences: Sequence[Presence]) -> None:
        """:meth:`heartbeat` for many sessions in one write (a hub's for all of its server's sessions)."""
        if not presences:
            return
        sessions = [presence.session for presence in presences]
        touched = self.store._transaction(lambda conn, _: {row[0] for row in conn.execute(
            "UPDATE wom_presence SET seen = now() WHERE session = ANY(%s) RETURNING session", (sessions,)).fetchall()})
        for presence in presences:
            if presence.session not in touched:
                self.join(presence.name, presence.registered, presence.session, presence.where)

    def report_screen(self, presence: Presence) -> None:
        """Keep ``presence.where`` (``seen = now()`` too); the notify trigger does not fire for these columns."""
        where = presence.where
        touched = self.store._transaction(lambda conn, _: conn.execute(
            "UPDATE wom_presence SET seen = now(), address = %s, key = %s, transport = %s, screen = %s "
            "WHERE session = %s", (where.address, where.key, where.transport, where.screen, presence.session)).rowcount)
        if not touched:
            self.join(presence.name, presence.registered, presence.session, presence.where)

    def part(self, session: str) -> None:
        """A session ending cleanly: its row goes at once (its seats follow the dropping-out rule)."""
        self.store._transaction(lambda conn, _: conn.execute("DELETE FROM wom_presence WHERE session = %s",
                                                             (session,)))

    def sessions(self) -> list[Presence]:
        """Sessions online now (heartbeat fresh by the database's clock), oldest first; bad rows are skipped."""
        rows = self.store._read(f"SELECT session, name, registered, since, extract(epoch FROM seen)::float8, "
                                f"address, key, transport, screen "
                                f"FROM wom_presence WHERE seen > {_STALE} ORDER BY since, session")
        found = []
        for session, name, registered, since, seen, address, key, transport, screen in rows:
            try:
                SeatHolder(name, session, registered)
                where = Whereabouts(address, key, transport, screen)
            except (ValueError, TypeError):
                continue
            found.append(Presence(session, name, registered, since, seen, where))
        return found

    def _collect_presence(self) -> set[str]:
        """Remove stale rows (and rows no session could have written); the live sessions."""
        def collect(conn: psycopg.Connection[Any], _: int) -> None:
            conn.execute(f"DELETE FROM wom_presence WHERE seen <= {_STALE}")
        self.store._transaction(collect)
        return {p.session for p in self.sessions()}

    # ---- tables

    def _insert(self, table: Table, admit: Callable[[list[Table]], None]) -> None:
        def insert(conn: psycopg.Connection[Any], _attempt: int) -> None:
            # One opening at a time across every server on this database (the lock ends with the
            # transaction), so two opens at once are counted one after the other.
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_OPENING_LOCK,))
            unstarted = []
            for table_id, state in conn.execute(
                    "SELECT id, state FROM wom_tables WHERE state->>'phase' = %s", (OPEN,)).fetchall():
                try:
                    unstarted.append(self._decode(table_id, state))
                except StoreError:
                    continue  # a damaged row: the sweep moves it aside
            admit(unstarted)
            self._write(conn, table)

        self.store._transaction(insert)

    def table(self, table_id: str) -> Table | None:
        """The table as kept now (None if it is gone); :class:`StoreError` naming a damaged row."""
        rows = self.store._read("SELECT state FROM wom_tables WHERE id = %s", (check_table_id(table_id),))
        return self._decode(table_id, rows[0][0]) if rows else None

    def tables(self) -> Listing:
        """Every table; damaged rows are closed (moved aside) and reported, not raised."""
        tables, problems = [], []
        for table_id, state in self.store._read("SELECT id, state FROM wom_tables ORDER BY id"):
            try:
                tables.append(self._decode(table_id, state))
            except StoreError as exc:
                problems.append(self.store._transaction(self._quarantining(table_id, exc)))
        return Listing(tuple(tables), tuple(problems))

    def update_table(self, table_id: str, change: Callable[[Table], T]) -> T:
        """Compare-and-swap in one transaction: lock the row, run ``change`` on the table, write it back
        if it changed, and record its game if it just finished. Returns what ``change`` returned.

        ``change`` raising (e.g. :class:`.table.Refused`) writes nothing. :class:`LookupError` if
        the table is gone; :class:`StoreError` (the table closed) if its row is damaged.
        """
        check_table_id(table_id)

        def swap(conn: psycopg.Connection[Any], _: int) -> tuple[bool, T | StoreError]:
            row = conn.execute("SELECT state FROM wom_tables WHERE id = %s FOR UPDATE", (table_id,)).fetchone()
            if row is None:
                raise LookupError(f"There is no table {table_id!r} any more.")
            try:
                table = self._decode(table_id, row[0])
            except StoreError as exc:
                return False, self._quarantine(conn, table_id, exc)  # kept: the row is moved aside
            version = table.version
            result = change(table)
            if table.version != version:
                self._write(conn, table)
            try:
                with conn.transaction():  # a savepoint: a failed recording leaves the move standing
                    self._record(conn, table)
            except (StoreError, ValueError, psycopg.DatabaseError):
                pass  # The next sweep retries the recording and reports why.
            return True, result

        done, outcome = self.store._transaction(swap)
        if not done:
            assert isinstance(outcome, StoreError)
            raise outcome
        return outcome  # type: ignore[return-value]

    def _record(self, conn: psycopg.Connection[Any], table: Table) -> None:
        """Record a finished game exactly once, in the caller's transaction holding the table's row."""
        if table.phase != FINISHED or table.recorded:
            return
        if table.game_id is None:
            table.game_id = new_game_id()
        registered = {name_key(name) for (name,) in conn.execute("SELECT name FROM wom_users").fetchall()}
        self.store._record_in(conn, table.record(registered), table.game_id)
        table.recorded = True
        table.version += 1
        self._write(conn, table)

    def _record_again(self, table_id: str) -> StoreError | None:
        """Retry a recording that failed; the error saying why it fails, or None if it went through."""
        def again(conn: psycopg.Connection[Any], _: int) -> None:
            row = conn.execute("SELECT state FROM wom_tables WHERE id = %s FOR UPDATE", (table_id,)).fetchone()
            if row is not None:
                self._record(conn, self._decode(table_id, row[0]))
        try:
            self.store._transaction(again)
        except (StoreError, ValueError) as exc:
            return self._bad_row(table_id, f"the game could not be recorded: {exc}")
        return None

    def _sweep_presence(self) -> set[str]:
        return self._collect_presence()

    def _remove_ended(self, ended: list[Table]) -> set[str]:
        """Ended over :data:`..tables.KEEP_ENDED` seconds ago by the database's clock (each deleted unless it changed since)."""
        if not ended:
            return set()
        old = {table_id for (table_id,) in self.store._read(
            f"SELECT id FROM wom_tables WHERE updated_at < now() - interval '{KEEP_ENDED} seconds'")}
        removed = set()
        for table in ended:
            if table.table_id in old:
                self.store._transaction(_deleting_ended(table.table_id))
                removed.add(table.table_id)
        return removed

    # ---- the quick-match queue

    def match_queue(self) -> MatchQueue:
        """The queue as kept now (a row that is not a ticket is skipped; the next change removes it)."""
        rows = self.store._read("SELECT session, ticket FROM wom_match_queue")
        last = self.store._read("SELECT last_wave, paired FROM wom_match_wave")
        return MatchQueue(tuple(_tickets(row[1] for row in rows)), float(last[0][0]) if last else 0.0,
                          _paired(last[0][1]) if last else ())

    def _swap_queue(self, change: Callable[[MatchQueue], tuple[MatchQueue, list[Table], T]]) -> T:
        """One transaction: lock the wave's row (every change of the queue takes it first), read the
        tickets, run ``change``, write the rows that changed and insert the new tables.
        """
        def swap(conn: psycopg.Connection[Any], _: int) -> T:
            # The row is made by migration 6; made again if someone emptied the table, for without it
            # FOR UPDATE would lock nothing and two waves could seat one player twice.
            conn.execute("INSERT INTO wom_match_wave DEFAULT VALUES ON CONFLICT DO NOTHING")
            row = conn.execute("SELECT last_wave, paired FROM wom_match_wave FOR UPDATE").fetchone()
            raw = {session: ticket for session, ticket in
                   conn.execute("SELECT session, ticket FROM wom_match_queue").fetchall()}
            queue = MatchQueue(tuple(_tickets(raw.values())), float(row[0]) if row else 0.0,
                               _paired(row[1]) if row else ())
            new, tables, result = change(queue)
            kept = {t.session: t for t in new.tickets}
            gone = [session for session in raw if session not in kept]
            if gone:
                conn.execute("DELETE FROM wom_match_queue WHERE session = ANY(%s)", (gone,))
            for session, ticket in kept.items():
                data = ticket.as_json()
                if raw.get(session) != data:
                    conn.execute("INSERT INTO wom_match_queue (session, ticket) VALUES (%s, %s) ON CONFLICT "
                                 "(session) DO UPDATE SET ticket = EXCLUDED.ticket", (session, Jsonb(data)))
            if new.last_wave != queue.last_wave or new.paired != queue.paired:
                conn.execute("UPDATE wom_match_wave SET last_wave = %s, paired = %s",
                             (new.last_wave, Jsonb(paired_as_json(new.paired))))
            for table in tables:
                self._write(conn, table)
            return result
        return self.store._transaction(swap)

    # ---- Code Arena (store/arenas.py)

    def arena(self) -> Arena | None:
        """The newest arena (one row read: the pairing loop reads it every 2 s), or None."""
        rows = self.store._read("SELECT arena_id, arena FROM wom_arenas ORDER BY starts_at DESC, arena_id DESC LIMIT 1")
        if not rows:
            return None
        try:
            return Arena.from_json(rows[0][1])
        except TableDataError as exc:
            raise self.store._bad_row("wom_arenas", rows[0][0], exc.reason) from None

    def arenas(self) -> list[Arena]:
        """Every arena kept, oldest first (``StoreError`` naming a damaged row: its results are not dropped)."""
        found = []
        for arena_id, data in self.store._read("SELECT arena_id, arena FROM wom_arenas ORDER BY starts_at, arena_id"):
            try:
                found.append(Arena.from_json(data))
            except TableDataError as exc:
                raise self.store._bad_row("wom_arenas", arena_id, exc.reason) from None
        return found

    def _swap_arena(self, change: Callable[[Arena | None], tuple[Arena | None, list[Table], T]]) -> T:
        """One transaction: the newest arena's row locked and read, ``change`` run, the arena and the new tables
        written (a new arena inserted: two operators starting one at once are decided by the lock on the newest).
        """
        def swap(conn: psycopg.Connection[Any], _: int) -> T:
            conn.execute("LOCK TABLE wom_arenas IN SHARE ROW EXCLUSIVE MODE")
            row = conn.execute("SELECT arena_id, arena FROM wom_arenas ORDER BY starts_at DESC, arena_id DESC "
                               "LIMIT 1").fetchone()
            current = None
            if row is not None:
                try:
                    current = Arena.from_json(row[1])
                except TableDataError as exc:
                    raise self.store._bad_row("wom_arenas", row[0], exc.reason) from None
            new, tables, result = change(current)
            if new is not None and new != current:
                conn.execute("INSERT INTO wom_arenas (arena_id, starts_at, arena) VALUES (%s, %s, %s) "
                             "ON CONFLICT (arena_id) DO UPDATE SET starts_at = EXCLUDED.starts_at, arena = EXCLUDED.arena",
                             (new.arena_id, new.starts_at, Jsonb(new.as_json())))
            for table in tables:
                self._write(conn, table)
            return result
        return self.store._transaction(swap)

    def feed(self, *, polling: bool = False) -> ChangeFeed:
        """The change feed of this database (LISTEN/NOTIFY; ``polling`` is the folder's, ignored here):
        one LISTEN connection per process and database, shared by every subscriber (:class:`..feed.SharedFeed`).
        """
        url, database = self.store.url, self.store.database
        return ProcessFeed(("postgresql", url, database), lambda: PostgresFeed(url, database))


__all__ = ["CHANNEL", "Database", "PostgresFeed", "PostgresLive"]


def _tickets(rows: Iterable[Any]) -> Iterable[Ticket]:
    """The rows' tickets, skipping any that is not one."""
    for data in rows:
        try:
            yield Ticket.from_json(data)
        except TableDataError:
            continue


def _paired(data: Any) -> tuple[tuple[str, float], ...]:
    """The wave row's pairs seated lately (none if it is not a list of them: the next wave writes it again)."""
    try:
        return paired_from_json(data)
    except TableDataError:
        return ()


def _deleting_ended(table_id: str) -> Callable[[psycopg.Connection[Any], int], object]:
    """The transaction's work that deletes an ended table kept long enough (unless it changed since)."""

    def work(conn: psycopg.Connection[Any], _attempt: int) -> object:
        return conn.execute(
            f"DELETE FROM wom_tables WHERE id = %s AND updated_at < now() - interval '{KEEP_ENDED} seconds'",
            (table_id,))

    return work
