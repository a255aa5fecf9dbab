"""The store in PostgreSQL: what a fleet of servers shares (the data folder's promises, held by the database).

``PostgresStore(url)`` keeps the same users, hall of fame and game records as the data folder,
behind the same methods (:class:`..api.Store`). Tables are prefixed ``wom_`` and live in the
first schema of the connection's ``search_path`` (``?options=-csearch_path%3Dname`` in the URL gives
wom-tui a schema of its own in a shared database).

Promises, and what keeps them:

* All or nothing: every change is one transaction.
* No lost update: points are added in the database (``score = score + n``) under its row locks,
  never read, changed and written back.
* A name is registered once in any case: a unique index on ``lower(name)`` (names are ASCII, where
  ``lower`` is :func:`~.users.name_key`), so two servers racing one name get one row and one refusal.
* A finished game's points are applied exactly once, to all its players or to none: the game row
  (primary key: its id) and every player's update are one transaction, and the game is inserted
  first with ``ON CONFLICT DO NOTHING`` — a retry after a connection lost during COMMIT finds the
  game already there and applies nothing.
* A row that fails validation, an unreachable database or a connection lost for good is a
  :class:`DatabaseError` (a ``StoreError``) naming the database without its password and the
  reason; nothing is written. A lost connection is retried (:data:`ATTEMPTS` times, with a pause)
  before it is reported.

The schema is versioned (:data:`.migrations.MIGRATIONS`); opening a store applies the missing migrations under
an advisory lock, so servers starting together migrate once. ``wom-tui store migrate`` does the same
explicitly.
"""

from __future__ import annotations

import logging
from operator import attrgetter
import time
import uuid
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from typing import Any, TypeVar

import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool, PoolTimeout

from ...browser import (
    WRONG_CODE, BrowserSession, BrowserSignInRefused, MAX_SESSIONS_PER_NAME, check_session_id,
)
from ...daily import SECRET_BYTES, DailyAttempt, check_start
from ...daily import finished as finished_attempts
from ...halloffame import HallEntry, HallOfFame
from ...keys import KeyRejected, check_fingerprint, hash_link_code
from ...moderation import KICK_KEPT, Ban, Broadcast, Kick, ModerationRefused, Retirement, check_reason, retired_name_keys
from ...ratings import RatingBook, collector_paused, rate_games, rated_game
from ...records import GameRecord
from ...rush import RushScore
from ...stats import GameSummary
from ...users import (
    NameRejected,
    PendingLink,
    User,
    UserRegistry,
    check_name,
    check_new_name,
    fold_name,
    name_key,
    reserved_lookalike,
)
from ..api import Arcade, StoreError
from ..documents import (
    check_kept_json,
    GAME_ID,
    SummaryReader,
    check_game_id,
    check_game_json,
    check_identity,
    check_theme_name,
    check_choices,
    check_form_name,
    decode_secret,
    new_game_id,
)
from .errors import DatabaseError, describe
from .errors import driver_reason as _reason
from .live import PostgresLive
from . import migrations
from .migrations import Migration, fold_sql, migrate, schema_version

T = TypeVar("T")


# The pool reports each failed reconnection through logging. With no handler configured, Python
# would print those to stderr: across the game's screen, or an SSH player's. A server that sets
# up logging still gets them; everyone else gets the StoreError.
logging.getLogger("psycopg").addHandler(logging.NullHandler())
log = logging.getLogger("wom_tui.store")
log.addHandler(logging.NullHandler())

CONNECT_TIMEOUT = 5
"""Seconds to wait for the database to answer a new connection."""
ATTEMPTS = 5
DAILY_LOCK = 0x574F44  # the advisory lock's first half for starts of one daily puzzle and day ("WOD")
"""Tries of one transaction whose connection is lost before the loss is reported."""
RETRY_PAUSE = 0.2
"""Seconds before the first retry; doubled after each (0.2 + 0.4 + 0.8 + 1.6 s in all)."""
POOL_MAX = 2
"""Connections one process keeps at most: a game process needs one at a time (the pool keeps one open)."""
POOL_WAIT = 2.0
"""Seconds to wait for a pooled connection before asking the database directly what is wrong."""
_FOLDED = fold_sql("name")
"""A user's name folded as it looks, in SQL (the index of migration 6)."""

USER_COLUMNS = ("u.id, u.name, u.score, u.games, "
                "ARRAY(SELECT k.fingerprint FROM wom_user_keys k WHERE k.user_id = u.id ORDER BY k.seq)")
"""A user row with its key fingerprints, oldest first (``u`` is wom_users)."""


class PostgresStore:
    """Users, hall of fame and game records in one PostgreSQL database (see the module's promises)."""

    def __init__(self, url: str, *, pool_max: int = POOL_MAX, connect_timeout: float = CONNECT_TIMEOUT,
                 attempts: int = ATTEMPTS, retry_pause: float = RETRY_PAUSE, migrate_schema: bool = True) -> None:
        self.url = url
        self.database = describe(url)
        self.location = self.database
        self.connect_timeout = connect_timeout
        self.attempts = attempts
        self.retry_pause = retry_pause
        # First one plain connection: its errors say exactly why (refused, wrong password, no such
        # database); the pool's would only say that it timed out.
        try:
            with self._connect() as conn:
                if migrate_schema:
                    self.applied = migrate(conn, self.database)
                else:
                    self.applied = []
                self.version = schema_version(conn)
        except psycopg.Error as exc:
            raise DatabaseError(self.database, f"cannot use the database ({_reason(exc)})") from None
        if self.version != migrations.SCHEMA_VERSION:  # (read at each opening: tests open an older schema)
            raise DatabaseError(self.database, f"the database has schema version {self.version}, not "
                                               f"{migrations.SCHEMA_VERSION}: run `wom-tui store migrate`")
        self.pool_max = pool_max
        self._pool = self._new_pool()
        self._live: PostgresLive | None = None

    @property
    def live(self) -> PostgresLive:
        """Tables, live games, presence and the change feed in this database (:mod:`.live`)."""
        if self._live is None:
            self._live = PostgresLive(self)
        return self._live

    def _connection_options(self) -> dict[str, Any]:
        """How each connection is opened, pooled or not: autocommit, and a whole number of seconds to connect."""
        return {"autocommit": True, "connect_timeout": max(1, round(self.connect_timeout))}

    def _connect(self) -> psycopg.Connection[Any]:
        """A connection of its own, outside the pool (its errors say why it fails; the pool's only time out)."""
        return psycopg.connect(self.url, **self._connection_options())

    def _new_pool(self) -> ConnectionPool:
        return ConnectionPool(
            self.url, min_size=1, max_size=self.pool_max, open=True, timeout=min(self.connect_timeout, POOL_WAIT),
            kwargs=self._connection_options(),
            check=ConnectionPool.check_connection, name="wom-store",
        )

    def _renew_pool(self) -> None:
        """A new pool in place of one still backing off after an outage (it waits 1, 2, 4… s between tries)."""
        old, self._pool = self._pool, self._new_pool()
        old.close(timeout=0)

    def __repr__(self) -> str:
        return f"PostgresStore({self.database!r})"

    def close(self) -> None:
        """Close every connection of this store."""
        self._pool.close(timeout=1)

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- plumbing

    def _transaction(self, work: Callable[[psycopg.Connection[Any], int], T]) -> T:
        """Run ``work(conn, attempt)`` in one transaction, retrying it when the connection is lost.

        Errors of ``work`` itself (``ValueError``, ``NameRejected``) roll the transaction back and
        pass through; a database that stays unreachable becomes a :class:`DatabaseError`.
        """
        pause = self.retry_pause
        for attempt in range(self.attempts):
            wait = True
            try:
                with self._pool.connection() as conn:
                    with conn.transaction():
                        return work(conn, attempt)
            except PoolTimeout:  # (a kind of OperationalError, so first)
                # The pool gave no connection in POOL_WAIT seconds: if the database does not answer a
                # connection of our own either, waiting longer would only keep a player looking at a
                # frozen screen. If it does, the pool was backing off after an outage, or its threads
                # could not connect in time on a machine too busy to run them: this transaction runs on
                # the connection that answered (so a reachable database always serves the call), and
                # a new pool serves the next ones.
                try:
                    direct = self._connect()
                except psycopg.Error as exc:
                    raise DatabaseError(self.database, f"cannot reach the database ({_reason(exc)})") from None
                log.warning("%s: the connection pool gave no connection in %s s; one of its own serves the call",
                            self.database, POOL_WAIT)
                self._renew_pool()
                try:
                    with direct, direct.transaction():
                        return work(direct, attempt)
                except psycopg.OperationalError as exc:
                    reason = _reason(exc)
                except psycopg.Error as exc:
                    raise DatabaseError(self.database, f"the database refused the request ({_reason(exc)})") \
                        from None
            except psycopg.OperationalError as exc:
                # A lost or refused connection, a server shutting down, a serialization failure or a
                # deadlock: nothing of this transaction was kept unless COMMIT itself was cut,
                # which every write below makes harmless to repeat.
                reason = _reason(exc)
            except psycopg.Error as exc:
                raise DatabaseError(self.database, f"the database refused the request ({_reason(exc)})") from None
            if wait and attempt + 1 < self.attempts:
                time.sleep(pause)
                pause *= 2
        raise DatabaseError(self.database, f"lost the connection to the database after {self.attempts} tries "
                                           f"({reason})")

    def _read(self, query: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        return self._transaction(lambda conn, _: conn.execute(query, tuple(params)).fetchall())

    def _bad_row(self, table: str, key: object, reason: str) -> DatabaseError:
        return DatabaseError(self.database, f"table {table}, row {key!r}: {reason}")

    def _user(self, row: tuple[Any, ...]) -> User:
        row_id, name, score, games, keys = row
        try:
            return User(name, score, games, keys)
        except NameRejected as exc:
            raise self._bad_row("wom_users", row_id, f"invalid name {name!r}: {exc.reason}") from None
        except (ValueError, TypeError) as exc:
            raise self._bad_row("wom_users", row_id, str(exc)) from None

    def _game(self, game_id: str, kind: str, record: Any) -> GameRecord:
        try:
            game = check_game_json(record)
        except (ValueError, TypeError, KeyError) as exc:
            raise self._bad_row("wom_games", game_id, str(exc)) from None
        if game.kind != kind:
            raise self._bad_row("wom_games", game_id, f"the kind column says {kind!r}, the record {game.kind!r}")
        return game

    # ---- reads

    def check(self) -> None:
        """Validate every row; raise :class:`DatabaseError` for the first bad one."""
        self.users()
        self.hall_of_fame()
        self.games_with_ids()
        self.daily_attempts()
        for identity, theme in self._read("SELECT identity, theme FROM wom_preferences ORDER BY identity"):
            try:
                check_identity(identity)
                check_theme_name(theme)
            except ValueError as exc:
                raise self._bad_row("wom_preferences", identity, str(exc)) from None

    def users(self) -> UserRegistry:
        """All registered users, in registration order."""
        rows = self._read(f"SELECT {USER_COLUMNS} FROM wom_users u ORDER BY id")
        users = [self._user(row) for row in rows]
        try:
            return UserRegistry(users)
        except ValueError as exc:  # only if the unique index was dropped by hand
            raise DatabaseError(self.database, f"table wom_users: {exc}") from None

    def scoreboard(self) -> list[User]:
        """Users by score, highest first, then name; retired names left out."""
        retired = retired_name_keys(self.retired())
        return [user for user in self.users().scoreboard() if name_key(user.name) not in retired]

    def user(self, name: str) -> User | None:
        """The user with this name in any case, or ``None``."""
        if not isinstance(name, str):
            return None
        rows = self._read(f"SELECT {USER_COLUMNS} FROM wom_users u WHERE lower(name) = %s", (name_key(name),))
        return self._user(rows[0]) if rows else None

    def user_for_key(self, fingerprint: str) -> User | None:
        """The user holding the SSH key with this fingerprint, or ``None``."""
        if not isinstance(fingerprint, str):
            return None
        rows = self._read(f"SELECT {USER_COLUMNS} FROM wom_users u JOIN wom_user_keys k ON k.user_id = u.id "
                          "WHERE k.fingerprint = %s", (fingerprint,))
        return self._user(rows[0]) if rows else None

    def _user_in(self, conn: psycopg.Connection[Any], where: str, param: object) -> User | None:
        row = conn.execute(f"SELECT {USER_COLUMNS} FROM wom_users u WHERE {where}", (param,)).fetchone()
        return self._user(row) if row else None

    def hall_of_fame(self) -> HallOfFame:
        """The hall of fame."""
        entries = []
        for key, data in self._read("SELECT ruleset, entry FROM wom_hall_of_fame ORDER BY ruleset"):
            try:
                entry = HallEntry.from_json(data)
            except (ValueError, TypeError, KeyError) as exc:
                raise self._bad_row("wom_hall_of_fame", key, f"bad hall-of-fame record: {exc}") from None
            if entry.ruleset.key != key:
                raise self._bad_row("wom_hall_of_fame", key, f"the record is for {entry.ruleset.key!r}")
            entries.append(entry)
        return HallOfFame(entries)

    def games(self) -> list[GameRecord]:
        """Every finished game, oldest first."""
        return [game for _, game in self.games_with_ids()]

    def games_with_ids(self) -> list[tuple[str, GameRecord]]:
        """Every finished game with its id, oldest first (ids sort by time)."""
        rows = self._read("SELECT id, kind, record FROM wom_games ORDER BY id")
        return [(game_id, self._game(game_id, kind, record)) for game_id, kind, record in rows]

    # ---- writes

    def register(self, name: str, key: str | None = None) -> User:
        """Register a new user with 0 points and 0 games, holding the SSH key ``key`` if given.

        :class:`NameRejected` (bad or taken name) or :class:`KeyRejected` (the key is someone
        else's) with the reason if not; nothing is written then.
        """
        check_name(name)
        reserved = reserved_lookalike(name)
        if reserved is not None:
            raise NameRejected(reserved)
        if key is not None:
            check_fingerprint(key)
        token = uuid.uuid4()

        def looks_like(conn: psycopg.Connection[Any]) -> str | None:
            row = conn.execute(f"SELECT name FROM wom_users WHERE {_FOLDED} = {fold_sql('%s')} "
                               "ORDER BY look_exempt, id LIMIT 1", (name,)).fetchone()
            return None if row is None else str(row[0])

        def insert(conn: psycopg.Connection[Any], attempt: int) -> User:
            if attempt:  # Was the first try's COMMIT cut after it took effect? Then it is ours.
                mine = self._user_in(conn, "registration = %s", token)
                if mine is not None:
                    return mine
            try:
                with conn.transaction():  # (a savepoint: a look-alike registered meanwhile fails the insert alone)
                    row = conn.execute(
                        "INSERT INTO wom_users (name, registration) VALUES (%s, %s) "
                        "ON CONFLICT ((lower(name))) DO NOTHING RETURNING id", (name, token)).fetchone()
            except psycopg.errors.UniqueViolation:
                row = None  # the folded name's index: the name looks like one already taken
            if row is None:
                check_new_name(name, lambda _: looks_like(conn))
                raise NameRejected("Sorry, the name is already taken.")
            if key is not None:
                self._insert_key(conn, row[0], key)
            return User(name, keys=() if key is None else (key,))

        return self._transaction(insert)

    def _insert_key(self, conn: psycopg.Connection[Any], user_id: int, fingerprint: str) -> None:
        """Bind a key to a user in this transaction; KeyRejected (the transaction undone) if someone holds it."""
        bound = conn.execute("INSERT INTO wom_user_keys (fingerprint, user_id) VALUES (%s, %s) "
                             "ON CONFLICT (fingerprint) DO NOTHING RETURNING user_id", (fingerprint, user_id)).fetchone()
        if bound is None:
            holder = conn.execute("SELECT u.name FROM wom_user_keys k JOIN wom_users u ON u.id = k.user_id "
                                  "WHERE k.fingerprint = %s", (fingerprint,)).fetchone()
            raise KeyRejected(f"This key already belongs to {holder[0] if holder else 'someone else'}.")

    def _named(self, conn: psycopg.Connection[Any], name: str) -> tuple[int, User]:
        """The id and user called ``name`` (any case), its row locked; KeyRejected if there is none."""
        row = conn.execute(f"SELECT {USER_COLUMNS} FROM wom_users u WHERE lower(name) = %s FOR UPDATE",
                           (name_key(name) if isinstance(name, str) else "",)).fetchone()
        if row is None:
            raise KeyRejected(f"There is no user called {name}.")
        return row[0], self._user(row)

    def bind_key(self, name: str, fingerprint: str) -> User:
        """Let the SSH key ``fingerprint`` sign in as ``name``; KeyRejected (nothing written) if it cannot.

        A key belongs to one user at most (the table's primary key, whichever server binds it);
        binding a key the user already holds changes nothing.
        """
        check_fingerprint(fingerprint)

        def bind(conn: psycopg.Connection[Any], attempt: int) -> User:
            user_id, user = self._named(conn, name)
            if fingerprint in user.keys:
                return user
            self._insert_key(conn, user_id, fingerprint)
            return User(user.name, user.score, user.games, (*user.keys, fingerprint))

        return self._transaction(bind)

    def unbind_key(self, name: str, fingerprint: str) -> User:
        """Take the key ``fingerprint`` from ``name``; KeyRejected (nothing written) if they do not hold it."""
        def unbind(conn: psycopg.Connection[Any], attempt: int) -> User:
            user_id, user = self._named(conn, name)
            gone = conn.execute("DELETE FROM wom_user_keys WHERE fingerprint = %s AND user_id = %s",
                                (fingerprint, user_id)).rowcount
            if gone != 1:
                raise KeyRejected(f"{user.name} holds no key {fingerprint}.")
            return User(user.name, user.score, user.games, [key for key in user.keys if key != fingerprint])

        return self._transaction(unbind)

    def issue_link_code(self, fingerprint: str, now: datetime | None = None) -> str:
        """A one-time code with which another key can join the name that ``fingerprint`` signs in as.

        Valid for 10 minutes and once; only its hash is kept (wom_links), and expired codes are
        removed. KeyRejected if the key holds no name.
        """
        now = now or datetime.now(timezone.utc)

        def issue(conn: psycopg.Connection[Any], attempt: int) -> str:
            row = conn.execute("SELECT u.id, u.name FROM wom_user_keys k JOIN wom_users u ON u.id = k.user_id "
                               "WHERE k.fingerprint = %s", (fingerprint,)).fetchone()
            if row is None:
                raise KeyRejected("Only a signed-in player can link another key.")
            code, link = PendingLink.issue(row[1], now)
            conn.execute("DELETE FROM wom_links WHERE expires <= %s", (now,))
            conn.execute("INSERT INTO wom_links (code_hash, user_id, expires) VALUES (%s, %s, %s)",
                         (link.code_hash, row[0], link.expires))
            return code

        return self._transaction(issue)

    def redeem_link_code(self, typed: str, fingerprint: str, now: datetime | None = None) -> User:
        """Bind ``fingerprint`` to the name a valid one-time code was issued for, using the code up.

        KeyRejected, with nothing written, for a wrong, used or expired code or a key that
        already holds a name. Using the code up (deleting its row) and binding the key are one
        transaction, so of two servers redeeming one code at once exactly one succeeds.
        """
        check_fingerprint(fingerprint)
        now = now or datetime.now(timezone.utc)
        code_hash = hash_link_code(typed) if isinstance(typed, str) else ""

        def redeem(conn: psycopg.Connection[Any], attempt: int) -> User:
            holder = conn.execute("SELECT u.name FROM wom_user_keys k JOIN wom_users u ON u.id = k.user_id "
                                  "WHERE k.fingerprint = %s", (fingerprint,)).fetchone()
            if holder is not None:
                raise KeyRejected(f"This key already belongs to {holder[0]}.")
            used = conn.execute("DELETE FROM wom_links WHERE code_hash = %s AND expires > %s RETURNING user_id",
                                (code_hash, now)).fetchone()
            if used is None:
                raise KeyRejected("That code is wrong, used or expired.")
            self._insert_key(conn, used[0], fingerprint)
            user = self._user_in(conn, "id = %s", used[0])
            assert user is not None  # the link's foreign key keeps its user
            return user

        return self._transaction(redeem)

    # ---- browser sign-in (docs/serve.md, *Who you are in a browser*)

    def issue_browser_code(self, name: str, now: datetime | None = None) -> str:
        """A one-time code (ten minutes, once) that signs a browser in as ``name``; only its hash is kept
        (wom_browser_codes), and expired codes are removed.
        """
        now = now or datetime.now(timezone.utc)

        def issue(conn: psycopg.Connection[Any], attempt: int) -> str:
            row = conn.execute("SELECT id, name FROM wom_users WHERE lower(name) = %s",
                               (name_key(name) if isinstance(name, str) else "",)).fetchone()
            if row is None:
                raise BrowserSignInRefused(f"There is no user called {name}.")
            code, pending = PendingLink.issue(row[1], now)
            conn.execute("DELETE FROM wom_browser_codes WHERE expires <= %s", (now,))
            conn.execute("INSERT INTO wom_browser_codes (code_hash, user_id, expires) VALUES (%s, %s, %s)",
                         (pending.code_hash, row[0], pending.expires))
            return code

        return self._transaction(issue)

    def redeem_browser_code(self, typed: str, token_hash: str, address: str, now: datetime | None = None) -> BrowserSession:
        """Use a valid code up and start a session for its name, in one transaction (deleting the code's
        row: of two servers redeeming one code at once, exactly one succeeds). BrowserSignInRefused, with
        nothing written, for a wrong, used or expired code. A name's sessions beyond the most recent twenty
        and expired ones are removed in the same transaction.
        """
        now = now or datetime.now(timezone.utc)
        code_hash = hash_link_code(typed) if isinstance(typed, str) else ""

        def redeem(conn: psycopg.Connection[Any], attempt: int) -> BrowserSession:
            used = conn.execute("DELETE FROM wom_browser_codes WHERE code_hash = %s AND expires > %s "
                                "RETURNING user_id", (code_hash, now)).fetchone()
            if used is None:
                raise BrowserSignInRefused(WRONG_CODE)
            name = conn.execute("SELECT name FROM wom_users WHERE id = %s", (used[0],)).fetchone()
            assert name is not None  # the code's foreign key keeps its user
            session = BrowserSession.start(name[0], token_hash, address, now)
            conn.execute("INSERT INTO wom_browser_sessions (id, token_hash, user_id, created, last_used, expires, "
                         "address) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                         (session.id, session.token_hash, used[0], session.created, session.last_used,
                          session.expires, session.address))
            conn.execute("DELETE FROM wom_browser_sessions WHERE user_id = %s AND (expires <= %s OR id NOT IN "
                         "(SELECT id FROM wom_browser_sessions WHERE user_id = %s AND expires > %s "
                         "ORDER BY last_used DESC, created DESC LIMIT %s))",
                         (used[0], now, used[0], now, MAX_SESSIONS_PER_NAME))
            return session

        return self._transaction(redeem)

    _SESSION_COLUMNS = ("s.id, u.name, s.token_hash, s.created, s.last_used, s.expires, s.address "
                        "FROM wom_browser_sessions s JOIN wom_users u ON u.id = s.user_id")

    def _session(self, row: tuple[Any, ...]) -> BrowserSession:
        try:
            return BrowserSession(*row)
        except (ValueError, TypeError) as exc:
            raise self._bad_row("wom_browser_sessions", row[0], str(exc)) from None
        except BrowserSignInRefused as exc:
            raise self._bad_row("wom_browser_sessions", row[0], exc.reason) from None

    def use_browser_session(self, token_hash: str, now: datetime | None = None) -> BrowserSession | None:
        """The unexpired session holding ``token_hash``, its "last used" moved on when over a minute old; or None."""
        now = now or datetime.now(timezone.utc)
        rows = self._read(f"SELECT {self._SESSION_COLUMNS} WHERE s.token_hash = %s AND s.expires > %s",
                          (token_hash, now))
        if not rows:
            return None
        found = self._session(rows[0])
        if not found.stale_use(now):
            return found
        moved = self._read("UPDATE wom_browser_sessions SET last_used = greatest(last_used, %s) "
                           "WHERE id = %s AND expires > %s RETURNING last_used", (now, found.id, now))
        return found.used_at(now) if moved else None  # revoked meanwhile

    def browser_sessions(self, name: str, now: datetime | None = None) -> list[BrowserSession]:
        """``name``'s unexpired browser sessions, oldest first."""
        now = now or datetime.now(timezone.utc)
        rows = self._read(f"SELECT {self._SESSION_COLUMNS} WHERE lower(u.name) = %s AND s.expires > %s "
                          "ORDER BY s.created, s.id", (name_key(name) if isinstance(name, str) else "", now))
        return [self._session(row) for row in rows]

    def revoke_browser_sessions(self, name: str, session_id: str | None = None) -> int:
        """End one of ``name``'s browser sessions, or all of them; how many ended (BrowserSignInRefused if none is
        ``session_id``).
        """
        if session_id is not None:
            check_session_id(session_id)

        def revoke(conn: psycopg.Connection[Any], attempt: int) -> int:
            row = conn.execute("SELECT id, name FROM wom_users WHERE lower(name) = %s",
                               (name_key(name) if isinstance(name, str) else "",)).fetchone()
            if row is None:
                raise BrowserSignInRefused(f"There is no user called {name}.")
            gone = conn.execute("DELETE FROM wom_browser_sessions WHERE user_id = %s AND (%s::text IS NULL OR id = %s)",
                                (row[0], session_id, session_id)).rowcount
            if session_id is not None and gone == 0 and attempt == 0:
                raise BrowserSignInRefused(f"{row[1]} has no browser session {session_id}.")
            # A code made in a revoked browser (a thief's `b`) must not sign another in: every unused one goes.
            conn.execute("DELETE FROM wom_browser_codes WHERE user_id = %s", (row[0],))
            return gone

        return self._transaction(revoke)

    # ---- moderation (docs/serve.md, *Moderating the arcade*): wom_bans, wom_retired

    def _ban(self, row: tuple[Any, ...]) -> Ban:
        try:
            return Ban(*row)
        except (ValueError, TypeError) as exc:
            raise self._bad_row("wom_bans", row[0], str(exc)) from None

    def bans(self) -> list[Ban]:
        """Every ban kept, expired ones included, in the order made."""
        return [self._ban(row) for row in self._read(
            "SELECT id, kind, target, reason, created, until FROM wom_bans ORDER BY seq")]

    def add_ban(self, ban: Ban) -> Ban:
        """Keep ``ban`` (a name ban only of a registered name, as registered)."""

        def add(conn: psycopg.Connection[Any], attempt: int) -> Ban:
            kept = ban
            if ban.kind == "name":
                row = conn.execute("SELECT name FROM wom_users WHERE lower(name) = %s", (name_key(ban.target),)).fetchone()
                if row is None:
                    raise ModerationRefused(f"there is no user called {ban.target!r}")
                kept = Ban(ban.id, ban.kind, row[0], ban.reason, ban.created, ban.until)
            conn.execute("INSERT INTO wom_bans (id, kind, target, reason, created, until) VALUES (%s, %s, %s, %s, %s, %s) "
                         "ON CONFLICT (id) DO NOTHING",
                         (kept.id, kept.kind, kept.target, kept.reason, kept.created, kept.until))
            return kept

        return self._transaction(add)

    def lift_bans(self, which: str) -> list[Ban]:
        """Lift the ban with the id ``which``, or every ban of that target; the bans lifted."""

        def lift(conn: psycopg.Connection[Any], attempt: int) -> list[Ban]:
            rows = conn.execute("SELECT id, kind, target, reason, created, until FROM wom_bans "
                                "ORDER BY seq FOR UPDATE").fetchall()
            gone = [ban for ban in (self._ban(row) for row in rows) if ban.answers_to(which)]
            if gone:
                conn.execute("DELETE FROM wom_bans WHERE id = ANY(%s)", ([ban.id for ban in gone],))
            return gone

        return self._transaction(lift)

    def retired(self) -> list[Retirement]:
        """Every retired name, in the order retired."""
        found = []
        for name, reason, at in self._read("SELECT name, reason, at FROM wom_retired ORDER BY seq"):
            try:
                found.append(Retirement(name, reason, at))
            except (ValueError, TypeError) as exc:
                raise self._bad_row("wom_retired", name, str(exc)) from None
            except NameRejected as exc:
                raise self._bad_row("wom_retired", name, exc.reason) from None
        return found

    def kick(self, kick: Kick) -> Kick:
        """Keep ``kick``; the kicks older than a minute go as it is written."""

        def keep(conn: psycopg.Connection[Any], attempt: int) -> Kick:
            conn.execute("DELETE FROM wom_kicks WHERE at <= %s", (kick.at - KICK_KEPT,))
            conn.execute("INSERT INTO wom_kicks (session, reason, at) VALUES (%s, %s, %s) ON CONFLICT (session) "
                         "DO UPDATE SET reason = EXCLUDED.reason, at = EXCLUDED.at", (kick.session, kick.reason, kick.at))
            return kick

        return self._transaction(keep)

    def kicks(self) -> list[Kick]:
        """The kicks kept, oldest first."""
        found = []
        for session, reason, at in self._read("SELECT session, reason, at FROM wom_kicks ORDER BY at, session"):
            try:
                found.append(Kick(session, reason, at))
            except (ValueError, TypeError) as exc:
                raise self._bad_row("wom_kicks", session, str(exc)) from None
        return found

    def broadcast(self) -> Broadcast | None:
        """The operator's line every session shows now, or None."""
        rows = self._read("SELECT text, by, at FROM wom_broadcast")
        if not rows:
            return None
        try:
            return Broadcast(*rows[0])
        except (ValueError, TypeError, ModerationRefused) as exc:
            raise self._bad_row("wom_broadcast", "the broadcast", getattr(exc, "reason", str(exc))) from None

    def set_broadcast(self, broadcast: Broadcast | None) -> None:
        """Show ``broadcast`` on every session, or clear it (None)."""

        def keep(conn: psycopg.Connection[Any], attempt: int) -> None:
            if broadcast is None:
                conn.execute("DELETE FROM wom_broadcast")
            else:
                conn.execute("INSERT INTO wom_broadcast (one, text, by, at) VALUES (true, %s, %s, %s) ON CONFLICT (one) "
                             "DO UPDATE SET text = EXCLUDED.text, by = EXCLUDED.by, at = EXCLUDED.at",
                             (broadcast.text, broadcast.by, broadcast.at))

        self._transaction(keep)

    def retire(self, name: str, reason: str, now: datetime | None = None) -> Retirement:
        """Retire the registered ``name``: its records stay, its name stays taken, its keys stop signing in."""
        now = now or datetime.now(timezone.utc)
        reason = check_reason(reason)

        def retire(conn: psycopg.Connection[Any], attempt: int) -> Retirement:
            row = conn.execute("SELECT name FROM wom_users WHERE lower(name) = %s",
                               (name_key(name) if isinstance(name, str) else "",)).fetchone()
            if row is None:
                raise ModerationRefused(f"there is no user called {name!r}")
            retirement = Retirement(row[0], reason, now)
            added = conn.execute("INSERT INTO wom_retired (name_key, name, reason, at) VALUES (%s, %s, %s, %s) "
                                 "ON CONFLICT (name_key) DO NOTHING", (name_key(row[0]), row[0], reason, now)).rowcount
            if not added and attempt == 0:
                raise ModerationRefused(f"{row[0]} is retired already")
            return retirement

        return self._transaction(retire)

    def record_game(self, record: GameRecord, *, game_id: str | None = None) -> str:
        """Keep a finished game; for World of Mastermind also add each user's points and +1 game.

        ``ValueError`` (and nothing written) if the record is invalid or names an unknown user.
        ``game_id`` (from :func:`new_game_id`) makes recording idempotent: a game already kept
        under that id is not recorded again (a live table retrying after a crash).
        Returns the game's id.
        """
        if not isinstance(record, GameRecord):
            raise TypeError("record_game needs a GameRecord")
        data = record.as_json()
        check_game_json(data)
        game_id = new_game_id() if game_id is None else check_game_id(game_id)
        return self._transaction(lambda conn, attempt: self._record_in(conn, record, game_id))

    @staticmethod
    def _record_in(conn: psycopg.Connection[Any], record: GameRecord, game_id: str) -> str:
        """Keep a checked game and apply its points in the caller's transaction (once per game id)."""
        # Fixed order (by folded name) so two games sharing players lock their rows in the same order.
        points = sorted((name_key(player.name), player.name, player.points)
                        for player in record.players if player.is_user)
        new = conn.execute(
            "INSERT INTO wom_games (id, kind, finished_at, record) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (id) DO NOTHING RETURNING id",
            (game_id, record.kind, record.finished_at, Jsonb(record.as_json()))).fetchone()
        if new is None:  # a retry after a cut COMMIT, or a table asking again: already kept
            return game_id
        PostgresStore._update_ratings(conn, game_id, record)
        if record.kind != "wom":
            return game_id
        for key, name, score in points:
            updated = conn.execute(
                "UPDATE wom_users SET score = score + %s, games = games + 1 WHERE lower(name) = %s",
                (score, key))
            if updated.rowcount != 1:
                raise ValueError(f"{name!r} is not a registered user")
        return game_id

    # ---- ratings (docs/play.md, *Ratings*): wom_ratings caches rate_games over wom_games

    @staticmethod
    def _update_ratings(conn: psycopg.Connection[Any], game_id: str, record: GameRecord) -> None:
        """Add the game just inserted to a cache that covered every game before it, in the same transaction
        (the row lock orders two games recorded at once); else leave the cache to be rebuilt on the next look.
        """
        row = conn.execute("SELECT games, book FROM wom_ratings FOR UPDATE").fetchone()
        if row is None:
            return
        kept = conn.execute("SELECT count(*) FROM wom_games").fetchone()
        if kept is None or row[0] != kept[0] - 1:
            return
        try:
            book = RatingBook.from_json(row[1])
        except ValueError:
            return
        rated = rated_game(GameSummary.of(game_id, record))
        if rated is not None:
            if rated.order <= book.through:
                return  # Recorded out of order: the next look rates every game again.
            book.apply(rated)
        conn.execute("UPDATE wom_ratings SET games = %s, book = %s", (kept[0], Jsonb(book.as_json())))

    def rating_book(self) -> RatingBook:
        """The ratings after every game kept (from the cache, or rated from the games if it is out of date)."""
        rows = self._read("SELECT r.games, r.book, (SELECT count(*) FROM wom_games) FROM wom_ratings r")
        if rows and rows[0][0] == rows[0][2]:
            try:
                return RatingBook.from_json(rows[0][1])
            except ValueError:
                pass
        return self.rebuild_ratings()

    def rebuild_ratings(self) -> RatingBook:
        """Rate every game again (a damaged row is left out), keep the result and return it."""
        summaries, left_out = self.game_summaries()
        book = rate_games(summaries)
        covered = len(summaries) + len(left_out)

        def keep(conn: psycopg.Connection[Any], _: int) -> None:
            conn.execute("LOCK TABLE wom_ratings IN EXCLUSIVE MODE")
            kept = conn.execute("SELECT count(*) FROM wom_games").fetchone()
            if kept is not None and kept[0] == covered:
                conn.execute("INSERT INTO wom_ratings (games, book) VALUES (%s, %s) ON CONFLICT (one) "
                             "DO UPDATE SET games = excluded.games, book = excluded.book",
                             (covered, Jsonb(book.as_json())))

        self._transaction(keep)
        return book

    # ---- a solo game in progress, per identity

    def solo_in_progress(self, identity: str) -> dict[str, Any] | None:
        """The solo game ``identity`` left unfinished (:meth:`.solo.SoloGame.as_json` data), or None;
        a :class:`DatabaseError` naming a damaged row (the next game of that identity replaces it).
        """
        check_identity(identity)
        rows = self._read("SELECT game FROM wom_solo_games WHERE identity = %s", (identity,))
        if not rows:
            return None
        try:
            return check_kept_json(rows[0][0])
        except (ValueError, TypeError, KeyError) as exc:
            raise self._bad_row("wom_solo_games", identity, str(exc)) from None

    def keep_solo(self, identity: str, game: dict[str, Any]) -> None:
        """Keep ``game`` as ``identity``'s solo game in progress, replacing any; ``ValueError`` if it is not one."""
        check_identity(identity)
        data = check_kept_json(game)
        self._transaction(lambda conn, _: conn.execute(
            "INSERT INTO wom_solo_games (identity, game) VALUES (%s, %s) "
            "ON CONFLICT (identity) DO UPDATE SET game = EXCLUDED.game, updated_at = now()",
            (identity, Jsonb(data))))

    def drop_solo(self, identity: str) -> None:
        """Forget ``identity``'s solo game in progress (it ended, or was abandoned on purpose)."""
        check_identity(identity)
        self._transaction(lambda conn, _: conn.execute("DELETE FROM wom_solo_games WHERE identity = %s", (identity,)))

    def submit_hall_entry(self, entry: HallEntry) -> bool:
        """Make ``entry`` the record for its ruleset if it beats the current one; True if it did."""
        if not isinstance(entry, HallEntry):
            raise TypeError("submit_hall_entry needs a HallEntry")

        def submit(conn: psycopg.Connection[Any], attempt: int) -> bool:
            # Fewer guesses win; a tie keeps the earlier holder. One statement, so it is atomic.
            row = conn.execute(
                "INSERT INTO wom_hall_of_fame AS h (ruleset, entry) VALUES (%s, %s) "
                "ON CONFLICT (ruleset) DO UPDATE SET entry = EXCLUDED.entry "
                "WHERE (EXCLUDED.entry->>'guesses')::int < (h.entry->>'guesses')::int "
                "RETURNING entry", (entry.ruleset.key, Jsonb(entry.as_json()))).fetchone()
            if row is None and attempt:
                # Our own first try may have set it before the connection was cut.
                held = conn.execute("SELECT entry FROM wom_hall_of_fame WHERE ruleset = %s",
                                    (entry.ruleset.key,)).fetchone()
                return held is not None and held[0] == entry.as_json()
            return row is not None

        return self._transaction(submit)

    # ---- preferences, statistics, replays and the daily code (as the data folder keeps them)

    def theme(self, identity: str) -> str | None:
        """The theme ``identity`` chose last (``"local"`` on one machine; a key over SSH), or ``None``."""
        check_identity(identity)
        rows = self._read("SELECT theme FROM wom_preferences WHERE identity = %s", (identity,))
        if not rows:
            return None
        try:
            return check_theme_name(rows[0][0])
        except ValueError as exc:
            raise self._bad_row("wom_preferences", identity, str(exc)) from None

    def set_theme(self, identity: str, theme: str) -> None:
        """Remember ``theme`` for ``identity`` (one statement)."""
        check_identity(identity)
        check_theme_name(theme)
        self._transaction(lambda conn, _: conn.execute(
            "INSERT INTO wom_preferences (identity, theme) VALUES (%s, %s) "
            "ON CONFLICT (identity) DO UPDATE SET theme = EXCLUDED.theme", (identity, theme)))

    def rush_bests(self) -> dict[str, RushScore]:
        """Every identity's best Rush (``StoreError`` naming a damaged row)."""
        bests = {}
        for identity, score in self._read("SELECT identity, score FROM wom_rush_bests ORDER BY identity"):
            try:
                bests[identity] = RushScore.from_json(score)
            except ValueError as exc:
                raise self._bad_row("wom_rush_bests", identity, str(exc)) from None
        return bests

    def rush_best(self, identity: str) -> RushScore | None:
        """``identity``'s best Rush, or None."""
        check_identity(identity)
        rows = self._read("SELECT score FROM wom_rush_bests WHERE identity = %s", (identity,))
        if not rows:
            return None
        try:
            return RushScore.from_json(rows[0][0])
        except ValueError as exc:
            raise self._bad_row("wom_rush_bests", identity, str(exc)) from None

    def submit_rush(self, identity: str, score: RushScore) -> bool:
        """Keep ``score`` if it beats ``identity``'s best; True if it did."""
        check_identity(identity)

        def submit(conn: psycopg.Connection[Any], _: int) -> bool:
            # One statement: a new best is written, a kept one replaced only by a better one (more codes, then
            # fewer guesses: RushScore.beats), two submits at once decided by the row's lock.
            row = conn.execute(
                "INSERT INTO wom_rush_bests (identity, score) VALUES (%s, %s) ON CONFLICT (identity) DO UPDATE "
                "SET score = EXCLUDED.score WHERE ((EXCLUDED.score->>'broken')::int, -(EXCLUDED.score->>'guesses')::int)"
                " > ((wom_rush_bests.score->>'broken')::int, -(wom_rush_bests.score->>'guesses')::int) RETURNING 1",
                (identity, Jsonb(score.as_json()))).fetchone()
            return row is not None
        return self._transaction(submit)

    def choices(self, identity: str, form: str) -> dict[str, Any]:
        """What ``identity`` chose last on ``form`` (``{}`` if none; a damaged row reads as none)."""
        check_identity(identity)
        check_form_name(form)
        rows = self._read("SELECT choices FROM wom_choices WHERE identity = %s AND form = %s", (identity, form))
        if not rows:
            return {}
        try:
            return check_choices(rows[0][0])
        except ValueError:
            return {}  # a comfort: the form shows its defaults, and the next choice replaces the row

    def set_choices(self, identity: str, form: str, values: dict[str, Any]) -> None:
        """Remember ``identity``'s choices on ``form`` (one statement)."""
        check_identity(identity)
        check_form_name(form)
        values = check_choices(values)
        self._transaction(lambda conn, _: conn.execute(
            "INSERT INTO wom_choices (identity, form, choices) VALUES (%s, %s, %s) "
            "ON CONFLICT (identity, form) DO UPDATE SET choices = EXCLUDED.choices",
            (identity, form, Jsonb(values))))

    def game(self, game_id: str) -> GameRecord:
        """One finished game, read and validated in full; :class:`DatabaseError` if missing or damaged."""
        if not isinstance(game_id, str) or GAME_ID.fullmatch(game_id) is None:
            raise DatabaseError(self.database, f"{game_id!r} is not a game id")
        rows = self._read("SELECT kind, record FROM wom_games WHERE id = %s", (game_id,))
        if not rows:
            raise DatabaseError(self.database, f"there is no such game {game_id}")
        return self._game(game_id, *rows[0])

    def game_summaries(self) -> tuple[list[GameSummary], list[StoreError]]:
        """A summary of every finished game (oldest first), and the rows that had to be left out.

        A bad row never stops the rest: it is left out, named in the second list, and not touched.
        """
        summaries: list[GameSummary] = []
        left_out: list[StoreError] = []
        reader = SummaryReader()
        # The summary column (migration 14), not the records: no guesses to read and check again. They were
        # checked as the game was recorded; a row whose summary does not read is read whole, and refused
        # with the reason if the record is bad (a replay reads every record whole).
        with collector_paused():  # (see collector_paused: many objects, no cycles)
            rows = self._read("SELECT id, kind, summary FROM wom_games")
            for game_id, kind, summary in rows:
                try:
                    summaries.append(reader.summary(game_id, kind, summary))
                except (ValueError, TypeError, KeyError):
                    try:
                        summaries.append(GameSummary.of(game_id, self.game(game_id)))
                    except DatabaseError as error:
                        left_out.append(error)
        summaries.sort(key=attrgetter("finished_at", "game_id"))
        return summaries, left_out

    def daily_secret(self) -> bytes:
        """The arcade's daily secret, made (32 random bytes) by the first session that needs it."""
        import secrets

        # Not from the seeded RNG on purpose: with a known --seed the codes could be computed.
        fresh = secrets.token_bytes(SECRET_BYTES).hex()

        def made(conn: psycopg.Connection[Any], _: int) -> Any:
            conn.execute("INSERT INTO wom_daily_secret (secret) VALUES (%s) ON CONFLICT DO NOTHING", (fresh,))
            return conn.execute("SELECT secret FROM wom_daily_secret").fetchone()[0]  # type: ignore[index]

        secret = self._transaction(made)
        try:
            return decode_secret({"schema": 1, "secret": secret})
        except ValueError as exc:
            raise self._bad_row("wom_daily_secret", "secret", str(exc)) from None

    def _attempt_rows(self, rows: list[tuple[Any, ...]]) -> list[DailyAttempt]:
        attempts = []
        for seq, data in rows:
            try:
                attempts.append(DailyAttempt.from_json(data))
            except (ValueError, TypeError) as exc:
                raise self._bad_row("wom_daily_attempts", seq, str(exc)) from None
        return attempts

    def daily_attempts(self) -> list[DailyAttempt]:
        """Every daily attempt kept, day by day (for ``wom-tui store copy``)."""
        return self._attempt_rows(self._read("SELECT seq, attempt FROM wom_daily_attempts ORDER BY day, seq"))

    def daily_attempts_of(self, player: str) -> list[DailyAttempt]:
        """Every attempt of ``player`` (case ignored), oldest day first, through the by-player index."""
        return self._attempt_rows(self._read(
            "SELECT seq, attempt FROM wom_daily_attempts WHERE player_key = %s ORDER BY day, seq",
            (name_key(player),)))

    def daily_attempts_on(self, day: str) -> list[DailyAttempt]:
        """The attempts of one UTC day (``YYYY-MM-DD``), through the table's index."""
        return self._attempt_rows(self._read(
            "SELECT seq, attempt FROM wom_daily_attempts WHERE day = %s ORDER BY seq", (day,)))

    def start_daily(self, attempt: DailyAttempt) -> None:
        """Record that ``attempt.player`` started a daily puzzle (at their first guess): one row inserted.

        :class:`~wom_tui.domain.daily.DailyRefused` (and nothing written) if that name, or the key that
        started it, already has an attempt at that puzzle on that day, even one started a moment ago on
        another server: starts of one puzzle and day go one at a time (a transaction's advisory lock),
        and the table's unique indexes hold the rule too.
        """
        if not isinstance(attempt, DailyAttempt):
            raise TypeError("start_daily needs a DailyAttempt")

        def start(conn: psycopg.Connection[Any], _: int) -> None:
            conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                         (DAILY_LOCK, f"{attempt.day}:{attempt.puzzle}"))
            rows = conn.execute(
                "SELECT seq, attempt FROM wom_daily_attempts WHERE day = %s AND puzzle = %s "
                "AND (player_key = %s OR key = %s)",
                (attempt.day, attempt.puzzle, name_key(attempt.player), attempt.key)).fetchall()
            check_start(self._attempt_rows(rows), attempt)
            self._insert_attempt(conn, attempt)

        self._transaction(start)

    def finish_daily(
        self, day: str, puzzle: str, player: str, *, finished_at: str, guesses: int, broke: bool, game_id: str | None
    ) -> None:
        """Record how ``player``'s started attempt ended (its one row); ``DailyRefused`` if none is under way."""
        def finish(conn: psycopg.Connection[Any], _: int) -> None:
            rows = conn.execute(
                "SELECT seq, attempt FROM wom_daily_attempts WHERE day = %s AND puzzle = %s AND player_key = %s "
                "FOR UPDATE", (day, puzzle, name_key(player))).fetchall()
            (attempt,) = finished_attempts(self._attempt_rows(rows), day, puzzle, player, finished_at=finished_at,
                                           guesses=guesses, broke=broke, game_id=game_id)
            conn.execute("UPDATE wom_daily_attempts SET attempt = %s WHERE day = %s AND puzzle = %s "
                         "AND player_key = %s", (Jsonb(attempt.as_json()), day, puzzle, name_key(player)))

        self._transaction(finish)

    @staticmethod
    def _insert_attempt(conn: psycopg.Connection[Any], attempt: DailyAttempt) -> None:
        conn.execute(
            "INSERT INTO wom_daily_attempts (day, puzzle, player_key, key, attempt) VALUES (%s, %s, %s, %s, %s)",
            (attempt.day, attempt.puzzle, name_key(attempt.player), attempt.key, Jsonb(attempt.as_json())))

    # ---- copying whole arcades (wom-tui store copy)

    def is_empty(self) -> bool:
        """True when nothing of an arcade is kept yet (no user, game, hall-of-fame record, theme or daily data)."""
        return self._read(_COUNT_ARCADE)[0][0] == 0

    def totals(self) -> dict[str, int]:
        """What :meth:`..api.Arcade.totals` counts, counted by the database in one query (no row decoded)."""
        row = self._read(
            "SELECT (SELECT count(*) FROM wom_users), (SELECT coalesce(sum(score), 0) FROM wom_users), "
            "(SELECT coalesce(sum(games), 0) FROM wom_users), (SELECT count(*) FROM wom_user_keys), "
            "(SELECT count(*) FROM wom_hall_of_fame), (SELECT count(*) FROM wom_games), "
            "(SELECT count(*) FROM wom_games WHERE kind = 'wom'), (SELECT count(*) FROM wom_preferences), "
            "(SELECT count(*) FROM wom_daily_attempts), "
            "(SELECT count(*) FROM wom_daily_secret), (SELECT count(*) FROM wom_browser_sessions), "
            "(SELECT count(*) FROM wom_bans), (SELECT count(*) FROM wom_retired), (SELECT count(*) FROM wom_choices), "
            "(SELECT count(*) FROM wom_arenas), "
            "(SELECT coalesce(sum(jsonb_array_length(arena->'games')), 0) FROM wom_arenas), "
            "(SELECT count(*) FROM wom_rush_bests)")[0]
        labels = ("users", "points", "games played", "SSH keys", "hall of fame records", "game records",
                  "World of Mastermind records", "theme choices", "daily attempts", "daily secrets",
                  "browser sessions", "bans", "retired names", "remembered choices", "arenas", "arena games",
                  "Rush bests")
        return dict(zip(labels, (int(value) for value in row)))

    def themes(self) -> dict[str, str]:
        """The theme each identity chose (for ``wom-tui store copy``)."""
        themes = {}
        for identity, theme in self._read("SELECT identity, theme FROM wom_preferences ORDER BY identity"):
            try:
                themes[check_identity(identity)] = check_theme_name(theme)
            except ValueError as exc:
                raise self._bad_row("wom_preferences", identity, str(exc)) from None
        return themes

    def all_choices(self) -> dict[str, dict[str, dict[str, Any]]]:
        """The choices each identity remembers, per form (damaged rows left out, as :meth:`choices` reads them)."""
        kept: dict[str, dict[str, dict[str, Any]]] = {}
        for identity, form, values in self._read("SELECT identity, form, choices FROM wom_choices "
                                                 "ORDER BY identity, form"):
            try:
                kept.setdefault(check_identity(identity), {})[check_form_name(form)] = check_choices(values)
            except ValueError:
                continue
        return {identity: forms for identity, forms in kept.items() if forms}

    def daily_secret_kept(self) -> bytes | None:
        """The daily secret if one was made (never makes one; for ``wom-tui store copy``)."""
        rows = self._read("SELECT secret FROM wom_daily_secret")
        if not rows:
            return None
        try:
            return decode_secret({"schema": 1, "secret": rows[0][0]})
        except ValueError as exc:
            raise self._bad_row("wom_daily_secret", "secret", str(exc)) from None

    def all_browser_sessions(self) -> list[BrowserSession]:
        """Every browser session kept, expired or not, oldest first (for ``wom-tui store copy``)."""
        return [self._session(row) for row in self._read(f"SELECT {self._SESSION_COLUMNS} ORDER BY s.created, s.id")]

    def load(self, arcade: Arcade) -> None:
        """Fill an empty database with exactly this arcade (:class:`..api.Arcade`), in one transaction.

        Points are taken as they are (not recomputed from the games). Pending one-time codes are not
        copied: they live ten minutes, and a player asks for a new one; browser sessions are.
        ``DatabaseError`` if anything
        is kept already: a copy never merges.
        """
        users, hall, games = arcade.users, arcade.hall, arcade.games

        def fill(conn: psycopg.Connection[Any], attempt: int) -> None:
            for table in ARCADE_TABLES:
                conn.execute(sql.SQL("LOCK TABLE {} IN EXCLUSIVE MODE").format(sql.Identifier(table)))
            count = conn.execute(_COUNT_ARCADE).fetchone()
            if count and count[0]:
                raise DatabaseError(self.database, "the database already holds an arcade; a copy only "
                                                   "goes into an empty one")
            with conn.cursor() as cur:
                with cur.copy("COPY wom_users (name, score, games, look_exempt) FROM STDIN") as copy:
                    looks: set[str] = set()
                    for user in users:  # (look-alikes registered before they were refused: the first keeps the name)
                        folded = fold_name(user.name)
                        copy.write_row((user.name, user.score, user.games, folded in looks))
                        looks.add(folded)
                ids = dict(conn.execute("SELECT lower(name), id FROM wom_users").fetchall())
                with cur.copy("COPY wom_user_keys (fingerprint, user_id) FROM STDIN") as copy:
                    for user in users:
                        for key in user.keys:
                            copy.write_row((key, ids[name_key(user.name)]))
                with cur.copy("COPY wom_games (id, kind, finished_at, record) FROM STDIN") as copy:
                    for game_id, record in games:
                        copy.write_row((game_id, record.kind, record.finished_at, Jsonb(record.as_json())))
                with cur.copy("COPY wom_hall_of_fame (ruleset, entry) FROM STDIN") as copy:
                    for entry in hall.entries():
                        copy.write_row((entry.ruleset.key, Jsonb(entry.as_json())))
                with cur.copy("COPY wom_preferences (identity, theme) FROM STDIN") as copy:
                    for identity, theme in arcade.themes.items():
                        copy.write_row((identity, theme))
                with cur.copy("COPY wom_choices (identity, form, choices) FROM STDIN") as copy:
                    for identity, forms in arcade.choices.items():
                        for form, values in forms.items():
                            copy.write_row((identity, form, Jsonb(values)))
                with cur.copy("COPY wom_browser_sessions (id, token_hash, user_id, created, last_used, expires, "
                              "address) FROM STDIN") as copy:
                    for session in arcade.browser_sessions:
                        if name_key(session.name) not in ids:
                            raise DatabaseError(self.database, f"browser session {session.id} belongs to "
                                                               f"{session.name!r}, who is not a user")
                        copy.write_row((session.id, session.token_hash, ids[name_key(session.name)], session.created,
                                        session.last_used, session.expires, session.address))
            for ban in arcade.bans:
                conn.execute("INSERT INTO wom_bans (id, kind, target, reason, created, until) "
                             "VALUES (%s, %s, %s, %s, %s, %s)", (ban.id, ban.kind, ban.target, ban.reason, ban.created, ban.until))
            for retirement in arcade.retired:
                conn.execute("INSERT INTO wom_retired (name_key, name, reason, at) VALUES (%s, %s, %s, %s)",
                             (name_key(retirement.name), retirement.name, retirement.reason, retirement.at))
            if arcade.daily_secret is not None:
                conn.execute("INSERT INTO wom_daily_secret (secret) VALUES (%s)", (arcade.daily_secret.hex(),))
            for daily in arcade.daily:
                self._insert_attempt(conn, daily)
            for arena in arcade.arenas:
                conn.execute("INSERT INTO wom_arenas (arena_id, starts_at, arena) VALUES (%s, %s, %s)",
                             (arena.arena_id, arena.starts_at, Jsonb(arena.as_json())))
            for identity, score in arcade.rush_bests.items():
                conn.execute("INSERT INTO wom_rush_bests (identity, score) VALUES (%s, %s)",
                             (identity, Jsonb(score.as_json())))

        self._transaction(fill)


ARCADE_TABLES = ("wom_users", "wom_games", "wom_hall_of_fame", "wom_preferences", "wom_daily_attempts",
                 "wom_daily_secret", "wom_bans", "wom_retired", "wom_choices", "wom_arenas", "wom_rush_bests")
"""The tables a copied arcade fills (keys and links hang off wom_users)."""
_COUNT_ARCADE = "SELECT " + " + ".join(f"(SELECT count(*) FROM {table})" for table in ARCADE_TABLES)


def migrate_database(url: str) -> tuple[int, list[Migration]]:
    """Apply missing migrations to the database at ``url``; (its version now, the ones applied)."""
    store = PostgresStore(url)
    store.close()
    return store.version, store.applied


__all__ = ["ATTEMPTS", "PostgresStore", "migrate_database"]
