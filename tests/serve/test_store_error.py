"""The store-error screen: a served player sees what they can do and a reference, never the server's paths
(the details go to the server's log under that reference); a local player sees the file and the reason."""

from __future__ import annotations

import logging
import random
import re
from pathlib import Path

import pytest
from textual.widgets import Static

from wom_tui.app import WomApp
from wom_tui.domain.identity import Identity
from wom_tui.domain.store.folder.store import FolderStore as Store
from wom_tui.screens.errors import StoreErrorScreen
from wom_tui.settings import Settings

from .conftest import until
from .sshterm import ServerFactory, connect, newest_session, open_terminal

DAMAGED = "{ this is not JSON"
REFERENCE = re.compile(r"E\d{6}-\d+")


def damage(data_dir: Path) -> Path:
    """Write a users file nobody can read; its path."""
    store = Store(data_dir)
    store.users_path.parent.mkdir(parents=True, exist_ok=True)
    store.users_path.write_text(DAMAGED, encoding="utf-8")
    return store.users_path


def screen_text(app: WomApp) -> str:
    return "\n".join(str(static.render()) for static in app.screen.query(Static))


async def test_over_ssh_the_player_sees_a_reference_and_the_operator_the_details(
    start_server: ServerFactory, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="wom_tui.serve")
    users = damage(tmp_path / "data")
    server = await start_server()
    terminal = await open_terminal(await connect(server))
    await terminal.wait_for_text("tell the server's")
    await terminal.wait_until(lambda t: REFERENCE.search(t.text) is not None)
    shown = " ".join(terminal.text.split())
    reference = REFERENCE.search(shown)
    assert reference is not None
    assert "The server cannot use the game's data just now." in shown and "Press r to try again" in shown
    assert str(tmp_path) not in shown and "users" not in shown and "JSON" not in shown
    label = newest_session(server).label
    await until(lambda: reference.group() in caplog.text)
    (line,) = [r.getMessage() for r in caplog.records if reference.group() in r.getMessage()]
    assert line.startswith(f"{label}: game: ") and str(users) in line


async def test_locally_the_player_sees_the_file_and_why(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    users = damage(tmp_path)
    for served in (False, True):
        caplog.clear()
        identity = Identity.guest() if served else None
        app = WomApp(Store(tmp_path), random.Random(1), Settings(data_dir=tmp_path, seed=1, served=served), identity)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda app=app: isinstance(app.screen, StoreErrorScreen) and bool(app.screen.query("#error-reason")))
            await pilot.pause()
            text = screen_text(app)
            if served:
                assert str(users) not in text and REFERENCE.search(text)
                assert str(users) in caplog.text and REFERENCE.search(text).group() in caplog.text  # type: ignore[union-attr]
                await pilot.press("r")  # still damaged: a new failure, logged under a reference again
                await until(lambda: caplog.text.count("store error, reference") == 2)
                assert isinstance(app.screen, StoreErrorScreen)
            else:
                assert str(users) in text and not REFERENCE.search(text)
                assert "store error, reference" not in caplog.text
