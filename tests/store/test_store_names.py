"""Look-alike names on both stores: refused with the reason, atomically, and old look-alikes still open.

Tests taking ``store_factory`` run on the data folder and on PostgreSQL.
"""

from __future__ import annotations

import json
import threading

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wom_tui.domain.store import open_store
from wom_tui.domain.store.postgres import migrations
from wom_tui.domain.users import NameRejected, fold_name


def test_lookalikes_of_reserved_and_taken_names_are_refused_and_nothing_is_kept(store_factory):
    store = store_factory()
    store.register("Viktor")
    before = store_factory.state()
    for name, reason in (("Guest 1", "kept for players without a name"), ("HAL 9000", "HAL9000"),
                         ("HAL9000.", "HAL9000"), ("V1KI", "VIKI"), ("V1ktor", "looks like Viktor"),
                         ("viktor", "already taken")):
        with pytest.raises(NameRejected, match=reason):
            store.register(name)
    assert store_factory.state() == before
    assert [u.name for u in store.scoreboard()] == ["Viktor"]


def test_two_lookalikes_registered_at_once_one_gets_it(store_factory):
    stores = [store_factory() for _ in range(6)]
    stores[0].check()
    barrier = threading.Barrier(6)
    outcome: list[str] = []

    def register(n: int, name: str) -> None:
        barrier.wait()
        try:
            stores[n].register(name)
            outcome.append("ok")
        except NameRejected as refused:
            outcome.append(refused.reason)

    threads = [threading.Thread(target=register, args=(n, name))
               for n, name in enumerate(["Zoe", "Z0e", "zoe.", "2oe", "Z O E", "ZOE"])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert outcome.count("ok") == 1, outcome
    assert len(stores[0].scoreboard()) == 1


def test_a_folder_holding_lookalikes_from_before_still_opens(tmp_path):
    store = open_store(tmp_path / "data")
    store.register("Bob")
    path = tmp_path / "data" / "users.json"
    data = json.loads(path.read_text())
    data["users"].append({**data["users"][0], "name": "B0B", "keys": []})
    path.write_text(json.dumps(data))
    again = open_store(tmp_path / "data")
    assert sorted(u.name for u in again.scoreboard()) == ["B0B", "Bob"]
    with pytest.raises(NameRejected, match="looks like Bob"):
        again.register("b o b")


@pytest.fixture
def pg_url(postgres_server):
    return postgres_server.new_database()


def test_a_database_holding_lookalikes_from_before_migrates_opens_and_refuses_a_third(pg_url, monkeypatch):
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:5])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 5)
    old = open_store(pg_url)
    for name in ("Bob", "B0B", "Alan"):
        old.register(name)  # (version 5 knew nothing of look-alikes)
    old.close()
    monkeypatch.undo()
    store = open_store(pg_url)
    try:
        assert sorted(u.name for u in store.scoreboard()) == ["Alan", "B0B", "Bob"]
        for name in ("b o b", "BO8"):
            with pytest.raises(NameRejected, match="looks like Bob"):
                store.register(name)
        store.register("Bea")
        with psycopg.connect(pg_url) as conn:
            assert conn.execute("SELECT name FROM wom_users WHERE look_exempt").fetchall() == [("B0B",)]
    finally:
        store.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._-", max_size=20))
def test_postgresql_folds_names_as_the_rules_do(postgres_server, name):
    url = getattr(test_postgresql_folds_names_as_the_rules_do, "url", None)
    if url is None:
        url = test_postgresql_folds_names_as_the_rules_do.url = postgres_server.new_database()
    with psycopg.connect(url) as conn:
        (folded,) = conn.execute(f"SELECT {migrations.fold_sql('%s')}", (name,)).fetchone()
    assert folded == fold_name(name)
