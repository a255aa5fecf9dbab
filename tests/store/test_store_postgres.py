"""What only the PostgreSQL store has: a server to reach, rows someone may edit, migrations, restarts."""

from __future__ import annotations

import socket
from dataclasses import replace

import psycopg
import pytest

from wom_tui.domain.store.postgres import migrations
from wom_tui.domain.store.postgres import store as pgstore
from wom_tui.domain.codes import SOLO_RULESET
from wom_tui.domain.halloffame import HallEntry
from wom_tui.domain.stats import GameSummary
from wom_tui.domain.store.postgres.errors import DatabaseError, describe
from wom_tui.domain.store.postgres.migrations import SCHEMA_VERSION
from wom_tui.domain.store.postgres.store import PostgresStore
from wom_tui.domain.store import StoreError
from wom_tui.domain.table import SeatHolder
from wom_tui.domain.users import User

from .helpers import wom_game
from .workers import CTX, TIMEOUT, wait_until


@pytest.fixture
def url(postgres_server):
    return postgres_server.new_database()


@pytest.fixture
def opened():
    stores = []

    def open_(location, **kwargs):
        store = PostgresStore(location, **kwargs)
        stores.append(store)
        return store

    yield open_
    for store in stores:
        store.close()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def run_sql(location: str, statement: str, params=()) -> list[tuple]:
    with psycopg.connect(location, autocommit=True) as conn:
        cursor = conn.execute(statement, params)
        return cursor.fetchall() if cursor.description else []


# ---- the same store


def test_the_database_store_offers_everything_the_folder_store_offers():
    """The app is handed either store: a method only the folder has is a crash on the database
    (it was: the theme, My stats, replays and the daily code came to the folder first)."""
    from wom_tui.domain.store.folder.store import FolderStore as Store

    def offered(cls) -> set[str]:
        return {name for name in dir(cls) if not name.startswith("_")}

    folder_only = {"index_path", "ratings_path"}  # the folder's caches' files; the database keeps tables
    assert offered(Store) - folder_only <= offered(PostgresStore)


# ---- reaching the database


def test_the_description_never_shows_the_password():
    assert describe("postgresql://wom:hunter2@db.example:6543/arcade?sslmode=require") == \
        "postgresql://wom@db.example:6543/arcade"
    assert describe("postgresql:///arcade") == "postgresql://localhost/arcade"
    assert "hunter2" not in describe("postgresql://wom:hunter2@[::1")


def test_an_unreachable_database_names_it_and_the_reason_without_the_password():
    port = closed_port()
    with pytest.raises(StoreError) as caught:
        PostgresStore(f"postgresql://wom:hunter2@127.0.0.1:{port}/arcade", connect_timeout=2)
    message = str(caught.value)
    assert message.startswith(f"postgresql://wom@127.0.0.1:{port}/arcade: cannot use the database (")
    assert "refused" in message.lower()
    assert "hunter2" not in message
    assert "\n" not in message


def test_a_wrong_password_is_said_as_it_is(postgres_server):
    wrong = postgres_server.url().replace(postgres_server.password, "not-the-password")
    with pytest.raises(DatabaseError, match="password authentication failed") as caught:
        PostgresStore(wrong)
    assert "not-the-password" not in str(caught.value)


def test_the_command_line_says_when_the_database_cannot_be_used(capsys, monkeypatch):
    from wom_tui import __main__ as cli

    monkeypatch.setenv("WOM_STORE", f"postgresql://wom:hunter2@127.0.0.1:{closed_port()}/arcade")
    assert cli.main(["--seed", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("wom-tui: cannot use the database: postgresql://wom@127.0.0.1:")
    assert "hunter2" not in err and "Traceback" not in err


def test_a_database_gone_for_good_is_reported_with_the_reason_and_nothing_applied(postgres_server, url, opened):
    store = opened(url, retry_pause=0.01, connect_timeout=1)
    store.register("Alan")
    postgres_server.stop("fast")
    try:
        with pytest.raises(DatabaseError) as caught:
            store.record_game(wom_game("Alan"))
    finally:
        postgres_server.start()
    assert str(caught.value).startswith(describe(url) + ": ")
    assert caught.value.reason.startswith("cannot reach the database (")
    assert "refused" in caught.value.reason.lower()
    assert (store.user("Alan").score, store.games()) == (0, [])  # the same store works again


def test_a_pool_that_gives_no_connection_in_time_does_not_fail_a_reachable_database(url, opened, monkeypatch, caplog):
    """On a machine too busy to run the pool's threads (or a pool stuck backing off), each call waited
    POOL_WAIT seconds for a connection five times over and failed with "lost the connection" while the
    database answered at once (twice in one run of the suite under load): the call runs on a connection
    of its own, and it is logged."""
    from psycopg_pool import ConnectionPool, PoolTimeout

    def no_connection(self, timeout=None):
        raise PoolTimeout("couldn't get a connection after 2.00 sec")

    store = opened(url, retry_pause=0.01)
    monkeypatch.setattr(ConnectionPool, "connection", no_connection)
    with caplog.at_level("WARNING", logger="wom_tui.store"):
        store.register("Alan")
        store.record_game(wom_game("Alan"))
    monkeypatch.undo()
    assert store.user("Alan").score > 0 and len(store.games()) == 1
    assert "gave no connection" in caplog.text


# ---- rows someone may have edited


BAD_ROWS = {
    "escape codes in a name": ("INSERT INTO wom_users (name) VALUES (%s)", ("\x1b[31mAl",),
                               "table wom_users, row 2: invalid name"),
    "a computer's name": ("INSERT INTO wom_users (name) VALUES ('viki')", (), "VIKI is a computer player's name"),
    "a game that is not one": ("INSERT INTO wom_games VALUES ('20261120T120000000000Z-0123456789ab', 'wom', "
                               "'2026-11-20T12:00:00+00:00', '{\"kind\": \"wom\"}')", (),
                               "table wom_games, row '20261120T120000000000Z-0123456789ab': missing field"),
    "a hall record under another ruleset": (
        "INSERT INTO wom_hall_of_fame VALUES ('5-wom-repeats-10', %s)",
        (psycopg.types.json.Jsonb(HallEntry(SOLO_RULESET, 4, "Alan").as_json()),),
        "table wom_hall_of_fame, row '5-wom-repeats-10': the record is for"),
}


@pytest.mark.parametrize("case", sorted(BAD_ROWS))
def test_a_bad_row_is_a_store_error_naming_the_table_and_row_and_stays_as_it_is(postgres_server, url, opened, case):
    statement, params, reason = BAD_ROWS[case]
    store = opened(url)
    store.register("Alan")
    run_sql(url, statement, params)
    before = {table: run_sql(url, f"SELECT * FROM {table} ORDER BY 1")
              for table in ("wom_users", "wom_games", "wom_hall_of_fame")}
    with pytest.raises(StoreError) as caught:
        store.check()
    assert reason in str(caught.value)
    assert str(caught.value).startswith(describe(url) + ": ")
    assert postgres_server.password not in str(caught.value)
    after = {table: run_sql(url, f"SELECT * FROM {table} ORDER BY 1")
             for table in ("wom_users", "wom_games", "wom_hall_of_fame")}
    assert after == before


# ---- the schema


def test_a_new_database_is_migrated_once_and_remembers_it(url, opened):
    first = opened(url)
    assert [m.version for m in first.applied] == [m.version for m in migrations.MIGRATIONS]
    again = opened(url)
    assert (again.applied, again.version) == ([], SCHEMA_VERSION)
    assert run_sql(url, "SELECT version FROM wom_migrations ORDER BY version") == \
        [(m.version,) for m in migrations.MIGRATIONS]


def test_a_database_of_the_first_schema_is_upgraded_keeping_everything(url, opened, monkeypatch):
    FP = "SHA256:" + "K" * 43
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:1])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 1)
    # (recording a game then kept no ratings: that table came later)
    monkeypatch.setattr(PostgresStore, "_update_ratings", staticmethod(lambda conn, game_id, record: None))
    old = opened(url)  # what the first PostgreSQL wom-tui made: users and games, no keys, no live state
    old.register("Alan")
    game_id = old.record_game(wom_game("Alan", points=4))
    old.close()
    monkeypatch.undo()

    new = opened(url)
    assert [m.version for m in new.applied] == [m.version for m in migrations.MIGRATIONS[1:]]
    assert [(u.name, u.score, u.games, u.keys) for u in new.users()] == [("Alan", 4, 1, ())]
    assert [gid for gid, _ in new.games_with_ids()] == [game_id]
    assert new.bind_key("alan", FP).keys == (FP,)
    assert new.live.create_table(SeatHolder("Alan", "s-alan", True)).names == ("Alan", None)


def test_games_kept_before_the_summary_column_are_summarised_by_the_migration(url, opened, monkeypatch):
    # Migration 14 adds each game's summary (generated from its record): games kept before it, a damaged
    # row whose record is not even an object, and a record from before records said where they were
    # played all read as before; the damaged one is still left out with its reason.
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:13])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 13)
    old = opened(url)
    old.register("Alan")
    older = old.record_game(wom_game("Alan", points=4))  # (no hot_seat: as recorded before)
    old.close()
    run_sql(url, "INSERT INTO wom_games VALUES ('20200101T000000000000Z-000000000000', 'solo', "
                 "'2020-01-01T00:00:00+00:00', '\"not a record\"')")
    monkeypatch.undo()

    new = opened(url)
    assert [m.version for m in new.applied] == [m.version for m in migrations.MIGRATIONS[13:]]
    summaries, left_out = new.game_summaries()
    assert [(s.game_id, s.hot_seat) for s in summaries] == [(older, None)]
    assert summaries == [GameSummary.of(older, new.game(older))]
    assert [str(e) for e in left_out] == [f"{describe(url)}: table wom_games, row "
                                          "'20200101T000000000000Z-000000000000': a game must be an object"]
    hot_seat = new.record_game(replace(wom_game("Alan"), hot_seat=True))
    assert run_sql(url, "SELECT summary->'hot_seat', summary->'names' FROM wom_games WHERE id = %s",
                   (hot_seat,)) == [(True, ["Alan", "HAL9000"])]


def test_a_database_from_a_newer_wom_tui_is_refused_and_left_alone(url, opened):
    opened(url).register("Alan")
    run_sql(url, "INSERT INTO wom_migrations (version, description) VALUES (%s, 'from the future')",
            (SCHEMA_VERSION + 1,))
    with pytest.raises(DatabaseError, match=f"schema version {SCHEMA_VERSION + 1}; this wom-tui knows up to"):
        PostgresStore(url)
    assert run_sql(url, "SELECT name FROM wom_users") == [("Alan",)]


def test_store_migrate_applies_the_migrations_explicitly(url, capsys):
    from wom_tui import __main__ as cli

    assert cli.main(["store", "migrate", "--store", url]) == 0
    out = capsys.readouterr().out
    assert "applied migration 1 (users, finished games and the hall of fame)" in out
    assert f"schema version {SCHEMA_VERSION}, up to date" in out
    assert cli.main(["--store", url, "store", "migrate"]) == 0
    assert "applied" not in capsys.readouterr().out
    assert run_sql(url, "SELECT count(*) FROM wom_users") == [(0,)]


def test_store_migrate_without_a_database_says_what_it_needs(capsys, monkeypatch):
    from wom_tui import __main__ as cli

    monkeypatch.delenv("WOM_STORE", raising=False)
    assert cli.main(["store", "migrate"]) == 2
    assert "give the database with --store postgresql://" in capsys.readouterr().err


# ---- exactly once


def test_a_game_recorded_again_under_its_id_applies_nothing_twice(url, opened, monkeypatch):
    """What a retry after a cut COMMIT does: the same id again finds the game kept and adds no points."""
    store = opened(url)
    store.register("Alan")
    monkeypatch.setattr(pgstore, "new_game_id", lambda: "20261120T120000000000Z-0123456789ab")
    assert store.record_game(wom_game("Alan", points=3)) == "20261120T120000000000Z-0123456789ab"
    assert store.record_game(wom_game("Alan", points=3)) == "20261120T120000000000Z-0123456789ab"
    assert (store.user("Alan").score, store.user("Alan").games, len(store.games())) == (3, 1, 1)


def _play_through_restarts(location: str, done, errors, stop, failures) -> None:
    store = PostgresStore(location)
    while not stop.is_set():
        try:
            store.record_game(wom_game("Alan"))
            done.value += 1
        except StoreError:
            errors.value += 1
        except Exception as exc:  # anything else is a bug: reported to the test
            failures.put(repr(exc))
            raise


@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_a_server_restarted_mid_game_loses_nothing_and_applies_nothing_twice(postgres_server, url, opened, mode):
    opened(url).register("Alan")
    done, errors = CTX.Value("q", 0), CTX.Value("q", 0)
    stop, failures = CTX.Event(), CTX.Queue()
    player = CTX.Process(target=_play_through_restarts, args=(url, done, errors, stop, failures))
    player.start()
    try:
        wait_until(lambda: done.value >= 20, "games before the restart")
        postgres_server.restart(mode)
        after_restart = done.value
        wait_until(lambda: done.value >= after_restart + 20, "games after the restart")
    finally:
        stop.set()
        player.join(TIMEOUT)
    assert failures.empty() and player.exitcode == 0
    store = opened(url)
    alan = store.user("Alan")
    kept = len(store.games())
    assert alan.score == alan.games == kept
    # Every game the player was told was kept is kept; one cut mid-COMMIT may be kept though reported.
    assert done.value <= kept <= done.value + errors.value
    assert errors.value == 0  # the restart took well under the retries' patience: play went on


def test_registering_through_a_restart_gives_the_name_to_its_registrant(postgres_server, url, opened):
    store = opened(url, retry_pause=0.05)
    store.register("Alan")
    postgres_server.restart("fast")
    assert store.register("Bea") == User("Bea")
    assert [u.name for u in store.users()] == ["Alan", "Bea"]


def test_a_table_dropped_by_hand_is_a_store_error_not_a_traceback(url, opened):
    store = opened(url)
    run_sql(url, "DROP TABLE wom_games")
    with pytest.raises(StoreError, match=r'refused the request \(relation "wom_games" does not exist\)'):
        store.check()
    assert store.register("Alan") == User("Alan")  # what does not need the table still works


# ---- themes, stats and the daily code on the database


def test_a_bad_game_row_is_left_out_of_the_summaries_and_named(url, opened):
    store = opened(url)
    store.register("Alan")
    kept = store.record_game(wom_game("Alan"))
    run_sql(url, "INSERT INTO wom_games VALUES ('20200101T000000000000Z-000000000000', 'solo', "
                 "'2020-01-01T00:00:00+00:00', '{\"kind\": \"solo\"}')")
    summaries, left_out = store.game_summaries()
    assert [s.game_id for s in summaries] == [kept]
    assert [str(e) for e in left_out] == [f"{describe(url)}: table wom_games, row "
                                          "'20200101T000000000000Z-000000000000': missing field 'finished_at'"]


def test_the_daily_secret_is_made_once_for_every_server(url, opened):
    secret = opened(url).daily_secret()
    assert len(secret) == 32
    assert opened(url).daily_secret() == secret
    run_sql(url, "UPDATE wom_daily_secret SET secret = 'zz'")
    with pytest.raises(StoreError, match="wom_daily_secret.*hex"):
        opened(url).daily_secret()
