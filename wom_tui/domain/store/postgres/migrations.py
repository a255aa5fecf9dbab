"""The PostgreSQL store's schema, version by version, and applying what a database lacks.

Opening a store applies the missing migrations under an advisory lock, so servers starting together
migrate once; ``wom-tui store migrate`` does the same explicitly. Later versions append to
:data:`MIGRATIONS`, never edit an applied one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg

from .errors import DatabaseError

MIGRATION_LOCK = 0x574F4D  # "WOM": the advisory lock migrations take, so only one server migrates.


def fold_sql(expression: str) -> str:
    """SQL folding the name ``expression`` as ``domain.users.fold_name`` does (names are ASCII):
    lower case, letters and digits only, look-alike characters made one (``users.LOOKALIKES``).
    """
    return (f"translate(regexp_replace(lower({expression}), '[^a-z0-9]', '', 'g'), "
            "'0123456789i', 'olzeasgtbql')")


@dataclass(frozen=True)
class Migration:
    """One step of the schema: its version, what it adds, and the SQL that adds it."""

    version: int
    description: str
    statements: tuple[str, ...]


LIVE_STATEMENTS: tuple[str, ...] = (
    """CREATE TABLE wom_tables (
           id text COLLATE "C" PRIMARY KEY,
           state jsonb NOT NULL,
           updated_at timestamptz NOT NULL DEFAULT now()
       )""",
    """CREATE TABLE wom_damaged_tables (
           id text COLLATE "C" NOT NULL,
           state jsonb,
           reason text NOT NULL,
           moved_at timestamptz NOT NULL DEFAULT now()
       )""",
    """CREATE TABLE wom_presence (
           session text COLLATE "C" PRIMARY KEY,
           name text NOT NULL,
           registered boolean NOT NULL,
           since double precision NOT NULL,
           seen timestamptz NOT NULL DEFAULT now()
       )""",
    """CREATE FUNCTION wom_notify_live() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
           IF TG_TABLE_NAME = 'wom_tables' THEN
               IF TG_OP = 'DELETE' THEN
                   PERFORM pg_notify('wom_live', TG_TABLE_SCHEMA || ' t ' || OLD.id);
               ELSE
                   PERFORM pg_notify('wom_live', TG_TABLE_SCHEMA || ' t ' || NEW.id);
               END IF;
           ELSIF TG_TABLE_NAME = 'wom_presence' THEN
               PERFORM pg_notify('wom_live', TG_TABLE_SCHEMA || ' p');
           ELSE
               PERFORM pg_notify('wom_live', TG_TABLE_SCHEMA || ' s');
           END IF;
           RETURN NULL;
       END $$""",
    """CREATE TRIGGER wom_tables_notify AFTER INSERT OR UPDATE OR DELETE ON wom_tables
       FOR EACH ROW EXECUTE FUNCTION wom_notify_live()""",
    # A heartbeat only sets `seen`: it wakes nobody.
    """CREATE TRIGGER wom_presence_notify AFTER INSERT OR DELETE OR UPDATE OF name, registered, since
       ON wom_presence FOR EACH ROW EXECUTE FUNCTION wom_notify_live()""",
    """CREATE TRIGGER wom_users_notify AFTER INSERT OR UPDATE OR DELETE ON wom_users
       FOR EACH STATEMENT EXECUTE FUNCTION wom_notify_live()""",
    """CREATE TRIGGER wom_games_notify AFTER INSERT OR UPDATE OR DELETE ON wom_games
       FOR EACH STATEMENT EXECUTE FUNCTION wom_notify_live()""",
)
"""Migration 3: live tables, presence and the change feed (see :mod:`.live`)."""

SUMMARY_FIELDS = (("names", "name"), ("users", "is_user"), ("broke", "broke"), ("attempts", "attempts"),
                  ("breaking", "breaking"), ("making", "making"))
"""The summary column's lists (one value per player) and the record's player field each comes from."""


def _summary_sql() -> str:
    """The record without its players, with one list per player field (jsonb_set and jsonpath are immutable,
    as a generated column needs; jsonb_build_object is not).
    """
    expression = "record - 'players'"
    for key, field in SUMMARY_FIELDS:
        expression = f"jsonb_set({expression}, '{{{key}}}', jsonb_path_query_array(record, '$.players[*].{field}'))"
    return expression


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "users, finished games and the hall of fame", (
        """CREATE TABLE wom_users (
               id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
               name text NOT NULL,
               score bigint NOT NULL DEFAULT 0 CHECK (score >= 0),
               games bigint NOT NULL DEFAULT 0 CHECK (games >= 0),
               registration uuid UNIQUE,
               registered_at timestamptz NOT NULL DEFAULT now()
           )""",
        "CREATE UNIQUE INDEX wom_users_folded_name ON wom_users (lower(name))",
        """CREATE TABLE wom_games (
               id text COLLATE "C" PRIMARY KEY,
               kind text NOT NULL,
               finished_at text NOT NULL,
               record jsonb NOT NULL
           )""",
        """CREATE TABLE wom_hall_of_fame (
               ruleset text COLLATE "C" PRIMARY KEY,
               entry jsonb NOT NULL
           )""",
    )),
    Migration(2, "SSH key fingerprints per user and one-time link codes", (
        # The primary key makes a fingerprint belong to one user at most, whichever server binds it.
        """CREATE TABLE wom_user_keys (
               fingerprint text COLLATE "C" PRIMARY KEY,
               user_id bigint NOT NULL REFERENCES wom_users (id) ON DELETE CASCADE,
               seq bigint GENERATED ALWAYS AS IDENTITY
           )""",
        "CREATE INDEX wom_user_keys_by_user ON wom_user_keys (user_id, seq)",
        # Only the code's hash is kept, as in links.json; a code is used up by deleting its row.
        """CREATE TABLE wom_links (
               code_hash text COLLATE "C" PRIMARY KEY,
               user_id bigint NOT NULL REFERENCES wom_users (id) ON DELETE CASCADE,
               expires timestamptz NOT NULL
           )""",
    )),
    Migration(3, "live tables, presence heartbeats and the LISTEN/NOTIFY change feed", LIVE_STATEMENTS),
    Migration(4, "theme preferences, the daily code's secret and its attempts", (
        """CREATE TABLE wom_preferences (
               identity text COLLATE "C" PRIMARY KEY,
               theme text NOT NULL
           )""",
        # One row each (the key is always true), as the data folder's daily_secret.json and daily.json;
        # every change to the attempts locks the row, so two sessions cannot both start one puzzle.
        """CREATE TABLE wom_daily_secret (
               one boolean PRIMARY KEY DEFAULT true CHECK (one),
               secret text NOT NULL
           )""",
        """CREATE TABLE wom_daily (
               one boolean PRIMARY KEY DEFAULT true CHECK (one),
               attempts jsonb NOT NULL
           )""",
    )),
    Migration(5, "a solo game in progress per identity, to resume it after a crash", (
        """CREATE TABLE wom_solo_games (
               identity text COLLATE "C" PRIMARY KEY,
               game jsonb NOT NULL,
               updated_at timestamptz NOT NULL DEFAULT now()
           )""",
    )),
    Migration(6, "one-time codes that sign a browser in, and browser sessions (their tokens' hashes)", (
        # As wom_links, but apart: a code made to link a key never signs a browser in, nor the reverse.
        """CREATE TABLE wom_browser_codes (
               code_hash text COLLATE "C" PRIMARY KEY,
               user_id bigint NOT NULL REFERENCES wom_users (id) ON DELETE CASCADE,
               expires timestamptz NOT NULL
           )""",
        # Only the SHA-256 of a session's token is kept; the id is public (shown to revoke by).
        """CREATE TABLE wom_browser_sessions (
               id text COLLATE "C" PRIMARY KEY,
               token_hash text COLLATE "C" NOT NULL UNIQUE,
               user_id bigint NOT NULL REFERENCES wom_users (id) ON DELETE CASCADE,
               created timestamptz NOT NULL,
               last_used timestamptz NOT NULL,
               expires timestamptz NOT NULL,
               address text NOT NULL
           )""",
        "CREATE INDEX wom_browser_sessions_by_user ON wom_browser_sessions (user_id, created)",
    )),
    Migration(7, "daily attempts one row each, one per name and per SSH key, puzzle and day", (
        # A start reads and writes only its day's rows (the index), never every attempt kept.
        """CREATE TABLE wom_daily_attempts (
               day date NOT NULL,
               puzzle text COLLATE "C" NOT NULL,
               player_key text COLLATE "C" NOT NULL,
               key text COLLATE "C",
               attempt jsonb NOT NULL,
               seq bigint GENERATED ALWAYS AS IDENTITY,
               PRIMARY KEY (day, puzzle, player_key)
           )""",
        """CREATE UNIQUE INDEX wom_daily_attempts_by_key ON wom_daily_attempts (day, puzzle, key)
           WHERE key IS NOT NULL""",
        # Names are ASCII (users.check_name), so lower() is the name's casefold().
        """INSERT INTO wom_daily_attempts (day, puzzle, player_key, attempt)
           SELECT (item.a ->> 'day')::date, item.a ->> 'puzzle', lower(item.a ->> 'player'), item.a
           FROM wom_daily, jsonb_array_elements(wom_daily.attempts) WITH ORDINALITY AS item(a, n)
           ORDER BY item.n""",
        "DROP TABLE wom_daily",
    )),
    Migration(8, "moderation: bans (a name, a key or an address range) and retired names", (
        """CREATE TABLE wom_bans (
               id text COLLATE "C" PRIMARY KEY,
               kind text COLLATE "C" NOT NULL CHECK (kind IN ('name', 'key', 'address')),
               target text COLLATE "C" NOT NULL,
               reason text NOT NULL,
               created timestamptz NOT NULL,
               until timestamptz,
               seq bigint GENERATED ALWAYS AS IDENTITY
           )""",
        """CREATE TABLE wom_retired (
               name_key text COLLATE "C" PRIMARY KEY,
               name text NOT NULL,
               reason text NOT NULL,
               at timestamptz NOT NULL,
               seq bigint GENERATED ALWAYS AS IDENTITY
           )""",
        # Every server sharing the database judges its sessions again at once (docs/serve.md).
        """CREATE FUNCTION wom_notify_moderation() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN
               PERFORM pg_notify('wom_live', TG_TABLE_SCHEMA || ' m');
               RETURN NULL;
           END $$""",
        """CREATE TRIGGER wom_bans_notify AFTER INSERT OR UPDATE OR DELETE ON wom_bans
           FOR EACH STATEMENT EXECUTE FUNCTION wom_notify_moderation()""",
        """CREATE TRIGGER wom_retired_notify AFTER INSERT OR UPDATE OR DELETE ON wom_retired
           FOR EACH STATEMENT EXECUTE FUNCTION wom_notify_moderation()""",
    )),
    Migration(9, "the quick-match queue: one row per waiting (or just seated) player, the last wave", (
        """CREATE TABLE wom_match_queue (
               session text COLLATE "C" PRIMARY KEY,
               ticket jsonb NOT NULL
           )""",
        # One row: a wave locks it (FOR UPDATE), so one server at a time changes the queue.
        """CREATE TABLE wom_match_wave (
               one boolean PRIMARY KEY DEFAULT true CHECK (one),
               last_wave double precision NOT NULL DEFAULT 0
           )""",
        "INSERT INTO wom_match_wave DEFAULT VALUES",
        # On the live change feed ("<schema> q"): a queue change wakes the waiting players' screens.
        """CREATE FUNCTION wom_notify_queue() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN
               PERFORM pg_notify('wom_live', TG_TABLE_SCHEMA || ' q');
               RETURN NULL;
           END $$""",
        """CREATE TRIGGER wom_match_queue_notify AFTER INSERT OR UPDATE OR DELETE ON wom_match_queue
           FOR EACH STATEMENT EXECUTE FUNCTION wom_notify_queue()""",
    )),
    Migration(10, "names unique by how they look (case, spaces, punctuation and look-alikes folded)", (
        "ALTER TABLE wom_users ADD COLUMN look_exempt boolean NOT NULL DEFAULT false",
        # Names registered before look-alikes were refused may share a folded name: the first keeps it,
        # the later ones are exempt from the index (and still open); a new name that looks like any of
        # them meets the first.
        f"""UPDATE wom_users u SET look_exempt = true
            FROM (SELECT id, row_number() OVER (PARTITION BY {fold_sql("name")} ORDER BY id) AS n
                  FROM wom_users) f
            WHERE u.id = f.id AND f.n > 1""",
        f"CREATE UNIQUE INDEX wom_users_name_looks ON wom_users (({fold_sql('name')})) WHERE NOT look_exempt",
    )),
    Migration(11, "the ratings cache: the rating book after the games it covers", (
        # One row (the key is always true), as the data folder's ratings.json: only a cache of
        # rate_games over wom_games (docs/play.md, *Ratings*); `wom-tui ratings rebuild` writes it again.
        """CREATE TABLE wom_ratings (
               one boolean PRIMARY KEY DEFAULT true CHECK (one),
               games bigint NOT NULL,
               book jsonb NOT NULL
           )""",
    )),
    Migration(12, "each identity's remembered choices per form, and a player's daily attempts by name", (
        """CREATE TABLE wom_choices (
               identity text COLLATE "C" NOT NULL,
               form text COLLATE "C" NOT NULL,
               choices jsonb NOT NULL,
               PRIMARY KEY (identity, form)
           )""",
        # A streak reads one player's attempts, never every attempt kept.
        "CREATE INDEX wom_daily_attempts_by_player ON wom_daily_attempts (player_key, day)",
    )),
    Migration(13, "the Operator screen: sessions' whereabouts, kicks and the operator's broadcast line", (
        # What the Operator screen lists of each online session (docs/serve.md, *The Operator screen*).
        # A screen's change sets only these (the notify trigger fires on name, registered, since): it wakes nobody.
        "ALTER TABLE wom_presence ADD COLUMN address text, ADD COLUMN key text, "
        "ADD COLUMN transport text NOT NULL DEFAULT '', ADD COLUMN screen text NOT NULL DEFAULT ''",
        # A kick is kept a minute (every server ends the session within seconds); on the moderation feed.
        """CREATE TABLE wom_kicks (
               session text COLLATE "C" PRIMARY KEY,
               reason text NOT NULL,
               at timestamptz NOT NULL
           )""",
        # One row or none: the line every session shows.
        """CREATE TABLE wom_broadcast (
               one boolean PRIMARY KEY DEFAULT true CHECK (one),
               text text NOT NULL,
               by text NOT NULL,
               at timestamptz NOT NULL
           )""",
        """CREATE TRIGGER wom_kicks_notify AFTER INSERT OR UPDATE OR DELETE ON wom_kicks
           FOR EACH STATEMENT EXECUTE FUNCTION wom_notify_moderation()""",
        """CREATE TRIGGER wom_broadcast_notify AFTER INSERT OR UPDATE OR DELETE ON wom_broadcast
           FOR EACH STATEMENT EXECUTE FUNCTION wom_notify_moderation()""",
    )),
    Migration(14, "each game's summary, kept by PostgreSQL from its record: statistics and ratings read it", (
        # Where the game was played (hot_seat, table_id) and each player's line without the guesses, in the
        # order of the record's players: what GameSummary holds. Generated, so it always follows the
        # record; 100,000 games are read in about a second instead of every guess being read and checked
        # again (docs/perf/ratings.md). A record that is not an object has none (it is read whole, and
        # refused, as before).
        f"""ALTER TABLE wom_games ADD COLUMN summary jsonb GENERATED ALWAYS AS (
               CASE WHEN jsonb_typeof(record) = 'object' THEN {_summary_sql()} END) STORED""",
    )),
    Migration(15, "quick match remembers whom it paired lately (issue 34: a repeat pairing waits in a crowd)", (
        "ALTER TABLE wom_match_wave ADD COLUMN paired jsonb NOT NULL DEFAULT '[]'",
    )),
    Migration(16, "Code Arena (every arena, one document each) and each identity's best Rush", (
        # An arena and its games, kept whole (domain/arena.py); the newest is changed in one transaction that
        # locks its row (store/arenas.py). On the live feed as the queue is ("<schema> q").
        """CREATE TABLE wom_arenas (
               arena_id text COLLATE "C" PRIMARY KEY,
               starts_at double precision NOT NULL,
               arena jsonb NOT NULL
           )""",
        """CREATE TRIGGER wom_arenas_notify AFTER INSERT OR UPDATE OR DELETE ON wom_arenas
           FOR EACH STATEMENT EXECUTE FUNCTION wom_notify_queue()""",
        """CREATE TABLE wom_rush_bests (
               identity text COLLATE "C" PRIMARY KEY,
               score jsonb NOT NULL
           )""",
    )),
    Migration(17, "a table's NOTIFY says the version written: a hub that has it (it wrote it) reads nothing", (
        # "<schema> t <id> <version>" for a table written, "<schema> t <id>" for one removed (or a row that
        # is not a table: the reader finds out).
        """CREATE OR REPLACE FUNCTION wom_notify_live() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN
               IF TG_TABLE_NAME = 'wom_tables' THEN
                   IF TG_OP = 'DELETE' THEN
                       PERFORM pg_notify('wom_live', TG_TABLE_SCHEMA || ' t ' || OLD.id);
                   ELSIF jsonb_typeof(NEW.state -> 'version') = 'number' THEN
                       PERFORM pg_notify('wom_live', TG_TABLE_SCHEMA || ' t ' || NEW.id || ' '
                                                     || (NEW.state ->> 'version'));
                   ELSE
                       PERFORM pg_notify('wom_live', TG_TABLE_SCHEMA || ' t ' || NEW.id);
                   END IF;
               ELSIF TG_TABLE_NAME = 'wom_presence' THEN
                   PERFORM pg_notify('wom_live', TG_TABLE_SCHEMA || ' p');
               ELSE
                   PERFORM pg_notify('wom_live', TG_TABLE_SCHEMA || ' s');
               END IF;
               RETURN NULL;
           END $$""",
    )),
    # Later versions append here, never edit an applied one.
)
SCHEMA_VERSION = MIGRATIONS[-1].version


def schema_version(conn: psycopg.Connection[Any]) -> int:
    """The highest applied migration (0 on an empty database)."""
    exists = conn.execute("SELECT to_regclass('wom_migrations') IS NOT NULL").fetchone()
    if not exists or not exists[0]:
        return 0
    row = conn.execute("SELECT max(version) FROM wom_migrations").fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def migrate(conn: psycopg.Connection[Any], database: str) -> list[Migration]:
    """Apply the migrations this database lacks, in one transaction; the ones applied.

    ``DatabaseError`` if the database was migrated by a newer wom-tui (its tables are left alone).
    """
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute("""CREATE TABLE IF NOT EXISTS wom_migrations (
                            version integer PRIMARY KEY,
                            description text NOT NULL,
                            applied_at timestamptz NOT NULL DEFAULT now())""")
        current = schema_version(conn)
        if current > SCHEMA_VERSION:
            raise DatabaseError(database, f"the database has schema version {current}; this wom-tui knows "
                                          f"up to version {SCHEMA_VERSION} (upgrade wom-tui)")
        applied = []
        for migration in MIGRATIONS:
            if migration.version <= current:
                continue
            # One round trip per migration (statements without parameters may be sent together).
            conn.execute(";\n".join(migration.statements))
            conn.execute("INSERT INTO wom_migrations (version, description) VALUES (%s, %s)",
                         (migration.version, migration.description))
            applied.append(migration)
    return applied



__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "Migration", "fold_sql", "migrate", "schema_version"]
