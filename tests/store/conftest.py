"""One fixture for the store contract: every test that takes ``store_factory`` runs on both stores."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_tmp import tmp_path, tmp_path_factory  # data folders in memory: no waiting on fsync (memory_tmp.py)
from wom_tui.domain.store import open_store

from .helpers import snapshot

__all__ = ["tmp_path", "tmp_path_factory"]

TABLES = ("wom_users", "wom_games", "wom_hall_of_fame", "wom_user_keys", "wom_links", "wom_solo_games",
          "wom_browser_codes", "wom_browser_sessions", "wom_bans", "wom_retired", "wom_kicks", "wom_broadcast")


class StoreFactory:
    """Opens stores on one place (a data folder or a PostgreSQL schema): ``factory()`` is a new store there.

    Each call is a separate store object, as another process would open it; ``state()`` is
    everything kept, raw (each file's bytes, or each table's rows), to prove a refusal changed nothing.
    """

    def __init__(self, kind: str, location: str, new_location) -> None:
        self.kind = kind
        self.location = location
        self._new_location = new_location
        self._opened = []

    def __call__(self, location: str | None = None):
        store = open_store(location or self.location)
        self._opened.append(store)
        return store

    def fresh(self):
        """A store on another empty place of the same kind (for hypothesis examples and races).

        A folder is new each time; on PostgreSQL it is one spare schema, emptied each time (so no
        two places from ``fresh`` are in use at once).
        """
        return self(self._new_location(spare=True))

    def state(self, location: str | None = None):
        location = location or self.location
        if self.kind == "json":
            return snapshot(Path(location)) if Path(location).exists() else {}
        import psycopg

        with psycopg.connect(location) as conn:
            return {table: conn.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall() for table in TABLES}

    def close(self) -> None:
        """Close every store opened here (their connection pools' threads end: see ``workers.start_all``)."""
        for store in self._opened:
            store.close()
        self._opened.clear()


@pytest.fixture(params=["json", "postgresql"])
def store_factory(request, tmp_path_factory):
    """Stores of one kind on an empty place: a new data folder, or an emptied schema of the session's PostgreSQL server."""
    if request.param == "json":
        def new_location(spare: bool = False) -> str:
            return str(tmp_path_factory.mktemp("store") / "new" / "data")
    else:
        server = request.getfixturevalue("postgres_server")

        def new_location(spare: bool = False) -> str:
            # Two schemas reused from test to test and emptied each time: the contract tests use only
            # the store's methods, which never change the tables themselves.
            return server.emptied_database("spare" if spare else "main")
    factory = StoreFactory(request.param, new_location(), new_location)
    yield factory
    factory.close()
