"""Choosing the store: --store / WOM_STORE on wom-tui and wom-tui serve, else the data folder."""

from __future__ import annotations

import subprocess
import sys
from random import Random

import psycopg
import pytest

from wom_tui import __main__ as cli
from wom_tui.domain.store.postgres.errors import describe
from wom_tui.domain.store.postgres.store import PostgresStore
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.settings import Settings, open_store


@pytest.fixture
def captured(monkeypatch):
    """Run main() with the app and server replaced by recorders of the options they receive."""
    seen = {}

    def fake_app(options, rng, identity=None):
        seen.update(command="play", options=options)
        return 0

    def fake_server(settings):
        seen.update(command="serve", options=settings)
        return 0

    import wom_tui.launch
    import wom_tui.serve

    monkeypatch.setattr(wom_tui.launch, "run_app", fake_app)
    monkeypatch.setattr(wom_tui.serve, "run_server", fake_server)
    monkeypatch.delenv("WOM_STORE", raising=False)
    return seen


URL = "postgresql://wom@db.example/arcade"


@pytest.mark.parametrize("argv", [["--store", URL], ["serve", "--store", URL], ["--store", URL, "serve"]])
def test_store_option_reaches_the_app_and_the_server(captured, argv):
    assert cli.main(argv) == 0
    assert captured["options"].store == URL
    assert captured["command"] == ("serve" if "serve" in argv else "play")


def test_store_falls_back_to_the_environment_and_the_option_wins(captured, monkeypatch):
    monkeypatch.setenv("WOM_STORE", URL)
    cli.main([])
    assert captured["options"].store == URL
    cli.main(["--store", "postgresql://other/db"])
    assert captured["options"].store == "postgresql://other/db"


def test_without_a_store_the_data_folder_keeps_everything(captured, tmp_path):
    cli.main(["--data-dir", str(tmp_path)])
    options = captured["options"]
    assert options.store is None
    store = open_store(options)
    assert isinstance(store, Store) and store.data_dir == tmp_path


def test_a_database_url_opens_the_postgresql_store(postgres_server, tmp_path):
    url = postgres_server.new_database()
    store = open_store(Settings(data_dir=tmp_path, seed=1, store=url))
    try:
        assert isinstance(store, PostgresStore)
        store.register("Alan")
    finally:
        store.close()
    assert not (tmp_path / "users.json").exists()


def test_the_data_folder_never_imports_the_database_driver(tmp_path):
    code = ("import sys; from wom_tui.settings import Settings, open_store; "
            f"s = open_store(Settings(data_dir={str(tmp_path)!r}, seed=1)); s.register('Alan'); s.scoreboard(); "
            "import wom_tui.app, wom_tui.__main__; "
            "sys.exit(1 if any(m.startswith(('psycopg', 'psycopg_pool')) for m in sys.modules) else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_serve_refuses_to_start_on_a_database_it_cannot_use(capsys, monkeypatch):
    monkeypatch.delenv("WOM_STORE", raising=False)
    bad = "postgresql://wom:hunter2@127.0.0.1:1/arcade"
    assert cli.main(["serve", "--port", "0", "--store", bad]) == 1
    err = capsys.readouterr().err
    assert "wom-tui serve: cannot use the database: postgresql://wom@127.0.0.1:1/arcade: cannot use the database" in err
    assert "hunter2" not in err


async def test_the_app_shows_a_bad_row_where_it_shows_a_damaged_file(postgres_server, tmp_path):
    from wom_tui.app import WomApp
    from wom_tui.screens.errors import StoreErrorScreen

    url = postgres_server.new_database()
    store = PostgresStore(url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO wom_users (name, score) VALUES ('[b]Al[/b]', 3)")
    app = WomApp(store, Random(1), Settings(data_dir=tmp_path, seed=1, computer_pace=0, store=url))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, StoreErrorScreen)
            shown = str(app.screen.query_one("#error-path").render()) + str(app.screen.query_one("#error-reason").render())
            assert describe(url) in shown
            assert "table wom_users, row 1: invalid name '[b]Al[/b]'" in shown
            assert postgres_server.password not in shown
            labels = [str(label.render()) for label in app.screen.query(".error-label")]
            assert labels == ["Database:", "Reason:"]
            assert "Check that the database is running" in str(app.screen.query_one("#error-advice").render())
    finally:
        store.close()


def test_serve_migrates_the_database_and_hands_it_to_its_sessions_by_environment(postgres_server, monkeypatch):
    import os

    import wom_tui.serve.server as server

    url = postgres_server.new_database()
    seen = {}
    # setenv first: monkeypatch restores only what it changed, and a delenv of an unset variable
    # changes nothing, so serve's WOM_STORE would leak into every later test.
    monkeypatch.setenv("WOM_STORE", "")
    monkeypatch.delenv("WOM_STORE")
    monkeypatch.setattr(server, "run_server", lambda settings: seen.update(env=os.environ.get("WOM_STORE")) or 0)
    assert cli.main(["serve", "--port", "0", "--store", url]) == 0
    assert seen["env"] == url  # each session's game process inherits it; its command line never shows it
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT max(version) FROM wom_migrations").fetchone()[0] >= 1


def test_a_store_that_is_not_a_database_address_is_refused(tmp_path, capsys):
    assert cli.main(["--data-dir", str(tmp_path / "data"), "--store", str(tmp_path / "elsewhere")]) == 1
    assert "not a PostgreSQL address (postgresql://user@host/db); a data folder is given with --data-dir" in \
        capsys.readouterr().err
    assert not (tmp_path / "elsewhere").exists()
