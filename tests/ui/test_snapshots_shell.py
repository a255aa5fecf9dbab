"""Visual regression snapshots of the shell screens at 80×24 (update with --snapshot-update)."""

from __future__ import annotations

from textual.widgets import Input

from wom_tui.domain.store.documents import encode_users
from wom_tui.domain.store.folder.files import atomic_write
from wom_tui.domain.users import User, UserRegistry

from .conftest import build_app, wait_for

SIZE = (80, 24)


async def no_blink(pilot) -> None:
    """Turn off the cursor blink so every run draws the same frame."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()


def test_menu(snap_compare, data_dir):
    assert snap_compare(build_app(data_dir), terminal_size=SIZE)


def test_register_after_welcome(snap_compare, data_dir):
    async def run_before(pilot) -> None:
        await pilot.press("r")
        await wait_for(pilot, lambda: pilot.app.screen.query(Input))
        await no_blink(pilot)
        await pilot.press(*"Alan", "enter")
        await wait_for(pilot, lambda: "Welcome" in str(pilot.app.screen.query_one("#register-result").render()))
        await pilot.press(*"alan", "enter")
        await wait_for(pilot, lambda: "taken" in str(pilot.app.screen.query_one("#register-result").render()))

    assert snap_compare(build_app(data_dir), terminal_size=SIZE, run_before=run_before)


def test_scoreboard(snap_compare, data_dir):
    users = [User("Alan", 25, 3), User("Ada", 9, 2), User("bob", 9, 1), User("Cy", 1, 4), User("Dee")]
    atomic_write(data_dir / "users.json", encode_users(UserRegistry(users)))

    async def run_before(pilot) -> None:
        await pilot.press("s")
        await wait_for(pilot, lambda: pilot.app.screen.query("#board-table"))

    assert snap_compare(build_app(data_dir), terminal_size=SIZE, run_before=run_before)


def test_help(snap_compare, data_dir):
    async def run_before(pilot) -> None:
        await pilot.press("f1")
        await wait_for(pilot, lambda: pilot.app.screen.query(".help-example"))

    assert snap_compare(build_app(data_dir), terminal_size=SIZE, run_before=run_before)
