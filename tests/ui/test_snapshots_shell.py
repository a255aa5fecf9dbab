"""Visual regression snapshots of the shell screens at 80×24 (update with --snapshot-update)."""

from __future__ import annotations

from textual.widgets import Input

from wom_tui.domain.store.documents import encode_users
from wom_tui.domain.store.folder.files import atomic_write
from wom_tui.domain.users import User, UserRegistry

from .conftest import build_app, no_blink, wait_for

SIZE = (80, 24)
NARROW = (60, 20)


def test_menu(snap_compare, data_dir, size=SIZE):
    assert snap_compare(build_app(data_dir), terminal_size=size)


def test_register_after_welcome(snap_compare, data_dir, size=SIZE):
    async def run_before(pilot) -> None:
        await pilot.press("r")
        await wait_for(pilot, lambda: pilot.app.screen.query(Input))
        await no_blink(pilot)
        await pilot.press(*"Alan", "enter")
        await wait_for(pilot, lambda: "Welcome" in str(pilot.app.screen.query_one("#register-result").render()))
        await pilot.press(*"alan", "enter")
        await wait_for(pilot, lambda: "taken" in str(pilot.app.screen.query_one("#register-result").render()))

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_scoreboard(snap_compare, data_dir, size=SIZE):
    users = [User("Alan", 25, 3), User("Ada", 9, 2), User("bob", 9, 1), User("Cy", 1, 4), User("Dee")]
    atomic_write(data_dir / "users.json", encode_users(UserRegistry(users)))

    async def run_before(pilot) -> None:
        await pilot.press("s")
        await wait_for(pilot, lambda: pilot.app.screen.query("#board-table"))

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


def test_help(snap_compare, data_dir, size=SIZE):
    async def run_before(pilot) -> None:
        await pilot.press("f1")
        await wait_for(pilot, lambda: pilot.app.screen.query(".help-example"))

    assert snap_compare(build_app(data_dir), terminal_size=size, run_before=run_before)


# ---------------------------------------------------------------- the same screens at 60×20


def test_menu_60x20(snap_compare, data_dir):
    """Menu, at 60×20: everything needed to play shows."""
    test_menu(snap_compare, data_dir, size=NARROW)


def test_register_after_welcome_60x20(snap_compare, data_dir):
    """Register after welcome, at 60×20: everything needed to play shows."""
    test_register_after_welcome(snap_compare, data_dir, size=NARROW)


def test_scoreboard_60x20(snap_compare, data_dir):
    """Scoreboard, at 60×20: everything needed to play shows."""
    test_scoreboard(snap_compare, data_dir, size=NARROW)


def test_help_60x20(snap_compare, data_dir):
    """Help, at 60×20: everything needed to play shows."""
    test_help(snap_compare, data_dir, size=NARROW)
